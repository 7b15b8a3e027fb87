"""The protests at a carrom table (laws 144-151): lodged with the umpire with their words and
the fee's receipt, decided by the director at the console or from the hall's board.

The laws are the core's (kiosk/rules/carrom: too late 146, twice 149, the officials' hour 151
c); this is the table's side of them: a command's arguments checked, what the table refuses
before the core is asked (no fee 145, no words 147), and each protest's words and receipt
kept for the director's list and the hall (journaled with the event; the match record keeps
the event alone, kiosk/tables/carrom_record.py reads them back).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, TypeAlias

from kiosk.access.authority import Role
from kiosk.engine.timebase import MatchTime
from kiosk.rules.carrom.errors import N_, IllegalEvent, Reason
from kiosk.rules.carrom.events import Event, Protest, ProtestDecided
from kiosk.rules.carrom.match import Match
from kiosk.tables.commands import NO_MATCH, command, source

#: A board as (game, board), both counted from 1.
Board: TypeAlias = tuple[int, int]

#: A protest is lodged with its fee (law 145) and says what it is against (147).
PROTEST_NO_FEE = Reason.of(
    "protest_no_fee",
    N_("A protest is not accepted without its fee: type the fee's receipt (law {law})"),
    law="145",
)
PROTEST_NO_WORDS = Reason.of(
    "protest_no_words",
    N_("A protest says what happened and what it is against: type its words (law {law})"),
    law="147",
)
#: The longest protest's words and fee receipt kept with it (characters), and the refusal of
#: a longer one (typed on the console: worded in its language).
WORDS_MOST = 2000
RECEIPT_MOST = 80
_TOO_LONG = {
    "words": (
        "protest_words_too_long",
        N_("A protest's words may be at most {most} characters long ({n} typed)"),
    ),
    "receipt": (
        "protest_receipt_too_long",
        N_("A fee's receipt may be at most {most} characters long ({n} typed)"),
    ),
}


def _text(value: object, name: str, most: int) -> str:
    """A protest's words or receipt: text of at most `most` characters, trimmed."""
    if not isinstance(value, str):  # a caller's slip: the console and the hall send text
        raise ValueError(f"protest: {name!r} must be text, not {type(value).__name__}")
    text = value.strip()
    if len(text) > most:
        code, message = _TOO_LONG[name]
        raise IllegalEvent.of(code, message, most=most, n=len(text))
    return text


def protest_board(value: object) -> Board:
    """A protested board as (game, board), from a pair of whole numbers."""
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    ):
        return int(value[0]), int(value[1])
    raise ValueError(f"protest: 'board' must be [game, board], not {value!r}")


class CarromProtests(ABC):
    """The protest commands of a carrom table, mixed into CarromTable after its TableBase
    (whose `_now` and `_tell` they use). What they need of the table is declared here, so
    mypy checks the session gives it."""

    match: Match | None
    _time: MatchTime
    #: Why the last command was refused (the view's `refusal`).
    _refusal: Reason | None
    #: Each protest's words and fee receipt, by its board: for the director's list and the
    #: hall (the record keeps the event alone; the journal keeps them with it).
    _protest_texts: dict[Board, tuple[str, str]]

    @abstractmethod
    def _now(self, now: float | None = None) -> float:
        """Monotonic `now`, or the clock read now."""

    @abstractmethod
    def _tell(self, now: float, *, only_if_changed: bool = False) -> object:
        """The view to the outputs."""

    @abstractmethod
    def _commit(self, event: Event, who: str, extra: dict[str, Any] | None = None) -> None:
        """Push `event` to the core and journal it, or refuse."""

    @command
    def protest(
        self,
        by: str,
        board: Board | list[int],
        words: str = "",
        receipt: str = "",
        *,
        role: Role,
    ) -> None:
        """`by`'s side protests `board` = (game, board) (laws 144-149), lodged with the umpire:
        the protest's words and the fee's receipt are journaled with the event (the record
        keeps the event alone). Refused by the core when too late (146), twice (149), or
        against a board not begun or set aside; play goes on where it stopped (150)."""
        text = _text(words, "words", WORDS_MOST)
        paid = _text(receipt, "receipt", RECEIPT_MOST)
        event = Protest(by=by, board=protest_board(board))
        missing = PROTEST_NO_FEE if not paid else PROTEST_NO_WORDS if not text else None
        if missing is not None and self.protest_refusal(event.board) is None:
            self._refusal = missing  # the core's own refusal comes first (too late, twice)
            self._tell(self._now())
            raise IllegalEvent(missing)
        self._commit(event, source(role), {"words": text, "receipt": paid})
        self._protest_texts[event.board] = (text, paid)
        self._tell(self._now())

    @command
    def decide_protest(
        self,
        board: Board | list[int],
        upheld: bool,
        *,
        role: Role,
        via: str = "",
    ) -> None:
        """The director's decision on the protest against `board` (151): upheld, play goes
        back to the start of that board (a); rejected, the result stands (b). `via`: where it
        was given when not at this console ("hall": from the hall's board), journaled with
        it."""
        if not isinstance(upheld, bool):
            raise ValueError(f"decide_protest: 'upheld' must be true or false, not {upheld!r}")
        event = ProtestDecided(board=protest_board(board), upheld=upheld)
        self._commit(event, source(role), {"via": via} if via else None)

    def protestable(self) -> tuple[Board, ...]:
        """The boards a protest lodged now may name (laws 144-149), oldest first."""
        if self.match is None:
            return ()
        return self.match.protestable(self._time.t(self._now()))

    def protest_refusal(self, board: Board) -> Reason | None:
        """Why a protest lodged now against `board` would be refused (its law), or None."""
        if self.match is None:
            return NO_MATCH
        refused = self.match.protest_refusal(board, self._time.t(self._now()))
        return None if refused is None else refused.reason

    def _protest_texts_shown(self) -> tuple[tuple[int, int, str, str], ...]:
        """The words and receipt of each protest that stands: (game, board, words, receipt)."""
        if self.match is None:
            return ()
        boards = [p.board for p in self.match.state.protests]
        texts = self._protest_texts
        return tuple((b[0], b[1], *texts[b]) for b in boards if b in texts)
