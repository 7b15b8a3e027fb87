"""Property: whatever the umpire did (strokes, fouls, passes, undos, refused events), closing
the journal and resuming gives the identical match state and record."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_record import export_match_record
from kiosk.tables.carrom_table import CarromTable

coins = st.lists(st.sampled_from(["white", "black", "queen"]), max_size=3)
actions = st.lists(
    st.one_of(
        st.tuples(st.just("stroke"), coins, st.booleans()),
        st.tuples(st.just("foul"), st.sampled_from([None, "Asha", "Bina"]), st.just(False)),
        st.tuples(st.just("pass"), st.just([]), st.just(False)),
        st.tuples(st.just("undo"), st.just([]), st.just(False)),
        st.tuples(st.just("waive"), st.just([]), st.just(False)),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(actions, st.sampled_from(["icf", "club"]))
def test_resume_after_any_history_is_identical(
    history: list[tuple[str, object, bool]], rules: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.db"
        clock, wall = FakeClock(), FakeClock(1e9)
        s = CarromTable(Journal(path), clock=clock, wall=wall)
        s.start_match(MatchStart(rules, ("Asha", "Bina"), "Bina"), role=Role.UMPIRE)  # type: ignore[arg-type]
        for kind, arg, flag in history:
            clock.advance(1.5)
            try:
                if kind == "stroke":
                    s.confirm(s.proposal.edited(pocketed=arg, striker=flag), role=Role.UMPIRE)  # type: ignore[arg-type]
                elif kind == "foul":
                    s.foul(arg, role=Role.UMPIRE)  # type: ignore[arg-type]
                elif kind == "pass":
                    s.pass_turn(role=Role.UMPIRE)
                elif kind == "waive":
                    s.waive(role=Role.UMPIRE)
                else:
                    s.undo(role=Role.UMPIRE)
            except IllegalEvent:
                pass
        state, record = s.view().state, export_match_record(s.journal)
        s.journal.close()
        again = CarromTable(Journal(path), clock=FakeClock(5.0), wall=wall)
        view = again.resume()
        assert view is not None
        assert view.state == state
        assert export_match_record(again.journal) == record
        again.journal.close()
