# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""``SimulatedLAN``: ``ssdp-sim serve`` started for a test, its devices' addresses read from its first
line, stopped (with its byebyes) at the end."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .client import AsyncControlClient, ControlClient
from .errors import SimulatorStartError

LOOPBACK = "lo0" if sys.platform == "darwin" else "lo"

# The options that make a LAN a test can use without root: loopback, no multicast, free ports, the
# control API on a free port, every answer at once (a fixture finds every device every time).
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "interface": LOOPBACK,
    "unicast_only": True,
    "port": 0,
    "control": "127.0.0.1:0",
    "delay": "immediate",
}

# Each LAN this process starts on Linux's loopback gets addresses of its own, 127.A.B.2 onwards (A from
# the process ID, B counting blocks of 253 addresses), so LANs side by side in one process (a session
# fixture beside a test's) never want the same address and port, and those of two processes
# (pytest-xdist's workers) only when their IDs are a multiple of 224 apart. (Elsewhere the devices
# share loopback's one address, on consecutive ports.)
_next_block = 0
_blocks_lock = threading.Lock()


def loopback_addresses(count: int | None) -> str:
    """A range of loopback addresses for one LAN's devices: ``127.A.B.2-127.A.B.254``, and as many
    blocks after it as more than 253 devices need."""
    global _next_block
    blocks = max(1, -(-(count or 1) // 253))
    with _blocks_lock:
        first = _next_block if _next_block + blocks <= 256 else 0  # past 127.A.255: from 127.A.0 again
        _next_block = first + blocks
    a = 16 + os.getpid() % 224
    return f"127.{a}.{first}.2-127.{a}.{first + blocks - 1}.254"


@dataclass(frozen=True)
class SimulatedDevice:
    """A device as ``serve`` started it: where it is and who it is."""

    number: int
    udn: str
    friendly_name: str
    device_type: str
    address: str
    location: str
    boot_id: int

    @property
    def http_port(self) -> int:
        """The port of its HTTP side (its description, SOAP, ECP, DIAL)."""
        port = urlsplit(self.location).port
        return port if port is not None else 80

    @property
    def client_address(self) -> str:
        """This machine's address as the device sees it (127.0.0.1 on loopback, the bridge's address for
        a container): what a client binds an event callback or names as a port mapping's internal client."""
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect((self.address, 9))  # a UDP connect sends nothing: it only picks the route
            return str(udp.getsockname()[0])

    @property
    def base_url(self) -> str:
        """``http://ADDRESS:PORT``, where rokuecp, python-roku or a SOAP client reaches it."""
        parts = urlsplit(self.location)
        return f"{parts.scheme}://{parts.netloc}"


def find_binary(binary: str | os.PathLike[str] | None = None) -> str:
    """The ``ssdp-sim`` to run: ``binary``, else ``SSDP_SIM_BINARY``, else ``ssdp-sim`` on PATH."""
    chosen = binary or os.environ.get("SSDP_SIM_BINARY") or shutil.which("ssdp-sim")
    if not chosen:
        raise SimulatorStartError(
            "no ssdp-sim binary: put it on PATH, set SSDP_SIM_BINARY, or pass binary= "
            "(swift build in a clone makes .build/debug/ssdp-sim)"
        )
    if not os.access(chosen, os.X_OK):
        raise SimulatorStartError(f"{chosen}: not an executable file (SSDP_SIM_BINARY or binary=)")
    return str(chosen)


def given_options(options: Mapping[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    """Each option that is given, with its values: a list is several (a repeatable option), False or None
    is not given, True is a flag that is."""
    for name, value in options.items():
        listed = value if isinstance(value, (list, tuple)) else [value]
        if values := [each for each in listed if each is not None and each is not False]:
            yield name, values


def serve_arguments(options: Mapping[str, Any]) -> list[str]:
    """``serve``'s command line from options named as its flags (``unicast_only=True`` is
    ``--unicast-only``; a list repeats the flag)."""
    arguments = []
    for name, values in given_options(options):
        flag = "--" + name.replace("_", "-")
        for value in values:
            arguments += [flag] if value is True else [flag, str(value)]
    return arguments


class FakeLAN:
    """What a test reads of running fake devices, wherever they run (``SimulatedLAN`` from a binary,
    ``SsdpSimContainer`` in a container): the devices, the control API, where a search reaches them."""

    devices: list[SimulatedDevice]
    control_url: str
    control_token: str | None = None

    @property
    def control(self) -> ControlClient:
        """A blocking client of the control API."""
        return ControlClient(self.control_url, token=self.control_token)

    @property
    def async_control(self) -> AsyncControlClient:
        """An asyncio client of the control API."""
        return AsyncControlClient(self.control_url, token=self.control_token)

    @property
    def search_address(self) -> tuple[str, int]:
        """Where a unicast M-SEARCH reaches every device."""
        raise NotImplementedError

    @property
    def log(self) -> str:
        """What serve printed."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stops serve: it says byebye for every advertisement."""
        raise NotImplementedError


class SimulatedLAN(FakeLAN):
    """Fake devices for a test: ``with SimulatedLAN(profile="roku", count=2) as lan:``.

    Every option is ``ssdp-sim serve``'s, named with underscores (``response_loss=0.3``,
    ``devices="lan.json"``, ``description_fault=["503:2"]``); the ``SSDP_SIM_*`` variables of the
    environment do not reach it. The defaults (``DEFAULT_OPTIONS``) need no root: devices on loopback at
    addresses of their own (127.A.B.2, …), no multicast, so a client finds them by unicast search
    (``search_address``) or reaches them at ``device.base_url``. Multicast on a loopback needs a network
    namespace of the test's own (root): pass ``unicast_only=False`` there.

    On ``__exit__`` serve gets SIGTERM and says byebye; ``stopped`` is its last line (the counters). If
    the test process dies instead (killed, a CI timeout), serve stops too: it holds a pipe from this
    process as its standard input (``--stop-on-stdin-eof``). ``async with`` works the same, without
    blocking the event loop.
    """

    def __init__(
        self,
        profile: str | None = None,
        count: int | None = None,
        *,
        binary: str | os.PathLike[str] | None = None,
        start_timeout: float = 30.0,
        **options: Any,
    ) -> None:
        self.binary = find_binary(binary)
        forced = {"json": True, "stop_on_stdin_eof": True}
        self.options = {**DEFAULT_OPTIONS, "profile": profile, "count": count, **options, **forced}
        if self.options["interface"] == LOOPBACK and sys.platform == "linux":
            if not {"addresses", "shared_address"} & options.keys():
                self.options["addresses"] = loopback_addresses(count)
        self.control_token = options.get("control_token") or _token_from(options.get("control_token_file"))
        self.start_timeout = start_timeout
        self.devices: list[SimulatedDevice] = []
        self.started: dict[str, Any] = {}
        self.stopped: dict[str, Any] | None = None
        self._serve: _ServeProcess | None = None

    # MARK: - What a test reads

    @property
    def command(self) -> list[str]:
        return [self.binary, "serve", *serve_arguments(self.options)]

    @property
    def control_url(self) -> str:  # type: ignore[override]
        return str(self.started["control"])

    @property
    def search_address(self) -> tuple[str, int]:
        """(``127.0.0.1``, the search port): every device answers there."""
        host, _, port = self.started["udp"].rpartition(":")
        return ("127.0.0.1" if host in ("0.0.0.0", "") else host.strip("[]"), int(port))

    @property
    def log(self) -> str:
        """What serve logged (its standard error): the searches it received, its warnings."""
        return self._serve.log() if self._serve else ""

    @property
    def events(self) -> list[str]:
        """serve's JSON lines (the last 10,000): ``started``, ``ready``, each event, ``stopped``."""
        return list(self._serve.lines) if self._serve else []

    # MARK: - Start and stop

    def start(self) -> SimulatedLAN:
        """Starts serve and returns once every device answers searches and serves HTTP."""
        self.stopped = None
        self._serve = _ServeProcess(self.command)
        deadline = time.monotonic() + self.start_timeout
        try:
            self.started = self._serve.next_event("started", deadline)
            self._serve.next_event("ready", deadline)
        except BaseException:
            self.stop()
            raise
        self.devices = [
            SimulatedDevice(n, d["udn"], d["friendlyName"], d["deviceType"], d["address"], d["location"], d["bootId"])
            for n, d in enumerate(self.started["devices"], start=1)
        ]
        return self

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM: serve says byebye for every advertisement and prints its counters."""
        if self._serve is not None:
            self.stopped = self._serve.stop(timeout)

    def __enter__(self) -> SimulatedLAN:
        return self.start()

    def __exit__(self, *exception: object) -> None:
        self.stop()

    async def __aenter__(self) -> SimulatedLAN:
        return await asyncio.to_thread(self.start)

    async def __aexit__(self, *exception: object) -> None:
        await asyncio.to_thread(self.stop)


class _ServeProcess:
    """One run of ``ssdp-sim serve``: its lines read on a thread as they come (so that a full pipe never
    holds it up), handed over until it is ready and kept (the last 10,000) after."""

    KEPT_LINES = 10_000

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.lines: collections.deque[str] = collections.deque(maxlen=self.KEPT_LINES)
        self._starting: queue.Queue[str | None] | None = queue.Queue()
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._log = ""
        environment = {name: value for name, value in os.environ.items() if not name.startswith("SSDP_SIM_")}
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=environment
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def next_event(self, name: str, deadline: float) -> dict[str, Any]:
        """The next JSON line whose ``event`` is ``name``, before ``deadline`` (time.monotonic())."""
        assert self._starting is not None
        while True:
            try:
                line = self._starting.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise SimulatorStartError(self._failure(f"no {name!r} line in time")) from None
            if line is None:
                raise SimulatorStartError(self._failure(f"serve exited before its {name!r} line"))
            if (event := _event(line)).get("event") == name:
                if name == "ready":
                    self._starting = None  # from here on the lines are only kept
                return event

    def stop(self, timeout: float) -> dict[str, Any] | None:
        """Stops serve (SIGTERM; killed after ``timeout``), closes what it held, returns its ``stopped``
        line."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self._log = self.log()
        self._stderr.close()
        return next((e for e in map(_event, reversed(self.lines)) if e.get("event") == "stopped"), None)

    def log(self) -> str:
        if self._stderr.closed:
            return self._log
        self._stderr.seek(0)
        return self._stderr.read()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if (starting := self._starting) is not None:
                starting.put(line)
        if (starting := self._starting) is not None:
            starting.put(None)

    def _failure(self, what: str) -> str:
        status = "" if self.process.poll() is None else f" (exit status {self.process.returncode})"
        return f"{' '.join(self.command)}: {what}{status}\n{self.log().strip()}"


def _token_from(path: str | os.PathLike[str] | None) -> str | None:
    """The token in a ``--control-token-file``: its first line."""
    if path is None:
        return None
    with open(path, encoding="utf-8") as file:
        return file.readline().rstrip("\r\n")


def _event(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
