"""`tableside config init FILE`: write the shipped default settings, commented, for an installer
to edit. An existing file is left alone (exit 1) unless `--force`: it may hold a table's PIN
and calibration.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.atomic import write_atomic
from kiosk.config import default_text


def main(args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.exists() and not args.force:
        print(f"tableside: {target} exists; --force to overwrite it", file=sys.stderr)
        return 1
    try:
        # The file will hold the PIN hashes: the kiosk's user alone reads it (the installer
        # gives it to the service's group, 0640), whatever the umask.
        write_atomic(target, default_text(), mode=0o600)
    except OSError as exc:
        print(f"tableside: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{target}: written; edit it, then 'tableside config check {target}'")
    return 0
