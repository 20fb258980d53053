# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Drive ssdp-sim's fake SSDP/UPnP devices from Python.

- ``SimulatedLAN`` starts ``ssdp-sim serve`` for a test and stops it (byebyes) at the end;
- ``ControlClient`` / ``AsyncControlClient`` call every endpoint of its control API (docs/control.md);
- the pytest plugin (installed with the package) gives tests the ``ssdp_lan`` fixtures;
- ``ssdp_sim.testcontainers.SsdpSimContainer`` runs the image instead of a binary.
"""

from .client import AsyncControlClient, ControlClient
from .errors import ControlError, JournalWaitTimeout, SimulatorStartError
from .lan import SimulatedDevice, SimulatedLAN
from .models import (
    Advertisement,
    Device,
    Fault,
    Health,
    JournalEntry,
    JournalPage,
    Latency,
    Mismatch,
    NearMiss,
    NetworkFaults,
)

__all__ = [
    "Advertisement",
    "AsyncControlClient",
    "ControlClient",
    "ControlError",
    "Device",
    "Fault",
    "Health",
    "JournalEntry",
    "JournalPage",
    "JournalWaitTimeout",
    "Latency",
    "Mismatch",
    "NearMiss",
    "NetworkFaults",
    "SimulatedDevice",
    "SimulatedLAN",
    "SimulatorStartError",
]
