"""The journal's "not saved" fault as facts: which entries are held in memory and why the
medium refused them, so the console words it in the umpire's language, while the log keeps
the English text with the system's own words ("No space left on device"). The messages are
the catalogue's msgids (babel.cfg reads this file).
"""

from __future__ import annotations

import errno
import sqlite3

from kiosk.engine.journal_files import JournalLocked
from kiosk.errors import N_, Reason, ReasonedText, reason_of

_FULL = N_("the disk is full")
_READ_ONLY = N_("the disk is read-only")
_DENIED = N_("no permission to write in the data folder")
_FAILING = N_("the disk failed to read or write")
_OTHER = N_("the medium refused it: {detail}")

# The system's error numbers, and SQLite's names for the same troubles (SQLite words a full
# disk as SQLITE_FULL, with no errno; its extended names start with these).
_CAUSES = {
    errno.ENOSPC: ("disk_full", _FULL),
    errno.EDQUOT: ("disk_full", _FULL),
    errno.EROFS: ("disk_read_only", _READ_ONLY),
    errno.EACCES: ("disk_denied", _DENIED),
    errno.EPERM: ("disk_denied", _DENIED),
    errno.EIO: ("disk_failing", _FAILING),
}
_SQLITE = {
    "SQLITE_FULL": errno.ENOSPC,
    "SQLITE_READONLY": errno.EROFS,
    "SQLITE_PERM": errno.EACCES,
    "SQLITE_IOERR": errno.EIO,
}


def cause(exc: BaseException) -> Reason:
    """Why a write failed, as a reason: a full, read-only, forbidden or failing medium, the
    journal held by another kiosk, or else the error's own (English) words."""
    if isinstance(exc, JournalLocked):
        return Reason("journal_locked", N_("another kiosk is using the journal"))
    number = getattr(exc, "errno", None)
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "") or ""
        number = next((n for prefix, n in _SQLITE.items() if name.startswith(prefix)), None)
    if number in _CAUSES:
        code, message = _CAUSES[number]
        return Reason(code, message)
    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return Reason("disk_other", _OTHER, facts=(("detail", detail),))


def cannot_open(path: object, exc: BaseException) -> Reason:
    """An existing journal the medium will not open (read-only, forbidden, failing)."""
    message = N_("The journal {path} cannot be opened ({why})")
    return Reason.of("journal_cannot_open", message, path=str(path), why=cause(exc))


def not_saved(text: str, seqs: list[int], events: int, error: str | None) -> ReasonedText:
    """`text` (the English kept in the log) with which entries are held (`seqs`, in order; none:
    only a match's end), how many of them are confirmed events, and why (`error`'s facts)."""
    why = reason_of(error) or Reason("disk_other", _OTHER, facts=(("detail", str(error)),))
    if not seqs:
        message = N_("Not saved: a match's end, held in memory ({why})")
    elif len(seqs) == 1:
        message = N_("Not saved: entry {first}, held in memory ({why})")
    else:
        message = N_(
            "Not saved: entries {first}-{last}, held in memory ({why}); confirmed events: {events}"
        )
    first, last = (seqs[0], seqs[-1]) if seqs else (0, 0)
    reason = Reason.of("not_saved", message, first=first, last=last, events=events, why=why)
    return ReasonedText(text, reason)


def labelled(part: str, fault: str) -> str:
    """`fault` under its part's name, as the log shows it ("journal: ..."), its facts kept."""
    reason = reason_of(fault)
    return f"{part}: {fault}" if reason is None else ReasonedText(f"{part}: {fault}", reason)
