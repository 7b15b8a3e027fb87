"""The refusals that reached the screen in English: the backgammon doubling, the
Bhukhar scoresheet's checks and the carrom record's lines. Each keeps its English words byte
for byte (journals, `tableside replay`, logs) and gives its facts, worded by the interface in
the language switched to (kiosk/ui/words.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.rules.backgammon.match import IllegalAction, Match
from kiosk.rules.bhukhar.cards import parse_cards
from kiosk.rules.bhukhar.events import SessionError, start_from_dict
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    ScoreError,
    TotalsSheet,
    score_game,
)
from kiosk.rules.carrom.events import EventError, event_from_dict
from kiosk.rules.carrom.record import MatchRecordError, replay_text
from kiosk.ui.i18n import Translator
from kiosk.ui.words import english, error_words, reason_words

A, B = "Nikos", "Eleni"


def _words(language: str) -> Translator:
    """A translator switched to `language` after starting in English, as the settings do."""
    words = Translator("en")
    words.language = language
    return words


def _double_refused(m: Match, player: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        m.double(player)
    return caught.value


def test_rule_4_4_iv_no_double_in_the_crawford_game_worded_in_greek() -> None:
    m = Match((A, B), 5, {A: 4, B: 0})
    m.start_game()
    refused = _double_refused(m, B)
    assert str(refused) == f"{B} may not double: no cube in the Crawford game (4.4 (iv))"
    assert refused.reason is not None and refused.reason.code == "double_crawford"
    said = reason_words(refused.reason, _words("el")._)
    assert said == (
        f"ο {B} δεν μπορεί να διπλασιάσει: στην παρτίδα Crawford δεν χρησιμοποιείται ο κύβος "
        "(4.4 (iv))"
    )
    assert m.double_refusal(B) == refused.reason


def test_rule_4_4_vii_dead_cube_worded_in_greek() -> None:
    m = Match((A, B), 5, {A: 3, B: 0})
    m.start_game()
    m.double(B)
    m.take(A)
    refused = _double_refused(m, A)
    assert (
        str(refused) == f"{A} may not double: dead cube: 2 already wins {A} the match (4.4 (vii))"
    )
    greek = reason_words(refused.reason, _words("el")._)  # type: ignore[arg-type]
    assert greek.startswith(f"ο {A} δεν μπορεί να διπλασιάσει: νεκρός κύβος: το 2")
    assert "(4.4 (vii))" in greek


def test_rule_4_4_ii_the_cube_owner_and_a_waiting_double_worded_in_greek() -> None:
    m = Match((A, B), 7)
    assert str(_double_refused(m, A)) == f"{A} may not double: no game is being played"
    m.start_game()
    m.double(A)
    waits = _double_refused(m, B)
    assert str(waits) == f"{B} may not double: a double by {A} waits for an answer"
    greek = _words("el")._
    assert reason_words(waits.reason, greek) == (  # type: ignore[arg-type]
        f"ο {B} δεν μπορεί να διπλασιάσει: ο διπλασιασμός του {A} περιμένει απάντηση"
    )
    m.take(B)
    owned = _double_refused(m, A)
    assert str(owned) == f"{A} may not double: the cube belongs to {B}"
    assert reason_words(owned.reason, greek) == (  # type: ignore[arg-type]
        f"ο {A} δεν μπορεί να διπλασιάσει: τον κύβο τον κατέχει ο {B}"
    )


def _score_refused(game: Game) -> ScoreError:
    with pytest.raises(ScoreError) as caught:
        score_game(game)
    return caught.value


def test_rule_12_totals_not_in_fives_worded_in_hindi() -> None:
    game = Game(
        {"A": TotalsSheet(licence=True, table=107, hand=0), "B": TotalsSheet(False, 0, 20)},
        End.STOCK,
    )
    refused = _score_refused(game)
    assert str(refused) == (
        "team A: table points 107 must be a non-negative multiple of 5 (rule 12: cards are "
        "worth 5 or 10)"
    )
    hindi = reason_words(refused.reason, _words("hi")._)  # type: ignore[arg-type]
    assert hindi == ("टीम A: टेबल अंक 107 शून्य या 5 के गुणज होने चाहिए (नियम 12: पत्तों का मूल्य 5 या 10 है)")


def test_rule_17_2_a_false_meld_inside_the_sheet_is_worded_in_hindi_and_gujarati() -> None:
    full = FullSheet(licence=(parse_cards(["5H", "6H", "8H"]),), hand=())
    game = Game({"A": full, "B": TotalsSheet(False, 0, 20)}, End.STOCK)
    refused = _score_refused(game)
    assert str(refused) == (
        "team A: licence 1: 5H 6H 8H: a sequence of one suit has a gap after 6H (rule 13.1); "
        "a false meld is entered under 'void' (rule 17.2)"
    )
    assert reason_words(refused.reason, english) == str(refused)  # type: ignore[arg-type]
    hindi = reason_words(refused.reason, _words("hi")._)  # type: ignore[arg-type]
    assert hindi == (
        "टीम A: लाइसेंस 1: 5H 6H 8H: एक रंग के सीक्वेंस में 6H के बाद खाली जगह है (नियम 13.1); "
        "गलत मेल्ड को 'रद्द' में दर्ज किया जाता है (नियम 17.2)"
    )
    gujarati = reason_words(refused.reason, _words("gu")._)  # type: ignore[arg-type]
    assert "6H પછી ખાલી જગ્યા છે (રુલ 13.1)" in gujarati and "(રુલ 17.2)" in gujarati


def test_rule_16_1_closing_before_the_bhukhar_worded_in_hindi() -> None:
    game = Game(
        {"A": TotalsSheet(True, 100, 0), "B": TotalsSheet(False, 0, 20)}, End.OUT, closed_by="A"
    )
    refused = _score_refused(game)
    assert str(refused) == (
        "nobody may close the game before a team has taken the bhukhar (rule 16.1)"
    )
    hindi = reason_words(refused.reason, _words("hi")._)  # type: ignore[arg-type]
    assert hindi == "किसी टीम के भुखार लेने से पहले कोई गेम बंद नहीं कर सकता (नियम 16.1)"


def test_a_record_line_refused_keeps_its_words_and_is_worded_in_hindi() -> None:
    with pytest.raises(EventError) as caught:
        event_from_dict({"event": "stroke", "striker": "yes"})
    assert str(caught.value) == "'striker' must be true or false, not 'yes'"
    hindi = reason_words(caught.value.reason, _words("hi")._)  # type: ignore[arg-type]
    assert hindi == "'striker' true या false होना चाहिए, 'yes' नहीं"


def test_a_match_record_names_its_line_and_is_worded_in_hindi() -> None:
    text = (
        '{"event": "match", "rules": "icf", "players": ["Asha", "Bina"], "first_break": "Asha"}\n'
        '{"event": "foul", "by": "Chitra"}\n'
    )
    with pytest.raises(MatchRecordError) as caught:
        replay_text(text)
    refused = caught.value
    assert str(refused) == "line 2: by 'Chitra' is not a player of this match (Asha, Bina)"
    assert refused.reason == "by 'Chitra' is not a player of this match (Asha, Bina)"
    assert refused.why is not None
    hindi = reason_words(refused.why, _words("hi")._)
    assert hindi == "by 'Chitra' इस मैच का खिलाड़ी नहीं है (Asha, Bina)"


def test_a_damaged_carrom_journal_on_home_is_worded_in_hindi(tmp_path: Path) -> None:
    from kiosk.engine.journal import EVENT, Journal
    from kiosk.tables.unfinished import unfinished_tables
    from kiosk.ui.words import said_words

    journal = Journal(tmp_path / "journal.db")
    header = {"event": "match", "rules": "icf", "players": ["Asha", "Bina"], "first_break": "Asha"}
    match_id = journal.begin_match("carrom", header, 0.0)
    journal.append(match_id, 1.0, 0.0, "umpire", EVENT, {"event": "foul", "by": "Chitra"})
    (table,) = unfinished_tables(journal)
    assert table.problem == "the foul's player 'Chitra' is not a player of this match (Asha, Bina)"
    hindi = said_words(table.problem, _words("hi")._)
    assert hindi == "फाउल करने वाला खिलाड़ी 'Chitra' इस मैच का खिलाड़ी नहीं है (Asha, Bina)"
    journal.close()


def test_an_error_shown_to_the_umpire_is_worded_by_its_reason_or_facts() -> None:
    """kiosk/ui/words.py error_words, which the home screen, the setups, the backgammon
    clock and the carrom calls show errors through: a refusal by its reason, anything else
    (an OS error's own words) as it is."""
    m = Match((A, B), 5, {A: 4, B: 0})
    m.start_game()
    refused = _double_refused(m, B)
    greek = _words("el")._
    assert error_words(refused, greek) == reason_words(refused.reason, greek) != str(refused)
    journal = OSError("[Errno 30] Read-only file system")
    assert error_words(journal, greek) == str(journal)


def test_rule_2_a_player_named_twice_at_the_bhukhar_setup_worded_in_gujarati() -> None:
    teams = [{"id": "A", "players": ["Ravi", "Mina", "Jay"]}]
    teams.append({"id": "B", "players": ["Ravi", "Sita", "Om"]})
    with pytest.raises(SessionError) as caught:
        start_from_dict({"event": "session", "teams": teams})
    assert str(caught.value) == "teams: a player is named twice: Ravi"  # the log's words
    assert error_words(caught.value, _words("gu")._) == "ટીમો: એક ખેલાડીનું નામ બે વાર છે: Ravi"


def test_a_tables_own_refusals_are_worded_in_each_language() -> None:
    """What a carrom view carries when the table itself refuses: no timer to restart (law
    121), an event the journal would not take (with the disk's cause), an error with no Reason
    of its own; each worded from its facts, never from English."""
    import errno

    from kiosk.clocks.countdown import ClockError
    from kiosk.clocks.turn import TurnTimers
    from kiosk.engine.journal_faults import cause
    from kiosk.errors import Reason
    from kiosk.tables.carrom_table import NOT_RECORDED
    from kiosk.tables.commands import refusal_of

    with pytest.raises(ClockError) as caught:
        TurnTimers().umpire_restart(0.0)
    no_timer = refusal_of(caught.value)
    assert reason_words(no_timer, _words("hi")._) == (
        "कोई टाइमर नहीं चल रहा: फिर से शुरू करने को कुछ नहीं (नियम 121)"
    )
    full = Reason.of("not_recorded", NOT_RECORDED, why=cause(OSError(errno.ENOSPC, "full")))
    assert reason_words(full, _words("el")._).startswith("Δεν καταγράφηκε: ")
    assert reason_words(full, english) == "Not recorded: the disk is full. Nothing was changed"
    plain = refusal_of(ValueError("'upheld' must be true or false"))
    assert plain.code == "refused"
    assert reason_words(plain, _words("gu")._) == (
        "નામંજૂર: 'upheld' must be true or false. કંઈ બદલાયું નથી"
    )
