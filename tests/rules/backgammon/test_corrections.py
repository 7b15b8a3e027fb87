"""The second reading of the Greek text (shared/seeds/003_d85405b1c0e4c56b.txt):
score and length corrections (4.7, 4.8), a clock introduced mid-match (2.2, 2.3, 3.5 (vi)),
two legs that split the match time (3.5 (v)), breaks only between games and an absence
counted as a break (2.2 (ii), (v)), the dead cube (4.4 (vii)) and long matches."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clocks.record import (
    Break,
    ClockHeader,
    ClockRecordError,
    CorrectScore,
    GameEnd,
    Late,
    MatchLength,
    Penalty,
    Press,
    Resume,
    Start,
    parse_clock_record,
    write_clock_record,
)
from kiosk.rules.backgammon.clocked import ClockedMatch, replay_clock
from kiosk.rules.backgammon.match import IllegalAction, Match, breaks_due

A, B = "Nikos", "Eleni"


def clocked(length: int = 7, **kw: Any) -> ClockedMatch:
    return ClockedMatch(ClockHeader((A, B), length, **kw))


def code_of(caught: pytest.ExceptionInfo[IllegalAction]) -> str:
    reason = caught.value.reason
    assert reason is not None, "a refusal carries its reason as facts"
    return reason.code


# -- 4.7: every scoring error is corrected as soon as found ------------------------------


def test_4_7_the_director_corrects_even_a_score_both_players_agreed_to() -> None:
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    cm.apply(GameEnd(30.0, B, 2))
    banks = cm.snapshot(31.0).banks
    cm.apply(CorrectScore(40.0, {A: 1, B: 4}))
    snap = cm.snapshot(41.0)
    assert snap.score == {A: 1, B: 4}
    assert snap.banks == banks  # the banks do not change


def test_4_7_the_crawford_game_follows_the_corrected_score_from_the_next_game() -> None:
    m = Match((A, B), 7, {A: 0, B: 4})
    m.correct_score({A: 0, B: 6})
    assert m.crawford_next()
    m.start_game()
    m.correct_score({A: 1, B: 4})  # found during the Crawford game: it stays one
    assert m.game_is_crawford and m.crawford
    m.record_game(A, 1)
    # Nobody has been one point away: no Crawford game yet, the next at one away is one.
    assert not m.post_crawford and not m.crawford_next()
    m.correct_score({A: 6, B: 4})
    assert m.crawford_next()


def test_4_7_penalty_points_stay_counted_for_the_more_than_half_rule() -> None:
    m = Match((A, B), 7)
    m.award_penalty(B, 2)
    m.correct_score({A: 1, B: 3})
    m.award_penalty(B, 2)  # 4 penalty points in all: more than half of 7
    assert (m.winner, m.won_by) == (B, "penalty")


def test_4_7_a_score_below_the_penalty_points_it_includes_is_refused() -> None:
    m = Match((A, B), 7)
    m.award_penalty(B, 2)
    with pytest.raises(IllegalAction) as caught:
        m.correct_score({A: 0, B: 1})
    assert code_of(caught) == "score_below_penalty"
    assert m.score == {A: 0, B: 2}


def test_4_7_a_corrected_score_names_both_players() -> None:
    m = Match((A, B), 7)
    with pytest.raises(IllegalAction) as caught:
        m.correct_score({A: 2})
    assert code_of(caught) == "score_names_both"
    with pytest.raises(IllegalAction) as caught:
        m.correct_score({A: 2, B: 0, "Zed": 1})
    assert code_of(caught) == "unknown_player"


def test_4_7_a_corrected_score_that_reaches_the_length_ends_the_match() -> None:
    cm = clocked(5)
    cm.apply(Start(0.0, A))
    cm.apply(CorrectScore(10.0, {A: 5, B: 1}))
    snap = cm.snapshot(11.0)
    assert (snap.winner, snap.running) == (A, None)
    with pytest.raises(IllegalAction) as caught:
        cm.apply(CorrectScore(12.0, {A: 4, B: 1}))  # 4.6: a result is the director's
    assert code_of(caught) == "match_over"


# -- 4.8: a wrong match length is corrected before the next game -------------------------


def test_4_8_the_length_is_corrected_between_games_the_breaks_follow_the_banks_stay() -> None:
    cm = clocked(5)  # no breaks at 5 points
    cm.apply(Start(0.0, A))
    cm.apply(GameEnd(20.0, B, 1))
    before = cm.snapshot(21.0)
    cm.apply(MatchLength(21.0, 13))
    after = cm.snapshot(22.0)
    assert cm.match.length == 13
    assert after.breaks_left == {A: breaks_due(13), B: breaks_due(13)} == {A: 2, B: 2}
    assert after.banks == before.banks


def test_4_8_a_length_correction_during_a_game_is_refused() -> None:
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    with pytest.raises(IllegalAction) as caught:
        cm.apply(MatchLength(5.0, 9))
    assert code_of(caught) == "length_in_game"
    assert str(caught.value) == (
        "the match length is corrected before the next game, not during one (4.8)"
    )
    assert cm.match.length == 7 and cm.clock.running == A


def test_4_8_a_length_correction_a_score_already_reaches_is_refused() -> None:
    m = Match((A, B), 7, {A: 5, B: 2})
    for length in (5, 3):
        with pytest.raises(IllegalAction) as caught:
            m.correct_length(length)
        assert code_of(caught) == "length_would_end"
    m.correct_length(6)  # 5 of 6: the match goes on
    assert m.length == 6 and m.crawford_next()


def test_4_8_a_shorter_length_that_penalty_points_would_win_is_refused() -> None:
    m = Match((A, B), 11)
    m.award_penalty(B, 3)  # 3 of 11: not more than half
    with pytest.raises(IllegalAction) as caught:
        m.correct_length(5)  # 3 of 5 would be: the correction would end the match
    assert code_of(caught) == "length_would_end"
    assert m.length == 11 and m.winner is None


def test_4_8_a_match_completed_at_a_wrong_length_stands() -> None:
    m = Match((A, B), 3, {A: 2})
    m.start_game()
    m.record_game(A, 1)
    with pytest.raises(IllegalAction) as caught:
        m.correct_length(7)
    assert code_of(caught) == "match_over"


def test_4_8_post_crawford_follows_a_longer_length() -> None:
    m = Match((A, B), 7, {A: 6, B: 2}, post_crawford=True)
    m.correct_length(9)  # nobody one away in a 9-point match: no Crawford game played
    assert not m.post_crawford
    m.correct_score({A: 8, B: 2})
    assert m.crawford_next()


# -- 2.2, 2.3, 3.5 (vi): a clock introduced in the middle of a match ---------------------


def test_2_3_a_clock_introduced_mid_match_keeps_the_breaks_already_taken() -> None:
    cm = clocked(13, score=(4, 6), breaks_taken=(2, 1))
    snap = cm.snapshot(0.0)
    assert snap.breaks_left == {A: 0, B: 1}
    with pytest.raises(IllegalAction) as caught:
        cm.apply(Break(1.0, A))
    assert code_of(caught) == "no_break_left"


def test_2_3_penalty_points_given_before_the_clock_count_towards_more_than_half() -> None:
    cm = clocked(11, score=(3, 5), penalty_points=(0, 2))
    cm.apply(Late(0.0, A, 20.0))  # 4 more to Eleni: 6 penalty points of 11
    assert (cm.match.winner, cm.match.won_by) == (B, "penalty")
    without = clocked(11, score=(3, 5))
    without.apply(Late(0.0, A, 20.0))
    assert without.match.winner is None  # the old reading forgot the first two


def test_2_3_the_header_fields_round_trip_and_are_checked() -> None:
    header = ClockHeader((A, B), 11, (3, 5), breaks_taken=(1, 0), penalty_points=(0, 2))
    text = write_clock_record(header, [CorrectScore(1.0, {A: 3, B: 6}), MatchLength(2.0, 13)])
    first = text.splitlines()[0]
    assert '"breaks_taken": [1, 0]' in first and '"penalty_points": [0, 2]' in first
    assert '{"t": 1.0, "event": "correct_score", "score": {"Nikos": 3, "Eleni": 6}}' in text
    record = parse_clock_record(text)
    assert record.header == header
    assert [e for _, e in record.events] == [
        CorrectScore(1.0, {A: 3, B: 6}),
        MatchLength(2.0, 13),
    ]
    by_name = parse_clock_record(
        '{"event": "clock", "players": ["Nikos", "Eleni"], "match_length": 11, '
        '"score": [3, 5], "breaks_taken": {"Eleni": 0, "Nikos": 1}}\n'
    )
    assert by_name.header.breaks_taken == (1, 0)
    for bad in ('"breaks_taken": [1]', '"penalty_points": [0, -1]', '"breaks_taken": {"X": 1}'):
        with pytest.raises(ClockRecordError) as err:
            parse_clock_record(
                f'{{"event": "clock", "players": ["Nikos", "Eleni"], "match_length": 11, {bad}}}'
            )
        assert err.value.line == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"score": (1, 0), "penalty_points": (2, 0)}, "penalty_in_score"),
        ({"score": (5, 0), "penalty_points": (4, 0)}, "penalty_already_won"),
        ({"score": (1, 0), "breaks_taken": (0, 2)}, "breaks_taken_range"),
    ],
)
def test_2_3_a_header_the_match_cannot_have_is_refused_on_line_1(
    fields: dict[str, Any], code: str
) -> None:
    with pytest.raises(ClockRecordError) as err:
        clocked(7, **fields)
    assert err.value.line == 1
    with pytest.raises(IllegalAction) as caught:
        a, b = fields["score"]
        pa, pb = fields.get("penalty_points", (0, 0))
        ta, tb = fields.get("breaks_taken", (0, 0))
        Match((A, B), 7, {A: a, B: b}, penalty={A: pa, B: pb}, breaks_taken={A: ta, B: tb})
    assert code_of(caught) == code


# -- 3.5 (v): the director divides the match time into two legs --------------------------


def test_3_5_v_two_legs_split_the_match_time() -> None:
    # A 7-point match: 14 minutes each in all, of which 4 are held back for the second leg.
    cm = clocked(7, delay=0.0, second_leg=240.0)
    assert cm.snapshot(0.0).banks == {A: 600.0, B: 600.0}
    cm.apply(Start(0.0, A))
    assert cm.snapshot(600.0).banks[A] == 240.0 and cm.clock.on_second_leg(A)
    cm.apply(Press(700.0, A))
    assert cm.snapshot(700.0).banks[A] == 140.0
    # Nikos's whole match time was 840 s: the flag falls when it is all spent.
    cm.apply(Press(701.0, B))
    assert cm.snapshot(841.0).flagged == A
    assert cm.clock.spent[A] == 840.0


def test_3_5_v_a_second_leg_as_long_as_the_match_time_is_refused() -> None:
    with pytest.raises(ClockRecordError) as err:
        clocked(1, minutes_per_point=0.5, second_leg=30.0)
    assert err.value.line == 1 and "less than each player's match time" in err.value.reason


# -- 2.2 (ii), (v): breaks only between games; an absence is a break ---------------------


def test_2_2_ii_a_break_before_the_first_game_is_refused() -> None:
    m = Match((A, B), 7)
    with pytest.raises(IllegalAction) as caught:
        m.take_break(A)
    assert code_of(caught) == "break_before_first_game"
    assert caught.value.reason is not None and caught.value.reason.law == "2.2 (ii)"
    assert m.breaks_left(A) == 1
    m.late_start(B, 5)  # a penalty point before the first game is not a game
    with pytest.raises(IllegalAction):
        m.take_break(A)
    m.start_game()
    m.record_game(A, 1)
    m.take_break(A)
    assert m.breaks_left(A) == 0


def test_2_2_ii_a_clock_introduced_mid_match_is_between_games() -> None:
    m = Match((A, B), 7, {A: 1, B: 0})
    assert m.take_break(B) == "break"


def test_2_2_ii_an_absence_during_a_game_uses_a_break_while_one_is_left() -> None:
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    cm.apply(Break(5.0, B, emergency=True))  # leaving the table is a break
    assert cm.snapshot(6.0).breaks_left == {A: 1, B: 0}
    assert cm.match.emergencies[B] == 0
    assert cm.clock.paused == A  # the clock stops for it


def test_2_2_v_only_beyond_the_allowance_is_an_absence_an_emergency_break() -> None:
    m = Match((A, B), 7)
    m.start_game()
    assert m.take_break(B, emergency=True) == "break"
    assert m.take_break(B, emergency=True) == "emergency"
    assert (m.breaks_left(B), m.emergencies[B]) == (0, 1)
    with pytest.raises(IllegalAction) as caught:
        m.take_break(A)  # not an emergency: not during a game
    assert code_of(caught) == "break_in_game"


# -- 4.4 (vii), 2.2 (ii): the dead cube; long matches ------------------------------------


def test_4_4_vii_only_a_cube_the_player_holds_is_dead() -> None:
    m = Match((A, B), 7, {A: 6, B: 3}, post_crawford=True)
    m.start_game()
    assert m.double_refusal(A) is None  # centred: 1 would win, but it is not his cube
    m.double(A)
    m.take(B)
    m.double(B)
    m.take(A)  # Nikos holds 4, and needs 1: dead for him
    refusal = m.double_refusal(A)
    assert refusal is not None and refusal.code == "dead_cube" and refusal.law == "4.4 (vii)"


@pytest.mark.parametrize("length", [25, 27, 31, 51])
def test_2_2_ii_matches_of_25_points_and_above(length: int) -> None:
    cm = clocked(length, score=(length - 2, 0))
    assert cm.match.length == length and cm.snapshot(0.0).breaks_left == {A: 4, B: 4}
    assert cm.snapshot(0.0).banks[A] == (length + 2) / 2 * 120  # 3.5 (vi)


# -- properties --------------------------------------------------------------------------

EVENTS = st.lists(
    st.tuples(
        st.integers(0, 600),
        st.one_of(
            st.builds(Start, st.just(0.0), st.sampled_from((A, B))),
            st.builds(Press, st.just(0.0), st.sampled_from((A, B))),
            st.builds(GameEnd, st.just(0.0), st.sampled_from((A, B)), st.sampled_from((1, 2, 4))),
            st.builds(Break, st.just(0.0), st.sampled_from((A, B)), st.booleans()),
            st.builds(Penalty, st.just(0.0), st.sampled_from((A, B)), st.integers(1, 2)),
            st.builds(
                CorrectScore,
                st.just(0.0),
                st.fixed_dictionaries({A: st.integers(0, 12), B: st.integers(0, 12)}),
            ),
            st.builds(MatchLength, st.just(0.0), st.integers(1, 31)),
        ),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 31),
    st.sampled_from((None, 5.0, 60.0)),
    EVENTS,
)
def test_property_banks_breaks_and_scores_stay_sound(
    length: int, leg: float | None, drawn: list[tuple[int, Any]]
) -> None:
    """Whatever the director corrects, no bank goes negative, no allowance below zero, no
    score below the penalty points it includes, and the match ends only as the rules say."""
    cm = clocked(length, delay=2.0, second_leg=leg)  # 120 s a point: the leg fits
    t = 0.0
    for gap, event in drawn:
        t += gap / 8
        with contextlib.suppress(IllegalAction):  # a refusal changes nothing
            cm.apply(dataclasses.replace(event, t=t))
        snap = cm.snapshot(t)
        assert all(b >= 0 for b in snap.banks.values())
        assert all(n >= 0 for n in snap.breaks_left.values())
        m = cm.match
        assert all(m.score[p] >= m.penalty[p] >= 0 for p in (A, B))
        if m.post_crawford and not m.over:
            assert any(m.needs(p) == 1 for p in (A, B))
        if not m.over:
            assert all(m.score[p] < m.length for p in (A, B))
            assert all(m.penalty[p] * 2 <= m.length for p in (A, B))


def test_replay_of_the_new_events_names_the_refused_line() -> None:
    text = (
        '{"event": "clock", "players": ["Nikos", "Eleni"], "match_length": 7}\n'
        '{"t": 0, "event": "start", "player": "Nikos"}\n'
        '{"t": 1, "event": "correct_score", "score": {"Nikos": 1, "Eleni": 0}}\n'
        '{"t": 2, "event": "match_length", "length": 9}\n'
    )
    with pytest.raises(ClockRecordError) as err:
        replay_clock(parse_clock_record(text))
    assert err.value.line == 4


@pytest.mark.parametrize("running", [A, B])
def test_2_2_v_an_emergency_break_stops_both_clocks_the_running_one_starts_again(
    running: str,
) -> None:
    """RULES.md, rulings of 2026-12-01: nobody's time runs during a break, an emergency one
    (2.2 (v), beyond the allowance) included; the clock that ran starts again after it."""
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    if running == B:
        cm.apply(Press(2.0, A))
    cm.apply(Break(5.0, B, emergency=True))  # the allowance: a break
    cm.apply(Resume(6.0))
    cm.apply(Break(10.0, B, emergency=True))  # beyond it: an emergency
    assert cm.match.emergencies[B] == 1
    before = cm.snapshot(10.0)
    during = cm.snapshot(10.0 + 900.0)  # a quarter of an hour away
    assert during.running is None and cm.clock.paused == running
    assert during.banks == before.banks and during.delay_left == before.delay_left
    cm.apply(Resume(910.0))
    after = cm.snapshot(910.0 + 30.0)
    assert after.running == running
    other = B if running == A else A
    assert after.banks[other] == before.banks[other]
