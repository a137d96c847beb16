"""The sign-up wizard driven over plain HTTP, as a test in another language drives an app: its
first step shown at once, a username check that waits two seconds of the session's own clock,
and a journal spanning that clock move replayed with no divergence."""

from __future__ import annotations

import subprocess


def fill_account(wizard, session: str, username: str = "ada"):
    answer = wizard.post(f"/sessions/{session}/scenes/account/input", {"username": username, "password": "correct horse"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["output"]["username"] == "checking"


def test_the_first_answer_shows_the_first_step(wizard):
    created = wizard.post("/sessions")
    assert created.status_code == 201
    assert created.json()["navigation"]["stack"][0]["slots"]["step"]["key"] == "account"


def test_an_empty_username_sent_is_refused(wizard):
    session = wizard.session()
    refused = wizard.post(f"/sessions/{session}/scenes/account/input", {"username": ""})
    assert refused.status_code == 422
    assert refused.json()["member"] == "username"


def test_sessions_in_parallel_keep_their_own_time(wizard):
    first, second = wizard.session(), wizard.session()
    fill_account(wizard, first)
    fill_account(wizard, second, "bea")
    moved = wizard.post(f"/sessions/{first}/clock/advance", {"seconds": 2})
    assert moved.json()["settled"] is True
    assert wizard.get(f"/sessions/{first}/scenes/account").json()["output"]["username"] == "available"
    assert wizard.get(f"/sessions/{second}/scenes/account").json()["output"]["username"] == "checking"


def test_a_journal_spanning_a_clock_move_replays_with_no_divergence(wizard, tmp_path):
    session = wizard.session()
    fill_account(wizard, session)
    # next is refused while the username is still being checked.
    early = wizard.post(f"/sessions/{session}/scenes/account/actions/next")
    assert early.status_code == 422 and "still being checked" in early.json()["detail"]
    assert wizard.post(f"/sessions/{session}/clock/advance", {"seconds": 2}).status_code == 200
    assert wizard.post(f"/sessions/{session}/scenes/account/actions/next").status_code == 200
    assert wizard.post(f"/sessions/{session}/scenes/profile/input", {"displayName": "Ada L."}).status_code == 200
    assert wizard.step(session) == "profile"

    journal = wizard.get(f"/sessions/{session}/journal").json()
    assert "/clock/advance" in [entry["path"] for entry in journal["entries"]]
    replay = wizard.post("/replays", journal)
    assert replay.status_code == 201, replay.text
    assert replay.json()["divergence"] is None, replay.json()
    replayed = replay.json()["session"]
    # The replayed session ends at the same step, with nothing left to wait for, and no clock
    # moved after the replay: it moved its own clock at the journal's place.
    assert wizard.step(replayed) == "profile"
    assert replay.json()["waitingForClock"] is False
    assert wizard.get(f"/sessions/{replayed}/scenes/profile").json()["input"]["displayName"] == "Ada L."
    assert wizard.get(f"/sessions/{replayed}/clock").json()["now"] == 2
    assert wizard.get("/testing/clock").json()["now"] == 0

    # The curl export replays it too, moving the new session's clock where the journal did.
    script = tmp_path / "journal.sh"
    script.write_text(wizard.get(f"/sessions/{session}/journal?format=curl").text)
    ran = subprocess.run(["sh", str(script), wizard.base], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    by_curl = ran.stdout.strip().splitlines()[-1]
    assert wizard.step(by_curl) == "profile"
