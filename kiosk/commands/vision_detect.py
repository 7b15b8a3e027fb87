"""`tableside vision detect IMAGE [--pockets X1,Y1,...,X4,Y4] [--json] [--annotate OUT.png]`:
the coins on one photo of a board (docs/vision.md).

It runs the kiosk's own detector (vision/pieces.py), cold. Exit status 0 when a
board was found and counted (the pieces the detector doubts are listed as unsure);
1 with one line naming the file and the reason when the file is not an image, is
empty, damaged or too large, or shows no board that passes the calibration's square
check.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(args: argparse.Namespace) -> int:
    import cv2  # OpenCV only for this command

    from vision.photo import (
        PhotoError,
        annotate,
        annotate_target,
        detect_photo,
        load_image,
        parse_pockets,
    )

    cv2.setNumThreads(1)
    out = None
    try:
        out = annotate_target(args.annotate) if args.annotate else None
        image = load_image(args.image)
        pockets = parse_pockets(args.pockets) if args.pockets else None
        result = detect_photo(image, pockets, where=str(args.image))
    except PhotoError as exc:
        text = str(exc)
        named = [str(args.image)] + ([str(args.annotate)] if args.annotate else [])
        if not any(text.startswith(n) for n in named):
            text = f"{args.image}: {text}"
        print(text, file=sys.stderr)
        return 1
    if out is not None:
        try:
            ok = cv2.imwrite(str(out), annotate(image, result))
        except cv2.error:
            ok = False
        if not ok:
            print(f"{out}: cannot write the annotated image", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        counts = result.counts()
        print(
            f"{args.image}: "
            + ", ".join(f"{counts[k]} {k}" for k in counts)
            + f" (calibration: {result.calibration})"
            + (f"; unsure: {', '.join(result.unsure_colours())}" if result.unsure else "")
        )
    return 0
