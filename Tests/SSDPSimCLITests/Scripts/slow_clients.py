#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Holds many slow HTTP connections to a device, then checks that a new client is still answered.

    slow_clients.py URL CONNECTIONS ADDRESSES

Opens CONNECTIONS connections to URL's host and port, spread over ADDRESSES source addresses
(127.0.0.11, 127.0.0.12, ...), each sending complete headers that declare a 16,000-byte body and then
one body byte a second: a slow-body attack. While they hold, a client at 127.0.0.200 GETs URL. Prints
one JSON line: how many attack connections the server took, how many it closed at once, and the new
client's status and seconds. Loopback only; every socket is closed before it exits (at most ~8 s).
"""
import json
import socket
import sys
import time
import urllib.parse


def main():
    url, count, addresses = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    parsed = urllib.parse.urlsplit(url)
    host, port, path = parsed.hostname, parsed.port, parsed.path or "/"
    assert host.startswith("127."), "loopback only"
    held = []
    refused = 0
    for number in range(count):
        source = f"127.0.0.{11 + number % addresses}"
        connection = socket.socket()
        connection.settimeout(2)
        connection.bind((source, 0))
        try:
            connection.connect((host, port))
            connection.sendall(
                f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 16000\r\n\r\nx".encode()
            )
            held.append(connection)
        except OSError:
            refused += 1
            connection.close()
    for _ in range(3):  # the attack holds: a body byte a second on every open connection
        time.sleep(1)
        for connection in list(held):
            try:
                connection.sendall(b"x")
            except OSError:
                held.remove(connection)
                connection.close()
    open_now = len(held)
    started = time.monotonic()
    fresh = socket.socket()
    fresh.settimeout(5)
    fresh.bind(("127.0.0.200", 0))
    status = 0
    try:
        fresh.connect((host, port))
        fresh.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        answer = fresh.recv(64).decode(errors="replace")
        status = int(answer.split(" ")[1]) if answer.startswith("HTTP/") else 0
    except OSError:
        status = 0
    finally:
        fresh.close()
    seconds = time.monotonic() - started
    for connection in held:
        connection.close()
    print(json.dumps({"attempted": count, "refused": refused, "stillOpen": open_now, "status": status,
                      "seconds": round(seconds, 3)}))


if __name__ == "__main__":
    main()
