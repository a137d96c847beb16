"""Only local clients get in, tried from a real browser: the inspector opened at 127.0.0.1 and at
localhost works, and a page of another origin (a second port) is refused unless that origin is
allowed, as a DNS-rebinding or cross-site attacker's page would be."""

from __future__ import annotations

import http.server
import threading

import pytest
from selenium.webdriver.common.by import By

from conftest import Server
from test_inspector import cell, wait

# The page of another origin: it creates a session on the server named in its query, reads its
# navigation, and follows it as Server-Sent Events, then reports what it could read.
PAGE = b"""<!doctype html><meta charset="utf-8"><title>another origin</title><script>
const server = new URLSearchParams(location.search).get("server");
window.report = {};
(async () => {
  try {
    const created = await fetch(server + "/sessions", {method: "POST"});
    window.report.created = created.status;
    const id = (await created.json()).id;
    window.report.instance = created.headers.get("MVVM-Instance");
    const input = await fetch(`${server}/sessions/${id}/scenes/car/input`,
      {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({make: "Page"})});
    window.report.input = input.status;
    const stream = new EventSource(`${server}/sessions/${id}/scenes/car`);
    stream.addEventListener("state", (event) => { window.report.streamed = JSON.parse(event.data).input.make; stream.close(); });
    stream.onerror = () => { window.report.streamError = true; stream.close(); };
  } catch (error) {
    window.report.error = String(error);
  }
})();
</script>"""


class OtherOrigin:
    """A page server on a second loopback port: another origin than the app's server."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(PAGE)

            def log_message(self, *_):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture
def other_origin():
    page = OtherOrigin()
    yield page
    page.stop()


def session_count(server: Server) -> int:
    return len(server.get("/testing/sessions").json()["sessions"])


def test_the_inspector_opened_at_localhost_drives_the_server(server, browser):
    session = server.session()
    local = server.base.replace("127.0.0.1", "localhost")
    browser.get(f"{local}/inspector?session={session}")
    wait(browser, lambda d: cell(d, "input.filter", "films") == "")
    form = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.scene[data-key="films"] form[data-action="select"]'))
    form.find_element(By.NAME, "id").send_keys("4")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: [entry["key"] for entry in server.get(f"/sessions/{session}/navigation").json()["stack"]] == ["films", "film/4"])


def test_a_page_of_another_origin_is_refused(server, browser, other_origin):
    before = session_count(server)
    browser.get(f"{other_origin.origin}/?server={server.base}")
    wait(browser, lambda d: "error" in (d.execute_script("return window.report") or {}))
    # The browser sent the POST (no preflight for it) and the server refused it: nothing made.
    assert session_count(server) == before


def test_a_page_of_an_allowed_origin_calls_the_api_and_follows_a_stream(browser, other_origin):
    server = Server("--allowed-origin", other_origin.origin)
    try:
        browser.get(f"{other_origin.origin}/?server={server.base}")
        report = wait(browser, lambda d: (lambda r: r if r and ("streamed" in r or "error" in r or "streamError" in r) else None)(d.execute_script("return window.report")), 10)
        assert report.get("created") == 201, report
        assert report.get("instance"), "MVVM-Instance is exposed to the page"
        assert report.get("input") == 200, report
        assert report.get("streamed") == "Page", report
    finally:
        server.stop()
