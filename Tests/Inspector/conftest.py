"""The inspector page in headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium), against the example app's server in testing mode.

$MVVM_SERVER names the server binary (default: the package's debug build), $MVVM_TODO the
binary of Examples/Todo (default: its build in .build-examples), a user's app; screenshots go to
$INSPECTOR_SCREENSHOTS (default .build-inspector/screenshots).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import requests
from selenium import webdriver

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("MVVM_SERVER", str(ROOT / ".build/debug/server"))
TODO = os.environ.get("MVVM_TODO", str(ROOT / ".build-examples/debug/Todo"))
SCREENSHOTS = Path(os.environ.get("INSPECTOR_SCREENSHOTS", str(ROOT / ".build-inspector/screenshots")))


class Server:
    """An app's server in testing mode (the example app's unless `binary` names another), with
    `flags` of its own added."""

    def __init__(self, *flags: str, binary: str = SERVER):
        self.process = subprocess.Popen(
            [binary, "--testing", "--port", "0", "--state", "none", "--log-level", "warning", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.process.stdout.readline())
        assert match, "the server did not start"
        self.base = match.group(1)

    def post(self, path: str, body=None) -> requests.Response:
        return requests.post(self.base + path, json=body, timeout=30)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.base + path, timeout=30)

    def session(self) -> str:
        answer = self.post("/sessions")
        assert answer.status_code == 201
        session = answer.json()["id"]
        assert self.get(f"/sessions/{session}/settled?wait=10").json()["settled"]
        return session

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def failing_server():
    """A server whose first SWAPI request fails with no retry: a new session's films fail to
    load, and the alert is presented modally."""
    running = Server("--swapi-fail-first", "1", "--swapi-retries", "0")
    yield running
    running.stop()


@pytest.fixture
def todo_server():
    """Examples/Todo, a user's app built on the public API alone, in testing mode."""
    running = Server(binary=TODO)
    yield running
    running.stop()


@pytest.fixture
def browser(request):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(argument)
    binary = next((path for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.path.exists(path)), None)
    if binary:
        options.binary_location = binary
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver") if os.path.exists("/usr/bin/chromedriver") else None
    driver = webdriver.Chrome(options=options, service=service) if service else webdriver.Chrome(options=options)
    yield driver
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{request.node.name}.png"))
    driver.quit()
