"""A carrom table while a stroke is proposed: a call made then is refused with its law and
drops nothing (law 123, 63, 64 b); a beam that chatters or counts more coins than can go in
is a fault on the parts board, its count left to the umpire; the proposal is cleared in one
command, and a pocket's count is set by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.hits import BeamHit
from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.engine.journal import EVENT, Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.health import beam_part

UMPIRE = Role.UMPIRE
START = MatchStart("icf", ("Sita", "Gita"), "Sita")


@pytest.fixture
def table(tmp_path: Path) -> CarromTable:
    clock = ManualClock(100.0)
    s = CarromTable(
        Journal(tmp_path / "journal.db"),
        clock=clock,
        wall=ManualClock(1_700_000_000.0),
        outputs=[MemoryOutput()],
    )
    s.start_match(START, role=UMPIRE)
    return s


def _events(s: CarromTable) -> list[str]:
    assert s.match_id is not None
    return [e.data["event"] for e in s.journal.entries(s.match_id, [EVENT])]


def _confirmed(s: CarromTable) -> list[dict[str, object]]:
    assert s.match_id is not None
    return s.journal.confirmed(s.match_id)


def _hits(s: CarromTable, pocket: int, n: int, gap: float) -> None:
    clock = s.clock
    assert isinstance(clock, ManualClock)
    for _ in range(n):
        s.post(BeamHit(pocket, clock(), 0.012))
        clock.advance(gap)
    s.poll()


def test_a_foul_while_a_white_is_proposed_is_refused_and_the_white_is_kept(
    table: CarromTable,
) -> None:
    _hits(table, 2, 1, 0.5)  # key 2: a white through pocket 2
    assert table.proposal.pocketed == ("white",)
    with pytest.raises(IllegalEvent) as refused:
        table.foul(role=UMPIRE)
    reason = refused.value.reason
    assert reason is not None and reason.code == "foul_while_proposed"
    assert "64 b" in reason.english() and "law 123" in reason.english()
    assert _events(table) == [] and table.proposal.pocketed == ("white",)
    table.confirm(role=UMPIRE)  # the stroke first, then the foul on the turn it leaves
    table.foul(role=UMPIRE)
    assert _events(table) == ["stroke", "foul"]
    assert _confirmed(table)[0]["pocketed"] == ["white"]


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("pass_turn", {}),
        ("waive", {}),
        ("void_board", {}),
        ("forfeit_board", {"by": "Sita"}),
        ("concede", {"by": "Gita"}),
        ("undo", {}),
    ],
)
def test_every_other_call_while_a_stroke_is_proposed_is_refused(
    table: CarromTable, call: str, args: dict[str, object]
) -> None:
    table.edit(pocketed=["white"], role=UMPIRE)
    table.confirm(role=UMPIRE)  # something to undo, a board in progress
    table.edit(pocketed=["white", "queen"], role=Role.UMPIRE)
    with pytest.raises(IllegalEvent) as refused:
        getattr(table, call)(**args, role=Role.DIRECTOR)
    assert refused.value.reason is not None
    assert refused.value.reason.code == "call_while_proposed"
    assert _events(table) == ["stroke"] and table.proposal.pocketed == ("white", "queen")
    assert table.view().refusal == refused.value.reason


def test_a_held_key_chatters_a_fault_on_the_parts_board_and_its_count_goes(
    table: CarromTable,
) -> None:
    _hits(table, 3, 61, 0.015)  # key 3 held: 61 hits 15 ms apart
    faults = {f.part: f.message for f in table.view().faults}
    assert "chatters" in faults[beam_part(3)]
    assert not table.proposal.pocketed and 3 not in table.view().beams
    table.edit(pocket=3, count=1, role=UMPIRE)  # the umpire counts one coin in pocket 3
    assert table.proposal.pocketed == ("white",)
    table.confirm(role=UMPIRE)
    assert _confirmed(table)[0]["pocketed"] == ["white"]
    assert beam_part(3) not in {f.part for f in table.view().faults}  # over with the stroke


def test_more_coins_than_the_board_holds_is_a_fault_not_a_count() -> None:
    from kiosk.tables.health import beam_doubt

    slow = [i * 0.5 for i in range(21)]  # no chatter: far apart, but 21 > 9 + 9 + 1 + 1
    doubt = beam_doubt(slow, 3, 20)
    assert doubt is not None and "more than the 20 on the board" in doubt
    assert beam_doubt(slow[:3], 3, 20) is None
    assert beam_doubt([0.0, 0.01], 1, 20) is None  # two coins together are two coins


def test_the_proposal_is_cleared_in_one_command_and_the_clear_is_journaled(
    table: CarromTable,
) -> None:
    _hits(table, 1, 7, 0.2)
    assert len(table.proposal.pocketed) == 7
    table.edit(clear=True, role=UMPIRE)
    assert not table.proposal.pocketed and table.held() is None
    table.foul(role=UMPIRE)  # nothing proposed: the foul is taken
    assert _events(table) == ["foul"]
