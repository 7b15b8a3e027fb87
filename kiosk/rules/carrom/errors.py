"""The error the carrom core raises for an event the laws do not allow."""

from __future__ import annotations

from kiosk.errors import TablesideError


class IllegalEvent(TablesideError, ValueError):
    """An event the match cannot take now; the message says why in plain words.

    The match is left exactly as it was before the event.
    """
