# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What a control point meets at a device, byte for byte: its answers to searches and its HTTP responses.
Prints one JSON object: {"searches": {ST: [datagram, …]}, "http": {"METHOD PATH": response}} (bytes as
latin-1), the answers to each search sorted, for comparing a device with its recording played back.

    python3 exchanges.py HOST HTTP_PORT UDP_PORT [--search ST]… [--http METHOD PATH]…
                         [--soap PATH TYPE#ACTION NAME=VALUE&…]…

Every search goes at once, by unicast to HOST:UDP_PORT with MX 1, and is listened to for 1.5 s; then each
HTTP request and action call, in the order given, is one connection (Connection: close), read until the
server closes it. An action call's key is "POST PATH TYPE#ACTION NAME=VALUE&…"; a key asked twice is kept
as "KEY #2".
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
        requests.append((arguments[1], arguments[2], None, None))
        arguments = arguments[3:]
    elif arguments[0] == "--soap":
        requests.append(("POST", arguments[1], arguments[2], arguments[3]))
        arguments = arguments[4:]
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


def soap(action, arguments):
    """The head lines and body of a call of `action` (TYPE#NAME) with `arguments` (NAME=VALUE&…)."""
    service_type, _, name = action.partition("#")
    values = "".join(f"<{n}>{v}</{n}>" for n, _, v in (pair.partition("=") for pair in arguments.split("&") if pair))
    body = ('<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
            f'<u:{name} xmlns:u="{service_type}">{values}</u:{name}></s:Body></s:Envelope>').encode()
    head = (f'CONTENT-TYPE: text/xml; charset="utf-8"\r\nSOAPACTION: "{action}"\r\n'
            f"CONTENT-LENGTH: {len(body)}\r\n")
    return head, body


responses = {}
for method, path, action, values in requests:
    head, body, key = "", b"", f"{method} {path}"
    if action is not None:
        head, body = soap(action, values)
        key += f" {action} {values}"
    connection = socket.create_connection((host, http_port), timeout=5)
    request = f"{method} {path} HTTP/1.1\r\nHOST: {host}:{http_port}\r\n{head}CONNECTION: close\r\n\r\n"
    connection.sendall(request.encode() + body)
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    connection.close()
    asked, number = key, 1
    while asked in responses:
        number += 1
        asked = f"{key} #{number}"
    responses[asked] = data.decode("latin-1")

print(json.dumps({"searches": {st: sorted(found) for st, found in answers.items()}, "http": responses}))
