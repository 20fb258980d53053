# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import pytest

pytest_plugins = ["pytester"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The container tests run with --ssdp-sim-image (scripts/container-test gives it); without an image
    they are left out, not skipped."""
    if config.getoption("--ssdp-sim-image"):
        return
    left_out = [item for item in items if item.get_closest_marker("container")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]
