# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What a control point meets at a device, byte for byte: its answers to searches and its HTTP responses.
Prints one JSON object: {"searches": {ST: [datagram, …]}, "http": {"METHOD PATH": response}} (bytes as
latin-1), the answers to each search sorted, for comparing a device with its recording played back.

    python3 exchanges.py HOST HTTP_PORT UDP_PORT [--search ST]… [--http METHOD PATH]…

Every search goes at once, by unicast to HOST:UDP_PORT with MX 1, and is listened to for 1.5 s; each HTTP
request is one connection (Connection: close), read until the server closes it.
"""
import json
import select
import socket
import sys
import time

host, http_port, udp_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
arguments = sys.argv[4:]
searches, requests = [], []
while arguments:
    if arguments[0] == "--search":
        searches.append(arguments[1])
        arguments = arguments[2:]
    elif arguments[0] == "--http":
        requests.append((arguments[1], arguments[2]))
        arguments = arguments[3:]
    else:
        sys.exit(f"unknown argument {arguments[0]}")

sockets = {}
for st in searches:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    message = f'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: {st}\r\n\r\n'
    sock.sendto(message.encode(), (host, udp_port))
    sockets[sock] = st
answers = {st: [] for st in searches}
deadline = time.monotonic() + 1.5
while sockets and (left := deadline - time.monotonic()) > 0:
    ready, _, _ = select.select(list(sockets), [], [], left)
    for sock in ready:
        data, _ = sock.recvfrom(65536)
        answers[sockets[sock]].append(data.decode("latin-1"))

responses = {}
for method, path in requests:
    connection = socket.create_connection((host, http_port), timeout=5)
    connection.sendall(f"{method} {path} HTTP/1.1\r\nHOST: {host}:{http_port}\r\nCONNECTION: close\r\n\r\n".encode())
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    connection.close()
    responses[f"{method} {path}"] = data.decode("latin-1")

print(json.dumps({"searches": {st: sorted(found) for st, found in answers.items()}, "http": responses}))
