"""The carrom console's words for the core's rulings (kiosk/ui/carrom_rulings.py) and the
core's answer before a call is made (kiosk/tables/carrom_preview.py), without a window."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kiosk.rules.carrom.events import (
    Concede,
    ForfeitBoard,
    Foul,
    MatchStart,
    Stroke,
    VoidBoard,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.tables.carrom_preview import foul_law, preview
from kiosk.tables.fusion import PocketView, Proposal
from kiosk.ui.carrom_rulings import (
    RulingLog,
    consequence,
    fix_colour,
    known,
    pocket_words,
    split_call,
    word_call,
)

CORE = Path(__file__).resolve().parents[2] / "kiosk" / "rules" / "carrom"


def _match(rules: str = "icf") -> Match:
    return Match(MatchStart(players=("Κώστας", "Rajesh"), first_break="Κώστας", rules=rules))


def _core_calls() -> list[str]:
    """Every text the core's source passes to `call(...)` (f-strings' values as "{x}");
    club.py gathers some in a list first (`calls.append(...)`)."""
    found = []
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("call", "append") or not node.args:
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                text = arg.value
            elif isinstance(arg, ast.JoinedStr):
                text = "".join(
                    v.value if isinstance(v, ast.Constant) else "{x}" for v in arg.values
                )
            else:
                continue
            if node.func.attr == "append" and not text.startswith(("club", "law")):
                continue
            found.append(text)
    return found


def test_every_call_of_the_core_is_in_the_catalogue() -> None:
    calls = _core_calls()
    assert len(calls) > 40
    for call in calls:
        # The empty break's call is a class attribute; an owed piece's law a parameter.
        call = call.replace("{x} (attempt", "law 45 a: the break touched no coin (attempt")
        call = call.replace("{x}: ", "club IV iii: ", 1) if call.startswith("{x}: ") else call
        law, text = split_call(call)
        assert law or text.endswith(" passes"), f"the core calls {call!r} without a law"
        assert known(text) is not None, f"the core calls {call!r}: not in CALLS"


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
