"""Each rule of the detector switched off in turn (`DetectorParams.off`, vision.params
RULES), and what that does: on the real development photos (pockets given, cold), on
some of their variants (bench_vision_perturb.py's), and on rendered boards (held-out
home boards cold; tournament boards against the kept empty board; the tuning home
boards rules were made for, `NAMED`). A rule whose removal changes nothing on any of
them does not pay for itself.

    .venv/bin/python bench/bench_vision_ablation.py DIR [DIR ...] [--renders N]
        [--variants rot90,jpeg50] [--rules a,b] [--named 853,1193]

DIR as for bench_vision_pairs.py (the photos of both dev label files). Printed per rule
switched off: real photos exact / sure / confident wrong, variants exact / confident
wrong, renders exact (cold home boards, kept tournament boards), and the named tuning
boards exact / confident wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision import HELD_OUT_SEED, score, tournament_board
from bench_vision_pairs import LABELS
from bench_vision_perturb import variants
from bench_vision_real import judge

from vision import board as B
from vision.params import PARAMS, RULES, DetectorParams
from vision.photo import PhotoError, detect_photo, load_image
from vision.pieces import Detector, EmptyBoard
from vision.sim import render as S
from vision.sim.variations import random_home_scene

#: Tuning home boards that rules were made for (docs/vision.md names each): the striker
#: off the centre 2100, the light man off the centre 853 and 2208, the man of the
#: plywood's shade by a hand 1193, the pink queen 1308, the man on a base line by the
#: fingers 1387, white men in shade 208.
NAMED = (208, 853, 1193, 1308, 1387, 2100, 2208)


def _photos(folders: list[str]) -> list[tuple[str, Any, dict[str, Any]]]:
    labels: dict[str, dict[str, Any]] = {}
    for path in LABELS:
        if path.is_file():
            labels.update(json.loads(path.read_text())["photos"])
    out = []
    for name, lab in sorted(labels.items()):
        if not lab.get("scored", True) or "pockets" not in lab:
            continue
        for folder in folders:
            if (Path(folder) / name).is_file():
                out.append((name, load_image(Path(folder) / name), lab))
                break
    return out


def measure(
    p: DetectorParams,
    photos: list[tuple[str, Any, dict[str, Any]]],
    wanted: set[str],
    home: list[Any],
    tournament: list[Any],
    named: list[Any],
) -> dict[str, int]:
    t = dict.fromkeys(("exact", "sure", "wrong", "v_exact", "v_wrong", "v_n"), 0)
    t.update(home=0, tour=0, n_exact=0, n_wrong=0)
    for _name, image, lab in photos:
        pockets = [tuple(q) for q in lab["pockets"]]
        for kind, img, pts in variants(image, pockets):
            if kind != "orig" and kind not in wanted:
                continue
            try:
                exact, sure, wrong = judge(detect_photo(img, pts, params=p), lab)
            except PhotoError:
                continue
            if kind == "orig":
                t["exact"] += exact
                t["sure"] += sure
                t["wrong"] += wrong
            else:
                t["v_n"] += 1
                t["v_exact"] += exact
                t["v_wrong"] += wrong
    for scene, image in home:
        result = detect_photo(image, S.pocket_centres_image(scene.look), params=p)
        mask = S.hand_mask_image(scene) if scene.hand is not None else None
        t["home"] += score(scene, list(result.coins), mask)[0]
    for scene, ref, top in tournament:
        view = Detector(ref, params=p).find(top)
        mask = S.hand_mask_image(scene) if scene.hand is not None else None
        t["tour"] += score(scene, list(view.coins), mask)[0]
    for scene, image in named:
        result = detect_photo(image, S.pocket_centres_image(scene.look), params=p)
        mask = S.hand_mask_image(scene) if scene.hand is not None else None
        exact = score(scene, list(result.coins), mask)[0]
        t["n_exact"] += exact
        # Exact by the hand rule (a piece the hand half hides counted or not), else
        # wrong when the doubt does not cover the truth.
        truth = {c: sum(q.colour == c for q in scene.pieces) for c in B.COLOURS}
        t["n_wrong"] += not exact and judge(result, truth)[2]
    return t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", metavar="DIR")
    ap.add_argument("--renders", type=int, default=20, help="home and tournament boards each")
    ap.add_argument("--variants", default="rot90,jpeg50", help="the variants of each photo")
    ap.add_argument("--rules", default="", help="only these rules (default: every one)")
    ap.add_argument(
        "--named",
        default=",".join(map(str, NAMED)),
        help="the tuning home boards rules were made for",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    photos = _photos(args.folders)
    if not photos:
        print("note: no real photos found; renders only")
    wanted = {v for v in args.variants.split(",") if v}
    home = []
    for seed in range(HELD_OUT_SEED, HELD_OUT_SEED + args.renders):
        scene = random_home_scene(seed)
        home.append((scene, S.render(scene)))
    tournament = []
    for i in range(args.renders):
        board = tournament_board(20240 + i, i % 4)
        if board is not None:
            scene, empty, cal = board
            h = cal.homography()
            tournament.append(
                (scene, EmptyBoard([cal.warp(empty, h)]), cal.warp(S.render(scene), h))
            )
    named = []
    for seed in (int(n) for n in args.named.split(",") if n):
        scene = random_home_scene(seed)
        named.append((scene, S.render(scene)))
    rules = [r for r in args.rules.split(",") if r] or list(RULES)
    n_v = "?"
    print(
        f"ablation: {len(photos)} real photos (+ variants {','.join(sorted(wanted)) or '-'}), "
        f"{len(home)} held-out home boards (cold), {len(tournament)} tournament boards (kept), "
        f"{len(named)} named tuning boards (cold)"
    )
    print(
        f"  {'switched off':14s} real exact/sure/conf.wrong  variants exact/conf.wrong  home  tour"
        "  named exact/conf.wrong"
    )
    for name in ["(none)", *rules]:
        p = PARAMS if name == "(none)" else replace(PARAMS, off=frozenset({name}))
        t = measure(p, photos, wanted, home, tournament, named)
        n_v = str(t["v_n"])
        print(
            f"  {name:14s} {t['exact']:2d}/{len(photos)} {t['sure']:2d} {t['wrong']:2d}"
            f"                 {t['v_exact']:3d}/{n_v} {t['v_wrong']:2d}"
            f"             {t['home']:2d}/{len(home)} {t['tour']:2d}/{len(tournament)}"
            f"  {t['n_exact']}/{len(named)} {t['n_wrong']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
