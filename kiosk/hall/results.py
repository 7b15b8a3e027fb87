"""The hall's results, rebuilt from the hall record by the same code the kiosk uses.

- carrom: each match's record (shared/spec/match-record.md: the match line, then the confirmed
  events that stand) replayed by the rules core; a finished one is a result, and its record
  is what `tableside replay` reads;
- backgammon: each clock record (shared/spec/clock-record.md) replayed to its last state;
- Bhukhar: every table's session records read as one, merged into one standings table by
  kiosk/rules/bhukhar/standings.py (master points, bonus, best game: rule 19).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from typing import Any

from kiosk.hall.record import HallRecord


def confirmed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that stand: each "event", minus those undone (as the kiosk's journal)."""
    stack: list[dict[str, Any]] = []
    for e in events:
        if e["kind"] == "event":
            stack.append(e["data"])
        elif e["kind"] == "undo" and stack:
            stack.pop()
    return stack


def record_text(header: dict[str, Any], events: list[dict[str, Any]]) -> str:
    lines = [header, *confirmed(events)]
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def carrom_results(record: HallRecord) -> list[dict[str, Any]]:
    from kiosk.rules.carrom.errors import IllegalEvent
    from kiosk.rules.carrom.events import EventError
    from kiosk.rules.carrom.record import replay_text

    out = []
    chain = _chain(record)
    for m in record.matches("carrom"):
        text = record_text(m["header"], record.events(m["hall"], m["table"], m["match"]))
        try:
            state = replay_text(text).state
        except (EventError, IllegalEvent, ValueError) as exc:
            out.append({**_where(m, chain), "error": str(exc)})
            continue
        out.append(
            {
                **_where(m, chain),
                "players": list(state.players),
                "sides": list(state.sides),
                "games_won": dict(state.games_won),
                "winner": state.winner,
                "finished": state.winner is not None,
                # Laws 144-151: while a protest waits no result is declared (150).
                "under_protest": state.protest_pending,
                "provisional_winner": state.provisional_winner,
                "protests": [
                    {"by": p.by, "board": list(p.board), "decision": p.decision}
                    for p in state.protests
                ],
            }
        )
    return out


def carrom_record(record: HallRecord, hall: str, table: str, match: str) -> str | None:
    for m in record.matches("carrom"):
        if (m["hall"], m["table"], m["match"]) == (hall, table, match):
            return record_text(m["header"], record.events(hall, table, match))
    return None


def backgammon_results(record: HallRecord) -> list[dict[str, Any]]:
    from kiosk.clocks.record import ClockRecordError, parse_clock_record
    from kiosk.rules.backgammon.clocked import replay_clock

    out = []
    chain = _chain(record)
    for m in record.matches("backgammon"):
        text = record_text(m["header"], record.events(m["hall"], m["table"], m["match"]))
        try:
            last = replay_clock(parse_clock_record(text))[-1]
        except (ClockRecordError, ValueError, IndexError) as exc:
            out.append({**_where(m, chain), "error": str(exc)})
            continue
        out.append(
            {
                **_where(m, chain),
                "players": list(last.banks),
                "score": dict(last.score),
                "winner": last.winner,
                "flagged": last.flagged,
                "finished": last.winner is not None,
            }
        )
    return out


def bhukhar_standings(record: HallRecord) -> dict[str, Any]:
    """Every Bhukhar session in the hall, merged: teams by id, each table's games."""
    from kiosk.rules.bhukhar.record import RecordError, parse_session
    from kiosk.rules.bhukhar.standings import standings

    teams: dict[str, str] = {}
    results: list[Any] = []
    problems = []
    headers = {(m["hall"], m["table"], m["match"]): m["header"] for m in record.matches("bhukhar")}
    for hall, table, match in record.boxes("bhukhar"):
        events = record.events(hall, table, match)
        # A session in the journal: its header is the record's first line, its events the
        # rest; a kiosk of before the one store sent the record's lines ("line") as they are.
        lines = [e["data"] for e in events if e["kind"] == "line"]
        if not lines and (hall, table, match) in headers:
            lines = [headers[hall, table, match]]
            lines += [e["data"] for e in events if e["kind"] == "event"]
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
        try:
            session = parse_session(text)
        except RecordError as exc:
            problems.append(f"{hall}/{table}/{match}:{exc.line}: {exc.reason}")
            continue
        for t in session.start.teams:
            teams.setdefault(t.id, t.name or t.id)
        results.extend(result for _, result in session.games())
    rows = standings(list(teams), results)
    chain = _chain(record)
    return {
        "chain": [
            f"{h}/{t}/{m}: {why}"
            for (h, t, m), whys in chain.items()
            if (h, t, m) in headers
            for why in whys
        ],
        "standings": [{**asdict(row), "name": teams[row.team]} for row in rows],
        "games": len(results),
        "problems": problems,
    }


#: What a spreadsheet takes a cell beginning with for a formula (or, tab and CR, for the
#: start of one: some read the next character as the cell's first).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: text beginning with one of `FORMULA_STARTS`
    (after any blanks) gets a leading apostrophe, shown as text and never evaluated
    (`=HYPERLINK(...)` is written `'=HYPERLINK(...)`). Numbers are left as they are: a
    number is not a formula."""
    if isinstance(value, str) and (
        value.startswith(FORMULA_STARTS) or value.lstrip().startswith(FORMULA_STARTS)
    ):
        return "'" + value
    return value


class SafeWriter:
    """`csv.writer` whose every cell goes through `cell`: the one way the hall writes CSV."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._w.writerow([cell(v) for v in row])


def results_csv(record: HallRecord) -> str:
    """One CSV of every result: carrom, backgammon, then the merged Bhukhar standings."""
    out = io.StringIO()
    w = SafeWriter(out)
    w.writerow(["game", "hall", "table", "match", "players", "score", "winner", "finished",
                "chain"])  # fmt: skip
    for r in carrom_results(record):
        score = " ".join(f"{k}:{v}" for k, v in r.get("games_won", {}).items())
        w.writerow(_row("carrom", r, score))
    for r in backgammon_results(record):
        score = " ".join(f"{k}:{v}" for k, v in r.get("score", {}).items())
        w.writerow(_row("backgammon", r, score))
    w.writerow([])
    w.writerow(["bhukhar place", "team", "name", "games", "master", "bonus", "best"])
    for s in bhukhar_standings(record)["standings"]:
        place = f"{s['place']}=" if s["shared"] else s["place"]
        w.writerow([place, s["team"], s["name"], s["games"], s["master"], s["bonus"], s["best"]])
    return out.getvalue()


def _row(game: str, r: dict[str, Any], score: str) -> list[Any]:
    players = " / ".join(r.get("players", []))
    chain = "; ".join(r.get("chain", [])) or "ok"
    return [game, r["hall"], r["table"], r["match"], players, score, r.get("winner") or "",
            r.get("finished", False), chain]  # fmt: skip


def _chain(record: HallRecord) -> dict[tuple[str, str, str], list[str]]:
    """The breaks in the chain the hall saw, by match (kiosk/hall/witness.py)."""
    out: dict[tuple[str, str, str], list[str]] = {}
    for b in record.breaks():
        out.setdefault((b["hall"], b["table"], b["match"]), []).append(b["reason"])
    return out


def _where(m: dict[str, Any], chain: dict[tuple[str, str, str], list[str]]) -> dict[str, Any]:
    """Which match, and the breaks in its chain ([]: the hall saw none)."""
    where = {"hall": m["hall"], "table": m["table"], "match": m["match"]}
    return {**where, "chain": chain.get((m["hall"], m["table"], m["match"]), [])}
