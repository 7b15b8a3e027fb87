"""The parts beside a table as the engine sees them: typed by what it calls on each.

The drivers (drivers/) and the camera feed (kiosk/engine/camera.py) fit these structurally;
tests may hand in their own. Nothing here starts a part: kiosk/engine/hardware.py does.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from drivers.display_protocol import DisplayFrame
from drivers.serial_link import DeviceStatus
from kiosk.clocks.patterns import Pattern


@runtime_checkable
class Beams(Protocol):
    """The pocket beams (drivers.pockets.PocketBeams, drivers.bridge.SensorBridge)."""

    def close(self) -> None: ...


@runtime_checkable
class PolledBeams(Beams, Protocol):
    """Beams on GPIO pins (real or simulated): the loop looks for a stuck beam."""

    def poll(self, now: float | None = None) -> object: ...

    def next_deadline(self) -> float | None: ...


@runtime_checkable
class LinkedPart(Protocol):
    """A part on a serial link (the sensor bridge, the player display): its link's state."""

    @property
    def status(self) -> DeviceStatus: ...


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


class Camera(Protocol):
    """The camera feed (kiosk/engine/camera.py `CameraFeed`): its latest frame, its source."""

    @property
    def latest(self) -> object:
        """The latest frame (an OpenCV BGR array), or None."""

    @property
    def source(self) -> object:
        """Where the frames come from (a device, a file, the synthetic board)."""

    def close(self) -> None: ...
