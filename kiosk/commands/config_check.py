"""`tableside config check [FILE]`: every problem in a settings file, one per line, with its key.

Without FILE the shipped defaults are checked (kiosk/defaults/default.toml).
Exit status 0 when the file can be used, 1 when it has problems (listed on standard error).
"""

from __future__ import annotations

import argparse
import sys

from kiosk.config import DEFAULT_PATH, check_settings


def main(args: argparse.Namespace) -> int:
    name = args.file or str(DEFAULT_PATH)
    problems = check_settings(name)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        count = len(problems)
        print(f"{name}: {count} problem{'s' if count > 1 else ''}", file=sys.stderr)
        return 1
    print(f"{name}: OK")
    return 0
