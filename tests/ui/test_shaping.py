"""Devanagari and Gujarati drawn by the kiosk's own label path come out shaped.

A real Kivy Label (the PIL provider with the kiosk's fallback chain) draws the string
under Xvfb; its texture's pixels are compared with Pillow + raqm drawing the same string in
the same Noto font and size. The comparison must also tell the unshaped drawing (Pillow's
BASIC layout: one glyph after another, as Kivy's SDL2 provider draws) apart, or it
could not catch a label that lost its shaper.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont, features

from . import harness

pytestmark = pytest.mark.skipif(not features.check("raqm"), reason="Pillow without libraqm")

SIZE = 64
CASES = [
    ("devanagari", "किंतु"),  # the i-sign goes before its consonant
    ("devanagari", "क्षत्रिय"),  # conjuncts: क्ष and त्र
    ("gujarati", "માસ્ટર"),  # the virama joins સ and ટ: no visible halant
]


def _ink(alpha: np.ndarray) -> np.ndarray:
    """The alpha channel cut to the ink's bounding box, as 0..1."""
    rows = np.flatnonzero(alpha.max(axis=1) > 40)
    cols = np.flatnonzero(alpha.max(axis=0) > 40)
    assert rows.size and cols.size, "nothing drawn"
    return alpha[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].astype(float) / 255.0


def _kivy_ink(text: str) -> np.ndarray:
    from kivy.uix.label import Label

    label = Label(text=text, font_size=SIZE, color=(1, 1, 1, 1))
    label.texture_update()
    texture = label.texture
    pixels = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(texture.height, texture.width, 4)
    # A label's texture holds the picture as Pillow drew it, top row first.
    return _ink(pixels[:, :, 3])


def _pillow_ink(text: str, font_path: str, layout: ImageFont.Layout) -> np.ndarray:
    font = ImageFont.truetype(font_path, SIZE, layout_engine=layout)
    image = Image.new("L", (SIZE * len(text) * 2, SIZE * 3), 0)
    ImageDraw.Draw(image).text((SIZE // 2, SIZE // 2), text, font=font, fill=255)
    return _ink(np.asarray(image))


def difference(a: np.ndarray, b: np.ndarray) -> float:
    """How much ink differs, 0 (same) to 1 (nothing shared), over the larger of the two boxes."""
    h, w = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    pa = np.zeros((h, w))
    pb = np.zeros((h, w))
    pa[: a.shape[0], : a.shape[1]] = a
    pb[: b.shape[0], : b.shape[1]] = b
    return float(np.abs(pa - pb).sum() / np.maximum(pa, pb).sum())


@pytest.mark.parametrize(("role", "text"), CASES)
def test_label_is_shaped_like_raqm(role: str, text: str) -> None:
    from kiosk.ui.text import find_face

    assert harness.Window is not None  # the GL context the texture lives in
    path = find_face(role).regular
    kivy = _kivy_ink(text)
    shaped = _pillow_ink(text, path, ImageFont.Layout.RAQM)
    unshaped = _pillow_ink(text, path, ImageFont.Layout.BASIC)
    assert abs(kivy.shape[1] - shaped.shape[1]) <= 2, (kivy.shape, shaped.shape)
    near = difference(kivy, shaped)
    far = difference(kivy, unshaped)
    assert near < 0.08, f"{text}: the label differs from raqm's shaping by {near:.2f}"
    # The same measure sees the unshaped drawing as far off: the test can fail.
    assert far > 0.25, f"{text}: unshaped is only {far:.2f} away"
    assert difference(shaped, unshaped) > 0.25


def test_mixed_scripts_in_one_label_draw_each_in_its_font() -> None:
    """A Hindi, a Gujarati and a Greek name in one label: each run in its font, no boxes."""
    from kiosk.ui.text import FONTS

    assert FONTS is not None
    runs = FONTS.runs("राम · રમેશ · Νίκος ●", FONTS.chain[0].regular, False)
    names = [path.rsplit("/", 1)[-1] for _run, path in runs]
    assert names == [
        "NotoSansDevanagari-Regular.ttf",
        "NotoSans-Regular.ttf",
        "NotoSansGujarati-Regular.ttf",
        "NotoSans-Regular.ttf",
        "DejaVuSans.ttf",
    ], runs
    box = FONTS.font(FONTS.chain[0].regular, 24).getmask("\U0010fffd")
    for run, path in runs:
        for ch in run.strip():
            mask = FONTS.font(path, 24).getmask(ch)
            assert mask.size != box.size or bytes(mask) != bytes(box), (ch, path)
