"""`once`: what a test run makes once for all its workers.

With `-n 2` (make test) the tests that need the wheel, or the clean venv it is installed
into (test_wheel.py), land on both workers: `once` makes each of them once per run, under a
lock in the run's own temporary folder that the workers share, and hands the second worker
what the first made (a minute of building and a minute of installing, each saved once)."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `make(folder)` once per test run, whichever worker asks
    first (the others wait for it); a `make` that fails leaves nothing for the next to take."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    run = tmp_path_factory.getbasetemp()
    shared = run.parent if worker else run  # the workers' basetemps are .../pytest-N/popen-gwK
    folder = shared / name
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder
