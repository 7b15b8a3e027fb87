"""The runner: one step drains inputs and fires timers; the loop sleeps until the next
deadline or input; the watchdog is pinged from the loop over a real datagram socket."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from drivers.hits import BeamHit
from kiosk.clocks.patterns import SHORT_BEEP
from kiosk.engine.journal import Journal
from kiosk.engine.notify import Notifier
from kiosk.engine.outputs import MemoryOutput
from kiosk.engine.runner import Runner
from kiosk.engine.session import CarromSession
from kiosk.rules.carrom.events import MatchStart

from .conftest import FakeClock

START = MatchStart("icf", ("Asha", "Bina"), "Asha")


def test_runner_step_fires_timers_and_pings_the_watchdog(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        sock.settimeout(5)
        notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "4000000"})
        out = MemoryOutput()
        s = CarromSession(Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[out])
        polled: list[float] = []
        runner = Runner(s, clock=clock, notifier=notifier, pollers=[polled.append])
        runner.ready()
        assert sock.recv(100).startswith(b"READY=1")
        s.start_match(START)
        s.play()
        assert runner.next_wake(clock.now) == clock.now + 0.5  # at most max_sleep_s
        clock.advance(10.0)  # the 5 s warning of the break count (law 46)
        runner.step()
        assert out.sounds == [SHORT_BEEP]
        assert polled == [clock.now]
        assert sock.recv(100) == b"WATCHDOG=1"  # 2 s (half of 4) had passed
        runner.step()
        assert runner.pings == 1  # not again before the next 2 s


def test_runner_errors_in_a_part_do_not_stop_the_table(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = CarromSession(Journal(tmp_path / "j.db"), clock=clock, wall=wall)

    def broken(now: float) -> None:
        raise OSError("gpio chip gone")

    runner = Runner(s, clock=clock, pollers=[broken])
    runner.step()
    runner.step()
    assert runner.steps == 2 and len(runner.errors) == 2 and "gpio chip gone" in runner.errors[0]


def test_runner_loop_wakes_for_an_input_and_stops(tmp_path: Path) -> None:
    s = CarromSession(Journal(tmp_path / "j.db"))
    s.start_match(START)
    runner = Runner(s, max_sleep_s=5.0)  # a long sleep: only the input can wake it soon
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        time.sleep(0.05)
        steps = runner.steps
        s.post(BeamHit(1, time.monotonic(), 0.01))
        end = time.monotonic() + 2.0
        while runner.steps == steps and time.monotonic() < end:
            time.sleep(0.002)
        assert runner.steps > steps
    finally:
        runner.stop()
        s.post(BeamHit(2, time.monotonic(), 0.01))  # wake the loop so it sees the stop
        thread.join(timeout=5)
    assert not thread.is_alive()
    assert s.view.proposal.hits >= 1  # read once the loop's thread is done
