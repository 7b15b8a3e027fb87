"""A flapping or chattering beam (a loose wire, a dying emitter) is a fault, and its hits are
held for the umpire, not counted: through gpiozero's MockFactory pins on a manual clock."""

from __future__ import annotations

from pathlib import Path

from drivers.hits import BeamFault, BeamHit, BeamReport
from drivers.mockpins import ClockedMockFactory
from drivers.pockets import PocketBeams
from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

PINS = (17, 27, 22, 23)


def beams(clock: ManualClock) -> tuple[PocketBeams, list[BeamReport]]:
    out: list[BeamReport] = []
    factory = ClockedMockFactory(clock)
    return PocketBeams(PINS, sink=out.append, pin_factory=factory, clock=clock), out


def flap(b: PocketBeams, clock: ManualClock, pocket: int, hz: float, seconds: float) -> None:
    half = 0.5 / hz
    pin = b.pin_of(pocket)
    for _ in range(int(seconds * hz)):
        pin.drive_low()
        clock.advance(half)
        pin.drive_high()
        clock.advance(half)


def coin(b: PocketBeams, clock: ManualClock, pocket: int) -> None:
    b.pin_of(pocket).drive_low()
    clock.advance(0.012)
    b.pin_of(pocket).drive_high()
    clock.advance(0.1)


def test_beams_flapping_at_300_hz_is_a_fault_and_its_hits_are_held() -> None:
    clock = ManualClock(10.0)
    b, out = beams(clock)
    with b:
        flap(b, clock, 2, 300.0, 0.5)
        assert b.states()[2] == "flapping"
        coin(b, clock, 1)  # the other pockets count on
        faults = [r for r in out if isinstance(r, BeamFault)]
        assert [(f.pocket, f.kind) for f in faults] == [(2, "flapping")]
        assert faults[0].t - 10.0 < 0.06  # found within 60 ms
        assert [r.pocket for r in out if isinstance(r, BeamHit)] == [2, 1]  # one before it
        assert b.filters[2].held  # the rest held, not reported
        clock.advance(1.0)  # quiet: it works again, and says how many it held
        b.poll()
    cleared = out[-1]
    assert isinstance(cleared, BeamFault) and cleared.kind == "cleared" and cleared.pocket == 2
    assert cleared.held == len(b.filters[2].held) > 50


def test_beams_flapping_slowly_gives_more_hits_than_a_board_holds_and_is_a_fault() -> None:
    clock = ManualClock(0.0)
    b, out = beams(clock)
    with b:
        flap(b, clock, 4, 50.0, 1.0)  # 10 ms broken, 10 ms clear: each looks like a coin
    hits = [r for r in out if isinstance(r, BeamHit)]
    assert len(hits) == 20  # then the 21st in a second is impossible: a fault
    assert any(isinstance(r, BeamFault) and r.kind == "flapping" for r in out)


def test_beams_a_real_stroke_with_chatter_is_not_flapping() -> None:
    clock = ManualClock(0.0)
    b, out = beams(clock)
    with b:
        for _ in range(6):  # six coins, each with bounces at both ends
            pin = b.pin_of(3)
            for _ in range(3):
                pin.drive_low()
                clock.advance(0.0001)
                pin.drive_high()
                clock.advance(0.0001)
            pin.drive_low()
            clock.advance(0.004)
            pin.drive_high()
            for _ in range(3):
                clock.advance(0.0001)
                pin.drive_low()
                clock.advance(0.0001)
                pin.drive_high()
            clock.advance(0.03)
    assert [type(r) for r in out] == [BeamHit] * 6


def test_session_flapping_beam_is_shown_and_its_hits_are_not_counted(tmp_path: Path) -> None:
    clock = ManualClock(100.0)
    session = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=lambda: 1e9)
    session.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    b = PocketBeams(PINS, sink=session.post, pin_factory=ClockedMockFactory(clock), clock=clock)
    with b:
        coin(b, clock, 1)
        flap(b, clock, 2, 300.0, 0.3)
        view = session.poll()
    faults = {f.part: f.message for f in view.faults}
    assert "flapping" in faults["beam 2"] and "held for the umpire" in faults["beam 2"]
    assert view.proposal.hits == 1  # pocket 1's coin; none of pocket 2's
    kinds = [e.kind for e in session.journal.entries(session.match_id)]
    assert kinds.count("beam_hit") >= 2 and "beam_fault" in kinds  # all kept in the journal
    session.journal.close()
