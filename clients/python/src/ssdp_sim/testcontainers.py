# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""``SsdpSimContainer``: the fake devices in the image docker/Dockerfile builds, for testcontainers-python
(``pip install 'ssdp-sim[testcontainers]'``).

The container serves the control API on 8787, published to a port of the host and guarded by a token of
its own (anyone who reaches the port could rewrite the devices); the client the container gives carries
it. The devices are at the container's address on its network: a test process reaches their HTTP sides
and searches them by unicast there where the host routes to that network (Linux), not through Docker
Desktop's VM. Multicast from the host does not reach them (docker/README.md, "Container networking").
"""

from __future__ import annotations

import secrets
from typing import Any

from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import CompositeWaitStrategy, ExecWaitStrategy, LogMessageWaitStrategy

from .errors import SimulatorStartError
from .lan import FakeLAN, SimulatedDevice, given_options

CONTROL_PORT = 8787
HEALTH_CHECK = ["ssdp-sim", "ready"]  # docker/Dockerfile's HEALTHCHECK


def environment(options: dict[str, Any]) -> dict[str, str]:
    """serve's options as the image takes them: ``SSDP_SIM_<OPTION>`` (``response_loss=0.3`` is
    ``SSDP_SIM_RESPONSE_LOSS=0.3``; True is 1; a list is comma-separated)."""
    return {
        "SSDP_SIM_" + name.upper(): ",".join("1" if value is True else str(value) for value in values)
        for name, values in given_options(options)
    }


class SsdpSimContainer(DockerContainer, FakeLAN):
    """``with SsdpSimContainer("ssdp-sim", "roku", 2) as lan:`` — started once every device serves.

    Options are serve's, as ``SimulatedLAN`` takes them; by default every answer leaves at once
    (``delay="immediate"``), as the binary fixtures do.
    """

    def __init__(
        self, image: str = "ssdp-sim", profile: str | None = None, count: int | None = None, **options: Any
    ) -> None:
        super().__init__(image)
        self.control_token = options.pop("control_token", None) or secrets.token_urlsafe(24)
        self.options = {"delay": "immediate", "profile": profile, "count": count, **options,
                        "control_token": self.control_token}
        self.devices: list[SimulatedDevice] = []
        self._kept_log = ""
        self.with_envs(**environment(self.options)).with_exposed_ports(CONTROL_PORT)
        # The image runs as a user of its own; a Hue binds port 80.
        self.with_kwargs(sysctls={"net.ipv4.ip_unprivileged_port_start": "0"})
        # Started once the image's health check passes, run here rather than waited for: the engine runs it
        # every 5 s, and podman without systemd never. The ready line first, so that a serve that exits at
        # once (a bad option) fails the start at once, with its log.
        ready_line = LogMessageWaitStrategy(r'Ready: |"event":"ready"')  # as text, or json=True's
        ready = (ready_line, ExecWaitStrategy(HEALTH_CHECK).with_poll_interval(0.1).with_startup_timeout(30))
        self.waiting_for(CompositeWaitStrategy(*ready))

    def start(self) -> SsdpSimContainer:
        try:
            super().start()
        except (RuntimeError, TimeoutError) as error:  # the wait strategy's: serve exited, or never got ready
            log = self.log
            self.stop()
            raise SimulatorStartError(f"{self.image}: serve did not start ({error})\n{log.strip()}") from error
        self.devices = [
            SimulatedDevice(d.number, d.udn, d.friendly_name, d.device_type, d.address, d.location, d.boot_id)
            for d in self.control.devices()
        ]
        return self

    @property
    def control_url(self) -> str:  # type: ignore[override]
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(CONTROL_PORT)}"

    @property
    def address(self) -> str:
        """The container's address on its network, where its devices are."""
        container = self.get_wrapped_container()
        container.reload()
        settings = container.attrs["NetworkSettings"]
        networks = settings.get("Networks") or {}
        return str(settings.get("IPAddress") or next(n["IPAddress"] for n in networks.values() if n.get("IPAddress")))

    @property
    def search_address(self) -> tuple[str, int]:
        return (self.address, int(self.options.get("port") or 1900))

    @property
    def log(self) -> str:
        """What serve printed (kept when the container is removed)."""
        if self._container is None:
            return self._kept_log
        stdout, stderr = self.get_logs()
        return stdout.decode(errors="replace") + stderr.decode(errors="replace")

    def stop(self, force: bool = True, delete_volume: bool = True) -> None:
        """SIGTERM first, so serve says byebye and prints its counters, then the container is removed."""
        if self._container is not None:
            self._container.stop(timeout=5)
            self._kept_log = self.log
        DockerContainer.stop(self, force, delete_volume)
        self._container = None
