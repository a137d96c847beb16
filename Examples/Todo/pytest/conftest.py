"""The to-do app's server in testing mode, and a typed Python client generated from its
contract (../openapi.json, written by `Todo --contract`) with openapi-python-client, as a
client in another language would make one. $MVVM_SERVER names the app's binary."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = os.environ.get("MVVM_SERVER", "Todo")
CONTRACT = Path(__file__).resolve().parent.parent / "openapi.json"


class Server:
    """The to-do app on a free loopback port, in testing mode."""

    def __init__(self):
        self.process = subprocess.Popen([SERVER, "--testing", "--port", "0", "--log-level", "warning"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.process.stdout.readline())
        assert match, "the to-do app did not start"
        self.base = match.group(1)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def todo_client(tmp_path_factory):
    """The package openapi-python-client generates from the committed contract."""
    folder = tmp_path_factory.mktemp("generated")
    subprocess.run(["openapi-python-client", "generate", "--path", str(CONTRACT), "--output-path", str(folder / "todo_client"),
                    "--meta", "none"], check=True, capture_output=True, env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"})
    sys.path.insert(0, str(folder))
    return importlib.import_module("todo_client")
