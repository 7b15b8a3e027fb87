"""The on-screen keyboard, real taps under Xvfb at 800x480: names typed in
English, Hindi (InScript), Gujarati (InScript) and Greek reach the fields, shaped by the
real shaper, and the field being typed stays in sight above the keyboard."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kivy.core.window import Window
from PIL import Image, ImageDraw, ImageFont, features

from kiosk.ui.keyboard import KeyButton, shared_keyboard
from kiosk.ui.scale import text_px

from .harness import Kiosk
from .test_shaping import _ink, difference


def _key(kiosk: Kiosk, text: str) -> None:
    """Tap the keyboard's key that reads `text`."""
    keyboard = shared_keyboard()
    keys = [
        w
        for w in keyboard.walk(restrict=True)
        if isinstance(w, KeyButton) and (w.typed or w.text) == text
    ]
    assert keys, f"no key {text!r} on the {keyboard.code} keyboard"
    kiosk.tap(keys[0])


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _in_sight_above_keyboard(field: Any) -> None:
    keyboard = shared_keyboard()
    assert keyboard.shown
    x0, y0, x1, y1 = _rect(field)
    assert y0 >= keyboard.top - 1, f"the field {(y0, y1)} is under the keyboard ({keyboard.top})"
    assert y1 <= Window.height + 1 and x0 >= -1 and x1 <= Window.width + 1, "off the window"


def _field_ink(field: Any) -> np.ndarray:
    """The ink of the field's first line, as its texture holds it (drawn by the provider)."""
    texture = field._lines_labels[0]
    pixels = np.frombuffer(texture.pixels, dtype=np.uint8)
    return _ink(pixels.reshape(texture.height, texture.width, 4)[:, :, 3])


def _shaped_like_raqm(field: Any, role: str) -> None:
    from kiosk.ui.text import find_face

    path = find_face(role).regular
    size = text_px(field.font_size)
    kivy = _field_ink(field)
    shaped = _raqm_ink(field.text, path, size, ImageFont.Layout.RAQM)
    unshaped = _raqm_ink(field.text, path, size, ImageFont.Layout.BASIC)
    near, far = difference(kivy, shaped), difference(kivy, unshaped)
    print(f"shaping {field.text}: {near:.3f} from raqm, {far:.3f} from unshaped")
    assert near < 0.12, f"{field.text}: the field differs from raqm's shaping by {near:.2f}"
    assert far > near * 2, f"{field.text}: unshaped {far:.2f} is as near as shaped {near:.2f}"


def _raqm_ink(text: str, path: str, size: int, layout: ImageFont.Layout) -> np.ndarray:
    """`text` drawn by Pillow in the font at `size`: RAQM shapes it, BASIC does not."""
    font = ImageFont.truetype(path, size, layout_engine=layout)
    image = Image.new("L", (size * len(text) * 2, size * 3), 0)
    ImageDraw.Draw(image).text((size // 2, size // 2), text, font=font, fill=255)
    return _ink(np.asarray(image))


@pytest.mark.skipif(not features.check("raqm"), reason="Pillow without libraqm")
def test_names_in_four_scripts_typed_on_the_on_screen_keyboard(small: Kiosk) -> None:
    kiosk = small
    kiosk.tap("bhukhar")
    setup = kiosk.screen()
    root = kiosk.app.root
    # English: the team's name
    kiosk.tap("team_name")
    keyboard = shared_keyboard()
    assert keyboard.shown and keyboard.code == "en"
    _in_sight_above_keyboard(setup.ids.team_name)
    for key in ("Shift", "L", "i", "o", "n", "s"):
        _key(kiosk, key)
    assert setup.ids.team_name.text == "Lions" and setup.team_names[0] == "Lions"
    # Hindi, InScript: k f x l g is क ि ं त ु, "किंतु" (the i-sign typed after its consonant)
    kiosk.tap("player_0")
    _in_sight_above_keyboard(setup.ids.player_0)
    _key(kiosk, "हि")
    for key in ("क", "ि", "ं", "त", "ु"):
        _key(kiosk, key)
    assert setup.ids.player_0.text == "किंतु" and setup.players[0][0] == "किंतु"
    # Gujarati, InScript: c e m d ' j is મ ા સ ્ ટ ર, "માસ્ટર" (the virama joins સ and ટ)
    kiosk.tap("player_1")
    _in_sight_above_keyboard(setup.ids.player_1)
    _key(kiosk, "ગુ")
    for key in ("મ", "ા", "સ", "્", "ટ", "ર"):
        _key(kiosk, key)
    assert setup.ids.player_1.text == "માસ્ટર"
    # Greek: Shift Ε, λ, then the tonos (a dead key) and ε: έ, ν, η
    kiosk.tap("player_2")
    _in_sight_above_keyboard(setup.ids.player_2)
    _key(kiosk, "ΕΛ")
    for key in ("Shift", "Ε", "λ", "΄", "ε", "ν", "η"):
        _key(kiosk, key)
    assert setup.ids.player_2.text == "Ελένη"
    _key(kiosk, "Delete")
    assert setup.ids.player_2.text == "Ελέν"
    _key(kiosk, "η")
    kiosk.shot("keyboard_greek_800x480")
    _key(kiosk, "ગુ")
    kiosk.shot("keyboard_gujarati_800x480")
    _key(kiosk, "ΕΛ")
    # the Indian names drawn in the fields as the real shaper shapes them
    _shaped_like_raqm(setup.ids.player_0, "devanagari")
    _shaped_like_raqm(setup.ids.player_1, "gujarati")
    _key(kiosk, "Done")
    assert not keyboard.shown and root.y == 0, "the screen was left lifted"
    assert setup.players[0] == ["किंतु", "માસ્ટર", "Ελένη"]


def test_the_keyboard_keeps_a_carrom_name_in_sight_at_800x480(small: Kiosk) -> None:
    kiosk = small
    kiosk.tap("carrom_icf")
    setup = kiosk.screen()
    for wid in ("name_0", "name_1"):
        kiosk.tap(wid)
        _in_sight_above_keyboard(setup.ids[wid])
        kiosk.shot(f"keyboard_carrom_{wid}_800x480")
    _key(kiosk, "Done")
    assert kiosk.app.root.y == 0
    for key in shared_keyboard().walk(restrict=True):
        if isinstance(key, KeyButton):
            assert min(key.size) >= 47.5, (key.text, key.size)
