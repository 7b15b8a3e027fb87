"""The kiosk in four languages: start to home, memory after a full match, a language switch.

Goals: the home screen within 3 s of start with the interface in Hindi; at most
200 MB resident after a full match with all four scripts' fonts loaded; a language switch
redrawn in under 1 s. Run with the venv's python (`make bench`); without a display it
re-runs itself under xvfb-run.

1. Start: `tableside run --simulate --config FILE` with `[ui] language = "hi"` as a child
   process, timed from spawn to READY=1 on a notify socket (sent on the first frame drawn).
2. Match and memory: the app in this process (the text path of `tableside run`: Kivy's PIL
   provider, Pillow's raqm, the Noto chain); a doubles carrom match whose players are named
   in Devanagari, Gujarati, Greek and Latin is played to its end through the console's own
   commands (a frame drawn after each stroke), with the home, the PIN pad (its dots), the
   player display, the settings and the console with its scoresheet each drawn once in every
   language first (every font and catalogue loaded); then VmRSS from /proc/self/status, at
   the last stroke and again a second later, the glass still. The strokes come one a frame,
   back to back (a stress no table makes: glibc keeps their freed heap until the glass is
   still), or with `--pace S` one every S seconds, as a match's strokes come.
   `--all-screens` builds the backgammon clock and the Bhukhar table too (a match on each),
   as bench/bench_ui.py does not.
3. Switch: with the carrom console in front, `apply_languages` (what a tap on a language
   chip calls) to the end of the next frame drawn (on_flip), cycling en -> hi -> gu -> el.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from appbench import SHARED_CPU_NOTE, load_average, play_stroke, rss_mb, time_to_home, under_display

NAMES = ("अमित", "ભાવેશ", "Νίκος", "Asha")
LANGUAGES = ("en", "hi", "gu", "el")


class AppBench:
    """Parts 2 and 3, in this process."""

    def __init__(self, switches: int, all_screens: bool, pace: float = 0.0) -> None:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="bench-kivy-")
        from kiosk.ui.window import configure_kivy

        configure_kivy(fullscreen=False)  # as `tableside run --simulate`
        from kiosk.ui.app import TablesideApp
        from kiosk.wiring import Services

        self.data = Path(tempfile.mkdtemp(prefix="bench-i18n-data-"))
        self.services = Services(data_dir=self.data, check_pin=lambda _pin: False)
        self.app: Any = TablesideApp(self.services)
        self.switches_wanted = switches
        #: Also the backgammon clock and the Bhukhar table, each with a match running.
        self.all_screens = all_screens
        #: Seconds between strokes (0: one a frame).
        self.pace = pace
        self.switches: list[float] = []
        self.rss_mb = 0.0
        #: The same a second after the match's last frame (the kiosk gives freed memory back
        #: once the glass is still: kiosk/ui/memory.py).
        self.rss_still_mb = 0.0
        self.strokes = 0
        self._asked: float | None = None

    def run(self) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(self._begin, 0.5)
        self.app.run()
        self.services.close()
        shutil.rmtree(self.data, ignore_errors=True)

    def _begin(self, _dt: float) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        from kiosk.ui.i18n import apply_languages

        app = self.app
        if self.all_screens:
            app.choose_game("backgammon")
            app.start_backgammon(app.screen("setup_backgammon"))
            app.choose_game("bhukhar")
            app.start_bhukhar(app.screen("setup_bhukhar"))
        app.choose_game("carrom_icf")
        setup = app.screen("setup_carrom")
        setup.set_doubles(True)
        for seat, name in enumerate(NAMES):
            setup.set_name(seat, name)
        app.start_carrom(setup)
        self.screen = app.screen("carrom")
        self.screen.ids.sheet_panel.shown = True
        # Every screen drawn once in every language: all fonts and catalogues in memory.
        screens = ["home", "pin", "players", "settings", "carrom"]
        if self.all_screens:
            screens[-1:-1] = ["backgammon", "bhukhar"]
        visits = [(lang, name) for lang in LANGUAGES for name in screens]

        def visit(_dt: float) -> None:
            if visits:
                lang, name = visits.pop(0)
                apply_languages(lang)
                app.show(name)
                Clock.schedule_once(visit, 0.05)
            else:
                self.screen.ids.sheet_panel.shown = False
                apply_languages("en")
                Window.bind(on_flip=self._flipped)
                Clock.schedule_once(self._switch, 0.3)

        Clock.schedule_once(visit, 0.1)

    def _switch(self, _dt: float) -> None:
        from kiosk.ui.i18n import apply_languages

        n = len(self.switches)
        self._asked = time.monotonic()
        apply_languages(LANGUAGES[(n + 1) % len(LANGUAGES)])

    def _flipped(self, *_: object) -> None:
        from kivy.clock import Clock

        if self._asked is None:
            return
        self.switches.append(time.monotonic() - self._asked)
        self._asked = None
        if len(self.switches) < self.switches_wanted:
            Clock.schedule_once(self._switch, 0.05)
        else:
            Clock.schedule_interval(self._stroke, self.pace)

    def _still(self, _dt: float) -> None:
        self.rss_still_mb = rss_mb()
        self.app.stop()

    def _stroke(self, _dt: float) -> bool:
        from kivy.clock import Clock

        strokes = play_stroke(self.screen, self.strokes)
        if strokes is None:
            self.rss_mb = rss_mb()
            Clock.schedule_once(self._still, 1.0)
            return False
        self.strokes = strokes
        return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--starts", type=int, default=5, help="cold starts to time")
    parser.add_argument("--switches", type=int, default=20, help="language switches to time")
    parser.add_argument(
        "--all-screens",
        action="store_true",
        help="build the backgammon and Bhukhar screens too (a match on each) before measuring",
    )
    parser.add_argument(
        "--pace", type=float, default=0.0, help="seconds between strokes (0: one a frame)"
    )
    args = parser.parse_args(argv)
    rerun = under_display(__file__, argv)
    if rerun is not None:
        return rerun
    print(f"bench_i18n {SHARED_CPU_NOTE}; at the start: {load_average()}")
    starts = time_to_home(args.starts, '[ui]\nlanguage = "hi"\n')
    print(
        f"start to home screen in Hindi (tableside run --simulate, {len(starts)} runs): "
        f"median {statistics.median(starts):.2f} s, max {max(starts):.2f} s (goal <= 3 s)"
    )
    bench = AppBench(args.switches, args.all_screens, args.pace)
    bench.run()
    if not bench.switches:
        print("language switch: none drawn")
        return 1
    ms = [1000 * x for x in bench.switches]
    print(
        f"language switch to the console redrawn ({len(ms)} switches): "
        f"median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms (goal < 1000 ms)"
    )
    pace = f"one every {args.pace:g} s" if args.pace else "one a frame"
    print(
        f"resident memory after a full match, names in four scripts, the screens drawn in four "
        f"languages{' (backgammon and Bhukhar too)' if args.all_screens else ''} "
        f"({bench.strokes} strokes, {pace}): "
        f"{bench.rss_mb:.1f} MB at the last stroke, "
        f"{bench.rss_still_mb:.1f} MB a second later (goal <= 200 MB)"
    )
    print(f"at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
