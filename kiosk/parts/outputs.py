"""The outputs that are parts: the buzzer and the player display, each an `Output` of the
table in play (kiosk/engine/outputs.py), built by kiosk/parts/hardware.py. They live with the
parts because they know the drivers' types; the engine knows no driver."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from drivers.display_protocol import DisplayFrame
from drivers.serial_link import DeviceStatus
from kiosk.clocks.patterns import DOUBLE_BEEP, Pattern
from kiosk.engine.outputs import OutputBase
from kiosk.parts.faults import link_said


class Buzzer(Protocol):
    """The buzzer (drivers.buzzer.BuzzerPlayer): plays a timer's pattern."""

    last_error: str | None
    volume: float

    def play(self, pattern: Pattern, *, interrupt: bool = False) -> None: ...

    def close(self) -> None: ...


class Display(Protocol):
    """The player display (drivers.display.PlayerDisplay)."""

    @property
    def status(self) -> DeviceStatus: ...

    def show(self, frame: DisplayFrame) -> None: ...

    def close(self) -> None: ...


class BuzzerOutput(OutputBase):
    """The buzzer (drivers/buzzer.py `BuzzerPlayer`): plays the timers' patterns."""

    name = "buzzer"

    def __init__(self, player: Buzzer) -> None:
        self.player = player

    def sound(self, pattern: Pattern) -> None:
        self.player.play(pattern)

    def test(self, volume: float) -> None:
        """The settings' buzzer test: a double beep at `volume` (0-1), kept for this run."""
        self.player.volume = volume
        self.player.play(DOUBLE_BEEP, interrupt=True)

    def health(self) -> str | None:
        error = self.player.last_error
        return None if error is None else f"buzzer: {error}"


class DisplayOutput(OutputBase):
    """The player display (drivers/display.py `PlayerDisplay`): `frame_of(view)` makes the
    frame; it is sent only when it differs from the last one. Its health is the link's status:
    a display that stops acknowledging is a fault until it answers again."""

    name = "display"

    def __init__(self, display: Display, frame_of: Callable[[object], DisplayFrame | None]) -> None:
        self.display = display
        self._frame_of = frame_of
        self._last: DisplayFrame | None = None

    def state_changed(self, view: object) -> None:
        frame = self._frame_of(view)
        if frame is not None and frame != self._last:
            self._last = frame
            self.display.show(frame)

    def health(self) -> str | None:
        status = self.display.status
        if status.state in ("ok", "connecting"):
            return None
        return link_said(status)  # the English, with the facts the screen words
