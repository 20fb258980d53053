# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The errors the client raises: the control API's own words, and a journal wait that timed out."""

from __future__ import annotations

from collections.abc import Sequence

from .models import JournalEntry, NearMiss


class ControlError(Exception):
    """The control API refused a request: ``status`` (400, 404, 409, …), its ``message`` and, for a bad
    body field, its JSON ``path`` (``$.behaviour.searchLoss``)."""

    def __init__(self, status: int, message: str, path: str | None = None, request: str = "") -> None:
        self.status = status
        self.message = message
        self.path = path
        self.request = request
        where = f" at {path}" if path else ""
        super().__init__(f"{request}: {status} {message}{where}" if request else f"{status} {message}{where}")


class JournalWaitTimeout(TimeoutError):
    """``/journal/wait`` timed out: the entries that matched so far and the near misses the API reported:
    the newest entries of the kind asked for that missed another condition (without a kind, those that met
    at least one condition; when there are none, the newest entries), each with what it had instead."""

    def __init__(self, message: str, entries: Sequence[JournalEntry], near_misses: Sequence[NearMiss]) -> None:
        self.message = message
        self.entries = tuple(entries)
        self.near_misses = tuple(near_misses)
        lines = [message] + [f"  near miss: {miss.describe()}" for miss in self.near_misses]
        super().__init__("\n".join(lines))


class SimulatorStartError(RuntimeError):
    """``ssdp-sim serve`` did not start: its exit status and what it wrote on standard error."""
