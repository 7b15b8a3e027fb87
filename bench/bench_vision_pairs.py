"""The camera's job at the table on real photos: what left the board between two
photos of one board under one camera, through `tableside vision diff` (the kiosk's
path: the empty board kept where a photo of it exists, the set learned from the first
photo, the diff to the next).

    .venv/bin/python bench/bench_vision_pairs.py DIR [DIR ...] [--verbose]

DIR holds the photos (the real development photos of shared/vision-real-dev/labels.json
and bench/real_more_labels.json, extracted with their scripts; never committed: they
carry no licence). A photo is looked for in each DIR in turn; with none found the bench
says so and exits 0. The pairs are of the boards photographed more than once:

- the three IMG_20191019 photos (a hand-held phone: each photo's own pockets, cold);
- the udayan rig's captures, empty and with a man (one webcam, one calibration: the
  first photo's pockets), every ordered pair twice: with the empty capture kept
  (udayan_cap1) and cold;
- the two Dunhill photos (sreenath_carromboard1 and 2: hand-held, each its pockets).

The truth of a pair is, per class, how many fewer the second photo's label holds than
the first's (none when it holds as many or more). Counted per diff:

- sure and right: every class's count that left equals the truth, nothing unseen, and
  no class listed unsure;
- unsure: a class listed unsure or unseen (hidden after), every wrong count among them
  (right or not, the beams and the umpire's tap decide);
- confident wrong: a count that left is wrong and its class is not listed unsure (the
  console would believe it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.cli import main as tableside
from vision import board as B

HERE = Path(__file__).resolve().parent
LABELS = (
    HERE.parent.parent / "shared/vision-real-dev/labels.json",
    Path("/work/shared/vision-real-dev/labels.json"),
    HERE / "real_more_labels.json",
)

IMG = ("IMG_20191019_142201.jpg", "IMG_20191019_142212.jpg", "IMG_20191019_142215.jpg")
RIG = ("udayan_cap1.jpg", "udayan_cap2.jpg", "udayan_capimage.jpg", "udayan_capimage1.jpg")
RIG_EMPTY = "udayan_cap1.jpg"
DUNHILL = ("sreenath_carromboard1.jpeg", "sreenath_carromboard2.jpeg")


def pairs() -> list[tuple[str, str, str | None, bool]]:
    """(before, after, the empty board's photo or None, each photo its own pockets)."""
    out: list[tuple[str, str, str | None, bool]] = []
    for group, own in ((IMG, True), (DUNHILL, True)):
        out += [(a, b, None, own) for a in group for b in group if a != b]
    for empty in (RIG_EMPTY, None):
        out += [(a, b, empty, False) for a in RIG for b in RIG if a != b]
    return out


def _labels() -> dict[str, dict[str, Any]]:
    photos: dict[str, dict[str, Any]] = {}
    for path in LABELS:
        if path.is_file():
            photos.update(json.loads(path.read_text())["photos"])
    return photos


def _pockets(label: dict[str, Any]) -> str:
    return ",".join(f"{x},{y}" for x, y in label["pockets"])


def run_diff(argv: list[str]) -> tuple[int, dict[str, Any] | str]:
    """`tableside vision diff` in this process: its exit status and its JSON (or the
    line it printed on standard error)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tableside(["vision", "diff", *argv, "--json"])
    return status, json.loads(out.getvalue()) if status == 0 else err.getvalue().strip()


def judge(result: dict[str, Any], truth: dict[str, int]) -> str:
    """ "sure" (sure and right), "unsure" or "wrong" (confident wrong)."""
    # What the after-view could not see is said ("the camera could not see ...": the
    # kiosk flags the stroke for review), as a class in doubt is.
    unsure = set(result["unsure_classes"]) | set(result["unseen"])
    wrong = {c for c in B.COLOURS if result["left"][c] != truth[c]}
    if wrong - unsure:
        return "wrong"
    return "unsure" if unsure else "sure"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", metavar="DIR")
    ap.add_argument("--verbose", action="store_true", help="every pair's diff")
    args = ap.parse_args(argv)
    labels = _labels()

    def find(name: str) -> Path | None:
        for folder in args.folders:
            if (Path(folder) / name).is_file():
                return Path(folder) / name
        return None

    todo = [p for p in pairs() if all(find(n) for n in p[:2]) and (p[2] is None or find(p[2]))]
    if not todo:
        print(f"skipped: no real photo pairs in {', '.join(args.folders) or '(no folder given)'}")
        return 0
    import cv2

    cv2.setNumThreads(1)
    tally = {"sure": 0, "unsure": 0, "wrong": 0, "refused": 0}
    by_mode: dict[str, dict[str, int]] = {}
    seconds = []
    for before, after, empty, own in todo:
        lb, la = labels[before], labels[after]
        truth = {c: max(0, lb[c] - la[c]) for c in B.COLOURS}
        argv_ = [str(find(before)), str(find(after)), "--pockets", _pockets(lb)]
        if own:
            argv_ += ["--after-pockets", _pockets(la)]
        if empty is not None:
            argv_ += ["--empty", str(find(empty))]
        t0 = time.perf_counter()
        status, result = run_diff(argv_)
        seconds.append(time.perf_counter() - t0)
        mode = "empty kept" if empty else "cold"
        row = by_mode.setdefault(mode, {"sure": 0, "unsure": 0, "wrong": 0, "refused": 0, "n": 0})
        row["n"] += 1
        if status != 0 or not isinstance(result, dict):
            tally["refused"] += 1
            row["refused"] += 1
            mark, said = "refused", str(result)[:70]
        else:
            mark = judge(result, truth)
            tally[mark] += 1
            row[mark] += 1
            left = "/".join(str(result["left"][c]) for c in B.COLOURS)
            unsure = ",".join(result["unsure_classes"]) or "-"
            unseen = f" unseen {','.join(result['unseen'])}" if result["unseen"] else ""
            said = f"left {left:9s} unsure {unsure}{unseen}"
        if args.verbose:
            want = "/".join(str(truth[c]) for c in B.COLOURS)
            print(f"  {before:27s} -> {after:27s} {mode:10s} truth {want:9s} {said} {mark.upper()}")
    n = len(todo)
    print(
        f"real photo pairs through `tableside vision diff`: {n} diffs (white/black/queen/striker)"
    )
    for mode, row in by_mode.items():
        print(
            f"  {mode:10s}: sure and right {row['sure']}/{row['n']}, unsure {row['unsure']}, "
            f"confident wrong {row['wrong']}, refused {row['refused']}"
        )
    print(
        f"  all       : sure and right {tally['sure']}/{n} = {100 * tally['sure'] / n:.0f}%, "
        f"unsure {tally['unsure']}, confident wrong {tally['wrong']}, refused {tally['refused']}"
    )
    seconds.sort()
    print(f"  time per diff: median {seconds[len(seconds) // 2]:.2f} s, max {seconds[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
