#!/usr/bin/env python3
"""The memory a testing-mode journal costs per entry.

    python3 bench/journal_cost.py SERVER [SESSIONS] [CLOCK_EVERY]

Starts the release server twice, the same way except for --testing, sends each the same
inputs (SESSIONS sessions x 1000 inputs to the car scene: each session's journal full), and
prints the resident memory both grew by, and the difference per journal entry. The baseline is
the server without testing mode, in the same run. With CLOCK_EVERY N, every Nth request of the
server in testing mode moves the session's clock one second instead (a journal entry of its own),
so that the journal holds clock moves among the inputs.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys

ENTRIES = 1000


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def run(server: str, sessions: int, testing: bool, clock_every: int = 0) -> int:
    flags = ["--port", "0", "--state", "none", "--log-level", "warning"] + (["--testing"] if testing else [])
    process = subprocess.Popen([server, *flags], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)$", process.stdout.readline().strip()).group(1))
        connection = http.client.HTTPConnection("127.0.0.1", port)

        def request(method: str, path: str, body: dict | None = None) -> dict:
            connection.request(method, path, body=None if body is None else json.dumps(body),
                               headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            data = answer.read()
            assert answer.status < 300, (answer.status, data[:200])
            return json.loads(data) if data else {}

        ids = [request("POST", "/sessions")["id"] for _ in range(sessions)]
        for id in ids:
            request("GET", f"/sessions/{id}/scenes/car")
        before = rss_kib(process.pid)
        models = ["Urus", "Huracan"]
        for id in ids:
            for number in range(ENTRIES):
                if testing and clock_every and number % clock_every == clock_every - 1:
                    request("POST", f"/sessions/{id}/clock/advance", {"seconds": 1})
                else:
                    request("POST", f"/sessions/{id}/scenes/car/input", {"model": models[number % 2]})
        after = rss_kib(process.pid)
        if testing:
            journal = request("GET", f"/sessions/{ids[0]}/journal")
            assert len(journal["entries"]) == ENTRIES, len(journal["entries"])
        return after - before
    finally:
        process.terminate()
        process.wait()


def main() -> None:
    server = sys.argv[1]
    sessions = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    clock_every = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    plain = run(server, sessions, testing=False)
    testing = run(server, sessions, testing=True, clock_every=clock_every)
    entries = sessions * ENTRIES
    moves = f", one in {clock_every} a move of the session's clock" if clock_every else ""
    print(f"{sessions} sessions x {ENTRIES} requests{moves}: RSS grew {plain} KiB without testing mode (baseline), "
          f"{testing} KiB with it; journal: {(testing - plain) * 1024 / entries:.0f} bytes per entry")


if __name__ == "__main__":
    main()
