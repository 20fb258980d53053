# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The package's own tests, run from a clone: ``pytest clients/python/tests`` once the package and
``requirements-test.txt`` are installed (scripts/python-client-test does both in a virtual environment).

They test this tree: the installed package must be ``src/ssdp_sim`` as it is now, and the devices are the
clone's own ``ssdp-sim``, built here when no other binary is given."""

from __future__ import annotations

import contextlib
import filecmp
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

PACKAGE = Path(__file__).resolve().parents[1]  # clients/python
REPOSITORY = PACKAGE.parents[1]


def pytest_configure(config: pytest.Config) -> None:
    try:
        config.getoption("--ssdp-sim-binary")
    except ValueError:  # the plugin's option is not there
        raise pytest.UsageError(
            f"ssdp-sim's pytest plugin is not loaded: this pytest runs on {sys.executable}, where the package "
            f"is not installed. Install it there (pip install {PACKAGE} -r {PACKAGE}/requirements-test.txt), "
            "or run the pytest of the environment it is in (path/to/venv/bin/python -m pytest)"
        ) from None
    changed = files_not_installed()
    if changed:
        raise pytest.UsageError(
            f"the installed ssdp_sim is not this tree's clients/python/src ({', '.join(changed)} differ): "
            f"pip install {PACKAGE} again, or pip install -e {PACKAGE} while you edit it"
        )
    from ssdp_sim.pytest_plugin import runs_no_test  # here: loaded, as just checked

    options = config.getoption("--ssdp-sim-binary"), config.getoption("--ssdp-sim-image")
    if runs_no_test(config) or hasattr(config, "workerinput"):
        return  # nothing runs, or the controller has seen to the binary (SSDP_SIM_BINARY reaches the workers)
    if not any(options) and not os.environ.get("SSDP_SIM_BINARY") and not shutil.which("ssdp-sim"):
        built = clone_binary(config)
        if built:
            os.environ["SSDP_SIM_BINARY"] = built


def files_not_installed() -> list[str]:
    """The files of src/ssdp_sim that the imported ssdp_sim lacks or has otherwise."""
    import ssdp_sim

    installed, source = Path(ssdp_sim.__file__).resolve().parent, PACKAGE / "src" / "ssdp_sim"
    if installed == source:  # an editable install, or PYTHONPATH
        return []
    names = sorted(path.name for path in source.iterdir() if path.is_file() and path.suffix in (".py", ".typed"))
    return [name for name in names
            if not (installed / name).is_file() or not filecmp.cmp(source / name, installed / name, shallow=False)]


def clone_binary(config: pytest.Config) -> str | None:
    """The clone's ssdp-sim, brought up to date with ``swift build --product ssdp-sim`` (seconds when it
    is; minutes on a fresh clone); None where there is no Swift, and the plugin says what to do."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"  # where our machines keep the toolchain
    if not os.access(swift, os.X_OK) or not (REPOSITORY / "Package.swift").is_file():
        return None
    with terminal(config) as write:
        write(f"ssdp-sim: no binary given; building this clone's ({REPOSITORY}: swift build --product ssdp-sim)")
        if subprocess.run([swift, "build", "--product", "ssdp-sim"], cwd=REPOSITORY).returncode != 0:
            raise pytest.UsageError("swift build --product ssdp-sim failed (above)")
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=REPOSITORY, capture_output=True, text=True)
    return str(Path(bin_path.stdout.strip()) / "ssdp-sim")


@contextlib.contextmanager
def terminal(config: pytest.Config) -> Iterator[Callable[[str], None]]:
    """Writes past pytest's capture, which is on while plugins are configured."""
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        yield lambda line: print(line, file=sys.stderr, flush=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The container tests run with --ssdp-sim-image (scripts/container-test gives it); without an image
    they are left out, not skipped."""
    if config.getoption("--ssdp-sim-image"):
        return
    left_out = [item for item in items if item.get_closest_marker("container")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]
