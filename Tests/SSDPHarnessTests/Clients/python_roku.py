#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""python-roku's discovery, unmodified, as a harness client: one JSON line per service it found.

`Roku.discover()` keeps only each answer's host and port, so this calls what it calls,
`roku.discovery.discover`, with its defaults (one M-SEARCH with MX 3 to 239.255.255.250:1900 from a socket
that binds no address; a stop after 2 s in which nothing arrives) and the scenario's ST. It reaches the
devices only where they listen on the group: `run --namespace`. Its policy:

    --client-policy searches=1,mx=3,stop=idle:2
"""
import json
import os

from roku import discovery

for response in discovery.discover(st=os.environ.get("SSDP_ST", discovery.ST_ECP)):
    print(json.dumps({"usn": response.usn, "st": response.st, "location": response.location}), flush=True)
