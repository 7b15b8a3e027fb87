"""The error the carrom core raises for an event the laws do not allow, and its reason."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.errors import TablesideError


def N_(message: str) -> str:
    """Marks a reason's English message for the interface's catalogues (Babel's `N_`): the
    interface words the same message, its msgid, in the umpire's language."""
    return message


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an event was refused, as facts: `code` (stable, for programs and tests), `law`
    (as the laws number it, "" when none), `facts` (name, value) and `message`, the English
    wording with `{placeholders}` for the law and the facts. `worded` names the facts that
    are messages themselves (a role, "no side"), to be worded in the same language."""

    code: str
    message: str
    law: str = ""
    facts: tuple[tuple[str, object], ...] = ()
    worded: tuple[str, ...] = ()

    def values(self) -> dict[str, object]:
        found = dict(self.facts)
        if self.law:
            found["law"] = self.law
        return found

    def english(self) -> str:
        return self.message.format(**self.values())


def refusal(code: str, message: str, /, law: str = "", **facts: object) -> IllegalEvent:
    """The IllegalEvent for `code`: its text is the English message, its `reason` the facts.
    A fact whose value was marked with `worded()` is worded by the interface too."""
    worded = tuple(k for k, v in facts.items() if isinstance(v, _Worded))
    plain = {k: (str(v) if isinstance(v, _Worded) else v) for k, v in facts.items()}
    return IllegalEvent(Reason(code, message, law, tuple(plain.items()), worded))


class _Worded(str):
    """A fact that is itself a message (see `worded`)."""


def worded(message: str) -> str:
    """A fact that is an English message (a role): the interface words it as well."""
    return _Worded(message)


class IllegalEvent(TablesideError, ValueError):
    """An event the match cannot take now; the message says why in plain words, and
    `reason` (when the core gave one) as facts for the interface to word.

    The match is left exactly as it was before the event.
    """

    def __init__(self, reason: Reason | str) -> None:
        self.reason = reason if isinstance(reason, Reason) else None
        super().__init__(reason.english() if isinstance(reason, Reason) else reason)
