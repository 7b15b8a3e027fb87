"""`tableside clock replay FILE [--json]`: rebuild a backgammon match clock from its record.

shared/spec/clock-record.md: one JSON object per `query` event and one more
for the time of the last event. A bad record prints `FILE:LINE: reason` on
standard error, nothing on standard output, and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.clocks.record import ClockRecordError, parse_clock_record
from kiosk.rules.backgammon.clocked import ClockSnapshot, replay_clock
from kiosk.rules.backgammon.face import format_clock
from kiosk.safe_read import ReadRefused, read_text


def human(snap: ClockSnapshot) -> str:
    """One readable line: time, each side's bank, the delay left, score, state."""
    parts = [f"t={snap.t:.3f}"]
    for player, bank in snap.banks.items():
        mark = "*" if player == snap.running else " "
        parts.append(f"{mark}{player} {format_clock(bank)}")
    if snap.running is not None:
        parts.append(f"delay {format_clock(snap.delay_left)}")
    parts.append("score " + "-".join(str(s) for s in snap.score.values()))
    if snap.crawford:
        parts.append("Crawford")
    if snap.flagged is not None:
        parts.append(f"{snap.flagged}'s flag fell")
    if snap.winner is not None:
        parts.append(f"{snap.winner} won the match")
    elif snap.running is None:
        parts.append("stopped")
    return "  ".join(parts)


def main(args: argparse.Namespace) -> int:
    path: str = args.file
    try:
        text = read_text(path)  # a regular file, bounded, UTF-8 (bad bytes named by line)
    except ReadRefused as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        snapshots = replay_clock(parse_clock_record(text))
    except ClockRecordError as exc:
        print(f"{path}:{exc.line}: {exc.reason}", file=sys.stderr)
        return 1
    # Everything is computed before anything is printed: a bad record prints nothing.
    if args.json:
        out = [json.dumps(s.to_json(), ensure_ascii=False) for s in snapshots]
    else:
        out = [human(s) for s in snapshots]
    sys.stdout.write("\n".join(out) + "\n")
    return 0
