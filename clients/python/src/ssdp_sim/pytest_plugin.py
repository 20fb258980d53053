# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The pytest plugin, loaded by installing the package (entry point ``pytest11``).

Fixtures: ``ssdp_lan`` (a LAN per test, configured by the ``ssdp_sim`` marker) and ``ssdp_lan_factory``
(start as many as a test wants). A failed test's report carries each LAN's journal and serve's log;
``--ssdp-sim-journal DIR`` also keeps them as files. docs/python.md shows each.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from . import report as html_report
from .errors import SimulatorStartError
from .lan import FakeLAN, SimulatedLAN, find_binary

_LANS = pytest.StashKey[list[FakeLAN]]()
_RECORDS = pytest.StashKey[list[html_report.TestRecord]]()

# How many of the newest journal entries a failed test's report shows.
JOURNAL_SHOWN = 100


# The plugin's options: name, what it takes, what it does.
OPTIONS = (
    ("--ssdp-sim-binary", "PATH",
     "the ssdp-sim binary the fixtures run (default: SSDP_SIM_BINARY, else ssdp-sim on PATH)"),
    ("--ssdp-sim-image", "IMAGE",
     "run the fixtures' devices in containers of this image (testcontainers) instead of the binary"),
    ("--ssdp-sim-html", "FILE",
     "write an HTML report of what the devices saw in each test that used them, failed tests first"),
    ("--ssdp-sim-journal", "DIR", "write each failed test's journals (JSON lines) and serve logs into DIR"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ssdp-sim", "ssdp-sim's fake SSDP/UPnP devices")
    for name, metavar, help in OPTIONS:
        group.addoption(name, metavar=metavar, help=help)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "ssdp_sim(profile=None, count=None, **options): the LAN ssdp_lan starts (serve's options, "
        "with underscores: delay='uniform', response_loss=0.3)",
    )
    config.addinivalue_line("markers", "container: needs --ssdp-sim-image (SsdpSimContainer)")


def runs_no_test(config: pytest.Config) -> bool:
    """pytest only lists or explains (--help, --collect-only, --fixtures, --setup-plan): no device starts."""
    listing = ("help", "collectonly", "showfixtures", "show_fixtures_per_test", "setupplan")
    return any(getattr(config.option, name, False) for name in listing)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Without a binary no fixture can start: said once, before any test runs, rather than in each test.
    Not where no test runs, nor in a pytest-xdist worker, whose usage error its controller cannot show:
    there each test that starts devices fails saying it."""
    config = session.config
    if config.getoption("--ssdp-sim-image") or runs_no_test(config):
        return
    if hasattr(config, "workerinput"):
        return
    fixtures = {"ssdp_lan", "ssdp_lan_factory"}
    users = [item for item in session.items
             if fixtures & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("skip")]
    given = config.getoption("--ssdp-sim-binary")
    try:
        find_binary(given)
    except SimulatorStartError:
        if not users:
            return
        tests = "1 test" if len(users) == 1 else f"{len(users)} tests"
        variable = os.environ.get("SSDP_SIM_BINARY")
        reason = (f"--ssdp-sim-binary {given}: not an executable file" if given else
                  f"SSDP_SIM_BINARY={variable}: not an executable file" if variable else
                  "no ssdp-sim binary: give --ssdp-sim-binary PATH, set SSDP_SIM_BINARY, or put ssdp-sim on PATH "
                  "(in a clone, swift build makes .build/debug/ssdp-sim); or run the devices in containers of "
                  "an image with --ssdp-sim-image IMAGE")
        raise pytest.UsageError(f"ssdp-sim's fixtures cannot start the devices of {tests}: {reason}") from None


@pytest.fixture
def ssdp_lan_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., FakeLAN]]:
    """Starts LANs for this test: ``ssdp_lan_factory("roku", 2, delay="uniform")`` as ``SimulatedLAN``
    takes them (or, with ``--ssdp-sim-image``, ``SsdpSimContainer``); each is stopped (byebyes) after
    the test."""
    binary = request.config.getoption("--ssdp-sim-binary")
    image = request.config.getoption("--ssdp-sim-image")
    lans = request.node.stash.setdefault(_LANS, [])

    def start(profile: str | None = None, count: int | None = None, **options: Any) -> FakeLAN:
        if image:
            from .testcontainers import SsdpSimContainer

            container = SsdpSimContainer(image, profile, count, **options)
            lans.append(container)
            return container.start()
        lan = SimulatedLAN(profile, count, **{"binary": binary, **options})
        lans.append(lan)
        return lan.start()

    yield start
    failures = []
    for lan in reversed(lans):  # every one stopped, even when one fails to
        try:
            lan.stop()
        except Exception as error:
            failures.append(error)
    if failures:
        raise failures[0]


@pytest.fixture
def ssdp_lan(request: pytest.FixtureRequest, ssdp_lan_factory: Callable[..., FakeLAN]) -> FakeLAN:
    """A running LAN for this test: ``@pytest.mark.ssdp_sim("roku", 2)`` says which (default: one
    ``generic`` device)."""
    marker = request.node.get_closest_marker("ssdp_sim")
    return ssdp_lan_factory(*marker.args, **marker.kwargs) if marker else ssdp_lan_factory()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report: pytest.TestReport = yield
    lans = item.stash.get(_LANS, [])
    failed = report.failed and report.when in ("setup", "call")
    if lans and (failed or report.when == "call"):
        _record(item, report, lans, failed)
    return report


def pytest_sessionstart(session: pytest.Session) -> None:
    path = session.config.getoption("--ssdp-sim-html")
    if path and not hasattr(session.config, "workerinput"):
        html_report.forget_parts(Path(path))  # what a run before this one left


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Writes the HTML report. Under pytest-xdist each worker hands its records over in a file beside the
    report, and the controller, which finishes last, writes the page from them all."""
    path = session.config.getoption("--ssdp-sim-html")
    if not path:
        return
    records = session.config.stash.get(_RECORDS, [])
    worker = getattr(session.config, "workerinput", None)
    if worker is not None:
        html_report.write_part(Path(path), worker["workerid"], records)
        return
    command = "pytest " + " ".join(session.config.invocation_params.args)
    html_report.write(Path(path), records + html_report.read_parts(Path(path)), command)


def _record(item: pytest.Item, report: pytest.TestReport, lans: list[FakeLAN], failed: bool) -> None:
    """Each LAN's journal and serve log: as sections of a failed test's report, as files (with
    ``--ssdp-sim-journal``) and in the HTML report (with ``--ssdp-sim-html``)."""
    keep = item.config.getoption("--ssdp-sim-journal")
    html = item.config.getoption("--ssdp-sim-html")
    if not failed and not html:
        return
    crash = getattr(report.longrepr, "reprcrash", None)
    outcome = "error" if report.when == "setup" else report.outcome
    record = html_report.TestRecord(item.nodeid, outcome, crash.message if crash is not None else "")
    for number, lan in enumerate(lans, start=1):
        entries, log = _journal(lan), _log(lan)
        title = f"LAN {number} ({len(lan.devices)} device{'' if len(lan.devices) == 1 else 's'})"
        record.lans.append(html_report.LANRecord(title, entries, log))
        if not failed:
            continue
        shown = entries[-JOURNAL_SHOWN:]
        heading = f"the newest {len(shown)} of {len(entries)} entries\n" if len(shown) < len(entries) else ""
        report.sections.append((f"ssdp-sim journal: {title}", heading + "\n".join(map(_line, shown))))
        report.sections.append((f"ssdp-sim serve log: {title}", log))
        if keep:
            _keep(Path(keep), item.nodeid, number, entries, log)
    if html:
        item.config.stash.setdefault(_RECORDS, []).append(record)


def _journal(lan: FakeLAN) -> list[Mapping[str, Any]]:
    """Every entry the journal holds, oldest first (it answers at most 10,000 at a time)."""
    if not lan.devices:
        return []  # it never started
    entries: list[Mapping[str, Any]] = []
    since = 0
    try:
        while True:
            page = lan.control.journal(since=since, limit=10000)
            entries += [entry.raw for entry in page.entries]
            if not page.entries:
                break
            since = page.next
    except Exception as error:  # a failed test's report must not fail too
        entries.append({"error": f"the journal could not be read: {error!r}"})
    return entries


def _log(lan: FakeLAN) -> str:
    try:
        return lan.log
    except Exception as error:
        return f"the log could not be read: {error!r}"


def _line(entry: Mapping[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True)


def _keep(directory: Path, nodeid: str, number: int, entries: list[Mapping[str, Any]], log: str) -> None:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_") + f"-lan{number}"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{stem}.journal.jsonl").write_text("".join(_line(e) + "\n" for e in entries))
    (directory / f"{stem}.serve.log").write_text(log)
