"""Regenerate the screenshots of docs/ui.md: every screen and dialog of the tour (tour.py) and
every state of its story (the issue's states: a doubles match in four scripts, the change of
sides, the backgammon clock paused and waiting, Bhukhar's refusal, the PINs' problems) at
800x480 and 1024x600, in English, Hindi, Gujarati and Greek; the carrom console in each of the four
languages; the on-screen keyboard in each of its layouts.

    xvfb-run -a -s "-screen 0 1024x600x24" .venv/bin/python -m tests.ui.screenshots

Not part of `make test` (some minutes of drawing). Writes docs/screenshots/fit/: English at
`<size>/<state>.png`, the others at `<size>/<language>/<state>.png`. Each picture is
kept with a palette of 128 colours (text stays sharp; a tenth of the size).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

# The harness first: it chooses Kivy's text provider and window before Kivy is imported.
from .harness import FakeClock, Services, make_kiosk, pump
from .tour import story, tour

DOCS = Path(__file__).resolve().parents[2] / "docs"
OUT = DOCS / "screenshots" / "fit"
SIZES = ((800, 480), (1024, 600))
LANGUAGES = ("en", "hi", "gu", "el")
CONSOLE_LANGUAGES = ("en", "hi", "gu", "el")


def shot(path: Path) -> None:
    from kivy.core.window import Window
    from PIL import Image

    pump(4, draw=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    made = Window.screenshot(name=str(path.with_name(path.stem + "-tmp.png")))
    with Image.open(made) as picture:
        picture.convert("RGB").quantize(128).save(path, optimize=True)
    os.remove(made)


def where(size: tuple[int, int], language: str, state: str) -> Path:
    folder = OUT / f"{size[0]}x{size[1]}"
    if language != "en":
        folder = folder / language
    return folder / f"{state.replace('/', '_')}.png"


def resize(size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    Window.size = size
    pump(6)


def main() -> int:
    from kiosk.ui.i18n import apply_languages
    from kiosk.ui.keyboard import LAYOUTS, shared_keyboard

    clock = FakeClock(1000.0)
    data = Path(tempfile.mkdtemp(prefix="tableside-shots-"))
    services = Services(data_dir=data, check_pin=lambda pin: False, clock=clock)
    kiosk_gen = make_kiosk(services, clock)
    kiosk = next(kiosk_gen)
    toured: list[str] = []
    told: list[str] = []
    try:
        for size in SIZES:
            resize(size)
            for language in LANGUAGES:
                apply_languages(language, "")
                for state in tour(kiosk):
                    if "overlay" not in state:  # overlays forced open: the named states show them
                        shot(where(size, language, state))
                        if state not in toured:
                            toured.append(state)
            for language in CONSOLE_LANGUAGES:
                apply_languages(language, "")
                kiosk.app.show("carrom")
                shot(where(size, "en", f"console_{language}"))
            apply_languages("en", "")
        for state in story(kiosk):  # each state once, shot at both sizes in each language
            told.append(state)
            for size in SIZES:
                resize(size)
                for language in LANGUAGES:
                    apply_languages(language, "")
                    shot(where(size, language, state))
            apply_languages("en", "")
        for size in SIZES:  # the keyboard under the Bhukhar setup's first player
            resize(size)
            kiosk.app.choose_game("bhukhar")
            pump(4)
            field = kiosk.screen("setup_bhukhar").ids.player_0
            field.focus = True
            pump(4)
            keyboard = shared_keyboard()
            for code in LAYOUTS:
                keyboard.choose(code)
                shot(where(size, "en", f"keyboard_{code}"))
            keyboard.close()
            kiosk.app.show("home")
        apply_languages("en", "")
    finally:
        resize((1024, 600))
        kiosk_gen.close()
    write_tables(DOCS / "ui.md", toured, told)
    print(f"screenshots in {OUT}; their tables in {DOCS / 'ui.md'}")
    return 0


BEGIN, END = "<!-- screenshots: begin -->", "<!-- screenshots: end -->"


def table(states: list[str], size: tuple[int, int]) -> str:
    """A markdown table of `states` at `size`: one row a state, a column a language."""
    named = {"en": "English", "hi": "Hindi", "gu": "Gujarati", "el": "Greek"}
    wide = f"{size[0]}x{size[1]}"
    rows = [
        f"| {wide} | " + " | ".join(named[code] for code in LANGUAGES) + " |",
        "|---" * (len(LANGUAGES) + 1) + "|",
    ]
    for state in states:
        cells = []
        for code in LANGUAGES:
            path = where(size, code, state).relative_to(DOCS)
            cells.append(f"![{state} {code} {wide}]({path})")
        rows.append(f"| `{state}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def write_tables(doc: Path, toured: list[str], told: list[str]) -> None:
    """The tables of docs/ui.md between the markers, from the states just shot."""
    text = doc.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    parts = []
    for what, states in (
        ("Every screen and dialog of the tour", toured),
        ("The states of the story the tour does not tell", told),
    ):
        for size in SIZES:
            parts.append(f"{what} at {size[0]}x{size[1]}:\n\n{table(states, size)}")
    doc.write_text(head + BEGIN + "\n\n" + "\n\n".join(parts) + "\n\n" + END + tail, "utf-8")


if __name__ == "__main__":
    sys.exit(main())
