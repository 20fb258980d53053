#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Listens to 239.255.255.250:1900 on loopback and prints one JSON line per NOTIFY heard: its headers that
the tests read, its text, its source port, the TTL from its IP header (ancillary data), and when it came
(seconds after the listening began).

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

IP_RECVTTL = 12  # Linux's value; Python does not export it.

signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
stopping = False


def stop(*_):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, stop)

seconds = float(sys.argv[1])
sock = group_socket()
sock.setsockopt(socket.IPPROTO_IP, IP_RECVTTL, 1)
sock.settimeout(0.2)
print("ready", flush=True)
start = time.monotonic()
end = start + seconds
while time.monotonic() < end:
    try:
        data, ancillary, _, source = sock.recvmsg(65535, 256)
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
                      "location": headers.get("LOCATION"), "text": text, "sourcePort": source[1],
                      "ttl": next((int.from_bytes(value[:4], sys.byteorder) for level, kind, value in ancillary
                                   if level == socket.IPPROTO_IP and kind == socket.IP_TTL), None),
                      "at": time.monotonic() - start}), flush=True)
