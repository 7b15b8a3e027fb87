"""What the hall's board shows of a table: its view, made small (the `state` topic's "tile").

Volatile numbers (a timer's tenths) are kept apart from the rest, so the publisher can send a
real change at once and a ticking timer only now and then: the board counts the timer down
itself from the data's time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.engine.clock_table import ClockView
from kiosk.engine.publish import fault_to_json
from kiosk.engine.session import CarromView

#: Keys of a tile that tick by themselves; a change in them alone is not urgent.
VOLATILE = ("timer", "banks", "delay", "left", "t")


def carrom_tile(view: CarromView) -> dict[str, Any]:
    state, now = view.state, None if view.state is None else view.state.now
    return {
        "game": "carrom",
        "match": None if view.match_id is None else str(view.match_id),
        "phase": view.phase,
        "players": [] if state is None else list(state.players),
        "sides": [] if state is None else list(state.sides),
        "games_won": {} if state is None else dict(state.games_won),
        "score": {} if state is None else dict(state.score),
        "game_no": None if now is None else now.game,
        "board_no": None if now is None else now.board,
        "queen": None if now is None else now.queen,
        "queen_by": None if now is None else now.queen_by,
        "turn": None if now is None else now.turn,
        "winner": None if state is None else state.winner,
        "events": view.events,
        "timer": None
        if view.timer is None
        else {
            "kind": view.timer.kind,
            "left": view.timer.remaining,
            "length": view.timer.length,
            "running": not view.timer.held,
        },
        "faults": [fault_to_json(f) for f in view.faults],
        "t": view.t,
    }


def clock_tile(view: ClockView) -> dict[str, Any]:
    snap = view.snapshot
    return {
        "game": "backgammon",
        "players": list(view.players),
        "match_length": view.match_length,
        "score": dict(snap.score),
        "banks": {p: round(b, 1) for p, b in snap.banks.items()},
        "delay": round(snap.delay_left, 1),
        "running": snap.running,
        "paused": view.paused,
        "crawford": view.crawford,
        "winner": view.winner,
        "flagged": view.flagged,
        "events": view.events,
        "faults": [],
        "t": snap.t,
    }


def bhukhar_tile(table: Any, now: float) -> dict[str, Any]:
    """A Bhukhar table (kiosk/engine/bhukhar_table.py `BhukharTable`) at monotonic `now`."""
    timer = table.timer
    return {
        "game": "bhukhar",
        "match": table.path.stem,
        "round": table.round,
        "left": round(table.remaining(now), 1),
        "running": bool(timer.running and not table.time_called(now)),
        "time_called": table.time_called(now),
        "games": len(table.games()),
        "faults": [],
    }


def tile_of(view: Any) -> dict[str, Any] | None:
    if isinstance(view, CarromView):
        return carrom_tile(view)
    if isinstance(view, ClockView):
        return clock_tile(view)
    return None


def steady(tile: dict[str, Any]) -> dict[str, Any]:
    """The tile without its ticking numbers (a timer's running state is kept)."""
    out = {k: v for k, v in tile.items() if k not in VOLATILE}
    timer = tile.get("timer")
    if isinstance(timer, dict):
        out["timer"] = {k: v for k, v in timer.items() if k != "left"}
    if "running" in tile:
        out["running"] = tile["running"]
    return out


def bhukhar_tile_from_record(path: Path, wall: float) -> dict[str, Any] | None:
    """A Bhukhar table's tile read from its session record alone (the round timer's lines
    carry the wall time, as when the kiosk resumes): None if the record cannot be read."""
    from kiosk.rules.bhukhar.record import GameEntry, RecordError, TimerEntry, parse_session

    try:
        session = parse_session(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecordError):
        return None
    rounds = [e.round for e in session.events if isinstance(e, GameEntry | TimerEntry)]
    timer = session.timer
    length = session.start.round_minutes * 60
    left = length if timer is None else timer.left
    running = timer is not None and timer.running
    if timer is not None and timer.running:
        left = max(0.0, left - max(0.0, wall - timer.at))
    return {
        "game": "bhukhar",
        "match": path.stem,
        "round": max(rounds, default=0),
        "left": round(left, 1),
        "running": running and left > 0,
        "time_called": running and left <= 0,
        "games": len(session.games()),
        "faults": [],
    }
