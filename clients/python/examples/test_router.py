# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What a router integration's author tests with async-upnp-client's IgdDevice, unmodified: the external
address it reads follows the router's, and the port mapping it adds is the call the router received. As
miniupnpd does, the router maps ports only to the address that asks (another is 718, ConflictInMappingEntry)."""

import asyncio
from datetime import timedelta
from ipaddress import IPv4Address

import pytest
from async_upnp_client.aiohttp import AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.profiles.igd import IgdDevice

from ssdp_sim.assertions import expect_journal
from ssdp_sim.lan import FakeLAN


@pytest.mark.ssdp_sim("igd")
def test_the_router_reports_its_new_address_and_receives_the_mapping(ssdp_lan: FakeLAN) -> None:
    this_host = ssdp_lan.devices[0].client_address  # the router maps ports only to the host that asks

    async def scenario() -> tuple[str | None, str | None]:
        device = await UpnpFactory(AiohttpRequester()).async_create_device(ssdp_lan.devices[0].location)
        router = IgdDevice(device, None)
        before = await router.async_get_external_ip_address()
        ssdp_lan.control.change_device(1, state={"ExternalIPAddress": "198.51.100.7"})
        after = await router.async_get_external_ip_address()
        await router.async_add_port_mapping(
            IPv4Address("0.0.0.0"), 8080, "TCP", 80, IPv4Address(this_host), True, "my app", timedelta(hours=1)
        )
        return before, after

    before, after = asyncio.run(scenario())
    assert before != "198.51.100.7" and after == "198.51.100.7"
    [call] = expect_journal(ssdp_lan, kind="soap", action="AddPortMapping", where={"arguments.NewExternalPort": 8080})
    assert call["arguments"]["NewInternalClient"] == this_host
