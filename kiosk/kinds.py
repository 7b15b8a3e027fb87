"""One record per game kind: everything the kiosk knows of a game beside its own folders.

A `Kind` says how its table is made and resumed (its `Lifecycle`, kiosk/tables/registry.py),
the type of its view, the hall's tile of that view (kiosk/hall/views.py), the player
display's frame (kiosk/parts/display_frames.py), the app's screen for its table, its words
on home, whether it takes the sensors' input, and what home asks of a table in play. The
wiring, the start and home look a kind up by the match's kind (`KINDS[table.kind]`) or by its
view's type (`of_view`), never by switching over the tables' classes. Adding a game is one
more record here, and its folders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from drivers.display_protocol import DisplayFrame
from kiosk.errors import N_
from kiosk.hall.views import bhukhar_tile, carrom_tile, clock_tile
from kiosk.parts.display_frames import bhukhar_frame, carrom_frame, clock_frame
from kiosk.tables.backgammon_table import BackgammonTable, ClockView
from kiosk.tables.bhukhar_table import BhukharTable, BhukharView
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.registry import BHUKHAR_TABLES, CARROM_TABLES, CLOCK_TABLES, Lifecycle

T = TypeVar("T")
S = TypeVar("S")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Words:
    """A kind's words on home (catalogue msgids): its Resume button, and the table as a
    sentence names it ("the carrom match {players}")."""

    resume: str
    what: str


def _none(_table: object) -> None:
    return None


def _never(_table: object) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Kind(Generic[T, S, V]):
    """One game kind (see the module docstring). `name` is the journal's match kind and the
    name of the app's screen for its table; `turn_colour(table)` the colour at turn (the
    simulated coins: None where a kind has none); `clock_running(table)` a clock that runs
    on while home is shown (home asks to pause it)."""

    name: str
    lifecycle: Lifecycle[Any, Any]
    table: type[T]
    view: type[V]
    tile: Callable[[V], dict[str, Any]]
    frame: Callable[[V], DisplayFrame | None]
    words: Words
    sensors: bool = False
    turn_colour: Callable[[T], str | None] = _none
    clock_running: Callable[[T], bool] = _never

    @property
    def screen(self) -> str:
        """The app's screen for a table of this kind."""
        return self.name


def _carrom_turn(table: CarromTable) -> str | None:
    state = table.view().state
    now = None if state is None else state.now
    return None if now is None else now.turn_colour


def _clock_runs(table: BackgammonTable) -> bool:
    """A side's clock running, not paused."""
    clock = table.cm.clock if table.cm is not None else None
    return clock is not None and clock.running is not None and clock.paused is None


CARROM: Kind[CarromTable, Any, CarromView] = Kind(
    CARROM_TABLES.kind,
    CARROM_TABLES,
    CarromTable,
    CarromView,
    carrom_tile,
    carrom_frame,
    Words(N_("Resume the unfinished carrom match"), N_("the carrom match {players}")),
    sensors=True,
    turn_colour=_carrom_turn,
)
BACKGAMMON: Kind[BackgammonTable, Any, ClockView] = Kind(
    CLOCK_TABLES.kind,
    CLOCK_TABLES,
    BackgammonTable,
    ClockView,
    clock_tile,
    clock_frame,
    Words(N_("Resume the unfinished backgammon clock"), N_("the backgammon clock {players}")),
    clock_running=_clock_runs,
)
BHUKHAR: Kind[BhukharTable, Any, BhukharView] = Kind(
    BHUKHAR_TABLES.kind,
    BHUKHAR_TABLES,
    BhukharTable,
    BhukharView,
    bhukhar_tile,
    bhukhar_frame,
    Words(N_("Resume the unfinished Bhukhar session"), N_("the Bhukhar session of {players}")),
)

#: Every kind by its name, in the order home lists them.
KINDS: dict[str, Kind[Any, Any, Any]] = {k.name: k for k in (CARROM, BACKGAMMON, BHUKHAR)}
_BY_VIEW: dict[type, Kind[Any, Any, Any]] = {k.view: k for k in KINDS.values()}


def of_view(view: object) -> Kind[Any, Any, Any] | None:
    """The kind whose view `view` is; None: no table's view."""
    return _BY_VIEW.get(type(view))


def tile_of(view: object) -> dict[str, Any] | None:
    """The hall's tile of a table's view (None: not a table's view)."""
    kind = of_view(view)
    return None if kind is None else kind.tile(view)


def frame_of(view: object) -> DisplayFrame | None:
    """The player display's frame for a table's view (None: not a table's view)."""
    kind = of_view(view)
    return None if kind is None else kind.frame(view)
