"""A table's view carries its refusals and rulings as Reasons (a code, the law, the facts),
never as English: the console words them in its own language (kiosk/ui/words.py)."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from types import UnionType
from typing import Any

import pytest

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.errors import Reason
from kiosk.rules.backgammon.face import ClockFace
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import ClockPreview, ClockView
from kiosk.tables.bhukhar_table import BhukharView
from kiosk.tables.carrom_preview import Preview
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.commands import Command
from tests.refusals import raises_code

UMPIRE = Role.UMPIRE
START = MatchStart("icf", ("Sita", "Gita"), "Sita")

#: Fields that say why something was refused or what was ruled: each must hold a Reason.
SAID = {"error", "last_error", "refusal", "refused", "banner", "match_line", "ruling"}


def _strs(hint: object) -> bool:
    """Whether a type hint lets a field hold text."""
    if hint is str:
        return True
    if isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union:
        return any(_strs(a) for a in typing.get_args(hint))
    return False


@pytest.mark.parametrize(
    "view", [CarromView, ClockView, ClockFace, BhukharView, Preview, ClockPreview]
)
def test_a_view_has_no_english_field_for_a_refusal_or_a_ruling(view: type[Any]) -> None:
    hints = typing.get_type_hints(view)
    english = [f.name for f in dataclasses.fields(view) if f.name in SAID and _strs(hints[f.name])]
    assert english == [], f"{view.__name__}: text where a Reason belongs"


@pytest.fixture
def table(tmp_path: Path) -> CarromTable:
    s = CarromTable(
        Journal(tmp_path / "journal.db"),
        clock=ManualClock(100.0),
        wall=ManualClock(1_700_000_000.0),
        outputs=[MemoryOutput()],
    )
    s.start_match(START, role=UMPIRE)
    return s


def _refusal(s: CarromTable) -> Reason:
    refusal = s.view().refusal
    assert isinstance(refusal, Reason)
    return refusal


def test_law_121_restart_without_a_timer_is_a_reason_in_the_view(table: CarromTable) -> None:
    table.restart_clock(role=UMPIRE)
    assert (_refusal(table).code, _refusal(table).law) == ("no_timer_to_restart", "121")


def test_an_event_the_journal_refuses_is_a_reason_with_its_cause(
    table: CarromTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuses(*_: object, **__: object) -> None:
        raise RuntimeError("the journal is closed")

    monkeypatch.setattr(table.journal, "append", refuses)
    with pytest.raises(RuntimeError):
        table.confirm(role=UMPIRE)  # the break, nothing pocketed
    refusal = _refusal(table)
    why = refusal.values()["why"]
    assert refusal.code == "not_recorded" and isinstance(why, Reason)
    assert why.code == "disk_other" and why.values()["detail"] == "the journal is closed"
    assert table.match is not None and table.match.events == ()


def test_a_command_from_afar_without_a_reason_of_its_own_is_refused_with_a_code(
    table: CarromTable,
) -> None:
    # The hall checks a decision before it posts it; one that slips past is still worded.
    table.post(Command.of("decide_protest", Role.DIRECTOR, board=[1, 1], upheld="yes"))
    table.poll()
    refusal = _refusal(table)
    assert refusal.code == "refused" and "upheld" in str(refusal.values()["error"])


def test_a_command_with_no_match_is_refused_by_its_code(tmp_path: Path) -> None:
    s = CarromTable(Journal(tmp_path / "journal.db"), clock=ManualClock(1.0))
    with raises_code(IllegalEvent, "no_match"):
        s.pass_turn(role=UMPIRE)


def test_a_core_refusal_stays_in_the_view_until_the_next_tap(
    table: CarromTable,
) -> None:
    with raises_code(IllegalEvent, "queen_twice") as refused:
        table.confirm(table.proposal.edited(pocketed=["queen", "queen"]), role=UMPIRE)
    assert table.view().refusal == refused.value.reason
    table.play(role=UMPIRE)
    assert table.view().refusal is None
