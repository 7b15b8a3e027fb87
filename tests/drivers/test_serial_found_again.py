"""The display and the sensor bridge are found again when they come back on another path:
by USB vendor, product and serial number (pyserial's list_ports), over real ptys."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from serial.tools.list_ports_common import ListPortInfo

from drivers.bridge import SensorBridge
from drivers.bridge_sim import SimulatedBridge
from drivers.display import PlayerDisplay
from drivers.display_protocol import DisplayFrame
from drivers.display_sim import SimulatedDisplay
from drivers.hits import BeamReport
from drivers.serial_link import UsbIdentity, parse_usb

FRAME = DisplayFrame(left=12, right=9, clock="0:15", turn="L", board=3, message="QUEEN DUE")


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def usb_port(path: str, vid: int = 0x2341, pid: int = 0x0043, serial: str = "D1") -> ListPortInfo:
    info = ListPortInfo(path, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial
    return info


def test_serial_usb_identity_is_read_from_the_setting() -> None:
    assert parse_usb("usb:2341:0043:D1") == UsbIdentity(0x2341, 0x0043, "D1")
    assert parse_usb("usb:2341:0043") == UsbIdentity(0x2341, 0x0043, None)
    assert parse_usb("/dev/ttyUSB0") is None and parse_usb("loop://") is None
    assert str(UsbIdentity(0x2341, 0x43, "D1")) == "usb:2341:0043:D1"


def test_display_that_comes_back_on_another_path_is_found_again() -> None:
    first, second = SimulatedDisplay(), SimulatedDisplay()
    ports = [usb_port(first.port_path), usb_port(second.port_path, vid=0x1A86, serial="X")]
    display = PlayerDisplay(first.port_path, backoff_s=(0.01, 0.05), ports=lambda: ports)
    try:
        display.show(FRAME)
        assert first.wait_for(FRAME, 5.0)
        assert display.identity == UsbIdentity(0x2341, 0x0043, "D1")  # learnt at the path
        # Unplugged, and back as another tty; another USB device sits there now too.
        ports[:] = [usb_port(second.port_path), usb_port(first.port_path, vid=0x1A86)]
        first.close()
        assert second.wait_for(FRAME, 10.0)
        assert display.device == second.port_path
        assert wait_until(lambda: display.status.state == "ok")
    finally:
        display.close()
        second.close()


def test_bridge_named_by_usb_identity_is_found_wherever_it_is(tmp_path: Path) -> None:
    reports: list[BeamReport] = []
    with SimulatedBridge() as sim:
        ports = [usb_port(sim.port_path, 0x2E8A, 0x000A, "B7")]
        bridge = SensorBridge(
            "usb:2e8a:000a:B7", sink=reports.append, backoff_s=(0.01, 0.05), ports=lambda: ports
        )
        try:
            assert wait_until(lambda: bridge.status.state == "ok", 10.0), bridge.status
            assert bridge.device == sim.port_path
            assert bridge.stable_path == "usb:2e8a:000a:B7"
            by_id = tmp_path / "by-id"
            by_id.mkdir()
            link = by_id / "usb-Tableside_Bridge_B7-if00"
            link.symlink_to(sim.port_path)
            bridge._by_id = str(by_id)
            assert bridge.stable_path == str(link)  # what hw-test shows
        finally:
            bridge.close()


def test_bridge_not_plugged_in_is_a_status_naming_it() -> None:
    bridge = SensorBridge(
        "usb:2e8a:000a:B7", sink=lambda r: None, backoff_s=(0.01, 0.05), ports=lambda: []
    )
    try:
        assert wait_until(lambda: bridge.status.state == "unplugged")
        assert "usb:2e8a:000a:B7 is not plugged in" in bridge.status.detail
    finally:
        bridge.close()
