"""A command to a table, with the role that sends it (DESIGN.md, "Roles").

Every change a person makes at a table is a `Command`: the action (one of the table's
commands), `by` (the role of the console that sends it: a player, the umpire, the director)
and its arguments. The table checks the role against its action table
(kiosk/authority.py `ACTIONS`, and the table's own say, e.g. an undo past a board's end is the
director's), carries it out, and journals ONE entry with the role as its source. The PIN gate
(kiosk/ui/lock.py) only unlocks the console: it decides the role a command carries, never
what the command does or where it is written.

`preview(command)` asks the table what a command would do without doing it (the core pushes,
looks and pops), so a screen never builds an event or runs the rules itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from kiosk.authority import Role, needs
from kiosk.errors import N_, Reason, Refused

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


class NotAllowed(Refused, PermissionError):
    """A command whose role may not do it (code "role"), or one the table does not know
    (code "unknown_command"). Nothing changed, nothing was written."""


@dataclass(frozen=True, slots=True)
class Command:
    """`action`: the table's command ("foul", "press", "start_round", ...); `by`: the role
    that sends it; `args`: its arguments as (name, value), in the order given."""

    action: str
    by: Role
    args: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, action: str, by: Role, /, **args: object) -> Command:
        """`Command.of("foul", Role.UMPIRE, by="Asha")`: the arguments by name (a player
        named `by` is an argument like any other: the role is positional)."""
        return cls(action, by, tuple(args.items()))

    def kwargs(self) -> dict[str, object]:
        return dict(self.args)

    def arg(self, name: str, default: object = None) -> object:
        return dict(self.args).get(name, default)


class Commands:
    """The command side every table shares. A table lists its commands in `COMMANDS`
    (command -> the action of kiosk/authority.py's table it counts as); each command is a
    method of that name taking its arguments and `role` (None: a trusted caller, the tests,
    the benches, a replay: journaled as the role the action needs)."""

    COMMANDS: ClassVar[Mapping[str, str]] = {}

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
        """Check the role, then carry the command out (it journals one entry with the role);
        a refusal raises the table's error and changes nothing."""
        self.check(command)
        getattr(self, command.action)(**command.kwargs(), role=command.by)


def source(action: str, role: Role | None) -> str:
    """The journal's `source` of an entry made by `action`: the role that sent it, or the role
    the action needs when a trusted caller (no role) made it."""
    return (role if role is not None else max(needs(action), Role.PLAYER)).word
