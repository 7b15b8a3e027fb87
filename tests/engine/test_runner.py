"""The runner: one step fires the table's timers and runs the parts' pollers; the next wake is
the earliest deadline; the watchdog is pinged from the step over a real datagram socket."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.clocks.patterns import SHORT_BEEP
from kiosk.engine.journal import Journal
from kiosk.engine.notify import Notifier
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.carrom.events import MatchStart
from kiosk.runner import Runner
from kiosk.tables.carrom_table import CarromTable

START = MatchStart("icf", ("Asha", "Bina"), "Asha")


def test_runner_step_fires_timers_and_pings_the_watchdog(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        sock.settimeout(5)
        notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "4000000"})
        out = MemoryOutput()
        s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[out])
        polled: list[float] = []
        runner = Runner(s, clock=clock, notifier=notifier, pollers=[polled.append])
        runner.ready()
        assert sock.recv(100).startswith(b"READY=1")
        s.start_match(START, role=Role.UMPIRE)
        s.play(role=Role.UMPIRE)
        assert runner.next_wake(clock.now, 0.05) == clock.now + 0.05  # at most `within`
        clock.advance(10.0)  # the 5 s warning of the break count (law 46)
        runner.step()
        assert out.sounds == [SHORT_BEEP]
        assert polled == [clock.now]
        assert sock.recv(100) == b"WATCHDOG=1"  # 2 s (half of 4) had passed
        runner.step()
        assert runner.pings == 1  # not again before the next 2 s


def test_runner_next_wake_is_the_earliest_deadline(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    notifier = Notifier({"WATCHDOG_USEC": "4000000"})  # no socket: the pings go nowhere
    s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    stuck_check: list[float | None] = [clock.now + 0.3]
    runner = Runner(clock=clock, notifier=notifier, deadlines=[lambda: stuck_check[0]])
    assert runner.next_wake(clock.now, 1.0) == clock.now + 0.3  # a part's deadline
    runner.ready()
    stuck_check[0] = clock.now + 9.0
    assert runner.next_wake(clock.now, 5.0) == clock.now + 2.0  # the watchdog's next ping
    stuck_check[0] = None  # the beams are quiet
    runner.table = s
    s.start_match(START, role=Role.UMPIRE)
    s.play(role=Role.UMPIRE)
    clock.advance(9.99)
    runner.step()  # pings: 2 s had passed
    assert runner.pings == 1
    warning = runner.next_wake(clock.now, 0.05)
    assert warning == pytest.approx(clock.now + 0.01)  # the 5 s warning (law 46)


def test_runner_errors_in_a_part_do_not_stop_the_table(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)

    def broken(now: float) -> None:
        raise OSError("gpio chip gone")

    def no_deadline() -> float | None:
        raise OSError("bridge gone")

    runner = Runner(s, clock=clock, pollers=[broken], deadlines=[no_deadline])
    runner.step()
    runner.step()
    assert runner.steps == 2 and len(runner.errors) == 2 and "gpio chip gone" in runner.errors[0]
    assert runner.next_wake(clock.now, 0.05) == clock.now + 0.05
    assert "bridge gone" in runner.errors[-1]
