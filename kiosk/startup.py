"""Starting the kiosk: everything `tableside run` (kiosk/commands/run.py) needs before it opens
the window, and nothing of Kivy.

`start_kiosk(config, data, simulate=)`:
1. finds the settings: `config` when given, else `<data>/settings.toml` when the settings
   screen has saved one there, else the shipped defaults (kiosk/defaults/default.toml); a bad
   file stops the start (`StartRefused`) with every problem named (file, line, key), before
   anything is opened;
2. the data folder: `data`, else a temporary one when simulating, else `[journal] dir`;
3. the parts from the settings (kiosk/parts/hardware.py: beams, buzzer, player display,
   camera; simulated ones with `simulate`), each optional: a part that did not start is a
   fault on the table, not a refusal;
4. the `Tables` (the journal, the table in play, what a table is made with: the settings,
   the outputs every table speaks to, the parts' faults) and the `Services` the app's screens
   use beside them, built once (the camera's frame for calibration, with simulated beams a
   coin of the striker's colour through a pocket, the start screen's Retry, the console's
   lock);
5. the `Runner` that steps the parts' pollers (the beams' stuck check, the sensor bridge's
   link) and the table in play, and pings the systemd watchdog.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.access.settings_authority import SettingsAuthority, simulated_pins
from kiosk.atomic import private_dir
from kiosk.config import DEFAULT_PATH, ConfigError, Settings, check_pin, load_settings
from kiosk.config import save_settings as write_settings
from kiosk.engine.notify import Notifier
from kiosk.engine.outputs import Output
from kiosk.errors import TablesideError
from kiosk.kinds import frame_of, tile_of
from kiosk.parts.hardware import Parts, build_parts, simulated_camera
from kiosk.runner import Runner
from kiosk.tables.registry import Fitted
from kiosk.wiring import Frame, Services, Tables

if TYPE_CHECKING:
    from kiosk.hall.publisher import HallPublisher

#: Where the settings screen saves the settings in the data folder (read at the next start).
SAVED_NAME = "settings.toml"
#: Where the wrong PINs in a row and the back-off are kept across restarts (roles.py).
PIN_STATE_NAME = "pin-backoff.json"


class StartRefused(TablesideError, RuntimeError):
    """The kiosk cannot start; the message says why (every problem of a bad settings file
    with its file, line and key, or the data folder that cannot be made)."""


@dataclass
class Kiosk:
    """A started kiosk: what the app needs (`services`, `runner`) and what to close after."""

    services: Services
    in_place: PartsInPlace
    runner: Runner
    data_dir: Path
    #: Where the settings screen writes the settings.
    settings_path: Path
    simulated: bool

    @property
    def parts(self) -> Parts:
        """The parts in place (started again by the start screen's Retry)."""
        return self.in_place.parts

    @property
    def hall(self) -> HallPublisher | None:
        """The hall publisher (docs/hall.md), None without a broker in [hall]."""
        return self.in_place.hall

    @property
    def notifier(self) -> Notifier:
        return self.runner.notifier

    def close(self) -> None:
        self.notifier.stopping()
        self.parts.close()
        if self.hall is not None:  # hall
            self.hall.stop()  # hall
        self.services.close()


def _settings(path: str | Path) -> Settings:
    try:
        return load_settings(path)
    except ConfigError as exc:
        lines = [f"cannot start: {len(exc.problems)} problem(s) in the settings"]
        lines += [f"  {problem}" for problem in exc.problems]
        raise StartRefused("\n".join(lines)) from None


def find_settings(
    config: str | Path | None, data: str | Path | None, *, simulate: bool
) -> tuple[Settings, Path, Path]:
    """The settings, the data folder and where the settings screen writes (see the module
    docstring, steps 1 and 2). Raises StartRefused for a bad settings file."""
    settings = _settings(config or DEFAULT_PATH)
    if data:
        data_dir = Path(data)
    elif simulate:
        data_dir = Path(tempfile.mkdtemp(prefix="tableside-"))
    else:
        data_dir = Path(settings.journal.dir)
    if config:
        return settings, data_dir, Path(config)
    saved = data_dir / SAVED_NAME
    if saved.is_file():
        settings = _settings(saved)
    return settings, data_dir, saved


def start_kiosk(
    config: str | Path | None = None,
    data: str | Path | None = None,
    *,
    simulate: bool = False,
    clock: Callable[[], float] = time.monotonic,
    notifier: Notifier | None = None,
) -> Kiosk:
    """Start everything but the window (the module docstring says how). Raises StartRefused."""
    settings, data_dir, settings_path = find_settings(config, data, simulate=simulate)
    settings = simulated_pins(settings) if simulate else settings  # roles: 1234 and 4321
    settings = simulated_camera(settings) if simulate else settings  # the synthetic board's
    try:
        private_dir(data_dir)  # 0700 when made here (the installer makes it 0750)
    except OSError as exc:
        raise StartRefused(f"cannot start: the data folder {data_dir}: {exc}") from None

    tables = Tables(data_dir, Fitted(clock=clock, settings=settings))

    def start_parts() -> Parts:
        """Every part the settings name (at start, and again at the start screen's Retry);
        they post their inputs to the table in play."""
        return build_parts(
            settings, tables.post, simulate=simulate, clock=clock, journal=data_dir / "journal.db"
        )

    # hall: with a broker in [hall] the publisher is one more output (docs/hall.md).
    from kiosk.hall.wiring import start_hall  # hall

    # The director's decisions from the hall go to the table in play (protests, 144-151).
    hall = start_hall(settings, data_dir, tile_of, tables.post)  # hall
    in_place = PartsInPlace(start_parts(), hall)
    tables.refit(in_place.fitted(tables.fitted))
    runner = Runner(
        clock=clock,
        notifier=notifier or Notifier(),
        pollers=in_place.parts.pollers(tables.post),
        deadlines=in_place.parts.deadlines(),
        in_play=lambda: tables.in_play,
    )

    def retry() -> list[tuple[str, str]]:
        """The start screen's Retry: every part closed and started again; the tables take a
        new Fitted, the runner the new parts' pollers (no table is open yet at that screen)."""
        in_place.parts.close()
        in_place.parts = start_parts()
        tables.refit(in_place.fitted(tables.fitted))
        runner.refit(in_place.parts.pollers(tables.post), in_place.parts.deadlines())
        return list(in_place.parts.problems)

    def press(pocket: int) -> None:
        """Simulation: a coin of the striker's colour through the pocket, seen by the beam
        and, when the synthetic camera runs, gone from its board too."""
        in_place.parts.press(pocket, tables.turn_colour())

    services = Services(
        data_dir,
        lambda pin: check_pin(pin, tables.settings.umpire.pin_hash),
        clock,
        tables=tables,
        save_settings=lambda s: write_settings(s, settings_path),
        grab_frame=lambda: _rgb(getattr(in_place.parts.camera, "latest", None)),
        keep_empty=lambda rgb: in_place.parts.keep_empty(rgb),
        press_pocket=press if in_place.parts.simulated is not None else None,
        retry_parts=retry,
        authority=SettingsAuthority(
            lambda: tables.settings,
            lambda _note: None,
            state=data_dir / PIN_STATE_NAME,
            clock=clock,
        ),
        ask_pins=True,  # roles: no PIN yet, the first start asks for them
    )
    return Kiosk(services, in_place, runner, data_dir, settings_path, simulate)


class PartsInPlace:
    """The parts started (at start, or again at the start screen's Retry: replaced whole)
    and the hall's publisher, which outlives them."""

    def __init__(self, parts: Parts, hall: HallPublisher | None) -> None:
        self.parts = parts
        self.hall = hall

    def outputs(self) -> tuple[Output, ...]:
        """What every table speaks to: the parts' outputs (buzzer, player display), the hall."""
        frames: list[Output] = list(self.parts.outputs(frame_of))
        return (*frames, *([self.hall] if self.hall is not None else []))  # hall

    def fitted(self, before: Fitted) -> Fitted:
        """`before` with these parts: their outputs, pockets, camera and problems."""
        return replace(
            before,
            outputs=self.outputs(),
            beams=self.parts.pockets,
            camera=self.parts.camera is not None,
            faults=tuple(self.parts.problems),
        )


def _rgb(frame: object) -> Frame:
    """A captured frame (BGR, as OpenCV gives it) as the RGB the screen draws, or None."""
    import numpy as np  # only with a camera

    if not isinstance(frame, np.ndarray):
        return None
    rgb: Frame = np.ascontiguousarray(frame[..., ::-1]) if frame.ndim == 3 else frame
    return rgb
