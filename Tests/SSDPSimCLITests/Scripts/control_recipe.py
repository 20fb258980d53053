#!/usr/bin/env python3
"""Control ssdp-sim's fake devices from a test, with Python's standard library only (the README's recipe).

Starts `ssdp-sim serve --control` with two Rokus on loopback, reads the control API's URL from the `started`
line, waits until /health says it serves, makes the second Roku vanish, and reads the journal's entry about
it. Prints one JSON line with what it saw; exits non-zero when something is not as expected.

    python3 control_recipe.py [PATH-TO-ssdp-sim]
"""
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

SSDP_SIM = sys.argv[1] if len(sys.argv) > 1 else "ssdp-sim"


def call(method, url, body=None):
    """One request to the control API: (status, JSON answer), errors included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


serve = subprocess.Popen(
    [SSDP_SIM, "serve", "--control", "127.0.0.1:0", "--profile", "roku", "--count", "2",
     "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--json"],
    stdout=subprocess.PIPE, text=True)
try:
    # The first line is `started`, with the control API's URL (port 0 took a free one).
    started = json.loads(serve.stdout.readline())
    control = started["control"]
    # Keep reading the event lines, so that a full pipe never holds the simulator up.
    threading.Thread(target=lambda: [None for _ in serve.stdout], daemon=True).start()

    # 1. Wait until the simulator serves.
    deadline = time.monotonic() + 10
    while call("GET", control + "/health")[0] != 200:
        assert time.monotonic() < deadline, "the simulator did not serve within 10 s"
        time.sleep(0.05)
    health = call("GET", control + "/health")[1]

    # 2. The second Roku loses power: no byebye, no answers, no HTTP.
    status, device = call("POST", control + "/devices/2/actions/vanish")
    assert status == 200 and device["state"] == "gone", (status, device)

    # 3. The journal has it (wait returns as soon as the entry exists, or 408 with the near misses).
    status, answer = call("GET", control + "/journal/wait?kind=device&device=2&action=vanish&timeout=5")
    assert status == 200, (status, answer)
    entry = answer["entries"][0]
    print(json.dumps({"control": control, "health": health, "device": device, "entry": entry}))
finally:
    serve.terminate()
    serve.wait(timeout=10)
sys.exit(serve.returncode)
