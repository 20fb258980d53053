#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""A messy SSDP responder with plain sockets, for the capture-import lab test.

Joins 239.255.255.250:1900 on loopback and answers every M-SEARCH the way broken devices on real
networks do, from two addresses:

- from 127.0.0.1:1900: a good answer written carelessly (lower-case names, no space after colons, its own
  header order), the same answer again 40 ms later, an answer for another ST than the one asked for, an
  answer without LOCATION, and bytes that are not SSDP at all (invalid UTF-8);
- from 127.0.0.2 (an ephemeral port): the first device's answer once more, 300 ms later, and a second
  device's answer 0.4 s after MX has closed (late).

Prints "ready" once listening. Exits after SECONDS. Run it only inside a private network namespace
(unshare -n): it binds port 1900.
"""
import socket
import sys
import time

from group_socket import group_socket

GOOD = (
    "HTTP/1.1 200 OK\r\n"
    "st:upnp:rootdevice\r\n"
    "usn:uuid:5e1f0000-aaaa-4bbb-8ccc-00000000beef::upnp:rootdevice\r\n"
    "location:http://127.0.0.1:8080/dev.xml\r\n"
    "cache-control:max-age=120\r\n"
    "server:Messy/1.0 UPnP/1.0 messy/1\r\n"
    "ext:\r\n"
    "\r\n"
).encode()
WRONG_TARGET = GOOD.replace(b"st:upnp:rootdevice", b"st:urn:schemas-upnp-org:device:Printer:1").replace(
    b"::upnp:rootdevice", b"::urn:schemas-upnp-org:device:Printer:1"
)
NO_LOCATION = (
    "HTTP/1.1 200 OK\r\n"
    "CACHE-CONTROL: max-age=1800\r\n"
    "SERVER: Messy/1.0 UPnP/1.0 messy/1\r\n"
    "ST: upnp:rootdevice\r\n"
    "USN: uuid:5e1f0000-aaaa-4bbb-8ccc-00000000f00d::upnp:rootdevice\r\n"
    "\r\n"
).encode()
GARBAGE = b"\xff\xfe HTTP/1.1 200\x00 not ssdp \xc3\x28\r\n\r\n"
LATE = (
    "HTTP/1.1 200 OK\r\n"
    "CACHE-CONTROL: max-age=1800\r\n"
    "EXT:\r\n"
    "LOCATION: http://127.0.0.2:49152/late.xml\r\n"
    "SERVER: Late/2.0 UPnP/1.0 late/2\r\n"
    "ST: upnp:rootdevice\r\n"
    "USN: uuid:5e1f0000-aaaa-4bbb-8ccc-0000000001a7::upnp:rootdevice\r\n"
    "\r\n"
).encode()


def main(seconds):
    deadline = time.monotonic() + seconds
    sock = group_socket()
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind(("127.0.0.2", 0))
    print("ready", flush=True)
    pending = []  # (when, socket, bytes, destination)
    while time.monotonic() < deadline:
        now = time.monotonic()
        for entry in [p for p in pending if p[0] <= now]:
            pending.remove(entry)
            entry[1].sendto(entry[2], entry[3])
        waits = [p[0] - now for p in pending] + [deadline - now]
        sock.settimeout(max(0.001, min(waits)))
        try:
            data, source = sock.recvfrom(65535)
        except socket.timeout:
            continue
        if not data.startswith(b"M-SEARCH"):
            continue
        mx = 1
        for line in data.split(b"\r\n"):
            if line.lower().startswith(b"mx:"):
                mx = int(line[3:].strip() or b"1")
        now = time.monotonic()
        pending += [
            (now + 0.010, sock, GOOD, source),
            (now + 0.050, sock, GOOD, source),
            (now + 0.080, sock, WRONG_TARGET, source),
            (now + 0.120, sock, NO_LOCATION, source),
            (now + 0.150, sock, GARBAGE, source),
            (now + 0.300, other, GOOD, source),
            (now + mx + 0.4, other, LATE, source),
        ]


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 20)
