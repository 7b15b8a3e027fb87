"""`tableside vision diff BEFORE AFTER --pockets X1,Y1,...,X4,Y4 [--empty EMPTY] [--json]`:
what left the board between two photos of one board under one camera, as the kiosk
computes it (docs/vision.md, vision/photo_diff.py).

Exit status 0 when both photos were counted and compared (the classes the camera doubts
are listed as unsure); 1 with one line naming the file and the reason when a photo is
not an image, is empty, damaged or too large, is not of the same camera, or its pockets
do not make the board's square.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Register `vision diff` under the `vision` command's subparsers."""
    p = sub.add_parser("diff", help="what left the board between two photos of it")
    p.add_argument("before", metavar="BEFORE")
    p.add_argument("after", metavar="AFTER")
    p.add_argument(
        "--pockets", required=True, metavar="X1,Y1,...,X4,Y4", help="pocket centres, any order"
    )
    p.add_argument("--empty", metavar="EMPTY", help="a photo of the empty board, kept")
    p.add_argument(
        "--after-pockets", metavar="X1,Y1,...,X4,Y4", help="AFTER's pockets, if the camera moved"
    )
    p.add_argument("--json", action="store_true", help="print JSON (docs/vision.md)")
    p.set_defaults(handler="kiosk.commands.vision_diff:main")


def main(args: argparse.Namespace) -> int:
    import cv2  # OpenCV only for this command

    from vision.photo import PhotoError, parse_pockets
    from vision.photo_diff import diff_photos

    cv2.setNumThreads(1)
    try:
        pockets = parse_pockets(args.pockets)
        after = parse_pockets(args.after_pockets) if args.after_pockets else None
        result = diff_photos(args.before, args.after, pockets, args.empty, after)
    except PhotoError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    left = result.left()
    said = ", ".join(f"{left[k]} {k}" for k in left if left[k]) or "nothing"
    unsure = result.diff.unsure
    print(
        f"{args.after}: left the board since {args.before}: {said}"
        + (f"; unsure: {', '.join(unsure)}" if unsure else "")
    )
    return 0
