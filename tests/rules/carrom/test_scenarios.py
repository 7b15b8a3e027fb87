"""Known-answer scenarios: every tests/data/carrom/NAME.jsonl replayed against NAME.expected.json.

Like python-chess's perft files: the data lives in files, one generic runner
checks them. An expectation is either the `tableside replay --json` object
(worked out by hand from the laws; only the keys it names are compared, every
list in full) or `{"error": {"line": N, "reason": "fragment"}}` for a record
that must be refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.carrom.record import MatchRecordError, match_to_json, replay_text

DATA = Path(__file__).resolve().parents[2] / "data" / "carrom"
SCENARIOS = sorted(DATA.glob("*.jsonl"))


def _expected(record: Path) -> Any:
    return json.loads(record.with_name(record.stem + ".expected.json").read_text("utf-8"))


def project(actual: Any, expected: Any) -> Any:
    """`actual` cut down to the keys `expected` names (lists keep their length)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {key: project(actual[key], expected[key]) for key in expected if key in actual}
    if isinstance(expected, list) and isinstance(actual, list) and len(actual) == len(expected):
        return [project(a, e) for a, e in zip(actual, expected, strict=True)]
    return actual


def test_scenarios_folder_is_not_empty() -> None:
    assert len(SCENARIOS) >= 20
    for record in SCENARIOS:
        assert record.with_name(record.stem + ".expected.json").exists(), record.name


@pytest.mark.parametrize("record", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(record: Path) -> None:
    expected = _expected(record)
    text = record.read_text("utf-8")
    if "error" in expected:
        with pytest.raises(MatchRecordError) as exc:
            replay_text(text)
        assert exc.value.line == expected["error"]["line"], exc.value
        assert expected["error"]["reason"] in exc.value.reason
        return
    actual = match_to_json(replay_text(text))
    assert project(actual, expected) == expected
