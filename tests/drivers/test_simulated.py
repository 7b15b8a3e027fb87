"""Simulated beams: keys 1-4 and scripts through the real MockFactory pins and filter."""

from __future__ import annotations

import queue

import pytest

from drivers.hits import BeamFault, BeamHit, BeamReport
from drivers.simulated import Edge, ManualClock, SimulatedBeams, edges_of

#: How long a real-time step may take on a busy machine (a passing run takes a second).
PATIENCE_S = 60.0


def test_simulated_key_press_is_a_hit_through_the_pins() -> None:
    clock = ManualClock(10.0)
    got: list[BeamReport] = []
    sim = SimulatedBeams(sink=got.append, clock=clock)
    try:
        sim.press(3)
        sim.press(1, duration=0.02)
        # the pin itself went low and high: the real gpiozero path was taken
        assert [s.state for s in sim.beams.pin_of(3).states[-2:]] == [False, True]
    finally:
        sim.close()
    assert got == [BeamHit(3, 10.0, pytest.approx(0.015)), BeamHit(1, 10.015, pytest.approx(0.02))]


def test_simulated_script_runs_on_a_manual_clock_without_sleeping() -> None:
    clock = ManualClock(0.0)
    got: list[BeamReport] = []
    script = [(0.5, 2, 0.010), (0.52, 2, 0.012), (0.7, 4, 0.02), (0.705, 1, 0.01)]
    sim = SimulatedBeams(sink=got.append, clock=clock)
    try:
        sim.feed(script)
    finally:
        sim.close()
    hits = [(h.pocket, round(h.t, 6)) for h in got if isinstance(h, BeamHit)]
    # reported as each beam clears: pocket 1 (0.715) before pocket 4 (0.72)
    assert hits == [(2, 0.5), (2, 0.52), (1, 0.705), (4, 0.7)]


def test_simulated_stuck_beam_goes_through_the_same_fault_logic() -> None:
    clock = ManualClock(0.0)
    got: list[BeamReport] = []
    sim = SimulatedBeams(sink=got.append, clock=clock, stuck_s=2.0)
    try:
        sim.hold(2)
        clock.set(3.0)
        sim.beams.poll()
        sim.press(1)
        clock.set(4.0)
        sim.release(2)
    finally:
        sim.close()
    assert got == [
        BeamFault(2, "stuck", 2.0),
        BeamHit(1, 3.0, pytest.approx(0.015)),
        BeamFault(2, "cleared", 4.0),
    ]


def test_simulated_press_in_real_time_returns_at_once_and_clears_later() -> None:
    got: queue.Queue[BeamReport] = queue.Queue()
    sim = SimulatedBeams(sink=got.put)
    try:
        # A second's press: the beam reads broken when press() returns, however busy the
        # machine (a 10 ms press had cleared before the next line ran, under load).
        sim.press(4, duration=1.0)
        assert sim.beams.states()[4] == "broken" and got.empty()  # the key press broke it
        hit = got.get(timeout=PATIENCE_S)
        assert isinstance(hit, BeamHit) and hit.pocket == 4
        assert hit.duration >= 0.99  # broken for the press, cleared by its timer
    finally:
        sim.close()


def test_simulated_script_plays_in_real_time() -> None:
    got: queue.Queue[BeamReport] = queue.Queue()
    sim = SimulatedBeams(sink=got.put)
    try:
        sim.play([(0.0, 1, 0.005), (0.05, 2, 0.005)]).join(timeout=PATIENCE_S)
        assert [got.get(timeout=PATIENCE_S).pocket for _ in range(2)] == [1, 2]
    finally:
        sim.close()


def test_simulated_script_edges_in_time_order_and_bad_lines_named() -> None:
    assert edges_of([(0.1, 1, 0.05), (0.12, 2, 0.01)]) == [
        Edge(0.1, 1, True),
        Edge(0.12, 2, True),
        Edge(0.13, 2, False),
        Edge(pytest.approx(0.15), 1, False),  # type: ignore[arg-type]
    ]
    with pytest.raises(ValueError, match="beam script line 2: pocket 5"):
        edges_of([(0.0, 1, 0.01), (0.1, 5, 0.01)])
    with pytest.raises(ValueError, match="a monotonic clock cannot go back"):
        ManualClock(5.0).set(4.0)
