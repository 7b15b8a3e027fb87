"""The parts beside a table as the kiosk sees them: typed by what it calls on each.

The drivers (drivers/) and the camera feed (kiosk/parts/camera.py) fit these structurally;
tests may hand in their own. Nothing here starts a part: kiosk/parts/hardware.py does. The
buzzer and the player display are typed beside their outputs (kiosk/engine/outputs.py).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from drivers.serial_link import DeviceStatus


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


class Camera(Protocol):
    """The camera feed (kiosk/parts/camera.py `CameraFeed`): its latest frame, its source."""

    @property
    def latest(self) -> object:
        """The latest frame (an OpenCV BGR array), or None."""

    @property
    def source(self) -> object:
        """Where the frames come from (a device, a file, the synthetic board)."""

    def keep_empty(self, rgb: Any) -> None:
        """The calibration's "Keep empty board": what the detector judges against."""

    def confirm(self) -> None:
        """The umpire confirmed the stroke last diffed: the set learns from the view after."""

    def close(self) -> None: ...
