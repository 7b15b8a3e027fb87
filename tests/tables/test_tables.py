"""One lifecycle for every table kind: `Tables` (kiosk/wiring.py) creates, resumes
and closes a carrom, a backgammon and a Bhukhar table by the same path; each checks the role
a command carries and journals the command once with it; each sends its view to the outputs
on a visible change only; a journal fault is a `Fault` at every table."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput, OutputBase
from kiosk.rules.bhukhar.record import SessionStart, Team
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import BackgammonTable, ClockView
from kiosk.tables.base import Table
from kiosk.tables.bhukhar_table import BhukharTable, BhukharView
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import Command, NotAllowed, StaleView
from kiosk.tables.registry import CarromStart, ClockStart, Fitted, Start
from kiosk.wiring import Tables
from tests.media import fill, tmpfs

TEAMS = (
    Team("A", ("Asha", "Bina", "Chetan")),
    Team("B", ("Dev", "Esha", "Farhan")),
)
STARTS: dict[str, Start] = {
    "carrom": CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")),
    "backgammon": ClockStart(("Nikos", "Eleni"), 5),
    "bhukhar": SessionStart(TEAMS),
}
#: A command each table takes, and one of the director's it refuses to the umpire.
COMMANDS = {
    "carrom": (Command.of("pass_turn", Role.UMPIRE), Command.of("void_board", Role.UMPIRE)),
    "backgammon": (
        Command.of("start", Role.PLAYER, player="Nikos"),
        Command.of("adjust", Role.UMPIRE, player="Nikos", bank=60.0),
    ),
    "bhukhar": (
        Command.of("start_round", Role.UMPIRE),
        Command.of("start_round", Role.PLAYER),
    ),
}


#: A command each table carries out at a match's start, which changes what the next acts on.
CHANGES = {
    "carrom": Command.of("confirm", Role.UMPIRE),
    "backgammon": Command.of("start", Role.PLAYER, player="Nikos"),
    "bhukhar": Command.of("start_round", Role.UMPIRE),
}


def _tables(path: Path, clock: FakeClock, out: MemoryOutput) -> Tables:
    return Tables(path, Fitted(clock=clock, outputs=(out,), beams=(), camera=False))


@pytest.mark.parametrize("kind", sorted(STARTS))
def test_tables_one_lifecycle_for_every_kind(kind: str, tmp_path: Path, clock: FakeClock) -> None:
    out = MemoryOutput()
    tables = _tables(tmp_path, clock, out)
    table = tables.create(STARTS[kind], Role.UMPIRE)
    assert isinstance(table, Table) and table.kind == kind and tables.in_play is table
    allowed, refused = COMMANDS[kind]
    if kind == "carrom":
        table.send(Command.of("edit", Role.UMPIRE, pocketed=["white"]))
        table.send(Command.of("confirm", Role.UMPIRE))  # the break taken: a pass may follow
    table.send(allowed)
    with pytest.raises(NotAllowed):  # the table itself checks the role, whoever sends it
        table.send(refused)
    with pytest.raises(NotAllowed):
        table.send(Command.of("format_the_disk", Role.DIRECTOR))
    journal = tables.journal()
    assert table.match_id is not None
    sources = {e.source for e in journal.entries(table.match_id) if e.kind in ("event", "draft")}
    assert sources == {allowed.by.word}  # one entry per command, with its role
    before = table.view()
    tables.close_all()
    again = _tables(tmp_path, clock, MemoryOutput())
    assert again.latest_unfinished() == kind
    resumed = again.resume(kind)
    assert resumed is not None and type(resumed) is type(table)
    assert resumed.match_id == table.match_id
    if isinstance(resumed, CarromTable) and isinstance(before, type(resumed.view())):
        assert resumed.view().state == before.state  # type: ignore[union-attr]
    again.close(resumed.match_id or 0, Role.DIRECTOR)
    closed = again.journal().entries(resumed.match_id, ["closed"])
    assert [(e.source, e.data) for e in closed] == [("director", {"why": "closed"})]
    assert again.in_play is None and again.latest_unfinished() is None
    again.close_all()


def test_tables_a_new_match_closes_the_unfinished_one_with_the_role(
    tmp_path: Path, clock: FakeClock
) -> None:
    tables = _tables(tmp_path, clock, MemoryOutput())
    first = tables.create(STARTS["backgammon"], Role.UMPIRE)
    second = tables.create(STARTS["backgammon"], Role.DIRECTOR)
    journal = tables.journal()
    assert first.match_id is not None and second.match_id != first.match_id
    closed = journal.entries(first.match_id, ["closed"])
    assert [(e.source, e.data) for e in closed] == [("director", {"why": "new_match"})]
    assert journal.match(first.match_id).finished
    tables.close_all()


class Views(OutputBase):
    """Every view an output is given."""

    def __init__(self) -> None:
        self.views: list[object] = []

    def state_changed(self, view: object) -> None:
        self.views.append(view)


def _polled_views(table: BackgammonTable | BhukharTable, clock: FakeClock, out: Views) -> int:
    """Views the outputs got over 30 s of polls at the app's 20 a second."""
    n = len(out.views)
    for _ in range(600):
        clock.advance(0.05)
        table.poll(clock())
    return len(out.views) - n


def test_tables_backgammon_sends_its_view_on_a_visible_change_only(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """It sent its view 20 times a second; the bank above 20 s shows whole seconds, so a
    running clock changes what is seen once a second, the delay (and a bank below 20 s)
    each tenth."""
    out = Views()
    table = BackgammonTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[out])
    table.start_match(("Nikos", "Eleni"), 5, role=Role.UMPIRE)
    table.start("Nikos", role=Role.PLAYER)
    sent = _polled_views(table, clock, out)
    # 12 s of the delay in tenths, then the bank in whole seconds: 138, not 600.
    assert sent == 12 * 10 + 18, sent
    seen = [v for v in out.views if isinstance(v, ClockView)]
    faces = [v.face for v in seen[-sent:]]
    assert len(set(faces)) == len(faces)  # each view sent shows something new


def test_tables_bhukhar_sends_its_view_on_a_visible_change_only(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = Views()
    start = STARTS["bhukhar"]
    assert isinstance(start, SessionStart)
    table = BhukharTable.create(
        Journal(tmp_path / "j.db"), start, clock=clock, wall=wall, outputs=[out]
    )
    table.start_round(role=Role.UMPIRE)
    sent = _polled_views(table, clock, out)
    assert 25 <= sent <= 35, sent  # the face shows whole seconds
    assert all(isinstance(v, BhukharView) for v in out.views)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
@pytest.mark.parametrize("kind", ["backgammon", "bhukhar"])
def test_tables_a_journal_fault_is_a_fault_at_every_table(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Backgammon and Bhukhar said the journal's trouble as a string; it is a `Fault` of part
    "journal" at every table (a real full disk), and the outputs hear of it as of any fault."""
    out = MemoryOutput()
    with tmpfs(tmp_path / "disk") as disk:
        tables = _tables(disk, clock, out)
        table = tables.create(STARTS[kind], Role.UMPIRE)
        filler = fill(disk)
        table.send(COMMANDS[kind][0])  # held in memory: the disk is full
        view = table.view()
        assert [f.part for f in view.faults] == ["journal"]
        assert view.not_saved == view.faults[0].message
        assert [(f.part, active) for f, active in out.faults] == [("journal", True)]
        filler.unlink()
        tables.journal().retry(force=True)
        table.poll(clock.now)  # the loop's next turn sees the journal working again
        assert table.view().faults == ()
        assert [(f.part, active) for f, active in out.faults][-1] == ("journal", False)
        tables.close_all()


def test_tables_carrom_preview_and_what_an_undo_needs_come_from_the_table(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Screens ask the table: `preview(command)` gives the core's answer, or its
    Reason for a refusal (not English words); `needs` says an undo of a board's end is the
    director's (laws 137-143), from the table's own state."""
    tables = _tables(tmp_path, clock, MemoryOutput())
    s = tables.create(STARTS["carrom"], Role.UMPIRE)
    assert isinstance(s, CarromTable)
    seen = s.preview(Command.of("concede", Role.DIRECTOR, by="Asha"))
    assert seen.state is not None and seen.state.winner == "Bina" and s.view().state.winner is None
    refused = s.preview(Command.of("concede", Role.DIRECTOR, by="Nobody"))
    assert refused.state is None and refused.refused is not None and refused.refused.code
    undo = Command.of("undo", Role.UMPIRE)
    s.send(Command.of("edit", Role.UMPIRE, pocketed=["white"]))
    s.send(Command.of("confirm", Role.UMPIRE))
    assert s.needs(undo) is Role.UMPIRE  # within the board
    s.send(Command.of("edit", Role.UMPIRE, pocketed=["white", "queen"]))
    s.send(Command.of("confirm", Role.UMPIRE))
    s.send(Command.of("edit", Role.UMPIRE, pocketed=["white"] * 7))
    s.send(Command.of("confirm", Role.UMPIRE))  # nine whites and the queen: the board is over
    assert s.needs(undo) is Role.DIRECTOR
    with pytest.raises(NotAllowed):
        s.send(undo)
    s.send(Command.of("undo", Role.DIRECTOR))
    assert [e.source for e in s.journal.entries(s.match_id, ["undo"])] == ["director"]
    tables.close_all()


@pytest.mark.parametrize("role", [Role.PLAYER, Role.UMPIRE])
@pytest.mark.parametrize("kind", sorted(STARTS))
def test_role_closing_or_starting_over_an_unfinished_table_is_the_directors(
    kind: str, role: Role, tmp_path: Path, clock: FakeClock
) -> None:
    """Closing an unfinished table is the director's (DESIGN.md, "Roles"), checked by the
    tables, not only by the screen: `close` and a new match over it by anyone else are
    refused, and the journal is as it was."""
    tables = _tables(tmp_path, clock, MemoryOutput())
    table = tables.create(STARTS[kind], Role.UMPIRE)
    assert table.match_id is not None
    journal = tables.journal()
    before = journal.entries(table.match_id)
    with pytest.raises(NotAllowed):
        tables.close(table.match_id, role)
    with pytest.raises(NotAllowed):
        tables.create(STARTS[kind], role)
    assert journal.entries(table.match_id) == before
    assert [m.id for m in journal.matches(kind)] == [table.match_id]
    assert not journal.match(table.match_id).finished
    tables.close(table.match_id, Role.DIRECTOR)
    assert journal.match(table.match_id).finished
    tables.close_all()


@pytest.mark.parametrize("kind", sorted(STARTS))
def test_role_every_command_needs_a_role_even_called_directly(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    """There is no trusted caller: a command method called without a role is a TypeError,
    and one called directly with too low a role is refused like one sent, nothing written."""
    tables = _tables(tmp_path, clock, MemoryOutput())
    table = tables.create(STARTS[kind], Role.UMPIRE)
    allowed, refused = CHANGES[kind], COMMANDS[kind][1]
    assert table.match_id is not None
    before = tables.journal().entries(table.match_id)
    method = getattr(table, allowed.action)
    with pytest.raises(TypeError, match="role"):
        method(**allowed.kwargs())
    with pytest.raises(NotAllowed):
        getattr(table, refused.action)(**refused.kwargs(), role=refused.by)
    assert tables.journal().entries(table.match_id) == before
    method(**allowed.kwargs(), role=allowed.by)
    assert tables.journal().entries(table.match_id) != before
    tables.close_all()


@pytest.mark.parametrize("kind", sorted(STARTS))
def test_view_a_command_made_from_a_view_gone_by_is_refused(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Every command carries the version of the view it was made from: a second command made
    from the same view as one carried out (the second tap of a double tap) is refused as
    stale, and nothing is written; made from the new view it goes through."""
    tables = _tables(tmp_path, clock, MemoryOutput())
    table = tables.create(STARTS[kind], Role.UMPIRE)
    allowed = CHANGES[kind]
    assert table.match_id is not None
    shown = table.view().version
    table.send(Command(allowed.action, allowed.by, allowed.args, shown))
    after = tables.journal().entries(table.match_id)
    assert table.view().version != shown
    with pytest.raises(StaleView) as stale:
        table.send(Command(allowed.action, allowed.by, allowed.args, shown))
    assert stale.value.reason is not None and stale.value.reason.code == "stale_view"
    assert tables.journal().entries(table.match_id) == after
    clock.advance(1.0)  # the clocks moving on do not change the view a command acts on
    assert table.version == table.view().version
    tables.close_all()
