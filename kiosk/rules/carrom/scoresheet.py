"""The scoresheet a person reads, drawn from the `tableside replay --json` object.

It is built from the spec's JSON object (shared/spec/match-record.md) and not
from the core's state, so the text and `--json` can never tell different
stories. Every game, every board with its breaker, winner, points and queen,
the running game score after each board, a line after each board that calls
for a change of sides (laws 58-60), the board in progress, the protests and
their decisions (laws 144-151) and the match result (laws 52-57; club rules V),
"under protest" while one waits (150).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_RULES = {
    "icf": "ICF laws of carrom",
    "club": "club rules (three rounds, first to 15)",
}


def _table(rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """Rows as aligned columns; the columns in `right` are right-aligned (numbers)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def _board_rows(
    game: Mapping[str, Any], sides: Sequence[str], unit: str, in_progress: bool
) -> list[list[str]]:
    # The law that decided each board, when the object carries it (kiosk extension).
    laws = any("law" in board for board in game["boards"])
    header = [unit, "breaker", "winner", "points", "queen", *sides] + (["law"] if laws else [])
    rows = [header]
    running = dict.fromkeys(sides, 0)
    boards = game["boards"]
    for number, board in enumerate(boards, start=1):
        last = number == len(boards)
        if board.get("protest") == "upheld":
            winner, points = "set aside (protest upheld)", ""
        elif board["void"]:
            winner, points = "void (replayed)", ""
        elif board["winner"] is None:
            winner = "in progress" if in_progress and last else "-"
            points = ""
        else:
            winner, points = board["winner"], str(board["points"])
            running[board["winner"]] = running.get(board["winner"], 0) + board["points"]
        if board.get("protest") in ("pending", "rejected"):
            winner += f" (protest {board['protest']})"
        queen = board["queen"] or "-"
        row = [str(number), board["breaker"], winner, points, queen]
        row += [str(running[side]) for side in sides]
        if laws:
            row.append(board.get("law") or "")
        rows.append(row)
    return rows


#: What the scoresheet prints after a board that calls for a change of sides, by law.
_CHANGE_SIDES = {
    "58": "change sides (law 58)",
    "59": "change sides (law 58), each player to the seat on his right (law 59)",
    "60 a": "change sides (law 58) in the third game at 4 boards or 13 points (law 60 a)",
    "60 b": "change sides (law 58) in the third game at 13 points (law 60 b)",
}


def _with_changes(table: list[str], boards: Sequence[Mapping[str, Any]]) -> list[str]:
    """The table's lines with a line after each board that called for a change of sides
    (the board's `change_sides`, a kiosk extension of the spec's object)."""
    out = table[:1]
    for row, board in zip(table[1:], boards, strict=True):
        out.append(row)
        law = board.get("change_sides")
        if law:
            out.append("  " + _CHANGE_SIDES.get(law, f"change sides (law {law})"))
    return out


def _coins(on_board: Mapping[str, Any]) -> str:
    white, black = on_board.get("white", 0), on_board.get("black", 0)
    queen = "the queen" if on_board.get("queen") else "no queen"
    return f"{white} white, {black} black, {queen}"


def _queen(now: Mapping[str, Any]) -> str:
    state, by = now["queen"], now["queen_by"]
    if state == "pending":
        return f"pocketed by {by}, waiting for its cover"
    if state == "covered":
        return f"covered by {by}"
    return "on the board"


def _now(now: Mapping[str, Any], sides: Sequence[str], unit: str) -> list[str]:
    owed = ", ".join(f"{side} {now['owed'].get(side, 0)}" for side in sides)
    lines = [
        f"Now: game {now['game']}, {unit} {now['board']}",
        f"  breaker {now['breaker']}; at turn {now['turn']}; white {now['white']}",
        f"  on the board: {_coins(now['on_board'])}",
        f"  queen: {_queen(now)}",
        f"  owed dues and penalties: {owed}",
    ]
    tries = now["break_attempts"]
    if tries:
        # Three a player (45 a); after each three the break passes (45 b, definition 6).
        more = " of 3" if tries < 3 else "; the break passed after each three (law 45 b)"
        lines.append(f"  breaks that touched no coin: {tries}{more}")
    if now.get("change_sides"):
        lines.append("  change sides before this board (law 58): 2 minutes (law 61)")
    return lines


def _how(data: Mapping[str, Any]) -> str:
    ending = data.get("ending")
    if not ending:
        return ""
    law: str = ending["law"]
    where = f"club rules {law.removeprefix('club ')}" if law.startswith("club") else f"law {law}"
    return f" ({where}: {ending['reason']})"


_DECISIONS = {
    None: "undecided (law 150: no result is declared)",
    "upheld": "upheld: the board and those after it set aside, the board played again (law 151 a)",
    "rejected": "rejected: the result stands (law 151 b)",
}


def _protests(data: Mapping[str, Any]) -> list[str]:
    """The protests lodged (laws 144-151), oldest first; nothing when there is none."""
    protests = data.get("protests") or []
    if not protests:
        return []
    lines = ["", "Protests"]
    for p in protests:
        game, board = p["board"]
        decision = _DECISIONS.get(p["decision"], p["decision"])
        lines.append(f"  {p['by']} against board {board} of game {game}: {decision}")
    return lines


def _result(data: Mapping[str, Any], sides: Sequence[str]) -> str:
    games = data["games"]
    pending = any(p["decision"] is None for p in data.get("protests") or [])
    if pending and data.get("provisional_winner") is not None:
        return (
            f"Match under protest: {data['provisional_winner']} won on the board; "
            "no result is declared until the protest is decided (law 150)."
        )
    if data["rules"] == "club":
        points = games[0]["points"] if games else dict.fromkeys(sides, 0)
        score = "-".join(str(points.get(side, 0)) for side in sides)
        if data["winner"] is None:
            return f"Match in progress: {' v '.join(sides)} {score}."
        return f"Match won by {data['winner']}, {score}{_how(data)}."
    won = {side: sum(1 for game in games if game["winner"] == side) for side in sides}
    score = "-".join(str(won[side]) for side in sides)
    if data["winner"] is None:
        return f"Match in progress: games {' v '.join(sides)} {score}."
    return f"Match won by {data['winner']}, games {score}{_how(data)}."


def render(data: Mapping[str, Any]) -> str:
    """The scoresheet text of a `tableside replay --json` object, ending in a newline."""
    sides: list[str] = list(data["sides"])
    club = data["rules"] == "club"
    unit = "round" if club else "board"
    title = f"Carrom match: {' v '.join(sides)}, {_RULES.get(data['rules'], data['rules'])}"
    if not club:
        limit = data.get("board_limit")
        title += "; game to 25" + (f" or {limit} boards" if limit else " points only")
    lines = [title]
    now = data["now"]
    games = data["games"]
    for number, game in enumerate(games, start=1):
        lines.append("")
        points = game["points"]
        score = "-".join(str(points.get(side, 0)) for side in sides)
        if club:
            head = "Rounds" if data["winner"] is not None else "Rounds, in progress"
        elif game["winner"] is not None:
            head = f"Game {number}: won by {game['winner']}, {score}"
        elif now is not None and number == len(games):
            head = f"Game {number}, in progress: {score}"
        else:
            head = f"Game {number}: {score}"
        lines.append(head)
        if game["boards"]:
            in_progress = now is not None and number == len(games)
            numbers = {0, 3, *range(5, 5 + len(sides))}
            table = _table(_board_rows(game, sides, unit, in_progress), numbers)
            lines.extend(_with_changes(table, game["boards"]))
        else:
            lines.append(f"  no {unit} played yet")
    if now is not None:
        lines.append("")
        lines.extend(_now(now, sides, unit))
    lines.extend(_protests(data))
    lines.append("")
    lines.append(_result(data, sides))
    return "\n".join(lines) + "\n"
