"""`tableside replay FILE [--json]`: rebuild a carrom match from its record.

The whole output is built before any of it is printed, so a record that is
refused prints nothing on standard output: only `FILE:LINE: reason` on
standard error, and the exit status is 1 (shared/spec/match-record.md).
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules.carrom.record import RecordError, match_to_json, replay_text
from kiosk.rules.carrom.scoresheet import render
from kiosk.safe_read import ReadRefused, read_text


def main(args: argparse.Namespace) -> int:
    path: str = args.file
    try:
        text = read_text(
            path, what="the record"
        )  # a regular file, bounded, UTF-8 (bad bytes named by line)
    except ReadRefused as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        data = match_to_json(replay_text(text))
    except RecordError as exc:
        print(f"{path}:{exc.line}: {exc.reason}", file=sys.stderr)
        return 1
    output = json.dumps(data, ensure_ascii=False, indent=2) + "\n" if args.json else render(data)
    sys.stdout.write(output)
    sys.stdout.flush()
    return 0
