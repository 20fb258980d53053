#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""A GSSDP resource group (the SSDP stack of GUPnP, through python3-gi), for the capture-import lab test.

Announces a root device with a MediaRenderer and two services on loopback and answers searches as
GSSDP does, until SECONDS have passed. Prints "ready" once the group is available. Run it only inside a
private network namespace (unshare -n): it binds port 1900.
"""
import signal
import sys

import gi

gi.require_version("GSSDP", "1.6")
from gi.repository import GLib, GSSDP  # noqa: E402

UDN = "uuid:95e4c6a0-1b2c-4d3e-8f40-0000000c0ffe"
LOCATION = "http://127.0.0.1:49494/description.xml"
TARGETS = [
    "upnp:rootdevice",
    UDN,
    "urn:schemas-upnp-org:device:MediaRenderer:1",
    "urn:schemas-upnp-org:service:RenderingControl:1",
    "urn:schemas-upnp-org:service:AVTransport:1",
]


def main(seconds):
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    client = GSSDP.Client.new_full("lo", None, 0, GSSDP.UDAVersion.VERSION_1_0)
    group = GSSDP.ResourceGroup.new(client)
    for target in TARGETS:
        usn = UDN if target == UDN else f"{UDN}::{target}"
        group.add_resource_simple(target, usn, LOCATION)
    group.set_available(True)
    loop = GLib.MainLoop()
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    print("ready", flush=True)
    loop.run()
    group.set_available(False)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 20)
