"""A sensor's fault beside a table as facts: a beam stuck, flapping or blocked, a camera gone
silent. The table words nothing: the text is the English kept in the log and the journal, and
it carries the `Reason` the interface words (kiosk/ui/words.py `said_words`). The messages
are the catalogue's msgids (babel.cfg reads this file); the parts' own faults (pins, serial
ports, a part that did not start) are kiosk/parts/faults.py.
"""

from __future__ import annotations

from kiosk.errors import N_, Reason, ReasonedText

MESSAGES = {
    "camera_silent": N_("No picture from the camera for {seconds} s"),
    "beam_stuck": N_("Pocket {pocket}'s beam is stuck"),
    "beam_flapping": N_(
        "Pocket {pocket}'s beam is flapping: its hits are held for the umpire, not counted"
    ),
    "beam_blocked": N_("Pocket {pocket}'s beam is blocked at start-up"),
}


def said(text: str, code: str, **facts: object) -> ReasonedText:
    """`text` (the English kept in the log) with the reason `code` and its facts."""
    return ReasonedText(text, Reason(code, MESSAGES[code], facts=tuple(facts.items())))


def camera_silent(seconds: float) -> ReasonedText:
    return said(f"camera: no frames for {seconds:.1f} s", "camera_silent", seconds=f"{seconds:.1f}")
