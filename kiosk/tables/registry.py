"""One lifecycle for every table kind, found by name (as `rules_for` finds a rule set).

Each kind of table (carrom, backgammon, Bhukhar) is made the same three ways, by its
`Lifecycle`: `create(journal, fitted, start, role)` a new match over the unfinished one of its
game (closing that one is journaled with `role`: the director's), `resume(journal, fitted)`
the unfinished one exactly where it was (None: there is none), and `close` (kiosk/tables/
base.py `close_match`). What a table is made with is one `Fitted` (the clock, the outputs,
the settings, the parts fitted and the faults of the parts that did not start). A journal
that cannot be replayed is a `JournalError` naming where, for every kind alike.

Adding a kind: its table (kiosk/tables/base.py `Table`), its start, its lifecycle here, and
its record in kiosk/kinds.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from drivers.hits import POCKETS
from kiosk.access.authority import Role
from kiosk.config import Settings, with_values
from kiosk.engine.journal import Journal, JournalError
from kiosk.engine.outputs import Output
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.rules.bhukhar.record import SessionStart
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import KIND as BACKGAMMON
from kiosk.tables.backgammon_table import BackgammonTable, ClockView
from kiosk.tables.base import close_unfinished
from kiosk.tables.bhukhar_table import KIND as BHUKHAR
from kiosk.tables.bhukhar_table import BhukharTable, BhukharView, TableFileError
from kiosk.tables.carrom_inputs import PartFault
from kiosk.tables.carrom_record import KIND as CARROM
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.carrom_view import CarromView

#: Any table, and any table's view: what the wiring and the outputs are given.
AnyTable = CarromTable | BackgammonTable | BhukharTable
AnyView = CarromView | ClockView | BhukharView


@dataclass(frozen=True, slots=True)
class Fitted:
    """What every table is made with: the one clock, the outputs every table speaks to (the
    buzzer, the player display, the hall), the settings in force, the pockets with a beam,
    whether a camera watches, and the parts that did not start (part, message)."""

    clock: Callable[[], float] = time.monotonic
    outputs: tuple[Output, ...] = ()
    settings: Settings = field(default_factory=Settings)
    beams: tuple[int, ...] = POCKETS
    camera: bool = False
    faults: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CarromStart:
    """A carrom match's start: its record's first line and the stroke timer chosen at setup
    (None: the settings')."""

    match: MatchStart
    stroke_s: float | None = None


@dataclass(frozen=True, slots=True)
class ClockStart:
    """A backgammon match's start (3.5 (v)-(vi)): the players, the length, the score it
    starts at and the clock's options (None: the settings')."""

    players: tuple[str, str]
    match_length: int
    score: tuple[int, int] = (0, 0)
    minutes_per_point: float | None = None
    delay: float | None = None
    post_crawford: bool = False
    second_leg: float | None = None
    best_of_three: bool = False
    #: A clock introduced mid-match: what was already given (2.2 (ii), 2.2 (iv), 2.3).
    breaks_taken: tuple[int, int] = (0, 0)
    penalty_points: tuple[int, int] = (0, 0)


Start = CarromStart | ClockStart | SessionStart
T = TypeVar("T", CarromTable, BackgammonTable, BhukharTable)
S = TypeVar("S", CarromStart, ClockStart, SessionStart)


@dataclass(frozen=True, slots=True)
class Lifecycle(Generic[T, S]):
    """How one kind of table is made: `create` and `resume` (see the module docstring)."""

    kind: str
    start_type: type[S]
    make: Callable[[Journal, Fitted, S, Role], T]
    reopen: Callable[[Journal, Fitted], T | None]

    def create(self, journal: Journal, fitted: Fitted, start: S, role: Role) -> T:
        return self.make(journal, fitted, start, role)

    def resume(self, journal: Journal, fitted: Fitted) -> T | None:
        """The unfinished table of this kind, exactly where it was; None: there is none.
        JournalError when its journal cannot be replayed (it is kept, named, closable)."""
        try:
            return self.reopen(journal, fitted)
        except (IllegalAction, TableFileError) as exc:
            raise JournalError(str(exc)) from exc


# -- carrom ------------------------------------------------------------------------------


def _carrom(journal: Journal, fitted: Fitted, stroke_s: float | None) -> CarromTable:
    settings = fitted.settings
    if stroke_s is not None and stroke_s != settings.timers.stroke_s:
        settings = with_values(settings, timers={"stroke_s": stroke_s})
    session = CarromTable(
        journal,
        settings,
        clock=fitted.clock,
        outputs=fitted.outputs,
        beams=fitted.beams,
        camera=fitted.camera,
    )
    for part, message in fitted.faults:
        session.post(PartFault(fitted.clock(), part, message))
    return session


def _carrom_create(journal: Journal, fitted: Fitted, start: CarromStart, role: Role) -> CarromTable:
    session = _carrom(journal, fitted, start.stroke_s)
    session.start_match(start.match, role=role)
    return session


def _carrom_resume(journal: Journal, fitted: Fitted) -> CarromTable | None:
    session = _carrom(journal, fitted, None)
    return session if session.resume() is not None else None


# -- backgammon --------------------------------------------------------------------------


def _clock(journal: Journal, fitted: Fitted) -> BackgammonTable:
    return BackgammonTable(
        journal, clock=fitted.clock, outputs=fitted.outputs, settings=fitted.settings.backgammon
    )


def _clock_create(
    journal: Journal, fitted: Fitted, start: ClockStart, role: Role
) -> BackgammonTable:
    table = _clock(journal, fitted)
    table.start_match(
        start.players,
        start.match_length,
        start.score,
        minutes_per_point=start.minutes_per_point,
        delay=start.delay,
        post_crawford=start.post_crawford,
        second_leg=start.second_leg,
        best_of_three=start.best_of_three,
        breaks_taken=start.breaks_taken,
        penalty_points=start.penalty_points,
        role=role,
    )
    return table


def _clock_resume(journal: Journal, fitted: Fitted) -> BackgammonTable | None:
    table = _clock(journal, fitted)
    return table if table.resume() is not None else None


# -- Bhukhar -----------------------------------------------------------------------------


def _bhukhar_create(
    journal: Journal, fitted: Fitted, start: SessionStart, role: Role
) -> BhukharTable:
    close_unfinished(journal, BHUKHAR, role, time.time())
    return BhukharTable.create(journal, start, clock=fitted.clock, outputs=fitted.outputs)


def _bhukhar_resume(journal: Journal, fitted: Fitted) -> BhukharTable | None:
    return BhukharTable.open(journal, clock=fitted.clock, outputs=fitted.outputs)


CARROM_TABLES: Lifecycle[CarromTable, CarromStart] = Lifecycle(
    CARROM, CarromStart, _carrom_create, _carrom_resume
)
CLOCK_TABLES: Lifecycle[BackgammonTable, ClockStart] = Lifecycle(
    BACKGAMMON, ClockStart, _clock_create, _clock_resume
)
BHUKHAR_TABLES: Lifecycle[BhukharTable, SessionStart] = Lifecycle(
    BHUKHAR, SessionStart, _bhukhar_create, _bhukhar_resume
)
LIFECYCLES: dict[
    str,
    Lifecycle[CarromTable, CarromStart]
    | Lifecycle[BackgammonTable, ClockStart]
    | Lifecycle[BhukharTable, SessionStart],
] = {
    CARROM: CARROM_TABLES,
    BACKGAMMON: CLOCK_TABLES,
    BHUKHAR: BHUKHAR_TABLES,
}
#: The kinds, in the order home lists them.
KINDS = tuple(LIFECYCLES)
#: Each lifecycle by the type of its start: a start's type names its kind.
_BY_START: dict[type, Lifecycle[Any, Any]] = {lc.start_type: lc for lc in LIFECYCLES.values()}


def create(journal: Journal, fitted: Fitted, start: Start, role: Role) -> AnyTable:
    """A new table for `start` (its type names its kind), over the unfinished one."""
    table: AnyTable = _BY_START[type(start)].create(journal, fitted, start, role)
    return table


def resume(journal: Journal, fitted: Fitted, kind: str) -> AnyTable | None:
    """The unfinished table of `kind` (JournalError: an unknown kind, or one that cannot be
    replayed)."""
    lifecycle = LIFECYCLES.get(kind)
    if lifecycle is None:
        raise JournalError(f"{journal.path}: no table of kind {kind!r}; known: {', '.join(KINDS)}")
    table: AnyTable | None = lifecycle.resume(journal, fitted)
    return table


def kind_of(start: Start) -> str:
    """The kind of table `start` makes."""
    return _BY_START[type(start)].kind
