"""How far the detector's confidence says what it claims, and its calibration: on
rendered home boards (cold, the pockets given, as `tableside vision detect` runs), each
piece reported (counted, or listed unsure) is right when a true piece of its class lies
within 15 mm. A temperature and a shift on the confidence's log-odds (temperature
scaling with a bias, Platt's form) are fitted on the first half of the boards by
maximum likelihood; the expected calibration error (ECE, 10 equal bins) is reported on
the second half before and after, and the reliability diagram drawn.

    .venv/bin/python bench/bench_vision_calibration.py [--boards N] [--seed S] [--plot OUT.png]

The boards' seeds (8,100,000 and up) are apart from the tuning boards (1-2440), the
held-out set (bench_vision.HELD_OUT_SEED, 7,340,000) and the training boards (10,000,000
and 20,000,000 on). The fitted numbers go into DetectorParams (calib_temperature,
calib_shift); `p` in `vision detect --json` is the calibrated probability.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import board as B
from vision.photo import PhotoError, detect_photo
from vision.sim import render as S
from vision.sim.render import Piece
from vision.sim.variations import random_home_scene

SEED = 8_100_000
NEAR_MM = 15.0
BINS = 10


def samples(seeds: range) -> tuple[list[float], list[int]]:
    """(confidence, right) of every piece the detector reported on these boards."""
    conf: list[float] = []
    right: list[int] = []
    for seed in seeds:
        scene = random_home_scene(seed)
        try:
            result = detect_photo(S.render(scene), S.pocket_centres_image(scene.look))
        except PhotoError:
            continue
        said = [(c.colour, c.x_mm, c.y_mm, c.confidence) for c in result.coins]
        said += [(d.colour, d.x_mm, d.y_mm, d.confidence) for d in result.unsure if not d.counted]
        # The pockets are numbered from the photo's bottom-left, so the millimetres may be
        # the board's turned or mirrored: the orientation that matches the most.
        best: list[int] = []
        for k in range(8):
            hits = _matches(said, [_turn(t, k) for t in scene.pieces])
            if sum(hits) > sum(best) or not best:
                best = hits
        conf += [s[3] for s in sorted(said, key=lambda s: -s[3])]
        right += best
    return conf, right


def _turn(t: Piece, k: int) -> tuple[str, float, float]:
    """A true piece's place under the board's symmetry k (0-7)."""
    x, y = t.x_mm, t.y_mm
    if k & 1:
        x, y = y, x
    if k & 2:
        x = B.SURFACE_MM - x
    if k & 4:
        y = B.SURFACE_MM - y
    return t.colour, x, y


def _matches(
    said: list[tuple[str, float, float, float]], truth: list[tuple[str, float, float]]
) -> list[int]:
    """For each piece said, surest first, whether a true piece of its class (not taken
    by a surer one) lies within NEAR_MM."""
    left = list(truth)
    out = []
    for colour, x, y, _c in sorted(said, key=lambda s: -s[3]):
        match = next(
            (t for t in left if t[0] == colour and math.hypot(t[1] - x, t[2] - y) < NEAR_MM),
            None,
        )
        if match is not None:
            left.remove(match)
        out.append(int(match is not None))
    return out


def _logit(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 1e-4, 1 - 1e-4)
    out: np.ndarray = np.log(c / (1 - c))
    return out


def calibrate(c: np.ndarray, t: float, b: float) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-(_logit(c) / t + b)))
    return out


def fit(c: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The temperature and shift of least negative log-likelihood (a fine grid)."""
    best = (math.inf, 1.0, 0.0)
    for t in np.geomspace(0.1, 20.0, 160):
        for b in np.linspace(-3.0, 3.0, 121):
            p = np.clip(calibrate(c, float(t), float(b)), 1e-6, 1 - 1e-6)
            nll = -float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
            if nll < best[0]:
                best = (nll, float(t), float(b))
    return best[1], best[2]


def ece(p: np.ndarray, y: np.ndarray) -> tuple[float, list[tuple[float, float, int]]]:
    """The expected calibration error over BINS equal bins, and each bin's (mean
    confidence, share right, count)."""
    edges = np.linspace(0.0, 1.0, BINS + 1)
    total, rows = 0.0, []
    for lo, hi in itertools.pairwise(edges):
        inside = (p >= lo) & ((p < hi) if hi < 1.0 else (p <= hi))
        if not inside.any():
            rows.append(((lo + hi) / 2, math.nan, 0))
            continue
        conf, acc = float(p[inside].mean()), float(y[inside].mean())
        total += inside.sum() / len(p) * abs(conf - acc)
        rows.append((conf, acc, int(inside.sum())))
    return total, rows


def plot(path: Path, raw: list[tuple[float, float, int]], cal: list[tuple[float, float, int]],
         e_raw: float, e_cal: float) -> None:  # fmt: skip
    """The reliability diagram (share right against confidence, per bin) as a PNG."""
    side, pad = 480, 60
    img = np.full((side + 2 * pad, side + 2 * pad, 3), 255, np.uint8)

    def at(x: float, y: float) -> tuple[int, int]:
        return pad + round(x * side), pad + side - round(y * side)

    cv2.rectangle(img, at(0, 0), at(1, 1), (0, 0, 0), 1)
    cv2.line(img, at(0, 0), at(1, 1), (150, 150, 150), 1, cv2.LINE_AA)
    for k in range(BINS + 1):
        cv2.putText(img, f"{k / BINS:.1f}", (at(k / BINS, 0)[0] - 10, pad + side + 20),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
        cv2.putText(img, f"{k / BINS:.1f}", (pad - 35, at(0, k / BINS)[1] + 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
    for rows, colour in ((raw, (40, 40, 220)), (cal, (200, 120, 0))):
        pts = [at(c, a) for c, a, n in rows if n]
        for a, b in itertools.pairwise(pts):
            cv2.line(img, a, b, colour, 2, cv2.LINE_AA)
        for q in pts:
            cv2.circle(img, q, 4, colour, -1, cv2.LINE_AA)
    text = [
        ("reliability on held-out renders (share right per bin of confidence)", (0, 0, 0)),
        (f"red: the detector's confidence, ECE {e_raw:.3f}", (40, 40, 220)),
        (f"blue: calibrated (temperature scaling), ECE {e_cal:.3f}", (200, 120, 0)),
    ]
    for i, (line, colour) in enumerate(text):
        cv2.putText(img, line, (pad, 20 + 16 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.42, colour, 1,
                    cv2.LINE_AA)  # fmt: skip
    cv2.putText(img, "confidence", (pad + side // 2 - 40, pad + side + 45),
                cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
    cv2.imwrite(str(path), img)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=120)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--plot", default="", help="write the reliability diagram here (PNG)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    half = args.boards // 2
    c_fit, y_fit = (np.array(v, np.float64) for v in samples(range(args.seed, args.seed + half)))
    end = args.seed + args.boards
    c_val, y_val = (np.array(v, np.float64) for v in samples(range(args.seed + half, end)))
    t, b = fit(c_fit, y_fit)
    e_raw, rows_raw = ece(c_val, y_val)
    e_cal, rows_cal = ece(calibrate(c_val, t, b), y_val)
    print(f"calibration on rendered home boards {args.seed}-{end - 1} (cold, pockets given)")
    print(f"  fitted on {half} boards ({len(c_fit)} pieces): temperature {t:.3f}, shift {b:.3f}")
    print(f"  held-out half: {len(c_val)} pieces, {int(y_val.sum())} right")
    print(f"  expected calibration error: {e_raw:.3f} as the detector says, {e_cal:.3f} calibrated")
    for (c0, a0, n0), (c1, a1, n1) in zip(rows_raw, rows_cal, strict=True):
        print(f"    bin: raw conf {c0:.2f} right {a0:.2f} (n {n0:4d})   "
              f"calibrated {c1:.2f} right {a1:.2f} (n {n1:4d})")  # fmt: skip
    if args.plot:
        plot(Path(args.plot), rows_raw, rows_cal, e_raw, e_cal)
        print(f"  reliability diagram: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
