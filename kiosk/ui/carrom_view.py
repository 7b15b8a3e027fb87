"""What the carrom screens print, worked out from the rules core's MatchState.

Formatting only, no rule: every number comes from the state (kiosk/rules/carrom/
state.py). Kept apart from the widgets so the words can be tested without a window
and shared by the umpire console and the player display.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.carrom.state import MatchState
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.fusion import NOTE_TEXT, Note
from kiosk.ui.carrom_rulings import COLOUR_WORDS, result_words, word_call
from kiosk.ui.words import N_, Words, english

#: The timer that ran out, in the banner, with what the umpire does next (the kiosk never
#: calls a time foul itself); it goes once the umpire does anything.
EXPIRED = {
    "stroke": N_("Time! The stroke timer ran out (law 50): tap Foul, or Stop clock"),
    "break": N_("Time! The break timer ran out (law 46): tap Foul, or Stop clock"),
    "placing": N_("Time! The time to place the dues ran out (law 88): tap Dues placed"),
    "waive": N_("Time! The time to say waive ran out (law 87 a): tap Waive or Dues placed"),
    "change_sides": N_("Time! The change of sides is over (law 61): tap Play for the break"),
    "interval": N_("Time! The interval is over (law 138): tap Play for the break"),
}


def note_words(note: Note, words: Words = english) -> str:
    """A proposal's note (kiosk/tables/fusion.py) in the console's words, from its facts."""
    colours = ", ".join(words(COLOUR_WORDS.get(c, c)) for c in note.colours)
    return words(NOTE_TEXT[note.kind], **{**note.facts(), "colours": colours})


QUEEN_WORDS = {
    "on_board": N_("Queen on the board"),
    "pending": N_("Queen pocketed, to cover"),
    "covered": N_("Queen covered"),
}


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


def _boards_so_far(state: MatchState) -> tuple[int, int, int]:
    """Boards of the game in progress that counted (won or forfeited), void ones, and those an
    upheld protest set aside (151 a)."""
    now = state.now
    if now is None or not 1 <= now.game <= len(state.games):
        return 0, 0, 0
    boards = state.games[now.game - 1].boards
    counted = sum(1 for b in boards if b.winner is not None and not b.void)
    aside = sum(1 for b in boards if b.protest == "upheld")
    return counted, sum(1 for b in boards if b.void) - aside, aside


def scoreboard(state: MatchState, _: Words = english) -> Scoreboard:
    """The scoreboard's words: board and game, each side's points, colour and turn, the queen."""
    now = state.now
    rules = _("ICF") if state.rules == "icf" else _("club rules")
    if now is None:
        title = _("Match over ({rules})", rules=rules)
    else:
        limit = f"/{state.board_limit}" if state.board_limit and state.rules == "icf" else ""
        game = "" if state.rules == "club" else _("Game {n} · ", n=now.game)
        counted, void, aside = _boards_so_far(state)
        # A void board is replayed and does not count toward the limit (laws 56, 140):
        # the number is the counted boards' (the spec's `now.board` counts void ones too).
        extra = _(" · {n} void", n=void) if void else ""
        extra += _(" · {n} set aside", n=aside) if aside else ""  # by a protest (151 a)
        if state.rules == "club":
            number = _("Round {n}", n=counted + 1)
        else:
            number = _("Board {n}", n=f"{counted + 1}{limit}")
        if limit and counted >= (state.board_limit or 0):
            number = _("Extra board (law 56 b)")  # the limit reached level: the toss's board
        title = f"{game}{number}{extra} · {rules}"
        if state.protest_pending:  # no result is declared while it waits (law 150)
            title += _(" · under protest")
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
        if state.winner:
            status = _("{name} wins the match", name=state.winner)
        else:  # won on the board, not declared while a protest waits (150)
            status = result_words(state, _) or _("Match over")
    else:
        queen = _(QUEEN_WORDS[now.queen]) if now.queen in QUEEN_WORDS else now.queen
        if now.queen_by and now.queen != "on_board":
            queen += f" ({now.queen_by})"
        white, black = now.on_board.get("white", 0), now.on_board.get("black", 0)
        on_board = _("On the board: {white} white, {black} black", white=white, black=black)
        if now.is_break:
            status = _("{name} to break", name=now.turn)
            if now.break_attempts_in_turn:  # three attempts a player (law 45 a)
                status += _(" (attempt {n} of 3)", n=now.break_attempts_in_turn + 1)
        else:
            status = _("{name} to play", name=now.turn)
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


def scoresheet(state: MatchState, _: Words = english) -> list[SheetRow]:
    """Every board begun, oldest first, void ones included (the spec's games[].boards[])."""
    rows: list[SheetRow] = []
    for g, game in enumerate(state.games, start=1):
        # Numbered as the title numbers them: a void board and its replay are one number
        # (laws 56, 140); boards set aside by a protest keep theirs, and the replay of the
        # protested one takes its number again (151 a).
        counted = aside = 0
        for board in game.boards:
            if board.protest == "upheld":
                aside += 1
                b = counted + aside
            else:
                aside = 0
                b = counted + 1
                counted += 1 if board.winner is not None and not board.void else 0
            if board.protest == "upheld":  # set aside by an upheld protest (151 a)
                note = _("set aside: protest upheld (law 151 a)")
            elif board.void:
                note = _("void (law {law})", law=board.law) if board.law else _("void")
            elif board.winner is None:
                note = _("in progress")
            else:
                note = _("law {law}", law=board.law) if board.law else ""
            if board.change_sides:  # the players changed sides after this board (58-60)
                note += _("; change sides (law {law})", law=board.change_sides)
            if board.protest == "pending":
                note += _("; under protest (law 150)")
            elif board.protest == "rejected":
                note += _("; protest rejected (law 151 b)")
            rows.append(
                SheetRow(
                    g, b, board.breaker, board.winner or "", board.points, board.queen or "", note
                )
            )
    return rows


def game_totals(state: MatchState, _: Words = english) -> list[str]:
    """One line per game: its score and winner."""
    out = []
    for g, game in enumerate(state.games, start=1):
        score = " – ".join(f"{side} {game.points.get(side, 0)}" for side in state.sides)
        won = _(", won by {name}", name=game.winner) if game.winner else ""
        out.append(_("Game {n}: {score}", n=g, score=score) + won)
    return out


def break_called(view: CarromView) -> bool:
    """The umpire called "play" for the next board (the break's count runs, law 46) or the
    break is under way: what stood between two boards (the change of sides, "tap Play") is
    over, though the core's state changes only with the break's stroke."""
    timer = view.timer
    return view.phase in ("moving", "at_rest") or (timer is not None and timer.kind == "break")


def banner(view: CarromView, _: Words = english) -> tuple[str, str]:
    """The console's banner and its kind ("over", "expired", "interval", "sides", "toss",
    "game", "board", or "" for none); the player display shows some of the same, in its
    own language."""
    state = view.state
    assert state is not None
    if state.winner is not None:
        return _("{name} wins the match", name=state.winner), "over"
    under_protest = result_words(state, _)
    if under_protest is not None:  # won on the board, no result declared (150)
        return under_protest, "protest"
    if view.expired:
        return _(EXPIRED.get(view.expired, view.expired)), "expired"
    if view.timer is not None and view.timer.kind == "interval":
        return _("Interval before the third game (law 138)"), "interval"
    if state.change_sides and not break_called(view):  # until "play" (laws 58-61, 46)
        law = state.change_sides_law or "58"
        return _("Change sides (law {law}): 2 minutes (law 61)", law=law), "sides"
    if state.toss_due:
        return _("Tie at the board limit: toss for the extra board (law 56 b)"), "toss"
    ended = view.outcome
    if ended is not None and ended.game is not None:
        game = ended.game
        return _("Game to {name} ({reason})", name=game.winner, reason=game.reason), "game"
    upheld = next((c for c in state.calls if c.code == "protest_upheld"), None)
    if upheld is not None:  # what an upheld protest set aside, and the board played again
        return word_call(upheld, _), "board"
    if ended is not None and ended.board is not None:
        b = ended.board
        if b.winner:
            won = _("{name} wins the board, {n} points", name=b.winner, n=b.points)
        else:
            won = _("Board void")
        return _("{result} (law {law})", result=won, law=b.law), "board"
    return "", ""
