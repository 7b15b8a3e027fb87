"""The hot path: raw inputs are written once per poll, not synced; a confirmed
event is synced before any output hears of it, and the outputs hear of it (the hall's
publisher sends what it hears)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from drivers.hits import BeamHit
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import EVENT, UNDO, Journal
from kiosk.engine.journal_files import read_seal
from kiosk.engine.outputs import MemoryOutput, OutputBase
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_inputs import CameraMotion
from kiosk.tables.carrom_table import CarromTable
from tests.media import fill, tmpfs

if TYPE_CHECKING:
    from kiosk.engine.journal import Confirmed

START = MatchStart("icf", ("Asha", "Bina"), "Asha")


def on_disk(path: Path) -> list[tuple[int, str]]:
    """(seq, kind) of every entry another process would read now."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [(int(s), str(k)) for s, k in db.execute("SELECT seq, kind FROM entries")]


class SealWatcher(OutputBase):
    """An output that notes, as it hears each confirmed entry and each view, how far the seal
    (the last row known synced) reached then."""

    name = "watcher"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.heard: list[tuple[int, int]] = []  # (entry's seq, the seal's seq)

    def confirmed(self, confirmed: Confirmed) -> None:
        seal = read_seal(self.path)
        self.heard.append((confirmed.entry.seq, -1 if seal is None else seal.seq))


def test_raw_inputs_of_one_poll_are_written_together_and_not_synced(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "journal.db"
    s = CarromTable(Journal(path), clock=clock, wall=wall, outputs=[MemoryOutput()])
    s.start_match(START, role=Role.UMPIRE)
    sealed = read_seal(path)
    assert sealed is not None
    s.post(CameraMotion(clock.now))
    for n, pocket in enumerate((1, 2, 3)):
        s.post(BeamHit(pocket, clock.now + 0.1 * n, 0.012))
    clock.advance(0.5)
    s.poll()
    raw = [seq for seq, kind in on_disk(path) if kind in ("beam_hit", "camera")]
    assert len(raw) == 4  # on disk at the end of the poll, readable by another process
    after = read_seal(path)
    assert after is not None and after.seq == sealed.seq  # but none of them synced
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    synced = read_seal(path)
    assert synced is not None and synced.seq > max(raw)  # the event took them to the disk
    s.journal.close()


def test_a_confirmed_event_is_synced_before_any_output_hears_of_it(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "journal.db"
    watcher = SealWatcher(path)
    memory = MemoryOutput()
    s = CarromTable(Journal(path), clock=clock, wall=wall, outputs=[watcher, memory])
    s.start_match(START, role=Role.UMPIRE)
    s.post(BeamHit(1, clock.now, 0.012))
    s.poll()
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    s.undo(role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    assert [c.entry.kind for c in memory.confirmations] == [EVENT, UNDO, EVENT]
    for seq, seal in watcher.heard:
        assert seal >= seq  # on disk, synced, when heard of
    # Each says which one came before it: a listener that missed one knows.
    seqs = [c.entry.seq for c in memory.confirmations]
    assert [c.after for c in memory.confirmations] == [0, *seqs[:-1]]
    assert all(c.match.header["players"] == ["Asha", "Bina"] for c in memory.confirmations)
    s.journal.close()


def test_a_new_process_knows_the_confirmed_entry_before_its_first(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "journal.db"
    s = CarromTable(Journal(path), clock=clock, wall=wall)
    s.start_match(START, role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    s.post(BeamHit(2, clock.now, 0.012))
    s.poll()
    first = s.journal.entries(s.match_id, [EVENT])[-1].seq
    s.journal.close()
    memory = MemoryOutput()
    again = CarromTable(Journal(path), clock=clock, wall=wall, outputs=[memory])
    again.resume()
    again.confirm(again.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    (heard,) = memory.confirmations
    assert heard.after == first
    again.journal.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_held_event_is_told_once_the_disk_takes_it(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    with tmpfs(tmp_path / "disk") as disk:
        memory = MemoryOutput()
        journal = Journal(disk / "journal.db", clock=clock)  # its retries paced on the fake clock
        s = CarromTable(journal, clock=clock, wall=wall, outputs=[memory])
        s.start_match(START, role=Role.UMPIRE)
        filler = fill(disk)
        for _ in range(3):
            s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        assert s.journal.fault is not None and memory.confirmations == []  # held: not told
        filler.unlink()
        clock.advance(2.0)
        s.poll()  # the held writes retried, then told, in order
        assert s.journal.fault is None
        assert [c.entry.kind for c in memory.confirmations] == [EVENT] * 3
        seqs = [c.entry.seq for c in memory.confirmations]
        assert [c.after for c in memory.confirmations] == [0, *seqs[:-1]]
        s.journal.close()
