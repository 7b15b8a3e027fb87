"""A command to a table, with the role that sends it (DESIGN.md, "Roles").

Every change a person makes at a table is a `Command`: the action (one of the table's
commands), `by` (the role of the console that sends it: a player, the umpire, the director),
its arguments, and `view`, the version of the table's view it was made from. The table
refuses a command made from a view that is no longer current (a double tap, a tap during a
redraw, a stale dialog: the second of two taps was made from the view the first one changed).
It checks the role against its action table (kiosk/access/authority.py `ACTIONS`, and the
table's own say, e.g. an undo past a board's end is the director's), carries it out, and
journals ONE entry with the role that did it. There is no trusted caller: every command method
takes its role by keyword and checks it (`command`), whether called through `send` or
directly. The PIN
gate (kiosk/ui/lock.py) only unlocks the console: it decides the role a command carries, never
what the command does or where it is written.

`preview(command)` asks the table what a command would do without doing it (the core pushes,
looks and pops), so a screen never builds an event or runs the rules itself.
"""

from __future__ import annotations

import functools
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

from kiosk.access.authority import Role, needs
from kiosk.errors import N_, Reason, Refused, reason_of

#: A refusal by role, by the role it needed (worded by the interface).
ROLE_REFUSALS = {
    Role.PLAYER: N_("Nobody may do this: nothing was changed"),
    Role.UMPIRE: N_("Only the umpire may do this: nothing was changed"),
    Role.DIRECTOR: N_("Only the director may do this: nothing was changed"),
}


#: Refusals of a table itself (no core was asked), worded by the interface.
NOTHING_TO_UNDO = Reason.of(
    "nothing_to_undo", N_("Nothing to undo: no event has been confirmed yet")
)
NO_MATCH = Reason.of("no_match", N_("No match: start one or resume"))
NO_PREVIEW = Reason.of("no_preview", N_("This call cannot be shown before it is made"))
#: An error that brought no Reason (an argument of the wrong type, sent from afar): its own
#: words become a fact, so that a view still carries a code and the screen's words.
REFUSED = N_("Refused: {error}. Nothing was changed")
#: A command made from a view that is no longer the table's (a second tap of a double tap).
STALE_VIEW = N_("The screen changed before this tap: nothing was done. Look, then tap again")


def refusal_of(exc: BaseException) -> Reason:
    """The Reason `exc` carries (a core's, a table's), else "refused" with its words."""
    return reason_of(exc) or Reason.of("refused", REFUSED, error=str(exc))


class NotAllowed(Refused, PermissionError):
    """A command whose role may not do it (code "role"), or one the table does not know
    (code "unknown_command"). Nothing changed, nothing was written."""


class StaleView(Refused):
    """A command made from a view the table has moved on from (code "stale_view", with the
    version it was made from and the table's). Nothing changed, nothing was written."""


@dataclass(frozen=True, slots=True)
class Command:
    """`action`: the table's command ("foul", "press", "start_round", ...); `by`: the role
    that sends it; `args`: its arguments as (name, value), in the order given; `view`: the
    version of the table's view it was made from (None: made from no view of this table, e.g.
    the director's decision sent from the hall's board, which carries its own message id)."""

    action: str
    by: Role
    args: tuple[tuple[str, object], ...] = ()
    view: int | None = None

    @classmethod
    def of(cls, action: str, by: Role, /, *, view: int | None = None, **args: object) -> Command:
        """`Command.of("foul", Role.UMPIRE, view=3, by="Asha")`: the arguments by name (a
        player named `by` is an argument like any other: the role is positional)."""
        return cls(action, by, tuple(args.items()), view)

    def kwargs(self) -> dict[str, object]:
        return dict(self.args)

    def arg(self, name: str, default: object = None) -> object:
        return dict(self.args).get(name, default)


#: Versions are numbered across every table of the process, so a command made from one
#: table's view never matches another's (a console that moved to a new match).
_VERSIONS = itertools.count(1)


class ViewVersion:
    """The version of a table's view: it moves on when what a command acts on changes (the
    match, the proposal, the phase), not when only a clock moves, so a tap is never refused
    because a second ticked by. `of(key)`: the version for the state summed up by `key`."""

    def __init__(self) -> None:
        self.version = 0
        self._key: object = None

    def of(self, key: object) -> int:
        if self.version == 0 or key != self._key:
            self._key = key
            self.version = next(_VERSIONS)
        return self.version


F = TypeVar("F", bound=Callable[..., Any])


def command(method: F) -> F:
    """A table's command method: `role` is required by keyword (there is no trusted caller) and
    checked against what the command needs before the method runs (NotAllowed: nothing
    changed). The role is what the entry is journaled with: the role that did it."""
    action = method.__name__

    @functools.wraps(method)
    def checked(self: Commands, *args: Any, role: Role, **kwargs: Any) -> Any:
        if not isinstance(role, Role):
            raise TypeError(f"{action}: role must be a Role, not {role!r}")
        self.check(Command(action, role, tuple(kwargs.items())))
        return method(self, *args, role=role, **kwargs)

    return cast(F, checked)


class Commands(ABC):
    """The command side every table shares. A table lists its commands in `COMMANDS`
    (command -> the action of kiosk/access/authority.py's table it counts as); each command is a
    method of that name, marked `@command`, taking its arguments and `role`. `versions`: the
    version of the view the table gives now (its `_view` sets it)."""

    COMMANDS: ClassVar[Mapping[str, str]] = {}
    versions: ViewVersion

    @property
    def version(self) -> int:
        """The version of the view the table shows now (its views carry it)."""
        return self.versions.of(self.version_key())

    @abstractmethod
    def version_key(self) -> object:
        """What a command acts on, summed up: the view's version moves on when it changes."""

    def needs(self, command: Command) -> Role:
        """The role `command` needs (a table may ask more from what its state says)."""
        return needs(self.COMMANDS.get(command.action, command.action))

    def check(self, command: Command) -> None:
        """NotAllowed unless this table knows `command` and its role may send it."""
        if command.action not in self.COMMANDS:
            raise NotAllowed.of(
                "unknown_command", N_("This table has no command {action}"), action=command.action
            )
        wanted = self.needs(command)
        if command.by < wanted:
            raise NotAllowed.of("role", ROLE_REFUSALS[wanted], needed=wanted.word)

    def send(self, command: Command) -> None:
        """Check the view it was made from and the role, then carry the command out (it
        journals one entry with the role); a refusal raises and changes nothing."""
        if command.view is not None:
            current = self.version
            if command.view != current:
                raise StaleView.of("stale_view", STALE_VIEW, made=command.view, now=current)
        self.check(command)
        getattr(self, command.action)(**command.kwargs(), role=command.by)


def source(role: Role) -> str:
    """The journal's `source` of an entry: the role that did it."""
    return role.word
