"""The error the carrom core raises for an event the laws do not allow, and its reason."""

from __future__ import annotations

from kiosk.errors import N_, Reason, Refused, worded

__all__ = ["N_", "IllegalEvent", "Reason", "worded"]


class IllegalEvent(Refused, ValueError):
    """An event the match cannot take now; the message says why in plain words, and
    `reason` (when the core gave one) as facts for the interface to word.

    The match is left exactly as it was before the event.
    """
