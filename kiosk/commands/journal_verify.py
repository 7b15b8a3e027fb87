"""`tableside journal verify|restore|key|forget`: the journal on disk, checked and put right.

- `verify FILE [--key KEY ...]` checks a journal, or a copy of one, without changing it
  (journal_check.inspect: every page and index, every row, the chain, the seal; with the
  director's key every row's MAC). Prints what is wrong with the sequence numbers where, and
  what a reader would miss, and exits 1 on any problem; 0 and a one-line summary when it
  checks out. The file is opened read-only and not locked: a running kiosk's journal or a
  backup can be checked alike.
- `restore BACKUP JOURNAL [--force]` (engine/journal_restore.py).
- `key JOURNAL` prints the director's chain key(s) left beside the journal, once.
- `forget JOURNAL` allows a new, empty journal where one is missing, on purpose.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from kiosk.engine.journal_check import Verdict, inspect
from kiosk.engine.journal_files import JournalError, forget
from kiosk.engine.journal_key import JournalKeyError, parse_key, take_director_key

__all__ = ["Verdict", "verify"]


def verify(path: str | Path, keys: list[str] | None = None) -> Verdict:
    """Everything `journal verify` checks, as a Verdict (never raises for a bad file;
    JournalKeyError for a key that is not one)."""
    return inspect(Path(path), keys=[parse_key(k) for k in keys or []])


def main(args: argparse.Namespace) -> int:
    try:
        verdict = verify(args.file, getattr(args, "key", None))
    except JournalKeyError as exc:
        print(f"tableside journal verify: --key: {exc}", file=sys.stderr)
        return 2
    for problem in verdict.problems:
        print(f"{verdict.path}: {problem}")
    for lost in verdict.lost:
        print(f"{verdict.path}: lost to a reader: {lost}")
    for note in verdict.notes:
        print(f"{verdict.path}: note: {note}", file=sys.stderr)
    if verdict.ok:
        keyed = f", {verdict.macs} MACs checked with the director's key" if verdict.macs else ""
        print(
            f"{verdict.path}: ok, {verdict.entries} entries up to number {verdict.last_seq}{keyed}"
        )
        return 0
    return 1


def restore_main(args: argparse.Namespace) -> int:
    """`tableside journal restore BACKUP JOURNAL [--force]`."""
    from kiosk.engine.journal_restore import restore

    try:
        done = restore(Path(args.backup), Path(args.journal), force=bool(args.force))
    except (JournalError, OSError, sqlite3.Error) as exc:
        print(f"tableside journal restore: {exc}", file=sys.stderr)
        return 1
    if done.replaced:
        print(f"{args.journal}: --force: {done.replaced}")
    for kept in done.kept:
        print(f"{args.journal}: the journal it replaced is kept as {kept}")
    taken = f", and {done.salvaged} later entries taken back from the old journal"
    print(
        f"{args.journal}: restored from {args.backup}{taken if done.salvaged else ''};"
        f" it reaches entry {done.last_seq}"
    )
    if done.new_key:
        print(
            f"{args.journal}: entries from {done.last_seq + 1} are keyed by a new chain key:"
            f" the director takes it with `tableside journal key {args.journal}`"
        )
    return 0


def key_main(args: argparse.Namespace) -> int:
    """`tableside journal key JOURNAL`: the director's keys, printed once."""
    keys = take_director_key(Path(args.journal))
    if not keys:
        print(f"{args.journal}: no chain key left to take (taken already)", file=sys.stderr)
        return 1
    for key in keys:
        print(key)
    print(
        "Write it down and keep it away from the kiosk: `tableside journal verify JOURNAL"
        " --key KEY` shows any entry changed after it was written. It is not kept here.",
        file=sys.stderr,
    )
    return 0


def forget_main(args: argparse.Namespace) -> int:
    """`tableside journal forget JOURNAL`."""
    try:
        moved = forget(Path(args.journal))
    except (JournalError, OSError) as exc:
        print(f"tableside journal forget: {exc}", file=sys.stderr)
        return 1
    for path in moved:
        print(f"{args.journal}: its seal was moved to {path}")
    print(f"{args.journal}: the next start creates a new, empty journal here")
    return 0
