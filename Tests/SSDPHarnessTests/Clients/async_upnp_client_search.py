#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""async-upnp-client's `async_search`, unmodified, as a harness client: one JSON line per answer it hands
to its callback (it filters nothing: duplicates and other targets are its caller's to drop).

With its defaults it sends one M-SEARCH to 239.255.255.250:1900 with MX 4 (its timeout) and stops 4 s
later; only the ST is the scenario's. It reaches the devices where they listen on the group:
`run --namespace`. Its policy:

    --client-policy searches=1,mx=4,stop=after:4
"""
import asyncio
import json
import os

from async_upnp_client.search import async_search


async def main() -> None:
    async def found(headers) -> None:
        answer = {"usn": headers.get("usn"), "st": headers.get("st"), "location": headers.get("location")}
        print(json.dumps(answer), flush=True)

    await async_search(found, search_target=os.environ["SSDP_ST"])


asyncio.run(main())
