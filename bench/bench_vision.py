"""Benchmark the coin detector on synthetic boards of mixed difficulty.

For each board: render the empty board (the reference, before the powder, at
another exposure) and calibrate from it, render the board with its coins, warp
it to the top view and detect. Reported: boards with every class count exact,
position error (mm) of the coins found, and detection frames per second at
640x480 on one core (warp + detect; rendering is not timed). The same top views
go through a plain HoughCircles + centre-pixel-colour detector for comparison.

Difficulties, a quarter of the boards each: 0 square and even; 1 an angle,
lamp fall-off, touching coins; 2 glare, uneven light, powder, busy cloth, more
perspective, sometimes the break's packed arrangement; 3 as 2 with a hand
(and usually a sleeve) over the board. With a hand, a coin partly under it may
be counted or not; a coin wholly visible must be counted.

    .venv/bin/python bench/bench_vision.py [--boards N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import board as B
from vision.calibration import auto_calibrate
from vision.detect import Coin, Reference, detect
from vision.sim import render as S

Array = npt.NDArray[Any]


def hough_detect(top: Array) -> list[Coin]:
    """The plain baseline: HoughCircles on grey, colour from the centre pixel."""
    grey = cv2.medianBlur(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY), 3)
    r_coin = B.COIN_D_MM / 2 * B.SCALE
    r_striker = B.STRIKER_D_MM / 2 * B.SCALE
    circles = cv2.HoughCircles(
        grey,
        cv2.HOUGH_GRADIENT,
        dp=1,
        minDist=2 * r_coin * 0.9,
        param1=100,
        param2=14,
        minRadius=int(r_coin * 0.75),
        maxRadius=int(r_striker * 1.2),
    )
    out: list[Coin] = []
    if circles is None:
        return out
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    for u, v, r in circles[0]:
        x, y = min(B.TOP_PX - 1, max(0, round(u))), min(B.TOP_PX - 1, max(0, round(v)))
        h, s, val = (int(c) for c in hsv[y, x])
        if val < 90:
            colour = "black"
        elif s > 110 and (h < 12 or h > 165):
            colour = "queen"
        elif r > (r_coin + r_striker) / 2:
            colour = "striker"
        else:
            colour = "white"
        x_mm, y_mm = B.top_to_mm(float(u), float(v))
        out.append(Coin(colour, x_mm, y_mm, 1.0))
    return out


def score(
    scene: S.Scene, coins: list[Coin] | tuple[Coin, ...], mask: Array | None
) -> tuple[bool, list[float]]:
    """Whether every class count is exact (hand rule in the docstring), and the
    position errors (mm) of the fully visible pieces that were found."""
    exact = True
    errs: list[float] = []
    for colour in B.COLOURS:
        truth = [p for p in scene.pieces if p.colour == colour]
        vis = [S.visible_fraction(scene, p, mask) for p in truth]
        must = [p for p, f in zip(truth, vis, strict=True) if f >= 0.999]
        maybe = sum(1 for f in vis if 0.0 < f < 0.999)
        found = [c for c in coins if c.colour == colour]
        if not len(must) <= len(found) <= len(must) + maybe:
            exact = False
        for p in must:
            d = min((math.hypot(c.x_mm - p.x_mm, c.y_mm - p.y_mm) for c in found), default=1e9)
            if d < 15.0:
                errs.append(d)
    return exact, errs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20240)
    ap.add_argument("--verbose", action="store_true", help="list the boards the detector missed")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = ("square", "angled", "hard", "hand")
    ok = {"detector": [0] * 4, "hough": [0] * 4}
    per_class = {"detector": dict.fromkeys(B.COLOURS, 0), "hough": dict.fromkeys(B.COLOURS, 0)}
    boards = [0] * 4
    errs: dict[str, list[float]] = {"detector": [], "hough": []}
    secs = {"detector": 0.0, "hough": 0.0}
    frames = 0
    calib_fail = 0
    kept: list[tuple[Array, Array, Reference]] = []
    for i in range(args.boards):
        seed = args.seed + i
        diff = i % 4
        scene = S.random_scene(seed, diff)
        rng = np.random.default_rng(seed + 99)
        ref_look = replace(
            scene.look, powder=0.0, exposure=scene.look.exposure * rng.uniform(0.93, 1.07)
        )
        empty = S.render(S.Scene((), ref_look))
        try:
            cal = auto_calibrate(empty)
        except ValueError:
            calib_fail += 1
            continue
        h = cal.homography()
        ref = Reference([cal.warp(empty, h)])
        image = S.render(scene)
        mask = S.hand_mask_image(scene) if scene.hand is not None else None
        boards[diff] += 1
        if len(kept) < 24:
            kept.append((image, h, ref))
        t0 = time.perf_counter()
        view = detect(cal.warp(image, h), ref)
        t1 = time.perf_counter()
        hough = hough_detect(cal.warp(image, h))
        t2 = time.perf_counter()
        secs["detector"] += t1 - t0
        secs["hough"] += t2 - t1
        frames += 1
        for name, coins in (("detector", list(view.coins)), ("hough", hough)):
            exact, e = score(scene, coins, mask)
            if args.verbose and name == "detector" and not exact:
                want = {c: sum(p.colour == c for p in scene.pieces) for c in B.COLOURS}
                print(
                    f"  missed: seed {seed} difficulty {diff}: truth {want} found {view.counts()}"
                )
            ok[name][diff] += exact
            errs[name].extend(e)
            for colour in B.COLOURS:
                single = S.Scene(
                    tuple(p for p in scene.pieces if p.colour == colour), scene.look, scene.hand
                )
                per_class[name][colour] += score(
                    single, [c for c in coins if c.colour == colour], mask
                )[0]
    load = os.getloadavg()[0]
    print(
        f"vision benchmark: {frames} synthetic boards at 640x480, "
        f"seed {args.seed}, cv2 {cv2.__version__}"
    )
    print(f"  one OpenCV thread; load average {load:.2f} on {os.cpu_count()} cores", end="")
    print(" (other work shared the CPU: figures are pessimistic)" if load > 0.5 else "")
    if calib_fail:
        print(f"  calibration failed on {calib_fail} boards (left out)")
    for name in ("detector", "hough"):
        total = sum(ok[name])
        arr: Array = np.array(errs[name]) if errs[name] else np.array([np.nan])
        fps = frames / secs[name] if secs[name] else float("nan")
        label = "tableside detector" if name == "detector" else "HoughCircles + centre pixel"
        print(f"{label}:")
        print(
            f"  boards with every class count exact: {total}/{frames} = "
            f"{100 * total / frames:.2f}%  (goal 99.5%)"
        )
        print(
            "  by difficulty: "
            + ", ".join(f"{names[d]} {ok[name][d]}/{boards[d]}" for d in range(4))
        )
        print(
            "  per class exact: "
            + ", ".join(f"{c} {100 * per_class[name][c] / frames:.2f}%" for c in B.COLOURS)
        )
        print(
            f"  position error: mean {np.mean(arr):.2f} mm, p95 {np.percentile(arr, 95):.2f} mm, "
            f"max {np.max(arr):.2f} mm over {len(errs[name])} coins (goal <= 2 mm)"
        )
        print(f"  speed: {fps:.0f} frames/s (warp + detect, one core; goal >= 60)")
    # Speed again on the first boards, several rounds: the fastest round is the one
    # least disturbed by other work on the machine.
    rounds: dict[str, list[float]] = {"detector": [], "hough": []}
    for _ in range(5):
        for name in ("detector", "hough"):
            t0 = time.perf_counter()
            for image, h, ref in kept:
                for _ in range(4):
                    top = cv2.warpPerspective(image, h, (B.TOP_PX, B.TOP_PX))
                    detect(top, ref) if name == "detector" else hough_detect(top)
            rounds[name].append(4 * len(kept) / (time.perf_counter() - t0))
    for name in ("detector", "hough"):
        r = sorted(rounds[name])
        print(
            f"{name} speed, {4 * len(kept)} frames x 5 rounds: best {r[-1]:.0f} frames/s, "
            f"median {r[len(r) // 2]:.0f}, worst {r[0]:.0f}"
        )
    d_fps = rounds["detector"][-1] and max(rounds["detector"])
    h_fps = max(rounds["hough"])
    print(
        f"ratio detector/hough: exact boards {sum(ok['detector'])}/{sum(ok['hough'])}, "
        f"speed {d_fps / h_fps:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
