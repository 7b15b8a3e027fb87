"""The text path's caches: a bounded set of FreeType faces, plain ASCII in one run.

Real Noto fonts through Pillow (no Kivy needed): the faces are Pillow's own objects."""

from __future__ import annotations

import pytest

from kiosk.ui import text
from kiosk.ui.text import Fonts, FontsMissing, find_faces, kivy_symbols_face


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    try:
        faces = find_faces()
    except FontsMissing as exc:  # pragma: no cover - make setup installs them
        pytest.skip(str(exc))
    return Fonts([*faces.values(), kivy_symbols_face()])


def test_faces_kept_are_bounded_and_the_last_used_stay(fonts: Fonts) -> None:
    latin = fonts.chain[0].regular
    kept = fonts.font(latin, 30)
    for size in range(8, 8 + 3 * text._FACES):
        fonts.font(latin, size)
        assert fonts.font(latin, 30) is kept  # in use all along: never closed
    assert len(fonts._fonts) <= text._FACES
    assert (latin, 8) not in fonts._fonts  # the least recently used went first
    # One opened again measures as before.
    assert fonts.length("Board", latin, 8) == fonts.font(latin, 8).getlength("Board")


def test_plain_ascii_is_one_run_in_the_labels_font(fonts: Fonts) -> None:
    latin = fonts.chain[0].regular
    assert fonts.runs("P1: 2  P3: 1 (law 49)", latin, False) == [("P1: 2  P3: 1 (law 49)", latin)]
    # A font without Latin letters still hands ASCII on to one that has them.
    devanagari = fonts.chain[1].regular
    runs = fonts.runs("Asha राम", devanagari, False)
    assert [path for _run, path in runs] == [latin, devanagari]
