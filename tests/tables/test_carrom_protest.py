"""Protests at the carrom table (laws 144-151): the table's `protest` (the umpire's:
the side, the board, the protest's words and the fee's receipt journaled with it) and
`decide_protest` (the director's), the match kept open until the result is declared, and
the officials' hour in the view. Real journal on disk, fake clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.rules.carrom.record import replay_text
from kiosk.tables.carrom_record import export_match_record
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import Command, NotAllowed
from kiosk.tables.registry import CarromStart, Fitted
from kiosk.wiring import Tables
from tests.refusals import raises_code

START = CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha"))
UMPIRE, DIRECTOR, PLAYER = Role.UMPIRE, Role.DIRECTOR, Role.PLAYER


def _tables(path: Path, clock: FakeClock) -> Tables:
    return Tables(path, Fitted(clock=clock, outputs=(MemoryOutput(),), beams=()))


def _table(tables: Tables) -> CarromTable:
    table = tables.create(START, UMPIRE)
    assert isinstance(table, CarromTable)
    return table


def _stroke(s: CarromTable, *coins: str) -> None:
    s.send(Command.of("edit", UMPIRE, pocketed=list(coins)))
    s.send(Command.of("confirm", UMPIRE))


def _asha_wins_board(s: CarromTable) -> None:
    """Asha's break pockets a white, then the queen with its cover, then her last seven."""
    _stroke(s, "white")
    _stroke(s, "white", "queen")
    _stroke(s, *["white"] * 7)


def _protest(s: CarromTable, board: tuple[int, int], role: Role = UMPIRE) -> None:
    s.send(
        Command.of(
            "protest",
            role,
            by="Bina",
            board=board,
            words="The striker touched the queen before the cover",
            receipt="R-0042",
        )
    )


def test_law_150_a_protest_lets_play_go_on_and_151_a_upheld_replays_the_board(
    tmp_path: Path, clock: FakeClock
) -> None:
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    clock.advance(60)
    assert s.protestable() == ((1, 1),)  # board 2 has not begun
    _protest(s, (1, 1))
    state = s.view().state
    assert state is not None and state.protest_pending and state.now is not None
    assert s.view().phase != "over"  # play goes on (150): board 2 is Bina's break
    _stroke(s, "black")
    clock.advance(300)
    s.send(Command.of("decide_protest", DIRECTOR, board=(1, 1), upheld=True))
    view = s.view()
    assert view.state is not None and view.state.now is not None
    assert (view.state.now.game, view.state.now.board, view.state.now.breaker) == (1, 3, "Asha")
    assert [b.protest for b in view.state.games[0].boards] == ["upheld", "upheld"]
    assert view.protest_minutes is None  # decided: no hour runs
    # One entry per command with its role; the words and the receipt with the protest.
    assert s.match_id is not None
    rows = [(e.source, e.data) for e in s.journal.entries(s.match_id, ["event"])]
    lodged = next(d for _src, d in rows if d["event"] == "protest")
    assert lodged["words"].startswith("The striker touched") and lodged["receipt"] == "R-0042"
    assert ("director", "protest_decided") in {(src, d["event"]) for src, d in rows}
    assert ("umpire", "protest") in {(src, d["event"]) for src, d in rows}
    # The record keeps the events alone (the spec's fields), and replays to the same state.
    record = export_match_record(s.journal, s.match_id)
    events = [line for line in record.splitlines() if not line.startswith("#")]
    assert not any("R-0042" in line for line in events) and '"event": "protest"' in record
    # Its words and receipt as a comment line (readers skip `#` lines).
    assert (
        "# protest against board 1 of game 1: The striker touched the queen before the cover "
        "(fee receipt R-0042)"
    ) in record.splitlines()
    assert replay_text(record).state.games == view.state.games
    # What an upheld protest sets aside is replayed exactly after a restart.
    tables.close_all()
    again = _tables(tmp_path, clock)
    resumed = again.resume("carrom")
    assert isinstance(resumed, CarromTable)
    assert resumed.view().state == view.state
    again.close_all()


def test_law_150_the_match_stays_unfinished_until_the_result_is_declared(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Play over with a protest waiting: no result, no finish in the journal (a restart
    offers the table again and a late decision is journaled there); the rejection
    declares the result and finishes it (151 b). A protest after the match ended opens it
    again."""
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    s.send(Command.of("concede", DIRECTOR, by="Bina"))
    assert s.match_id is not None
    journal = s.journal
    assert journal.match(s.match_id).finished  # declared: Asha wins
    clock.advance(120)
    _protest(s, (1, 1))
    s.send(Command.of("undo", UMPIRE))  # lodged by mistake: the result is declared again
    declared = s.view().state
    assert declared is not None and declared.winner == "Asha"
    assert journal.match(s.match_id).finished
    _protest(s, (1, 1))
    view = s.view()
    assert view.state is not None and view.state.winner is None
    assert view.state.provisional_winner == "Asha" and view.phase == "over"
    assert not journal.match(s.match_id).finished  # opened again: the decision may follow
    assert view.protest_minutes == 60  # the hour runs from the protest (151 c)
    published = view.to_json()  # what the JSON publisher sends
    assert published["protest_minutes"] == 60
    assert published["match"]["protests"] == [{"by": "Bina", "board": [1, 1], "decision": None}]
    clock.advance(40 * 60)
    assert s.view().protest_minutes == 20

    tables.close_all()
    again = _tables(tmp_path, clock)
    assert again.latest_unfinished() == "carrom"
    resumed = again.resume("carrom")
    assert isinstance(resumed, CarromTable)
    resumed.send(Command.of("decide_protest", DIRECTOR, board=(1, 1), upheld=False))
    state = resumed.view().state
    assert state is not None and state.winner == "Asha"
    assert again.journal().match(resumed.match_id or 0).finished
    assert again.latest_unfinished() is None
    again.close_all()


def test_law_146_a_late_protest_is_refused_with_its_law(tmp_path: Path, clock: FakeClock) -> None:
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    clock.advance(15 * 60 + 1)
    assert (1, 1) not in s.protestable()
    refusal = s.protest_refusal((1, 1))
    assert refusal is not None and refusal.code == "protest_too_late" and refusal.law == "146"
    with pytest.raises(IllegalEvent) as caught:
        _protest(s, (1, 1))
    assert caught.value.reason is not None and caught.value.reason.law == "146"
    view = s.view()
    assert view.refusal is not None and view.refusal.code == "protest_too_late"
    assert view.state is not None and view.state.protests == ()
    assert s.match_id is not None
    assert [e.data["event"] for e in s.journal.entries(s.match_id, ["event"])][-1] == "stroke"
    assert s.journal.entries(s.match_id, ["refused"])[-1].source == "umpire"
    tables.close_all()


def test_law_149_151_refusals_no_board_twice_and_no_protest_to_decide(
    tmp_path: Path, clock: FakeClock
) -> None:
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    codes = []
    for command in (
        Command.of("protest", UMPIRE, by="Bina", board=(1, 3)),  # not begun (144)
        Command.of("decide_protest", DIRECTOR, board=(1, 1), upheld=True),  # none lodged
    ):
        with pytest.raises(IllegalEvent) as caught:
            s.send(command)
        assert caught.value.reason is not None
        codes.append(caught.value.reason.code)
    laws = []
    for words, receipt in (("what happened", " "), ("", "R-7")):
        with pytest.raises(IllegalEvent) as caught:
            s.protest("Bina", (1, 1), words, receipt, role=UMPIRE)
        assert caught.value.reason is not None
        laws.append(caught.value.reason.law)
    assert laws == ["145", "147"]  # no protest without its fee, nor without its words
    _protest(s, (1, 1))
    with pytest.raises(IllegalEvent) as caught:
        _protest(s, (1, 1))
    assert caught.value.reason is not None
    codes.append(caught.value.reason.code)
    assert codes == ["protest_no_board", "no_protest_to_decide", "protest_twice"]
    with raises_code(IllegalEvent, "protest_words_too_long") as long:
        s.protest("Bina", (1, 2), words="x" * 3000, receipt="R-8", role=Role.UMPIRE)
    assert long.value.reason.values() == {"most": 2000, "n": 3000}
    with raises_code(IllegalEvent, "protest_receipt_too_long"):
        s.protest("Bina", (1, 2), words="what happened", receipt="R" * 81, role=Role.UMPIRE)
    with pytest.raises(ValueError, match="board"):
        s.protest("Bina", ("1", 2), role=Role.UMPIRE)  # type: ignore[arg-type]
    tables.close_all()


def test_protests_by_role_a_player_cannot_protest_nor_the_umpire_decide(
    tmp_path: Path, clock: FakeClock
) -> None:
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    with pytest.raises(NotAllowed) as player:
        _protest(s, (1, 1), role=PLAYER)  # a locked console: a player's role
    assert player.value.reason is not None and player.value.reason.code == "role"
    _protest(s, (1, 1))
    with pytest.raises(NotAllowed):
        s.send(Command.of("decide_protest", UMPIRE, board=(1, 1), upheld=True))
    s.send(Command.of("decide_protest", DIRECTOR, board=(1, 1), upheld=False))
    # Taking the director's decision back is the director's too (151).
    assert s.needs(Command.of("undo", UMPIRE)) is DIRECTOR
    with pytest.raises(NotAllowed):
        s.send(Command.of("undo", UMPIRE))
    s.send(Command.of("undo", DIRECTOR))
    state = s.view().state
    assert state is not None and state.protest_pending
    tables.close_all()


def test_the_decision_preview_names_what_an_upheld_protest_sets_aside(
    tmp_path: Path, clock: FakeClock
) -> None:
    tables = _tables(tmp_path, clock)
    s = _table(tables)
    _asha_wins_board(s)
    _protest(s, (1, 1))
    _stroke(s, "black")
    seen = s.preview(Command.of("decide_protest", DIRECTOR, board=(1, 1), upheld=True))
    assert seen.refused is None and seen.state is not None
    upheld = next(c for c in seen.calls if c.code == "protest_upheld")
    assert upheld.values()["n"] == 2
    before = s.view().state
    assert before is not None and before.protest_pending  # the preview changed nothing
    none = s.preview(Command.of("decide_protest", DIRECTOR, board=(1, 2), upheld=True))
    assert none.refused is not None and none.refused.code == "no_protest_to_decide"
    tables.close_all()


def test_a_journal_of_a_protested_match_reads_back_with_its_words(tmp_path: Path) -> None:
    """A direct call (a trusted caller) is journaled as the role the action needs."""
    clock = FakeClock(5.0)
    with Journal(tmp_path / "j.db") as journal:
        s = CarromTable(journal, clock=clock, beams=())
        s.start_match(START.match, role=Role.UMPIRE)
        _asha_wins_board(s)
        s.protest("Bina", [1, 1], "  words  ", "R-1", role=Role.UMPIRE)
        s.decide_protest([1, 1], False, via="hall", role=Role.DIRECTOR)
        assert s.match_id is not None
        rows = journal.entries(s.match_id, ["event"])
        assert (rows[-2].source, rows[-2].data["words"]) == ("umpire", "words")
        assert (rows[-1].source, rows[-1].data["via"]) == ("director", "hall")
