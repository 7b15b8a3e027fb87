"""One record per game kind (kiosk/kinds.py): every kind the registry makes has one, a view
finds its kind by its type, and nothing outside the record switches over the tables' classes
(`isinstance`), so a new game is one new record and its folders."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kiosk
from kiosk.access.authority import Role
from kiosk.kinds import KINDS, frame_of, of_view, tile_of
from kiosk.rules.bhukhar.record import SessionStart, Team
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.registry import LIFECYCLES, CarromStart, ClockStart, Fitted, Start
from kiosk.wiring import Tables

ROOT = Path(kiosk.__file__).parent.parent
#: The classes that name a kind: its table, its view, its start.
KIND_CLASSES = (
    {k.table.__name__ for k in KINDS.values()}
    | {k.view.__name__ for k in KINDS.values()}
    | {k.lifecycle.start_type.__name__ for k in KINDS.values()}
)
#: Where a kind's own types may be tested: its record and its table's own modules.
OWN = (
    "kiosk/kinds.py",
    "kiosk/tables/carrom_",
    "kiosk/tables/backgammon_",
    "kiosk/tables/bhukhar_",
)
#: None left: the publisher is given its tiles by kind (the kiosk: `kinds.tile_of`).
LEFT: dict[str, int] = {}
TEAMS = (Team("A", ("Asha", "Bina", "Chetan")), Team("B", ("Dev", "Esha", "Farhan")))
STARTS: dict[str, Start] = {
    "carrom": CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")),
    "backgammon": ClockStart(("Nikos", "Eleni"), 5),
    "bhukhar": SessionStart(TEAMS),
}


def _switches() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name.startswith(OWN):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) != "isinstance":
                continue
            tested = node.args[1] if len(node.args) == 2 else None
            names = (
                {getattr(e, "id", getattr(e, "attr", "")) for e in ast.walk(tested)}
                if tested
                else set()
            )
            if names & KIND_CLASSES:
                found[name] = found.get(name, 0) + 1
    return found


def test_kinds_every_kind_the_registry_makes_has_its_record() -> None:
    assert list(KINDS) == list(LIFECYCLES)
    for name, kind in KINDS.items():
        assert kind.lifecycle is LIFECYCLES[name] and kind.screen == name


def test_kinds_no_isinstance_switch_over_the_tables_outside_the_record() -> None:
    assert _switches() == LEFT


@pytest.mark.parametrize("name", list(KINDS))
def test_kinds_a_table_finds_its_kind_its_tile_and_its_frame(name: str, tmp_path: Path) -> None:
    tables = Tables(tmp_path, Fitted(clock=lambda: 100.0, beams=(), camera=False))
    table = tables.create(STARTS[name], Role.DIRECTOR)
    view = table.view()
    kind = KINDS[table.kind]
    assert kind.name == name and isinstance(table, kind.table) and of_view(view) is kind
    tile = tile_of(view)
    assert tile is not None and tile["game"] == name
    assert frame_of(view) == kind.frame(view) is not None
    assert of_view(object()) is None and tile_of(object()) is frame_of(object()) is None
    tables.close_all()


def test_kinds_only_the_carrom_table_takes_the_sensors() -> None:
    assert {name for name, kind in KINDS.items() if kind.sensors} == {"carrom"}
