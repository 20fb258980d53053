# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The pytest plugin as a user meets it: installed, its fixtures and marker there, a failed test's
report carrying the journal and serve's log."""

from __future__ import annotations

import json

import pytest

FAILING_TEST = """
import urllib.request
import pytest
from ssdp_sim.assertions import expect_journal

@pytest.mark.ssdp_sim("roku", 2)
def test_home_then_back(ssdp_lan):
    roku = ssdp_lan.devices[1]
    urllib.request.urlopen(urllib.request.Request(roku.base_url + "/keypress/Home", method="POST"), timeout=5)
    expect_journal(ssdp_lan, kind="http", path="/keypress/Back", timeout=0.5)
"""


def test_a_failed_test_shows_the_expectation_the_near_miss_and_the_journal(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(FAILING_TEST)
    result = pytester.runpytest_subprocess("--strict-markers", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*journal: expected 1 entry with kind=http path=/keypress/Back within 0.5 s; got 0",
        "*near miss: #1 http device 2 * path=/keypress/Home *: path '/keypress/Home' (expected '/keypress/Back')",
        "*ssdp-sim journal: LAN 1 (2 devices)*",
        '*"path": "/keypress/Home"*"kind": "http"*',
        "*ssdp-sim serve log: LAN 1*",
        "*Simulator started*",
    ])


def test_a_failed_tests_journal_and_log_are_kept_as_files(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(FAILING_TEST)
    kept = pytester.path / "kept"
    pytester.runpytest_subprocess(f"--ssdp-sim-journal={kept}").assert_outcomes(failed=1)
    [journal] = kept.glob("*.journal.jsonl")
    assert journal.name == "test_a_failed_tests_journal_and_log_are_kept_as_files.py_test_home_then_back-lan1.journal.jsonl"
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [e["fields"]["path"] for e in entries if e["kind"] == "http"] == ["/keypress/Home"]
    assert "Simulator started" in journal.with_name(journal.name.replace("journal.jsonl", "serve.log")).read_text()


def test_without_a_binary_the_run_stops_once_saying_where_one_comes_from(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(FAILING_TEST + "\ndef test_uses_no_devices():\n    pass\n")
    monkeypatch.delenv("SSDP_SIM_BINARY", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: ssdp-sim's fixtures cannot start the devices of 1 test: no ssdp-sim binary: give*"])
    assert result.stdout.str().count("no ssdp-sim binary") + result.stderr.str().count("no ssdp-sim binary") == 1


def test_without_a_binary_xdist_workers_fail_each_test_saying_why(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(FAILING_TEST)
    monkeypatch.delenv("SSDP_SIM_BINARY", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(errors=1)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines(["*SimulatorStartError: no ssdp-sim binary*"])


def test_a_passing_test_leaves_no_device_running(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest
        from ssdp_sim import ControlClient
        from ssdp_sim.assertions import expect_no_journal
        URLS = []

        def test_factory(ssdp_lan_factory):
            first, second = ssdp_lan_factory("igd"), ssdp_lan_factory("dlna-server", 2, http_port="any")
            assert [len(first.devices), len(second.devices)] == [1, 2]
            assert second.control.device(2).profile == "dlna-server"
            expect_no_journal(first, kind="soap")
            URLS.extend([first.control_url, second.control_url])

        def test_after():
            for url in URLS:
                with pytest.raises(OSError):
                    ControlClient(url, timeout=2).health()
    """)
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=2)
    assert "ssdp-sim journal" not in result.stdout.str()


def test_the_html_report_shows_each_tests_devices_failures_first(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(FAILING_TEST + """

def test_passes(ssdp_lan_factory):
    ssdp_lan_factory("igd").control.update(1)

def test_uses_no_devices():
    pass
""")
    report = pytester.path / "reports" / "devices.html"
    pytester.runpytest_subprocess(f"--ssdp-sim-html={report}").assert_outcomes(passed=2, failed=1)
    page = report.read_text()
    assert "content=\"default-src 'none'; style-src 'unsafe-inline'\"" in page
    assert "<h1>What the devices saw: 2 tests, 1 failed</h1>" in page
    failed, passed = page.index("<details open><summary><span class=failed>failed</span>"), page.index("passed</span>")
    assert failed < passed and "test_uses_no_devices" not in page
    assert "path=/keypress/Home" in page and "action=update" in page
    assert "journal: expected 1 entry with kind=http path=/keypress/Back" in page  # the failure's message
    assert not list(report.parent.glob(".devices.html.*"))  # no temporary file left


def test_the_html_report_gathers_every_pytest_xdist_worker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(FAILING_TEST + """

@pytest.mark.parametrize("profile", ["igd", "dlna-server", "renderer"])
def test_profiles(ssdp_lan_factory, profile):
    ssdp_lan_factory(profile).control.update(1)
""")
    report = pytester.path / "devices.html"
    report.with_name(".devices.html.gw9.json").write_text("[]")  # left by an earlier run: forgotten
    pytester.runpytest_subprocess("-n", "2", f"--ssdp-sim-html={report}").assert_outcomes(passed=3, failed=1)
    page = report.read_text()
    assert "<h1>What the devices saw: 4 tests, 1 failed</h1>" in page
    assert all(f"test_profiles[{profile}]" in page for profile in ("igd", "dlna-server", "renderer"))
    assert [p.name for p in pytester.path.iterdir() if p.name.startswith(".devices")] == []
