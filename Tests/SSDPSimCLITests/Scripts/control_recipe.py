#!/usr/bin/env python3
"""Control ssdp-sim's fake devices from a test, with Python's standard library only (the README's recipe).

Starts `ssdp-sim serve --control` with two Rokus on loopback, reads the control API's URL and the search port
from the `started` line, waits until /health says it serves, finds both Rokus with an M-SEARCH, makes the
second one vanish, finds only the first, and reads the journal's entry about the vanish. Prints one JSON
line with what it saw; exits non-zero when something is not as expected.

    python3 control_recipe.py [PATH-TO-ssdp-sim]
"""
import json
import socket
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


def search(port, target, wanted, seconds=3):
    """The LOCATIONs that answer an M-SEARCH for `target` sent to the simulator's own address (every device
    answers it, each with its own LOCATION), sorted: until `wanted` came, or `seconds` passed."""
    message = ("M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:%d\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: %s\r\n\r\n"
               % (port, target))
    locations = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(message.encode(), ("127.0.0.1", port))
        deadline = time.monotonic() + seconds
        while len(locations) < wanted and time.monotonic() < deadline:
            sock.settimeout(deadline - time.monotonic())
            try:
                answer = sock.recv(65536).decode(errors="replace")
            except socket.timeout:
                break
            for line in answer.split("\r\n"):
                if line.lower().startswith("location:"):
                    locations.append(line.split(":", 1)[1].strip())
    return sorted(locations)


serve = subprocess.Popen(
    [SSDP_SIM, "serve", "--control", "127.0.0.1:0", "--profile", "roku", "--count", "2",
     "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--json"],
    stdout=subprocess.PIPE, text=True)
try:
    # The first line is `started`, with the control API's URL and the search port (port 0 took free ones).
    first = serve.stdout.readline()
    if not first:
        sys.exit("serve exited with %s before its started line: its error is above" % serve.wait())
    started = json.loads(first)
    control = started["control"]
    port = int(started["udp"].rsplit(":", 1)[1])
    # Keep reading the event lines, so that a full pipe never holds the simulator up.
    threading.Thread(target=lambda: [None for _ in serve.stdout], daemon=True).start()

    # 1. Wait until the simulator serves.
    deadline = time.monotonic() + 10
    while call("GET", control + "/health")[0] != 200:
        assert time.monotonic() < deadline, "the simulator did not serve within 10 s"
        time.sleep(0.05)
    health = call("GET", control + "/health")[1]

    # 2. Your client's search finds both Rokus.
    found = search(port, "roku:ecp", wanted=2)
    assert found == sorted(d["location"] for d in started["devices"]), (found, started["devices"])

    # 3. The second Roku loses power: no byebye, no answers, no HTTP. The next search finds the first alone.
    status, device = call("POST", control + "/devices/2/actions/vanish")
    assert status == 200 and device["state"] == "gone", (status, device)
    after = search(port, "roku:ecp", wanted=2, seconds=2)

    # 4. The journal has it (wait returns as soon as the entry exists, or 408 with the near misses).
    status, answer = call("GET", control + "/journal/wait?kind=device&device=2&action=vanish&timeout=5")
    assert status == 200, (status, answer)
    entry = answer["entries"][0]
    print(json.dumps({"control": control, "health": health, "found": found, "after": after, "device": device,
                      "entry": entry}))
finally:
    serve.terminate()
    serve.wait(timeout=10)
sys.exit(serve.returncode)
