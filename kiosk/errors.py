"""The one root of every error Tableside raises on purpose.

Each error class subclasses `TablesideError` and the built-in that fits (mostly
`ValueError`: bad input; `RuntimeError` or `OSError` for a part or a file that fails), so a
caller may catch every Tableside error at once, or keep catching the built-in it always did.
Standard library only: the pure cores import it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self


class TablesideError(Exception):
    """Something Tableside refused or could not do; the message says what and where."""


def N_(message: str) -> str:
    """Marks a refusal's English message for the interface's catalogues (Babel's `N_`): the
    interface words the same message, its msgid, in the umpire's language."""
    return message


class _Worded(str):
    """A fact that is itself a message (see `worded`)."""


def worded(message: str) -> str:
    """A fact that is an English message (a role, a colour): the interface words it too."""
    return _Worded(message)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a core refused, as facts: `code` (stable, for programs and tests), `law` (the law
    or rule number as its text numbers it, "" when none), `facts` (name, value) and
    `message`, the English wording with `{placeholders}` for the law and the facts. `worded`
    names the facts that are messages themselves, to be worded in the same language; a fact
    that is a `Reason` is worded as one."""

    code: str
    message: str
    law: str = ""
    facts: tuple[tuple[str, object], ...] = ()
    worded: tuple[str, ...] = ()

    @classmethod
    def of(cls, code: str, message: str, /, law: str = "", **facts: object) -> Reason:
        names = tuple(k for k, v in facts.items() if isinstance(v, _Worded))
        plain = tuple((k, str(v) if isinstance(v, _Worded) else v) for k, v in facts.items())
        return cls(code, message, law, plain, names)

    def values(self) -> dict[str, object]:
        found = dict(self.facts)
        if self.law:
            found["law"] = self.law
        return found

    def english(self) -> str:
        """The English words; a fact that is itself a `Reason` (a nested refusal, such as the
        meld inside a scoresheet's refusal) in its own English words."""
        values = self.values()
        return self.message.format(
            **{k: v.english() if isinstance(v, Reason) else v for k, v in values.items()}
        )


class Refused(TablesideError):
    """A core's refusal: the message is the English words, `reason` (when the core gave one)
    the facts for the interface to word in its language."""

    def __init__(self, reason: Reason | str) -> None:
        self.reason = reason if isinstance(reason, Reason) else None
        super().__init__(reason.english() if isinstance(reason, Reason) else reason)

    @classmethod
    def of(cls, code: str, message: str, /, law: str = "", **facts: object) -> Self:
        """The refusal for `code`: its text is the English message, its `reason` the facts
        (a fact marked `worded()` is worded by the interface too)."""
        return cls(Reason.of(code, message, law, **facts))


class ReasonedText(str):
    """A part's English message as the driver wrote it (what the log and the journal keep),
    with the `reason` behind it (a code and its facts: the pin, the port, the camera) for
    the interface to word in its own language. A plain `str` everywhere else."""

    reason: Reason

    def __new__(cls, text: str, reason: Reason) -> ReasonedText:
        made = super().__new__(cls, text)
        made.reason = reason
        return made


def reason_of(message: object) -> Reason | None:
    """The reason a message (a `ReasonedText`) or an error (a `Refused`) carries, else None
    (words only in English)."""
    reason = getattr(message, "reason", None)
    return reason if isinstance(reason, Reason) else None
