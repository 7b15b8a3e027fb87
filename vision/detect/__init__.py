"""Coins and the striker on the top view: colour, position (mm) and confidence.

The detector compares the top view with a reference view of the empty board
taken under the same lamp (`Reference`). The stages, one module each:
`reference` (the empty board), `classes` (pixel classes), `hands` (occluders),
`discs` (regions split into coins), run in order by `pipeline.detect`.
"""

from vision.detect.classes import classify, classify_soft
from vision.detect.common import (
    A_COIN,
    BLACK,
    BOARD,
    INK,
    OTHER,
    R_COIN,
    R_STRIKER,
    RED,
    RED_INK,
    WHITE,
    BoardView,
    Coin,
    Settings,
)
from vision.detect.pipeline import detect, detect_classes
from vision.detect.reference import Reference, bootstrap_reference

__all__ = [
    "A_COIN",
    "BLACK",
    "BOARD",
    "INK",
    "OTHER",
    "RED",
    "RED_INK",
    "R_COIN",
    "R_STRIKER",
    "WHITE",
    "BoardView",
    "Coin",
    "Reference",
    "Settings",
    "bootstrap_reference",
    "classify",
    "classify_soft",
    "detect",
    "detect_classes",
]
