# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The HTML report of a pytest run (``--ssdp-sim-html FILE``): for each test that used fake devices, what
they saw, failed tests first and open. One file, nothing fetched (its content security policy forbids it),
written whole or not at all."""

from __future__ import annotations

import html
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .models import describe_fields

# The failed outcomes, shown first and open.
FAILED = ("failed", "error")


@dataclass
class LANRecord:
    title: str
    entries: Sequence[Mapping[str, Any]]
    log: str


@dataclass
class TestRecord:
    nodeid: str
    outcome: str
    message: str = ""
    lans: list[LANRecord] = field(default_factory=list)


STYLE = """
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } summary { cursor: pointer; padding: .3em 0; font-weight: 600; }
.failed, .error { color: #b00020; } .passed { color: #1b7a2f; } .skipped { color: #777; }
table { border-collapse: collapse; margin: .4em 0 1em; } td, th { border: 1px solid #ddd; padding: 2px 6px;
  vertical-align: top; text-align: left; font: 12px ui-monospace, monospace; }
th { background: #f3f3f3; } pre { font-size: 12px; background: #f7f7f7; padding: .5em; overflow-x: auto; }
"""


def render(records: Sequence[TestRecord], command: str) -> str:
    ordered = sorted(records, key=lambda r: r.outcome not in FAILED)
    failed = sum(r.outcome in FAILED for r in records)
    parts = [
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>ssdp-sim: what the devices saw ({failed} failed)</title><style>{STYLE}</style></head><body>",
        f"<h1>What the devices saw: {len(records)} tests, {failed} failed</h1><p><code>{_e(command)}</code></p>",
    ]
    parts += [_test(record) for record in ordered]
    if not records:
        parts.append("<p>No test used fake devices.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write(path: Path, records: Sequence[TestRecord], command: str) -> None:
    """Writes the report to a temporary file beside ``path`` and renames it: whole or absent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(render(records, command))
        os.chmod(temporary, 0o644)  # mkstemp's file is the owner's alone; a report is for everyone
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_part(path: Path, worker: str, records: Sequence[TestRecord]) -> None:
    """A pytest-xdist worker's records, for the controller to put in the report."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _part(path, worker).write_text(json.dumps([asdict(record) for record in records]), encoding="utf-8")


def read_parts(path: Path) -> list[TestRecord]:
    """Every worker's records, the files removed."""
    records = []
    for part in sorted(path.parent.glob(_part(path, "*").name)):
        for record in json.loads(part.read_text(encoding="utf-8")):
            lans = [LANRecord(**lan) for lan in record.pop("lans")]
            records.append(TestRecord(**record, lans=lans))
        part.unlink()
    return records


def forget_parts(path: Path) -> None:
    for part in path.parent.glob(_part(path, "*").name):
        part.unlink()


def _part(path: Path, worker: str) -> Path:
    return path.with_name(f".{path.name}.{worker}.json")


def _test(record: TestRecord) -> str:
    is_open = " open" if record.outcome in FAILED else ""
    message = f"<pre>{_e(record.message)}</pre>" if record.message else ""
    lans = "".join(_lan(lan) for lan in record.lans)
    return (f"<details{is_open}><summary><span class={record.outcome}>{record.outcome}</span> "
            f"{_e(record.nodeid)}</summary>{message}{lans}</details>")


def _lan(lan: LANRecord) -> str:
    rows = "".join(
        "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in _cells(entry)) + "</tr>" for entry in lan.entries
    )
    table = (f"<table><tr><th>seq</th><th>time (s)</th><th>kind</th><th>device</th><th>fields</th></tr>{rows}"
             "</table>") if lan.entries else "<p>No journal entries.</p>"
    return (f"<h3>{_e(lan.title)}: {len(lan.entries)} journal entries</h3>{table}"
            f"<details><summary>serve log</summary><pre>{_e(lan.log)}</pre></details>")


def _cells(entry: Mapping[str, Any]) -> list[object]:
    return [entry.get("seq", ""), entry.get("time", ""), entry.get("kind", entry.get("error", "")),
            entry.get("device", ""), describe_fields(entry.get("fields", {}))]


def _e(value: object) -> str:
    return html.escape(str(value))
