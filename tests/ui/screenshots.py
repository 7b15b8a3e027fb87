"""Regenerate the screenshots of docs/ui.md: every screen and dialog of the tour (tour.py) at
800x480 and 1024x600 in English, and the carrom console in each language at both sizes.

    xvfb-run -a -s "-screen 0 1024x600x24" .venv/bin/python -m tests.ui.screenshots

Not part of `make test` (a minute or two of drawing). Writes docs/screenshots/fit/.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

# The harness first: it chooses Kivy's text provider and window before Kivy is imported.
from .harness import FakeClock, Services, make_kiosk, pump
from .tour import tour

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "fit"
SIZES = ((800, 480), (1024, 600))
LANGUAGES = ("en", "hi", "gu", "el")


def shot(path: Path) -> None:
    from kivy.core.window import Window

    pump(4)
    path.parent.mkdir(parents=True, exist_ok=True)
    made = Window.screenshot(name=str(path.with_name(path.stem + "-tmp.png")))
    os.replace(made, path)


def main() -> int:
    from kivy.core.window import Window

    from kiosk.ui.i18n import apply_languages

    clock = FakeClock(1000.0)
    data = Path(tempfile.mkdtemp(prefix="tableside-shots-"))
    services = Services(data_dir=data, check_pin=lambda pin: False, clock=clock)
    kiosk_gen = make_kiosk(services, clock)
    kiosk = next(kiosk_gen)
    try:
        for width, height in SIZES:
            Window.size = (width, height)
            pump(6)
            apply_languages("en", "")
            for state in tour(kiosk):
                if "overlay" not in state:  # overlays forced open: the named states show them
                    shot(OUT / f"{width}x{height}" / f"{state.replace('/', '_')}.png")
            for language in LANGUAGES:
                apply_languages(language, "")
                kiosk.app.show("carrom")
                shot(OUT / f"{width}x{height}" / f"console_{language}.png")
        apply_languages("en", "")
    finally:
        Window.size = (1024, 600)
        kiosk_gen.close()
    print(f"screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
