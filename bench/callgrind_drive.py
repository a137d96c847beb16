"""Drives one scenario over one keep-alive connection for bench/callgrind.sh.

drive.py PORT COUNT inputs|get|churn [DOC_OUT]: creates a session, reads its car scene (written
to DOC_OUT when given, with the created session beside it: the baseline answers those bytes),
then sends COUNT requests: POST .../car/input alternating the two bodies of the inputs
scenario, GET .../car, or (churn) POST /sessions and DELETE of the session created, by turns.
Every answer must be a success.
"""
import http.client
import json
import sys

port, count, scenario = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port)


def exchange(method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    if response.status not in (200, 201, 204):
        sys.exit(f"{method} {path}: {response.status}")
    return data


created = exchange("POST", "/sessions", b"", {"Content-Length": "0"})
car = f"/sessions/{json.loads(created)['id']}/scenes/car"
document = exchange("GET", car)
if len(sys.argv) > 4:
    with open(sys.argv[4], "wb") as file:
        file.write(document)
    with open(sys.argv[4] + ".created", "wb") as file:
        file.write(created)
bodies = [b'{"make":"Lamborghini","model":"Huracan"}', b'{"make":"Fiat","model":"Panda"}']
for index in range(count):
    if scenario == "churn":
        if index % 2 == 0:
            session = json.loads(exchange("POST", "/sessions", b"", {"Content-Length": "0"}))["id"]
        else:
            exchange("DELETE", f"/sessions/{session}")
    elif scenario == "inputs":
        exchange("POST", car + "/input", bodies[index % 2], {"Content-Type": "application/json"})
    else:
        exchange("GET", car)
