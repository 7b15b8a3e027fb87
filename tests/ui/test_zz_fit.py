"""Every screen and dialog fits every screen size, in every language.

A kiosk for each screen size of kiosk/ui/scale.py, its window resized once: the tour
(tour.py) lays out each screen and dialog in each language, the story (tour.py) brings about
the states the tour does not reach, each checked in each language, and fit.py lists what does
not fit. A resize lays out every screen again (0.7 s a resize at 1920x1080 here): a story
told once at each size instead of resizing at each of its states (the suite's time).
The seeded test shows that the check fails on a clipped label, a widget off the window and a
small tap target.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk.ui.i18n import apply_languages, tr
from kiosk.ui.scale import MIN_TAP_PX, SCREENS

from .fit import describe, problems
from .harness import FakeClock, Kiosk, Services, make_kiosk, pump
from .tour import story, tour

LANGUAGES = ("en", "hi", "gu", "el")


@pytest.fixture
def sized(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kiosk]:
    """A new kiosk, its window at the test's size (`size`, or the smallest)."""
    clock = FakeClock(1000.0)
    services = Services(data_dir=tmp_path, check_pin=lambda pin: pin == "2468", clock=clock)
    running = make_kiosk(services, clock)
    kiosk = next(running)
    try:
        resize(*getattr(request, "param", SCREENS[0]))
        yield kiosk
    finally:  # back to English at 1024x600 while the app still runs, then it stops
        apply_languages("en", "")
        resize(1024, 600)
        running.close()


def settle(frames: int = 3) -> None:
    """Kivy's clock without drawing: layouts and label textures follow their triggers (a
    1920x1080 frame drawn by Xvfb's software GL costs more than the whole layout)."""
    for _ in range(frames):
        Clock.tick()
        Clock.tick_draw()


def resize(width: int, height: int) -> None:
    Window.size = (width, height)
    pump(4)
    Window.left, Window.top = 0, 0  # SDL may move a resized window: taps aim at 0,0
    pump(2)
    assert tuple(Window.size) == (width, height), f"the window stayed {Window.size}"


@pytest.mark.parametrize("sized", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}", indirect=True)
def test_every_screen_fits_in_every_language(sized: Kiosk) -> None:
    kiosk = sized
    size = tuple(Window.size)
    smallest = size == SCREENS[0]
    found: dict[str, str] = {}  # each problem once, with where it was seen first
    for language in LANGUAGES:
        apply_languages(language, "")
        for state in tour(kiosk, settle):
            for line in problems(kiosk.screen(), smallest):
                found.setdefault(line, f"{size[0]}x{size[1]} {language} {state}")
    assert not found, "screens that do not fit:\n" + describe(found)


def test_the_check_finds_a_clipped_label(sized: Kiosk) -> None:
    kiosk = sized
    apply_languages("en", "")
    kiosk.app.show("home")
    screen = kiosk.screen()
    seeded = [
        Label(
            text="a label far too long for its small box",
            font_size=30,
            size_hint=(None, None),
            size=(120, 40),
            pos=(10, 10),
        ),
        Label(text="off the edge", size_hint=(None, None), size=(200, 60), pos=(700, 10)),
        Button(text="x", size_hint=(None, None), size=(MIN_TAP_PX - 10, 60), pos=(300, 10)),
    ]
    for widget in seeded:
        screen.add_widget(widget)
    try:
        pump(4)
        found = "\n".join(problems(screen, smallest=True))
    finally:
        for widget in seeded:
            screen.remove_widget(widget)
    assert "'a label far too long for its small box' clipped" in found
    assert "'off the edge' outside the window" in found
    assert f"Button 'x' tap target {MIN_TAP_PX - 10}x60" in found
    pump(2)
    assert not problems(screen, smallest=True), "home itself fits"


@pytest.mark.parametrize("sized", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}", indirect=True)
def test_every_state_of_the_story_fits_in_every_language(sized: Kiosk) -> None:
    """The states the issues found text cut or over its neighbours in (the change of
    sides, the queen's line, the scoresheet's columns, a doubles name, the board's points, the
    ruling strip's descenders, the PINs' problems, names wrapped mid-word, PAUSED and WAIT in
    Greek, a refusal), each checked in every language; the story is told at each size."""
    kiosk = sized
    size = tuple(Window.size)
    found: dict[str, str] = {}
    # Each state in the four languages, in turn there and back (en hi gu el, then el gu hi
    # en): a state comes about in the language the last was left in, and is checked in it
    # first. A switch words and draws every label of every screen made: three a state
    # instead of five.
    order = list(LANGUAGES)
    for state in story(kiosk, settle):
        for language in order:
            if language != tr.language:
                apply_languages(language, "")
                settle(3)
            for line in problems(kiosk.screen(), size == SCREENS[0]):
                found.setdefault(line, f"{size[0]}x{size[1]} {language} {state}")
        order.reverse()
    assert not found, "screens that do not fit:\n" + describe(found)
