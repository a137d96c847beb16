#!/usr/bin/env python3
"""Reaches every status that openapi.yaml documents, for every operation, on live servers.

    scripts/check-statuses.py --server .build/debug/server [--spec openapi.yaml]

Every operation's 403 and 421 (a foreign Origin, a foreign Host) are reached on each operation's
own path (foreign_clients). Starts the server three times on free ports (one roomy, one with a single session slot, for the
capacity answers of POST /sessions and POST /replays, both in testing mode; and one not in
testing mode, for the 404 of the testing routes), drives them with hand-written requests, one scenario per
documented (operation, status), and checks that each answer has the status, content type,
documented headers and body schema that openapi.yaml gives for it. Fails listing every
documented status that no scenario produced, and every scenario whose answer did not conform.

A few statuses can only come from an app whose scene fails (a factory or an action that throws,
a factory that makes the wrong view model); the example app has none. Those are reached over
HTTP by the Swift test named in APP_DEPENDENT instead, and this checker makes sure it names them.

Needs PyYAML and jsonschema_rs (both come with Schemathesis) and the standard library.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import jsonschema_rs
import yaml

ROOT = Path(__file__).resolve().parent.parent

# (operationId, status) that only a failing app produces, and the Swift test that reaches each.
APP_DEPENDENT_TEST = "Tests/MVVMServerTests/API/AppFailureAPITests.swift"
APP_DEPENDENT = {
    ("getSceneState", "409"), ("getSceneState", "500"),
    ("setInput", "409"), ("setInput", "500"),
    ("performAction", "409"), ("performAction", "500"),
    ("getSnapshot", "409"), ("getSnapshot", "500"),
}

MAX_BODY_BYTES = 4096


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


class Server:
    """The server binary on a free loopback port, until stop()."""

    def __init__(self, binary: str, *flags: str):
        # Each server saves its sessions in a state file of its own, removed by stop().
        self.folder = tempfile.mkdtemp(prefix="mvvm-state-")
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--state", os.path.join(self.folder, "state.sqlite"), "--log-level", "warning", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.port = int(match.group(1))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def write_locked(self, request: Callable[[], Response]) -> Response:
        """The answer to `request` while another connection holds the state file's write lock:
        the server's commit fails, as on a full disk or an I/O error."""
        connection = sqlite3.connect(os.path.join(self.folder, "state.sqlite"), isolation_level=None)
        try:
            connection.execute("BEGIN IMMEDIATE")
            return request()
        finally:
            connection.execute("ROLLBACK")
            connection.close()

    def request(self, method: str, path: str, body: bytes | str | None = None, headers: dict | None = None,
                timeout: float = 10) -> Response:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = body.encode() if isinstance(body, str) else body
            all_headers = dict(headers or {})
            if data is not None:
                all_headers.setdefault("Content-Type", "application/json")
            connection.request(method, path, body=data, headers=all_headers)
            answer = connection.getresponse()
            return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            connection.close()

    def session(self) -> str:
        response = self.request("POST", "/sessions")
        assert response.status == 201, response
        return response.json["id"]

    def parked(self) -> int:
        text = self.request("GET", "/metrics").body.decode()
        match = re.search(r"^mvvm_parked_requests ([0-9.]+)$", text, re.M)
        return int(float(match.group(1))) if match else 0

    def park(self, path: str, version: Callable[[], int]) -> threading.Thread:
        """Parks a long-poll on `path` at its current version (retrying while versions move)."""
        before = self.parked()
        for _ in range(50):
            since = version()
            thread = threading.Thread(target=self.request, args=("GET", f"{path}?since={since}&wait=5"), daemon=True)
            thread.start()
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline and thread.is_alive():
                if self.parked() > before:
                    return thread
                time.sleep(0.01)
            thread.join()
        raise RuntimeError(f"could not park a request on {path}")


NOBODY = "AAAAAAAAAAAAAAAAAAAAAA"  # well-formed, but no session has it


def scenarios(main: Server, tiny: Server, plain: Server) -> dict[tuple[str, str], Callable[[], Response]]:
    """One request (after its setup) per (operationId, status)."""
    s: dict[tuple[str, str], Callable[[], Response]] = {}

    def gone() -> str:
        session = main.session()
        assert main.request("DELETE", f"/sessions/{session}").status == 204
        return session

    def settled(session: str, *keys: str) -> str:
        """The session once the scenes under `keys` are made and nothing of it runs any more
        (GET …/settled): no version moves by itself after."""
        for key in keys:
            assert main.request("GET", f"/sessions/{session}/scenes/{key}").status == 200
        answer = main.request("GET", f"/sessions/{session}/settled?wait=10")
        assert answer.json.get("settled") is True, answer
        return session

    def at_capacity(suffix: str, *keys: str) -> Response:
        """A second long-poll on a session's `suffix`, while one is parked there (the limit per
        session is 1). Tried again should the parked one be answered first (a version moved)."""
        for _ in range(3):
            session = settled(main.session(), "films", *keys)
            path = f"/sessions/{session}{suffix}"
            version = lambda: main.request("GET", path).json["version"]
            thread = main.park(path, version)
            try:
                answer = main.request("GET", f"{path}?since={version()}&wait=5")
            finally:
                main.request("DELETE", f"/sessions/{session}")  # answers the parked one (410)
                thread.join()
            if answer.status == 503:
                break
        return answer

    # System.
    s["getIndex", "200"] = lambda: main.request("GET", "/")
    s["getHealth", "200"] = lambda: main.request("GET", "/health")
    s["getOpenAPI", "200"] = lambda: main.request("GET", "/openapi.yaml")
    s["getAppContract", "200"] = lambda: main.request("GET", "/openapi.json")
    s["getCatalogue", "200"] = lambda: main.request("GET", "/scenes")
    s["getMetrics", "200"] = lambda: main.request("GET", "/metrics")

    # Sessions.
    s["createSession", "201"] = lambda: main.request("POST", "/sessions")

    def create_at_capacity() -> Response:
        session = tiny.session()  # the only slot
        path = f"/sessions/{session}/navigation"
        thread = tiny.park(path, lambda: tiny.request("GET", path).json["version"])
        try:
            return tiny.request("POST", "/sessions")
        finally:
            tiny.request("DELETE", f"/sessions/{session}")
            thread.join()
    s["createSession", "503"] = create_at_capacity

    for op, method, suffix, ok in [("getSession", "GET", "", "200"), ("deleteSession", "DELETE", "", "204"),
                                   ("clearStore", "DELETE", "/store", "204")]:
        s[op, ok] = lambda method=method, suffix=suffix: main.request(method, f"/sessions/{main.session()}{suffix}")
        s[op, "404"] = lambda method=method, suffix=suffix: main.request(method, f"/sessions/{NOBODY}{suffix}")
        s[op, "410"] = lambda method=method, suffix=suffix: main.request(method, f"/sessions/{gone()}{suffix}")

    # Scene state.
    def scene(key: str, suffix: str = "", query: str = "") -> str:
        return f"/sessions/{main.session()}/scenes/{key}{suffix}{query}"

    s["getSceneState", "200"] = lambda: main.request("GET", scene("car"))

    def not_modified() -> Response:
        # The films load in the background after the session is made: when a newer version
        # came between the two reads, the answer is rightly 200 with it; read again.
        session = main.session()
        for _ in range(50):
            current = main.request("GET", f"/sessions/{session}/scenes/films")
            answer = main.request("GET", f"/sessions/{session}/scenes/films", headers={"If-None-Match": current.headers["etag"]})
            if answer.status != 200 or answer.headers.get("etag") == current.headers["etag"]:
                return answer
            time.sleep(0.05)
        return answer
    s["getSceneState", "304"] = not_modified
    s["getSceneState", "400"] = lambda: main.request("GET", scene("car", query="?since=abc"))
    s["getSceneState", "404"] = lambda: main.request("GET", scene("no/such/scene"))
    s["getSceneState", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/scenes/car")

    s["getSceneState", "503"] = lambda: at_capacity("/scenes/car", "car")

    # Input.
    s["setInput", "200"] = lambda: main.request("POST", scene("car", "/input"), '{"make": "Lamborghini"}')
    s["setInput", "400"] = lambda: main.request("POST", scene("car", "/input"), '{"make": ')
    s["setInput", "404"] = lambda: main.request("POST", scene("no/such/scene", "/input"), '{"make": "x"}')
    s["setInput", "410"] = lambda: main.request("POST", f"/sessions/{gone()}/scenes/car/input", '{"make": "x"}')
    s["setInput", "413"] = lambda: main.request(
        "POST", scene("car", "/input"), json.dumps({"make": "x" * (MAX_BODY_BYTES + 1)}))
    s["setInput", "422"] = lambda: main.request("POST", scene("car", "/input"), '{"colour": "red"}')

    # Actions.
    s["performAction", "200"] = lambda: main.request("POST", scene("films", "/actions/select"), '{"id": 1}')
    s["performAction", "400"] = lambda: main.request("POST", scene("films", "/actions/select"), "[1]")
    s["performAction", "404"] = lambda: main.request("POST", scene("films", "/actions/fly"), "{}")
    s["performAction", "410"] = lambda: main.request("POST", f"/sessions/{gone()}/scenes/films/actions/select", '{"id": 1}')
    s["performAction", "413"] = lambda: main.request(
        "POST", scene("films", "/actions/select"), json.dumps({"id": 1, "pad": "x" * MAX_BODY_BYTES}))
    s["performAction", "422"] = lambda: main.request("POST", scene("films", "/actions/select"), '{"id": "no-such-film"}')

    # Snapshot.
    s["getSnapshot", "200"] = lambda: main.request("GET", scene("films", "/snapshot"))
    s["getSnapshot", "400"] = lambda: main.request("GET", scene("films", "/snapshot", "?since=1&wait=-1"))
    s["getSnapshot", "404"] = lambda: main.request("GET", scene("car", "/snapshot"))
    s["getSnapshot", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/scenes/films/snapshot")

    s["getSnapshot", "503"] = lambda: at_capacity("/scenes/search/snapshot", "search")

    # Navigation.
    s["getNavigation", "200"] = lambda: main.request("GET", f"/sessions/{main.session()}/navigation")
    s["getNavigation", "400"] = lambda: main.request("GET", f"/sessions/{main.session()}/navigation?since=-1")
    s["getNavigation", "404"] = lambda: main.request("GET", f"/sessions/{NOBODY}/navigation")
    s["getNavigation", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/navigation")

    s["getNavigation", "503"] = lambda: at_capacity("/navigation")

    def back_after_push() -> Response:
        session = main.session()
        assert main.request("POST", f"/sessions/{session}/scenes/films/actions/select", '{"id": 1}').status == 200
        return main.request("POST", f"/sessions/{session}/navigation/back")
    s["goBack", "200"] = back_after_push
    s["goBack", "404"] = lambda: main.request("POST", f"/sessions/{NOBODY}/navigation/back")
    s["goBack", "409"] = lambda: main.request("POST", f"/sessions/{main.session()}/navigation/back")
    s["goBack", "410"] = lambda: main.request("POST", f"/sessions/{gone()}/navigation/back")

    # Settling.
    s["getSettled", "200"] = lambda: main.request("GET", f"/sessions/{main.session()}/settled?wait=5")
    s["getSettled", "400"] = lambda: main.request("GET", f"/sessions/{main.session()}/settled?wait=-1")
    s["getSettled", "404"] = lambda: main.request("GET", f"/sessions/{NOBODY}/settled")
    s["getSettled", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/settled")

    def settled_at_capacity() -> Response:
        """A wait to settle while a long-poll is parked on the session (the limit per session is 1)."""
        session = settled(main.session(), "films")
        path = f"/sessions/{session}/navigation"
        thread = main.park(path, lambda: main.request("GET", path).json["version"])
        try:
            return main.request("GET", f"/sessions/{session}/settled?wait=5")
        finally:
            main.request("DELETE", f"/sessions/{session}")
            thread.join()
    s["getSettled", "503"] = settled_at_capacity

    # Events.
    s["getEvents", "200"] = lambda: main.request("GET", f"/sessions/{main.session()}/events?since=0")
    s["getEvents", "400"] = lambda: main.request("GET", f"/sessions/{main.session()}/events?since=1.5")
    s["getEvents", "404"] = lambda: main.request("GET", f"/sessions/{NOBODY}/events")

    def events_expired() -> Response:
        # The server keeps the last 256 events of a session: make more, then ask from the start.
        session = main.session()
        main.request("POST", f"/sessions/{session}/scenes/car/input", '{"make": "Lamborghini"}')
        for number in range(300):  # each changes the car's output: one `didUpdate` event
            model = "Huracan" if number % 2 else "Urus"
            main.request("POST", f"/sessions/{session}/scenes/car/input", json.dumps({"model": model}))
        response = main.request("GET", f"/sessions/{session}/events?since=1")
        assert response.json.get("type", "").endswith("/events-expired"), response
        return response
    s["getEvents", "410"] = events_expired

    s["getEvents", "503"] = lambda: at_capacity("/events")

    # Changes that cannot be saved (the state file locked by another writer): 503, undone.
    def not_saved(method: str, suffix: str, body: str | None = None, prepare: Callable[[str], None] = lambda _: None) -> Response:
        session = main.session()
        prepare(session)
        before = main.request("GET", f"/sessions/{session}/navigation").body
        answer = main.write_locked(lambda: main.request(method, f"/sessions/{session}{suffix}", body))
        after = main.request("GET", f"/sessions/{session}/navigation")
        assert after.status == 200 and after.body == before, f"the refused change was seen: {after.status} {after.body[:200]!r}"
        return answer

    def open_film(session: str):
        assert main.request("POST", f"/sessions/{session}/scenes/films/actions/select", '{"id": 1}').status == 200
    s["deleteSession", "503"] = lambda: not_saved("DELETE", "")
    s["clearStore", "503"] = lambda: not_saved("DELETE", "/store")
    s["setInput", "503"] = lambda: not_saved("POST", "/scenes/car/input", '{"make": "Lamborghini"}')
    s["performAction", "503"] = lambda: not_saved("POST", "/scenes/films/actions/select", '{"id": 1}')
    s["goBack", "503"] = lambda: not_saved("POST", "/navigation/back", prepare=open_film)

    # Testing mode: the clock, recreate, journals and replays (main and tiny run with --testing).
    too_big = json.dumps({"seconds": 1, "pad": "x" * MAX_BODY_BYTES})
    s["getTestClock", "200"] = lambda: main.request("GET", "/testing/clock")
    s["getTestClock", "404"] = lambda: plain.request("GET", "/testing/clock")
    s["advanceTestClock", "200"] = lambda: main.request("POST", "/testing/clock/advance", '{"seconds": 1.5}')
    s["advanceTestClock", "400"] = lambda: main.request("POST", "/testing/clock/advance", '{"seconds": ')
    s["advanceTestClock", "404"] = lambda: plain.request("POST", "/testing/clock/advance", '{"seconds": 1}')
    s["advanceTestClock", "413"] = lambda: main.request("POST", "/testing/clock/advance", too_big)
    s["advanceTestClock", "422"] = lambda: main.request("POST", "/testing/clock/advance", '{"seconds": -1}')

    # A session's own clock.
    s["getSessionClock", "200"] = lambda: main.request("GET", f"/sessions/{main.session()}/clock")
    s["getSessionClock", "404"] = lambda: main.request("GET", f"/sessions/{NOBODY}/clock")
    s["getSessionClock", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/clock")
    s["advanceSessionClock", "200"] = lambda: main.request("POST", f"/sessions/{main.session()}/clock/advance", '{"seconds": 2}')
    s["advanceSessionClock", "400"] = lambda: main.request("POST", f"/sessions/{main.session()}/clock/advance", '{"seconds": ')
    s["advanceSessionClock", "404"] = lambda: plain.request("POST", f"/sessions/{plain.session()}/clock/advance", '{"seconds": 1}')
    s["advanceSessionClock", "410"] = lambda: main.request("POST", f"/sessions/{gone()}/clock/advance", '{"seconds": 1}')
    s["advanceSessionClock", "413"] = lambda: main.request("POST", f"/sessions/{main.session()}/clock/advance", too_big)
    s["advanceSessionClock", "422"] = lambda: main.request("POST", f"/sessions/{main.session()}/clock/advance", '{"seconds": -1}')

    def recreated() -> Response:
        session = settled(main.session(), "films", "car")
        assert main.request("POST", f"/sessions/{session}/scenes/car/input", '{"make": "Lamborghini"}').status == 200
        return main.request("POST", f"/sessions/{session}/recreate")
    s["recreateSession", "200"] = recreated
    s["recreateSession", "400"] = lambda: main.request("POST", f"/sessions/{main.session()}/recreate?wait=soon")
    s["recreateSession", "404"] = lambda: main.request("POST", f"/sessions/{NOBODY}/recreate")
    s["recreateSession", "410"] = lambda: main.request("POST", f"/sessions/{gone()}/recreate")

    def journal(server: Server = main) -> bytes:
        session = server.session()
        assert server.request("POST", f"/sessions/{session}/scenes/car/input", '{"make": "Lamborghini"}').status == 200
        answer = server.request("GET", f"/sessions/{session}/journal")
        assert answer.status == 200, answer
        return answer.body
    s["getJournal", "200"] = lambda: main.request("GET", f"/sessions/{main.session()}/journal")
    s["getJournal", "400"] = lambda: main.request("GET", f"/sessions/{main.session()}/journal?format=xml")
    s["getJournal", "404"] = lambda: main.request("GET", f"/sessions/{NOBODY}/journal")
    s["getJournal", "410"] = lambda: main.request("GET", f"/sessions/{gone()}/journal")
    s["replayJournal", "201"] = lambda: main.request("POST", "/replays", journal())
    s["replayJournal", "400"] = lambda: main.request("POST", "/replays", "[1, 2]")
    s["replayJournal", "404"] = lambda: plain.request("POST", "/replays", journal(main))
    s["replayJournal", "413"] = lambda: main.request("POST", "/replays", json.dumps({"session": "s", "dropped": 0, "entries": [], "pad": "x" * MAX_BODY_BYTES}))
    s["replayJournal", "422"] = lambda: main.request("POST", "/replays", '{"session": "s", "dropped": 0, "entries": [{"seq": 1, "method": "POST", "path": "/scenes/nowhere/input", "body": {}, "status": 200, "answer": null}]}')

    # The inspector and the session list it reads.
    for op, path in [("getInspector", "/inspector"), ("getInspectorScript", "/inspector/inspector.js"),
                     ("getInspectorStyles", "/inspector/inspector.css"), ("listSessions", "/testing/sessions")]:
        s[op, "200"] = lambda path=path: main.request("GET", path)
        s[op, "404"] = lambda path=path: plain.request("GET", path)
    s["getInspector", "400"] = lambda: main.request("GET", "/inspector?session=%FF")

    def replay_at_capacity() -> Response:
        session = tiny.session()  # the only slot, with a request parked on it
        path = f"/sessions/{session}/navigation"
        thread = tiny.park(path, lambda: tiny.request("GET", path).json["version"])
        try:
            return tiny.request("POST", "/replays", '{"session": "s", "dropped": 0, "entries": []}')
        finally:
            tiny.request("DELETE", f"/sessions/{session}")
            thread.join()
    s["replayJournal", "503"] = replay_at_capacity
    return s


def foreign_clients(spec: "Spec", main: Server) -> dict[tuple[str, str], Callable[[], Response]]:
    """Every operation refuses a foreign Host (421, DNS rebinding) and a foreign Origin (403, a
    cross-site request) before anything else: sent to a path of each operation's template."""
    s: dict[tuple[str, str], Callable[[], Response]] = {}
    for op, (method, route) in spec.routes.items():
        path = route.replace("{id}", NOBODY).replace("{key}", "car").replace("{action}", "select")
        body = "{}" if method in ("POST", "PUT", "PATCH") else None
        s[op, "421"] = lambda method=method, path=path, body=body: main.request(method, path, body, headers={"Host": f"rebound.example:{main.port}"})
        s[op, "403"] = lambda method=method, path=path, body=body: main.request(method, path, body, headers={"Origin": "http://evil.example"})
    return s


class Spec:
    def __init__(self, path: Path):
        self.document = yaml.safe_load(path.read_text())
        self.operations: dict[str, dict] = {}
        self.routes: dict[str, tuple[str, str]] = {}  # operationId: (method, path template)
        for route, item in self.document["paths"].items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    self.operations[operation["operationId"]] = operation
                    self.routes[operation["operationId"]] = (method.upper(), route)

    def resolve(self, node: dict) -> dict:
        while "$ref" in node:
            target = self.document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def response(self, op: str, status: str) -> dict:
        return self.resolve(self.operations[op]["responses"][status])

    def problems(self, op: str, status: str, answer: Response) -> list[str]:
        """How the answer differs from what openapi.yaml says of this operation and status."""
        found = []
        if str(answer.status) != status:
            return [f"answered {answer.status}: {answer.body[:300].decode(errors='replace')}"]
        documented = self.response(op, status)
        for name, header in (documented.get("headers") or {}).items():
            header = self.resolve(header)
            value = answer.headers.get(name.lower())
            if value is None:
                found.append(f"no {name} header")
            elif header.get("schema", {}).get("type") == "integer" and not value.isdigit():
                found.append(f"{name}: {value!r} is not an integer")
            elif "const" in header.get("schema", {}) and value != header["schema"]["const"]:
                found.append(f"{name}: {value!r} is not {header['schema']['const']!r}")
        content = documented.get("content")
        if not content:
            if answer.body:
                found.append(f"a body where none is documented: {answer.body[:100]!r}")
            return found
        media_type = answer.headers.get("content-type", "")
        if media_type not in content:
            return found + [f"Content-Type {media_type!r} is not one of {sorted(content)}"]
        schema = content[media_type].get("schema", {})
        if "json" in media_type:
            root = dict(self.resolve(schema)) if "$ref" in schema else dict(schema)
            root["components"] = self.document["components"]
            errors = [f"{error.message} at {'/'.join(map(str, error.instance_path))}"
                      for error in jsonschema_rs.Draft202012Validator(root).iter_errors(answer.json)]
            found += [f"body: {error}" for error in errors[:3]]
        return found


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--server", default=str(ROOT / ".build/debug/server"))
    arguments.add_argument("--spec", default=str(ROOT / "openapi.yaml"))
    options = arguments.parse_args()
    spec = Spec(Path(options.spec))
    documented = {(op, status) for op, operation in spec.operations.items() for status in operation["responses"]}
    app_test = (ROOT / APP_DEPENDENT_TEST).read_text() if (ROOT / APP_DEPENDENT_TEST).exists() else ""

    main_server = Server(options.server, "--max-wait", "5", "--max-parked-per-session", "1",
                         "--max-body-bytes", str(MAX_BODY_BYTES), "--testing")
    tiny_server = Server(options.server, "--max-wait", "5", "--max-sessions", "1", "--testing")
    plain_server = Server(options.server, "--max-wait", "5")
    failures = []
    try:
        table = scenarios(main_server, tiny_server, plain_server)
        table.update(foreign_clients(spec, main_server))
        for key in sorted(set(table) - documented):
            failures.append(f"{key[0]} {key[1]}: a scenario reaches it, but openapi.yaml does not document it")
        for op, status in sorted(documented):
            if (op, status) in APP_DEPENDENT:
                if f"{op} {status}" in app_test:
                    print(f"  ok    {op} {status} (a failing app; reached by {APP_DEPENDENT_TEST})")
                else:
                    failures.append(f"{op} {status}: documented; {APP_DEPENDENT_TEST} does not reach it")
                continue
            scenario = table.get((op, status))
            if scenario is None:
                failures.append(f"{op} {status}: documented, but no scenario reaches it")
                continue
            try:
                answer = scenario()
                problems = spec.problems(op, status, answer)
            except Exception as error:  # a scenario's setup failed
                problems = [f"{type(error).__name__}: {error}"]
            if problems:
                failures.append(f"{op} {status}: " + "; ".join(problems))
            else:
                print(f"  ok    {op} {status}")
    finally:
        main_server.stop()
        tiny_server.stop()
        plain_server.stop()
    for failure in failures:
        print(f"  FAIL  {failure}")
    print(f"{len(documented) - len(failures)} of {len(documented)} documented statuses reached and conforming"
          + (f"; {len(failures)} problems" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
