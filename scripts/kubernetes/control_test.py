# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""A test in a pod of its own driving every device pod of one-lan through its control API, as a pytest in a
cluster would, with the repository's Python package: list, vanish (and the next multicast search from this
pod misses the device), a journal wait for that search, alive, reboot (the device says byebye, comes back
with a new BOOTID and answers again).

    python3 control_test.py POD_ADDRESS...     prints one line a step; exits 1 at the first that fails

On a cluster the addresses are the headless Service's: socket.gethostbyname_ex("ssdp-sim")[2].
"""

import socket
import sys
import time

from ssdp_sim import ControlClient


def search(seconds=2.5):
    """The root devices that answer an M-SEARCH for upnp:rootdevice (MX 1) sent to the group twice."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
        request = (b"M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\n"
                   b"MX: 1\r\nST: upnp:rootdevice\r\n\r\n")
        found, deadline = set(), time.monotonic() + seconds
        for _ in range(2):
            sock.sendto(request, ("239.255.255.250", 1900))
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                answer = sock.recv(2048).decode("latin-1")
            except TimeoutError:
                break
            for line in answer.split("\r\n"):
                if line.lower().startswith("usn:"):
                    found.add(line[4:].strip().split("::")[0])
        return found


def main(addresses):
    pods = [ControlClient(f"http://{address}:8787") for address in addresses]
    devices = {pod: pod.devices() for pod in pods}
    profiles = sorted(device.profile for listed in devices.values() for device in listed)
    assert profiles == ["dial-tv", "dlna-server", "igd", "roku"], profiles
    udns = {device.udn for listed in devices.values() for device in listed}
    found = search()
    assert found == udns, f"a search found {found}, the pods list {udns}"
    print(f"{len(pods)} pods list {', '.join(profiles)}, and a search from this pod finds the 4")

    roku = next(pod for pod, listed in devices.items() if listed[0].profile == "roku")
    udn = devices[roku][0].udn
    since = roku.journal().next
    roku.vanish(udn)
    found = search()
    assert found == udns - {udn}, f"after the vanish a search found {found}"
    heard = roku.wait(kind="search", since=since, timeout=5)[0].fields
    assert "gone" in str(heard.get("unanswered")), heard
    print(f"the Roku vanished: the next search finds 3, and the Roku's journal has it (from {heard['from']},"
          f" unanswered: {heard['unanswered']})")
    roku.alive(udn)
    found = search()
    assert found == udns, f"after alive a search found {found}"
    print("alive again: the next search finds 4")

    tv = next(pod for pod, listed in devices.items() if listed[0].profile == "dial-tv")
    before = devices[tv][0]
    since = tv.journal().next
    tv.reboot(before.udn, down_for=1)
    tv.wait(kind="notify", since=since, where={"nts": "ssdp:byebye"}, timeout=5)
    tv.wait(kind="notify", since=since, where={"nts": "ssdp:alive"}, timeout=10)
    after = tv.device(before.udn)
    assert after.alive and after.boot_id != before.boot_id, (before.boot_id, after.boot_id)
    found = search()
    assert found == udns, f"after the reboot a search found {found}"
    print(f"the TV rebooted: byebye, then alive with BOOTID {before.boot_id} → {after.boot_id}, found again")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(64)
    main(sys.argv[1:])
