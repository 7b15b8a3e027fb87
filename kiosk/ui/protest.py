"""The carrom console's protests (laws 144-151): lodging one, and the director's decision.

- "Protest" (the umpire's: the console asks the umpire's PIN first) opens the panel: the
  protests lodged, in words, with the minutes left of the officials' hour while one waits
  (151 c); the side that protests, the board (only those the table says may be protested
  now, `protestable()`: begun, not set aside, not yet protested, within 15 minutes of their
  end, 144-149), the protest's words (147) and the fee's receipt (145). "Lodge" sends the
  table's `protest` command; a refusal (too late: law 146) is worded from its Reason.
- "Decide" beside a waiting protest is the director's (PIN): the decision box names what
  upholding it would do, as the table's preview works it out (the boards set aside, who
  breaks the protested board again: 151 a), and what rejecting it would (the result stands,
  151 b); Uphold or Reject is checked again when tapped, and a lock in between closes it.

Both are overlays of the carrom screen (`ProtestPanel`, `DecisionBox`), added over it when
the screen is made; the screen gives them each view (`follow`). They build no event and read
no match: every fact comes from the view, `protestable()` and `preview(command)`.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    ObjectProperty,
    StringProperty,
)

from kiosk.access.authority import Role
from kiosk.errors import Refused
from kiosk.rules.carrom.state import MatchState
from kiosk.tables.carrom_preview import Preview
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.commands import Command, StaleView
from kiosk.ui.carrom_calls import STALE_QUIET
from kiosk.ui.carrom_rulings import capital, consequence, protest_words
from kiosk.ui.i18n import tr
from kiosk.ui.keyboard import NameField as NameField  # the .kv's fields are typed on it
from kiosk.ui.kvload import load_kv
from kiosk.ui.lock import command_for, role_for, send
from kiosk.ui.widgets import Overlay
from kiosk.ui.words import Words, error_words, reason_words

#: The boards offered at most (the latest that may be protested: a protest comes within 15
#: minutes of its board's end, so rarely more than two).
BOARDS_SHOWN = 4
#: Waiting protests with a Decide button at most (more are listed, decided in turn).
DECIDE_SHOWN = 2


def board_words(board: tuple[int, int] | list[int], _: Words) -> str:
    """ "Game 1, board 2" """
    return _("Game {game}, board {board}", game=board[0], board=board[1])


def reject_words(seen: Preview, _: Words) -> str:
    """What rejecting a protest would do (151 b), from the table's preview."""
    text = _("The protest is rejected: the result of the board stands (law 151 b)")
    state = seen.state
    if state is not None and state.winner is not None:
        text += _("; {name} wins the match", name=state.winner)
    return text


def lodged_words(
    view: CarromView | None, board: tuple[int, int], _: Words, before: str = ""
) -> str:
    """What the protest against `board` says and its fee's receipt, as lodged (laws 145,
    147): "“The queen was covered late” · fee receipt R-17" ("" : none kept)."""
    for game, number, words, receipt in () if view is None else view.protest_texts:
        if (game, number) == tuple(board):
            return before + _("“{words}” · fee receipt {receipt}", words=words, receipt=receipt)
    return ""


def waiting_label(view: CarromView | None, _: Words) -> str:
    """The console's Protest button: "Protest", or with the minutes left of the officials'
    hour while one waits (151 c)."""
    minutes = None if view is None else view.protest_minutes
    if minutes is None:
        return _("Protest")
    return _("Protest\n{minutes} min left", minutes=minutes)


class ProtestPanel(Overlay):
    """The protests lodged and a new one (see the module docstring). `screen` is the carrom
    screen (its table, its `_do`)."""

    screen: Any = ObjectProperty(None, allownone=True)
    #: The protests lodged, in words, oldest first: [text, waiting, game, board].
    lines = ListProperty([])
    #: The sides' names, and the one chosen (-1: none yet).
    sides = ListProperty(["", ""])
    side = ObjectProperty(-1)
    #: The boards that may be protested now, [game, board], oldest first, and the chosen one.
    boards = ListProperty([])
    board = ObjectProperty(-1)
    #: Why no board may be protested now (the latest board's refusal, e.g. law 146), or "".
    late = StringProperty("")
    error = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._view: CarromView | None = None
        #: The version of the view the panel was opened from: the protest is lodged on it.
        self.made_from: int | None = None

    @staticmethod
    def board_text(boards: list[list[int]], index: int, _: Words) -> str:
        """The `index`th board offered, in words ("" : none)."""
        return board_words(boards[index], _) if index < len(boards) else ""

    # -- opening, following the table ----------------------------------------------------
    def open(self) -> None:
        """The umpire's "Protest": the umpire's PIN on a locked console, then the panel."""
        if role_for("protest", self.open, keep=True) is None:
            return
        self.side = -1
        self.board = -1
        self.error = ""
        self.ids.protest_words.text = ""
        self.ids.protest_receipt.text = ""
        if self.screen is not None:
            self.made_from = self.screen.seen.version()
        self.shown = True
        self.reword()

    def close(self) -> None:
        self.shown = False

    def follow(self, view: CarromView | None) -> None:
        """A new view from the table: the protests in words; while open, the boards that may
        be protested now (time passes: a board drops out 15 minutes after its end)."""
        self._view = view
        if view is None or view.state is None:
            self.lines = []
            return
        self.reword()

    def reword(self) -> None:
        """The protests in the console's language (again at a switch), and while open what
        may be protested now."""
        view = self._view
        state = None if view is None else view.state
        if view is None or state is None:
            return
        self.lines = [
            [
                protest_words(p, view.t, tr._) + lodged_words(view, p.board, tr._, "\n    "),
                p.decision is None,
                p.board[0],
                p.board[1],
            ]
            for p in state.protests
        ]
        if self.shown:
            self._offer(state)

    def _offer(self, state: MatchState) -> None:
        session = self.screen.session if self.screen is not None else None
        self.sides = list(state.sides)
        chosen = self.boards[self.board] if 0 <= self.board < len(self.boards) else None
        boards = [] if session is None else [list(b) for b in session.protestable()]
        self.boards = boards[-BOARDS_SHOWN:]
        self.board = self.boards.index(chosen) if chosen in self.boards else -1
        self.late = ""
        if not boards and session is not None:
            latest = _latest_board(state)
            refused = None if latest is None else session.protest_refusal(latest)
            if refused is not None:
                self.late = capital(reason_words(refused, tr._))

    # -- lodging ---------------------------------------------------------------------------
    def lodge(self) -> None:
        """Lodge the protest: the side, the board, the words and the receipt, to the table
        (the umpire's; the table refuses a late one with law 146, one without its fee 145)."""
        state = None if self._view is None else self._view.state
        if state is None or self.screen is None:
            return
        if self.side not in (0, 1):
            self.error = tr._("Choose the side that protests")
            return
        if not 0 <= self.board < len(self.boards):
            self.error = tr._("Choose the board protested")
            return
        # A side is named by a player of it: in doubles the 1st and 3rd are one side.
        by = state.players[int(self.side)]
        game, number = self.boards[self.board]
        args = {
            "by": by,
            "board": (game, number),
            "words": self.ids.protest_words.text,
            "receipt": self.ids.protest_receipt.text,
        }
        self.error = ""
        try:
            sent = send(self.screen.session, "protest", self.lodge, view=self.made_from, **args)
        except StaleView as exc:
            # The table moved on while the panel was open (a stroke, an undo): said, and the
            # next Lodge is made from what the screen shows now.
            self.error = capital(error_words(exc, tr._))
            self.made_from = self.screen.seen.newest()
            return
        except (Refused, ValueError) as exc:
            self.error = capital(error_words(exc, tr._))
            return
        if sent:
            self.shown = False

    # -- deciding ----------------------------------------------------------------------------
    def decide(self, index: int) -> None:
        """Decide the `index`th waiting protest (the director's)."""
        waiting = [line for line in self.lines if line[1]]
        if index < len(waiting) and self.screen is not None:
            _text, _waiting, game, number = waiting[index]
            self.screen.decision.ask((int(game), int(number)))


class DecisionBox(Overlay):
    """The director's decision on one protest: what upholding and rejecting would do, then
    Uphold or Reject, each checked again when tapped."""

    screen: Any = ObjectProperty(None, allownone=True)
    #: The protest being decided, [game, board]; [] : closed.
    board = ListProperty([])
    title = StringProperty("")
    uphold_text = StringProperty("")
    reject_text = StringProperty("")
    #: What the protest says and its receipt, as lodged.
    words_text = StringProperty("")
    asking = BooleanProperty(False)
    #: The version of the view the box was opened from (kiosk/ui/seen.py).
    made_from: int | None = None
    #: The view a decision was sent from: a tap made from it again is a double tap's second.
    _acted: int | None = None

    def ask(self, board: tuple[int, int]) -> None:
        """The director's PIN, then what each decision would do (the table's preview)."""
        screen = self.screen
        session = None if screen is None else screen.session
        if session is None:
            return
        retry = lambda: self.ask(board)  # noqa: E731
        self.made_from = screen.seen.version()
        command = command_for(
            session,
            "decide_protest",
            retry,
            view=self.made_from,
            keep=True,
            board=board,
            upheld=True,
        )
        if command is None:
            return
        upheld = session.preview(command)
        rejected = session.preview(
            Command.of("decide_protest", Role.DIRECTOR, board=board, upheld=False)
        )
        refused = upheld.refused or rejected.refused
        if refused is not None:
            screen.protests.error = capital(reason_words(refused, tr._))
            return
        self.title = tr._(
            "Decide the protest against board {board} of game {game} (law 151)",
            board=board[1],
            game=board[0],
        )
        self.uphold_text = consequence("uphold_protest", "", upheld, tr._)
        self.reject_text = reject_words(rejected, tr._)
        self.words_text = lodged_words(screen._latest, board, tr._)
        self.board = list(board)
        self.asking = True

    def decided(self, upheld: bool) -> None:
        """Uphold or Reject: sent with the console's role now, checked again."""
        board, self.board = self.board, []
        self.asking = False
        if len(board) != 2 or self.screen is None:
            return
        args = {"board": (int(board[0]), int(board[1])), "upheld": upheld}
        try:
            retry = lambda: self._again(board, upheld)  # noqa: E731
            view = self.made_from  # the view the decisions' consequences were worded from
            sent = send(self.screen.session, "decide_protest", retry, view=view, **args)
        except StaleView as exc:
            if view is not None and view == self._acted:
                # The second tap of a double tap: the table refused it, the first decided.
                # Said quietly, as the console says it, so the decision's ruling stays the news.
                self.screen.error = capital(tr._(STALE_QUIET))
                self.screen.error_quiet = True
            else:
                self.screen.protests.error = capital(error_words(exc, tr._))
            return
        except (Refused, ValueError) as exc:
            self.screen.protests.error = capital(error_words(exc, tr._))
            return
        if sent:
            self._acted = view
            self.screen.protests.shown = False

    def _again(self, board: list[int], upheld: bool) -> None:
        self.board = board
        self.decided(upheld)

    def close(self) -> None:
        self.board = []
        self.asking = False


def _latest_board(state: MatchState) -> tuple[int, int] | None:
    """The latest board begun, as (game, board), or None."""
    for g in range(len(state.games), 0, -1):
        boards = state.games[g - 1].boards
        if boards:
            return g, len(boards)
    return None


load_kv(__file__)
