"""`tableside bhukhar standings FILE [--json]`: the standings of a Bhukhar session record.

A record that breaks the format or the rules is refused with `FILE:LINE:
reason` on standard error, exit status 1, and nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules.bhukhar.record import RecordError, parse_session
from kiosk.rules.bhukhar.report import format_standings, session_to_json
from kiosk.safe_read import ReadRefused, read_text


def main(args: argparse.Namespace) -> int:
    path: str = args.file
    try:
        text = read_text(path)  # a regular file, bounded, UTF-8 (bad bytes named by line)
    except ReadRefused as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        session = parse_session(text)
    except RecordError as exc:
        print(f"{path}:{exc.line}: {exc.reason}", file=sys.stderr)
        return 1
    if args.json:
        out = json.dumps(session_to_json(session), indent=2, ensure_ascii=False) + "\n"
    else:
        out = format_standings(session)
    sys.stdout.write(out)
    return 0
