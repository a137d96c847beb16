#!/usr/bin/env python3
"""Scenario 11's failover time: from kill -9 of the instance serving a session to that
session's next successful answer through nginx.

Each round makes a session through nginx, reads its state until the instance that answers is
the one nginx routes it to, sends that instance SIGKILL (its pid from the cluster folder), then
asks for the session's state through nginx in a loop and times the first 200 from the signal;
then starts the instance again (scripts/cluster) and waits until nginx routes to it again.

Usage: bench/failover.py NGINX_URL --rounds N   (MVVM_CLUSTER_DIR as for scripts/cluster)
Prints one line per round: RESULT round=N failover_ms=X instance=NAME then=NAME attempts=N
"""
import argparse
import http.client
import json
import os
import signal
import subprocess
import time
import urllib.parse

CLUSTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "cluster")
DIR = os.environ.get("MVVM_CLUSTER_DIR", os.path.join(os.environ.get("TMPDIR", "/tmp"), "mvvmserver-cluster"))


def get(host, port, method, path):
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        body = response.read()
        return response.status, response.getheader("MVVM-Instance"), body
    except OSError:
        return 0, None, b""
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    url = urllib.parse.urlsplit(options.url)
    host, port = url.hostname, url.port
    for round_number in range(1, options.rounds + 1):
        status, _, body = get(host, port, "POST", "/sessions")
        assert status == 201, f"POST /sessions answered {status}"
        path = f"/sessions/{json.loads(body)['id']}/scenes/car"
        status, instance, _ = get(host, port, "GET", path)
        assert status == 200 and instance, f"GET {path} answered {status}"
        index = instance.rsplit("-", 1)[1]
        with open(os.path.join(DIR, f"instance-{index}.pid")) as pid_file:
            pid = int(pid_file.read())
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        attempts = 0
        while True:
            attempts += 1
            status, answered_by, _ = get(host, port, "GET", path)
            if status == 200:
                break
        failover_ms = (time.monotonic() - killed) * 1000
        assert answered_by != instance, f"{instance} answered after it was killed"
        print(f"RESULT round={round_number} failover_ms={failover_ms:.1f} instance={instance} then={answered_by} attempts={attempts}", flush=True)
        subprocess.run([CLUSTER, "kill", index], check=True)   # waits until it is gone
        subprocess.run([CLUSTER, "start", index], check=True)
        # nginx leaves a failed instance out for fail_timeout (3 s): wait until it is back.
        time.sleep(3.5)


if __name__ == "__main__":
    main()
