"""Benchmark the photo detector (`tableside vision detect`) on real photos of boards.

    .venv/bin/python bench/bench_vision_real.py DIR [--labels FILE] [--verbose]

DIR holds the photos that the labels name (the real development set: fetch the
repositories listed in shared/vision-real-dev/labels.json and extract them with its
extract.sh; they are never committed: they carry no licence). With DIR absent or empty
the bench says so and exits 0, so CI without the photos is not a failure. DIR may also
come from the environment: TABLESIDE_REAL_PHOTOS.

For each scored photo, the detector runs cold (no empty board) twice: with the labelled
pocket centres (as `--pockets`) and with the automatic calibration. Printed:

- exact: every class count equals the label;
- sure: exact and nothing left in doubt (no `unsure` piece);
- confident wrong: a count is wrong and the doubt does not cover it (the label lies
  outside what the counted pieces less the unsure counted ones, plus the unsure
  uncounted ones, allow); the worst outcome: the console would believe it;
- refused: no board that passes the square check (auto calibration only suggests).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import board as B
from vision.photo import PhotoError, PhotoResult, detect_photo, load_image

LABELS = Path(__file__).resolve().parent.parent.parent / "shared/vision-real-dev/labels.json"


def honest_range(result: PhotoResult, colour: str) -> tuple[int, int]:
    """The fewest and the most pieces of `colour` the result allows, counting its doubt."""
    counted = sum(1 for c in result.coins if c.colour == colour)
    doubts = _doubts(result)
    low = counted - sum(1 for u in doubts if u.counted and u.colour == colour)
    high = counted + sum(1 for u in doubts if not u.counted and u.colour == colour)
    # A counted piece whose class is in doubt may be of this class instead.
    high += sum(1 for u in doubts if u.counted and u.other == colour)
    return low, high


def _doubts(result: PhotoResult) -> tuple[Any, ...]:
    """The result's doubt (none from a version before there was any: this bench also
    measures older checkouts, copied into their tree)."""
    return tuple(getattr(result, "unsure", ()))


def judge(result: PhotoResult, label: dict[str, Any]) -> tuple[bool, bool, bool]:
    """(exact, sure, confident wrong) of one result against its label."""
    counts = result.counts()
    exact = all(counts[c] == label[c] for c in B.COLOURS)
    wrong = False
    for c in B.COLOURS:
        low, high = honest_range(result, c)
        if counts[c] != label[c] and not low <= label[c] <= high:
            wrong = True
    return exact, exact and not _doubts(result), wrong


def photo_arguments(description: str, verbose: str, argv: list[str] | None) -> argparse.Namespace:
    """DIR, --labels and --verbose, as the benches of real photos take them."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("folder", nargs="?", default=os.environ.get("TABLESIDE_REAL_PHOTOS", ""))
    ap.add_argument("--labels", default=str(LABELS))
    ap.add_argument("--verbose", action="store_true", help=verbose)
    return ap.parse_args(argv)


def labelled_photos(args: argparse.Namespace) -> tuple[Path, dict[str, dict[str, Any]]] | None:
    """The folder of photos and every label; None (having said why) when either is absent."""
    folder = Path(args.folder) if args.folder else None
    if folder is None or not folder.is_dir() or not any(folder.iterdir()):
        print(f"skipped: no real photos (folder {args.folder or '(none given)'!s} is absent)")
        return None
    labels_path = Path(args.labels)
    if not labels_path.is_file():
        print(f"skipped: no labels ({labels_path} is absent)")
        return None
    return folder, json.loads(labels_path.read_text())["photos"]


def main(argv: list[str] | None = None) -> int:
    args = photo_arguments(__doc__.splitlines()[0], "every photo's counts", argv)
    found = labelled_photos(args)
    if found is None:
        return 0
    folder, photos = found
    scored = {
        n: lab
        for n, lab in photos.items()
        if lab.get("scored", True) and (folder / n).is_file() and "pockets" in lab
    }
    missing = [n for n, lab in photos.items() if lab.get("scored", True) and n not in scored]
    import cv2

    cv2.setNumThreads(1)
    tally = {m: {"exact": 0, "sure": 0, "wrong": 0, "refused": 0} for m in ("pockets", "auto")}
    seconds: list[float] = []
    for name, lab in sorted(scored.items()):
        image = load_image(folder / name)
        truth = "/".join(str(lab[c]) for c in B.COLOURS)
        line = [f"{name:28s} truth {truth:9s}"]
        for mode in ("pockets", "auto"):
            pockets = [tuple(p) for p in lab["pockets"]] if mode == "pockets" else None
            t0 = time.perf_counter()
            try:
                result = detect_photo(image, pockets, where=name)
            except PhotoError as exc:
                tally[mode]["refused"] += 1
                line.append(f"{mode}: refused ({str(exc)[:60]})")
                continue
            seconds.append(time.perf_counter() - t0)
            exact, sure, wrong = judge(result, lab)
            for key, hit in (("exact", exact), ("sure", sure), ("wrong", wrong)):
                tally[mode][key] += hit
            counts = result.counts()
            got = "/".join(str(counts[c]) for c in B.COLOURS)
            mark = "exact" if exact else ("WRONG" if wrong else "unsure")
            doubt = f" unsure {len(_doubts(result))}" if _doubts(result) else ""
            line.append(f"{mode}: {got:9s} {mark}{doubt}")
        if args.verbose:
            print("  ".join(line))
    n = len(scored)
    print(f"real photos: {n} scored in {folder} (classes white/black/queen/striker)")
    if missing:
        print(f"  not in the folder: {', '.join(missing)}")
    for mode, what in (("pockets", "pockets given"), ("auto", "auto calibration")):
        t = tally[mode]
        print(
            f"  {what:17s}: exact {t['exact']}/{n} (sure {t['sure']}), "
            f"confident wrong {t['wrong']}, refused {t['refused']}"
        )
    if seconds:
        seconds.sort()
        print(
            f"  time per photo: median {seconds[len(seconds) // 2]:.2f} s, max {seconds[-1]:.2f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
