"""The backgammon clock table: presses journaled, flag fall buzzed, resume after a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.clocks.patterns import LONG_BUZZ
from kiosk.clocks.record import parse_clock_record
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.parts.display_frames import clock_frame
from kiosk.rules.backgammon.clocked import replay_clock
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.tables.backgammon_table import BackgammonTable, export_clock_record
from kiosk.tables.commands import Command, NotAllowed
from kiosk.tables.unfinished import unfinished_tables
from tests.refusals import raises_code

PLAYERS = ("Nikos", "Eleni")


def table(path: Path, clock: FakeClock, wall: FakeClock, out: MemoryOutput) -> BackgammonTable:
    return BackgammonTable(Journal(path), clock=clock, wall=wall, outputs=[out])


def test_clock_table_rule_3_5_bank_and_simple_delay(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    view = t.view()
    assert view.snapshot.banks == {"Nikos": 840.0, "Eleni": 840.0}  # (7+7)/2 x 2 min
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(20)
    wall.advance(20)
    t.press("Nikos", role=Role.PLAYER)  # 12 s delay, then 8 s of bank
    view = t.view()
    assert view.snapshot.banks["Nikos"] == pytest.approx(832.0)
    assert view.running == "Eleni"
    assert out.views == 3 and out.view == view  # start_match, start, press
    clock.advance(5)
    assert t.view().face.sides[1].delay == "7.0"


def test_clock_table_rule_4_3_iii_flag_fall_buzzes_and_loses_the_match(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 1, minutes_per_point=0.5, delay=0, role=Role.UMPIRE)  # 30 s banks
    t.start("Nikos", role=Role.PLAYER)
    deadline = t.next_deadline()
    assert deadline == pytest.approx(clock.now + 30.0)
    clock.advance(29.9)
    t.poll()
    assert out.sounds == []
    clock.advance(0.2)
    view = t.poll()
    assert view is not None and view.flagged == "Nikos" and view.winner == "Eleni"
    assert out.sounds == [LONG_BUZZ]
    t.poll()
    assert out.sounds == [LONG_BUZZ]  # once
    assert [e.kind for e in t.journal.entries(t.match_id or 0) if e.kind == "flag"] == ["flag"]


def test_clock_table_refused_press_changes_nothing_and_is_not_journaled(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 5, role=Role.UMPIRE)
    with pytest.raises(IllegalAction):
        t.pause(role=Role.PLAYER)  # nothing runs
    with pytest.raises(IllegalAction):
        t.start("Zoe", role=Role.PLAYER)
    assert t.events == []
    assert t.journal.confirmed(t.match_id or 0) == []


def test_clock_table_export_is_the_clock_record_and_replays_to_the_same_banks(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 3, score=(1, 0), role=Role.UMPIRE)
    t.start("Eleni", role=Role.PLAYER)
    for who in ("Eleni", "Nikos", "Eleni", "Nikos"):
        clock.advance(17.25)
        t.press(who, role=Role.PLAYER)
    clock.advance(3)
    t.game_end("Nikos", 2, role=Role.PLAYER)
    text = export_clock_record(t.journal)
    record = parse_clock_record(text)
    assert record.header.players == PLAYERS and record.header.score == (1, 0)
    final = replay_clock(record)[-1]
    assert final.banks == pytest.approx(t.view().snapshot.banks)
    assert final.winner == "Nikos"


def test_clock_table_resumes_after_restart_paused_for_the_director(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "j.db"
    t = table(path, clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(30)
    wall.advance(30)
    t.press("Nikos", role=Role.PLAYER)
    clock.advance(4)
    wall.advance(4)
    t.journal.close()  # the kiosk stops here, Eleni's side running
    wall.advance(60)
    clock.reboot(5.0)  # a new boot: the monotonic clock started again
    again = table(path, clock, wall, MemoryOutput())
    assert again.has_unfinished()
    view = again.resume()
    assert view is not None
    assert view.running is None and view.paused
    assert view.snapshot.banks["Nikos"] == pytest.approx(840 - 18)
    # The downtime ran on Eleni's side until the restart: 4 + 60 s, less her 12 s delay.
    assert view.snapshot.banks["Eleni"] == pytest.approx(840 - 52)
    again.resume_clock(role=Role.PLAYER)
    clock.advance(1)
    again.press("Eleni", role=Role.PLAYER)
    assert again.view().running == "Nikos"
    assert [e.source for e in again.journal.entries(again.match_id or 0)][-3:] == [
        "system",
        "player",  # no umpire at a backgammon table: the players run their clock
        "player",
    ]


def test_clock_table_flag_round_trip_export_then_replay_keeps_flag_and_winner(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.cli import main

    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 1, minutes_per_point=0.5, delay=2, role=Role.UMPIRE)  # 30 s banks
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(5)
    t.press("Nikos", role=Role.PLAYER)
    clock.advance(100)  # Eleni's flag falls at 37 s; nothing is pressed after it
    view = t.poll()
    assert view is not None and view.flagged == "Eleni"
    t.journal.close()
    out = tmp_path / "clock.jsonl"
    assert main(["export", str(tmp_path / "j.db"), "--clock", "-o", str(out)]) == 0
    assert main(["clock", "replay", str(out), "--json"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (last["flagged"], last["winner"]) == ("Eleni", "Nikos")
    assert last["t"] == 37.0 and last["banks"] == {"Nikos": 27.0, "Eleni": 0.0}


def test_clock_table_flag_before_a_press_is_recorded_before_it(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 3, minutes_per_point=0.1, delay=2, role=Role.UMPIRE)  # 18 s banks
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(1)
    t.press("Nikos", role=Role.PLAYER)
    clock.advance(40)  # no poll: the director overrules straight away
    t.overrule("Eleni", role=Role.DIRECTOR)
    view = t.view()
    assert (view.winner, view.flagged) == ("Eleni", "Eleni")
    assert out.sounds == [LONG_BUZZ]
    record = parse_clock_record(export_clock_record(t.journal))
    names = [type(e).__name__ for _, e in record.events]
    assert names == ["Start", "Press", "Query", "Overrule"]
    final = replay_clock(record)[-1]
    assert (final.winner, final.flagged) == ("Eleni", "Eleni")


def test_clock_table_every_new_event_is_journaled_and_exported(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 13, second_leg=60, best_of_three=False, role=Role.UMPIRE)
    t.late("Nikos", 11, role=Role.DIRECTOR)  # 2.2 (iv): two points to Eleni
    assert t.view().snapshot.score == {"Nikos": 0, "Eleni": 2}
    t.start("Eleni", role=Role.PLAYER)
    clock.advance(3)
    t.early_pickup("Nikos", role=Role.DIRECTOR)
    clock.advance(3)
    t.press("Eleni", role=Role.PLAYER)
    assert t.view().must_wait == "Nikos"
    t.take_break(
        "Eleni", emergency=True, role=Role.DIRECTOR
    )  # 2.2 (v): during the game, the clock stops
    t.resume_clock(role=Role.PLAYER)
    clock.advance(20)
    t.adjust("Nikos", 500, role=Role.DIRECTOR)
    t.penalty("Nikos", 1, role=Role.DIRECTOR)
    t.game_end("Nikos", 2, role=Role.PLAYER)
    t.take_break("Nikos", role=Role.DIRECTOR)
    assert t.view().breaks_left == (1, 1)  # Eleni's absence used one of hers (2.2 (ii))
    text = export_clock_record(t.journal)
    kinds = [json.loads(line)["event"] for line in text.splitlines()]
    assert kinds == [
        "clock", "late", "start", "early_pickup", "press", "break", "resume", "adjust",
        "penalty", "game_end", "break",
    ]  # fmt: skip
    assert json.loads(text.splitlines()[0])["second_leg"] == 60
    final = replay_clock(parse_clock_record(text))[-1]
    assert final.to_json() == t.view().snapshot.to_json()


def test_clock_table_resume_names_the_line_a_journal_no_longer_replays_on(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "j.db"
    t = table(path, clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    match_id = t.match_id or 0
    # An event an older kiosk accepted and these rules refuse (no cube gives 5 points).
    t.journal.append(match_id, 9.0, wall(), "umpire", "event",
                     {"t": 9.0, "event": "game_end", "winner": "Nikos", "points": 5})  # fmt: skip
    t.journal.close()
    again = table(path, clock, wall, MemoryOutput())
    with raises_code(IllegalAction, "clock_not_resumed") as refused:
        again.resume()
    facts = dict(refused.value.reason.facts)  # the screen words it: where, and the rules' why
    assert facts["line"] == 3 and facts["path"] == str(path)
    assert "cannot be resumed: its clock record's line 3: 5 p" in str(refused.value)
    assert again.has_unfinished()  # nothing lost: the journal keeps the match


def test_clock_table_4_7_correct_score_is_the_directors_journaled_and_replayed(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    t.game_end("Eleni", 2, role=Role.PLAYER)
    # 4.7: a scoring error is corrected as soon as found, even one both players agreed to.
    t.send(Command.of("correct_score", Role.DIRECTOR, score={"Nikos": 2, "Eleni": 0}))
    assert t.view().snapshot.score == {"Nikos": 2, "Eleni": 0}
    with pytest.raises(NotAllowed):  # a player may not correct the score
        t.send(Command.of("correct_score", Role.PLAYER, score={"Nikos": 0, "Eleni": 2}))
    with pytest.raises(IllegalAction) as refused:
        t.correct_score({"Nikos": 7, "Eleni": 7}, role=Role.DIRECTOR)
    assert refused.value.reason is not None and refused.value.reason.code == "score_both_reach"
    entries = [e for e in t.journal.entries(t.match_id) if e.kind == "event"]
    assert (entries[-1].source, entries[-1].data["event"]) == ("director", "correct_score")
    text = export_clock_record(t.journal)
    assert json.loads(text.splitlines()[-1])["score"] == {"Nikos": 2, "Eleni": 0}
    assert replay_clock(parse_clock_record(text))[-1].score == {"Nikos": 2, "Eleni": 0}
    # A corrected score that reaches the length ends the match (4.7).
    t.correct_score({"Nikos": 7, "Eleni": 0}, role=Role.DIRECTOR)
    assert t.view().winner == "Nikos"


def test_clock_table_4_8_correct_length_between_games_and_the_view_follows_it(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 5, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    with pytest.raises(IllegalAction) as refused:  # 4.8: before the next game, not during
        t.correct_length(7, role=Role.DIRECTOR)
    assert refused.value.reason is not None and refused.value.reason.code == "length_in_game"
    t.game_end("Nikos", 4, role=Role.PLAYER)
    with pytest.raises(IllegalAction) as refused:  # 4 of 3 would end the match
        t.correct_length(3, role=Role.DIRECTOR)
    assert refused.value.reason is not None and refused.value.reason.code == "length_would_end"
    t.send(Command.of("correct_length", Role.DIRECTOR, length=7))
    view = t.view()
    assert view.match_length == 7 and view.match is not None and view.match.length == 7
    assert clock_frame(view).message == "TO 7"  # the player display, not the header's 5
    assert not view.crawford  # 4 of 7: nobody one point away any more
    data = [e.data for e in t.journal.entries(t.match_id) if e.kind == "event"]
    assert data[-1]["event"] == "match_length" and data[-1]["length"] == 7
    with pytest.raises(NotAllowed):
        t.send(Command.of("correct_length", Role.PLAYER, length=9))


def test_clock_table_2_2_ii_2_3_mid_match_header_and_breaks_counted(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 13, (3, 4), breaks_taken=(1, 0), penalty_points=(0, 2), role=Role.UMPIRE)
    header = json.loads(export_clock_record(t.journal).splitlines()[0])
    assert header["breaks_taken"] == [1, 0] and header["penalty_points"] == [0, 2]
    assert t.view().breaks_left == (1, 2)
    # 2.2 (iv): 2 penalty points before the clock and 5 more are 7, over half of 13.
    t.penalty("Eleni", 5, role=Role.DIRECTOR)
    assert t.view().winner == "Eleni" and t.view().match is not None
    assert t.view().match.won_by == "penalty"


def test_clock_table_2_2_iv_mid_match_header_refused_with_the_rules_reason(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    with pytest.raises(IllegalAction) as refused:  # the penalty points are in the score
        t.start_match(PLAYERS, 7, (1, 0), penalty_points=(2, 0), role=Role.UMPIRE)
    assert refused.value.reason is not None and refused.value.reason.code == "penalty_in_score"
    with pytest.raises(IllegalAction) as refused:  # one break in a 7-point match
        t.start_match(PLAYERS, 7, breaks_taken=(2, 0), role=Role.UMPIRE)
    assert refused.value.reason is not None and refused.value.reason.law == "2.2 (ii)"
    assert t.match_id is None and t.journal.latest("backgammon") is None


def test_clock_table_2_2_ii_v_take_break_says_how_the_absence_counted(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)  # one break each
    with pytest.raises(IllegalAction) as refused:  # 2.2 (ii): only between games
        t.take_break("Nikos", role=Role.DIRECTOR)
    assert refused.value.reason is not None
    assert refused.value.reason.code == "break_before_first_game"
    t.start("Nikos", role=Role.PLAYER)
    assert (
        t.take_break("Eleni", emergency=True, role=Role.DIRECTOR) == "break"
    )  # 2.2 (ii): leaving is a break
    assert (
        t.take_break("Eleni", emergency=True, role=Role.DIRECTOR) == "emergency"
    )  # 2.2 (v): none left


def test_clock_table_4_1_v_b_the_view_shows_an_early_pickup_before_its_turn(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    assert t.view().wait_next == (False, False)
    t.early_pickup("Eleni", role=Role.DIRECTOR)
    assert t.view().wait_next == (False, True) and t.view().must_wait is None
    t.press("Nikos", role=Role.PLAYER)
    assert t.view().wait_next == (False, False) and t.view().must_wait == "Eleni"


def test_clock_table_4_7_home_lists_the_corrected_score(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """The home screen's line of an unfinished match reads the core: the score as the
    director corrected it, not the games' points added up."""
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    t.game_end("Eleni", 2, role=Role.PLAYER)
    t.correct_score({"Nikos": 2, "Eleni": 0}, role=Role.DIRECTOR)
    (line,) = [u for u in unfinished_tables(t.journal) if u.kind == "backgammon"]
    assert (line.score, line.length, line.won_on_time) == ((2, 0), 7, None)


@pytest.mark.parametrize(
    ("length", "games"),
    [
        (1, []),  # a 1-point match: both one point away in its only game
        (3, [("Nikos", 2)]),
        (3, [("Nikos", 2), ("Eleni", 1)]),  # the game after the Crawford game
        (5, [("Nikos", 1), ("Eleni", 1)]),
        (5, [("Nikos", 4)]),
    ],
)
def test_clock_table_4_4_iv_console_display_and_replay_agree_on_the_crawford_game(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, length: int, games: list[tuple[str, int]]
) -> None:
    """A 1-point match said "Crawford game: no doubling" on the console
    while the replay said `crawford: false`. The view, the player display and the replayed
    record say the same, between games and in play."""
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, length, role=Role.UMPIRE)
    for winner, points in games:
        t.start(winner, role=Role.PLAYER)
        t.game_end(winner, points, role=Role.PLAYER)
    for _ in ("between games", "in play"):
        view = t.view()
        replayed = replay_clock(parse_clock_record(export_clock_record(t.journal)))[-1]
        assert view.crawford == replayed.crawford
        assert (clock_frame(view).message == "CRAWFORD") == view.crawford
        if view.running is None:
            t.start("Nikos", role=Role.PLAYER)
    if length == 1:
        assert t.view().crawford  # 4.4 (iv): the first game at one point away


def test_clock_table_2_2_iv_preview_of_lateness_is_the_cores_and_changes_nothing(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """The screen asks the table what a late arrival would give (2.2 (iv): a point at five
    minutes, one more each further five; more than half the length wins): the core answers
    on a copy, and the match, the journal and the view's version stay as they were."""
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 7, role=Role.UMPIRE)
    version, entries, views = t.version, len(t.journal.entries(t.match_id)), out.views
    ask = Command.of("late", Role.DIRECTOR, player="Nikos", minutes=10.0)
    after = t.preview(ask).match
    assert after is not None and after.penalty_of("Eleni") == 2 and after.winner is None
    late = t.preview(Command.of("late", Role.DIRECTOR, player="Nikos", minutes=20.0)).match
    assert late is not None and late.penalty_of("Eleni") == 4 and late.winner == "Eleni"
    assert t.view().match.penalty_of("Eleni") == 0 and t.view().winner is None
    assert (t.version, len(t.journal.entries(t.match_id)), out.views) == (version, entries, views)
    # What the core refuses comes back as its Reason; a press with no score to show, as one.
    refused = t.preview(Command.of("late", Role.DIRECTOR, player="Nikos", minutes=-1.0))
    assert refused.match is None and refused.refused is not None
    assert refused.refused.code == "late_negative"
    assert t.preview(Command.of("press", Role.PLAYER, player="Nikos")).refused.code == "no_preview"
