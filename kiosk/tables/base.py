"""The one shape of every table (carrom, backgammon, Bhukhar), as the engine sees it.

A table takes timestamped inputs (`post`, from any thread: it only queues), answers `poll(now)`
(take the inputs, fire what fell due, tell the outputs what changed) and `next_deadline()`
(when `poll` next has something to do without an input), and gives its `view()`. The umpire's
commands are the table's own methods: each returns nothing, or refuses with the table's error
(a `kiosk.errors.Refused`: IllegalEvent, IllegalAction, SessionError) and changes nothing.
Every change of the view goes to the table's `outputs`: the screen, the player display, the
buzzer and the hall publisher alike, so that what the screen draws is what every output gets.
"""

from __future__ import annotations

import dataclasses
import queue
from abc import abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from kiosk.access.authority import Role, needs
from kiosk.engine.faults import Fault, FaultBoard
from kiosk.engine.journal import Journal
from kiosk.engine.journal_faults import labelled
from kiosk.engine.outputs import Output, Outputs
from kiosk.tables.commands import ROLE_REFUSALS, Commands, NotAllowed, ViewVersion

if TYPE_CHECKING:
    from kiosk.tables.commands import Command

#: The journal entry that closes an unfinished table: who closed it and why.
CLOSED = "closed"


def may_close(role: Role) -> None:
    """NotAllowed unless `role` may close an unfinished table (the director's)."""
    wanted = needs("close_table")
    if role < wanted:
        raise NotAllowed.of("role", ROLE_REFUSALS[wanted], needed=wanted.word)


def close_match(journal: Journal, match_id: int, role: Role, wall: float, why: str) -> None:
    """Close an unfinished match (the director's act; NotAllowed for any other role): one
    "closed" entry naming the role and why ("new_match": a new match of its game started
    over it; "closed": from home), at the match's last time, then it is no longer offered for
    resuming."""
    may_close(role)
    last = journal.last_entry(match_id)
    t = 0.0 if last is None else last.t
    journal.append(match_id, t, wall, role.word, CLOSED, {"why": why})
    journal.finish(match_id)


def write_and_tell(journal: Journal, outputs: Outputs) -> None:
    """Before a view goes out: the raw inputs kept since the last write go to the disk in one
    transaction, not synced (`Journal.write`: once per poll or command), and each confirmed
    event or undo synced since is told to the outputs (the hall's publisher sends it). Nothing
    confirmed reaches an output before it is on disk."""
    journal.write()
    for confirmed in journal.take_confirmed():
        outputs.confirmed(confirmed)


def close_unfinished(journal: Journal, kind: str, role: Role, wall: float) -> None:
    """A new match of `kind` starts: the unfinished one of that game (if any) is closed, by
    the director only (NotAllowed before anything is written)."""
    old = journal.unfinished(kind)
    if old is not None:
        close_match(journal, old.id, role, wall, "new_match")


@runtime_checkable
class Table(Protocol):
    """What the runner drives, the outputs listen to, and a screen sends commands to. Made
    and resumed by its kind's lifecycle (kiosk/tables/registry.py)."""

    #: Its kind ("carrom", "backgammon", "bhukhar"): its journal matches and its screen.
    kind: ClassVar[str]
    outputs: Outputs
    #: Its match in the journal (None before a match starts).
    match_id: int | None

    def post(self, item: object) -> None:
        """Queue an input (any thread); never blocks."""

    def poll(self, now: float | None = None) -> object:
        """Take the queued inputs and fire what fell due by `now` (the runner's one clock);
        the view goes to the outputs when something visible changed."""

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input, or None."""

    def view(self) -> object:
        """What the table shows now (the same view every output is given)."""

    def needs(self, command: Command) -> Role:
        """The role `command` needs here (kiosk/tables/commands.py)."""

    def send(self, command: Command) -> None:
        """Check the command's role and carry it out, journaled with the role; or refuse."""

    def match_t(self, now: float) -> float:
        """Match seconds at monotonic `now` (the record's "t")."""


def all_but(view: object, *names: str) -> tuple[object, ...]:
    """A view's fields but `names` (a dataclass): what must change for a poll to say so."""
    return tuple(
        getattr(view, f.name)
        for f in dataclasses.fields(view)  # type: ignore[arg-type]
        if f.name not in names
    )


V = TypeVar("V")


class TableBase(Commands, Generic[V]):
    """What every table does one way: the input queue (`post`, any thread), the loop's turn
    (`poll`: the inputs, what fell due, the journal's held writes, then the view), the fault
    board with the journal's "not saved" fault on it, and the view to the outputs on a change
    (`_tell`). A table gives its own `_view(now)`, `version_key()` and commands, and the hooks
    below where its game differs: `_step` (its inputs and deadlines), `_visible` (what of a
    view must change for the outputs to be told; not a clock that moves at every poll)."""

    kind: ClassVar[str]

    def __init__(
        self,
        journal: Journal,
        *,
        clock: Callable[[], float],
        wall: Callable[[], float],
        outputs: Iterable[Output],
    ) -> None:
        self.journal = journal
        self.clock = clock
        self.wall = wall
        self.outputs = Outputs(outputs)
        #: The faults active now: the parts', the inputs' and the journal's.
        self.fault_board = FaultBoard()
        self.versions = ViewVersion()
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._last_view: V | None = None

    # -- inputs (any thread) -----------------------------------------------------------

    def post(self, item: object) -> None:
        """Queue an input (a sensor's, a command from afar); never blocks."""
        self._inbox.put(item)

    def _take_inbox(self, now: float) -> list[object]:
        """The inputs queued since the last poll, in the order of their stamps."""
        items: list[object] = []
        while True:
            try:
                items.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        items.sort(key=lambda item: float(getattr(item, "t", now)))
        return items

    # -- the loop's side ---------------------------------------------------------------

    def _now(self, now: float | None = None) -> float:
        """The time a command or a poll acts at: `now`, or the clock read now."""
        return self.clock() if now is None else now

    def _poll_time(self, now: float | None) -> float:
        return self._now(now)

    def poll(self, now: float | None = None) -> V | None:
        """Take the queued inputs, fire what fell due by `now` (the runner's one clock), write
        what the journal held if the disk takes it again, and tell the outputs if anything
        visible changed. Returns the view, or None while the table has none to show."""
        now = self._poll_time(now)
        self._step(now)
        if self.journal.fault is not None or self.fault_board.active("journal"):
            self.journal.retry()  # held entries are written once the disk takes them (paced)
            self._journal_works(now)
        if not self._showing():
            return None
        return self._tell(now, only_if_changed=True)

    def _showing(self) -> bool:
        """Whether the table has a view to show (a clock has none before its match)."""
        return True

    def _step(self, now: float) -> None:
        """One turn of the loop before the view: by default a table has no sensors, so an
        input is a fault on the board, never a crash of the thread that posted it."""
        for item in self._take_inbox(now):
            self._stray(item, now)

    def _stray(self, item: object, now: float) -> None:
        """An input this table does not take: a fault of part "inputs", nothing else."""
        self._raise_fault("inputs", f"unknown input {type(item).__name__} ignored", now)

    def view(self, now: float | None = None) -> V:
        """What the table shows now (the same view every output was last given, its clock
        read at `now`)."""
        return self._view(self._now(now))

    @abstractmethod
    def _view(self, now: float) -> V:
        """The view at monotonic `now`."""

    def _visible(self, view: V) -> object:
        """What of a view must change for a poll to tell the outputs (default: all of it)."""
        return view

    def _before_tell(self) -> None:
        """What a table settles before its view goes out (a match decided is finished)."""

    def _tell(self, now: float, *, only_if_changed: bool = False) -> V:
        """The view to the outputs: after a command always, from `poll` only when something
        visible changed. First the journal's kept rows are written and the confirmed entries
        told (`write_and_tell`: nothing confirmed reaches an output before it is on disk), and
        the journal's fault is raised or cleared."""
        self._before_tell()
        write_and_tell(self.journal, self.outputs)
        self._journal_works(now)
        view = self._view(now)
        last = self._last_view
        if not only_if_changed or last is None or self._visible(view) != self._visible(last):
            self._last_view = view
            self.outputs.state_changed(view)
        return view

    # -- the fault board ---------------------------------------------------------------

    @property
    def faults(self) -> tuple[Fault, ...]:
        return self.fault_board.faults

    def _raise_fault(self, part: str, message: str, now: float) -> None:
        """A part's fault, new or changed, goes on the board and to the outputs."""
        fault = self.fault_board.raise_(part, message, now)
        if fault is not None and self._says():
            self._fault_noted(part, message, now)
            self.outputs.fault(fault, True)

    def _clear_fault(self, part: str, now: float) -> None:
        fault = self.fault_board.clear(part)
        if fault is not None and self._says():
            self._fault_noted(part, None, now)
            self.outputs.fault(fault, False)

    def _says(self) -> bool:
        """False while a table replays its journal: nothing is said to the world."""
        return True

    def _fault_noted(self, part: str, message: str | None, now: float) -> None:
        """A fault raised (`message`) or cleared (None), for a table that journals them."""

    def _journal_works(self, now: float) -> None:
        """The journal's "not saved" fault while it holds writes; cleared once written."""
        held = self.journal.fault
        if held is not None:
            self._raise_fault("journal", labelled("journal", held), now)
        elif self.fault_board.active("journal"):
            self._clear_fault("journal", now)
