"""How the photo detector holds up when a real photo is taken a little differently.

    .venv/bin/python bench/bench_vision_perturb.py DIR [--labels FILE] [--verbose]

The real development photos (DIR, as for bench_vision_real.py; absent: the bench says so
and exits 0) were all counted right with their pockets given, after the detector was
mended on them. Boards we never saw will be photographed turned, mirrored, lit brighter
or darker, warmer, smaller or more compressed. Each scored photo is counted again, cold
and with its (moved) pockets given, in each of these variants:

- rot90, flip: turned a quarter, mirrored (the pockets moved with the pixels);
- x0.5, x0.35: shrunk (only while the photo stays 300 px or more across);
- gamma0.7, gamma0.85, gamma1.2, gamma1.4: brighter or darker mid-tones;
- rot10, tilt: turned 10 degrees; seen by a camera leaning 8 degrees forward (a pinhole
  whose focal length is the photo's width, in the same frame), the pockets moved alike;
- blur, noise: out of focus by about a pixel and a half at a 1000 px board; sensor
  noise of 6 levels;
- jpeg50: saved again as a JPEG of quality 50;
- warm: a warmer light (blue down 15%, red up 15%).

Printed per variant: exact, and confident wrong (a count wrong and not covered by the
doubt, judged as bench_vision_real.py judges). A confident wrong count on a variant is a
margin that a new board may fall over; an unsure one is the detector saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision_real import judge, labelled_photos, photo_arguments

from vision import board as B
from vision.photo import PhotoError, detect_photo, load_image

Array = Any
Points = list[tuple[float, float]]


def _gamma(image: Array, g: float) -> Array:
    lut = np.clip(((np.arange(256) / 255.0) ** g) * 255, 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


def _warped(image: Array, pockets: Points, m: Array) -> tuple[Array, Points]:
    """The photo warped by `m` (2x3 affine or 3x3 perspective) into a frame that holds it
    all, with its pockets moved alike."""
    h, w = image.shape[:2]
    m3 = np.vstack([m, [0, 0, 1]]) if m.shape == (2, 3) else m
    frame = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
    corners = cv2.perspectiveTransform(frame, m3)[0]
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    m3 = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ m3
    size = (int(np.ceil(x1 - x0)), int(np.ceil(y1 - y0)))
    out = cv2.warpPerspective(image, m3, size, flags=cv2.INTER_LINEAR)
    moved = cv2.perspectiveTransform(np.array([pockets], np.float32), m3)[0]
    return out, [(float(x), float(y)) for x, y in moved]


def variants(image: Array, pockets: Points) -> Iterator[tuple[str, Array, Points]]:
    """(name, image, pockets) of each variant of one photo, the photo itself first."""
    h, w = image.shape[:2]
    yield "orig", image, pockets
    turned = [(h - 1 - y, x) for x, y in pockets]
    yield "rot90", cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), turned
    yield "flip", np.ascontiguousarray(image[:, ::-1]), [(w - 1 - x, y) for x, y in pockets]
    for s in (0.5, 0.35):
        if min(h, w) * s >= 300:
            small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            yield f"x{s}", small, [(x * s, y * s) for x, y in pockets]
    for g in (0.7, 0.85, 1.2, 1.4):
        yield f"gamma{g}", _gamma(image, g), pockets
    yield "rot10", *_warped(image, pockets, cv2.getRotationMatrix2D((w / 2, h / 2), 10, 1.0))
    # The camera leaning 8 degrees forward (a pinhole of focal length the photo's width):
    # the homography K R K^-1 a real lean makes.
    f, lean = float(max(h, w)), np.radians(8.0)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    r = np.array([[1, 0, 0], [0, np.cos(lean), -np.sin(lean)], [0, np.sin(lean), np.cos(lean)]])
    tilt = k @ r @ np.linalg.inv(k)
    # Turned back so that the board's centre stays where it was (the photographer aims at
    # it), in the same frame.
    cx, cy = np.mean(np.array(pockets), axis=0)
    mx, my = cv2.perspectiveTransform(np.array([[[cx, cy]]], np.float32), tilt)[0, 0]
    tilt = np.array([[1, 0, cx - mx], [0, 1, cy - my], [0, 0, 1]]) @ tilt
    leaning = cv2.warpPerspective(image, tilt, (w, h), flags=cv2.INTER_LINEAR)
    moved = cv2.perspectiveTransform(np.array([pockets], np.float32), tilt)[0]
    yield "tilt", leaning, [(float(x), float(y)) for x, y in moved]
    sigma = max(1.0, min(h, w) / 600)  # about a pixel and a half at a 1000 px board
    yield "blur", cv2.GaussianBlur(image, (0, 0), sigma), pockets
    noise = np.random.default_rng(7).normal(0.0, 6.0, image.shape)
    yield "noise", np.clip(image + noise, 0, 255).astype(np.uint8), pockets
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 50])
    yield "jpeg50", cv2.imdecode(encoded, cv2.IMREAD_COLOR), pockets
    warm = image.astype(np.float32) * np.array([0.85, 1.0, 1.15], np.float32)
    yield "warm", np.clip(warm, 0, 255).astype(np.uint8), pockets


def main(argv: list[str] | None = None) -> int:
    args = photo_arguments(__doc__.splitlines()[0], "each photo's misses", argv)
    found = labelled_photos(args)
    if found is None:
        return 0
    folder, photos = found
    cv2.setNumThreads(1)
    tally: dict[str, list[int]] = {}  # variant: [photos, exact, confident wrong, refused]
    for name, label in sorted(photos.items()):
        if not label.get("scored", True) or "pockets" not in label:
            continue
        if not (folder / name).is_file():
            continue
        image = load_image(folder / name)
        misses = []
        for variant, img, pockets in variants(image, [tuple(p) for p in label["pockets"]]):
            t = tally.setdefault(variant, [0, 0, 0, 0])
            t[0] += 1
            try:
                result = detect_photo(img, pockets, where=name)
            except PhotoError:
                t[3] += 1
                misses.append(f"{variant}: refused")
                continue
            exact, _sure, wrong = judge(result, label)
            t[1] += exact
            t[2] += wrong
            if not exact:
                counts = result.counts()
                got = "/".join(str(counts[c]) for c in B.COLOURS)
                misses.append(f"{variant}: {got} {'WRONG' if wrong else 'unsure'}")
        if args.verbose:
            print(f"{name:28s} {', '.join(misses) or 'every variant exact'}")
    if not tally:
        print(f"skipped: none of the labelled photos is in {folder}")
        return 0
    print(f"real photos, variants (pockets given, cold; classes {'/'.join(B.COLOURS)}):")
    for variant, (n, hits, wrongs, refused) in tally.items():
        print(f"  {variant:9s}: exact {hits}/{n}, confident wrong {wrongs}, refused {refused}")
    total = [sum(t[i] for v, t in tally.items() if v != "orig") for i in range(4)]
    print(
        f"  all variants: exact {total[1]}/{total[0]}, confident wrong {total[2]},"
        f" refused {total[3]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
