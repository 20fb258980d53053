# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""SsdpSimContainer on the image docker/Dockerfile builds (scripts/container-test runs these with
--ssdp-sim-image, through podman's Docker-compatible API)."""

from __future__ import annotations

import time
import urllib.request

import pytest

from ssdp_sim import ControlClient, ControlError, SimulatorStartError
from ssdp_sim.testcontainers import SsdpSimContainer

from .test_client import search

pytestmark = pytest.mark.container


@pytest.fixture
def image(request: pytest.FixtureRequest) -> str:
    return request.config.getoption("--ssdp-sim-image")


def test_the_container_serves_its_devices_behind_a_token_of_its_own(image: str) -> None:
    with SsdpSimContainer(image, "roku", 2) as rokus:
        assert rokus.control.health().devices == 2
        with pytest.raises(ControlError) as refused:
            ControlClient(rokus.control_url, token="not-the-token").devices()
        assert refused.value.status == 401
        # Both at the container's address, on consecutive ports from the real Roku's.
        assert {d.address for d in rokus.devices} == {rokus.address}
        assert [d.http_port for d in rokus.devices] == [8060, 8061]
        assert search(rokus, "roku:ecp") == sorted(d.location for d in rokus.devices)
        rokus.control.vanish(2)
        assert search(rokus, "roku:ecp") == [rokus.devices[0].location]
        with urllib.request.urlopen(rokus.devices[0].base_url + "/query/device-info", timeout=5) as answer:
            assert b"<friendly-device-name>Roku Ultra 1</friendly-device-name>" in answer.read()
    assert "Ready: 2 devices serving" in rokus.log and "Stopped. " in rokus.log  # SIGTERM, not a kill


def test_options_reach_the_container_as_its_variables(image: str) -> None:
    # json: serve's ready line is a JSON object then, which the start waits for as well
    with SsdpSimContainer(image, "igd", friendly_name="Attic Router", max_age=120, json=True) as router:
        [device] = router.control.devices()
        assert (device.friendly_name, device.max_age, device.profile) == ("Attic Router", 120, "igd")
    assert '"event":"ready"' in router.log


def test_a_serve_that_cannot_start_fails_the_start_at_once_with_its_log(image: str) -> None:
    began = time.monotonic()
    with pytest.raises(SimulatorStartError) as failed:
        SsdpSimContainer(image, "toaster").start()
    assert "exit code: 64" in str(failed.value) and "--profile 'toaster': no such profile" in str(failed.value)
    assert time.monotonic() - began < 30  # not the wait strategy's timeout
