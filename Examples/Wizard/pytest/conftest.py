"""The sign-up wizard's server in testing mode, over plain HTTP: $MVVM_SERVER names its binary
(Examples/Wizard's `Wizard`). Each test starts its own server and stops it at the end."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
import requests

SERVER = os.environ.get("MVVM_SERVER", "Wizard")


class Server:
    """The wizard on a free loopback port, in testing mode (its sessions in a file of its own)."""

    def __init__(self):
        self.process = subprocess.Popen([SERVER, "--testing", "--port", "0", "--log-level", "warning"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.process.stdout.readline())
        assert match, "the wizard did not start"
        self.base = match.group(1)
        self.http = requests.Session()

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.base + path, timeout=30)

    def post(self, path: str, body=None) -> requests.Response:
        return self.http.post(self.base + path, json=body, timeout=30)

    def session(self) -> str:
        answer = self.post("/sessions")
        assert answer.status_code == 201, answer.text
        return answer.json()["id"]

    def step(self, session: str) -> str:
        """The key of the step shown in the sign-up's slot."""
        navigation = self.get(f"/sessions/{session}/navigation").json()
        return navigation["stack"][0]["slots"]["step"]["key"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def wizard():
    server = Server()
    yield server
    server.stop()
