"""The Bhukhar screen's words for rule 17's penalties and an entered game, from the core's
values (kiosk/rules/bhukhar/scoresheet.py): nothing here is a rule. Each takes the wording
function `_` of the language in use (kiosk/ui/words.py); English by default."""

from __future__ import annotations

from dataclasses import replace

from kiosk.errors import Reason, reason_of
from kiosk.rules.bhukhar.melds import MeldError
from kiosk.rules.bhukhar.scoresheet import (
    FALSE_LICENCE_AWARD,
    PENALTY_POINTS,
    End,
    Game,
    GameResult,
    PenaltyKind,
)
from kiosk.ui.words import N_, Words, english, reason_words

#: How a game ended (rule 16), each chosen by a button of its own that names its rule.
ENDS = (End.OUT, End.STOCK, End.TIME)
END_WORDS = {
    End.OUT: N_("went out (16.1)"),
    End.STOCK: N_("stock ran out (16.2)"),
    End.TIME: N_("time (16.3)"),
}

#: Rule 17's penalties as the panel names them: what was done and the rule (rules 8 and
#: 15 forbid the signal and the question; 17.3-17.5 fine the team, 17.1 rewards the other).
PENALTY_WORDS = {
    PenaltyKind.SIGNAL: N_("Signalling a partner (8, 17.4)"),
    PenaltyKind.ASK: N_("Asking a hand size out of turn (15, 17.3)"),
    PenaltyKind.UNFAIR: N_("Unfair play (17.5)"),
    PenaltyKind.FALSE_LICENCE: N_("False licence (17.1)"),
}
PENALTY_SHORT = {
    PenaltyKind.SIGNAL: N_("signal"),
    PenaltyKind.ASK: N_("ask"),
    PenaltyKind.UNFAIR: N_("unfair"),
    PenaltyKind.FALSE_LICENCE: N_("false licence"),
}


def penalty_points(kind: PenaltyKind, other: str, _: Words = english) -> str:
    """What a penalty does to the scores: "-50", or "+100 to B" for a false licence."""
    if kind is PenaltyKind.FALSE_LICENCE:
        return _("+{points} to {team}", points=FALSE_LICENCE_AWARD, team=other)
    return f"-{PENALTY_POINTS[kind]}"


def penalty_line(
    team: str, other: str, kind: PenaltyKind, player: str | None, _: Words = english
) -> str:
    """One penalty in words, for the panel's list: "B: Asking ... (15, 17.3), B2: -50"."""
    who = f", {player}" if player else ""
    return f"{team}: {_(PENALTY_WORDS[kind])}{who}: {penalty_points(kind, other, _)}"


def penalty_short(
    team: str, other: str, kind: PenaltyKind, player: str | None, _: Words = english
) -> str:
    """One penalty in a few words, for the game's line: "B ask (B2) -50"."""
    who = f" ({player})" if player else ""
    return f"{team} {_(PENALTY_SHORT[kind])}{who} {penalty_points(kind, other, _)}"


def result_words(
    table_no: int, result: GameResult, _: Words = english, names: dict[str, str] | None = None
) -> str:
    """The entered game's line: each team's total, its penalties when any, master points;
    each team by the name typed at the setup (`names`: id -> name), else its id."""
    names = names or {}
    parts = []
    for s in result.scores:
        pen = _(" (penalties {n})", n=f"{s.penalties:+d}") if s.penalties else ""
        parts.append(
            _(
                "{team}: {total} pts{penalties}, {master} master",
                team=names.get(s.team, s.team),
                total=s.total,
                penalties=pen,
                master=s.master,
            )
        )
    return _("Table {n} entered. ", n=table_no) + "; ".join(parts)


def total_lines(result: GameResult, names: dict[str, str], _: Words = english) -> list[str]:
    """How each team's total was added up (rule 18), then its master and bonus points (rules
    18.4, 19): the core's own parts of the sum, nothing worked out here."""
    out = []
    for s in result.scores:
        out.append(
            _(
                "{team}: table {table} − hand {hand} + licence {licence} + bhukhar {bhukhar}"
                " + closing {closing} + penalties {penalties} = {total} (rule 18)",
                team=names.get(s.team, s.team),
                table=s.table,
                hand=s.hand,
                licence=s.licence,
                bhukhar=s.bhukhar,
                closing=s.closing,
                penalties=f"{s.penalties:+d}",
                total=s.total,
            )
        )
        out.append(
            "    "
            + _(
                "{master} master points, {bonus} bonus points (rule 19)",
                master=s.master,
                bonus=s.bonus,
            )
        )
    return out


def spoiled_words(game: Game, names: dict[str, str], _: Words = english) -> list[str]:
    """For each team of `game` whose licence had a meld spoiled later by a wrong card
    (17.2): that the meld is void, its cards not counted, and the licence stands."""
    return [
        _(
            "{team}: a licence meld spoiled later is void: its table points are not counted, "
            "its cards go back into the hand and may be laid again; the licence stands (17.2)",
            team=names.get(team, team),
        )
        for team, sheet in game.sheets.items()
        if sheet.licence_spoiled
    ]


def entered_words(result: GameResult, names: dict[str, str], _: Words = english) -> str:
    """The last game entered at this table, for the players: each team's total."""
    totals = " · ".join(f"{names.get(s.team, s.team)} {s.total}" for s in result.scores)
    return _("Last game: {totals}", totals=totals)


#: The Bhukhar screen's line when a game could not be entered (worded again on a switch).
NOT_ENTERED = N_("Not entered: {reason}")
#: A refusal as the screen keeps it: the core's reason as facts (worded in the language
#: shown, again on a switch), else the words of an error that gave none.
Refusal = Reason | str


def refusal(exc: Exception) -> Refusal:
    """A refusal by its rule as facts (a meld, a scoresheet's check), else the words."""
    if isinstance(exc, MeldError):
        return exc.why
    return reason_of(exc) or str(exc)


def word_refusal(why: Refusal, _: Words = english, names: dict[str, str] | None = None) -> str:
    """A refusal worded, each team in it by the name typed at the setup (`names`)."""
    if isinstance(why, str):
        return why
    return reason_words(named(why, names or {}), _)


def named(reason: Reason, names: dict[str, str]) -> Reason:
    """`reason` with its teams (the facts `team`, `other`) by their names, not their ids: a
    refusal says "Shah family", as the screen does, not "team A"."""
    facts = tuple(
        (k, names.get(v, v) if k in ("team", "other") and isinstance(v, str) else v)
        for k, v in reason.facts
    )
    facts = tuple((k, named(v, names) if isinstance(v, Reason) else v) for k, v in facts)
    return replace(reason, facts=facts)
