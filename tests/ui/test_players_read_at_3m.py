"""The player display reads at 3 m: names with a cap height of 12 mm or more, the clock's
digits and the score 25 mm or more, on the panel of `players.panel_in` (7-inch by default),
at 800x480 and 1024x600. Measured on the text as drawn: each label's own core label (Kivy's
PIL provider, Pillow's raqm, the Noto fonts) renders a capital "H" (names) or the label's
digits at the label's font and size, and the ink's height is the cap height, in mm on the
panel. The backgammon display shows the match score ("4-2 to 5")."""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from kivy.uix.label import Label

from kiosk.ui.scale import text_px

from .harness import FakeClock, Kiosk, Services, make_kiosk, name_players, pump
from .test_zz_fit import resize


def cap_mm(label: Label, text: str, mm: float) -> float:
    """The height of `text`'s ink, drawn as `label` draws (its font, bold, size), in mm."""
    core = copy.copy(label._label)
    options = dict(core.options)
    options.update(
        font_size=text_px(label.font_size), shorten=False, max_lines=0, color=(1, 1, 1, 1)
    )
    core.options = options
    core._text_size = (None, None)
    core.text = text
    w, h = core.render()
    core._size = (w, h)
    lines = core._cached_lines
    core._render_begin()
    core.render_lines(lines, core._default_line_options(lines), core._render_text, 0, (w, h))
    data = core._render_end()
    alpha = np.frombuffer(data.data, np.uint8).reshape(h, w, 4)[:, :, 3] > 96
    rows = np.flatnonzero(alpha.any(axis=1))
    assert rows.size, f"no ink for {text!r}"
    return float(rows[-1] - rows[0] + 1) / mm


@pytest.fixture
def display(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kiosk]:
    clock = FakeClock(1000.0)
    services = Services(data_dir=tmp_path, check_pin=lambda pin: pin == "2468", clock=clock)
    running = make_kiosk(services, clock)
    kiosk = next(running)
    try:
        resize(*request.param)
        yield kiosk
    finally:
        resize(1024, 600)
        running.close()


SIZES = [(800, 480), (1024, 600)]


def _mm(kiosk: Kiosk) -> float:
    from kivy.core.window import Window

    panel = getattr(kiosk.services.settings.players, "panel_in", 7.0)
    assert panel == 7.0  # the default: a 7-inch panel
    width, height = Window.size
    return math.hypot(width, height) / (panel * 25.4)  # pixels per mm on the panel


@pytest.mark.parametrize("display", SIZES, ids=lambda s: f"{s[0]}x{s[1]}", indirect=True)
def test_carrom_player_display_names_12_mm_digits_25_mm(display: Kiosk) -> None:
    kiosk = display
    app = kiosk.app
    app.choose_game("carrom_club")  # club rules: the score shows (law 128 is ICF's)
    pump(2)
    name_players(kiosk, "Sita", "Ravi")
    app.start_carrom(kiosk.screen("setup_carrom"))
    pump(4)
    kiosk.tap("play")
    app.show("players")
    kiosk.advance(1.0)
    players = kiosk.screen()
    assert players.big and players.left_score == "0"
    mm = _mm(kiosk)
    ids = players.ids
    assert cap_mm(ids.left_name, "H", mm) >= 12.0
    assert cap_mm(ids.right_name, "H", mm) >= 12.0
    for digits in (ids.left, ids.right, ids.big):
        assert cap_mm(digits, digits.text, mm) >= 25.0, digits.text
    kiosk.shot(f"players_carrom_{kiosk.app.root.width}")


@pytest.mark.parametrize("display", SIZES, ids=lambda s: f"{s[0]}x{s[1]}", indirect=True)
def test_backgammon_player_display_banks_25_mm_and_the_match_score(display: Kiosk) -> None:
    kiosk = display
    app = kiosk.app
    app.choose_game("backgammon")
    setup = kiosk.screen("setup_backgammon")
    setup.set_name(0, "Nikos")
    setup.set_name(1, "Eleni")
    setup.step_length(-1)  # to 5
    for _ in range(4):
        setup.step_score(0, 1)
    for _ in range(2):
        setup.step_score(1, 1)
    pump(2)
    app.start_backgammon(setup)
    pump(4)
    kiosk.screen("backgammon").start_side(0)
    pump(2)
    app.show("players")
    kiosk.advance(1.0)
    players = kiosk.screen()
    assert players.ids.banner.text.startswith("4-2 to 5"), players.ids.banner.text
    mm = _mm(kiosk)
    ids = players.ids
    assert cap_mm(ids.left_name, "H", mm) >= 12.0
    for bank in (ids.left, ids.right):
        assert cap_mm(bank, bank.text, mm) >= 25.0, bank.text
    kiosk.shot(f"players_backgammon_{kiosk.app.root.width}")


@pytest.mark.parametrize("display", [(800, 480)], ids=["800x480"], indirect=True)
def test_player_displays_in_each_language_at_800x480(display: Kiosk) -> None:
    """docs/ui.md's screenshots: the carrom and backgammon player displays at 800x480 in
    English, Hindi, Gujarati and Greek, each checked by the same measure."""
    from kiosk.ui.i18n import apply_languages

    kiosk = display
    app = kiosk.app
    app.choose_game("carrom_club")
    pump(2)
    name_players(kiosk, "सीता", "Νίκος")
    app.start_carrom(kiosk.screen("setup_carrom"))
    pump(4)
    kiosk.tap("play")  # the break's timer runs
    app.show("players")
    players = kiosk.screen()
    try:
        for language in ("en", "hi", "gu", "el"):
            apply_languages(language)
            kiosk.advance(0.5)
            assert cap_mm(players.ids.left, players.ids.left.text, _mm(kiosk)) >= 25.0
            kiosk.shot(f"players_carrom_800x480_{language}")
        app.choose_game("backgammon")
        setup = kiosk.screen("setup_backgammon")
        setup.set_name(0, "Ελένη")
        setup.set_name(1, "Ravi")
        setup.step_length(-1)
        for _ in range(4):
            setup.step_score(0, 1)
        setup.step_score(1, 1)
        setup.step_score(1, 1)
        app.start_backgammon(setup)
        pump(4)
        kiosk.screen("backgammon").start_side(0)
        pump(2)
        app.show("players")
        for language in ("en", "hi", "gu", "el"):
            apply_languages(language)
            kiosk.advance(0.5)
            assert players.ids.banner.text.startswith("4-2")
            assert cap_mm(players.ids.left, players.ids.left.text, _mm(kiosk)) >= 25.0
            kiosk.shot(f"players_backgammon_800x480_{language}")
    finally:
        apply_languages("en")
