"""docs/match-record.md's examples are real: its record replays to its JSON and its scoresheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kiosk.rules.carrom.events import EVENT_TYPES, event_from_dict
from kiosk.rules.carrom.record import match_to_json, replay_text
from kiosk.rules.carrom.scoresheet import render

DOC = Path(__file__).resolve().parents[3] / "docs" / "match-record.md"


def _blocks() -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", DOC.read_text("utf-8"), flags=re.S)


def test_record_docs_example_replays_to_the_documented_json_and_scoresheet() -> None:
    blocks = _blocks()
    record = next(b for b in blocks if b.startswith("# Asha v Bina"))
    documented = next(b for b in blocks if b.startswith("{\n") and '"now"' in b)
    sheet = next(b for b in blocks if b.startswith("Carrom match:"))
    match = replay_text(record)
    assert match_to_json(match) == json.loads(documented)
    assert render(match_to_json(match)) == sheet


def test_record_docs_every_event_shown_is_read() -> None:
    text = DOC.read_text("utf-8")
    shown = re.findall(r'\{"event": "[a-z_]+".*?\}(?=`|\n)', text)
    kinds = {event_from_dict(json.loads(line)).__class__ for line in shown}
    assert kinds == set(EVENT_TYPES.values())


def test_record_docs_change_of_sides_example_is_the_scenarios_scoresheet() -> None:
    shown = next(b for b in _blocks() if b.startswith("Game 1: won by Asha, 33-0"))
    record = (
        DOC.parents[1] / "tests" / "data" / "carrom" / "icf_law_58_change_sides_after_a_game.jsonl"
    )
    assert shown in render(match_to_json(replay_text(record.read_text("utf-8"))))


def test_law_151_a_record_docs_protest_example_is_its_scoresheet() -> None:
    blocks = _blocks()
    record = next(b for b in blocks if b.startswith("# A protest against board 1"))
    shown = next(b for b in blocks if b.startswith("Game 1, in progress: 0-0"))
    assert shown in render(match_to_json(replay_text(record)))
