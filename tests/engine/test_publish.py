"""The state as JSON for a publisher beside the screen (the director's board, later MQTT)."""

from __future__ import annotations

import json
from pathlib import Path

from drivers.hits import BeamFault
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import JsonOutput
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.carrom_table import CarromTable


def test_publish_carrom_state_and_faults_as_json_lines(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    lines: list[str] = []
    s = CarromTable(
        Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[JsonOutput(lines.append)]
    )
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white", "white"]), role=Role.UMPIRE)
    s.post(BeamFault(4, "stuck", clock.now))
    s.poll()
    messages = [json.loads(line) for line in lines]
    states = [m["state"] for m in messages if "state" in m]
    assert states[-1]["game"] == "carrom"
    assert states[-1]["match"]["now"]["on_board"]["white"] == 7
    assert states[-1]["faults"][0]["part"] == "beam 4"
    assert {"table": "table", "fault": states[-1]["faults"][0], "active": True} in messages


def test_publish_a_failing_publisher_is_a_fault_of_its_own(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    def broker_down(_line: str) -> None:
        raise ConnectionRefusedError("mqtt broker at 10.0.0.2:1883")

    s = CarromTable(
        Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[JsonOutput(broker_down)]
    )
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    view = s.poll()
    assert [f.part for f in view.faults] == ["publisher"]
    assert "1883" in view.faults[0].message


def test_publish_backgammon_clock(tmp_path: Path, clock: FakeClock, wall: FakeClock) -> None:
    lines: list[str] = []
    t = BackgammonTable(
        Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[JsonOutput(lines.append)]
    )
    t.start_match(("Nikos", "Eleni"), 3, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(20)
    t.press("Nikos", role=Role.PLAYER)
    state = json.loads(lines[-1])["state"]
    assert state["game"] == "backgammon"
    assert state["clock"]["banks"] == {"Nikos": 352.0, "Eleni": 360.0}
    assert state["clock"]["running"] == "Eleni"
