"""`tableside export JOURNAL [-o FILE] [--clock | --bhukhar]`: a record from a kiosk's journal.

Prints (or writes to FILE) the record of the latest carrom match in the journal
(shared/spec/match-record.md), or with --clock the latest backgammon clock record
(shared/spec/clock-record.md), or with --bhukhar the latest Bhukhar session record
(docs/bhukhar.md; `tableside bhukhar standings` reads it). It can be run while the kiosk is
running: the journal is in WAL mode, so a reader never blocks the kiosk. Problems go to
standard error with exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.atomic import write_atomic
from kiosk.engine.journal import Journal, JournalError
from kiosk.errors import TablesideError
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.tables.backgammon_table import export_clock_record
from kiosk.tables.bhukhar_table import export_bhukhar_record
from kiosk.tables.carrom_record import export_match_record


def main(args: argparse.Namespace) -> int:
    try:
        with Journal(args.journal, create=False, readonly=True) as journal:
            if args.bhukhar:
                text = export_bhukhar_record(journal)
            elif args.clock:
                text = export_clock_record(journal)
            else:
                text = export_match_record(journal)
    except JournalError as exc:  # names the file already
        print(f"tableside export: {exc}", file=sys.stderr)
        return 1
    except (IllegalAction, ValueError, TablesideError) as exc:
        # A record line the rules refuse (a journal changed by hand, or damaged): the file,
        # and what the rules said of it.
        print(f"tableside export: {args.journal}: cannot export: {exc}", file=sys.stderr)
        return 1
    if not args.output:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    target = Path(args.output)
    try:
        write_atomic(target, text)
    except OSError as exc:
        print(f"tableside export: {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
