"""Finds root devices with async-upnp-client's own SSDP search, then fetches and parses each one's
description (and every service description) with its UpnpFactory, as Home Assistant does.

Usage: upnp_client_interop.py SOURCE_IP MX
Prints one JSON object per root device: location, usn, udn, deviceType, services, embedded devices; and
an "error" object for a device whose description the library refused.

The search is the library's SsdpSearchListener, as Home Assistant keeps one, asking for answers within MX
seconds and listening one second longer. Its one-shot `async_search(timeout=MX)` listens exactly MX
seconds from before the search leaves, so an answer a device sends at the end of MX, as UDA allows, can
miss it: with ten devices answering at random within MX, one CI run in a busy hour may lose one.
"""
import asyncio
import json
import sys

from async_upnp_client.aiohttp import AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.search import SsdpSearchListener


def describe(device):
    return {
        "udn": device.udn,
        "deviceType": device.device_type,
        "friendlyName": device.friendly_name,
        "services": sorted(device.services.keys()),
        "embedded": [describe(embedded) for embedded in device.embedded_devices.values()],
    }


async def main(source_ip, mx):
    found = {}

    async def on_response(headers):
        if headers.get("st") == "upnp:rootdevice":
            found[headers["location"]] = headers["usn"]

    async def on_connected():
        listener.async_search()

    listener = SsdpSearchListener(
        async_callback=on_response,
        source=(source_ip, 0),
        timeout=mx,
        search_target="upnp:rootdevice",
        async_connect_callback=on_connected,
    )
    await listener.async_start()
    await asyncio.sleep(mx + 1)
    listener.async_stop()
    factory = UpnpFactory(AiohttpRequester())
    for location, usn in sorted(found.items()):
        try:
            device = await factory.async_create_device(location)
        except Exception as error:  # report, so the test names the device and the library's reason
            print(json.dumps({"location": location, "usn": usn, "error": repr(error)}), flush=True)
            continue
        print(json.dumps({"location": location, "usn": usn, **describe(device)}), flush=True)


asyncio.run(main(sys.argv[1], int(sys.argv[2])))
