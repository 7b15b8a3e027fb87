"""How Kivy-free formatting code words a message: `words(message, **values)`.

The screens pass their translator's `_` (kiosk/ui/i18n.py); tests and tools that need no
window pass `english`. The message is the catalogue's msgid, its placeholders named.
"""

from __future__ import annotations

from typing import Any, Protocol


class Words(Protocol):
    def __call__(self, message: str, /, **values: Any) -> str: ...


def english(message: str, /, **values: Any) -> str:
    """The message as written, its `{placeholders}` filled."""
    return message.format(**values) if values else message


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is worded later (a table of names)."""
    return message
