"""The carrom proposal panel at 800x480: every tap target at least 48 px, also
with the pocket line a camera's miss adds (a state the fit test's tour never reaches), in
every language; and the coin counts read on coins of their colour."""

from __future__ import annotations

from kiosk.ui.i18n import apply_languages
from kiosk.ui.scale import MIN_TAP_PX

from .fit import problems
from .harness import Kiosk, pump

PANEL = (
    "white_minus",
    "white_plus",
    "black_minus",
    "black_plus",
    "queen_in",
    "striker_in",
    "improper",
    "off_white",
    "off_black",
    "off_striker",
    "off_clear",
    "not_touched",
    "confirm",
    "pockets",
)


def test_every_target_of_the_proposal_is_48_px_with_the_pocket_line(small: Kiosk) -> None:
    kiosk = small
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("play")
    kiosk.key("3")  # a coin through pocket 3, its colour not seen: the pocket line shows
    kiosk.advance(0.5)
    assert screen.colour_missing and screen.ids.pockets.opacity == 1
    for language in ("en", "hi", "gu", "el"):
        apply_languages(language, "")
        pump(4)
        assert problems(screen, smallest=True) == [], language
        for wid in PANEL:
            widget = screen.ids[wid]
            assert min(widget.size) >= MIN_TAP_PX - 0.5, (language, wid, widget.size)
    apply_languages("en", "")
    kiosk.shot("carrom_pocket_800x480")
    kiosk.tap("white_plus")  # real taps land at 800x480 too
    kiosk.tap("black_plus")
    assert (screen.prop_white, screen.prop_black) == (2, 1)
    assert screen.ids.white_count.text == "2" and screen.ids.black_count.text == "1"
    assert screen.ids.white_count.coin == "white" and screen.ids.black_count.coin == "black"
