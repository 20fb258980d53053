#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Listens to 239.255.255.250:1900 on loopback and prints one JSON line per NOTIFY heard.

Prints "ready" once joined. Exits after SECONDS, or on SIGTERM once it has read every datagram its socket
holds (on a busy machine the last byebyes can still be there when the test stops it). Run it only inside a
private network namespace (unshare -n) whose loopback carries multicast.
"""
import json
import signal
import socket
import sys
import time

from group_socket import group_socket

signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
stopping = False


def stop(*_):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, stop)

seconds = float(sys.argv[1])
sock = group_socket()
sock.settimeout(0.2)
print("ready", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    try:
        data, source = sock.recvfrom(65535)
    except socket.timeout:
        if stopping:
            break
        continue
    text = data.decode("utf-8", "replace")
    if not text.startswith("NOTIFY"):
        continue
    headers = {}
    for line in text.split("\r\n")[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().upper()] = value.strip()
    print(json.dumps({"nts": headers.get("NTS"), "nt": headers.get("NT"), "usn": headers.get("USN"),
                      "bootid": headers.get("BOOTID.UPNP.ORG"), "nextbootid": headers.get("NEXTBOOTID.UPNP.ORG"),
                      "location": headers.get("LOCATION")}), flush=True)
