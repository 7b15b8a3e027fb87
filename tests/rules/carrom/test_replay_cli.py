"""`tableside replay FILE [--json]` through kiosk.cli.main and through the installed script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.rules.carrom.record import match_to_json, replay_text

DATA = Path(__file__).resolve().parents[2] / "data" / "carrom"
SCRIPT = Path(sys.executable).with_name("tableside")
REQUIRED_NOW: dict[str, type | tuple[type, ...]] = {
    "game": int,
    "board": int,
    "breaker": str,
    "turn": str,
    "white": str,
    "on_board": dict,
    "queen": str,
    "queen_by": (str, type(None)),
    "owed": dict,
    "break_attempts": int,
    "change_sides": bool,
}


def test_replay_cli_json_prints_the_spec_object(capsys: pytest.CaptureFixture[str]) -> None:
    record = DATA / "icf_board_in_progress.jsonl"
    assert main(["replay", str(record), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert data == match_to_json(replay_text(record.read_text("utf-8")))
    assert list(data)[:5] == ["rules", "sides", "winner", "games", "now"]
    assert data["rules"] == "icf"
    assert data["sides"] == ["Asha", "Bina"]
    assert data["winner"] is None
    for key, kind in REQUIRED_NOW.items():
        assert isinstance(data["now"][key], kind), key
    for board in data["games"][0]["boards"]:
        assert set(board) >= {"breaker", "winner", "points", "queen", "void", "protest"}
        assert board["protest"] is None
    assert list(data)[5:7] == ["protests", "provisional_winner"]
    assert data["protests"] == [] and data["provisional_winner"] is None


def test_law_150_replay_cli_json_and_scoresheet_under_protest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = str(DATA / "icf_law_150_protest_pending_no_result.jsonl")
    assert main(["replay", record, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] is None and data["provisional_winner"] == "Asha"
    assert data["protests"] == [{"by": "Bina", "board": [2, 1], "decision": None}]
    assert data["games"][1]["boards"][0]["protest"] == "pending"
    assert main(["replay", record]) == 0
    out = capsys.readouterr().out
    assert "1  Bina     Asha (protest pending)      12" in out
    assert "  Bina against board 1 of game 2: undecided (law 150: no result is declared)" in out
    assert out.rstrip().endswith(
        "Match under protest: Asha won on the board; no result is declared until the protest "
        "is decided (law 150)."
    )


def test_law_146_replay_cli_refuses_a_late_protest_by_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = DATA / "error_law_146_protest_too_late.jsonl"
    assert main(["replay", str(record), "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"{record}:7: board 1 of game 1 ended 16 minutes ago: a protest is lodged within "
        "15 minutes (law 146)\n"
    )


def test_replay_cli_json_now_is_null_once_the_match_is_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(DATA / "icf_concede.jsonl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["now"] is None
    assert data["winner"] == "Asha"


def test_replay_cli_prints_the_scoresheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "icf_board_in_progress.jsonl")]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("Carrom match: Asha v Bina")
    assert "Now: game 1, board 2" in out
    assert out.rstrip().endswith("Match in progress: games Asha v Bina 0-0.")


def test_replay_cli_bad_record_prints_file_line_reason_and_nothing_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bad.jsonl"
    # Eleven good lines first: a refused record must print none of them.
    good = (DATA / "icf_singles_match.jsonl").read_text("utf-8").splitlines()[:15]
    record.write_text("\n".join([*good, '{"event": "foul", "by": "Chitra"}']) + "\n")
    for argv in (["replay", str(record)], ["replay", str(record), "--json"]):
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"{record}:16: ")
        assert "'Chitra' is not a player" in err


def test_replay_cli_missing_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["replay", str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{missing}: cannot read the record")


def test_replay_cli_text_that_is_not_utf8_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "latin1.jsonl"
    record.write_bytes(
        (DATA / "icf_concede.jsonl").read_bytes() + b'{"event": "foul", "by": "J\xe9r\xf4me"}\n'
    )
    assert main(["replay", str(record)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = (DATA / "icf_concede.jsonl").read_bytes().count(b"\n") + 1
    assert err == f"{record}:{lines}: not UTF-8 text\n"


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed")
def test_replay_cli_installed_console_script(tmp_path: Path) -> None:
    good = subprocess.run(
        [str(SCRIPT), "replay", str(DATA / "icf_singles_match.jsonl"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert good.stderr == ""
    assert json.loads(good.stdout)["winner"] == "Asha"

    bad = subprocess.run(
        [str(SCRIPT), "replay", str(DATA / "error_not_json.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert bad.stderr.startswith(f"{DATA / 'error_not_json.jsonl'}:4: not JSON")
