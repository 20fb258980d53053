# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What the control API answers, as typed values (docs/control.md names every field).

Each type keeps the JSON it came from in ``raw``, so a field this version does not know yet is still
there to read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Mapping[str, Any]


@dataclass(frozen=True)
class Health:
    """``GET /health``: ``serving`` once every device answers, ``starting`` before."""

    status: str
    devices: int | None
    raw: JSON = field(repr=False, compare=False)

    @property
    def serving(self) -> bool:
        return self.status == "serving"

    @classmethod
    def from_json(cls, value: JSON) -> Health:
        return cls(status=value["status"], devices=value.get("devices"), raw=value)


@dataclass(frozen=True)
class Advertisement:
    """One NT the device announces, with its USN."""

    nt: str
    usn: str


@dataclass(frozen=True)
class Device:
    """A device as ``GET /devices/{id}`` answers it.

    ``behaviour`` and ``http_faults`` are what the device runs with now, in the device file's words
    (docs/serve.md); ``state`` is ``alive``, ``gone``, ``rebooting`` or ``removed``.
    """

    number: int
    udn: str
    friendly_name: str
    device_type: str
    profile: str | None
    address: str
    location: str
    state: str
    boot_id: int
    config_id: int
    max_age: int
    behaviour: JSON
    http_faults: JSON
    advertisements: tuple[Advertisement, ...]
    raw: JSON = field(repr=False, compare=False)

    @property
    def alive(self) -> bool:
        return self.state == "alive"

    @classmethod
    def from_json(cls, value: JSON) -> Device:
        return cls(
            number=value["number"],
            udn=value["udn"],
            friendly_name=value["friendlyName"],
            device_type=value["deviceType"],
            profile=value.get("profile"),
            address=value["address"],
            location=value["location"],
            state=value["state"],
            boot_id=value["bootId"],
            config_id=value["configId"],
            max_age=value["maxAge"],
            behaviour=value["behaviour"],
            http_faults=value["httpFaults"],
            advertisements=tuple(Advertisement(a["nt"], a["usn"]) for a in value["advertisements"]),
            raw=value,
        )


@dataclass(frozen=True)
class Fault:
    """A network fault: hits a datagram with ``probability``, after letting ``after`` pass, at most ``times``."""

    probability: float = 1.0
    after: int | None = None
    times: int | None = None

    def to_json(self) -> dict[str, Any]:
        return without_none(probability=self.probability, after=self.after, times=self.times)

    @classmethod
    def from_json(cls, value: JSON) -> Fault:
        return cls(value.get("probability", 1.0), value.get("after"), value.get("times"))


@dataclass(frozen=True)
class Latency:
    """Delay every datagram by a time drawn from ``minimum``…``maximum`` seconds (with a fault's window)."""

    minimum: float
    maximum: float
    after: int | None = None
    times: int | None = None

    def to_json(self) -> dict[str, Any]:
        return without_none(min=self.minimum, max=self.maximum, after=self.after, times=self.times)

    @classmethod
    def from_json(cls, value: JSON) -> Latency:
        return cls(value["min"], value["max"], value.get("after"), value.get("times"))


@dataclass(frozen=True)
class NetworkFaults:
    """``GET /network``: the faults on everything the simulator sends and hears, every field given."""

    loss: Fault
    answer_loss: Fault
    duplicate: Fault
    reorder: Fault
    reorder_delay: float
    latency: Latency
    raw: JSON = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, value: JSON) -> NetworkFaults:
        return cls(
            loss=Fault.from_json(value["loss"]),
            answer_loss=Fault.from_json(value["answerLoss"]),
            duplicate=Fault.from_json(value["duplicate"]),
            reorder=Fault.from_json(value["reorder"]),
            reorder_delay=value["reorderDelay"],
            latency=Latency.from_json(value["latency"]),
            raw=value,
        )


@dataclass(frozen=True)
class JournalEntry:
    """One thing the simulator saw or did: ``kind`` (search, answer, http, soap, …) and the event's ``fields``.

    ``entry["status"]`` reads a field; ``device`` is the number of the device it is about, when known.
    """

    seq: int
    time: float
    kind: str
    device: int | None
    fields: JSON
    raw: JSON = field(repr=False, compare=False)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def describe(self) -> str:
        """One line: ``#12 http device 1 method=POST path=/keypress/Home status=200``."""
        about = f" device {self.device}" if self.device is not None else ""
        return f"#{self.seq} {self.kind}{about} {describe_fields(self.fields)}".rstrip()

    @classmethod
    def from_json(cls, value: JSON) -> JournalEntry:
        return cls(value["seq"], value["time"], value["kind"], value.get("device"), value["fields"], value)


@dataclass(frozen=True)
class JournalPage:
    """``GET /journal``: the entries, the ``since`` that asks for what comes next, and how many were let go."""

    entries: tuple[JournalEntry, ...]
    next: int
    dropped: int

    @classmethod
    def from_json(cls, value: JSON) -> JournalPage:
        return cls(tuple(JournalEntry.from_json(e) for e in value["entries"]), value["next"], value["dropped"])


@dataclass(frozen=True)
class Mismatch:
    """A condition a near miss did not meet: ``actual`` is None when the entry has no such field."""

    field: str
    expected: str
    actual: str | None


@dataclass(frozen=True)
class NearMiss:
    """An entry a journal wait did not count, and what it had instead."""

    entry: JournalEntry
    mismatches: tuple[Mismatch, ...]

    def describe(self) -> str:
        differences = ", ".join(
            f"{m.field} {'absent' if m.actual is None else repr(m.actual)} (expected {m.expected!r})"
            for m in self.mismatches
        )
        return f"{self.entry.describe()}: {differences}" if differences else self.entry.describe()

    @classmethod
    def from_json(cls, value: JSON) -> NearMiss:
        mismatches = tuple(Mismatch(m["field"], m["expected"], m["actual"]) for m in value["mismatches"])
        return cls(JournalEntry.from_json(value["entry"]), mismatches)


def without_none(**values: Any) -> dict[str, Any]:
    """The values given, those that are None left out (a JSON body's optional fields)."""
    return {name: value for name, value in values.items() if value is not None}


def describe_fields(fields: JSON) -> str:
    """An event's fields on one line, ``method=POST path=/keypress/Home``, its ``event`` name left out; a
    value that is an object or a list is written as JSON (``answerLoss={"probability": 1}``)."""
    return " ".join(f"{name}={_text(value)}" for name, value in fields.items() if name != "event")


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
