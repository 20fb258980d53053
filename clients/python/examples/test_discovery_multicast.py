# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Discovery by multicast, as Home Assistant searches: async-upnp-client's ``async_search`` sends to the
group and finds each Roku by its answer, and the journal holds the alive NOTIFYs the Rokus multicast.

Multicast on a loopback needs a network namespace of the test's own, made by root
(docs/python.md, "What needs root"): scripts/python-client-test runs this file in one (``unshare -n``,
loopback multicast on); elsewhere it is skipped, saying so.
"""

import asyncio
import fcntl
import socket
import struct

import pytest
from async_upnp_client.search import async_search

from ssdp_sim.assertions import expect_journal
from ssdp_sim.lan import FakeLAN



def loopback_multicasts() -> bool:
    """Whether this network namespace's loopback is up and multicasts (SIOCGIFFLAGS: /sys shows the
    namespace that mounted it, not this one)."""
    up, multicast, get_flags = 0x1, 0x1000, 0x8913
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            request = fcntl.ioctl(probe.fileno(), get_flags, struct.pack("16sH", b"lo", 0))
    except OSError:
        return False
    flags = struct.unpack("16sH", request[:18])[1]
    return bool(flags & up and flags & multicast)


pytestmark = [
    pytest.mark.multicast,
    pytest.mark.skipif(
        not loopback_multicasts(),
        reason="loopback does not multicast: run it in a namespace (sudo unshare -n; ip link set lo up multicast on; "
        "ip route add 239.0.0.0/8 dev lo src 127.0.0.1)",
    ),
]


@pytest.mark.ssdp_sim("roku", 2, unicast_only=False, port=1900)
def test_a_search_of_the_group_finds_every_roku(ssdp_lan: FakeLAN) -> None:
    found: set[str] = set()

    async def on_response(headers) -> None:  # type: ignore[no-untyped-def]
        if headers.get("st") == "roku:ecp":
            found.add(headers["location"])

    asyncio.run(async_search(on_response, timeout=2, search_target="roku:ecp", source=("127.0.0.1", 0)))
    assert found == {device.location for device in ssdp_lan.devices}
    expect_journal(ssdp_lan, kind="notify", nts="ssdp:alive", device=2)
