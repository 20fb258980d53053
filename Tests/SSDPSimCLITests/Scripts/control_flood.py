#!/usr/bin/env python3
"""The control API's journal under a search flood: its bound holds, what it drops is counted, and the
simulator's memory stops growing (issue 39).

Starts `ssdp-sim serve --control` with one Roku on loopback (unicast only) and a journal of 10,000, reads
its resident memory, sends TOTAL valid M-SEARCH datagrams to it from one socket (paced, at most about
10,000 a second), waits until the journal stops growing, then reads the journal's counts, the counters
and the memory again. Prints one JSON line. Loopback only; bounded in count and time.

    python3 control_flood.py PATH-TO-ssdp-sim [TOTAL]
"""
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

SSDP_SIM = sys.argv[1]
TOTAL = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


serve = subprocess.Popen(
    [SSDP_SIM, "serve", "--control", "127.0.0.1:0", "--profile", "roku", "--journal-size", "10000",
     "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--json",
     "--log-level", "warning"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
lines = []
try:
    started = json.loads(serve.stdout.readline())
    control, port = started["control"], int(started["udp"].rsplit(":", 1)[1])
    threading.Thread(target=lambda: [lines.append(line) for line in serve.stdout], daemon=True).start()
    deadline = time.monotonic() + 10
    while True:
        try:
            if get(control + "/health")["status"] == "serving":
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the simulator did not serve within 10 s"
        time.sleep(0.05)
    before = resident_kib(serve.pid)
    search = b'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: roku:ecp\r\n\r\n'
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)
    started_at = time.monotonic()
    for index in range(TOTAL):
        sock.sendto(search, ("127.0.0.1", port))
        if index % 100 == 99:
            time.sleep(0.01)  # at most 10,000 a second: a flood, that leaves the other tests of a suite a core
    sent_in = time.monotonic() - started_at
    # The journal has stopped growing once two reads a quarter of a second apart agree.
    last, deadline = None, time.monotonic() + 30
    while time.monotonic() < deadline:
        page = get(control + "/journal?limit=10000")
        total = page["dropped"] + len(page["entries"])
        if total == last:
            break
        last = total
        time.sleep(0.25)
    kept = len(page["entries"])
    searches_kept = len(get(control + "/journal?kind=search&limit=10000")["entries"])
    after = resident_kib(serve.pid)
    serve.send_signal(signal.SIGTERM)
    serve.wait(timeout=10)
    stopped = next((json.loads(line) for line in lines if '"stopped"' in line), {})
    counters = stopped.get("counters", {})
    print(json.dumps({
        "sent": TOTAL, "sendSeconds": round(sent_in, 2), "journalTotal": total, "kept": kept,
        "searchesKept": searches_kept, "dropped": page["dropped"], "rssBeforeKiB": before, "rssAfterKiB": after,
        "searchesAccepted": counters.get("searchesAccepted"), "answersSent": counters.get("answersSent"),
        "answersRateLimited": counters.get("answersRateLimited"),
    }))
finally:
    if serve.poll() is None:
        serve.kill()
