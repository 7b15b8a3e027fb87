"""The backgammon clock's title and banner are never cut with "…": at 800x480 in Greek, a
5-point match at 4-2 (the Crawford game) put "ματς στους 5 …ός παιχνιδιού" and
"…ford · κύβος 1" side by side. The check is fit.py's, which now reads the label as Kivy
laid it out (the real shaper) for a "…" the text does not hold."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.ui.i18n import apply_languages

from .fit import describe, problems
from .harness import FakeClock, Kiosk, Services, make_kiosk, pump
from .test_zz_fit import resize, settle


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Kiosk]:
    clock = FakeClock(1000.0)
    services = Services(data_dir=tmp_path, check_pin=lambda pin: pin == "2468", clock=clock)
    running = make_kiosk(services, clock)
    kiosk = next(running)
    try:
        resize(800, 480)
        yield kiosk
    finally:
        apply_languages("en", "")
        resize(1024, 600)
        running.close()


@pytest.mark.parametrize("language", ["el", "hi", "gu", "en"])
def test_clock_title_beside_the_crawford_banner_is_not_cut(small: Kiosk, language: str) -> None:
    kiosk = small
    apply_languages(language, "")
    app = kiosk.app
    app.choose_game("backgammon")
    setup = kiosk.screen("setup_backgammon")
    setup.step_length(-1)  # a 5-point match
    for _ in range(4):
        setup.step_score(0, 1)
    for _ in range(2):
        setup.step_score(1, 1)
    pump(2)
    app.start_backgammon(setup)
    pump(4)
    clock = kiosk.screen("backgammon")
    clock.start_side(0)
    settle(4)
    pump(4)
    assert clock.view is not None and clock.view.crawford
    assert clock.banner and clock.match_line
    kiosk.shot(f"backgammon_crawford_800_{language}")
    found = {line: "backgammon/crawford" for line in problems(clock, True)}
    assert not found, describe(found)


def test_the_red_time_out_border_leaves_the_titles_first_letter_whole(small: Kiosk) -> None:
    """The carrom console's flashing border (a timer ran out) was drawn 0.8 units in from
    the edge, over the title that starts 0.5 units in. Measured from the drawn title's ink
    (the real shaper) and the border's own line, as the canvas holds it."""
    from kivy.graphics import Line

    from .fit import ink
    from .harness import name_players

    kiosk = small
    apply_languages("el", "")
    kiosk.app.choose_game("carrom_icf")
    pump(2)
    name_players(kiosk, "Ασπασία", "Βασίλης")
    kiosk.app.start_carrom(kiosk.screen("setup_carrom"))
    pump(4)
    screen = kiosk.screen("carrom")
    screen.flash = True
    pump(4, draw=True)  # a Line's points are made as it is drawn
    title = screen.ids.title
    drawn = ink(title).ink
    assert drawn is not None
    lines = [
        i for w in screen.walk(restrict=True) if w.canvas is not None
        for i in w.canvas.after.children if isinstance(i, Line)
    ]  # fmt: skip
    assert lines, "no border line"
    border = lines[0]
    left_x = min(border.points[0::2])
    inner = left_x + border.width  # a line reaches `width` either side of its path
    top_y = max(border.points[1::2])
    assert drawn[0] >= inner - 0.5, (drawn, inner)
    assert drawn[3] <= top_y - border.width + 0.5, (drawn, top_y)
