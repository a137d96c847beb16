"""The inspector follows sessions driven by curl-like clients, live, and drives them itself."""

from __future__ import annotations

import json

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

XSS = "<img src=x onerror=window.__xss=1>"


def wait(driver, condition, seconds: float = 5):
    """Waits for `condition`; the page redraws a scene when it changes, so an element found a
    moment before may be gone: that is read again."""
    return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(d))


def cell(driver, member: str, key: str):
    """The value shown for a member of a scene, read in one step; None when it is not shown."""
    return driver.execute_script(
        "const row = document.querySelector(`.scene[data-key=\"${arguments[1]}\"] tr[data-member=\"${arguments[0]}\"]`);"
        "return row ? row.children[1].textContent : null;", member, key)


def test_the_page_lists_a_session_made_by_another_client(server, browser):
    browser.get(server.base + "/inspector")
    session = server.session()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#session-list li[data-session="{session}"]'), 3)


def test_an_input_sent_elsewhere_shows_within_a_second(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: cell(d, "input.filter", "films") == "")
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": "the"}).status_code == 200
    wait(browser, lambda d: cell(d, "input.filter", "films") == "the", 1.0)
    row = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] tr[data-member="input.filter"]')
    assert "changed" in row.get_attribute("class"), "the member changed at the last version is marked"
    unchanged = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] tr[data-member="input.sort"]')
    assert "changed" not in unchanged.get_attribute("class")
    wait(browser, lambda d: any("/scenes/films/input" in item.text for item in d.find_elements(By.CSS_SELECTOR, "#journal li")))
    wait(browser, lambda d: any(item.text.startswith("#") and "didUpdate films" in item.text for item in d.find_elements(By.CSS_SELECTOR, "#events li")))


def idle_seconds(driver, session: str):
    """The idle time the session list shows for a session, in whole seconds; None when not shown."""
    text = driver.execute_script(
        "const item = document.querySelector(`#session-list li[data-session=\"${arguments[0]}\"] small`);"
        "return item ? item.textContent : null;", session)
    if not text or "idle " not in text:
        return None
    return int(text.split("idle ")[1].split(" ")[0])


def test_the_pages_own_reads_leave_the_idle_time_to_the_sessions_clients(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: cell(d, "input.filter", "films") == "")
    # The page reads the scenes and the journal twice a second, marked MVVM-Observer: the idle
    # time goes on all the same.
    wait(browser, lambda d: (idle_seconds(d, session) or 0) >= 2, 6)
    # A client's read resets it: the list, read each second, shows 0 or 1 next.
    assert server.get(f"/sessions/{session}/navigation").status_code == 200
    wait(browser, lambda d: (idle_seconds(d, session) or 99) <= 1, 3)


def test_an_action_sent_from_the_page_changes_the_server(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    form = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] form[data-action="select"]'))
    form.find_element(By.NAME, "id").send_keys("4")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: [entry["key"] for entry in server.get(f"/sessions/{session}/navigation").json()["stack"]] == ["films", "film/4"])
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="film/4"]'))


def tree(driver) -> str:
    return driver.find_element(By.ID, "navigation").text


def test_the_tree_shows_slots_and_follows_them(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: "films root" in tree(d))
    assert server.post(f"/sessions/{session}/scenes/dashboard/actions/embed", {"slot": "main", "scene": "car"}).status_code == 200
    wait(browser, lambda d: "dashboard push" in tree(d) and "main: car embedded" in tree(d))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="car"] tr[data-member="output.horsePower"]'))


def test_the_tree_shows_the_modal_and_the_page_dismisses_it(failing_server, browser):
    server = failing_server
    session = server.session()
    assert server.get(f"/sessions/{session}/navigation").json()["modal"]["key"] == "alert/films"
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: "modal: alert/films modal" in tree(d))
    wait(browser, lambda d: cell(d, "output.error", "films") == "the service answered 503")
    dismiss = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="alert/films"] form[data-action="dismiss"] button'))
    dismiss.click()
    wait(browser, lambda d: "modal:" not in tree(d))
    assert server.get(f"/sessions/{session}/navigation").json()["modal"] is None


def fetch_in_page(driver, href: str) -> str:
    """The body the browser gets for `href`, as a click on a link to it would download it."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done('failed: ' + e));", href)


def test_the_journal_exports_and_an_edited_one_replays_with_its_divergence_side_by_side(server, browser, tmp_path):
    session = server.session()
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": "the"}).status_code == 200
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#journal li"))

    exported = json.loads(fetch_in_page(browser, browser.find_element(By.ID, "export-json").get_attribute("href")))
    assert exported == server.get(f"/sessions/{session}/journal").json()
    script = fetch_in_page(browser, browser.find_element(By.ID, "export-curl").get_attribute("href"))
    assert script.startswith("#!/bin/sh") and "/scenes/films/input" in script

    entry = next(entry for entry in exported["entries"] if entry["path"].endswith("/scenes/films/input"))
    answer = dict(entry["answer"], input=dict(entry["answer"]["input"], filter="edited"))
    edited = dict(exported, entries=[dict(entry, answer=answer)])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    browser.find_element(By.CSS_SELECTOR, "#import summary").click()
    browser.find_element(By.ID, "import-file").send_keys(str(path))
    wait(browser, lambda d: '"edited"' in d.find_element(By.ID, "import-text").get_attribute("value"))
    browser.find_element(By.ID, "import-replay").click()

    wait(browser, lambda d: f"Diverged at entry #{entry['seq']}: answer.input.filter" in d.find_element(By.ID, "report").text)
    recorded, replayed = browser.find_elements(By.CSS_SELECTOR, "#report .divergence .side")
    assert recorded.text.startswith("recorded: 200") and '"filter": "edited"' in recorded.text
    assert replayed.text.startswith("replayed: 200") and '"filter": "the"' in replayed.text
    assert recorded.location["y"] == replayed.location["y"] and recorded.location["x"] < replayed.location["x"], "side by side"
    opened = browser.find_element(By.CSS_SELECTOR, "#report button[data-open]")
    replay_session = opened.get_attribute("data-open")
    opened.click()
    wait(browser, lambda d: d.find_element(By.ID, "session-id").text == replay_session)
    wait(browser, lambda d: cell(d, "input.filter", "films") == "the")


def test_a_snapshot_difference_is_marked(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="films"] .cell'))
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": "the"}).status_code == 200
    deleted = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="films"] .deleted-list'), 2)
    assert "deleted:" in deleted[0].text


def test_markup_in_a_value_shows_as_text_and_runs_nothing(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: cell(d, "input.filter", "films") == "")
    assert server.post(f"/sessions/{session}/scenes/films/input", {"filter": XSS}).status_code == 200
    wait(browser, lambda d: cell(d, "input.filter", "films") == XSS)
    assert browser.execute_script("return window.__xss") is None
    assert not browser.find_elements(By.CSS_SELECTOR, "#scenes img")


def test_the_tools_move_the_clock_go_back_recreate_and_replay(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    browser.find_element(By.CSS_SELECTOR, 'button[data-advance="10"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "clock-now").text == "10")
    assert server.get("/testing/clock").json()["now"] == 10

    cell_button = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="films"] .cell[data-item="2"] button'))
    cell_button[0].click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.scene[data-key="film/2"]'))
    browser.find_element(By.ID, "back").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, '.scene[data-key="film/2"]'))
    assert [entry["key"] for entry in server.get(f"/sessions/{session}/navigation").json()["stack"]] == ["films"]

    browser.find_element(By.ID, "recreate").click()
    wait(browser, lambda d: "films: nothing lost" in d.find_element(By.ID, "report").text)

    browser.find_element(By.ID, "replay").click()
    wait(browser, lambda d: "no divergence" in d.find_element(By.ID, "report").text)
    # The cell action, the move of the clock (in the session's journal too) and going back.
    assert "3 steps" in browser.find_element(By.ID, "report").text


def test_a_users_app_is_inspected_and_driven_like_the_example(todo_server, browser):
    server = todo_server
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: "todos root" in tree(d))
    form = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="todos"] form[data-action="add"]'))
    form.find_element(By.NAME, "title").send_keys("Buy milk")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    added = wait(browser, lambda d: [row for row in d.find_elements(By.CSS_SELECTOR, '.scene[data-key="todos"] .cell.inserted') if "Buy milk" in row.text])
    todo = added[0].get_attribute("data-item")
    items = [item for section in server.get(f"/sessions/{session}/scenes/todos/snapshot").json()["sections"] for item in section["items"]]
    assert [item["id"] for item in items] == [todo]
    wait(browser, lambda d: cell(d, "output.remaining", "todos") == "1")

    toggle = next(button for button in added[0].find_elements(By.TAG_NAME, "button") if button.text == "toggle")
    toggle.click()
    wait(browser, lambda d: cell(d, "output.remaining", "todos") == "0")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'.scene[data-key="todos"] .cell.changed[data-item="{todo}"]'))

    version = server.get(f"/sessions/{session}/scenes/todos").json()["version"]
    form = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="todos"] form[data-action="add"]')
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.ID, "report").text.startswith("Refused") and "422" in d.find_element(By.ID, "report").text)
    assert server.get(f"/sessions/{session}/scenes/todos").json()["version"] == version, "a refusal changes nothing"
    wait(browser, lambda d: any(item.text.endswith("/scenes/todos/actions/add → 422") for item in d.find_elements(By.CSS_SELECTOR, "#journal li")))

    # A refusal sent elsewhere makes no event; the page's journal shows it all the same.
    assert server.post(f"/sessions/{session}/scenes/todos/actions/add", {"title": "   "}).status_code == 422
    wait(browser, lambda d: len([item for item in d.find_elements(By.CSS_SELECTOR, "#journal li") if item.text.endswith("→ 422")]) == 2, 1.0)


def test_a_journal_that_is_not_one_is_refused_and_replays_nothing(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#session-list li[data-session="{session}"]'))
    browser.find_element(By.CSS_SELECTOR, "#import summary").click()
    for text, status in [("{not json", "400"), ('{"entries": [{"seq": 1, "method": "POST", "path": "/scenes/nowhere/input", "body": {}, "status": 200, "answer": null}], "dropped": 0}', "422")]:
        box = browser.find_element(By.ID, "import-text")
        box.clear()
        box.send_keys(text)
        browser.find_element(By.ID, "import-replay").click()
        wait(browser, lambda d: d.find_element(By.ID, "report").text.startswith(f"Replay refused\n{status}"))
    assert [entry["id"] for entry in server.get("/testing/sessions").json()["sessions"]] == [session], "no session was made"


def test_a_scene_used_by_its_key_alone_is_shown_from_the_store_marked_not_shown(server, browser):
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    wait(browser, lambda d: cell(d, "input.filter", "films") == "")
    # The car is not on the navigation: an input sent to its key makes it in the session's store.
    assert server.post(f"/sessions/{session}/scenes/car/input", {"make": "Lada"}).status_code == 200
    wait(browser, lambda d: cell(d, "input.make", "car") == "Lada", 3)
    car = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="car"]')
    assert car.get_attribute("data-shown") == "false"
    assert "not shown" in car.find_element(By.CSS_SELECTOR, ".shown-label").text
    films = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="films"]')
    assert films.get_attribute("data-shown") == "true"
    # Embedded in the dashboard's slot, it is shown.
    assert server.post(f"/sessions/{session}/scenes/dashboard/actions/embed", {"slot": "main", "scene": "car"}).status_code == 200
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="car"]').get_attribute("data-shown") == "true", 3)


def test_the_forms_give_each_member_a_field_of_its_type(server, browser):
    """The input and action forms read the member types from the app's contract
    (GET /openapi.json): an enumeration is a choice, a number a number field."""
    session = server.session()
    browser.get(f"{server.base}/inspector?session={session}")
    form = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] form.input'))
    sort = form.find_element(By.NAME, "sort")
    assert sort.tag_name == "select"
    assert [option.get_attribute("value") for option in sort.find_elements(By.TAG_NAME, "option")] == ["", "episode", "releaseDate"]
    assert form.find_element(By.NAME, "filter").get_attribute("type") == "text"
    select = browser.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] form[data-action="select"]')
    assert [select.find_element(By.NAME, name).get_attribute("type") for name in ("section", "item")] == ["number", "number"]

    browser.execute_script("arguments[0].value = 'releaseDate';", sort)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: server.get(f"/sessions/{session}/scenes/films").json()["input"]["sort"] == "releaseDate")
