"""A changing LAN as Home Assistant's UPnP library meets it: async-upnp-client listens for SSDP and holds
an event subscription to a fake router, while the test drives the router through `serve --control`.

Usage: control_interop.py CONTROL_URL SOURCE_IP
Prints one JSON object: whether the library's SSDP listener saw the byebye of `actions/byebye` and the
alive of `actions/alive` (and how long after the call), whether, after `actions/reboot`, its renewal of
the subscription was refused (412) so that it subscribed again under a new SID; after a PATCH of the
router's external address, whether its subscription heard the new address and what miniupnpc's `upnpc
-s` reads; after a PATCH of its name, whether the listener saw the ssdp:update with the next CONFIGID;
after a POST of a second router, whether it saw its alive and could read its description; and after a
DELETE, whether it saw the byebye. Standard library, async-upnp-client and upnpc only; every
wait is bounded.
"""
import asyncio
import json
import re
import subprocess
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
    configs = []  # every CONFIGID.UPNP.ORG the listener has heard

    async def on_device(device, device_or_service_type, source):
        seen.append((device.udn, source, time.monotonic()))
        try:
            configs.extend(h.get("CONFIGID.UPNP.ORG") for h in device.all_combined_headers.values())
        except Exception as error:  # recorded, not raised: the listener would swallow it
            configs.append(repr(error))

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

    # The router's WAN side gets a new address: the subscription hears it, upnpc reads it.
    address = service.state_variable("ExternalIPAddress")
    control(base, "PATCH", "/devices/1", {"state": {"ExternalIPAddress": "198.51.100.7"}})
    result["eventedAddress"] = await wait_for(lambda: address.value == "198.51.100.7", 5) and address.value
    upnpc = subprocess.run(["upnpc", "-u", router["location"], "-s"], capture_output=True, text=True, timeout=20)
    found = re.search(r"ExternalIPAddress = (\S+)", upnpc.stdout)
    result["upnpcAddress"] = found.group(1) if found else upnpc.stdout[-300:]

    # A new name is a new description: an ssdp:update with the next CONFIGID.
    called = time.monotonic()
    changed = control(base, "PATCH", "/devices/1", {"friendlyName": "Attic router"})
    result["update"] = {
        "seen": await wait_for(lambda: any(u == udn and s == SsdpSource.ADVERTISEMENT_UPDATE and t >= called
                                           for u, s, t in seen), 5),
        "configId": changed["configId"],
        "configIdsHeard": sorted({c for c in configs if c is not None}),
    }

    # A second router joins the LAN: its alive set, and its description at its LOCATION.
    called = time.monotonic()
    second = control(base, "POST", "/devices", {"devices": [{"profile": "igd", "friendlyName": "Second router"}]})["devices"][0]
    joined = await wait_for(lambda: any(u == second["udn"] and s == SsdpSource.ADVERTISEMENT_ALIVE and t >= called
                                        for u, s, t in seen), 5)
    added = await UpnpFactory(requester).async_create_device(second["location"])
    result["added"] = {"seen": joined, "location": second["location"], "name": added.friendly_name}

    # Taken off the LAN: its byebye (`known`: whether the listener still tracked the router before it, which
    # it must for a byebye to reach its callback). 15 s: a loaded machine (the whole suite on 2 cores) once
    # kept it past 5.
    known = udn in listener.devices
    since = control(base, "GET", "/journal")["next"]
    called = time.monotonic()
    control(base, "DELETE", "/devices/1")
    result["deleted"] = {"seen": await wait_for(lambda: any(u == udn and s == SsdpSource.ADVERTISEMENT_BYEBYE
                                                            and t >= called for u, s, t in seen), 15),
                         "known": known,
                         "heard": [str(s) for u, s, t in seen if u == udn and t >= called]}
    if not result["deleted"]["seen"]:
        # What the simulator says it did from the DELETE on: whether the byebyes left it.
        result["deleted"]["journal"] = [{"kind": e["kind"], "fields": e["fields"]}
                                        for e in control(base, "GET", f"/journal?since={since}")["entries"]
                                        if e["kind"] in ("notify", "device")]

    await notify_server.async_stop_server()
    await listener.async_stop()
    print(json.dumps(result), flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2]))
