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

from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from kiosk.authority import Role, needs
from kiosk.engine.faults import Fault, FaultBoard
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import Outputs
from kiosk.tables.commands import ROLE_REFUSALS, NotAllowed

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


def journal_faults(
    journal: Journal, board: FaultBoard, outputs: Outputs, now: float
) -> tuple[Fault, ...]:
    """The journal's "not saved" fault on a table's fault board, as every table has it; a
    change goes to the outputs (the hall, the display) as any part's fault does."""
    held = journal.fault
    changed = board.raise_("journal", held, now) if held is not None else board.clear("journal")
    if changed is not None:
        outputs.fault(changed, held is not None)
    return board.faults


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
