"""What the carrom screens print, worked out from the rules core's MatchState.

Formatting only, no rule: every number comes from the state (kiosk/rules/carrom/
state.py). Kept apart from the widgets so the words can be tested without a window
and shared by the umpire console and the player display.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.carrom.state import MatchState

QUEEN_WORDS = {"on_board": "on the board", "pending": "pocketed, to cover", "covered": "covered"}


@dataclass(frozen=True, slots=True)
class SidePanel:
    """One side's corner of the scoreboard."""

    name: str
    colour: str  # "white", "black" or "" between matches
    points: int  # game points in the game in progress (or the last one)
    games: int
    pocketed: int
    owed: int
    at_turn: bool
    player_at_turn: str


@dataclass(frozen=True, slots=True)
class Scoreboard:
    title: str
    sides: tuple[SidePanel, SidePanel]
    queen: str
    on_board: str
    status: str


def _game_points(state: MatchState, side: str) -> int:
    """The side's score in the game being played (0 before its first board has begun); once
    the match is over, in its last game."""
    number = state.now.game if state.now is not None else len(state.games)
    if not 1 <= number <= len(state.games):
        return 0
    return int(state.games[number - 1].points.get(side, 0))


def _boards_so_far(state: MatchState) -> tuple[int, int]:
    """Boards of the game in progress that counted (won or forfeited), and void ones."""
    now = state.now
    if now is None or not 1 <= now.game <= len(state.games):
        return 0, 0
    boards = state.games[now.game - 1].boards
    counted = sum(1 for b in boards if b.winner is not None and not b.void)
    return counted, sum(1 for b in boards if b.void)


def scoreboard(state: MatchState) -> Scoreboard:
    """The scoreboard's words: board and game, each side's points, colour and turn, the queen."""
    now = state.now
    rules = "ICF" if state.rules == "icf" else "club rules"
    if now is None:
        title = f"Match over ({rules})"
    else:
        unit = "Round" if state.rules == "club" else "Board"
        limit = f"/{state.board_limit}" if state.board_limit and state.rules == "icf" else ""
        game = "" if state.rules == "club" else f"Game {now.game} · "
        counted, void = _boards_so_far(state)
        # A void board is replayed and does not count toward the limit (laws 56, 140):
        # the number is the counted boards' (the spec's `now.board` counts void ones too).
        extra = f" · {void} void" if void else ""
        number = f"{unit} {counted + 1}{limit}"
        if limit and counted >= (state.board_limit or 0):
            number = "Extra board (law 56 b)"  # the limit reached level: the toss's board
        title = f"{game}{number}{extra} · {rules}"
    panels = []
    for side in state.sides:
        panels.append(
            SidePanel(
                name=side,
                colour=now.colours.get(side, "") if now else "",
                points=_game_points(state, side),
                games=int(state.games_won.get(side, 0)),
                pocketed=int(now.pocketed.get(side, 0)) if now else 0,
                owed=int(now.owed.get(side, 0)) if now else 0,
                at_turn=bool(now and now.turn_side == side),
                player_at_turn=now.turn if now and now.turn_side == side else "",
            )
        )
    if now is None:
        queen = ""
        on_board = ""
        status = f"{state.winner} wins the match" if state.winner else "Match over"
    else:
        queen = "Queen " + QUEEN_WORDS.get(now.queen, now.queen)
        if now.queen_by and now.queen != "on_board":
            queen += f" ({now.queen_by})"
        white, black = now.on_board.get("white", 0), now.on_board.get("black", 0)
        on_board = f"On the board: {white} white, {black} black"
        if now.is_break:
            status = f"{now.turn} to break"
            if now.break_attempts_in_turn:  # three attempts a player (law 45 a)
                status += f" (attempt {now.break_attempts_in_turn + 1} of 3)"
        else:
            status = f"{now.turn} to play"
    return Scoreboard(title, (panels[0], panels[1]), queen, on_board, status)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the scoresheet: a board (or round) and what it gave."""

    game: int
    board: int
    breaker: str
    winner: str
    points: int
    queen: str
    note: str


def scoresheet(state: MatchState) -> list[SheetRow]:
    """Every board begun, oldest first, void ones included (the spec's games[].boards[])."""
    rows: list[SheetRow] = []
    for g, game in enumerate(state.games, start=1):
        for b, board in enumerate(game.boards, start=1):
            if board.void:
                note = "void" + (f" (law {board.law})" if board.law else "")
            elif board.winner is None:
                note = "in progress"
            else:
                note = f"law {board.law}" if board.law else ""
            if board.change_sides:  # the players changed sides after this board (58-60)
                note += f"; change sides (law {board.change_sides})"
            rows.append(
                SheetRow(
                    g, b, board.breaker, board.winner or "", board.points, board.queen or "", note
                )
            )
    return rows


def game_totals(state: MatchState) -> list[str]:
    """One line per game: its score and winner."""
    out = []
    for g, game in enumerate(state.games, start=1):
        score = " – ".join(f"{side} {game.points.get(side, 0)}" for side in state.sides)
        won = f", won by {game.winner}" if game.winner else ""
        out.append(f"Game {g}: {score}{won}")
    return out
