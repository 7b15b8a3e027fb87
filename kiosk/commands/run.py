"""`tableside run`: start the kiosk's window on the settings, the journal and the parts.

`--simulate` (what `make run` uses) runs on any computer: simulated beams (keys 1-4 put
a coin through pockets 1-4, through MockFactory pins and the drivers' filter), the
synthetic camera, a mock buzzer pin and a temporary journal folder. On the Pi the same
command opens fullscreen, at the screen's own size, on the configured parts
(systemd/tableside.service). `--size WxH` opens a window of that size instead (a laptop);
`--fullscreen` opens fullscreen with `--simulate` too (the docs' screenshots).

Settings: `--config FILE`, else `<data>/settings.toml` when the settings screen has saved
one there, else the shipped defaults (kiosk/defaults/default.toml). A bad file stops the
start with every problem named (file, line, key), before any window opens (exit 2). The
settings screen writes to `--config` when given, else to `<data>/settings.toml`. Everything
but the window is started by kiosk/startup.py; READY=1 goes to systemd once the home
screen is drawn. It stops when its window closes (SDL turns systemd's SIGTERM into that):
every part and the journal are closed, their threads ended, then the process exits 0
(kiosk/ending.py).
"""

from __future__ import annotations

import argparse
import sys

from kiosk.startup import StartRefused, start_kiosk
from kiosk.ui.window import parse_size


def main(args: argparse.Namespace) -> int:
    simulate = bool(args.simulate)
    size_text = getattr(args, "size", None)
    fullscreen = bool(getattr(args, "fullscreen", False)) or (not simulate and not size_text)
    try:
        size = parse_size(size_text) if size_text else None
    except ValueError as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    try:
        kiosk = start_kiosk(args.config, args.data, simulate=simulate)
    except StartRefused as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    try:
        from kiosk.ui.window import configure_kivy

        configure_kivy(fullscreen=fullscreen, size=size)
        from kivy.core.window import Window

        from kiosk.ui.app import TablesideApp

        # The size SDL gave the window: on KMS/DRM the screen's own mode (in the journal).
        width, height = Window.size
        shown = "fullscreen" if fullscreen else "a window"
        print(f"tableside: {shown}, {width}x{height}", file=sys.stderr)
        app = TablesideApp(kiosk.services, kiosk.runner)
        where = "simulated parts, journal in " if simulate else "journal in "
        print(
            f"tableside: {where}{kiosk.data_dir}; settings saved to {kiosk.settings_path}",
            file=sys.stderr,
        )
        if simulate:
            print("tableside: keys 1-4 put a coin through pockets 1-4", file=sys.stderr)
        app.run()
    finally:
        kiosk.close()
    from kiosk.ending import end_process

    return end_process(0)  # every thread ended first: never an abort at exit
