# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Searches as most client libraries do: a UDP socket that binds no address sends one M-SEARCH to
239.255.255.250:1900 (or SEARCHES of them, back to back), then reads answers for WAIT seconds. Prints one
JSON object: the answers' LOCATIONs and USNs, and how many came.

    python3 unbound_search.py ST [WAIT] [MX] [SEARCHES]
"""
import json
import socket
import sys
import time

target = sys.argv[1]
wait = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
mx = sys.argv[3] if len(sys.argv) > 3 else "1"
searches = int(sys.argv[4]) if len(sys.argv) > 4 else 1
search = ("M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\n"
          f"MX: {mx}\r\nST: {target}\r\n\r\n").encode()
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(searches):
    sock.sendto(search, ("239.255.255.250", 1900))
answers = []
deadline = time.monotonic() + wait
while (left := deadline - time.monotonic()) > 0:
    sock.settimeout(left)
    try:
        data, source = sock.recvfrom(65535)
    except socket.timeout:
        break
    headers = {}
    for line in data.decode(errors="replace").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    answers.append({"from": source[0], "location": headers.get("location"), "usn": headers.get("usn")})
print(json.dumps({"answers": answers}), flush=True)
