"""`tableside config init FILE`: write the shipped default settings, commented, for an installer
to edit. An existing file is left alone (exit 1) unless `--force`: it may hold a table's PIN
and calibration.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kiosk.config import default_text


def main(args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.exists() and not args.force:
        print(f"tableside: {target} exists; --force to overwrite it", file=sys.stderr)
        return 1
    temporary = target.with_name(f".{target.name}.new")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(default_text())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        print(f"tableside: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{target}: written; edit it, then 'tableside config check {target}'")
    return 0
