"""A changing LAN as Home Assistant's UPnP library meets it: async-upnp-client listens for SSDP and holds
an event subscription to a fake router, while the test drives the router through `serve --control`.

Usage: control_interop.py CONTROL_URL SOURCE_IP
Prints one JSON object: whether the library's SSDP listener saw the byebye of `actions/byebye` and the
alive of `actions/alive` (and how long after the call), and whether, after `actions/reboot`, its
renewal of the subscription was refused (412) so that it subscribed again under a new SID.
Standard library and async-upnp-client only; every wait is bounded.
"""
import asyncio
import json
import sys
import time
import urllib.request

from async_upnp_client.aiohttp import AiohttpNotifyServer, AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.const import SsdpSource
from async_upnp_client.ssdp_listener import SsdpListener


def control(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


async def main(base, source_ip):
    seen = []  # (udn, source, monotonic time)

    async def on_device(device, _type, source):
        seen.append((device.udn, source, time.monotonic()))

    listener = SsdpListener(async_callback=on_device, source=(source_ip, 0))
    await listener.async_start()
    await listener.async_search()

    async def wait_for(condition, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return True
            await asyncio.sleep(0.02)
        return False

    router = control(base, "GET", "/devices/1")
    udn = router["udn"]
    result = {"found": await wait_for(lambda: any(u == udn for u, _, _ in seen), 10)}

    requester = AiohttpRequester()
    device = await UpnpFactory(requester).async_create_device(router["location"])
    service = next(s for s in device.all_services if s.service_type.endswith(":WANIPConnection:1"))
    notify_server = AiohttpNotifyServer(requester, source=(source_ip, 0))
    await notify_server.async_start_server()
    first_sid, _ = await notify_server.event_handler.async_subscribe(service)

    for action, kind in (("byebye", SsdpSource.ADVERTISEMENT_BYEBYE), ("alive", SsdpSource.ADVERTISEMENT_ALIVE)):
        called = time.monotonic()
        control(base, "POST", f"/devices/1/actions/{action}")
        arrived = await wait_for(lambda: any(u == udn and s == kind and t >= called for u, s, t in seen), 5)
        when = min((t for u, s, t in seen if u == udn and s == kind and t >= called), default=None)
        result[action] = {"seen": arrived, "ms": None if when is None else round((when - called) * 1000, 1)}

    control(base, "POST", "/devices/1/actions/reboot", {"downFor": 1})
    result["back"] = await wait_for(lambda: control(base, "GET", "/devices/1")["state"] == "alive", 10)
    second_sid, _ = await notify_server.event_handler.async_resubscribe(first_sid)
    result["resubscribedWithNewSID"] = second_sid != first_sid

    await notify_server.async_stop_server()
    await listener.async_stop()
    print(json.dumps(result), flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2]))
