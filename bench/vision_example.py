"""Make docs/vision.md's annotated example: a rendered home board (a tuning seed, never a
held-out one) written as a PNG (`--photo`), then `tableside vision detect --pockets ... --json
--annotate` run on it as an installer would.

    .venv/bin/python bench/vision_example.py [--seed 37] [--out docs/images]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.cli import main as cli_main
from vision.sim import render as S
from vision.sim.variations import random_home_scene


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--out", default="docs/images")
    ap.add_argument("--photo", default="/tmp/vision-detect-input.png", help="the rendered photo")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scene = random_home_scene(args.seed)
    photo = Path(args.photo)
    cv2.imwrite(str(photo), S.render(scene))
    pockets = ",".join(f"{v:.0f}" for p in S.pocket_centres_image(scene.look) for v in p)
    truth = {c: sum(p.colour == c for p in scene.pieces) for c in ("white", "black", "queen")}
    strikers = [round(p.d_mm) for p in scene.pieces if p.colour == "striker"]
    print(f"seed {args.seed}: placed {truth}, striker {strikers} mm")
    command = ["vision", "detect", str(photo), "--pockets", pockets, "--json"]
    print("tableside " + " ".join(command) + f" --annotate {out / 'vision-detect-example.png'}")
    return cli_main([*command, "--annotate", str(out / "vision-detect-example.png")])


if __name__ == "__main__":
    sys.exit(main())
