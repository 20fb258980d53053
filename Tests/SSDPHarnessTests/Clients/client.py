#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""A small SSDP discovery client for the harness's external-client mode, with switchable bugs.

It searches where the harness says (SSDP_HOST, SSDP_PORT, SSDP_ST, SSDP_MX, SSDP_REQUESTS) the way
the original design does: SSDP_REQUESTS M-SEARCH messages spread over the window, a stop at
requests x MX + 0.1 s, answers for other targets ignored (the ST must be the searched one), answers
without USN or LOCATION ignored, each (USN, ST) printed once as JSON with its LOCATION and SERVER.

--fetch makes it fetch each LOCATION once, when first seen, as a client that goes on to use a device does.

--bug picks one deliberate mistake, so the tests can show the harness catches each:
  no-dedupe     prints every answer, duplicates included
  one-request   sends a single M-SEARCH
  extra-requests sends two M-SEARCH messages more than asked
  early-stop    stops after the first MX
  after-stop    goes on listening (and printing) 2 s after the stop
  wrong-target  prints answers for any ST
  wrong-location prints the answer's source address on port 80 as the LOCATION
  fetch-twice   fetches each LOCATION twice (with --fetch)
"""
import json
import os
import socket
import sys
import time
import urllib.request

args = sys.argv[1:]
bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
fetch = "--fetch" in args
fetched = set()
host, port = os.environ["SSDP_HOST"], int(os.environ["SSDP_PORT"])
target, mx = os.environ["SSDP_ST"], int(os.environ["SSDP_MX"])
requests = {"one-request": 1, "extra-requests": int(os.environ["SSDP_REQUESTS"]) + 2}.get(bug, int(os.environ["SSDP_REQUESTS"]))
stop = mx + 0.1 if bug == "early-stop" else int(os.environ["SSDP_REQUESTS"]) * mx + 0.1
if bug == "after-stop":
    stop += 2
search = (
    "M-SEARCH * HTTP/1.1\r\n"
    f"HOST: {host}:{port}\r\n"
    'MAN: "ssdp:discover"\r\n'
    f"MX: {mx}\r\n"
    f"ST: {target}\r\n\r\n"
).encode()

def offset(index):
    """When search `index` is due: spread evenly over the window, the last one MX before the stop."""
    total = int(os.environ["SSDP_REQUESTS"])
    return 0 if total < 2 else (total * mx + 0.1 - mx) * index / (total - 1)

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
start = time.monotonic()
sent, seen = 0, set()
while True:
    now = time.monotonic() - start
    while sent < requests and now >= min(offset(sent), stop - 0.05):
        sock.sendto(search, (host, port))
        sent += 1
    if now >= stop:
        break
    due = min(offset(sent), stop) if sent < requests else stop
    sock.settimeout(max(0.001, min(due, stop) - now))
    try:
        data, source = sock.recvfrom(65536)
    except socket.timeout:
        continue
    lines = data.decode("latin-1").splitlines()
    if not lines[0].startswith("HTTP/1.1 200"):
        continue
    headers = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if colon:
            headers[name.strip().upper()] = value.strip()
    usn, st = headers.get("USN"), headers.get("ST", "")
    if not usn or not headers.get("LOCATION"):
        continue
    if bug != "wrong-target" and target != "ssdp:all" and st != target:
        continue
    if bug != "no-dedupe" and (usn, st) in seen:
        continue
    seen.add((usn, st))
    location = f"http://{source[0]}:80/" if bug == "wrong-location" else headers["LOCATION"]
    print(json.dumps({"usn": usn, "st": st, "location": location, "server": headers.get("SERVER")}), flush=True)
    if fetch and headers["LOCATION"] not in fetched:
        fetched.add(headers["LOCATION"])
        for _ in range(2 if bug == "fetch-twice" else 1):
            try:
                urllib.request.urlopen(headers["LOCATION"], timeout=2).read()
            except OSError as error:
                print(f"cannot fetch {headers['LOCATION']}: {error}", file=sys.stderr)
