"""The carrom table session: the flow of one stroke, the umpire's commands, the timers that
follow the laws, faults, the journal and resuming after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.hits import BeamFault, BeamHit
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.clocks.patterns import LONG_BUZZ, SHORT_BEEP, TICK
from kiosk.config import Settings, with_values
from kiosk.engine.journal import EVENT, UNDO, Journal
from kiosk.engine.outputs import MemoryOutput, OutputBase
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.rules.carrom.record import parse_record, replay
from kiosk.tables.carrom_inputs import (
    CameraAlive,
    CameraDiff,
    CameraMotion,
    CameraRest,
    PartFault,
    RecordedDiff,
    RecordedGone,
)
from kiosk.tables.carrom_record import export_match_record
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import NotAllowed
from kiosk.tables.health import CAMERA_TIMEOUT_S
from tests.refusals import raises_code

START = MatchStart("icf", ("Asha", "Bina"), "Asha")
#: The four pockets' centres in the camera's picture.
CALIBRATION = [[0, 0], [100, 0], [100, 100], [0, 100]]


def session(
    path: Path,
    clock: FakeClock,
    wall: FakeClock,
    out: MemoryOutput | None = None,
    settings: Settings | None = None,
    camera: bool = False,
) -> CarromTable:
    if camera:  # a camera fitted, its board calibrated: until it is, it adds nothing
        settings = with_values(settings or Settings(), camera={"calibration": CALIBRATION})
    return CarromTable(
        Journal(path),
        settings,
        clock=clock,
        wall=wall,
        outputs=[out or MemoryOutput()],
        camera=camera,
    )


def diff(*gone: tuple[str, int | None], striker: bool = False) -> RecordedDiff:
    return RecordedDiff(tuple(RecordedGone(c, p) for c, p in gone), striker, ())


def stroke(s: CarromTable, clock: FakeClock, *pockets: int, seen: RecordedDiff | None) -> None:
    """A stroke as the sensors report it: motion, beam hits, rest, the diff."""
    s.post(CameraMotion(clock.now))
    for n, pocket in enumerate(pockets):
        s.post(BeamHit(pocket, clock.now + 0.2 + 0.1 * n, 0.012))
    clock.advance(2.0)
    s.post(CameraRest(clock.now))
    if seen is not None:
        s.post(CameraDiff(clock.now, seen))
    s.poll()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.db"


def test_session_stroke_flow_beams_and_camera_agree_then_confirm(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    s = session(path, clock, wall, out, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 2, 4, seen=diff(("white", 2), ("white", 4)))
    s.view()
    view = s.view()
    assert view.phase == "at_rest"
    assert view.proposal.pocketed == ("white", "white")
    assert view.proposal.source == "beams+camera" and not view.proposal.review
    assert s.match is not None and s.match.events == ()  # nothing enters before the umpire
    s.confirm(role=Role.UMPIRE)
    view = s.view()
    assert view.state is not None and view.state.now is not None
    assert view.state.now.on_board["white"] == 7
    assert view.state.now.turn == "Asha"  # own coins in: the turn goes on
    assert view.phase == "aiming" and view.proposal.pocketed == ()
    entries = s.journal.entries(s.match_id or 0)
    kinds = [e.kind for e in entries]
    assert kinds.count("beam_hit") == 2 and kinds.count(EVENT) == 1
    assert {e.source for e in entries} >= {"beam", "camera", "umpire"}
    assert out.view == view


def test_session_beams_and_camera_disagree_flag_the_proposal(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 1, 1, seen=diff(("white", 1)))
    proposal = s.view().proposal
    assert proposal.review
    assert any("pocket 1: the beam counted 2, the camera saw 1" in str(n) for n in proposal.notes)


def test_session_without_camera_uses_beams_and_umpire_fixes_colours(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.post(BeamHit(3, clock.now, 0.01))
    s.poll()
    assert s.view().proposal.pocketed == ("white",) and s.view().proposal.review
    s.edit(pocketed=["black"], role=Role.UMPIRE)
    s.confirm(role=Role.UMPIRE)
    view = s.view()
    assert view.state is not None and view.state.now is not None
    assert view.state.now.on_board["black"] == 8
    assert s.journal.confirmed(s.match_id or 0)[-1]["pocketed"] == ["black"]


def test_session_illegal_stroke_is_refused_with_the_reason_and_not_journaled(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    with raises_code(IllegalEvent, "queen_twice") as refused:
        s.confirm(s.proposal.edited(pocketed=["queen", "queen"]), role=Role.UMPIRE)
    assert s.view().refusal == refused.value.reason  # its facts, for the screen to word
    assert s.journal.confirmed(s.match_id or 0) == []
    assert s.match is not None and s.match.events == ()
    assert [e.kind for e in s.journal.entries(s.match_id or 0)] == ["refused"]


def test_session_undo_is_journaled_and_history_kept(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    before = s.view().state
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    assert s.view().state != before
    s.undo(role=Role.UMPIRE)
    view = s.view()
    assert view.state == before
    kinds = [e.kind for e in s.journal.entries(s.match_id or 0)]
    assert kinds.count(EVENT) == 2 and kinds.count(UNDO) == 1
    record = export_match_record(s.journal)
    events = parse_record(record)
    assert len(events) == 2  # the match line and the one stroke that stands
    assert replay(events).state == view.state


def test_session_undo_with_nothing_confirmed_says_so(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.undo(role=Role.UMPIRE)
    view = s.view()
    assert view.refusal is not None and view.refusal.code == "nothing_to_undo"  # worded by the UI


def test_law_46_play_starts_the_break_count(path: Path, clock: FakeClock, wall: FakeClock) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    assert s.view().timer is None
    s.play(role=Role.UMPIRE)
    view = s.view()
    assert view.timer is not None and view.timer.kind == "break" and view.timer.remaining == 15.0


def test_law_50_stroke_count_warns_and_expires_for_the_umpire_to_rule(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    s = session(path, clock, wall, out, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 1, seen=diff(("white", 1)))  # own coin in: count starts at rest (124 a)
    s.view()
    view = s.view()
    assert view.timer is not None and view.timer.kind == "stroke"
    assert s.timers.next_deadline() == pytest.approx(clock.now + 10.0)  # the 5 s warning
    assert s.next_deadline() == pytest.approx(clock.now + CAMERA_TIMEOUT_S)  # the heartbeat
    clock.advance(15.0)
    s.post(CameraAlive(clock.now))
    view = s.poll()
    assert out.sounds == [SHORT_BEEP, TICK, TICK, TICK, LONG_BUZZ]
    assert view.expired == "stroke"
    assert s.match is not None and s.match.events == ()  # no time foul by itself
    timer_entries = [e for e in s.journal.entries(s.match_id or 0) if e.kind == "timer"]
    assert [e.data["what"] for e in timer_entries][-1] == "expired"


def test_law_124_b_count_waits_for_the_striker_to_be_lifted(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, seen=diff())  # nothing in: the turn passes
    assert s.view().awaiting_lift and s.view().timer is None
    s.confirm(role=Role.UMPIRE)
    assert s.view().state is not None and s.view().state.now is not None
    assert s.view().state.now.turn == "Bina"
    clock.advance(3)
    s.striker_lifted(role=Role.UMPIRE)
    view = s.view()
    assert view.timer is not None and view.timer.kind == "stroke"
    assert view.timer.remaining == 15.0


def test_law_88_a_placing_count_when_dues_are_to_place_then_law_50(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(striker=True), role=Role.UMPIRE)  # a due: one white back (law 72 a)
    view = s.view()
    assert view.state is not None and view.state.now is not None
    assert view.state.now.placing == {"Asha": 1, "Bina": 0}
    assert view.timer is not None and view.timer.kind == "placing"
    clock.advance(4)
    s.dues_placed(role=Role.UMPIRE)
    view = s.view()
    assert view.timer is not None and view.timer.kind == "stroke"


def test_law_121_umpire_stops_and_play_resumes_the_count(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.play(role=Role.UMPIRE)
    clock.advance(4)
    s.stop_clock(role=Role.UMPIRE)
    view = s.view()
    assert view.timer is not None and view.timer.held and view.timer.remaining == 11.0
    clock.advance(60)
    assert s.poll().timer.remaining == 11.0  # type: ignore[union-attr]
    s.play(role=Role.UMPIRE)
    view = s.view()
    clock.advance(1)
    view = s.poll()
    assert view.timer is not None and not view.timer.held and view.timer.remaining == 10.0
    s.restart_clock(role=Role.UMPIRE)
    view = s.view()
    assert view.timer is not None and view.timer.remaining == 15.0


def test_session_stuck_beam_is_a_fault_and_its_pocket_is_left_out(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    s = session(path, clock, wall, out)
    s.start_match(START, role=Role.UMPIRE)
    s.post(BeamFault(2, "stuck", clock.now))
    s.post(BeamHit(2, clock.now + 0.1, 0.01))
    s.post(BeamHit(1, clock.now + 0.2, 0.01))
    view = s.poll()
    assert [f.part for f in view.faults] == ["beam 2"]
    assert view.beams == (1, 3, 4)
    assert view.proposal.hits == 1
    assert [v.beam for v in view.proposal.pockets] == [1, None, 0, 0]
    s.post(BeamFault(2, "cleared", clock.now + 1))
    view = s.poll()
    assert view.faults == () and view.beams == (1, 2, 3, 4)
    assert [active for _, active in out.faults] == [True, False]
    kinds = [e.kind for e in s.journal.entries(s.match_id or 0)]
    assert "fault" in kinds and "fault_cleared" in kinds


def test_session_camera_without_frames_is_a_fault_and_beams_carry_on(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    s.post(CameraAlive(clock.now))
    s.poll()
    assert s.next_deadline() == pytest.approx(clock.now + CAMERA_TIMEOUT_S)
    clock.advance(CAMERA_TIMEOUT_S + 0.5)
    view = s.poll()
    assert [f.part for f in view.faults] == ["camera"] and not view.camera
    s.post(BeamHit(4, clock.now, 0.01))
    view = s.poll()
    assert view.proposal.source == "beams" and view.proposal.hits == 1
    s.post(CameraAlive(clock.now + 0.1))
    assert s.poll().faults == ()


class BrokenDisplay(OutputBase):
    """An output whose link reports trouble, and which raises on one call."""

    name = "display"

    def __init__(self) -> None:
        self.trouble: str | None = None
        self.raise_next = False

    def state_changed(self, view: object) -> None:
        if self.raise_next:
            self.raise_next = False
            raise OSError("write failed")

    def health(self) -> str | None:
        return self.trouble


def test_session_display_that_stops_acknowledging_is_a_fault_not_a_crash(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    display = BrokenDisplay()
    s = CarromTable(Journal(path), clock=clock, wall=wall, outputs=[display])
    s.start_match(START, role=Role.UMPIRE)
    display.trouble = "player display on /dev/ttyUSB0 does not answer"
    view = s.poll()
    assert [(f.part, f.message) for f in view.faults] == [("display", display.trouble)]
    display.trouble = None
    display.raise_next = True
    s.confirm(
        s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE
    )  # the output raises: the event stands
    view = s.poll()
    assert "write failed" in view.faults[0].message
    view = s.poll()
    assert view.faults == ()
    assert len(s.journal.confirmed(s.match_id or 0)) == 1


def test_session_part_fault_input_shows_and_clears(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.post(PartFault(clock.now, "buzzer", "buzzer: pin 18 in use"))
    assert [f.part for f in s.poll().faults] == ["buzzer"]
    s.post(PartFault(clock.now, "buzzer", None))
    assert s.poll().faults == ()


def test_session_auto_confirm_after_the_setting_for_casual_play(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    settings = with_values(Settings(), fusion={"auto_confirm_s": 4})
    s = session(path, clock, wall, settings=settings, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 1, seen=diff(("black", 1)))
    assert s.view().auto_confirm_in == 4.0
    clock.advance(3.9)
    s.post(CameraAlive(clock.now))
    assert s.poll().events == 0
    clock.advance(0.2)
    s.post(CameraAlive(clock.now))
    view = s.poll()
    assert view.events == 1
    assert s.journal.entries(s.match_id or 0, [EVENT])[0].source == "auto"


def test_session_auto_confirm_waits_for_the_umpire_when_flagged(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    settings = with_values(Settings(), fusion={"auto_confirm_s": 1})
    s = session(path, clock, wall, settings=settings, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 1, 2, seen=diff(("black", 1)))  # the beams saw one more
    assert s.view().auto_confirm_in is None
    clock.advance(5)
    s.post(CameraAlive(clock.now))
    assert s.poll().events == 0


def test_session_resumes_exactly_where_it_was(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white", "white"]), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["black"], striker=True), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    s.undo(role=Role.UMPIRE)
    stroke(s, clock, 3, seen=diff(("black", 3)))  # a stroke in progress, not confirmed
    state, proposal = s.view().state, s.view().proposal
    s.journal.close()
    clock.reboot(1.0)  # a new boot
    wall.advance(30)
    again = session(path, clock, wall, camera=True)
    assert again.has_unfinished()
    view = again.resume()
    assert view is not None
    assert view.state == state
    assert view.proposal.pocketed == proposal.pocketed
    assert view.phase == "at_rest"
    again.confirm(role=Role.UMPIRE)
    assert again.journal.confirmed(again.match_id or 0)[-1]["pocketed"] == ["black"]
    assert again.journal.confirmed(again.match_id or 0)[-1]["t"] >= 30


def test_session_new_match_closes_the_unfinished_one(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    first = s.match_id
    s.start_match(MatchStart("club", ("A", "B", "C", "D"), "C"), role=Role.DIRECTOR)
    assert s.match_id != first
    rows = s.journal.matches("carrom")
    assert [r.finished for r in rows] == [True, False]
    closed = s.journal.entries(first, ["closed"])
    assert [(e.source, e.data) for e in closed] == [("director", {"why": "new_match"})]


@pytest.mark.parametrize("role", [Role.PLAYER, Role.UMPIRE])
def test_role_a_new_match_over_an_unfinished_one_is_the_directors(
    path: Path, clock: FakeClock, wall: FakeClock, role: Role
) -> None:
    """Closing an unfinished match is the director's (DESIGN.md, "Roles"): a new match over it
    started by anyone else is refused at the table, and nothing is written."""
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    first = s.match_id
    before = s.journal.entries(first)
    with pytest.raises(NotAllowed) as refused:
        s.start_match(MatchStart("club", ("A", "B", "C", "D"), "C"), role=role)
    assert refused.value.reason is not None and refused.value.reason.code == "role"
    assert [r.id for r in s.journal.matches("carrom")] == [first]
    assert s.journal.entries(first) == before


def test_session_bad_start_is_refused_and_nothing_written(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    with pytest.raises(IllegalEvent):
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Chitra"), role=Role.UMPIRE)
    assert s.journal.matches() == []
    with raises_code(IllegalEvent, "no_match"):
        s.confirm(role=Role.UMPIRE)


def test_session_outputs_hear_only_of_changes(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    s = session(path, clock, wall, out)
    s.start_match(START, role=Role.UMPIRE)
    seen = out.views
    for _ in range(5):
        s.poll()
    assert out.views == seen  # nothing changed, nothing said
    s.play(role=Role.UMPIRE)
    seen = out.views
    clock.advance(0.05)
    s.poll()
    assert out.views == seen  # the count shows tenths: 15.0 still
    clock.advance(0.1)
    s.poll()
    assert out.views == seen + 1 and out.view.timer.remaining == 14.9


def test_session_journal_that_cannot_write_holds_the_event_and_shows_not_saved(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    s = session(path, clock, wall, out)
    s.start_match(START, role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    assert s.journal._db is not None
    s.journal._db.execute("PRAGMA query_only=ON")  # the disk refuses writes from here
    s.confirm(
        s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE
    )  # no exception: held, not lost
    view = s.view()
    assert len(s.match.events if s.match else []) == 2
    faults = {f.part: f.message for f in view.faults}
    assert "not saved" in faults["journal"] and "held in memory" in faults["journal"]
    assert [e.kind for e in s.journal.pending][-1] == "event"
    s.journal._db.execute("PRAGMA query_only=OFF")
    s.journal.retry(force=True)
    view = s.poll()
    assert view.faults == ()  # the journal works again
    assert s.journal.pending == ()
    assert len(s.journal.confirmed(s.match_id or 0)) == 2


def test_session_fault_before_any_match_is_journaled(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.post(PartFault(clock.now, "camera", "camera usb:0: cannot be opened"))
    s.post(BeamHit(1, clock.now, 0.01))  # noise with no match: not kept
    s.poll()
    (entry,) = s.journal.entries(None)
    assert entry.kind == "fault" and entry.data["part"] == "camera"


def test_session_match_over_is_closed_and_undo_reopens_it(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.concede("Bina", role=Role.DIRECTOR)  # laws 139, 143
    view = s.view()
    assert view.phase == "over" and view.state is not None and view.state.winner == "Asha"
    assert not s.has_unfinished()
    s.undo(role=Role.DIRECTOR)
    view = s.view()
    assert view.phase == "aiming" and s.has_unfinished()


def test_session_resume_counts_a_diff_by_the_calibration_it_was_taken_with(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """A stroke in progress at a stop is proposed again from the journal as it first was: a
    camera diff taken before the board was calibrated adds nothing after a resume that has a
    calibration, and one taken calibrated still counts after a resume that has none."""
    s = session(path, clock, wall, settings=Settings())  # a camera, its board not calibrated
    s.fit((1, 2, 3, 4), True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 3, seen=diff(("black", 3)))
    before = s.view().proposal
    assert before.source == "beams" and before.pockets[2].camera is None
    s.journal.close()
    again = session(path, clock, wall, camera=True)  # calibrated since
    view = again.resume()
    assert view is not None and view.proposal == before  # the diff still adds nothing
    rows = [e.data for e in again.journal.entries(again.match_id or 0) if e.kind == "camera"]
    assert rows[-1]["what"] == "diff" and rows[-1]["calibrated"] is False  # said with it

    path2 = path.with_name("calibrated.db")
    s = session(path2, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    stroke(s, clock, 3, seen=diff(("black", 3)))
    before = s.view().proposal
    assert before.source == "beams+camera" and before.pocketed == ("black",)
    s.journal.close()
    again = session(path2, clock, wall, settings=Settings())  # its calibration gone since
    again.fit((1, 2, 3, 4), True)
    view = again.resume()
    assert view is not None and view.proposal == before  # the diff counts as it did


def test_session_late_diff_of_a_confirmed_stroke_is_not_carried_over(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    s.post(CameraMotion(clock.now))
    s.post(BeamHit(1, clock.now + 0.1, 0.01))
    s.poll()
    s.confirm(
        s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE
    )  # before the camera's rest and diff
    clock.advance(1)
    s.post(CameraRest(clock.now))
    s.post(CameraDiff(clock.now, diff(("white", 1))))
    view = s.poll()
    assert view.phase == "aiming" and view.proposal.pocketed == ()
    kinds = [e.data.get("what") for e in s.journal.entries(s.match_id or 0) if e.kind == "camera"]
    assert kinds == ["motion", "rest", "diff"]  # journaled all the same
    s.journal.close()
    again = session(path, clock, wall, camera=True)
    view = again.resume()
    assert view is not None and view.phase == "aiming" and view.proposal.pocketed == ()


def test_session_resume_leaves_out_hits_of_a_beam_that_was_stuck(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = session(path, clock, wall)
    s.start_match(START, role=Role.UMPIRE)
    s.post(BeamFault(3, "stuck", clock.now))
    s.post(BeamHit(3, clock.now + 0.1, 0.01))
    s.post(BeamHit(1, clock.now + 0.2, 0.01))
    hits = s.poll().proposal.hits
    s.journal.close()
    again = session(path, clock, wall)
    view = again.resume()
    assert view is not None and view.proposal.hits == hits == 1


def test_session_input_stamped_after_the_poll_began_acts_at_the_poll_time(
    path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    # A sensor thread stamps its input just after the loop read the clock for its poll.
    s = session(path, clock, wall, camera=True)
    s.start_match(START, role=Role.UMPIRE)
    s.post(CameraMotion(clock.now))
    s.post(BeamHit(2, clock.now + 0.1, 0.01))
    clock.advance(2)
    s.post(CameraDiff(clock.now, diff(("white", 2))))
    s.post(CameraRest(clock.now + 0.004))  # own coin in: the count starts at rest (124 a)
    view = s.poll(clock.now)  # no "time went backwards" from the timers
    assert view.phase == "at_rest"
    assert view.timer is not None and view.timer.kind == "stroke"
    assert view.timer.remaining == 15.0
    clock.advance(1)
    assert s.poll().timer.remaining == 14.0  # type: ignore[union-attr]
