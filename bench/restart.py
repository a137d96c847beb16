#!/usr/bin/env python3
"""Scenario 8 of bench/run.sh: serving again after a restart with many saved sessions.

    bench/restart.py SERVER_BINARY FOLDER [--sessions N] [--rounds R]

Makes a state file of N saved sessions (default 100,000): the server saves one session (the car
input set, a film selected, so the navigation has two scenes), then its rows are copied N - 1
times under new ids. Then, R times: starts the server on that file (its defaults otherwise, as
scripts/run starts it) and times, from the start of the process, the first 200 answer to a
read of a saved session's car state (a session drawn at random, restored on that first use);
beside it, the same start on an empty state file, timed to its first 200 of GET /health (the
baseline of the same run). Prints one line per round:

    RESULT round=1 restart_ms=... empty_ms=... bytes_per_session=... sessions=...
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import sqlite3
import string
import subprocess
import sys
import time

ALPHABET = string.ascii_letters + string.digits + "-_"


def request(port: int, method: str, path: str, body: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def start(binary: str, state: str) -> tuple[subprocess.Popen, int, float]:
    """The server on a free port, the port, and when the process was started (monotonic)."""
    started = time.monotonic()
    process = subprocess.Popen([binary, "--port", "0", "--state", state], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not match:
        process.kill()
        sys.exit(f"restart: the server did not start: {line!r}")
    return process, int(match.group(1)), started


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def first_ok(port: int, path: str, started: float, expect: bytes = b"") -> float:
    """Milliseconds from `started` to the first 200 answer to GET `path` (which must hold `expect`)."""
    while True:
        try:
            status, body = request(port, "GET", path)
            if status == 200:
                elapsed = (time.monotonic() - started) * 1000
                if expect not in body:
                    sys.exit(f"restart: {path} answered without {expect!r}: {body[:300]!r}")
                return elapsed
        except OSError:
            pass
        time.sleep(0.002)


def make_state(binary: str, state: str, sessions: int) -> list[str]:
    """A state file of `sessions` saved sessions; returns their ids."""
    process, port, _ = start(binary, state)
    try:
        status, body = request(port, "POST", "/sessions")
        assert status == 201, body
        template = json.loads(body)["id"]
        assert request(port, "POST", f"/sessions/{template}/scenes/car/input", '{"make": "Lamborghini", "model": "Countach"}')[0] == 200
        deadline = time.monotonic() + 30
        while json.loads(request(port, "GET", f"/sessions/{template}/scenes/films")[1])["lifecycle"] != "loaded":
            assert time.monotonic() < deadline, "the films scene did not load"
            time.sleep(0.05)
        status, body = request(port, "POST", f"/sessions/{template}/scenes/films/actions/select", '{"id": 1}')
        assert status == 200, body
    finally:
        stop(process)
    ids = [template] + ["".join(random.choices(ALPHABET, k=22)) for _ in range(sessions - 1)]
    database = sqlite3.connect(state)
    with database:
        for table, key in [("session", "id"), ("entry", "sessionId"), ("savedValue", "sessionId")]:
            columns = [row[1] for row in database.execute(f"PRAGMA table_info({table})")]
            others = ", ".join(c for c in columns if c != key)
            database.executemany(
                f"INSERT INTO {table} ({key}, {others}) SELECT ?, {others} FROM {table} WHERE {key} = ?",
                ((new, template) for new in ids[1:]))
    database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    database.close()
    return ids


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("binary")
    arguments.add_argument("folder")
    arguments.add_argument("--sessions", type=int, default=100_000)
    arguments.add_argument("--rounds", type=int, default=3)
    options = arguments.parse_args()

    shutil.rmtree(options.folder, ignore_errors=True)
    os.makedirs(options.folder)
    state = os.path.join(options.folder, "state.sqlite")
    ids = make_state(options.binary, state, options.sessions)
    size = sum(os.path.getsize(state + suffix) for suffix in ["", "-wal"] if os.path.exists(state + suffix))
    for round in range(1, options.rounds + 1):
        process, port, started = start(options.binary, state)
        restart_ms = first_ok(port, f"/sessions/{random.choice(ids)}/scenes/car", started, expect=b'"make":"Lamborghini"')
        stop(process)
        empty = os.path.join(options.folder, "empty.sqlite")
        for suffix in ["", "-wal", "-shm", ".lock"]:
            if os.path.exists(empty + suffix):
                os.remove(empty + suffix)
        process, port, started = start(options.binary, empty)
        empty_ms = first_ok(port, "/health", started)
        stop(process)
        print(f"RESULT round={round} restart_ms={restart_ms:.1f} empty_ms={empty_ms:.1f} "
              f"bytes_per_session={size / len(ids):.0f} sessions={len(ids)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
