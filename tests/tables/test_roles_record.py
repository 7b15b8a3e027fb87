"""Every correction with its role: a command carries its role, the table
checks it and journals ONE entry with it (no note paired up later); the console's unlocks,
locks and refused taps are notes of their own. Shown in `tableside protest`, and in the carrom
match record's comment lines (the spec lets readers skip `#` lines; the clock record has no
comments, so it stays as it was)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Authority, Role
from kiosk.access.settings_authority import KIND, journal_note
from kiosk.cli import main as cli_main
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.events import MatchStart
from kiosk.rules.carrom.record import parse_record, replay
from kiosk.tables.backgammon_table import BackgammonTable, export_clock_record
from kiosk.tables.carrom_record import export_match_record
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import Command, Commands, NotAllowed


def _desk(journal: Journal, table: object, wall: FakeClock) -> Authority:
    pins = {Role.UMPIRE: "1357", Role.DIRECTOR: "8642"}
    return Authority(
        lambda role, pin: pins[role] == pin,
        idle_s=300.0,
        director_s=120.0,
        note=lambda note: journal_note(journal, table, note, wall()),
    )


def _send(table: Commands, a: Authority, now: float, action: str, **args: object) -> bool:
    """As the console does: the gate gives the role the command carries, the table checks it
    again and journals the command with it."""
    command = Command.of(action, Role.PLAYER, **args)
    role = a.allows(table.needs(command), action, now)
    if role is None:
        return False
    table.send(Command(action, role, command.args))
    return True


def _played(path: Path, clock: FakeClock, wall: FakeClock) -> CarromTable:
    """A board with a refused void, the umpire's undo, then the director's void."""
    s = CarromTable(Journal(path), clock=clock, wall=wall)
    a = _desk(s.journal, s, wall)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    a.enter("1357", Role.UMPIRE, clock())
    clock.advance(5.0)
    assert _send(s, a, clock(), "edit", pocketed=["white"])
    assert _send(s, a, clock(), "confirm")
    clock.advance(2.0)
    assert _send(s, a, clock(), "undo")
    assert _send(s, a, clock(), "confirm")
    assert not _send(s, a, clock(), "void_board")  # the umpire's console: refused, noted
    with pytest.raises(NotAllowed):  # and the table refuses it too, whoever asks
        s.send(Command.of("void_board", Role.UMPIRE))
    clock.advance(1.0)
    a.enter("8642", Role.DIRECTOR, clock(), "void_board")
    assert _send(s, a, clock(), "void_board")
    return s


def test_roles_every_correction_is_journaled_with_its_role(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = _played(tmp_path / "j.db", clock, wall)
    assert s.match_id is not None
    notes = [(e.source, e.data) for e in s.journal.entries(s.match_id, [KIND])]
    assert notes == [
        ("umpire", {"what": "unlock", "role": "umpire"}),
        ("umpire", {"what": "refused", "role": "umpire", "action": "void_board",
                    "reason": "needs the director"}),
        ("director", {"what": "unlock", "role": "director", "action": "void_board"}),
    ]  # fmt: skip
    # The commands' own entries carry the role; nothing else says who made them.
    made = [(e.kind, e.source) for e in s.journal.entries(s.match_id, ["event", "undo"])]
    assert made == [
        ("event", "umpire"), ("undo", "umpire"), ("event", "umpire"), ("event", "director")
    ]  # fmt: skip
    times = [e.t for e in s.journal.entries(s.match_id)]
    assert times == sorted(times)  # match time, in order with the events


def test_roles_match_record_comments_name_each_corrections_role(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = _played(tmp_path / "j.db", clock, wall)
    text = export_match_record(s.journal)
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert comments == [
        "# t=7 correction by the umpire: undo",
        "# t=8 correction by the director: void_board",
    ]
    rebuilt = replay(parse_record(text))  # readers skip the comments (the spec)
    assert rebuilt.state.now is not None and s.match is not None
    assert len(rebuilt.events) == len(s.match.events)


def test_roles_protest_record_shows_refusals_unlocks_and_the_directors_correction(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    _played(path, clock, wall).journal.close()
    assert cli_main(["protest", str(path), "-o", str(tmp_path / "out")]) == 0
    page = Path(capsys.readouterr().out.strip()).read_text(encoding="utf-8")
    assert "umpire&#x27;s PIN unlocks the console" in page
    assert "refused void_board on a console held by the umpire: needs the director" in page
    assert "void_board by the director" in page
    assert "Hash chain verified" in page


def test_roles_clock_record_has_no_comment_lines(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    table = BackgammonTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    a = _desk(table.journal, table, wall)
    table.start_match(("Nikos", "Eleni"), 7, (0, 0), role=Role.UMPIRE)
    assert _send(table, a, clock(), "start", player="Nikos")  # the players: no PIN
    assert not _send(table, a, clock(), "adjust", player="Nikos", bank=600.0)
    a.enter("8642", Role.DIRECTOR, clock(), "adjust")
    assert _send(table, a, clock(), "adjust", player="Nikos", bank=600.0)
    lines = export_clock_record(table.journal).splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["clock", "start", "adjust"]
    assert table.match_id is not None
    made = [e.source for e in table.journal.entries(table.match_id, ["event"])]
    assert made == ["player", "director"]


def test_roles_old_journal_settings_allowed_is_not_worded_as_a_correction() -> None:
    """Journals written before commands carried their role hold "allowed" notes for the
    director's own acts too; a settings save is not a correction of the match."""
    from kiosk.access.settings_authority import describe

    settings = {"what": "allowed", "role": "director", "action": "settings"}
    void = {"what": "allowed", "role": "director", "action": "void_board"}
    assert describe(settings) == ("tap", "director's PIN allows settings")
    assert describe(void) == ("edit", "correction by the director: void_board")
