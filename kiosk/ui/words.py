"""How Kivy-free formatting code words a message: `words(message, **values)`.

The screens pass their translator's `_` (kiosk/ui/i18n.py); tests and tools that need no
window pass `english`. The message is the catalogue's msgid, its placeholders named.
"""

from __future__ import annotations

from typing import Any, Protocol

from kiosk.errors import Reason, reason_of


class Words(Protocol):
    def __call__(self, message: str, /, **values: Any) -> str: ...


def english(message: str, /, **values: Any) -> str:
    """The message as written, its `{placeholders}` filled."""
    return message.format(**values) if values else message


def reason_words(reason: Reason, words: Words) -> str:
    """A core's refusal worded: its message and the facts that are messages, in `words`'s
    language (the law number as that language's law text numbers it); a fact that is a
    refusal itself (a meld inside a scoresheet's refusal) is worded the same way."""
    values = {
        k: words(str(v))
        if k in reason.worded
        else reason_words(v, words)
        if isinstance(v, Reason)
        else v
        for k, v in reason.values().items()
    }
    return words(reason.message, **values)


def said_words(message: str, words: Words) -> str:
    """A part's fault in `words`'s language when it carries its facts (a kiosk/errors.py
    `ReasonedText`, made by kiosk/parts/faults.py and kiosk/tables/sensor_faults.py); any
    other message as it is (English)."""
    reason = reason_of(message)
    return message if reason is None else reason_words(reason, words)


def error_words(exc: BaseException, words: Words) -> str:
    """An error as the umpire reads it: a refusal by its reason, in `words`'s language; any
    other in its own (English) words."""
    reason = reason_of(exc)
    return str(exc) if reason is None else reason_words(reason, words)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is worded later (a table of names)."""
    return message
