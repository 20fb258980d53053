# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What a media renderer integration's author tests with async-upnp-client's DmrDevice, unmodified: it
subscribes, the renderer's volume changes on its own (someone used its remote), and the event reaches the
integration; the journal shows the NOTIFY the renderer sent."""

import asyncio

import pytest
from async_upnp_client.aiohttp import AiohttpNotifyServer, AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.profiles.dlna import DmrDevice

from ssdp_sim.assertions import expect_journal
from ssdp_sim.lan import FakeLAN

RENDERING_CONTROL = "urn:schemas-upnp-org:service:RenderingControl:1"


@pytest.mark.ssdp_sim("renderer")
def test_a_volume_change_on_the_renderer_reaches_the_subscriber(ssdp_lan: FakeLAN) -> None:
    async def scenario() -> float | None:
        requester = AiohttpRequester()
        device = await UpnpFactory(requester, non_strict=True).async_create_device(ssdp_lan.devices[0].location)
        events = AiohttpNotifyServer(requester, source=(ssdp_lan.devices[0].client_address, 0))
        await events.async_start_server()
        try:
            renderer = DmrDevice(device, events.event_handler)
            await renderer.async_subscribe_services()
            heard = asyncio.Event()  # the event that carries the new volume (the subscription's first came before)
            renderer.on_event = lambda service, variables: renderer.volume_level == 0.42 and heard.set()
            await ssdp_lan.async_control.change_device(1, state={"Volume": 42})
            await asyncio.wait_for(heard.wait(), 5)
            return renderer.volume_level
        finally:
            await events.async_stop_server()

    assert asyncio.run(scenario()) == 0.42
    expect_journal(ssdp_lan, kind="subscription", event="subscribe", service=RENDERING_CONTROL)
    # The subscription's first event, then the one of the volume change, both accepted by the integration.
    expect_journal(ssdp_lan, kind="event", service=RENDERING_CONTROL, status=200, count=2)
