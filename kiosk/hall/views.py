"""What the hall's board shows of a table: its view, made small (the `state` topic's "tile").

Volatile numbers (a timer's tenths) are kept apart from the rest, so the publisher can send a
real change at once and a ticking timer only now and then: the board counts the timer down
itself from the data's time.
"""

from __future__ import annotations

from typing import Any

from kiosk.engine.faults import fault_to_json
from kiosk.tables.backgammon_table import ClockView
from kiosk.tables.bhukhar_table import BhukharView
from kiosk.tables.carrom_view import CarromView

#: Keys of a tile that tick by themselves; a change in them alone is not urgent.
VOLATILE = ("timer", "banks", "delay", "left", "t")


def carrom_tile(view: CarromView) -> dict[str, Any]:
    state, now = view.state, None if view.state is None else view.state.now
    texts = {(g, b): {"words": w, "receipt": r} for g, b, w, r in view.protest_texts}
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
        # Protests (laws 144-151): the board counts the officials' hour down itself from
        # each protest's `t` and the tile's (151 c); no result while one waits (150).
        "provisional_winner": None if state is None else state.provisional_winner,
        "protests": []
        if state is None
        else [
            {
                "by": p.by,
                "board": list(p.board),
                "decision": p.decision,
                "t": p.t,
                **texts.get((p.board[0], p.board[1]), {}),  # its words and fee receipt, as lodged
            }
            for p in state.protests
        ],
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


def bhukhar_tile(view: BhukharView) -> dict[str, Any]:
    """A Bhukhar table's view (kiosk/tables/bhukhar_table.py) as its tile."""
    return {
        "game": "bhukhar",
        "match": str(view.match_id),
        "round": view.round,
        "left": round(view.left, 1),
        "running": bool(view.running and not view.time_called),
        "time_called": view.time_called,
        "games": view.games,
        "faults": [],
    }


def steady(tile: dict[str, Any]) -> dict[str, Any]:
    """The tile without its ticking numbers (a timer's running state is kept)."""
    out = {k: v for k, v in tile.items() if k not in VOLATILE}
    timer = tile.get("timer")
    if isinstance(timer, dict):
        out["timer"] = {k: v for k, v in timer.items() if k != "left"}
    if "running" in tile:
        out["running"] = tile["running"]
    return out
