#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""An SSDP responder written with plain sockets, for the namespace multicast test.

Joins 239.255.255.250:1900 on loopback, answers each M-SEARCH by unicast to its source address, and
prints one JSON line per M-SEARCH heard: the destination address and TTL from the IP header (ancillary
data), the source port, and the text. Prints "ready" once listening. Exits after SECONDS.
Run it only inside a private network namespace (unshare -n): it binds port 1900.
"""
import json
import socket
import sys
import time

from group_socket import group_socket

IP_PKTINFO = 8  # Linux values; Python does not export IP_RECVTTL.
IP_RECVTTL = 12

ANSWER = (
    "HTTP/1.1 200 OK\r\n"
    "CACHE-CONTROL: max-age=1800\r\n"
    "EXT:\r\n"
    "LOCATION: http://127.0.0.1:8060/\r\n"
    "SERVER: Linux/6 UPnP/1.0 plain-python/1\r\n"
    "ST: upnp:rootdevice\r\n"
    "USN: uuid:plain-python-responder::upnp:rootdevice\r\n"
    "\r\n"
).encode()


def main(seconds):
    deadline = time.monotonic() + seconds
    sock = group_socket()
    sock.setsockopt(socket.IPPROTO_IP, IP_RECVTTL, 1)
    sock.setsockopt(socket.IPPROTO_IP, IP_PKTINFO, 1)
    print("ready", flush=True)
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            data, ancillary, _, source = sock.recvmsg(65536, 256)
        except socket.timeout:
            break
        if not data.startswith(b"M-SEARCH"):
            continue
        heard = {"sourcePort": source[1], "text": data.decode(errors="replace")}
        for level, kind, value in ancillary:
            if level == socket.IPPROTO_IP and kind == socket.IP_TTL:
                heard["ttl"] = int.from_bytes(value[:4], sys.byteorder)
            elif level == socket.IPPROTO_IP and kind == IP_PKTINFO:
                heard["destination"] = socket.inet_ntoa(value[8:12])
        print(json.dumps(heard), flush=True)
        sock.sendto(ANSWER, source)


if __name__ == "__main__":
    main(float(sys.argv[1]))
