# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What a Roku integration's author tests with rokuecp, unmodified: two Rokus found, one loses power, the
next update of it fails as it would at home, and it comes back; a key press reaches the Roku."""

import asyncio

import pytest
from rokuecp import Roku, RokuConnectionError, RokuConnectionTimeoutError

from ssdp_sim import SimulatedDevice
from ssdp_sim.assertions import expect_journal
from ssdp_sim.lan import FakeLAN


async def name_of(device: SimulatedDevice) -> str:
    async with Roku(device.address, port=device.http_port, request_timeout=2) as roku:
        return (await roku.update()).info.name


@pytest.mark.ssdp_sim("roku", 2)
def test_a_roku_that_loses_power_fails_the_next_update(ssdp_lan: FakeLAN) -> None:
    first, second = ssdp_lan.devices
    assert asyncio.run(name_of(second)) == second.friendly_name

    ssdp_lan.control.vanish(2)
    with pytest.raises((RokuConnectionError, RokuConnectionTimeoutError)):
        asyncio.run(name_of(second))
    assert asyncio.run(name_of(first)) == first.friendly_name  # the other one is still there

    ssdp_lan.control.alive(2)
    assert asyncio.run(name_of(second)) == second.friendly_name


@pytest.mark.ssdp_sim("roku")
def test_the_remote_presses_home_and_a_renamed_roku_says_its_new_name(ssdp_lan: FakeLAN) -> None:
    async def press_home_then_read_name() -> str:
        roku_device = ssdp_lan.devices[0]
        async with Roku(roku_device.address, port=roku_device.http_port) as roku:
            await roku.remote("home")
            ssdp_lan.control.change_device(1, friendly_name="Den Roku")
            return (await roku.update(full_update=True)).info.name

    assert asyncio.run(press_home_then_read_name()) == "Den Roku"
    expect_journal(ssdp_lan, kind="action", action="keypress", value="Home")
