# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The clients against a running serve: what each call does to the devices, and how refusals read."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time

import pytest

from ssdp_sim import (
    AsyncControlClient,
    ControlClient,
    ControlError,
    JournalWaitTimeout,
    SimulatedLAN,
    SimulatorStartError,
)
from ssdp_sim.models import describe_fields


def search(lan: SimulatedLAN, target: str = "ssdp:all") -> list[str]:
    """A unicast M-SEARCH to the LAN's search port: the LOCATIONs that answer within a second."""
    request = (f"M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\n"
               f"MX: 1\r\nST: {target}\r\n\r\n").encode()
    locations = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.settimeout(1.0)
        udp.sendto(request, lan.search_address)
        try:
            while True:
                answer = udp.recv(65536).decode("latin-1")
                locations += [line.split(":", 1)[1].strip() for line in answer.split("\r\n")
                              if line.lower().startswith("location:")]
        except TimeoutError:
            return sorted(set(locations))


@pytest.mark.ssdp_sim("roku", 2)
def test_a_lan_is_found_where_it_says_and_the_control_api_lists_it(ssdp_lan: SimulatedLAN) -> None:
    assert search(ssdp_lan, "roku:ecp") == sorted(d.location for d in ssdp_lan.devices)
    assert ssdp_lan.devices[0].address != ssdp_lan.devices[1].address
    assert ssdp_lan.control.health().devices == 2
    listed = ssdp_lan.control.devices()
    assert [(d.number, d.udn, d.location) for d in listed] == [(d.number, d.udn, d.location) for d in ssdp_lan.devices]
    assert listed[0].profile == "roku" and listed[0].alive
    assert any(a.nt == "roku:ecp" for a in listed[0].advertisements)


@pytest.mark.ssdp_sim("roku", 2)
def test_a_vanished_device_answers_no_search_until_it_is_back(ssdp_lan: SimulatedLAN) -> None:
    control, first, second = ssdp_lan.control, ssdp_lan.devices[0], ssdp_lan.devices[1]
    assert control.vanish(second.udn).state == "gone"
    assert search(ssdp_lan, "roku:ecp") == [first.location]
    back = control.alive(2)
    assert back.state == "alive" and back.boot_id == second.boot_id + 1
    assert search(ssdp_lan, "roku:ecp") == sorted([first.location, second.location])
    entries = control.wait(kind="device", device=2, action="alive")
    assert [e["state"] for e in entries] == ["alive"]


@pytest.mark.ssdp_sim("igd")
def test_a_refusal_names_its_status_and_field(ssdp_lan: SimulatedLAN) -> None:
    with pytest.raises(ControlError) as refused:
        ssdp_lan.control.change_device(1, behaviour={"searchLoss": 2})
    assert (refused.value.status, refused.value.path) == (400, "$.behaviour.searchLoss")
    assert "probability" in refused.value.message and "PATCH /devices/1" in str(refused.value)
    with pytest.raises(ControlError) as conflict:
        ssdp_lan.control.alive(1)
    assert conflict.value.status == 409
    with pytest.raises(ValueError):
        ssdp_lan.control.act(1, "dance")


@pytest.mark.ssdp_sim("igd")
def test_a_change_reaches_the_device_and_the_journal(ssdp_lan: SimulatedLAN) -> None:
    control = ssdp_lan.control
    before = control.device(1)
    changed = control.change_device(1, friendly_name="Attic Router", state={"ExternalIPAddress": "198.51.100.7"})
    assert (changed.friendly_name, changed.config_id) == ("Attic Router", before.config_id + 1)
    assert control.journal(kind="device", action="change").entries[0].device == 1
    faults = control.set_network(loss=0.25, latency=(0.01, 0.02))
    assert (faults.loss.probability, faults.latency.maximum) == (0.25, 0.02)
    assert control.network() == faults
    [entry] = control.journal(kind="network").entries
    assert '"latency": {"max": 0.02, "min": 0.01}' in describe_fields(entry.fields)  # as JSON, not Python's repr
    assert [d.friendly_name for d in control.reset()] == [before.friendly_name]
    assert control.network().loss.probability == 0


@pytest.mark.ssdp_sim("roku")
def test_a_wait_that_times_out_carries_the_near_misses(ssdp_lan: SimulatedLAN) -> None:
    ssdp_lan.control.update(1)
    with pytest.raises(JournalWaitTimeout) as timed_out:
        ssdp_lan.control.wait(kind="device", action="reboot", timeout=0.3)
    assert isinstance(timed_out.value, TimeoutError)
    [miss] = timed_out.value.near_misses
    assert miss.entry.kind == "device" and miss.entry["action"] == "update"
    assert [(m.field, m.expected, m.actual) for m in miss.mismatches] == [("action", "reboot", "update")]
    with pytest.raises(ControlError) as typo:
        ssdp_lan.control.journal(stauts=200)
    assert typo.value.status == 400 and "did you mean status" in typo.value.message


@pytest.mark.ssdp_sim("roku", 2)
def test_the_asyncio_client_waits_while_the_device_acts(ssdp_lan: SimulatedLAN) -> None:
    async def scenario() -> list[str]:
        control = ssdp_lan.async_control
        waiting = asyncio.create_task(control.wait(kind="device", device=2, action="vanish", timeout=5))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # woken by the vanish, not before
        await control.vanish(2)
        entries, devices = await asyncio.gather(waiting, control.devices())
        return [e["state"] for e in entries] + [d.state for d in devices]

    assert asyncio.run(scenario()) == ["gone", "alive", "gone"]


def test_a_token_is_sent_and_its_absence_refused(ssdp_lan_factory) -> None:
    lan = ssdp_lan_factory("generic", control_token="s3cret-token")
    assert lan.control.devices()[0].number == 1
    assert ControlClient(lan.control_url, token="s3cret-token").health().serving
    with pytest.raises(ControlError) as refused:
        ControlClient(lan.control_url, token="wrong").devices()
    assert refused.value.status == 401
    assert asyncio.run(AsyncControlClient(lan.control_url, token="s3cret-token").health()).serving


def test_a_journal_is_read_page_by_page(ssdp_lan_factory) -> None:
    lan = ssdp_lan_factory("generic", 3)
    for number in (1, 2, 3):
        lan.control.update(number)
    first = lan.control.journal(kind="device", limit=2)
    rest = lan.control.journal(kind="device", since=first.next)
    assert [e.device for e in first.entries + rest.entries] == [1, 2, 3]
    lan.control.clear_journal()
    assert lan.control.journal().entries == ()


def test_serve_that_cannot_start_says_why() -> None:
    with pytest.raises(SimulatorStartError, match="toaster.*no such profile|no such profile.*toaster"):
        SimulatedLAN("toaster").start()


def test_stopping_keeps_serves_last_line_and_starts_again() -> None:
    lan = SimulatedLAN("roku")
    for _ in range(2):  # a LAN starts again after a stop
        with lan:
            search(lan)
        assert lan.stopped is not None and lan.stopped["counters"]["answersSent"] >= 1
        assert '"event":"stopped"' in lan.events[-1] and "Simulator started" in lan.log


def test_the_environments_serve_variables_do_not_reach_the_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSDP_SIM_PROFILE", "hue")
    monkeypatch.setenv("SSDP_SIM_COUNT", "3")
    with SimulatedLAN() as lan:
        assert [d.device_type for d in lan.devices] == ["urn:schemas-upnp-org:device:MediaRenderer:1"]


def test_a_token_file_is_read_for_the_client(ssdp_lan_factory, tmp_path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("from-a-file\n")
    lan = ssdp_lan_factory("generic", control_token_file=token_file)
    assert lan.control.devices()[0].number == 1
    with pytest.raises(ControlError) as refused:
        ControlClient(lan.control_url, token="other").devices()
    assert refused.value.status == 401


def test_a_lan_stops_when_the_process_that_started_it_dies(tmp_path) -> None:
    """Killed without a word (SIGKILL, a CI job's timeout), the test process takes serve with it."""
    script = tmp_path / "dies.py"
    script.write_text(
        "import os, signal, sys\n"
        "from ssdp_sim import SimulatedLAN\n"
        "lan = SimulatedLAN('roku').start()\n"
        "print(lan._serve.process.pid, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    died = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environment, timeout=60)
    serve = int(died.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _running(serve) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(serve), f"serve {serve} outlived the process that started it"


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


def test_the_package_is_versioned_with_the_tool() -> None:
    from importlib.metadata import version

    from ssdp_sim.lan import find_binary

    tool = subprocess.run([find_binary(), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert version("ssdp-sim") == tool
