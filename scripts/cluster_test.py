#!/usr/bin/env python3
"""Three servers sharing their sessions in PostgreSQL behind nginx (scripts/cluster): failover
without loss.

1. Failover: 100 sessions are made through nginx, each with an input set and a film pushed;
   the instance serving the most of them (about a third) is killed with SIGKILL. Every session
   must still answer through nginx under its id, with its input, its navigation and a version
   above the one acknowledged, served by another instance; a long-poll with a `since` from the
   killed instance is answered at once. Each instance names itself in the MVVM-Instance header
   and in /health, with its store.
2. Rolling restart: while a client keeps setting inputs (numbered in sequence) on six sessions,
   each instance in turn is killed and started again. Every acknowledged input must be there at
   the end, and no session may go without a successful answer for longer than the failover
   allows (FAILOVER_LIMIT seconds).
3. Let go: a session one instance made and another took over (asked straight, past nginx) is
   let go by the first within a second (its takeover announced with NOTIFY).
4. Stale holder: two instances are forced onto one session (the taps of the search scene sent
   straight to two instances at once, past nginx). Each takes the session over in turn; a tap
   saved by an instance that lost the session meanwhile must be refused (503), so the saved tap
   count equals the taps acknowledged, and some taps were refused.
5. Start-up refusals: a server pointed at a database that does not answer, or whose schema is
   newer than its own, exits non-zero naming the database and the problem.
6. What leaves stays gone: a film pushed then popped leaves the saved rows (the database shows
   the view models still held, and no more), and a session taken over by another instance comes
   back with its saved values and its navigation as they were last acknowledged.

Usage: scripts/cluster_test.py   (MVVM_SERVER names the server binary, as for scripts/cluster)
"""
import collections
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

FAILOVER_LIMIT = 5.0
CLUSTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster")
# A cluster folder of the test's own, so that a cluster a user runs is left alone.
DIR = os.environ["MVVM_CLUSTER_DIR"] = f"/tmp/mvvmserver-cluster-test-{os.getpid()}"
failures = []


def cluster(*arguments):
    return subprocess.run([CLUSTER, *arguments], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


class Client:
    """One keep-alive connection to a base URL; a request that fails on the connection is an
    answer of status 0."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.connection = None

    def request(self, method, path, body=None):
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=20)
            self.connection.request(method, path, body=None if body is None else json.dumps(body),
                                    headers={"Content-Type": "application/json"} if body is not None else {})
            response = self.connection.getresponse()
            data = response.read()
            document = json.loads(data) if data and response.getheader("Content-Type", "").endswith("json") else None
            return response.status, response.getheader("MVVM-Instance"), document
        except (OSError, http.client.HTTPException):
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return 0, None, None


def check(condition, message):
    if not condition:
        failures.append(message)
        print("  FAILED:", message)


def failover(base):
    print("== 1. failover: 100 sessions, the busiest instance killed")
    client = Client(base)
    sessions = {}
    for n in range(100):
        status, _, created = client.request("POST", "/sessions")
        assert status == 201, f"POST /sessions answered {status}"
        sessions[created["id"]] = {"filter": f"f{n}"}
    for sid, saved in sessions.items():
        status, _, films = client.request("GET", f"/sessions/{sid}/scenes/films")
        while status == 200 and films["lifecycle"] != "loaded":
            status, _, films = client.request("GET", f"/sessions/{sid}/scenes/films?since={films['version']}&wait=5")
        status, _, _ = client.request("POST", f"/sessions/{sid}/scenes/films/actions/select", {"id": "1"})
        assert status == 200, f"select answered {status}"
        status, instance, state = client.request("POST", f"/sessions/{sid}/scenes/films/input", {"filter": saved["filter"]})
        assert status == 200, f"input answered {status}"
        saved.update(instance=instance, version=state["version"])
    served = collections.Counter(saved["instance"] for saved in sessions.values())
    victim, count = served.most_common(1)[0]
    print(f"  sessions by instance: {dict(sorted(served.items()))}; killing {victim} ({count} sessions)")
    cluster("kill", victim.rsplit("-", 1)[1])
    start = time.monotonic()
    moved = 0
    for sid, saved in sessions.items():
        status, instance, state = client.request("GET", f"/sessions/{sid}/scenes/films")
        _, _, navigation = client.request("GET", f"/sessions/{sid}/navigation")
        keys = [entry["key"] for entry in navigation["stack"]] if navigation else []
        check(status == 200, f"{sid[:6]}…: answered {status} after the kill")
        if status != 200:
            continue
        check(instance != victim, f"{sid[:6]}…: answered by the killed {victim}")
        check(state["input"]["filter"] == saved["filter"], f"{sid[:6]}…: input {state['input']} instead of {saved['filter']}")
        check(keys == ["films", "film/1"], f"{sid[:6]}…: navigation {keys}")
        if saved["instance"] == victim:
            moved += 1
            check(state["version"] > saved["version"], f"{sid[:6]}…: version {state['version']} not above {saved['version']}")
            # A long-poll with a since from the killed instance is answered at once.
            asked = time.monotonic()
            status, _, polled = client.request("GET", f"/sessions/{sid}/scenes/films?since={saved['version']}&wait=10")
            check(status == 200 and polled["version"] > saved["version"] and time.monotonic() - asked < 1,
                  f"{sid[:6]}…: a long-poll since {saved['version']} answered {status} after {time.monotonic() - asked:.2f} s")
    print(f"  {len(sessions)} sessions answered with their state in {time.monotonic() - start:.2f} s; {moved} taken over from {victim}")
    cluster("start", victim.rsplit("-", 1)[1])
    for index in (1, 2, 3):
        port = open(os.path.join(DIR, f"instance-{index}.port")).read().strip()
        status, instance, health = Client(f"http://127.0.0.1:{port}").request("GET", "/health")
        check(status == 200 and instance == f"instance-{index}" and health["instance"] == instance
              and health["stateStore"] == {"kind": "postgres", "reachable": True},
              f"instance-{index}'s /health: {status} {instance} {health}")


class InputWriter(threading.Thread):
    """Sets a session's filter to f0, f1, … through nginx, one at a time, until stopped; keeps
    the last acknowledged and the longest time without a successful answer."""

    def __init__(self, base, sid):
        super().__init__(daemon=True)
        self.client, self.sid = Client(base), sid
        self.stop = threading.Event()
        self.acknowledged = None
        self.sent = 0
        self.longest_gap = 0.0
        self.errors = collections.Counter()

    def run(self):
        last_success = time.monotonic()
        while not self.stop.is_set():
            value = f"f{self.sent}"
            self.sent += 1
            status, _, _ = self.client.request("POST", f"/sessions/{self.sid}/scenes/films/input", {"filter": value})
            now = time.monotonic()
            if status == 200:
                self.acknowledged = value
                self.longest_gap = max(self.longest_gap, now - last_success)
                last_success = now
            else:
                self.errors[status] += 1
                time.sleep(0.05)
        self.longest_gap = max(self.longest_gap, time.monotonic() - last_success)


def rolling_restart(base, instances):
    print("== 2. rolling restart under inputs")
    client = Client(base)
    writers = []
    for _ in range(6):
        status, _, created = client.request("POST", "/sessions")
        assert status == 201
        writers.append(InputWriter(base, created["id"]))
    for writer in writers:
        writer.start()
    time.sleep(1)
    for index in range(1, instances + 1):
        cluster("kill", str(index))
        time.sleep(1)
        cluster("start", str(index))
        time.sleep(1.5)
    for writer in writers:
        writer.stop.set()
    for writer in writers:
        writer.join()
    for writer in writers:
        status, _, state = client.request("GET", f"/sessions/{writer.sid}/scenes/films")
        last = f"f{writer.sent - 1}"
        # The last input may have been applied without its answer arriving: it or the acknowledged one.
        check(status == 200 and state["input"]["filter"] in (writer.acknowledged, last),
              f"{writer.sid[:6]}…: input {state['input'] if state else status}, acknowledged {writer.acknowledged}")
        check(writer.longest_gap <= FAILOVER_LIMIT, f"{writer.sid[:6]}…: {writer.longest_gap:.2f} s without a successful answer")
    print(f"  {sum(w.sent for w in writers)} inputs sent; errors {dict(sum((w.errors for w in writers), collections.Counter()))};"
          f" longest time without an answer {max(w.longest_gap for w in writers):.2f} s")


def metric(port, name):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " ") or line.startswith(name + "{"))


def let_go():
    print("== 3. a session taken over by another instance is let go by its holder within a second")
    ports = [open(os.path.join(DIR, f"instance-{index}.port")).read().strip() for index in (1, 2)]
    first, second = Client(f"http://127.0.0.1:{ports[0]}"), Client(f"http://127.0.0.1:{ports[1]}")
    status, _, created = first.request("POST", "/sessions")
    assert status == 201
    before = metric(ports[0], "mvvm_sessions_handed_over_total")
    status, instance, _ = second.request("GET", f"/sessions/{created['id']}/scenes/films")
    check(status == 200 and instance == "instance-2", f"instance-2 did not take the session over: {status} {instance}")
    taken = time.monotonic()
    while metric(ports[0], "mvvm_sessions_handed_over_total") == before and time.monotonic() - taken < 1:
        time.sleep(0.01)
    waited = time.monotonic() - taken
    check(metric(ports[0], "mvvm_sessions_handed_over_total") == before + 1, f"instance-1 did not let the session go within a second")
    print(f"  instance-1 let it go {waited * 1000:.0f} ms after instance-2 took it over")


def stale_holder():
    print("== 4. two instances forced onto one session: the stale holder's writes are refused")
    ports = [open(os.path.join(DIR, f"instance-{index}.port")).read().strip() for index in (1, 2)]
    first = Client(f"http://127.0.0.1:{ports[0]}")
    status, _, created = first.request("POST", "/sessions")
    assert status == 201
    sid = created["id"]
    first.request("GET", f"/sessions/{sid}/scenes/search")
    answers = collections.Counter()
    lock = threading.Lock()

    def tap(port):
        client = Client(f"http://127.0.0.1:{port}")
        for _ in range(100):
            status, _, _ = client.request("POST", f"/sessions/{sid}/scenes/search/actions/buttonTapped")
            with lock:
                answers[status] += 1

    threads = [threading.Thread(target=tap, args=(port,)) for port in ports]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    status, _, search = first.request("GET", f"/sessions/{sid}/scenes/search")
    taps = search["output"]["buttonTaps"] if status == 200 else None
    print(f"  answers {dict(answers)}; saved taps {taps}")
    check(set(answers) <= {200, 503}, f"answers other than 200 and 503: {dict(answers)}")
    check(taps == answers[200], f"the saved taps ({taps}) are not the acknowledged ones ({answers[200]})")
    check(answers[503] > 0, "no write was refused: the two instances were not forced onto the session at once")


def refused_starts():
    print("== 5. start-up refusals: a database that does not answer, a newer schema")
    server = open(os.path.join(DIR, "server")).read().strip()
    pg_port = open(os.path.join(DIR, "pg.port")).read().strip()

    def start(url):
        started = time.monotonic()
        result = subprocess.run([server, "--port", "0", "--state", url], capture_output=True, text=True, timeout=60)
        return result.returncode, result.stdout + result.stderr, time.monotonic() - started

    status, output, seconds = start("postgres://mvvm@127.0.0.1:9/mvvm")
    check(status != 0 and "postgres://mvvm@127.0.0.1:9/mvvm" in output and "did not answer" in output,
          f"an unreachable database: exit {status}, {output.strip()!r}")
    print(f"  unreachable: exit {status} after {seconds:.1f} s: {output.strip().splitlines()[0] if output.strip() else ''}")
    psql = ["psql", "-q", "-h", "127.0.0.1", "-p", pg_port, "-U", "mvvm"]
    subprocess.run(psql + ["-d", "mvvm", "-c", "CREATE DATABASE newer"], check=True)
    subprocess.run(psql + ["-d", "newer", "-c", "CREATE TABLE mvvm_schema (version integer NOT NULL); INSERT INTO mvvm_schema VALUES (99)"], check=True)
    status, output, _ = start(f"postgres://mvvm@127.0.0.1:{pg_port}/newer")
    check(status != 0 and "newer" in output and "version 99" in output, f"a newer schema: exit {status}, {output.strip()!r}")
    print(f"  newer schema: exit {status}: {output.strip().splitlines()[0] if output.strip() else ''}")


def saved_rows():
    print("== 6. a view model that left is no longer saved; a takeover brings back saved values")
    ports = [open(os.path.join(DIR, f"instance-{index}.port")).read().strip() for index in (1, 2)]
    pg_port = open(os.path.join(DIR, "pg.port")).read().strip()
    first, second = Client(f"http://127.0.0.1:{ports[0]}"), Client(f"http://127.0.0.1:{ports[1]}")
    status, _, created = first.request("POST", "/sessions")
    assert status == 201
    sid = created["id"]
    status, _, films = first.request("GET", f"/sessions/{sid}/scenes/films")
    while status == 200 and films["lifecycle"] != "loaded":
        status, _, films = first.request("GET", f"/sessions/{sid}/scenes/films")
    status, _, _ = first.request("POST", f"/sessions/{sid}/scenes/films/actions/select", {"section": 0, "item": 0})
    check(status == 200, f"select answered {status}")
    for _ in range(3):
        first.request("POST", f"/sessions/{sid}/scenes/search/actions/buttonTapped")

    def keys():
        result = subprocess.run(["psql", "-Atq", "-h", "127.0.0.1", "-p", pg_port, "-U", "mvvm", "-d", "mvvm", "-c",
                                 f"SELECT key FROM mvvm_entry WHERE session_id = '{sid}' ORDER BY position"],
                                check=True, capture_output=True, text=True)
        return result.stdout.split()

    pushed = keys()
    check(len(pushed) == 3 and pushed[0] == "films" and "search" in pushed, f"saved view models after the push: {pushed}")
    status, _, _ = first.request("POST", f"/sessions/{sid}/navigation/back")
    check(status == 200, f"back answered {status}")
    popped = keys()
    check(sorted(popped) == ["films", "search"], f"saved view models after the film left: {popped}")
    status, instance, search = second.request("GET", f"/sessions/{sid}/scenes/search")
    check(status == 200 and instance == "instance-2" and search["output"]["buttonTaps"] == 3,
          f"after the takeover: {status} from {instance}, {search and search['output']}")
    status, _, navigation = second.request("GET", f"/sessions/{sid}/navigation")
    stack = [item["key"] for item in navigation["stack"]] if status == 200 else None
    check(stack == ["films"], f"navigation after the takeover: {stack}")
    print(f"  saved view models {pushed} after the push, {popped} after back; taken over with 3 taps and {stack}")


def main():
    cluster("down")
    base = cluster("up", "3")
    print(f"cluster of 3 behind {base}")
    try:
        failover(base)
        rolling_restart(base, 3)
        let_go()
        stale_holder()
        refused_starts()
        saved_rows()
    finally:
        if failures:
            for index in (1, 2, 3):
                log = os.path.join(DIR, f"instance-{index}.log")
                if os.path.exists(log):
                    print(f"-- instance-{index}.log (tail)")
                    print("".join(open(log).readlines()[-15:]))
        cluster("down")
    if failures:
        sys.exit(f"cluster test: {len(failures)} failures")
    print("cluster test: every session carried on, nothing acknowledged was lost")


if __name__ == "__main__":
    main()
