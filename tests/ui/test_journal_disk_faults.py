"""The kiosk survives a full disk and a read-only disk (real tmpfs media, real taps under
Xvfb): the stroke stands, the screen says "not saved", and it is written once the disk works.
A damaged journal is said on the home screen with its last good backup, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.ui.i18n import apply_languages
from tests.media import fill, tmpfs

from .conftest import PIN
from .harness import FakeClock, Kiosk, Services, make_kiosk, start_backgammon

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


def kiosk_on(data: Path, clock: FakeClock) -> Iterator[Kiosk]:
    services = Services(data_dir=data, check_pin=lambda pin: pin == PIN, clock=clock)
    yield from make_kiosk(services, clock)


def start_carrom(kiosk: Kiosk) -> object:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def test_kiosk_survives_a_full_disk_and_writes_the_held_strokes_later(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    with tmpfs(tmp_path / "disk", size="512k") as disk:
        for kiosk in kiosk_on(disk, clock):
            screen: Any = start_carrom(kiosk)
            kiosk.tap("white_plus")
            kiosk.tap("confirm")
            filler = fill(disk)
            kiosk.tap("white_plus")
            kiosk.tap("confirm")  # the disk is full: held, shown, not lost
            kiosk.advance(0.1)
            assert screen.session.view().events == 2
            assert "not saved" in screen.faults
            assert screen.session.journal.pending
            kiosk.shot("journal_not_saved_full_disk")
            # Its details in the umpire's language, from the facts: which entry, and why.
            apply_languages("hi", "")
            try:
                kiosk.advance(0.1)
                assert "सेव नहीं हुआ: प्रविष्टि" in screen.fault_details
                assert "(डिस्क भर गई है)" in screen.fault_details
                assert "No space" not in screen.fault_details
            finally:
                apply_languages("en", "")
            assert "(database or disk is full)" in screen.faults  # the log keeps SQLite's words
            filler.unlink()
            kiosk.advance(1.5)  # the next retry writes it
            assert "not saved" not in screen.faults
            assert screen.session.journal.pending == ()
            assert len(screen.session.journal.confirmed(screen.session.match_id)) == 2


def test_kiosk_survives_a_read_only_disk_and_writes_once_writable(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    with tmpfs(tmp_path / "ro", "ro", size="512k") as medium:
        for kiosk in kiosk_on(medium / "data", clock):
            assert kiosk.current == "home"
            screen: Any = start_carrom(kiosk)
            kiosk.tap("white_plus")
            kiosk.tap("confirm")
            kiosk.advance(0.1)
            assert screen.session.view().events == 1
            assert "not saved" in screen.faults and "Read-only" in screen.faults
            assert "(the disk is read-only)" in screen.fault_details
            kiosk.shot("journal_not_saved_read_only")
            subprocess.run(["mount", "-o", "remount,rw", str(medium)], check=True)
            kiosk.advance(1.5)
            assert "not saved" not in screen.faults
        assert (medium / "data" / "journal.db").stat().st_size > 0


def test_kiosk_damaged_journal_is_said_on_home_with_the_backup(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.db").write_bytes(b"\0")
    for kiosk in kiosk_on(data, clock):
        assert kiosk.current == "home"
        problem = kiosk.screen().problem
        assert "truncated to 1 bytes" in problem and "backup" in problem
        kiosk.shot("journal_damaged_home")


def test_kiosk_journal_on_a_medium_gone_read_only_is_said_not_a_crash(tmp_path: Path) -> None:
    from kiosk.engine.journal import EVENT, Journal

    clock = FakeClock(1000.0)
    with tmpfs(tmp_path / "card", size="512k") as card:
        with Journal(card / "journal.db") as journal:  # yesterday's matches
            mid = journal.begin_match("carrom", {"event": "match"}, 0.0)
            journal.append(mid, 1.0, 0.0, "umpire", EVENT, {"event": "pass"})
            journal.finish(mid)
        subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
        for kiosk in kiosk_on(card, clock):
            assert kiosk.current == "home"
            assert "cannot be opened (the disk is read-only)" in kiosk.screen().problem
            kiosk.tap("carrom_icf")
            kiosk.tap("start")  # refused with the reason, on the setup screen
            assert kiosk.current == "setup_carrom"
            assert "(the disk is read-only)" in kiosk.screen().message
            kiosk.shot("journal_read_only_card")


def test_backgammon_clock_on_a_full_disk_says_not_saved_and_writes_later(tmp_path: Path) -> None:
    """The backgammon clock goes on when the disk fills: each press is held and the status
    line says so, in the umpire's words, until the disk takes them (then it clears)."""
    clock = FakeClock(1000.0)
    with tmpfs(tmp_path / "disk", size="512k") as disk:
        for kiosk in kiosk_on(disk, clock):
            screen: Any = start_backgammon(kiosk)
            kiosk.tap("start_0")
            filler = fill(disk)
            kiosk.advance(3.0)
            kiosk.tap("half_0")  # held: the disk is full
            kiosk.advance(0.1)
            assert screen.turns == [False, True]  # the clock went on
            assert screen.not_saved.startswith("Not saved: entry")
            assert "(the disk is full)" in kiosk.widget("status_line").text
            kiosk.shot("backgammon_not_saved_full_disk")
            filler.unlink()
            kiosk.advance(1.5)  # the table's poll retries, with no press needed
            assert screen.not_saved == ""
            assert kiosk.widget("status_line").text == ""
            table = screen.table
            assert table.journal.pending == () and len(table.journal.confirmed(table.match_id)) == 2


def test_bhukhar_table_on_a_full_disk_says_not_saved_and_writes_later(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    with tmpfs(tmp_path / "disk", size="512k") as disk:
        for kiosk in kiosk_on(disk, clock):
            kiosk.tap("bhukhar")
            kiosk.tap("start")
            assert kiosk.current == "bhukhar"
            screen: Any = kiosk.screen()
            filler = fill(disk)
            kiosk.tap("start_round")  # the round starts: its timer line is held
            kiosk.advance(0.1)
            assert screen.round_no == 1
            assert "(the disk is full)" in kiosk.widget("message").text
            filler.unlink()
            kiosk.advance(1.5)
            assert screen.not_saved == "" and screen.table.journal.pending == ()


def test_kiosk_on_a_journal_another_kiosk_holds_says_so_in_the_umpires_words(
    tmp_path: Path,
) -> None:
    """A second process holds the journal (as a second kiosk on the same data folder
    would): home says who holds it, and a start is refused with the same facts, in Hindi
    after a switch. Nothing is written to the held journal."""
    data = tmp_path / "data"
    data.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\nfrom kiosk.engine.journal import Journal\n"
            "j = Journal(sys.argv[1])\nprint('held', flush=True)\nsys.stdin.read()\n",
            str(data / "journal.db"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for kiosk in kiosk_on(data, FakeClock(1000.0)):
            assert kiosk.current == "home"
            assert f"process {holder.pid} on" in kiosk.screen().problem
            apply_languages("hi", "")
            try:
                kiosk.tap("backgammon")
                kiosk.tap("start")
                assert kiosk.current == "setup_backgammon"
                message = kiosk.screen().message
                assert "जर्नल को दूसरा कियोस्क इस्तेमाल कर रहा है" in message
                assert f"प्रोसेस {holder.pid}" in message
            finally:
                apply_languages("en", "")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
