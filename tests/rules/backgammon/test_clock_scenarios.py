"""Every scenario in tests/data/clock/ through one runner: `tableside clock replay`.

NAME.jsonl with NAME.json: the --json output, line by line.
NAME.jsonl with NAME.txt: the human-readable output.
NAME.jsonl with NAME.err: the record is refused; the file holds `LINE: reason`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "clock"
RECORDS = sorted(DATA.glob("*.jsonl"))


def test_clock_scenarios_are_there() -> None:
    assert len(RECORDS) >= 30
    for record in RECORDS:
        expected = [record.with_suffix(s) for s in (".json", ".txt", ".err")]
        assert any(p.exists() for p in expected), f"{record.name} has no expected output"


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_clock_scenario(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err_file = record.with_suffix(".err")
    if err_file.exists():
        code = main(["clock", "replay", str(record), "--json"])
        out, err = capsys.readouterr()
        assert code == 1
        assert out == ""
        assert err == f"{record}:{err_file.read_text(encoding='utf-8').strip()}\n"
        return
    json_file = record.with_suffix(".json")
    if json_file.exists():
        assert main(["clock", "replay", str(record), "--json"]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        got = [json.loads(line) for line in out.splitlines()]
        want = [json.loads(line) for line in json_file.read_text(encoding="utf-8").splitlines()]
        assert got == want
        # The spec's key order, so the output reads the same as the spec's example.
        assert list(got[0]) == [
            "t", "running", "banks", "delay_left", "score", "crawford", "winner", "flagged",
            "breaks_left", "must_wait",
        ]  # fmt: skip
    txt_file = record.with_suffix(".txt")
    if txt_file.exists():
        assert main(["clock", "replay", str(record)]) == 0
        out, _ = capsys.readouterr()
        assert out == txt_file.read_text(encoding="utf-8")


def test_clock_replay_missing_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["clock", "replay", str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{missing}: cannot read")
