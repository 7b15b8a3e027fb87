"""The session as JSON (`tableside bhukhar standings --json`) and as a printed table."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from kiosk.rules.bhukhar.record import Session
from kiosk.rules.bhukhar.standings import Standing


def place_label(row: Standing) -> str:
    """ "2=" for a shared second place (rule 19: both share it), "2" otherwise."""
    return f"{row.place}=" if row.shared else str(row.place)


def session_to_json(session: Session) -> dict[str, Any]:
    """Every game standing (rounds then tables) and the standings (docs/bhukhar.md)."""
    names = {t.id: t.name or t.id for t in session.start.teams}
    games = []
    for entry, result in session.games():
        games.append(
            {
                "round": entry.round,
                "table": entry.table,
                "end": entry.game.end.value,
                "winner": result.winner,
                "scores": [asdict(s) for s in result.scores],
            }
        )
    return {
        "name": session.start.name,
        "round_minutes": session.start.round_minutes,
        "teams": [
            {"id": t.id, "name": names[t.id], "players": list(t.players)}
            for t in session.start.teams
        ],
        "games": games,
        "standings": [{**asdict(row), "name": names[row.team]} for row in session.standings()],
    }


def format_standings(session: Session) -> str:
    """The standings as a person reads them, then each game's line."""
    names = {t.id: t.name or t.id for t in session.start.teams}
    width = max(len(f"{tid} {name}") for tid, name in names.items())
    lines = []
    if session.start.name:
        lines.append(session.start.name)
    lines.append(
        f"{'Place':<6} {'Team':<{width}} {'Games':>5} {'Master':>6} {'Bonus':>5} {'Best':>6}"
    )
    for row in session.standings():
        label = row.team if names[row.team] == row.team else f"{row.team} {names[row.team]}"
        best = "-" if row.best is None else str(row.best)
        lines.append(
            f"{place_label(row):<6} {label:<{width}} {row.games:>5} {row.master:>6} "
            f"{row.bonus:>5} {best:>6}"
        )
    games = session.games()
    if games:
        lines.append("")
        lines.append("Games")
        for entry, result in games:
            a, b = result.scores
            verdict = "tie" if result.winner is None else f"{result.winner} wins"
            spoiled = [t for t, s in entry.game.sheets.items() if s.licence_spoiled]
            if spoiled:  # why a team with a licence may have so few table points
                verdict += f"; licence spoiled later (17.2): {', '.join(spoiled)}"
            lines.append(
                f"round {entry.round} table {entry.table}: {a.team} {a.total} - "
                f"{b.total} {b.team} ({entry.game.end.value}, {verdict})"
            )
    return "\n".join(lines) + "\n"
