# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""docs/python.md's first test, as it is there."""
import asyncio

import pytest
from rokuecp import Roku, RokuConnectionError

from ssdp_sim.assertions import expect_journal


@pytest.mark.ssdp_sim("roku", 2)                       # two fake Rokus for this test
def test_my_app_drops_a_roku_that_lost_power(ssdp_lan):
    roku = ssdp_lan.devices[1]                         # its address, LOCATION, HTTP port, UDN
    async def read_name():
        async with Roku(roku.address, port=roku.http_port) as client:
            return (await client.update()).info.name
    assert asyncio.run(read_name()) == "Roku Ultra 2"
    ssdp_lan.control.vanish(2)                         # the power is cut: no answer, no byebye
    with pytest.raises(RokuConnectionError):
        asyncio.run(read_name())
    expect_journal(ssdp_lan, kind="http", device=2, path="/query/device-info", status=0)  # left unanswered
