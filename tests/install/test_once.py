"""`once` (tests/install/once.py): the wheel and the clean venv made once a run for both
workers, and a make that fails leaves nothing half made for the other to take."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.install.once import once


class Factory:
    """A worker's temporary folders: its own basetemp inside the run's."""

    def __init__(self, base: Path) -> None:
        self.base = base
        base.mkdir(parents=True, exist_ok=True)

    def getbasetemp(self) -> Path:
        return self.base


def test_once_two_workers_share_what_the_first_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    made: list[Path] = []
    started, go_on = threading.Event(), threading.Event()

    def make(folder: Path) -> None:
        started.set()
        go_on.wait(timeout=30)  # the second worker asks while the first still makes it
        (folder / "tableside.whl").write_text("wheel")
        made.append(folder)

    found: dict[str, Path] = {}

    def worker(name: str) -> None:
        found[name] = once(Factory(tmp_path / f"popen-{name}"), "wheel", make)  # type: ignore[arg-type]

    first = threading.Thread(target=worker, args=("gw0",))
    first.start()
    assert started.wait(timeout=30)
    second = threading.Thread(target=worker, args=("gw1",))
    second.start()
    go_on.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert made == [tmp_path / "wheel"]
    assert found == {"gw0": tmp_path / "wheel", "gw1": tmp_path / "wheel"}


def test_once_a_failed_make_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    factory: Any = Factory(tmp_path / "run")

    def broken(folder: Path) -> None:
        (folder / "half").write_text("half")
        raise RuntimeError("pip failed")

    with pytest.raises(RuntimeError):
        once(factory, "venv", broken)
    folder = once(factory, "venv", lambda f: (f / "whole").write_text("whole"))
    assert folder == tmp_path / "run" / "venv"  # without workers: the run's own folder
    assert sorted(p.name for p in folder.iterdir()) == [".made", "whole"]
