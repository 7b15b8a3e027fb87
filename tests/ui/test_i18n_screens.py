"""The kiosk in English, Hindi, Gujarati and Greek: the umpire switches at once, the player
display keeps its own language, names in four scripts show everywhere and in the record.

Every check of drawn text goes through the real label path (Kivy's PIL provider, Pillow's
raqm, the Noto fallback chain): a label's characters must each come from a font that has
them (no missing-glyph boxes), and its texture must fit inside the label (nothing clipped)
on an 800x480 screen.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label

from kiosk.tables.carrom_record import export_match_record
from kiosk.ui.i18n import apply_languages, ptr, tr
from kiosk.ui.text import FONTS

from .conftest import PIN
from .harness import Kiosk, pump

NAMES = ("अमित", "ભાવેશ", "Νίκος", "Asha")  # Hindi, Gujarati, Greek, Latin: seats 1-4
LANGS = ("en", "hi", "gu", "el")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    apply_languages("en")


def _labels(root: Any) -> list[Label]:
    return [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, Label) and w.text.strip() and w.opacity > 0 and w.get_root_window()
    ]


def tofu(label: Label) -> list[str]:
    """Characters of the label drawn by a font that lacks them (they would show as boxes)."""
    assert FONTS is not None
    text = label._label.text if label.markup else label.text
    bold = bool(label.bold)
    missing = []
    for run, path in FONTS.runs(text, FONTS.chain[0].path(bold), bold):
        missing += [c for c in run if not c.isspace() and not FONTS.has(path, c)]
    return missing


def clipped(label: Label) -> bool:
    """The label's text is wider than the label (cut off or spilling onto its neighbour), or
    taller by more than a third of a letter: a line wrapped into a box made for one (Noto's
    line box is taller than its letters, so a tight box still shows every stroke)."""
    tw, th = label.texture_size
    return bool(tw > label.width + 2 or th > label.height + 0.35 * label.font_size)


def broken(label: Label) -> list[str]:
    """Words a wrapping label must break (wider than its box), and a line that wraps in a box
    with room for one line only (the second line is cut off)."""
    box_w, box_h = label.text_size
    if box_w is None or label.markup:
        return []
    core = label._label
    found = [word for word in label.text.split() if core.get_extents(word)[0] > box_w + 1]
    if "\n" in label.text or box_h is None:
        return found
    whole_w, line_h = core.get_extents(label.text)
    if whole_w > box_w + 1 and 2 * line_h > box_h + 0.35 * label.font_size:
        found.append(f"{label.text!r} wraps in a box {round(box_h)} px high")
    return found


def on_glass(label: Label) -> bool:
    """Within the window: a panel parked off-screen (an overlay not shown) is not seen."""
    x, y = label.to_window(label.x, label.y)
    return bool(
        x < Window.width and y < Window.height and x + label.width > 0 and y + label.height > 0
    )


def _check_screen(kiosk: Kiosk, where: str) -> None:
    pump(4)
    screen = kiosk.screen()
    problems = []
    for label in _labels(screen):
        if label.shorten or not on_glass(label) or min(label.size) < 1:
            continue  # shortened by design (a long name on the scoreboard): ends in "..."
        if tofu(label):
            problems.append(f"{where}: boxes for {tofu(label)} in {label.text!r}")
        if broken(label):
            problems.append(f"{where}: broken {broken(label)}")
        if clipped(label):
            size = (round(label.width), round(label.height))
            problems.append(f"{where}: {label.text!r} {label.texture_size} in {size}")
    assert problems == [], "\n".join(problems)


def _open_settings(kiosk: Kiosk) -> None:
    kiosk.tap("settings")
    for digit in PIN:
        kiosk.tap(f"key_{digit}")
    kiosk.tap("key_ok")
    assert kiosk.current == "settings"


def _chip(row: Any, text: str) -> Any:
    chips = [c for c in row.children if getattr(c, "text", None) == text]
    assert chips, f"no chip {text!r} in {[getattr(c, 'text', '') for c in row.children]}"
    return chips[0]


def test_the_umpire_switches_the_language_at_once_and_saves_it(kiosk: Kiosk) -> None:
    _open_settings(kiosk)
    screen = kiosk.screen()
    kiosk.tap(_chip(screen.ids.language_row, "हिन्दी"))
    assert tr.language == "hi" and ptr.language == "hi"
    # No restart: the rules of every .kv already showing are worded again.
    assert kiosk.widget("save").text == "सेव करें"
    assert kiosk.widget("back").text == "वापस"
    kiosk.shot("i18n_settings_hi")
    # The player display keeps its own: English for the players, Hindi for the umpire.
    kiosk.tap(_chip(screen.ids.display_language_row, "English"))
    assert tr.language == "hi" and ptr.language == "en"
    kiosk.tap("save")
    assert kiosk.services.settings.ui.language == "hi"
    assert kiosk.services.settings.ui.display_language == "en"
    kiosk.tap("back")
    assert kiosk.current == "home"
    assert kiosk.widget("carrom_icf").text == "केरम\nICF नियम"
    assert kiosk.widget("resume").text == "कोई अधूरा मैच नहीं"
    kiosk.app.show("players")
    assert kiosk.screen().status == "No table running"  # the display's English
    kiosk.app.show("home")
    # Back to Greek from the settings: the home screen follows at once.
    _open_settings(kiosk)
    kiosk.tap(_chip(kiosk.screen().ids.language_row, "Ελληνικά"))
    kiosk.tap("back")
    assert kiosk.widget("players").text == "Οθόνη παικτών"


def _doubles_with_four_scripts(kiosk: Kiosk) -> Any:
    kiosk.tap("carrom_icf")
    setup = kiosk.screen()
    kiosk.tap("doubles")
    for seat, name in enumerate(NAMES):
        setup.set_name(seat, name)  # typed names: xdotool cannot type these scripts
    pump(3)
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def test_names_in_four_scripts_on_the_console_sheet_display_and_record(
    kiosk: Kiosk, tmp_path: Path
) -> None:
    screen = _doubles_with_four_scripts(kiosk)
    Window.size = (800, 480)
    try:
        pump(10)
        assert screen.status == f"{NAMES[0]} to break"
        side_names = " ".join(screen.names)
        assert all(n in side_names for n in NAMES), side_names
        _check_screen(kiosk, "console")
        kiosk.shot("i18n_names_console")
        kiosk.tap("play")
        kiosk.tap("white_plus")
        kiosk.tap("confirm")
        kiosk.tap("sheet")
        pump(4)
        assert [NAMES[0]] == [row[2] for row in screen.sheet_rows][:1]
        grid = screen.ids.sheet_grid
        assert any(NAMES[0] in w.text for w in _labels(grid))
        _check_screen(kiosk, "scoresheet")
        kiosk.shot("i18n_names_scoresheet")
        kiosk.tap("sheet_close")
        kiosk.tap("players")
        players = kiosk.screen()
        kiosk.advance(0.1)
        assert NAMES[0] in players.left_name + players.right_name
        assert NAMES[1] in players.left_name + players.right_name
        _check_screen(kiosk, "player display")
        kiosk.shot("i18n_names_players")
    finally:
        Window.size = (1024, 600)
        pump(6)
    # The record: UTF-8 JSON lines holding the names as written, replayed unchanged.
    session = kiosk.screen("carrom").session
    record = export_match_record(session.journal)
    path = tmp_path / "match.jsonl"
    path.write_bytes(record.encode("utf-8"))
    header = json.loads(record.splitlines()[0])
    assert all(n.encode("utf-8") in path.read_bytes() for n in NAMES)  # not \u escapes
    assert list(header["players"]) == list(NAMES)
    tableside = Path(sys.executable).with_name("tableside")
    out = subprocess.run(
        [str(tableside), "replay", str(path), "--json"],
        capture_output=True,
        timeout=60,
        check=True,
    ).stdout.decode("utf-8")
    replayed = json.loads(out)
    assert list(replayed["players"]) == list(NAMES)
    sheet = subprocess.run(
        [str(tableside), "replay", str(path)], capture_output=True, timeout=60, check=True
    ).stdout.decode("utf-8")
    assert NAMES[0] in sheet


SCREENS = ("home", "carrom", "players", "backgammon", "bhukhar", "settings")


def _show(kiosk: Kiosk, name: str) -> None:
    if name == "settings":
        kiosk.app.show("settings")
    elif name == "players":
        kiosk.app.show("players")
        kiosk.advance(0.1)
    else:
        kiosk.app.show(name)
    pump(6)


@pytest.mark.parametrize("language", LANGS)
def test_main_screens_in_each_language_fit_800x480(kiosk: Kiosk, language: str) -> None:
    """The home, the carrom console, the player display, the backgammon clock, the Bhukhar
    table and the settings: no boxes and no clipped text; screenshots for docs/ui.md."""
    _doubles_with_four_scripts(kiosk)
    kiosk.tap("home")
    kiosk.tap("backgammon")
    kiosk.tap("ask_go")  # the carrom match stays on home, to resume
    kiosk.tap("start")
    kiosk.tap("home")
    kiosk.tap("bhukhar")
    kiosk.tap("ask_go")
    kiosk.tap("start")
    kiosk.app.resume("carrom")  # the carrom table in play again, from the journal
    apply_languages(language)
    Window.size = (800, 480)
    try:
        pump(10)
        for name in SCREENS:
            _show(kiosk, name)
            assert kiosk.current == name
            _check_screen(kiosk, f"{name} ({language})")
            kiosk.shot(f"i18n_{name}_{language}")
    finally:
        Window.size = (1024, 600)
        pump(6)


def test_the_pin_dots_draw(kiosk: Kiosk) -> None:
    """The PIN pad's dots (●, U+25CF) come from a font that has them, not as boxes."""
    import numpy as np

    kiosk.tap("settings")
    for digit in "246":
        kiosk.tap(f"key_{digit}")
    dots = kiosk.widget("dots")
    assert dots.text == "●●●"
    pump(3)
    assert tofu(dots) == []
    texture = dots.texture
    alpha = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(texture.height, -1, 4)[:, :, 3]
    assert (alpha > 128).sum() > 3 * 50  # three solid discs of ink
    kiosk.shot("i18n_pin_dots")
