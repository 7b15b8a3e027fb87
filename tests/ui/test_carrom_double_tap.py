"""A double tap never acts twice at the carrom console (real taps, 50 ms apart, one xdotool
call): Confirm, Undo, Dues placed, a foul through its picker and the director's decision on a
protest each act once, the journal holds one entry, the ruling strip says what the first tap
did, and the second is said quietly, never as an alarm. The table refuses the second tap as
made from the view before (kiosk/ui/seen.py); the screen does not debounce."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.tables.commands import Command
from kiosk.wiring import Services

from .harness import (
    DIRECTOR_PIN,
    UMPIRE_PIN,
    Kiosk,
    confirmed_events,
    name_players,
    pinned,
    type_pin,
    win_board,
)


def _setup(kiosk: Kiosk) -> Any:
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Sita", "Gita")
    kiosk.tap("break_0")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _entries(screen: Any, *kinds: str) -> list[Any]:
    s = screen.session
    return list(s.journal.entries(s.match_id, list(kinds)))


def _quiet(screen: Any) -> None:
    """The error line holds no alarm: nothing, or the quiet word of a tap not taken."""
    assert screen.error in ("", "Second tap not taken: the first one did it"), screen.error
    assert not screen.error or screen.error_quiet
    assert not _entries(screen, "refused")


def test_a_double_tap_on_confirm_records_one_stroke(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.key("1")  # a white through pocket 1 on the simulated beams
    kiosk.advance(0.5)
    assert screen.prop_white == 1
    kiosk.double_tap("confirm")
    kiosk.advance(0.5)
    assert [e.data["event"] for e in _entries(screen, "event")] == ["stroke"]
    assert confirmed_events(screen.session)[0]["pocketed"] == ["white"]
    assert screen.at_turn == [True, False]  # Sita plays on: no second, empty stroke
    _quiet(screen)


def test_a_double_tap_on_undo_takes_back_one_stroke(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Sita pockets a white on the break and plays on
    kiosk.tap("confirm")  # an empty stroke: Gita's turn
    assert screen.at_turn == [False, True]
    kiosk.double_tap("undo")
    assert len(_entries(screen, "undo")) == 1
    assert screen.session.view().events == 1 and screen.at_turn == [True, False]
    assert screen.rulings[-1] == "Undone: stroke by Sita"
    _quiet(screen)


def test_a_double_tap_on_dues_placed_is_one_tap(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("white_plus")
    kiosk.tap("striker_in")
    kiosk.tap("confirm")  # own coin with the striker: one due, Gita places 2 (law 73)
    assert screen.placing.startswith("Gita places 2 coins")
    kiosk.double_tap("dues_placed")
    taps = [e.data["action"] for e in _entries(screen, "tap")]
    assert taps.count("dues_placed") == 1
    line = "Dues placed: 2 coin(s) by Gita; the next stroke within 15 s (law 50)"
    assert screen.rulings.count(line) == 1 and screen.rulings[-1] == line
    assert screen.timer_kind.startswith("Stroke (law 50)")
    _quiet(screen)


def test_a_double_tap_on_the_foul_picker_calls_one_foul(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Sita plays on
    kiosk.tap("foul")
    assert screen.pick_action == "foul"
    pick = screen.ids.pick_1
    where = pick.to_window(*pick.center)
    kiosk.double_tap(pick)  # Gita, not at turn: a technical foul (law 63 b)
    kiosk.advance(0.5)
    assert screen.pick_action == ""
    assert [e.data["event"] for e in _entries(screen, "event")] == ["stroke", "foul"]
    assert confirmed_events(screen.session)[-1] == {"event": "foul", "by": "Gita"}
    # The second tap comes frames after the first (harness.py `_press`): the picker is gone
    # and it lands on "Queen in" under it. It reached that widget and the table refused it as
    # made from the view before the foul; the queen is not proposed (before the view
    # versions it was: the proposal held the queen nobody pocketed).
    assert screen.ids.queen_in.collide_point(*screen.ids.queen_in.to_widget(*where))
    assert screen.session.proposal.pocketed == () and screen.session.stroke.edit is None
    assert screen.error == "Second tap not taken: the first one did it" and screen.error_quiet
    assert not [e for e in _entries(screen, "tap") if e.data["action"] == "edit"][1:]
    _quiet(screen)


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock, request: pytest.FixtureRequest) -> Services:
    if "protest" not in request.node.name:
        return Services(data_dir=tmp_path, check_pin=lambda _p: False, clock=fake_clock)
    # A director's unlock that lasts (a minute) lets a second tap made from the same view
    # pass the gate and reach the table, which must refuse it itself.
    window = 60.0 if "same_view" in request.node.name else 0.0
    return pinned(tmp_path, fake_clock, lock_after_min=30.0, director_window_s=window)


def _deciding(kiosk: Kiosk) -> Any:
    """A board won, Gita's protest against it, and the director's decision box open on it."""
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Sita", "Gita")
    kiosk.tap("start")
    type_pin(kiosk, UMPIRE_PIN)
    screen = kiosk.screen()
    session = screen.session
    win_board(session)
    session.send(
        Command.of("protest", Role.UMPIRE, by="Gita", board=(1, 1), words="w", receipt="R-1")
    )
    kiosk.advance(1.0)
    kiosk.tap("protest")
    kiosk.tap(screen.protests.ids.decide_0)
    type_pin(kiosk, DIRECTOR_PIN)
    return screen


@pytest.mark.parametrize("decision", ["decide_uphold", "decide_reject"])
def test_a_double_tap_on_the_protest_decision_decides_once(kiosk: Kiosk, decision: str) -> None:
    screen = _deciding(kiosk)
    assert screen.decision.asking
    kiosk.double_tap(screen.decision.ids[decision])
    kiosk.advance(0.5)
    decided = [e for e in _entries(screen, "event") if e.data["event"] == "protest_decided"]
    assert len(decided) == 1 and decided[0].data["upheld"] is (decision == "decide_uphold")
    assert not screen.decision.asking and not kiosk.app.gate.is_open
    assert screen.protests.error == ""
    # The second tap, frames after the first, lands where the box was: on the console
    # (before the view versions a coin's "+" stood under Reject and proposed a white).
    assert screen.session.proposal.pocketed == ()
    edits = [e for e in _entries(screen, "tap") if e.data["action"] == "edit"]
    assert len(edits) == 2  # win_board's two, none from the second tap
    _quiet(screen)


def test_a_second_protest_uphold_made_from_the_same_view_is_refused_by_the_table(
    kiosk: Kiosk,
) -> None:
    """The double tap above cannot fail on Uphold: once the box closes nothing lies under
    its button, and the box forgets its board on the first tap. Here the second tap, 50 ms
    later, is made from the same view as the first and reaches Uphold's own handler with the
    box as that view drew it (its protest, the version it was worded from): the command it
    sends is the first one's again. The table refuses it as made from a view it has moved on
    from; the protest is decided once, no refusal is journaled, and the console says so
    quietly. (Before the view versions the table took it, and its rules refused it out loud:
    "there is no undecided protest", journaled as a refusal.)"""
    screen = _deciding(kiosk)
    box = screen.decision
    uphold = box.ids.decide_uphold
    drawn = (list(box.board), getattr(box, "made_from", None))  # the box as the view drew it
    kiosk.tap(uphold)
    box.board, box.made_from = drawn  # the second tap: made from that same view
    uphold.dispatch("on_release")
    kiosk.advance(0.5)
    decided = [e for e in _entries(screen, "event") if e.data["event"] == "protest_decided"]
    assert len(decided) == 1 and decided[0].data["upheld"] is True
    assert screen.session.view().state.protests[0].decision == "upheld"
    assert screen.error == "Second tap not taken: the first one did it" and screen.error_quiet
    assert screen.protests.error == "" and not kiosk.app.gate.is_open
    _quiet(screen)
