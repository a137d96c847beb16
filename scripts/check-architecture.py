#!/usr/bin/env python3
"""Checks the invariants ARCHITECTURE.md states, against the package and the sources.

Each check prints one line; the script fails (exit 1) when any does not hold. scripts/test runs
it after the build. The build's import check (scripts/build-options) makes a module's imports
match its declared dependencies; this script checks what the dependencies themselves may be.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
failures = []


def check(holds, statement, detail=""):
    print(("ok   " if holds else "FAIL ") + statement + (f": {detail}" if detail and not holds else ""))
    if not holds:
        failures.append(statement)


described = json.loads(subprocess.run(
    ["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in described["targets"]}


def closure(name):
    """Every target `name` builds with, itself excluded."""
    seen, todo = set(), [name]
    while todo:
        for dependency in targets[todo.pop()].get("target_dependencies") or []:
            if dependency not in seen:
                seen.add(dependency)
                todo.append(dependency)
    return seen


# The layers of the code map: what each module must not build with.
layers = {
    "MVVMSupport": set(targets) - {"MVVMSupport"},
    "MVVMJSON": {"MVVMCore", "MVVMHTTP", "CMicroHTTPD", "MVVMServer"},
    "MVVMCore": {"MVVMHTTP", "CMicroHTTPD", "MVVMServer", "MVVMSQLite", "MVVMPostgres"},
    "MVVMSQLite": {"MVVMHTTP", "CMicroHTTPD", "MVVMServer"},
    "MVVMPostgres": {"MVVMHTTP", "CMicroHTTPD", "MVVMServer"},
    "MVVMHTTP": {"MVVMCore", "MVVMServer"},
    "MVVMClient": {"MVVMCore", "MVVMHTTP", "CMicroHTTPD", "MVVMServer", "MVVMSQLite", "MVVMPostgres", "MVVMJSON"},
    # Each test target tests the module it is named after and builds with nothing above it:
    # MVVMCore's tests build and run without the HTTP runtime or libmicrohttpd.
    "MVVMJSONTests": {"MVVMCore", "MVVMHTTP", "CMicroHTTPD", "MVVMServer"},
    "MVVMCoreTests": {"MVVMHTTP", "CMicroHTTPD", "MVVMServer", "MVVMSQLite", "MVVMPostgres", "ServerTestSupport"},
    "MVVMHTTPTests": {"MVVMCore", "MVVMServer", "MVVMSQLite", "MVVMPostgres", "ServerTestSupport"},
    "MVVMSQLiteTests": {"MVVMHTTP", "CMicroHTTPD", "MVVMServer", "ServerTestSupport"},
    "TestSupport": set(targets) - {"TestSupport"},
}
for module, forbidden in layers.items():
    found = sorted(closure(module) & forbidden)
    named = "any other module of ours" if len(forbidden) >= len(targets) - 1 else ", ".join(sorted(forbidden & set(targets)))
    check(not found, f"{module} builds without {named}", f"it builds with {found}")

importers = [t for t, d in targets.items() if "CMicroHTTPD" in (d.get("target_dependencies") or [])]
check(importers == ["MVVMHTTP"], "MVVMHTTP alone depends on CMicroHTTPD", f"{importers}")
sources = {path: path.read_text() for path in (ROOT / "Sources").rglob("*.swift")}
importing = sorted(str(p.relative_to(ROOT)) for p, text in sources.items() if re.search(r"^\s*(internal |@_implementationOnly )?import CMicroHTTPD", text, re.M))
check(all(p.startswith("Sources/MVVMHTTP/") for p in importing), "only MVVMHTTP's files import CMicroHTTPD", f"{importing}")
check(targets["Scenes"].get("target_dependencies") == ["MVVMServer"], "the example app depends on MVVMServer alone")

manifest = (ROOT / "Package.swift").read_text()
for app in ("Scenes", "server"):
    declaration = re.search(r'\.(?:executableTarget|target)\(\s*name: "' + app + r'",.*?\n        \)', manifest, re.S)
    check(bool(declaration) and "packageAccess: false" in declaration.group(0), f"{app} is built with packageAccess: false")

# The framework modules: everything an app links, the testing product (which a test owns) aside.
framework = {p: t for p, t in sources.items() if p.relative_to(ROOT / "Sources").parts[0] in
             {"MVVMSupport", "MVVMJSON", "MVVMCore", "MVVMSQLite", "MVVMPostgres", "MVVMHTTP", "MVVMServer"}}
code = {p: "\n".join(line.split("//")[0] for line in t.splitlines()) for p, t in framework.items()}

checkers = {
    "MicroHTTPDResult": r"\bMHD_(queue_response|add_response_header|set_connection_option|start_daemon)\(",
    "SQLiteResult": r"\bsqlite3_(step|reset|prepare_v2|prepare_v3|bind_[a-z0-9]+|exec|finalize|wal_checkpoint_v2)\(",
}
for checker, calls in checkers.items():
    unchecked = sorted(str(p.relative_to(ROOT)) for p, t in code.items()
                       if re.search(calls, t) and checker not in t and not (checker == "SQLiteResult" and re.search(r"\bcheck\(", t)))
    check(not unchecked, f"every file calling a status-returning C function names {checker}", f"{unchecked}")

starters = sorted(str(p.relative_to(ROOT)) for p, t in code.items() if re.search(r"\bTask(\.detached)?\s*(\{|\()", t))
check(starters == ["Sources/MVVMCore/Context/ContextActor.swift"],
      "the framework starts unstructured tasks in ContextActor.swift alone (loads and launches, owned by their StoreEntry)", f"{starters}")

blocking = sorted(f"{p.relative_to(ROOT)}: {m.group(0)}" for p, t in code.items()
                  for m in re.finditer(r"DispatchSemaphore|Thread\.sleep|\busleep\(|\.wait\(\)|DispatchGroup", t))
check(not blocking, "no semaphore, sleep or wait() in the framework modules", f"{blocking}")
stops = [(p, t) for p, t in code.items() if "MHD_stop_daemon(" in t]
check(len(stops) == 1 and re.search(r"Thread\s*\{[^}]*MHD_stop_daemon\(", stops[0][1]) is not None,
      "MHD_stop_daemon is called in one place, on a Thread of its own")

# Tests wait for a condition (eventually, settling, a long-poll, the test clock), not for a
# time. The real-time sleeps left are where time itself is what is tested, each file with its
# count and why; a new one fails here until it is justified in this table.
timed_tests = {
    "Tests/TestSupport/Eventually.swift": (1, "the condition poll every other wait uses"),
    "Tests/TestSupport/ChildProcess.swift": (1, "a child process's output is polled"),
    "Tests/TestSupport/TestHTTPClient.swift": (1, "a slow client sends byte by byte"),
    "Tests/ScenesTests/Fixtures/SwapiFixtureServer.swift": (1, "a SWAPI server's latency"),
    "Tests/ScenesTests/Fixtures/CurlSession.swift": (1, "a snapshot read again until it catches up with a state"),
    "Tests/MVVMClientTests/BoardApp.swift": (1, "work a view model launches ends later"),
    "Tests/MVVMServerTests/API/Fixtures/Slow.swift": (1, "a slow load"),
    "Tests/MVVMCoreTests/ContextExecutorTests.swift": (2, "a race window widened; queued work awaited on a plain thread"),
    "Tests/MVVMCoreTests/ContextHoldTests.swift": (1, "nothing runs while a context is held"),
    "Tests/MVVMServerTests/Runtime/WorkDrainerTests.swift": (1, "queued items stay queued while the drainers are busy"),
    "Tests/MVVMServerTests/Runtime/BackgroundWorkTests.swift": (3, "nothing runs after a run ended; pieces that outlive cancellation"),
    "Tests/MVVMClientTests/SavedStateFaultTests.swift": (1, "a session's last use, saved in milliseconds"),
    "Tests/MVVMServerTests/API/SessionAPITests.swift": (3, "the least recently used session, by milliseconds of use"),
    "Tests/MVVMServerTests/API/InspectorAPITests.swift": (3, "idle time and expiry, in real seconds"),
    "Tests/MVVMServerTests/Hardening/GreedyClientTests.swift": (1, "clients that vanish while the runtime reads them"),
    "Tests/MVVMServerTests/HTTP/RuntimeTests.swift": (4, "deadlines and their sweeps; a client gone while parked"),
}
sleeping = {}
for path in (ROOT / "Tests").rglob("*.swift"):
    relative = str(path.relative_to(ROOT))
    if relative.startswith("Tests/Fuzz/"):
        continue
    count = len(re.findall(r"\bTask\.sleep\(|\busleep\(|Thread\.sleep", path.read_text()))
    if count:
        sleeping[relative] = count
unjustified = sorted(f"{p} ({n})" for p, n in sleeping.items() if n > timed_tests.get(p, (0, ""))[0])
check(not unjustified, "tests sleep in real time only where time is what they test (the table in this script)", f"{unjustified}")

sys.exit(1 if failures else 0)
