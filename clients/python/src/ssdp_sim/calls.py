# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Every endpoint of the control API as a ``Call``: the request to send and how to read its answer.

Both clients (blocking and asyncio) send these and nothing else, so one table says what the client can
do, and the OpenAPI coverage test holds that table to ``/openapi.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ._http import Request, Response, fill
from .errors import ControlError, JournalWaitTimeout
from .models import (
    Device,
    Fault,
    Health,
    JournalEntry,
    JournalPage,
    Latency,
    NearMiss,
    NetworkFaults,
    without_none,
)

T = TypeVar("T")

DeviceID = int | str
"""A device's number (from 1, in the order ``serve`` lists them) or its UDN."""

ACTIONS = ("byebye", "vanish", "alive", "update", "reboot")

# The query parameters of /journal and /journal/wait; a field condition named like one goes as field:NAME.
_JOURNAL_PARAMETERS = frozenset({"kind", "device", "since", "limit", "count", "timeout"})

# A wait's answer comes by its own timeout; the connection gets this much longer.
_WAIT_MARGIN = 10.0


@dataclass(frozen=True)
class Call(Generic[T]):
    """A request, the statuses that mean success, and what a successful answer becomes."""

    request: Request
    decode: Callable[[Any], T]
    success: tuple[int, ...] = (200,)
    extra_timeout: float = 0.0

    def result(self, response: Response) -> T:
        try:
            body = response.json()
        except ValueError:
            raise ControlError(response.status, f"not JSON: {response.body[:80]!r}", None, str(self.request)) from None
        if response.status in self.success:
            return self.decode(body)
        if response.status == 408 and isinstance(body, dict) and "nearMisses" in body:
            raise JournalWaitTimeout(
                body.get("error", "timed out"),
                [JournalEntry.from_json(e) for e in body.get("entries", [])],
                [NearMiss.from_json(m) for m in body["nearMisses"]],
            )
        error = body if isinstance(body, dict) else {}
        raise ControlError(response.status, error.get("error", "no error text"), error.get("path"), str(self.request))


def health() -> Call[Health]:
    """``GET /health``: whether every device serves (``Health.serving``), and how many."""
    # 503 with {"status": "starting"} is an answer too: the devices do not serve yet.
    return Call(Request("GET", "/health", "/health"), Health.from_json, success=(200, 503))


def devices() -> Call[list[Device]]:
    """``GET /devices``: every device but those removed, in the order serve numbers them."""
    return Call(Request("GET", "/devices", "/devices"), _devices)


def device(id: DeviceID) -> Call[Device]:
    """``GET /devices/{id}``: one device, by its number (from 1) or its UDN."""
    return Call(Request("GET", "/devices/{id}", fill("/devices/{id}", id=id)), Device.from_json)


def add_devices(devices: Sequence[Mapping[str, Any]]) -> Call[list[Device]]:
    """``POST /devices``: devices join the LAN and announce themselves; each as a device file writes
    it (``{"profile": "roku", "friendlyName": "Attic Roku"}``)."""
    body = {"devices": list(devices)}
    return Call(Request("POST", "/devices", "/devices", body=body), _devices, success=(201,))


def change_device(
    id: DeviceID,
    *,
    friendly_name: str | None = None,
    max_age: int | None = None,
    behaviour: Mapping[str, Any] | None = None,
    http_faults: Mapping[str, Any] | None = None,
    actions: Sequence[Mapping[str, Any]] | None = None,
    state: Mapping[str, str | int | bool] | None = None,
) -> Call[Device]:
    """``PATCH /devices/{id}``: changes the running device, all or nothing: ``behaviour`` and
    ``http_faults`` in a device file's words (``{"responseLoss": 0.5}``, ``{"description": ["503:2"]}``),
    ``actions`` its SOAP answers, ``state`` its live state by name (``{"ExternalIPAddress":
    "198.51.100.7"}``, a Roku's ``{"powerMode": "DisplayOff"}``), which subscribers hear."""
    body = without_none(
        friendlyName=friendly_name, maxAge=max_age, behaviour=behaviour, httpFaults=http_faults,
        actions=None if actions is None else list(actions), state=state,
    )
    if not body:
        raise ValueError("change_device: name at least one thing to change")
    return Call(Request("PATCH", "/devices/{id}", fill("/devices/{id}", id=id), body=body), Device.from_json)


def remove_device(id: DeviceID, *, byebye: bool = True) -> Call[Device]:
    """``DELETE /devices/{id}``: the device leaves the LAN (with a byebye unless ``byebye=False``)
    until ``reset``."""
    query = () if byebye else (("byebye", "false"),)
    return Call(Request("DELETE", "/devices/{id}", fill("/devices/{id}", id=id), query), Device.from_json)


def act(id: DeviceID, action: str, *, down_for: float | None = None, new_port: bool | None = None) -> Call[Device]:
    """``POST /devices/{id}/actions/{action}``: ``byebye``, ``vanish``, ``alive``, ``update`` or
    ``reboot`` (the methods of those names); the device after."""
    if action not in ACTIONS:
        raise ValueError(f"{action!r}: no such action (the actions: {', '.join(ACTIONS)})")
    template = "/devices/{id}/actions/{action}"
    body = without_none(downFor=down_for, newPort=new_port) or None
    return Call(Request("POST", template, fill(template, id=id, action=action), body=body), Device.from_json)


def byebye(id: DeviceID) -> Call[Device]:
    """The device says byebye for every advertisement, then is gone until ``alive``."""
    return act(id, "byebye")


def vanish(id: DeviceID) -> Call[Device]:
    """The device is gone without a word, as when its power is cut."""
    return act(id, "vanish")


def alive(id: DeviceID) -> Call[Device]:
    """A device that is gone or rebooting comes back with the next BOOTID."""
    return act(id, "alive")


def update(id: DeviceID) -> Call[Device]:
    """The device sends ssdp:update and moves to the next BOOTID."""
    return act(id, "update")


def reboot(id: DeviceID, *, down_for: float | None = None, new_port: bool | None = None) -> Call[Device]:
    """Byebye, down for ``down_for`` seconds (default 5), back with the next BOOTID; with ``new_port``,
    its HTTP side (and LOCATION) on another port."""
    return act(id, "reboot", down_for=down_for, new_port=new_port)


def network() -> Call[NetworkFaults]:
    """``GET /network``: the faults on everything the simulator sends and hears, every field given."""
    return Call(Request("GET", "/network", "/network"), NetworkFaults.from_json)


def set_network(
    *,
    loss: float | Fault | None = None,
    answer_loss: float | Fault | None = None,
    duplicate: float | Fault | None = None,
    latency: float | tuple[float, float] | Latency | None = None,
    reorder: float | Fault | None = None,
    reorder_delay: float | None = None,
) -> Call[NetworkFaults]:
    """``PUT /network``: replaces every fault (none given clears them). Each a probability or a
    ``Fault`` (``Fault(times=2)``: the next two datagrams it applies to); ``latency`` seconds, ``(min,
    max)`` or a ``Latency``; ``reorder_delay`` seconds."""
    if isinstance(latency, tuple):
        latency = Latency(*latency)
    body = {
        name: value.to_json() if isinstance(value, (Fault, Latency)) else value
        for name, value in without_none(
            loss=loss, answerLoss=answer_loss, duplicate=duplicate, latency=latency, reorder=reorder,
            reorderDelay=reorder_delay,
        ).items()
    }
    return Call(Request("PUT", "/network", "/network", body=body), NetworkFaults.from_json)


def reset() -> Call[list[Device]]:
    """``POST /reset``: every device, fault and the journal back as serve started them."""
    return Call(Request("POST", "/reset", "/reset"), _devices)


def journal(
    *,
    kind: str | None = None,
    device: DeviceID | None = None,
    since: int | None = None,
    limit: int | None = None,
    where: Mapping[str, object] | None = None,
    **fields: object,
) -> Call[JournalPage]:
    """``GET /journal``: the entries that meet every condition, oldest first, at most ``limit``.
    Field conditions as keywords (``status=200``); dotted names, or names like a parameter, in ``where``
    (``{"arguments.NewExternalPort": 8080}``, ``{"count": 3}``). ``next`` is the ``since`` of the next
    page."""
    query = _journal_query(kind, device, since, where, fields) + _optional(limit=limit)
    return Call(Request("GET", "/journal", "/journal", query), JournalPage.from_json)


def wait(
    *,
    kind: str | None = None,
    device: DeviceID | None = None,
    since: int | None = None,
    count: int | None = None,
    timeout: float | None = None,
    where: Mapping[str, object] | None = None,
    **fields: object,
) -> Call[list[JournalEntry]]:
    """``GET /journal/wait``: returns as soon as ``count`` entries (default 1) meet the conditions
    (as ``journal``'s; those from before the call count unless ``since`` says otherwise); after
    ``timeout`` seconds (default 10) raises ``JournalWaitTimeout`` with the near misses."""
    query = _journal_query(kind, device, since, where, fields) + _optional(count=count, timeout=timeout)
    return Call(
        Request("GET", "/journal/wait", "/journal/wait", query),
        lambda body: [JournalEntry.from_json(e) for e in body["entries"]],
        extra_timeout=(10.0 if timeout is None else timeout) + _WAIT_MARGIN,
    )


def clear_journal() -> Call[None]:
    """``DELETE /journal``: forgets every entry (sequence numbers go on)."""
    return Call(Request("DELETE", "/journal", "/journal"), lambda _: None, success=(204,))


def openapi() -> Call[dict[str, Any]]:
    """``GET /openapi.json``: the control API's OpenAPI 3.1 document."""
    return Call(Request("GET", "/openapi.json", "/openapi.json"), dict)


# MARK: - Helpers


def _devices(body: Mapping[str, Any]) -> list[Device]:
    return [Device.from_json(d) for d in body["devices"]]


def _text(value: object) -> str:
    """A value as the journal compares it: as text, ``true``/``false`` for booleans."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _optional(**values: object) -> tuple[tuple[str, str], ...]:
    return tuple((name, _text(value)) for name, value in values.items() if value is not None)


def _journal_query(
    kind: str | None, device: DeviceID | None, since: int | None, where: Mapping[str, object] | None,
    fields: Mapping[str, object],
) -> tuple[tuple[str, str], ...]:
    conditions = {**(where or {}), **fields}
    return _optional(kind=kind, device=device, since=since) + tuple(
        ("field:" + name if name in _JOURNAL_PARAMETERS else name, _text(value))
        for name, value in conditions.items()
    )
