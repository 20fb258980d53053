# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Assertions on the journal whose failures read like the harness's checks: what was expected, what
came instead, and the entries behind it."""

from __future__ import annotations

from typing import Any

from .client import ControlClient
from .errors import JournalWaitTimeout
from .lan import FakeLAN
from .models import JournalEntry

# How many entries a failure message lists at most.
SHOWN = 5


def expect_journal(
    target: FakeLAN | ControlClient, *, count: int = 1, timeout: float = 5.0, **conditions: Any
) -> list[JournalEntry]:
    """Waits until ``count`` journal entries meet the conditions (``kind="soap", action="AddPortMapping"``,
    as ``ControlClient.wait`` takes them) and returns them; else fails the test with the near misses."""
    try:
        return _client(target).wait(count=count, timeout=timeout, **conditions)
    except JournalWaitTimeout as timeout_error:
        got = len(timeout_error.entries)
        lines = [
            f"journal: expected {_entries(count)} with {_describe(conditions)} within {timeout:g} s; got {got}",
            *(f"  matched: {entry.describe()}" for entry in timeout_error.entries[:SHOWN]),
            *(f"  near miss: {miss.describe()}" for miss in timeout_error.near_misses[:SHOWN]),
        ]
        raise AssertionError("\n".join(lines)) from None


def expect_no_journal(target: FakeLAN | ControlClient, **conditions: Any) -> None:
    """Fails the test if any journal entry meets the conditions (a field no entry has is the API's 400,
    so a typo cannot pass). It looks once, when called: call it after what must not happen has had its
    chance (your client's run is over), not while a request may still be on its way."""
    entries = _client(target).journal(**conditions).entries
    if entries:
        lines = [f"journal: expected no entry with {_describe(conditions)}; got {len(entries)}"]
        lines += [f"  {entry.describe()}" for entry in entries[:SHOWN]]
        raise AssertionError("\n".join(lines))


def _client(target: FakeLAN | ControlClient) -> ControlClient:
    return target.control if isinstance(target, FakeLAN) else target


def _entries(count: int) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


def _describe(conditions: dict[str, Any]) -> str:
    shown = {**conditions, **(conditions.get("where") or {})}  # a copy: the caller's conditions stay as they are
    shown.pop("where", None)
    return " ".join(f"{name}={value}" for name, value in shown.items()) or "no condition"
