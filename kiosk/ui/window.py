"""Kivy's start-up settings for the kiosk, set before Kivy's window module is imported.

Used by `tableside run` and the benchmark, so both measure the same app.

On the Pi the window is fullscreen at the screen's own size: SDL2 on KMS/DRM with
fullscreen "auto" takes the display's current mode (the official 7" touchscreen 800x480,
1024x600 panels, HDMI screens up to 1920x1080); no size is written anywhere. On a laptop
`--size WxH` (or `--simulate`, at `LAPTOP_SIZE`) opens a window instead. The layouts scale
with the window's height (the app's `unit`), so any of these sizes is filled.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
from pathlib import Path

#: The window `tableside run --simulate` opens on a laptop when no --size is given.
LAPTOP_SIZE = (1024, 600)


def parse_size(text: str) -> tuple[int, int]:
    """`"800x480"` -> (800, 480); ValueError naming the expected form otherwise."""
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", text)
    if not match:
        raise ValueError(f"--size must be WIDTHxHEIGHT in pixels, e.g. 800x480, not {text!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise ValueError(f"--size {text}: from 320x240 to 7680x4320")
    return width, height


class _DisplayMode(ctypes.Structure):
    _fields_ = (
        ("format", ctypes.c_uint32),
        ("w", ctypes.c_int),
        ("h", ctypes.c_int),
        ("refresh_rate", ctypes.c_int),
        ("driverdata", ctypes.c_void_p),
    )


def _sdl_library() -> str | None:
    """The SDL2 that Kivy's window uses: the copy in its wheel (Kivy.libs), else the system's."""
    import kivy

    libs = Path(kivy.__file__).resolve().parent.parent / "Kivy.libs"
    found = sorted(libs.glob("libSDL2-2*.so*"))
    return str(found[0]) if found else ctypes.util.find_library("SDL2")


def x11_screen_size() -> tuple[int, int] | None:
    """The X screen's size from SDL (SDL_GetDesktopDisplayMode), or None when unknown."""
    path = _sdl_library()
    if path is None:
        return None
    try:
        sdl = ctypes.CDLL(path)
        video = 0x20  # SDL_INIT_VIDEO
        if sdl.SDL_InitSubSystem(video) != 0:
            return None
        try:
            mode = _DisplayMode()
            if sdl.SDL_GetDesktopDisplayMode(0, ctypes.byref(mode)) != 0:
                return None
            return (mode.w, mode.h) if mode.w > 0 and mode.h > 0 else None
        finally:
            sdl.SDL_QuitSubSystem(video)
    except (OSError, AttributeError):
        return None


def configure_kivy(*, fullscreen: bool, size: tuple[int, int] | None = None) -> None:
    """The window and the clock. `fullscreen`: the screen's own size (`size` is then ignored);
    else a window of `size` (default `LAPTOP_SIZE`). The "interrupt" clock lets a sensor
    thread's Clock.schedule_once wake the loop at once instead of at the next frame (a beam hit
    is drawn a few milliseconds after it arrives, not up to a frame later)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLOCK", "interrupt")
    from kiosk.ui import text

    text.before_kivy()  # Kivy's PIL text provider: Pillow's raqm shapes Devanagari, Gujarati
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    if fullscreen:
        # "auto": SDL's desktop fullscreen, the display's current mode, not a mode change.
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "borderless", "1")
        if os.environ.get("DISPLAY") and os.environ.get("SDL_VIDEODRIVER", "x11") == "x11":
            # Under X the window manager applies fullscreen; with none (a bare X server,
            # Xvfb) the window keeps its first size. Start it at the screen's size, at 0,0.
            screen = x11_screen_size()
            if screen is not None:
                Config.set("graphics", "width", str(screen[0]))
                Config.set("graphics", "height", str(screen[1]))
                Config.set("graphics", "position", "custom")
                Config.set("graphics", "left", "0")
                Config.set("graphics", "top", "0")
        Config.set("graphics", "show_cursor", "0")
        # No keyboard at the table: the names are typed on the kiosk's own on-screen keyboard
        # (kiosk/ui/keyboard.py, four scripts), not on Kivy's Latin one.
        Config.set("kivy", "keyboard_mode", "system")
    else:
        width, height = size or LAPTOP_SIZE
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
        Config.set("kivy", "keyboard_mode", "system")
    text.install()  # Noto fonts and the fallback chain on every label
