"""The Bhukhar screen's words for rule 17's penalties and an entered game, from the core's
values (kiosk/rules/bhukhar/scoresheet.py): nothing here is a rule."""

from __future__ import annotations

from kiosk.rules.bhukhar.scoresheet import (
    FALSE_LICENCE_AWARD,
    PENALTY_POINTS,
    GameResult,
    PenaltyKind,
)

#: Rule 17's penalties as the panel names them: what was done and the rule (rules 8 and
#: 15 forbid the signal and the question; 17.3-17.5 fine the team, 17.1 rewards the other).
PENALTY_WORDS = {
    PenaltyKind.SIGNAL: "Signalling a partner (8, 17.4)",
    PenaltyKind.ASK: "Asking a hand size out of turn (15, 17.3)",
    PenaltyKind.UNFAIR: "Unfair play (17.5)",
    PenaltyKind.FALSE_LICENCE: "False licence (17.1)",
}
PENALTY_SHORT = {
    PenaltyKind.SIGNAL: "signal",
    PenaltyKind.ASK: "ask",
    PenaltyKind.UNFAIR: "unfair",
    PenaltyKind.FALSE_LICENCE: "false licence",
}


def penalty_points(kind: PenaltyKind, other: str) -> str:
    """What a penalty does to the scores: "-50", or "+100 to B" for a false licence."""
    if kind is PenaltyKind.FALSE_LICENCE:
        return f"+{FALSE_LICENCE_AWARD} to {other}"
    return f"-{PENALTY_POINTS[kind]}"


def penalty_line(team: str, other: str, kind: PenaltyKind, player: str | None) -> str:
    """One penalty in words, for the panel's list: "B: Asking ... (15, 17.3), B2: -50"."""
    who = f", {player}" if player else ""
    return f"{team}: {PENALTY_WORDS[kind]}{who}: {penalty_points(kind, other)}"


def penalty_short(team: str, other: str, kind: PenaltyKind, player: str | None) -> str:
    """One penalty in a few words, for the game's line: "B ask (B2) -50"."""
    who = f" ({player})" if player else ""
    return f"{team} {PENALTY_SHORT[kind]}{who} {penalty_points(kind, other)}"


def result_words(table_no: int, result: GameResult) -> str:
    """The entered game's line: each team's total, its penalties when any, master points."""
    parts = []
    for s in result.scores:
        pen = f" (penalties {s.penalties:+d})" if s.penalties else ""
        parts.append(f"{s.team}: {s.total} pts{pen}, {s.master} master")
    return f"Table {table_no} entered. " + "; ".join(parts)
