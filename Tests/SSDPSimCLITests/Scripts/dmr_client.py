"""async-upnp-client's DmrDevice (what Home Assistant's DLNA renderer integration drives), unmodified,
against the renderer `ssdp-sim serve --profile renderer` runs: one JSON line per step.

    python3 dmr_client.py SOURCE_IP [LOCATION]

Finds the renderer by its own multicast search (or takes it at LOCATION, with no discovery step), builds it with UpnpFactory, subscribes to its services with
an event server of its own, reads its state, sets the volume, loads a URI, plays, pauses and stops it, and
reports what the events told it.
"""

import asyncio
import json
import sys

from async_upnp_client.aiohttp import AiohttpNotifyServer, AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.profiles.dlna import DmrDevice
from async_upnp_client.search import async_search

RENDERER = "urn:schemas-upnp-org:device:MediaRenderer:1"


def step(label, **values):
    print(json.dumps({"step": label, **values}), flush=True)


def state(dmr):
    return {
        "transport": dmr.transport_state.name if dmr.transport_state else None,
        "volume": dmr.volume_level,
        "muted": dmr.is_volume_muted,
        "uri": dmr.current_track_uri,
        "title": dmr.media_title,
        "can_play": dmr.can_play,
        "can_pause": dmr.can_pause,
        "can_stop": dmr.can_stop,
    }


async def main(source_ip, location=None):
    found = {location} if location else set()

    async def on_response(headers):
        if headers.get("st") == RENDERER:
            found.add(headers["location"])

    if not location:
        await async_search(on_response, timeout=3, search_target=RENDERER, source=(source_ip, 0))
        step("discover", locations=sorted(found))
    requester = AiohttpRequester()
    device = await UpnpFactory(requester, non_strict=True).async_create_device(sorted(found)[0])
    server = AiohttpNotifyServer(requester, source=(source_ip, 0))
    await server.async_start_server()
    events = []
    dmr = DmrDevice(device, server.event_handler)
    dmr.on_event = lambda service, variables: events.append(
        {"service": service.service_id.rpartition(":")[2], "variables": sorted(v.name for v in variables)}
    )
    await dmr.async_subscribe_services()
    # Each service's initial event before the first update: that update polls GetProtocolInfo, and a poll
    # that comes before the ConnectionManager's initial event is reported as an event of its own.
    services = {service.service_id.rpartition(":")[2] for service in device.all_services}
    for _ in range(100):
        if services <= {event["service"] for event in events}:
            break
        await asyncio.sleep(0.05)
    else:
        missing = sorted(services - {event["service"] for event in events})
        print(f"no initial event within 5 s from {', '.join(missing)}", file=sys.stderr, flush=True)
    await dmr.async_update()
    step("fresh", **state(dmr))

    await dmr.async_set_volume_level(0.3)
    await dmr.async_mute_volume(True)
    await asyncio.sleep(0.5)
    step("volume", **state(dmr))

    await dmr.async_set_transport_uri(f"http://{source_ip}:5002/track.mp3", "Track")
    await asyncio.sleep(0.5)
    await dmr.async_play()
    await asyncio.sleep(0.5)
    await dmr.async_update()
    step("playing", **state(dmr))
    await dmr.async_pause()
    await asyncio.sleep(0.5)
    step("paused", **state(dmr))
    await dmr.async_stop()
    await asyncio.sleep(0.5)
    await dmr.async_update()
    step("stopped", **state(dmr))

    step("events", events=events)
    await dmr.async_unsubscribe_services()
    await server.async_stop_server()
    await requester.async_close() if hasattr(requester, "async_close") else None


asyncio.run(main(*sys.argv[1:3]))
