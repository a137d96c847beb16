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

sys.exit(1 if failures else 0)
