"""`tableside run`: start the kiosk's window on the settings, the journal and the parts.

`--simulate` (what `make run` uses) runs on any computer: simulated beams (keys 1-4 put
a coin through pockets 1-4, through MockFactory pins and the drivers' filter), the
synthetic camera, a mock buzzer pin and a temporary journal folder. On the Pi the same
command opens fullscreen on the configured parts (systemd/tableside.service).

Settings: `--config FILE`, else `<data>/settings.toml` when the settings screen has saved
one there, else config/default.toml. A bad file stops the start with every problem named
(file, line, key), before any window opens. The settings screen writes to `--config` when
given, else to `<data>/settings.toml`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.config import DEFAULT_PATH, Settings, check_pin, save_settings
from kiosk.engine.startup import settings_or_explain

SAVED_NAME = "settings.toml"


def _settings_and_data(args: argparse.Namespace) -> tuple[Settings, Path, Path] | None:
    """The settings, the data folder and where the settings screen writes; None (after
    printing every problem) when a settings file is bad."""
    settings = settings_or_explain(args.config or DEFAULT_PATH)
    if settings is None:
        return None
    if args.data:
        data_dir = Path(args.data)
    elif args.simulate:
        data_dir = Path(tempfile.mkdtemp(prefix="tableside-"))
    else:
        data_dir = Path(settings.journal.dir)
    if args.config:
        return settings, data_dir, Path(args.config)
    saved = data_dir / SAVED_NAME
    if saved.is_file():
        settings = settings_or_explain(saved)
        if settings is None:
            return None
    return settings, data_dir, saved


def _frame_of(view: Any) -> Any:
    """The player display's frame for a table's view (carrom or backgammon)."""
    from kiosk.engine.clock_table import ClockView
    from kiosk.engine.display_frames import carrom_frame, clock_frame
    from kiosk.engine.session import CarromView

    if isinstance(view, CarromView):
        return carrom_frame(view)
    if isinstance(view, ClockView):
        return clock_frame(view)
    return None


def _rgb(frame: Any) -> Any:
    """A captured frame (BGR, as OpenCV gives it) as the RGB the screen draws, or None."""
    if frame is None:
        return None
    import numpy as np

    return np.ascontiguousarray(frame[..., ::-1]) if frame.ndim == 3 else frame


def _every(seconds: float | None, action: Callable[[], object]) -> Callable[[float], None]:
    next_at = [0.0]

    def tick(now: float) -> None:
        if seconds is not None and now >= next_at[0]:
            next_at[0] = now + seconds
            action()

    return tick


def _ready_when_drawn(notifier: Any) -> None:
    """READY=1 to systemd once the home screen is on the glass (the first frame drawn)."""
    from kivy.core.window import Window

    def first_flip(*_: object) -> None:
        Window.unbind(on_flip=first_flip)
        notifier.ready("home screen shown")

    Window.bind(on_flip=first_flip)


def main(args: argparse.Namespace) -> int:
    simulate = bool(args.simulate)
    found = _settings_and_data(args)
    if found is None:
        return 2
    settings, data_dir, write_to = found
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"tableside: cannot start: the data folder {data_dir}: {exc}", file=sys.stderr)
        return 2

    from kiosk.engine.hardware import build_parts
    from kiosk.engine.notify import Notifier
    from kiosk.ui.services import Services

    clock = time.monotonic
    services = Services(
        data_dir=data_dir,
        check_pin=lambda pin: check_pin(pin, services.settings.umpire.pin_hash),
        clock=clock,
        settings=settings,
        save_settings=lambda s: save_settings(s, write_to),
    )
    parts = build_parts(settings, services.post, simulate=simulate, clock=clock)
    services.beams = parts.pockets
    services.camera = parts.camera is not None
    services.outputs = list(parts.outputs(_frame_of))
    services.startup_faults = list(parts.problems)
    services.grab_frame = lambda: _rgb(getattr(parts.camera, "latest", None))
    if parts.simulated is not None:
        # Simulation: a coin of the striker's colour through the pocket, seen by the beam
        # and, when the synthetic camera runs, gone from its board too.
        services.press_pocket = lambda pocket: parts.press(pocket, services.turn_colour())
    services.tickers.extend(parts.pollers(services.post))
    notifier = Notifier()
    services.tickers.append(_every(notifier.ping_every_s, notifier.watchdog))

    from kiosk.ui.window import configure_kivy

    configure_kivy(fullscreen=not simulate)
    from kiosk.ui.app import TablesideApp

    app = TablesideApp(services)
    app.bind(on_start=lambda *_: _ready_when_drawn(notifier))
    where = "simulated parts, journal in " if simulate else "journal in "
    print(f"tableside: {where}{data_dir}; settings saved to {write_to}", file=sys.stderr)
    if simulate:
        print("tableside: keys 1-4 put a coin through pockets 1-4", file=sys.stderr)
    try:
        app.run()
    finally:
        notifier.stopping()
        parts.close()
        services.close()
    return 0
