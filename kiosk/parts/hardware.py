"""The parts beside the table, built from the settings: real on the Pi, simulated on a laptop.

Each part is optional and starts on its own: a part that fails to start (a pin in use, no
serial device, no camera) is recorded in `Parts.problems` and shown as a fault; the table
goes on with what remains. Nothing here decides anything about the game.

- pocket beams: `[pockets] source` "gpio" (drivers.pockets.PocketBeams on the pin factory of
  `pin_factory`, lgpio on the Pi), "bridge" (drivers.bridge.SensorBridge on `[bridge] port`),
  "simulated" (drivers.simulated.SimulatedBeams: keys 1-4 or a script, through MockFactory
  pins and the same filter);
- buzzer: drivers.buzzer.BuzzerPlayer on `[buzzer] pin` (a mock pin when simulated);
- player display: drivers.display.PlayerDisplay on `[display] port` ("" : none; when
  simulated, a drivers.display_sim.SimulatedDisplay on a pseudo-terminal);
- camera: kiosk/parts/camera.py's feed on `[camera] source` ("none": no camera); when
  simulated, the synthetic board, calibrated as it is drawn (`simulated_camera`).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.hits import POCKETS
from kiosk.config import Settings, with_values
from kiosk.engine.faults import PartFault
from kiosk.engine.outputs import Output
from kiosk.parts.camera import StrokeConfirmations
from kiosk.parts.faults import link_said, start_said
from kiosk.parts.kinds import Beams, Camera, LinkedPart, PolledBeams
from kiosk.parts.outputs import Buzzer, BuzzerOutput, Display, DisplayOutput

if TYPE_CHECKING:
    from drivers.display_protocol import DisplayFrame
    from drivers.display_sim import SimulatedDisplay
    from drivers.simulated import SimulatedBeams

Sink = Callable[[object], None]
Problems = list[tuple[str, str]]


@dataclass(frozen=True)
class Parts:
    """What started, built once by `build_parts`. `beams` has `poll(now)` and
    `next_deadline()` when it is a GPIO or simulated set (the runner calls them for the stuck
    check); `problems` lists the parts that did not start, as (part, message)."""

    beams: Beams | None = None
    simulated: SimulatedBeams | None = None
    buzzer: Buzzer | None = None
    display: Display | None = None
    display_sim: SimulatedDisplay | None = None
    camera: Camera | None = None
    problems: tuple[tuple[str, str], ...] = ()
    clock: Callable[[], float] = time.monotonic
    #: The GPIO pin factory the beams and the buzzer share (lgpio on the Pi: the chip's handle
    #: and its thread), closed after them.
    pin_factory: Any = None

    @property
    def pockets(self) -> tuple[int, ...]:
        """The pockets whose beams are fitted and started (none if the beams failed)."""
        return POCKETS if self.beams is not None else ()

    def press(self, pocket: int, colour: str | None = None, now: float | None = None) -> None:
        """Simulation (`make run`, keys 1-4): a coin through `pocket`'s beam and, when the
        synthetic camera runs and `colour` is given, the same coin leaving its board, so the
        beams and the camera agree as they would at a real table."""
        if self.simulated is None:
            raise RuntimeError("the beams are not simulated")
        board = getattr(getattr(self.camera, "source", None), "board", None)
        if board is not None and colour is not None:
            with contextlib.suppress(ValueError):  # no such coin left on the board
                t = self.clock() if now is None else now
                board.strike(t, [(colour, pocket)])
        self.simulated.press(pocket)

    def keep_empty(self, rgb: object) -> None:
        """The calibration screen's "Keep empty board": the picture (RGB) becomes what the
        camera's detector judges against (kiosk/parts/camera.py); no camera, nothing kept."""
        if self.camera is not None:
            self.camera.keep_empty(rgb)

    def outputs(
        self, frame_of: Callable[[object], DisplayFrame | None] | None = None
    ) -> list[Output]:
        out: list[Output] = []
        if self.buzzer is not None:
            out.append(BuzzerOutput(self.buzzer))
        if self.display is not None and frame_of is not None:
            out.append(DisplayOutput(self.display, frame_of))
        if self.camera is not None:  # it learns the set from each confirmed stroke
            out.append(StrokeConfirmations(self.camera.confirm))
        return out

    def pollers(self, sink: Sink | None = None) -> list[Callable[[float], object]]:
        """What the loop calls with `now`: the beams' stuck check, and with `sink` the watch
        on the serial sensor bridge's link (a bridge that is unplugged or silent is a fault
        of the beams until it reports again)."""
        out: list[Callable[[float], object]] = []
        if isinstance(self.beams, PolledBeams):
            out.append(self.beams.poll)
        if sink is not None and isinstance(self.beams, LinkedPart):
            out.append(_LinkWatch("beams", self.beams, sink))
        return out

    def deadlines(self) -> list[Callable[[], float | None]]:
        return [self.beams.next_deadline] if isinstance(self.beams, PolledBeams) else []

    def report(self, sink: Sink, now: float) -> None:
        """Post each part that did not start as a fault input."""
        for part, message in self.problems:
            sink(PartFault(now, part, message))

    def close(self) -> None:
        """Every part closed, each after the threads that use it (the camera's thread, then
        its source; the beams and the buzzer, then the pin factory they share)."""
        parts = (self.camera, self.simulated or self.beams, self.buzzer, self.display)
        for part in (*parts, self.display_sim, self.pin_factory):
            close = getattr(part, "close", None)
            if callable(close):
                with contextlib.suppress(Exception):  # one part must not stop the others closing
                    close()


class _LinkWatch:
    """Posts a PartFault when a serial part's link state changes to or from trouble."""

    def __init__(self, part: str, device: LinkedPart, sink: Sink) -> None:
        self.part = part
        self.device = device
        self.sink = sink
        self._said: str | None = None

    def __call__(self, now: float) -> None:
        status = self.device.status
        trouble = None if status.state in ("ok", "connecting") else link_said(status)
        if trouble != self._said:
            self._said = trouble
            self.sink(PartFault(now, self.part, trouble))


def build_parts(
    settings: Settings,
    sink: Sink,
    *,
    simulate: bool = False,
    clock: Callable[[], float] = time.monotonic,
    camera: bool = True,
    beams: bool = True,
    journal: Path | None = None,
) -> Parts:
    """Start every part the settings name; `simulate` swaps the beams and the buzzer's pin
    for MockFactory pins and the camera for the synthetic board (unless the camera source is
    "none"). `camera=False` and `beams=False` leave those out (the backgammon and Bhukhar
    tables use neither). With the `journal`'s path the camera keeps protest stills beside it."""
    problems: Problems = []
    factory: Any = None
    if not simulate and settings.pockets.pin_factory:
        # One factory for the beams and the buzzer: one handle on the GPIO chip.
        try:
            from drivers.pinfactory import make_pin_factory

            factory = make_pin_factory(settings.pockets.pin_factory)
        except Exception as exc:
            problems.append(("gpio", start_said(f"GPIO pin factory did not start: {exc}", exc)))
    found, simulated = (None, None)
    if beams:
        found, simulated = _beams(problems, settings, sink, simulate, clock, factory)
    buzzer = _buzzer(problems, settings, simulate, factory)
    display, display_sim = _display(problems, settings, clock, simulate)
    feed = None
    if camera and settings.table.game == "carrom":
        feed = _camera(problems, settings, sink, simulate, clock, journal)
    return Parts(
        found, simulated, buzzer, display, display_sim, feed, tuple(problems), clock, factory
    )


def _beams(
    problems: Problems,
    settings: Settings,
    sink: Sink,
    simulate: bool,
    clock: Callable[[], float],
    factory: Any,
) -> tuple[Beams | None, SimulatedBeams | None]:
    p = settings.pockets
    glitch_s, stuck_s = p.glitch_ms / 1000.0, p.stuck_s
    try:
        if simulate or p.source == "simulated":
            from drivers.simulated import SimulatedBeams

            simulated = SimulatedBeams(
                sink=sink, clock=clock, pins=p.pins, glitch_s=glitch_s, stuck_s=stuck_s
            )
            return simulated.beams, simulated
        if p.source == "bridge":
            from drivers.bridge import SensorBridge

            bridge = SensorBridge(
                settings.bridge.port,
                sink=sink,
                baud=settings.bridge.baud,
                clock=clock,
                glitch_s=glitch_s,
                stuck_s=stuck_s,
            )
            return bridge, None
        from drivers.pockets import PocketBeams

        gpio = PocketBeams(
            p.pins,
            sink=sink,
            pin_factory=factory,
            clock=clock,
            glitch_s=glitch_s,
            stuck_s=stuck_s,
        )
        return gpio, None
    except Exception as exc:
        problems.append(("beams", start_said(f"pocket beams did not start: {exc}", exc)))
        return None, None


def _buzzer(problems: Problems, settings: Settings, simulate: bool, factory: Any) -> Buzzer | None:
    b = settings.buzzer
    try:
        from drivers.buzzer import BuzzerPlayer

        if simulate:
            from gpiozero.pins.mock import MockFactory, MockPWMPin

            factory = MockFactory(pin_class=MockPWMPin) if b.tonal else MockFactory()
        return BuzzerPlayer(
            b.pin, tonal=b.tonal, silent=b.silent, pin_factory=factory, volume=b.volume / 100
        )
    except Exception as exc:
        problems.append(("buzzer", start_said(f"buzzer did not start: {exc}", exc)))
        return None


def _display(
    problems: Problems, settings: Settings, clock: Callable[[], float], simulate: bool
) -> tuple[Display | None, SimulatedDisplay | None]:
    """The player display on `[display] port`; simulated without a port, a simulated display
    (drivers/display_sim.py) on a pseudo-terminal, so `make run` exercises the real protocol."""
    d = settings.display
    if not d.port and not simulate:
        return None, None
    sim = None
    try:
        from drivers.display import PlayerDisplay

        port = d.port
        if not port:
            from drivers.display_sim import SimulatedDisplay

            sim = SimulatedDisplay()
            port = sim.port_path
        return PlayerDisplay(port, baud=d.baud, clock=clock), sim
    except Exception as exc:
        problems.append(("display", start_said(f"player display did not start: {exc}", exc)))
        return None, sim


def simulated_camera(settings: Settings) -> Settings:
    """`settings` for the simulation's camera, the synthetic board: its calibration is where
    the renderer draws the pockets, so its diffs count at once, as a calibrated camera's do
    (a calibration in the settings is some real camera's, not this board's)."""
    if settings.camera.source == "none":
        return settings
    try:
        live: Any = importlib.import_module("vision.sim.live")  # OpenCV: only with a camera
    except ImportError:
        return settings  # the camera will not start either, and says why
    points = [[round(x, 2), round(y, 2)] for x, y in live.default_calibration()]
    return with_values(settings, camera={"calibration": points})


def _camera(
    problems: Problems,
    settings: Settings,
    sink: Sink,
    simulate: bool,
    clock: Callable[[], float],
    journal: Path | None = None,
) -> Camera | None:
    source = settings.camera.source
    if source == "none":
        return None
    source = "synthetic" if simulate else source
    try:
        from kiosk.parts.camera import start_camera

        return start_camera(source, settings, sink, clock=clock, journal=journal)
    except Exception as exc:
        problems.append(
            ("camera", start_said(f"camera {source!r} did not start: {exc}", exc, source))
        )
        return None
