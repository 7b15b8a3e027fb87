"""Law 88: "dues placed" only when the core owes something to place. The
core's answer (kiosk/rules/carrom/timing.py `dues_refusal`), and the table's: a refusal is
journaled and leaves the running timer as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import Foul, MatchStart, Stroke
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.timing import dues_refusal
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.fusion import Proposal


def test_law_88_nothing_owed_nothing_to_place() -> None:
    match = Match(MatchStart(rules="icf", players=("A", "B"), first_break="A"))
    refusal = dues_refusal(match.state.now)
    assert refusal is not None and refusal.code == "nothing_to_place" and refusal.law == "88"
    assert refusal.english() == "Nothing to place: no dues or penalties are owed (law 88)"
    assert dues_refusal(None) is not None  # no board in play


def test_law_88_a_penalty_coin_owed_may_be_placed() -> None:
    match = Match(MatchStart(rules="icf", players=("A", "B"), first_break="A"))
    match.push(Stroke(pocketed=("white",)))
    match.push(Foul())  # A's foul: one of A's coins to place (law 64)
    assert match.state.now is not None and any(match.state.now.placing.values())
    assert dues_refusal(match.state.now) is None


def test_law_88_the_table_refuses_dues_placed_and_keeps_the_break_count(tmp_path: Path) -> None:
    clock = ManualClock(100.0)
    with Journal(tmp_path / "journal.db") as journal:
        table = CarromTable(journal, clock=clock)
        table.start_match(
            MatchStart(rules="icf", players=("A", "B"), first_break="A"), role=Role.UMPIRE
        )
        table.play(role=Role.UMPIRE)  # 15 s to break (law 46)
        clock.advance(3.0)
        with pytest.raises(IllegalEvent, match="Nothing to place"):
            table.dues_placed(role=Role.UMPIRE)
        view = table.view()
        assert view.timer is not None and view.timer.kind == "break"
        assert view.timer.remaining == 12.0 and view.refusal is not None
        refused = [e.data for e in journal.entries(table.match_id) if e.kind == "refused"]
        assert refused[-1]["action"] == "dues_placed"


def test_law_50_dues_placed_twice_does_not_give_the_striker_a_fresh_15_seconds(
    tmp_path: Path,
) -> None:
    clock = ManualClock(100.0)
    with Journal(tmp_path / "journal.db") as journal:
        table = CarromTable(journal, clock=clock)
        table.start_match(
            MatchStart(rules="icf", players=("A", "B"), first_break="A"), role=Role.UMPIRE
        )
        table.play(role=Role.UMPIRE)
        table.confirm(
            Proposal(pocketed=("white",)), role=Role.UMPIRE
        )  # A's break: a white in, A plays on
        table.foul(role=Role.UMPIRE)  # A's foul: a coin owed (law 64); 15 s to place it (law 88)
        table.dues_placed(role=Role.UMPIRE)  # placed: A's next stroke within 15 s (law 50)
        clock.advance(10.0)
        with pytest.raises(IllegalEvent, match="placed already"):
            table.dues_placed(role=Role.UMPIRE)  # would start the 15 s again
        view = table.view()
        assert view.timer is not None and view.timer.kind == "stroke"
        assert view.timer.remaining == 5.0
        # After the next event, dues owed again may be said placed again.
        table.confirm(Proposal(pocketed=("white",)), role=Role.UMPIRE)  # A pockets another white
        table.foul(role=Role.UMPIRE)  # and fouls again: a coin owed again
        table.dues_placed(role=Role.UMPIRE)
        view = table.view()
        assert view.timer is not None and view.timer.kind == "stroke"
        assert view.timer.remaining == 15.0
