"""The sensor bridge: its lines, its clock mapping, and a simulated bridge on a pty."""

from __future__ import annotations

import queue
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.bridge import SensorBridge
from drivers.bridge_protocol import (
    Heartbeat,
    Hello,
    RawFault,
    RawHit,
    encode_bridge_message,
    encode_settings,
    parse_bridge_line,
    parse_settings_command,
)
from drivers.bridge_sim import SimulatedBridge
from drivers.clockmap import WRAP_US, ClockMap
from drivers.hits import BeamFault, BeamHit, BeamReport
from drivers.lines import LineError, seal
from tests.waiting import wait_until

# -- lines ----------------------------------------------------------------------------------


def test_bridge_lines_round_trip() -> None:
    for msg in (
        Hello(5, "a1", 1),
        Heartbeat(4294967295),
        RawHit(1000, 3, 900, 12000),
        RawFault(77, 2, "blocked_at_start", 70),
    ):
        assert parse_bridge_line(encode_bridge_message(msg)) == msg
    assert parse_settings_command(encode_settings(0.0005, 0.005, 2.0)) == (500, 5000, 2000)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("H 1 5 2 3", "pocket '5' is not 1-4"),
        ("H 1 2 x 3", "start_us is not a 32-bit count"),
        ("T 4294967296", "now_us is not a 32-bit count"),
        ("F 1 2 melted 3", "fault kind 'melted'"),
        ("Q 1", "not a bridge line"),
    ],
)
def test_bridge_bad_lines_say_what_is_wrong(body: str, problem: str) -> None:
    with pytest.raises(LineError, match=problem):
        parse_bridge_line(seal(body))


# -- the clock map --------------------------------------------------------------------------


def test_bridge_clock_offset_is_the_lowest_delay_seen() -> None:
    cm = ClockMap()
    cm.observe(1_000_000, 501.004)  # device 1.0 s arrives at 501.004 (4 ms late)
    cm.observe(2_000_000, 502.001)  # 1 ms late: the better sample
    cm.observe(3_000_000, 503.009)
    assert cm.to_kiosk(2_500_000) == pytest.approx(502.501)


def test_bridge_clock_unwraps_the_32_bit_counter() -> None:
    cm = ClockMap()
    cm.observe(WRAP_US - 100_000, 10.0)  # 0.1 s before the wrap
    cm.observe(150_000, 10.25)  # 0.15 s after it
    assert cm.to_kiosk(200_000) == pytest.approx(10.3)
    # a hit stamped just before the wrap, reported just after it
    assert cm.to_kiosk(WRAP_US - 50_000) == pytest.approx(10.05)


def test_bridge_clock_forgets_old_samples_so_drift_cannot_build_up() -> None:
    cm = ClockMap(window_s=30.0)
    cm.observe(0, 100.0)
    # a crystal 100 ppm slow: after 100 s the device counts 99.99 s
    cm.observe(99_990_000, 200.0)
    assert cm.to_kiosk(99_990_000) == pytest.approx(200.0)


def test_bridge_clock_reset_and_not_synced() -> None:
    cm = ClockMap()
    with pytest.raises(ValueError, match="not synchronised"):
        cm.to_kiosk(5)
    cm.observe(5_000_000, 50.0)
    cm.reset()
    assert not cm.synced


# -- a simulated bridge on a pty ------------------------------------------------------------


def test_bridge_hits_over_a_pty_are_mapped_onto_the_kiosk_clock() -> None:
    got: queue.Queue[BeamReport] = queue.Queue()
    # its counter starts 0.3 s before a wrap and runs 80 ppm fast
    with (
        SimulatedBridge(start_us=WRAP_US - 300_000, drift_ppm=80) as sim,
        SensorBridge(sim.port_path, sink=got.put) as bridge,
    ):
        assert wait_until(lambda: bridge.status.state == "ok")
        for pocket, length in ((2, 0.012), (3, 0.020), (1, 0.004)):
            start = sim.hit(pocket, length)
            hit = got.get(timeout=5.0)
            assert isinstance(hit, BeamHit)
            assert (hit.pocket, hit.duration) == (pocket, pytest.approx(length, abs=1e-6))
            assert hit.t == pytest.approx(start, abs=0.02)  # within the serial delay
            time.sleep(0.2)  # across the wrap


def test_bridge_settings_are_sent_and_confirmed() -> None:
    with (
        SimulatedBridge() as sim,
        SensorBridge(sim.port_path, sink=print, glitch_s=0.001, stuck_s=3.0) as bridge,
    ):
        assert wait_until(lambda: bridge.confirmed is not None)
        assert sim.settings == (1000, 5000, 3000)


def test_bridge_restart_resets_the_clock_and_faults_arrive() -> None:
    got: queue.Queue[BeamReport] = queue.Queue()
    with (
        SimulatedBridge(start_us=123_456_789) as sim,
        SensorBridge(sim.port_path, sink=got.put) as bridge,
    ):
        # its first HELLO went out before the port was opened: heartbeats suffice
        assert wait_until(lambda: bridge.status.state == "ok")
        sim.reboot(boot_id="sim2")
        assert wait_until(lambda: bridge.boot_id == "sim2")
        start = sim.hit(4, 0.01)
        hit = got.get(timeout=5.0)
        assert hit.t == pytest.approx(start, abs=0.02)
        sim.fault(1, "stuck")
        fault = got.get(timeout=5.0)
        assert isinstance(fault, BeamFault) and (fault.pocket, fault.kind) == (1, "stuck")
        assert bridge.states()[1] == "stuck"


def test_bridge_garbled_line_is_dropped_and_counted() -> None:
    got: queue.Queue[BeamReport] = queue.Queue()
    with SimulatedBridge() as sim, SensorBridge(sim.port_path, sink=got.put) as bridge:
        assert wait_until(lambda: bridge.status.state == "ok")
        sim.send_raw(b"H 1 2 3 4 *0000\n")
        assert wait_until(lambda: bridge.garbled == 1)
        assert "checksum" in bridge.last_error
        assert got.empty()


def test_bridge_silent_then_unplugged_is_reported_never_raised() -> None:
    sim = SimulatedBridge()
    with SensorBridge(sim.port_path, sink=print, silent_s=0.3, backoff_s=(0.02, 0.1)) as bridge:
        assert wait_until(lambda: bridge.status.state == "ok")
        sim.mute = True
        assert wait_until(lambda: bridge.status.state == "silent")
        sim.mute = False
        assert wait_until(lambda: bridge.status.state == "ok")
        sim.close()  # unplugged
        assert wait_until(lambda: bridge.status.state == "unplugged")
        assert wait_until(lambda: bridge.reconnects >= 2)


@settings(max_examples=150, deadline=None)
@given(
    start_us=st.integers(0, WRAP_US - 1),
    delays_ms=st.lists(st.floats(0.0, 20.0), min_size=3, max_size=40),
    back_ms=st.floats(0.0, 500.0),
)
def test_bridge_clock_maps_any_counter_start_within_the_best_delay(
    start_us: int, delays_ms: list[float], back_ms: float
) -> None:
    """Heartbeats every 250 ms with random serial delays; a hit stamped up to
    0.5 s before the latest heartbeat maps within the smallest delay seen."""
    cm = ClockMap()
    kiosk0 = 1000.0
    for n, delay in enumerate(delays_ms):
        device_s = n * 0.25
        cm.observe((start_us + round(device_s * 1e6)) % WRAP_US, kiosk0 + device_s + delay / 1e3)
    last = (len(delays_ms) - 1) * 0.25
    hit_s = last - back_ms / 1e3
    mapped = cm.to_kiosk((start_us + round(hit_s * 1e6)) % WRAP_US)
    assert mapped - (kiosk0 + hit_s) == pytest.approx(min(delays_ms) / 1e3, abs=2e-6)
