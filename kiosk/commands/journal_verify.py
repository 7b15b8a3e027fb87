"""`tableside journal verify FILE`: check a journal, or a copy of one, without changing it.

Prints what is wrong with the sequence numbers where (a damaged page, a lost, changed or
reordered entry, a journal shorter than its seal says) and exits 1 on any problem; 0 and a
one-line summary when it checks out. The file is opened read-only and not locked, so a backup
or a running kiosk's journal can be checked alike.
"""

from __future__ import annotations

import argparse
import sqlite3
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.engine import journal_store as store
from kiosk.engine.journal_chain import verify_chain
from kiosk.engine.journal_files import JournalError, read_seal


@dataclass
class Verdict:
    path: Path
    entries: int = 0
    last_seq: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(path: str | Path) -> Verdict:
    """Everything `journal verify` checks, as a Verdict (never raises for a bad file)."""
    verdict = Verdict(Path(path))
    try:
        info = verdict.path.stat()
    except OSError as exc:
        verdict.problems.append(f"cannot read: {exc.strerror or exc}")
        return verdict
    if not stat.S_ISREG(info.st_mode):
        verdict.problems.append("not a regular file")
        return verdict
    wal = Path(f"{path}-wal")
    if info.st_size < store.SMALLEST and not (wal.exists() and wal.stat().st_size > 0):
        verdict.problems.append(f"truncated to {info.st_size} bytes: not a journal any more")
        return verdict
    try:
        db = store.connect(verdict.path, readonly=True)
    except sqlite3.Error as exc:
        verdict.problems.append(f"cannot open: {exc}")
        return verdict
    try:
        damage = [str(r[0]) for r in db.execute("PRAGMA quick_check(20)")]
        if damage != ["ok"]:
            verdict.problems.extend(f"damaged: {line}" for line in damage)
        report = verify_chain(db, store.chain_from(db))
    except sqlite3.Error as exc:
        verdict.problems.append(f"cannot read: {exc}")
        return verdict
    finally:
        db.close()
    verdict.entries, verdict.last_seq = report.rows, report.last_seq
    verdict.problems.extend(report.problems)
    verdict.notes.extend(report.notes)
    try:
        seal = read_seal(verdict.path)
    except JournalError as exc:
        verdict.notes.append(str(exc))
        seal = None
    if seal is not None and report.last_seq < seal.seq:
        verdict.problems.append(
            f"entries {report.last_seq + 1}-{seal.seq}: lost (the journal had reached entry"
            f" {seal.seq}; {'its -wal is missing' if not wal.exists() else 'an older copy?'})"
        )
    elif seal is None:
        verdict.notes.append("no seal beside it: a lost tail cannot be told from an end")
    return verdict


def restore_main(args: argparse.Namespace) -> int:
    """`tableside journal restore BACKUP JOURNAL`."""
    from kiosk.engine.journal_restore import restore

    try:
        moved = restore(Path(args.backup), Path(args.journal))
    except (JournalError, OSError, sqlite3.Error) as exc:
        print(f"tableside journal restore: {exc}", file=sys.stderr)
        return 1
    if moved is not None:
        print(f"{args.journal}: the damaged journal was kept as {moved}")
    print(f"{args.journal}: restored from {args.backup}")
    return 0


def main(args: argparse.Namespace) -> int:
    verdict = verify(args.file)
    for problem in verdict.problems:
        print(f"{verdict.path}: {problem}")
    for note in verdict.notes:
        print(f"{verdict.path}: note: {note}", file=sys.stderr)
    if verdict.ok:
        print(f"{verdict.path}: ok, {verdict.entries} entries up to number {verdict.last_seq}")
        return 0
    return 1
