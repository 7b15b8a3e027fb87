"""The match on its clock: record events applied to the clock and the match together."""

from __future__ import annotations

import pytest

from kiosk.clocks.record import (
    Adjust,
    ClockHeader,
    EarlyPickup,
    GameEnd,
    Pause,
    Press,
    Query,
    Start,
    parse_clock_record,
)
from kiosk.rules.backgammon.clocked import ClockedMatch, replay_clock
from kiosk.rules.backgammon.match import IllegalAction

HEADER = ClockHeader(("Nikos", "Eleni"), 7)


def test_rule_2_3_clock_imposed_on_a_match_in_progress_banks_from_points_needed() -> None:
    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 7, (3, 1)))
    snap = cm.snapshot(0.0)
    assert snap.banks == {"Nikos": 600.0, "Eleni": 600.0}  # (4 + 6) / 2 x 2 minutes


def test_rule_4_3_iii_flag_loses_the_match_at_the_exact_moment() -> None:
    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 1, minutes_per_point=1.0, delay=12.0))
    cm.apply(Start(0.0, "Nikos"))
    cm.apply(Query(71.9))
    assert cm.snapshot(71.9).winner is None
    snap = cm.snapshot(72.0)
    assert (snap.flagged, snap.winner, snap.running) == ("Nikos", "Eleni", None)


def test_rule_4_3_iv_adjust_after_a_wrongly_set_clock_lifts_the_flag() -> None:
    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 1, minutes_per_point=1.0, delay=0.0))
    cm.apply(Start(0.0, "Nikos"))
    cm.apply(Adjust(100.0, "Nikos", 30.0))
    snap = cm.snapshot(100.0)
    assert (snap.flagged, snap.winner, snap.banks["Nikos"]) == (None, None, 30.0)


def test_clocked_refused_event_changes_nothing() -> None:
    cm = ClockedMatch(HEADER)
    cm.apply(Start(0.0, "Nikos"))
    before = cm.snapshot(5.0)
    with pytest.raises(IllegalAction, match="running"):
        cm.apply(Start(5.0, "Eleni"))
    with pytest.raises(IllegalAction, match="own side"):
        cm.apply(EarlyPickup(5.0, "Nikos"))
    assert cm.snapshot(5.0) == before


def test_clocked_banks_carry_across_games_and_crawford_follows_the_score() -> None:
    cm = ClockedMatch(HEADER)
    cm.apply(Start(0.0, "Nikos"))
    cm.apply(Press(20.0, "Nikos"))
    cm.apply(GameEnd(30.0, "Eleni", 6))
    snap = cm.snapshot(31.0)
    assert snap.banks == {"Nikos": 832.0, "Eleni": 840.0}
    assert snap.crawford and snap.score == {"Nikos": 0, "Eleni": 6}
    cm.apply(Start(40.0, "Eleni"))
    cm.apply(Pause(41.0))
    assert cm.snapshot(41.0).crawford and cm.match.game_is_crawford


def test_clocked_replay_error_names_the_line() -> None:
    text = (
        '{"event": "clock", "players": ["A", "B"], "match_length": 3}\n'
        '{"t": 0, "event": "start", "player": "A"}\n'
        '{"t": 1, "event": "resume"}\n'
    )
    with pytest.raises(ValueError, match="line 3: resume without a pause"):
        replay_clock(parse_clock_record(text))
