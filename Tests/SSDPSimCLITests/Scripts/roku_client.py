"""Finds Rokus by a multicast roku:ecp search and asks each, at the UDP source address of its answer,
for its device info with rokuecp (which always talks to port 8060). Prints one JSON line per Roku."""
import asyncio, json, socket, sys, time

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
        headers = dict(line.split(":", 1) for line in data.decode().split("\r\n")[1:] if ":" in line)
        headers = {k.strip().lower(): v.strip() for k, v in headers.items()}
        found[address] = headers.get("location", "")
    return found

async def main():
    for address, location in sorted(discover(float(sys.argv[1]) if len(sys.argv) > 1 else 2).items()):
        async with Roku(address) as roku:
            device = await roku.update()
        print(json.dumps({"source": address, "location": location, "serial": device.info.serial_number,
                          "name": device.info.name, "model": device.info.model_name,
                          "apps": len(device.apps), "software": device.info.version}), flush=True)

asyncio.run(main())
