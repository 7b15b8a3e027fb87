"""The one-time move of the old Bhukhar session files into the journal.

Before the journal was the one store, each Bhukhar session was a JSON Lines file in the data
folder (`bhukhar-001.jsonl`, ...: the session record of docs/bhukhar.md, one line written and
synced per entry). At start the kiosk reads each such file into a journal match of kind
"bhukhar", line for line, then renames the file `<name>.migrated` (kept for the umpire, never
read again). The newest session stays open to be resumed; the older ones are finished.

A crash half-way is safe: the import begins with a "migrating" entry and ends with a
"migrated" one, both naming the file; a match with the first and not the second is finished
(abandoned) and the file is read again. A last line cut short by a power cut (no newline,
not JSON) was never confirmed and is left out, as the old kiosk did. A file that cannot be
read is refused as `FILE:LINE: reason` and left where it is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kiosk.engine.journal import EVENT, Journal
from kiosk.rules.bhukhar.record import RecordError, TimerEntry, parse_session, record_lines
from kiosk.tables.bhukhar_table import KIND, TableFileError

OLD_FILES = "bhukhar-*.jsonl"
MIGRATING, MIGRATED = "migrating", "migrated"


def old_session_files(data_dir: Path) -> list[Path]:
    return sorted(Path(data_dir).glob(OLD_FILES))


def _confirmed_text(path: Path) -> str:
    """The file's whole lines; a torn last line that is not JSON was never confirmed."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableFileError(f"{path}: cannot read: {exc}") from None
    if text and not text.endswith("\n"):
        head, _, tail = text.rpartition("\n")
        try:
            json.loads(tail)
        except json.JSONDecodeError:
            return head + "\n" if head else ""
        return text + "\n"
    return text


def _imported(journal: Journal, name: str) -> bool:
    """Whether `name` is already in the journal; a half-done import is finished (abandoned)."""
    done = False
    for row in journal.matches(KIND):
        marks = {
            e.kind
            for e in journal.entries(row.id, (MIGRATING, MIGRATED))
            if e.data.get("from") == name
        }
        if MIGRATED in marks:
            done = True
        elif MIGRATING in marks and not row.finished:
            journal.finish(row.id)
    return done


def migrate_file(journal: Journal, path: Path) -> int | None:
    """Read one old session file into the journal; its match id (None if it was already)."""
    if _imported(journal, path.name):
        return None
    text = _confirmed_text(path)
    try:
        session = parse_session(text)
    except RecordError as exc:
        raise TableFileError(f"{path}:{exc.line}: {exc.reason}") from None
    # The lines as the file holds them (checked above): the journal keeps them unchanged.
    first, *lines = [obj for _, obj in record_lines(text)]
    walls = [e.at for e in session.events if isinstance(e, TimerEntry)]
    start = walls[0] if walls else path.stat().st_mtime
    match_id = journal.begin_match(KIND, first, start)
    journal.append(match_id, 0.0, start, "system", MIGRATING, {"from": path.name})
    wall = start
    for event, line in zip(session.events, lines, strict=True):
        wall = event.at if isinstance(event, TimerEntry) else wall
        journal.append(match_id, max(0.0, wall - start), wall, "umpire", EVENT, line)
    journal.append(
        match_id, max(0.0, wall - start), wall, "system", MIGRATED,
        {"from": path.name, "events": len(session.events)},
    )  # fmt: skip
    return match_id


def migrate_sessions(journal: Journal, data_dir: Path) -> list[str]:
    """Move every old session file of `data_dir` into the journal; the problems, in words
    (`FILE:LINE: reason`), of those left where they are."""
    problems: list[str] = []
    moved: list[int] = []
    for path in old_session_files(data_dir):
        try:
            match_id = migrate_file(journal, path)
        except TableFileError as exc:
            problems.append(str(exc))
            continue
        if match_id is not None:
            moved.append(match_id)
        if journal.fault is None:  # on disk: the file may go
            os.replace(path, path.with_name(path.name + ".migrated"))
    for match_id in moved[:-1]:  # one session resumes, as the newest file did
        journal.finish(match_id)
    return problems
