#!/usr/bin/env python3
"""Soak: mixed load on a running server for a while, then checks that memory came back and that
every view model of a deleted or evicted session was released (counts read from /metrics).

Usage: bench/soak.py --port PORT --pid PID [--seconds 60] [--workers 8]
Start the server with a small --max-sessions (e.g. 300) so that creating sessions evicts others.
"""
import argparse, http.client, json, random, re, sys, threading, time

def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def metrics(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    values = {}
    for line in text.splitlines():
        match = re.match(r"^(mvvm_[a-z_]+) ([0-9.]+)$", line)
        if match:
            values[match.group(1)] = int(float(match.group(2)))
    return values

class Worker(threading.Thread):
    def __init__(self, port, deadline, seed):
        super().__init__(daemon=True)
        self.port, self.deadline, self.random = port, deadline, random.Random(seed)
        self.sessions, self.counts, self.errors = [], {}, []

    def call(self, conn, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        self.counts[response.status] = self.counts.get(response.status, 0) + 1
        if response.status >= 500 and response.status != 503:
            self.errors.append((method, path, response.status, data[:200]))
        return response.status, data

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        bodies = [{"make": "Lamborghini", "model": "Huracan"}, {"make": "Fiat", "model": "Panda"}]
        while time.time() < self.deadline:
            try:
                status, data = self.call(conn, "POST", "/sessions")
                if status != 201:
                    continue
                sid = json.loads(data)["id"]
                self.sessions.append(sid)
                base = f"/sessions/{sid}/scenes"
                self.call(conn, "GET", f"{base}/car")
                for i in range(self.random.randint(1, 6)):
                    self.call(conn, "POST", f"{base}/car/input", bodies[i % 2])
                status, data = self.call(conn, "GET", f"{base}/car")
                if status == 200:
                    version = json.loads(data)["version"]
                    # A long-poll answered by its own wait, then one answered by an input.
                    self.call(conn, "GET", f"{base}/car?since={version}&wait=0.2")
                    poller = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                    poller.request("GET", f"{base}/car?since={version}&wait=5")
                    self.call(conn, "POST", f"{base}/car/input", {"make": "Seat", "model": str(self.random.random())})
                    poller.getresponse().read()
                    poller.close()
                self.call(conn, "GET", f"{base}/films/snapshot")
                self.call(conn, "POST", f"{base}/search/input", {"query": self.random.choice(["sky", "dar", "padme", "o"])})
                if self.random.random() < 0.3:
                    self.call(conn, "DELETE", f"/sessions/{sid}/store")
                if self.random.random() < 0.7:
                    self.call(conn, "DELETE", f"/sessions/{sid}")
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(("connection", str(error)))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.close()

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()

    start = time.time()
    deadline = start + args.warmup + args.seconds
    workers = [Worker(args.port, deadline, seed) for seed in range(args.workers)]
    for worker in workers:
        worker.start()
    time.sleep(args.warmup)
    warm_rss = rss_mb(args.pid)
    warm = metrics(args.port)
    print(f"after warm-up ({args.warmup:.0f} s): RSS {warm_rss:.1f} MB, sessions {warm.get('mvvm_sessions_live')}, view models {warm.get('mvvm_view_models_cached')}")
    peak = warm_rss
    while any(worker.is_alive() for worker in workers):
        time.sleep(1)
        peak = max(peak, rss_mb(args.pid))
    # Delete every session still known (evicted ones answer 410 or 404).
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    for worker in workers:
        for sid in worker.sessions:
            conn.request("DELETE", f"/sessions/{sid}")
            conn.getresponse().read()
    conn.close()
    time.sleep(3)
    end_rss = rss_mb(args.pid)
    final = metrics(args.port)
    counts = {}
    for worker in workers:
        for status, count in worker.counts.items():
            counts[status] = counts.get(status, 0) + count
    errors = [error for worker in workers for error in worker.errors]
    requests = sum(counts.values())
    print(f"soak: {args.seconds:.0f} s after warm-up, {args.workers} workers, {requests} requests, statuses {dict(sorted(counts.items()))}")
    print(f"sessions created {final.get('mvvm_sessions_created_total')}, deleted {final.get('mvvm_sessions_deleted_total')}, "
          f"evicted {final.get('mvvm_sessions_evicted_total')}, expired {final.get('mvvm_sessions_expired_total')}")
    print(f"at the end: sessions live {final.get('mvvm_sessions_live')}, contexts alive {final.get('mvvm_contexts_alive')}, view models cached {final.get('mvvm_view_models_cached')}, parked {final.get('mvvm_parked_requests')}")
    print(f"RSS: after warm-up {warm_rss:.1f} MB, peak {peak:.1f} MB, at the end {end_rss:.1f} MB ({(end_rss / warm_rss - 1) * 100:+.1f}%)")
    failures = []
    if errors:
        failures.append(f"{len(errors)} errors, first: {errors[:3]}")
    if final.get("mvvm_view_models_cached", -1) != 0 or final.get("mvvm_sessions_live", -1) != 0 or final.get("mvvm_contexts_alive", -1) != 0:
        failures.append("view models, sessions or contexts were not all released")
    if final.get("mvvm_sessions_evicted_total", 0) == 0:
        failures.append("no session was evicted: start the server with a small --max-sessions")
    if end_rss > warm_rss * 1.10:
        failures.append(f"RSS at the end is more than 10% above its level after warm-up")
    for failure in failures:
        print("FAIL:", failure)
    print("SOAK PASSED" if not failures else "SOAK FAILED")
    sys.exit(1 if failures else 0)

if __name__ == "__main__":
    main()
