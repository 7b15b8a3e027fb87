"""The wheel built once per test run from the project's packages and metadata only, for
every worker (tests/install/once.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.install.once import once

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from: the packages and the project's metadata, nothing else.
SOURCES = ("kiosk", "drivers", "vision", "pyproject.toml", "README.md")


def _build(base: Path) -> None:
    source = base / "tableside"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base), str(source)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    print(f"\nwheel built in {time.monotonic() - started:.1f} s")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    (found,) = once(tmp_path_factory, "wheel", _build).glob("tableside-*.whl")
    return found
