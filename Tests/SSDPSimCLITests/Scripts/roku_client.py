"""Finds Rokus by a multicast roku:ecp search and asks each, at the UDP source address of its answer,
for its device info with rokuecp (which always talks to port 8060). Prints one JSON line per Roku: what
the answer said (LOCATION, USN, SERVER, WAKEUP) beside what rokuecp read.

    roku_client.py SECONDS [--drive] [--tv] [--rename CONTROL_URL]
    roku_client.py --host ADDRESS [--drive]

With --drive, it then uses the first Roku as Home Assistant's Roku integration does: launches YouTube
(837), presses Play, then PowerOff, reading the device back with rokuecp after each; one JSON line
per step, {"step": ...}. With --rename, it changes the first Roku through `serve --control` (PATCH
/devices/1: a new name and Netflix in front, then standby) and reads it back with rokuecp after each:
{"step": "patched"}, {"step": "standby"}.
With --tv, it uses the first Roku as Home Assistant's Roku integration uses a Roku TV: tunes the antenna
to channel 7.1, presses ChannelUp, switches to HDMI 1, and presses Power twice, reading the TV back after
each; one JSON line per step, {"step": ...}, with the channel rokuecp read.
With --host, it finds no Roku but reads (and drives) the one at ADDRESS, as an app given an address does.
Run it only inside a private network namespace."""
import asyncio, json, socket, sys, time, urllib.request

from rokuecp import Roku

def discover(seconds):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
    sock.sendto(b'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: roku:ecp\r\n\r\n',
                ("239.255.255.250", 1900))
    found, deadline = {}, time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            data, (address, _) = sock.recvfrom(65536)
        except socket.timeout:
            break
        lines = [line.split(":", 1) for line in data.decode().split("\r\n")[1:] if ":" in line]
        found[address] = {name.strip().lower(): value.strip() for name, value in lines}
    return found

def summary(device):
    info, media = device.info, device.media
    return {"serial": info.serial_number, "name": info.name, "model": info.model_name,
            "software": info.version, "type": info.device_type, "network": info.network_type,
            "wifiMac": info.wifi_mac, "ethernetMac": info.ethernet_mac, "apps": len(device.apps),
            "standby": device.state.standby, "app": device.app.name if device.app else None,
            "media": None if media is None else {"paused": media.paused, "position": media.position,
                                                 "duration": media.duration, "live": media.live}}

async def drive(address):
    async with Roku(address) as roku:
        for step, action in (("launch", lambda: roku.launch("837")), ("play", lambda: roku.remote("play")),
                             ("play again", lambda: roku.remote("play")), ("poweroff", lambda: roku.remote("poweroff"))):
            await action()
            print(json.dumps({"step": step, **summary(await roku.update())}), flush=True)

async def drive_tv(address):
    async with Roku(address) as roku:
        for step, action in (("tune", lambda: roku.tune("7.1")), ("channel up", lambda: roku.remote("channel_up")),
                             ("hdmi1", lambda: roku.remote("input_hdmi1")), ("power", lambda: roku.remote("power")),
                             ("power again", lambda: roku.remote("power"))):
            await action()
            device = await roku.update(full_update=True)
            channel = device.channel
            print(json.dumps({"step": step, "channels": [c.number for c in device.channels],
                              "channel": None if channel is None else {"number": channel.number, "name": channel.name,
                                                                       "program": channel.program_title},
                              **summary(device)}), flush=True)

async def main():
    if "--host" in sys.argv:
        found = {sys.argv[sys.argv.index("--host") + 1]: {}}
    else:
        found = discover(float(sys.argv[1]) if len(sys.argv) > 1 else 2)
    for address, answer in sorted(found.items()):
        async with Roku(address) as roku:
            device = await roku.update(full_update=True)
        print(json.dumps({"source": address, "location": answer.get("location"), "usn": answer.get("usn"),
                          "server": answer.get("server"), "wakeup": answer.get("wakeup"), **summary(device)}),
              flush=True)
    if "--drive" in sys.argv and found:
        await drive(min(found))
    if "--tv" in sys.argv and found:
        await drive_tv(min(found))
    if "--rename" in sys.argv and found:
        control = sys.argv[sys.argv.index("--rename") + 1]
        for step, body in (("patched", {"friendlyName": "Den Roku", "state": {"activeApp": "12"}}),
                           ("standby", {"state": {"powerMode": "Ready"}})):
            request = urllib.request.Request(control + "/devices/1", method="PATCH", data=json.dumps(body).encode())
            with urllib.request.urlopen(request, timeout=10) as response:
                patched = json.loads(response.read())
            async with Roku(patched["address"]) as roku:
                print(json.dumps({"step": step, "configId": patched["configId"], **summary(await roku.update())}),
                      flush=True)

asyncio.run(main())
