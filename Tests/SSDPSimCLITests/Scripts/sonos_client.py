"""SoCo, unmodified, against the players `ssdp-sim serve --profile sonos` runs: what a Sonos controller
does right after discovery, one JSON line per step.

    python3 sonos_client.py COUNT
    python3 sonos_client.py --host ADDRESS

Finds COUNT players with SoCo's own discovery (multicast from 127.0.0.1), or takes the one at ADDRESS as a
user who typed it in (no discovery step), then, on the first one: its
household, name and zone group, the speaker facts it reads from the description, volume and mute,
a URI played, paused and stopped, and a RenderingControl subscription told of a volume change.
"""

import json
import socket
import sys

import soco
from soco import events


def step(label, **values):
    print(json.dumps({"step": label, **values}), flush=True)


if sys.argv[1] == "--host":
    player = soco.SoCo(sys.argv[2])
else:
    count = int(sys.argv[1])
    zones = soco.discover(timeout=3, interface_addr="127.0.0.1", allow_network_scan=False) or set()
    step("discover", addresses=sorted(zone.ip_address for zone in zones))
    if len(zones) != count:
        sys.exit(1)
    player = sorted(zones, key=lambda zone: zone.ip_address)[0]
step(
    "household",
    household=player.household_id,
    name=player.player_name,
    uid=player.uid,
    coordinator=player.is_coordinator,
    zones=sorted(zone.player_name for zone in player.all_zones),
    groups=sorted(group.label for group in player.all_groups),
)
info = player.get_speaker_info(refresh=True)
step("speaker", **{key: info[key] for key in ("zone_name", "serial_number", "software_version", "model_number",
                                              "player_icon")})

before = player.volume
player.volume = 33
step("volume", before=before, after=player.volume, mute=player.mute)

transport = lambda: player.get_current_transport_info()["current_transport_state"]
states = [transport()]
player.play_uri("http://127.0.0.1/song.mp3", title="Song")
states.append(transport())
track = player.get_current_track_info()
player.pause()
states.append(transport())
player.stop()
states.append(transport())
step("transport", states=states, uri=track["uri"], title=track["title"])

subscription = player.renderingControl.subscribe()
initial = subscription.events.get(timeout=5)
player.volume = 44
change = subscription.events.get(timeout=5)
step(
    "events",
    initial_seq=initial.seq,
    initial_volume=initial.variables.get("volume", {}).get("Master"),
    change_seq=change.seq,
    change_volume=change.variables.get("volume", {}).get("Master"),
)
# SoCo stops its event listener when the last subscription ends by sending a request to the listener itself,
# without a timeout; when the listener's thread has already seen the stop flag, nothing answers and SoCo
# waits for ever (a race in SoCo, seen under load; the device has answered the UNSUBSCRIBE by then). Every
# request from here on times out after 5 s, and that one's timeout is let pass.
socket.setdefaulttimeout(5)
try:
    subscription.unsubscribe()
except TimeoutError:
    pass
events.event_listener.stop()
