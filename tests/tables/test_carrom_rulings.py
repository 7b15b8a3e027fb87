"""The carrom console's words for the core's rulings (kiosk/ui/carrom_rulings.py) and the
core's answer before a call is made (kiosk/tables/carrom_preview.py), without a window."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.errors import Reason
from kiosk.rules.carrom.calls import CALLS
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    Concede,
    ForfeitBoard,
    Foul,
    MatchStart,
    Protest,
    ProtestDecided,
    Stroke,
    VoidBoard,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.record import MatchRecordError, parse_record, replay_text
from kiosk.tables.carrom_preview import foul_law, preview
from kiosk.tables.fusion import PocketView, Proposal
from kiosk.ui.carrom_rulings import (
    RulingLog,
    capital,
    consequence,
    fix_colour,
    pocket_words,
    protest_words,
    result_words,
    word_call,
)
from kiosk.ui.i18n import Translator
from kiosk.ui.words import reason_words

DATA = Path(__file__).resolve().parents[1] / "data" / "carrom"


def _words(language: str) -> Translator:
    words = Translator("en")
    words.language = language
    return words


def _match(rules: str = "icf") -> Match:
    return Match(MatchStart(players=("Κώστας", "Rajesh"), first_break="Κώστας", rules=rules))


def _scenario_calls() -> list[Reason]:
    """Every call the core makes while replaying the known-answer records, event by event."""
    found: list[Reason] = []
    for path in sorted(DATA.glob("*.jsonl")):
        try:
            events = parse_record(path.read_text("utf-8"))
        except MatchRecordError:
            continue
        start = events[0]
        assert isinstance(start, MatchStart)
        match = Match(start)
        for event in events[1:]:
            try:
                match.push(event)  # type: ignore[arg-type]
            except IllegalEvent:
                break
            found.extend(match.state.calls)
    return found


def test_every_call_is_a_catalogue_message_with_its_law_beside_it() -> None:
    calls = _scenario_calls()
    codes = {call.code for call in calls}
    assert len(codes) > 40  # the records reach most of the rulings
    greek = _words("el")
    for call in calls:
        assert call.message == CALLS[call.code], call
        assert call.law or call.code == "passes", f"{call.code} is called without a law"
        said = reason_words(call, greek._)
        assert said != call.english(), f"{call.code} is not worded in Greek: {said!r}"
        assert word_call(call, greek._).startswith(capital(said))


def test_a_call_is_worded_in_hindi_with_its_law_lettered_as_the_hindi_text() -> None:
    match = _match()
    match.push(Stroke())  # Κώστας's break: nothing
    match.push(Stroke(pocketed=("black",), striker=True))  # Rajesh: own coin and striker
    (call,) = match.state.calls
    assert (call.code, call.law) == ("own_coin_with_striker", "73")
    match.push(Stroke(pocketed=("black",)))
    match.push(Stroke(striker=True))  # striker alone: 72 a
    hindi = word_call(match.state.calls[0], _words("hi")._)
    assert "72 (अ)" in hindi and "striker" not in hindi


def test_law_73_striker_with_own_coin_is_worded_with_its_law() -> None:
    match = _match()
    match.push(Stroke())  # Κώστας's break: nothing
    match.push(Stroke(pocketed=("black",), striker=True))  # Rajesh: own coin and striker
    words = [word_call(c) for c in match.state.calls]
    assert "Own coin with the striker: it goes back with one due, turn goes on (law 73)" in words


def test_law_63_and_64_the_foul_picker_asks_the_core() -> None:
    match = _match()
    # Before the first stroke of a turn a foul is technical (63 a); a player not at turn: 63 b.
    assert foul_law(preview(match, Foul(by="Κώστας")).calls) == "63 a"
    assert foul_law(preview(match, Foul(by="Rajesh")).calls) == "63 b"
    match.push(Stroke(pocketed=("white",)))  # Κώστας breaks and pockets: his turn goes on
    assert foul_law(preview(match, Foul(by="Κώστας")).calls) == "64 a"
    assert len(match.events) == 1  # push, look, pop: nothing stays


def test_law_139_concede_consequence_names_the_winner() -> None:
    match = _match()
    seen = preview(match, Concede(by="Κώστας"))
    assert consequence("concede", "Κώστας", seen) == (
        "Κώστας concedes the match: Rajesh wins, games 0-0 (laws 139, 143)"
    )
    assert match.state.winner is None and not match.events


def test_law_51_forfeit_and_law_140_void_consequences() -> None:
    match = _match()
    match.push(Stroke(pocketed=("white",)))
    forfeit = consequence("forfeit_board", "Rajesh", preview(match, ForfeitBoard(by="Rajesh")))
    assert forfeit.startswith("Rajesh loses the board: Κώστας wins it with ")
    assert forfeit.endswith("(law 51)")
    void = consequence("void_board", "", preview(match, VoidBoard()))
    assert "Κώστας breaks it again" in void
    assert preview(_match(), VoidBoard()).refused  # no board in progress: refused, not asked


def test_the_log_says_what_undo_took_back() -> None:
    match, log = _match(), RulingLog()
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    match.push(Foul())
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    assert log.words()[-1].startswith("Technical foul on Κώστας")
    match.pop()
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    assert log.words()[-1] == "Undone: foul on Κώστας"
    log.dues_placed("Rajesh", 1)
    assert log.words()[-1] == (
        "Dues placed: 1 coin(s) by Rajesh; the next stroke within 15 s (law 50)"
    )


def test_the_proposal_reads_pocket_by_pocket_and_a_tap_sets_a_colour() -> None:
    proposal = Proposal(
        pocketed=("white", "white"),
        source="beams+camera",
        pockets=(PocketView(1, 1, ("white",)), PocketView(2, 0, ()), PocketView(3, 1, ())),
    )
    assert [w for _p, w, _m in pocket_words(proposal)] == [
        "Pocket 1: white",
        "Pocket 3: colour not seen",
    ]
    assert fix_colour(proposal, "black") == ["white", "black"]


@pytest.mark.parametrize("event", [Foul(by="Κώστας"), VoidBoard()])
def test_a_refused_preview_leaves_the_match_as_it_was(event: object) -> None:
    match = _match()
    before = [event_to_dict(e) for e in match.events]
    preview(match, event)  # type: ignore[arg-type]
    assert [event_to_dict(e) for e in match.events] == before


def test_law_151_a_upholding_a_protest_says_what_is_set_aside() -> None:
    match = _match()
    match.push(Stroke(pocketed=("white",)))  # Κώστας breaks board 1
    match.push(Protest(by="Rajesh", board=(1, 1)))
    match.push(Stroke(pocketed=("white",)))
    seen = preview(match, ProtestDecided(board=(1, 1), upheld=True))
    assert consequence("uphold_protest", "", seen) == (
        "The protest is upheld: 1 board(s) set aside, the scores worked out again without "
        "them; Κώστας breaks board 1 of game 1 again (law 151 a)"
    )
    assert len(match.events) == 3  # previewed, not made
    log = RulingLog()
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    match.push(ProtestDecided(board=(1, 1), upheld=True))
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    assert log.words()[-1] == (
        "The protest against board 1 of game 1 is upheld: 1 board(s) set aside; the same "
        "breaker plays it again (law 151 a)"
    )
    match.pop()
    log.follow(1, match.events, match.state.calls, match.state.now.turn)
    assert log.words()[-1] == "Undone: the decision on the protest against board 1 of game 1"


def test_law_56_a_and_139_a_game_and_a_matchs_ending_reason_is_worded_in_gujarati() -> None:
    match = replay_text((DATA / "icf_law_58_change_sides_after_a_game.jsonl").read_text("utf-8"))
    events = match.events
    game_end = None
    fresh = Match(match.start)
    for event in events:
        fresh.push(event)
        if fresh.outcome().game is not None:
            game_end = fresh.outcome().game
    assert game_end is not None and game_end.reason == "25 points"
    gujarati = _words("gu")
    assert gujarati._(game_end.reason) == "25 પોઇન્ટ"
    conceded = preview(fresh, Concede(by=fresh.state.players[0])).outcome
    assert conceded is not None and conceded.match is not None
    assert gujarati._(conceded.match.reason) == "હાર સ્વીકારી"


def test_law_151_c_a_waiting_protest_shows_the_minutes_left_of_the_hour() -> None:
    match = _match()
    match.push(Stroke(pocketed=("white",), t=10.0))
    match.push(Protest(by="Rajesh", board=(1, 1), t=100.0))
    (waiting,) = match.state.protests
    assert protest_words(waiting, t=100.0 + 25 * 60 + 30) == (
        "Protest by Rajesh against board 1 of game 1: waiting, 35 min left of the hour (law 151 c)"
    )
    assert protest_words(waiting, t=100.0 + 2 * 3600).endswith("0 min left of the hour (law 151 c)")
    hindi = protest_words(waiting, t=100.0, _=_words("hi")._)
    assert "60" in hindi and "151 (इ)" in hindi and "Protest" not in hindi
    match.push(ProtestDecided(board=(1, 1), upheld=False))
    assert protest_words(match.state.protests[0], t=None) == (
        "Protest by Rajesh against board 1 of game 1: rejected, the result stands (law 151 b)"
    )


def test_law_150_the_result_line_says_under_protest_until_it_is_decided() -> None:
    record = DATA / "icf_law_150_protest_pending_no_result.jsonl"
    state = replay_text(record.read_text("utf-8")).state
    assert result_words(state) == (
        "Asha won on the board: under protest, no result is declared (law 150)"
    )
    assert result_words(_match().state) is None
    greek = result_words(state, _words("el")._)
    assert greek is not None and "Asha" in greek and "150" in greek and "protest" not in greek
