# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""HTTP/1.1 as the control API speaks it: one request per connection, JSON both ways.

The request's bytes and the answer's parsing are one piece of code for the blocking and the asyncio
client, so both send exactly the same thing. The API closes every connection after its answer, so an
answer is read to the end of the stream.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

# An answer larger than this is not the control API's (its largest, 10,000 journal entries, is ~10 MB).
MAX_ANSWER_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Request:
    """One call: ``template`` is the OpenAPI path (``/devices/{id}``) it fills in, for the coverage test."""

    method: str
    template: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: Any = None

    @property
    def target(self) -> str:
        return self.path + ("?" + urlencode(self.query, quote_via=quote) if self.query else "")

    def __str__(self) -> str:
        return f"{self.method} {self.target}"

    def encode(self, host: str, token: str | None) -> bytes:
        body = b"" if self.body is None else json.dumps(self.body).encode()
        lines = [f"{self.method} {self.target} HTTP/1.1", f"Host: {host}", "Connection: close",
                 "Accept: application/json"]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        if self.body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


def fill(template: str, **parameters: object) -> str:
    """``/devices/{id}`` with each parameter in place, percent-encoded (a UDN keeps its colons)."""
    for name, value in parameters.items():
        template = template.replace("{" + name + "}", quote(str(value), safe=":"))
    return template


def parse_response(data: bytes) -> Response:
    head, separator, body = data.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].split(b" ", 2)
    if not separator or len(status_line) < 2 or not status_line[1].isdigit():
        raise ConnectionError(f"not an HTTP answer from the control API: {data[:80]!r}")
    return Response(int(status_line[1]), body)


class Endpoint:
    """Where the control API listens: its base URL split into what a connection needs."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url if "://" in url else "http://" + url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"{url!r}: the control API's URL is http://HOST:PORT")
        self.url = f"http://{parts.netloc}"
        self.host = parts.hostname
        self.port = parts.port or 80
        self.host_header = parts.netloc

    def send(self, request: Request, token: str | None, timeout: float) -> Response:
        """The answer to ``request`` within ``timeout`` seconds in all (``TimeoutError`` after)."""
        deadline = time.monotonic() + timeout
        answer = _Answer(request)
        with socket.create_connection((self.host, self.port), timeout=timeout) as connection:
            connection.sendall(request.encode(self.host_header, token))
            while True:
                connection.settimeout(max(0.001, deadline - time.monotonic()))
                if not (chunk := connection.recv(65536)):
                    break
                answer.add(chunk)
        return answer.response()

    async def send_async(self, request: Request, token: str | None, timeout: float) -> Response:
        async def exchange() -> Response:
            answer = _Answer(request)
            reader, writer = await asyncio.open_connection(self.host, self.port)
            try:
                writer.write(request.encode(self.host_header, token))
                await writer.drain()
                while chunk := await reader.read(65536):
                    answer.add(chunk)
            finally:
                writer.close()
            return answer.response()

        return await asyncio.wait_for(exchange(), timeout)


class _Answer:
    """The bytes of one answer as they arrive, bounded."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
        self.size += len(chunk)
        if self.size > MAX_ANSWER_BYTES:
            raise ConnectionError(f"{self.request}: the answer exceeds {MAX_ANSWER_BYTES} bytes")

    def response(self) -> Response:
        return parse_response(b"".join(self.chunks))
