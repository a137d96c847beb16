#!/usr/bin/env python3
"""An app on the entry point, run as a user runs it: Examples/Counter with no flags but a free
port saves its sessions in $XDG_STATE_HOME/counter/state.sqlite, keeps its count across kill -9
and a restart, takes its settings from the environment too, prints its listening line, answers
--help, refuses a bad setting with status 64, and exits 0 on SIGTERM; the same app in testing mode
starts beside it and saves in a file of its own, removed at exit.

Usage: scripts/app_restart_test.py COUNTER_BINARY
"""
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile


def fail(message):
    sys.exit(f"app restart test: {message}")


def start(binary, environment, *flags):
    process = subprocess.Popen([binary, *flags], env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.fullmatch(r"counter listening on http://127\.0\.0\.1:(\d+)\n", line)
    if not match:
        process.kill()
        fail(f"no listening line, got {line!r}; stderr: {process.stderr.read()!r}")
    return process, int(match.group(1))


def request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json"} if body is not None else {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, (json.loads(data) if data else None)


def main():
    binary = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="mvvm-app-restart-")
    try:
        environment = dict(os.environ, XDG_STATE_HOME=folder, MVVM_PORT="0")
        environment.pop("MVVM_STATE", None)

        help_run = subprocess.run([binary, "--help"], env=environment, capture_output=True, text=True)
        # The usage names the app (Application.main's name), not the framework's bundled server.
        if help_run.returncode != 0 or "--state" not in help_run.stdout or "MVVM_PORT" not in help_run.stdout \
                or "USAGE: counter " not in help_run.stdout:
            fail(f"--help: status {help_run.returncode}, {help_run.stdout[:200]!r}")
        bad = subprocess.run([binary, "--max-wait", "-1"], env=environment, capture_output=True, text=True)
        if bad.returncode != 64 or "--max-wait" not in bad.stderr or "Usage: counter " not in bad.stderr:
            fail(f"a bad setting: status {bad.returncode}, {bad.stderr!r}")

        process, port = start(binary, environment)
        status, created = request(port, "POST", "/sessions")
        if status != 201:
            fail(f"POST /sessions answered {status}")
        session = created["id"]
        for _ in range(3):
            status, _ = request(port, "POST", f"/sessions/{session}/scenes/counter/actions/increment")
            if status != 200:
                fail(f"increment answered {status}")
        state_file = os.path.join(folder, "counter", "state.sqlite")
        if not os.path.exists(state_file):
            fail(f"no state file at {state_file}")
        process.send_signal(signal.SIGKILL)
        process.wait()

        process, port = start(binary, environment)
        status, state = request(port, "GET", f"/sessions/{session}/scenes/counter")
        if status != 200 or state["output"]["count"] != 3:
            fail(f"after kill -9 and a restart: {status} {state}")

        # Testing mode never touches the app's saved state: it starts beside the app running
        # with its defaults, saves in a file of its own that it names and removes at exit.
        testing, testing_port = start(binary, environment, "--testing")
        saved_in = next((line for line in testing.stderr if "Sessions are saved in" in line), "")
        match = re.search(r"Sessions are saved in (\S+state\.sqlite) \(testing mode", saved_in)
        if not match or match.group(1).startswith(folder):
            fail(f"testing mode's state file: {saved_in!r}")
        testing_file = match.group(1)
        status, created = request(testing_port, "POST", "/sessions")
        test_session = created["id"]
        for _ in range(5):
            request(testing_port, "POST", f"/sessions/{test_session}/scenes/counter/actions/increment")
        if not os.path.exists(testing_file):
            fail(f"testing mode saved nothing in {testing_file}")
        testing.send_signal(signal.SIGTERM)
        if testing.wait(timeout=30) != 0:
            fail(f"testing mode, SIGTERM: exit status {testing.returncode}")
        if os.path.exists(os.path.dirname(testing_file)):
            fail(f"testing mode left its state folder {os.path.dirname(testing_file)}")
        status, _ = request(port, "GET", f"/sessions/{test_session}/scenes/counter")
        if status != 404:
            fail(f"the app serves a testing-mode session: {status}")
        status, state = request(port, "GET", f"/sessions/{session}/scenes/counter")
        if status != 200 or state["output"]["count"] != 3:
            fail(f"the app's session after testing mode ran beside it: {status} {state}")

        process.send_signal(signal.SIGTERM)
        if process.wait(timeout=30) != 0:
            fail(f"SIGTERM: exit status {process.returncode}")
        process, port = start(binary, environment)
        status, _ = request(port, "GET", f"/sessions/{test_session}/scenes/counter")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        if status != 404:
            fail(f"the app restored a testing-mode session from its file: {status}")
        print("app restart test: the count came back after kill -9 (3), from the default state file; SIGTERM exits 0;"
              " testing mode ran beside it in a file of its own, removed at exit, and the app never saw its session")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
