#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Floods a running simulator on loopback and checks it keeps answering.

Usage: flood.py PORT PID TOTAL

Sends TOTAL datagrams to 127.0.0.1:PORT from 8 source addresses (127.0.0.2-9) x 8 ports each: valid
unicast M-SEARCH, garbage, oversized (9,000 bytes), M-SEARCH without MAN, NOTIFY and responses, in a
fixed mix, at about 10,000 a second. Meanwhile a probe on 127.0.0.99 sends one valid search every 50 ms and counts the answers.
Afterwards it reads the kernel's drop counter for the simulator's socket (/proc/net/udp) and the
simulator's peak memory (/proc/PID/status), and prints one JSON line with what it sent and saw.
Loopback only; bounded in count and time.
"""
import json
import socket
import sys
import threading
import time

port, pid, total = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
target = ("127.0.0.1", port)

def search(st, man=True):
    lines = ["M-SEARCH * HTTP/1.1", "HOST: 127.0.0.1:%d" % port]
    if man:
        lines.append('MAN: "ssdp:discover"')
    lines += ["ST: " + st, "", ""]
    return "\r\n".join(lines).encode()

kinds = [
    ("search", search("upnp:rootdevice")),
    ("search", search("urn:schemas-upnp-org:service:AVTransport:1")),
    ("search", search("roku:ecp")),
    ("malformed", b"\x00\x01garbage that is not SSDP\r\n\r\n"),
    ("oversized", search("upnp:rootdevice") + b"X" * 9000),
    ("rejected", search("ssdp:all", man=False)),
    ("notify", b"NOTIFY * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nNT: upnp:rootdevice\r\nNTS: ssdp:byebye\r\nUSN: uuid:x::upnp:rootdevice\r\n\r\n"),
    ("response", b"HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nUSN: uuid:y\r\n\r\n"),
]

def drops():
    hexport = ":%04X" % port
    with open("/proc/net/udp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            # The simulator's socket on that port: bound to 127.0.0.1, or to every address of the
            # interface when its devices have addresses of their own.
            if fields[1].endswith(hexport) and fields[1].split(":")[0] in ("0100007F", "00000000"):
                return int(fields[-1])
    return -1

def peak_memory_kib():
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1

probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
probe.bind(("127.0.0.99", 0))
probe.settimeout(0.05)
probe_result = {"sent": 0, "answers": 0}
flooding = threading.Event()
flooding.set()

def run_probe():
    deadline = time.monotonic() + 60
    while (flooding.is_set() or probe_result["sent"] < 20) and time.monotonic() < deadline:
        probe.sendto(search("upnp:rootdevice"), target)
        probe_result["sent"] += 1
        end = time.monotonic() + 0.05
        while time.monotonic() < end:
            try:
                probe.recvfrom(65535)
                probe_result["answers"] += 1
            except socket.timeout:
                pass
    end = time.monotonic() + 1.5  # answers still on their way (unicast: within 1 s)
    while time.monotonic() < end:
        try:
            probe.recvfrom(65535)
            probe_result["answers"] += 1
        except socket.timeout:
            pass

drops_before = drops()
memory_before = peak_memory_kib()
senders = []
for host in range(2, 10):
    for _ in range(8):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.%d" % host, 0))
        s.setblocking(False)
        senders.append(s)

thread = threading.Thread(target=run_probe)
thread.start()
sent = {name: 0 for name, _ in kinds}
started = time.monotonic()
for index in range(total):
    name, payload = kinds[index % len(kinds)]
    sock = senders[index % len(senders)]
    while True:
        try:
            sock.sendto(payload, target)
            break
        except BlockingIOError:
            time.sleep(0.001)
    sent[name] += 1
    if index % 50 == 49:
        time.sleep(0.005)  # about 10,000 a second in small bursts; what the socket buffer cannot hold, the kernel counts
flood_seconds = time.monotonic() - started
flooding.clear()
thread.join()
time.sleep(0.5)
print(json.dumps({
    "sent": sent, "total": sum(sent.values()), "floodSeconds": round(flood_seconds, 3),
    "kernelDrops": drops() - drops_before, "probe": probe_result,
    "peakMemoryKiB": peak_memory_kib(), "peakMemoryBeforeKiB": memory_before,
}), flush=True)
