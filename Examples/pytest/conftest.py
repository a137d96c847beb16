"""Fixtures of the integration tests: the example app's server in testing mode, over plain HTTP.

The server binary comes from $MVVM_SERVER (default: the package's debug build). Each test that
needs particular flags starts its own server with `start_server(*flags)`; each is stopped at
the end of the test.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("MVVM_SERVER", str(ROOT / ".build/debug/server"))


class Server:
    """A server on a free loopback port, with a requests session for its base URL."""

    def __init__(self, *flags: str):
        self.process = subprocess.Popen(
            [SERVER, "--testing", "--port", "0", "--state", "none", "--log-level", "warning", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.base = match.group(1)
        self.http = requests.Session()

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.http.get(self.url(path), timeout=70, **kwargs)

    def post(self, path: str, body=None, **kwargs) -> requests.Response:
        return self.http.post(self.url(path), json=body, timeout=70, **kwargs)

    def session(self) -> str:
        answer = self.post("/sessions")
        assert answer.status_code == 201, answer.text
        return answer.json()["id"]

    def advance(self, seconds: float) -> dict:
        """Moves the test clock, and returns once the work it resumed has settled."""
        answer = self.post("/testing/clock/advance", {"seconds": seconds})
        assert answer.status_code == 200, answer.text
        assert answer.json()["settled"] is True
        return answer.json()

    def settle(self, session: str) -> dict:
        answer = self.get(f"/sessions/{session}/settled", params={"wait": "30"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["settled"] is True, answer.text
        return answer.json()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def start_server():
    servers: list[Server] = []

    def start(*flags: str) -> Server:
        server = Server(*flags)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
