"""The photo path's misses on the tuning home boards, by variation, for the learned
stage and the classical cold detector in turn: what `bench_vision.py --confusion N`
prints. Only tuning seeds (1 and up) go through here; the held-out set is never
broken down.

For every board: per class, found minus the truth (a piece partly under a hand
may be counted or not), and the board's variations (the colours of its set,
the striker's size, net pockets, cloth, opening, hand, the print: its ink, its
red, its lines' width, hollow dots, a pattern at the centre). Printed: per variation
value, the boards exact and the class errors on the others (`black-1`: one black
man short; `white+1`: one too many).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from vision import board as B
from vision.photo import detect_photo
from vision.sim import render as S
from vision.sim import variations as V


def errors(scene: S.Scene, coins: tuple[object, ...]) -> list[str]:
    """`colour±n` for each class whose count is off (none when exact)."""
    mask = S.hand_mask_image(scene) if scene.hand is not None else None
    out = []
    for colour in B.COLOURS:
        truth = [p for p in scene.pieces if p.colour == colour]
        vis = [S.visible_fraction(scene, p, mask) for p in truth]
        found = sum(1 for c in coins if getattr(c, "colour", None) == colour)
        off = S.count_off(found, vis)
        if off:
            out.append(f"{colour}{off:+d}")
    return out


def variations(scene: S.Scene) -> dict[str, str]:
    look = scene.look
    bgr = look.piece_bgr or ((0, 0, 0),) * 4
    striker = [p for p in scene.pieces if p.colour == "striker"]
    d = striker[0].d_mm if striker else 0.0
    centre = B.SURFACE_MM / 2
    opening = (
        any(
            p.colour == "queen" and math.hypot(p.x_mm - centre, p.y_mm - centre) < 1
            for p in scene.pieces
        )
        and len(scene.pieces) >= 19
    )
    return {
        "white set": str(V.WHITES.index(bgr[0])) if bgr[0] in V.WHITES else "?",
        "black set": str(V.BLACKS.index(bgr[1])) if bgr[1] in V.BLACKS else "?",
        "queen": str(V.QUEENS.index(bgr[2])) if bgr[2] in V.QUEENS else "?",
        "striker colour": str(V.STRIKERS.index(bgr[3])) if bgr[3] in V.STRIKERS else "?",
        "striker mm": "none" if not striker else f"{10 * int(d // 10)}s",
        "net pockets": str(look.net_pockets),
        "red cloth": str(look.red_cloth),
        "opening": str(opening),
        "hand": str(scene.hand is not None),
        "glare": "strong" if look.glare > 25 else "weak",
        "print": "icf" if look.markings == S.Markings() else "home",
        "print ink": str(V.INKS.index(look.markings.ink)),
        "print red": str(V.REDS.index(look.markings.red)),
        "print line mm": str(look.markings.line_mm),
        "dots filled": str(look.markings.filled),
        "centre": look.markings.centre or "none",
    }


def confusion(seeds: range, classical: bool = False) -> None:
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    errs: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    total: Counter[str] = Counter()
    exact = 0
    for seed in seeds:
        scene = V.random_home_scene(seed)
        result = detect_photo(
            S.render(scene), S.pocket_centres_image(scene.look), classical=classical
        )
        bad = errors(scene, result.coins)
        exact += not bad
        total.update(bad)
        for name, value in variations(scene).items():
            table[name][value][0] += not bad
            table[name][value][1] += 1
            errs[name][value].update(bad)
    n = len(seeds)
    stage = "classical" if classical else "learned"
    print(
        f"confusion, {stage}, tuning home boards {seeds.start}-{seeds.stop - 1}: exact {exact}/{n}"
    )
    print(
        "  class errors over all boards: " + ", ".join(f"{k} {v}" for k, v in total.most_common())
    )
    for name, values in table.items():
        print(f"  {name}:")
        for value in sorted(values):
            ok, count = values[value]
            top = ", ".join(f"{k} {v}" for k, v in errs[name][value].most_common(4))
            print(f"    {value:>6}: exact {ok}/{count}  {top}")
