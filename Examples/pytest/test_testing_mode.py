"""Integration tests of the example app in another language: pytest over plain HTTP, against the
server in testing mode (no Swift, no client library)."""

from __future__ import annotations

import copy
import subprocess
import time


def test_a_thirty_second_backoff_passes_without_sleeping(start_server):
    # The first SWAPI request fails (503); the retry waits 30 s of the test clock.
    server = start_server("--swapi-fail-first", "1", "--swapi-backoff-ms", "30000")
    began = time.monotonic()
    session = server.session()
    server.advance(0)
    assert server.get(f"/sessions/{session}/scenes/films").json()["lifecycle"] == "loading"
    assert server.get("/testing/clock").json()["nextDeadline"] == 30
    server.advance(30)
    films = server.get(f"/sessions/{session}/scenes/films").json()
    assert films["lifecycle"] == "loaded"
    assert films["output"]["count"] > 0
    assert time.monotonic() - began < 10, "the test clock moved, not the wall clock"


def test_settling_instead_of_polling(start_server):
    server = start_server()
    session = server.session()
    settled = server.settle(session)
    films = server.get(f"/sessions/{session}/scenes/films").json()
    assert films["lifecycle"] == "loaded"
    assert settled["versions"]["scenes"]["films"] == films["version"]


def test_recreate_finds_nothing_lost(start_server):
    server = start_server()
    session = server.session()
    server.settle(session)
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": "the"}).status_code == 200
    assert server.post(f"/sessions/{session}/scenes/car/input", {"make": "Lamborghini"}).status_code == 200
    server.settle(session)
    report = server.post(f"/sessions/{session}/recreate")
    assert report.status_code == 200, report.text
    scenes = {scene["key"]: scene["lost"] for scene in report.json()["scenes"]}
    assert set(scenes) >= {"films", "car"}
    assert all(lost == [] for lost in scenes.values()), scenes
    assert server.get(f"/sessions/{session}/scenes/films").json()["input"]["filter"] == "the"


def recorded_session(server) -> tuple[str, dict]:
    """A session driven by hand, settling after each step, and its exported journal."""
    session = server.session()
    server.settle(session)
    for step in [("/scenes/films/input", {"filter": "the"}), ("/scenes/films/actions/select", {"id": "4"})]:
        assert server.post(f"/sessions/{session}{step[0]}", step[1]).status_code == 200
        server.settle(session)
    assert server.post(f"/sessions/{session}/navigation/back").status_code == 200
    journal = server.get(f"/sessions/{session}/journal")
    assert journal.status_code == 200
    return session, journal.json()


def test_an_exported_journal_replays_without_divergence(start_server, tmp_path):
    server = start_server()
    session, journal = recorded_session(server)
    assert [entry["path"] for entry in journal["entries"]] == [
        "/scenes/films/input", "/scenes/films/actions/select", "/navigation/back"]
    replay = server.post("/replays", journal)
    assert replay.status_code == 201, replay.text
    assert replay.json()["divergence"] is None
    assert replay.json()["steps"] == 3
    replayed = replay.json()["session"]
    assert replayed != session
    assert server.get(f"/sessions/{replayed}/scenes/films").json()["input"]["filter"] == "the"

    # The same journal as a shell script, run with sh and curl.
    script = tmp_path / "journal.sh"
    script.write_text(server.get(f"/sessions/{session}/journal", params={"format": "curl"}).text)
    run = subprocess.run(["sh", str(script), server.base], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    scripted = run.stdout.strip().splitlines()[-1]
    assert server.get(f"/sessions/{scripted}/scenes/films").json()["input"]["filter"] == "the"


def test_a_journal_edited_by_hand_names_its_divergence(start_server):
    server = start_server()
    _, journal = recorded_session(server)
    edited = copy.deepcopy(journal)
    edited["entries"][0]["answer"]["output"]["count"] += 1
    replay = server.post("/replays", edited)
    assert replay.status_code == 201, replay.text
    divergence = replay.json()["divergence"]
    assert divergence["seq"] == journal["entries"][0]["seq"]
    assert divergence["members"] == ["answer.output.count"]
    assert divergence["actual"]["answer"]["output"]["count"] == journal["entries"][0]["answer"]["output"]["count"]


def test_each_session_waits_on_a_clock_of_its_own(start_server):
    # Every SWAPI request takes 60 s of the test clock; the app's SWAPI client is made once, for
    # every session, and waits on the clock of the session it works for.
    server = start_server("--swapi-latency-ms", "60000")
    first, second = server.session(), server.session()
    moved = server.post(f"/sessions/{first}/clock/advance", {"seconds": 60})
    assert moved.status_code == 200, moved.text
    assert moved.json()["settled"] is True
    assert server.get(f"/sessions/{first}/scenes/films").json()["lifecycle"] == "loaded"
    assert server.get(f"/sessions/{second}/scenes/films").json()["lifecycle"] == "loading"
    other = server.get(f"/sessions/{second}/clock").json()
    assert other["now"] == 0 and other["nextDeadline"] == 60


def test_a_journal_that_spans_a_clock_move_replays_and_ends_where_it_did(start_server):
    server = start_server("--swapi-latency-ms", "60000")
    session = server.session()
    assert server.post(f"/sessions/{session}/clock/advance", {"seconds": 60}).json()["settled"] is True
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": "the"}).status_code == 200
    journal = server.get(f"/sessions/{session}/journal").json()
    assert [entry["path"] for entry in journal["entries"]] == ["/clock/advance", "/scenes/films/input"]
    replay = server.post("/replays", journal)
    assert replay.status_code == 201, replay.text
    assert replay.json()["divergence"] is None, replay.json()
    replayed = replay.json()["session"]
    # Loaded without moving any clock after the replay: the replay moved its session's own.
    films = server.get(f"/sessions/{replayed}/scenes/films").json()
    assert films["lifecycle"] == "loaded"
    assert films["input"]["filter"] == "the"
    assert server.get(f"/sessions/{replayed}/clock").json()["now"] == 60
    assert server.get("/testing/clock").json()["now"] == 0
