#!/usr/bin/env python3
"""kill -9 during a burst of inputs, then a restart: every acknowledged input must be back.

Starts the server binary on a state file of its own, creates sessions, and sends inputs to each
from a thread of its own (one at a time per session, each a new filter numbered in sequence)
while the main thread kills the server with SIGKILL mid-burst. Then it starts the server again on
the same file and checks, for every session: it answers under its id, its input is the last one
acknowledged (or the one in flight when the server died), its version is above every version
acknowledged before, and its navigation is back.

Usage: scripts/crash_test.py SERVER_BINARY [--sessions N] [--burst-seconds S]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def start(binary, state):
    process = subprocess.Popen([binary, "--port", "0", "--state", state, "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        process.kill()
        sys.exit(f"crash test: the server did not start: {line!r}")
    return process, int(match.group(1))


def request(connection, method, path, body=None):
    connection.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json"} if body is not None else {})
    response = connection.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


class Burst(threading.Thread):
    """Sends inputs to one session until the server dies; keeps what was acknowledged."""

    def __init__(self, port, session):
        super().__init__(daemon=True)
        self.port = port
        self.session = session
        self.acknowledged = 0          # the number of the last input answered 200
        self.acknowledged_version = 0  # its version
        self.sent = 0

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            while True:
                self.sent += 1
                status, state = request(connection, "POST", f"/sessions/{self.session}/scenes/films/input", {"filter": f"n{self.sent}"})
                if status != 200:
                    return
                self.acknowledged = self.sent
                self.acknowledged_version = state["version"]
        except (OSError, http.client.HTTPException):
            return  # the server died


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("binary")
    arguments.add_argument("--sessions", type=int, default=16)
    arguments.add_argument("--burst-seconds", type=float, default=1.5)
    options = arguments.parse_args()

    folder = tempfile.mkdtemp(prefix="mvvm-crash-")
    state = os.path.join(folder, "state.sqlite")
    try:
        server, port = start(options.binary, state)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sessions = []
        for _ in range(options.sessions):
            status, created = request(connection, "POST", "/sessions")
            assert status == 201, f"POST /sessions answered {status}"
            sessions.append(created["id"])
        # One session also navigates, so that the navigation is checked too (once its films loaded).
        status, films = request(connection, "GET", f"/sessions/{sessions[0]}/scenes/films")
        while films["lifecycle"] != "loaded":
            status, films = request(connection, "GET", f"/sessions/{sessions[0]}/scenes/films?since={films['version']}&wait=5")
        status, _ = request(connection, "POST", f"/sessions/{sessions[0]}/scenes/films/actions/select", {"id": "1"})
        assert status == 200, f"select answered {status}"
        connection.close()

        bursts = [Burst(port, session) for session in sessions]
        for burst in bursts:
            burst.start()
        time.sleep(options.burst_seconds)
        server.send_signal(signal.SIGKILL)
        server.wait()
        for burst in bursts:
            burst.join(timeout=15)
        acknowledged = sum(burst.acknowledged for burst in bursts)
        assert acknowledged > 0, "no input was acknowledged before the kill"

        server, port = start(options.binary, state)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        failures = []
        for burst in bursts:
            status, films = request(connection, "GET", f"/sessions/{burst.session}/scenes/films")
            if status != 200:
                failures.append(f"{burst.session[:6]}…: answered {status} after the restart")
                continue
            number = int(films["input"]["filter"][1:]) if films["input"]["filter"] else 0
            # The last acknowledged input, or the one in flight when the server died.
            if number not in (burst.acknowledged, burst.acknowledged + 1) or number > burst.sent:
                failures.append(f"{burst.session[:6]}…: input n{number}, acknowledged n{burst.acknowledged}, sent n{burst.sent}")
            if films["version"] <= burst.acknowledged_version:
                failures.append(f"{burst.session[:6]}…: version {films['version']} is not above the acknowledged {burst.acknowledged_version}")
        status, navigation = request(connection, "GET", f"/sessions/{sessions[0]}/navigation")
        keys = [entry["key"] for entry in navigation["stack"]] if status == 200 else []
        if keys != ["films", "film/1"]:
            failures.append(f"the navigation came back as {keys}")
        server.terminate()
        server.wait(timeout=10)
        print(f"crash test: {len(bursts)} sessions, {acknowledged} inputs acknowledged before kill -9, "
              f"{sum(b.sent for b in bursts) - acknowledged} in flight or refused; after the restart: "
              f"{'every acknowledged input is back, versions above the acknowledged' if not failures else 'FAILED'}")
        for failure in failures:
            print("  " + failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
