"""`tableside config check FILE`: every problem in a settings file, one per line, with its key.

Exit status 0 when the file can be used, 1 when it has problems (listed on standard error).
"""

from __future__ import annotations

import argparse
import sys

from kiosk.config import check_settings


def main(args: argparse.Namespace) -> int:
    problems = check_settings(args.file)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        count = len(problems)
        print(f"{args.file}: {count} problem{'s' if count > 1 else ''}", file=sys.stderr)
        return 1
    print(f"{args.file}: OK")
    return 0
