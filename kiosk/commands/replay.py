"""`tableside replay FILE [--json]`: rebuild a carrom match from its record.

The whole output is built before any of it is printed, so a record that is
refused prints nothing on standard output: only `FILE:LINE: reason` on
standard error, and the exit status is 1 (shared/spec/match-record.md).
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules.carrom.record import MatchRecordError, match_to_json, replay_text
from kiosk.rules.carrom.scoresheet import render


def main(args: argparse.Namespace) -> int:
    path: str = args.file
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        print(f"{path}: cannot read the record: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Decoding the whole file at once makes exc.start a file offset.
        line = raw.count(b"\n", 0, exc.start) + 1
        print(f"{path}:{line}: not UTF-8 text", file=sys.stderr)
        return 1
    try:
        data = match_to_json(replay_text(text))
    except MatchRecordError as exc:
        print(f"{path}:{exc.line}: {exc.reason}", file=sys.stderr)
        return 1
    output = json.dumps(data, ensure_ascii=False, indent=2) + "\n" if args.json else render(data)
    sys.stdout.write(output)
    sys.stdout.flush()
    return 0
