"""Turns the session of a failure that Schemathesis found into the smallest journal that still
fails: the session's journal up to its first 5xx answer, then entries taken out one at a time
while a new session given the rest still ends with that status (each step replayed after the
session settles, as POST /replays does). The smallest sequence is then sent to one more new
session, whose journal is the reproduction: exported as JSON and as curl commands.

    python3 shrink_journal.py BASE_URL SESSION OUT_DIR

Exits 0 with OUT_DIR/failure.journal.json and OUT_DIR/failure.sh written; 1 when the session's
journal has no 5xx answer (the failure is in what an answer holds, not in its status: the
session's journal is exported whole); 2 when the server cannot be read."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request


def request(method: str, url: str, body: bytes | None = None) -> tuple[int, bytes, dict]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers), timeout=30) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def new_session(base: str) -> str:
    status, body, _ = request("POST", f"{base}/sessions")
    assert status == 201, f"POST /sessions answered {status}"
    return json.loads(body)["id"]


def run(base: str, entries: list[dict]) -> tuple[str, int]:
    """Sends `entries` to a new session, settling it before each; its id and the last status."""
    session = new_session(base)
    status = 0
    for entry in entries:
        request("GET", f"{base}/sessions/{session}/settled?wait=5")
        body = None if entry.get("body") is None else json.dumps(entry["body"]).encode()
        status, _, _ = request(entry["method"], f"{base}/sessions/{session}{entry['path']}", body)
    request("GET", f"{base}/sessions/{session}/settled?wait=5")
    return session, status


def export(base: str, session: str, out: str) -> None:
    for suffix, name in (("", "failure.journal.json"), ("?format=curl", "failure.sh")):
        status, body, _ = request("GET", f"{base}/sessions/{session}/journal{suffix}")
        assert status == 200, f"the journal of {session} answered {status}"
        with open(f"{out}/{name}", "wb") as file:
            file.write(body)


def main() -> int:
    base, session, out = sys.argv[1:4]
    status, body, _ = request("GET", f"{base}/sessions/{session}/journal")
    if status != 200:
        print(f"the journal of {session} answered {status}", file=sys.stderr)
        return 2
    entries = json.loads(body)["entries"]
    failing = next((index for index, entry in enumerate(entries) if entry["status"] >= 500), None)
    if failing is None:
        export(base, session, out)
        return 1
    target = entries[failing]["status"]
    kept = entries[: failing + 1]
    print(f"  the session's journal: {len(entries)} entries, {target} at entry {failing + 1}; shrinking")
    shrunk = True
    while shrunk:
        shrunk = False
        for index in range(len(kept) - 1):
            candidate = kept[:index] + kept[index + 1:]
            if run(base, candidate)[1] == target:
                kept = candidate
                shrunk = True
                break
    session, status = run(base, kept)
    assert status == target, f"the shrunk sequence answered {status}, not {target}"
    export(base, session, out)
    print(f"  shrunk to {len(kept)} entries, ending with {target}:", *(f"{e['method']} {e['path']}" for e in kept), sep="\n    ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
