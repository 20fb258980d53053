"""aiohue 4.9 (the library of Home Assistant's Hue integration), unmodified, against the bridge
`ssdp-sim serve --profile hue` runs, the way Home Assistant adds one: one JSON line per step.

    python3 hue_client.py SOURCE_IP CONTROL_URL

Finds the bridge by a multicast search and its description (Home Assistant's SSDP matchers: the
manufacturer and model name), checks it with aiohue's discover_bridge, tries to pair before the link
button is pressed, presses it through the simulator's control API, pairs, reads the bridge and its
lights with HueBridgeV1, switches a light on, dims it and colours it, renames it, reads the lights back,
and tries a key the bridge never gave.
"""

import asyncio
import json
import sys
import urllib.request
import xml.etree.ElementTree as ElementTree

import aiohttp
from aiohue import HueBridgeV1
from aiohue.discovery import discover_bridge
from aiohue.errors import LinkButtonNotPressed, Unauthorized
from aiohue.util import create_app_key, normalize_bridge_id
from async_upnp_client.search import async_search

DEVICE = "{urn:schemas-upnp-org:device-1-0}"


def step(label, **values):
    print(json.dumps({"step": label, **values}), flush=True)


def press_link_button(control):
    request = urllib.request.Request(
        control + "/devices/1", data=json.dumps({"state": {"linkButton": "true"}}).encode(), method="PATCH"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.status


async def main(source_ip, control):
    answers = []

    async def on_response(headers):
        if "hue-bridgeid" in headers:
            answers.append(dict(headers))

    await async_search(on_response, timeout=2, search_target="upnp:rootdevice", source=(source_ip, 0))
    location = answers[0]["location"]
    async with aiohttp.ClientSession() as session:
        async with session.get(location) as answer:
            device = ElementTree.fromstring(await answer.text()).find(f"{DEVICE}device")
        described = {name: device.findtext(f"{DEVICE}{name}") for name in ("manufacturer", "modelName", "serialNumber")}
        host = location.split("/")[2].split(":")[0]
        step("discover", answers=len(answers), location=location, header_id=answers[0]["hue-bridgeid"], **described)

        bridge = await discover_bridge(host, session)
        step("bridge", id=bridge.id, header_id=normalize_bridge_id(answers[0]["hue-bridgeid"]),
             supports_v2=bridge.supports_v2)

        try:
            await create_app_key(host, "home-assistant#ci", session)
            step("pair-unpressed", error=None)
        except LinkButtonNotPressed as error:
            step("pair-unpressed", error=type(error).__name__)

        step("press", status=press_link_button(control))
        key = await create_app_key(host, "home-assistant#ci", session)
        step("paired", key_length=len(key))

        async with HueBridgeV1(host, key, session) as hue:
            lights = {light.id: light for light in hue.lights.items}
            step("initialized", bridge_id=hue.config.bridge_id, name=hue.config.name, apiversion=hue.config.apiversion,
                 lights=[{"id": light.id, "name": light.name, "type": light.type, "on": light.state["on"],
                          "gamut": light.colorgamuttype} for light in lights.values()])
            colour = lights["1"]
            await colour.set_state(on=True)
            await colour.set_state(bri=100, transitiontime=4)
            await colour.set_state(xy=(0.141, 0.123))
            await hue.request("put", "lights/1", {"name": "Desk"})
            await hue.lights.update()
            colour = hue.lights["1"]
            step("changed", name=colour.name, on=colour.state["on"], bri=colour.state["bri"], xy=colour.state["xy"],
                 colormode=colour.state["colormode"], white_on=hue.lights["2"].state["on"])
            await colour.set_state(on=False)
            await hue.lights.update()
            step("off", on=hue.lights["1"].state["on"])

        stranger = HueBridgeV1(host, "not-a-key-it-gave", session)
        try:
            await stranger.initialize()
            step("stranger", error=None)
        except Unauthorized as error:
            step("stranger", error=type(error).__name__)


asyncio.run(main(sys.argv[1], sys.argv[2]))
