"""What the hall accepts from a table: every MQTT message checked before it is used.

Any table's password sits in a kiosk's settings, so whatever arrives on a table's topics is
treated as hostile until it is shown to be what docs/hall.md ("Topics") says: the size, the
JSON's depth, each field's type and range, the sequence numbers (positive, each event after
the one it names), and the hall and table inside matching the topic it came on. A message
that is not is refused with a `Refused` saying why; the listener counts it, logs it with its
table and topic, and drops it (kiosk/hall/listener.py). Keys the board does not use are let
through (a newer kiosk may send more), within the size.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from kiosk.hall import topics

#: The largest payload taken per topic (bytes); a journal entry is well under 2 KiB.
MAX_BYTES = {
    topics.EVENTS: 64 * 1024,
    topics.STATE: 32 * 1024,
    topics.CALL: 2 * 1024,
    topics.STATUS: 16,
    topics.DECIDE: 1024,
}
#: Objects and arrays nested deeper than this are refused (a tile is 3 deep, an event 4).
MAX_DEPTH = 12
#: Sequence numbers stay within what JSON numbers and SQLite integers hold exactly.
MAX_SEQ = 2**53
ID = re.compile(r"[A-Za-z0-9_.-]{1,80}")
HEX64 = re.compile(r"[0-9a-f]{64}")
GAMES = ("carrom", "backgammon", "bhukhar")
#: Journal entry kinds the hall stores ("line": a Bhukhar record line of an older kiosk).
KINDS = ("event", "undo", "line")


class Refused(ValueError):
    """A message not taken, and why (in words for the log and the tile)."""


def _no_constant(name: str) -> float:
    raise Refused(f"{name} is not a number JSON allows")


def parse(payload: bytes, what: str) -> Any:
    """The payload's JSON, within the topic's size and MAX_DEPTH."""
    limit = MAX_BYTES.get(what, 2 * 1024)
    if len(payload) > limit:
        raise Refused(f"{len(payload)} bytes, more than the {limit} allowed on {what}")
    try:
        text = payload.decode("utf-8")
        data = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Refused("not UTF-8 text") from None
    except RecursionError:
        raise Refused(f"JSON nested deeper than {MAX_DEPTH}") from None
    except json.JSONDecodeError as exc:
        raise Refused(f"not JSON: {exc.msg} at character {exc.pos}") from None
    # No more openers than the depth allowed, no need to walk it (a tile has about 8).
    if payload.count(b"[") + payload.count(b"{") > MAX_DEPTH and _depth(data) > MAX_DEPTH:
        raise Refused(f"JSON nested deeper than {MAX_DEPTH}")
    # Text must be Unicode that encodes: JSON's "\ud800" alone is a lone surrogate, legal
    # JSON, but no UTF-8 holds it, so the board could never send it on. Only a payload with
    # a surrogate escape can hold one: the rest is not walked.
    if _SURROGATE_ESCAPE.search(payload) is not None and (where := _unencodable(data)):
        raise Refused(f"{where}: text that is not Unicode (a lone surrogate)")
    return data


#: A JSON escape of a UTF-16 surrogate (a pair makes one character; alone it is none).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def encodes(text: str) -> bool:
    """Whether `text` is Unicode that UTF-8 holds (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unencodable(value: Any, where: str = "") -> str | None:
    """Where in `value` a key or a text does not encode ("tile.players[0]"; None: nowhere)."""
    if isinstance(value, str):
        return None if encodes(value) else (where or "the message")
    if isinstance(value, dict):
        for key, item in value.items():
            if not encodes(key):
                return f"a key in {where or 'the message'}"
            if (found := _unencodable(item, f"{where}.{key}" if where else key)) is not None:
                return found
    elif isinstance(value, list):
        for n, item in enumerate(value):
            if (found := _unencodable(item, f"{where}[{n}]")) is not None:
                return found
    return None


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


# -- field checkers: each returns None when the value is right, else what is wrong ----------

Check = Callable[[Any], str | None]


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return "must be a whole number"
        return None if lo <= v <= hi else f"must be from {lo} to {hi}, not {v}"

    return check


def _num(lo: float = -1e15, hi: float = 1e15) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            return "must be a number"
        return None if lo <= v <= hi else f"must be from {lo:g} to {hi:g}"

    return check


def _str(most: int = 200) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, str):
            return "must be text"
        if len(v) > most:
            return f"longer than {most} characters"
        return None if encodes(v) else "must be Unicode text (not a lone surrogate)"

    return check


def _id(v: Any) -> str | None:
    return None if isinstance(v, str) and ID.fullmatch(v) else "must be an id (letters, digits)"


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _obj(v: Any) -> str | None:
    return None if isinstance(v, dict) else "must be an object"


def _one_of(*allowed: Any) -> Check:
    def check(v: Any) -> str | None:
        return None if v in allowed else f"must be one of {', '.join(map(str, allowed))}"

    return check


def _or_null(check: Check) -> Check:
    def nullable(v: Any) -> str | None:
        return None if v is None else check(v)

    return nullable


def _list_of(check: Check, most: int = 20) -> Check:
    def checked(v: Any) -> str | None:
        if not isinstance(v, list):
            return "must be a list"
        if len(v) > most:
            return f"more than {most} items"
        for n, item in enumerate(v):
            if (why := check(item)) is not None:
                return f"item {n} {why}"
        return None

    return checked


def _map_of(check: Check, most: int = 20) -> Check:
    def checked(v: Any) -> str | None:
        if not isinstance(v, dict):
            return "must be an object"
        if len(v) > most:
            return f"more than {most} keys"
        for key, item in v.items():
            if (why := check(item)) is not None:
                return f"{key!r} {why}"
        return None

    return checked


def _fields(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None) -> Check:
    def checked(v: Any) -> str | None:
        if not isinstance(v, dict):
            return "must be an object"
        for key, check in required.items():
            if key not in v:
                return f"has no {key!r}"
            if (why := check(v[key])) is not None:
                return f"{key!r} {why}"
        for key, check in (optional or {}).items():
            if key in v and (why := check(v[key])) is not None:
                return f"{key!r} {why}"
        return None

    return checked


_HASH = _or_null(lambda v: None if isinstance(v, str) and HEX64.fullmatch(v) else "must be a "
                 "SHA-256 in hex")  # fmt: skip
_PREV_HASH = _or_null(
    lambda v: (
        None
        if isinstance(v, str) and (v == "" or HEX64.fullmatch(v))
        else "must be a SHA-256 in hex"
    )
)
_NAME = _str(80)
_SMALL = _int(0, 10_000)
_FAULT = _fields({"message": _str(500)}, {"part": _or_null(_str(80))})
_FAULTS = _list_of(_FAULT, 20)
_TIMER = _or_null(
    _fields({"kind": _str(40), "left": _num(), "running": _bool}, {"length": _or_null(_num())})
)


def _board(v: Any) -> str | None:
    """A protested board, [game, board] (laws 144-151)."""
    if not isinstance(v, list) or len(v) != 2:
        return "must be [game, board]"
    return _list_of(_int(1, 10_000), 2)(v)


_BOARD = _board
_PROTEST = _fields(
    {"by": _NAME, "board": _BOARD, "decision": _or_null(_one_of("upheld", "rejected"))},
    {"t": _or_null(_num()), "words": _str(2000), "receipt": _str(80)},
)

#: A tile as the board draws it (kiosk/hall/views.py, kiosk/hall/static/hall.js).
TILES: dict[str, Check] = {
    "carrom": _fields(
        {"players": _list_of(_NAME, 4), "sides": _list_of(_NAME, 4)},
        {
            "match": _or_null(_str(80)),
            "phase": _or_null(_str(40)),
            "games_won": _map_of(_SMALL, 4),
            "score": _map_of(_int(-1000, 1000), 4),
            "game_no": _or_null(_SMALL),
            "board_no": _or_null(_SMALL),
            "queen": _or_null(_str(40)),
            "queen_by": _or_null(_NAME),
            "turn": _or_null(_NAME),
            "winner": _or_null(_NAME),
            "provisional_winner": _or_null(_NAME),
            "protests": _list_of(_PROTEST, 40),
            "events": _int(0, MAX_SEQ),
            "timer": _TIMER,
            "faults": _FAULTS,
            "t": _or_null(_num()),
        },
    ),
    "backgammon": _fields(
        {"players": _list_of(_NAME, 2), "banks": _map_of(_num(), 2)},
        {
            "match_length": _or_null(_SMALL),
            "score": _map_of(_SMALL, 2),
            "delay": _num(),
            "running": _or_null(_NAME),
            "paused": _bool,
            "crawford": _bool,
            "winner": _or_null(_NAME),
            "flagged": _or_null(_NAME),
            "events": _int(0, MAX_SEQ),
            "faults": _FAULTS,
            "t": _or_null(_num()),
        },
    ),
    "bhukhar": _fields(
        {"round": _SMALL, "left": _num()},
        {
            "match": _or_null(_str(80)),
            "running": _bool,
            "time_called": _bool,
            "games": _SMALL,
            "faults": _FAULTS,
        },
    ),
}

_EVENT = _fields(
    {
        "seq": _int(1, MAX_SEQ), "prev": _int(0, MAX_SEQ), "outbox": _id, "match": _id,
        "game": _one_of(*GAMES), "kind": _one_of(*KINDS), "data": _obj,
        "t": _num(), "wall": _num(0, 1e11),
    },
    {
        "hash": _HASH, "prev_hash": _PREV_HASH, "header": _obj, "source": _str(40),
        "finished": _bool, "hall": _id, "table": _id,
    },
)  # fmt: skip
_STATE = _fields(
    {"tile": _obj, "seq": _int(0, MAX_SEQ), "wall": _num(0, 1e11), "heartbeat": _num(0.5, 600)},
    {
        "outbox": _map_of(_int(0, MAX_SEQ), 16),
        "keepalive": _num(1, 3600),
        "hall": _id,
        "table": _id,
    },
)
_CALL = _fields(
    {"id": _int(0, MAX_SEQ)}, {"reason": _str(500), "wall": _or_null(_num()), "hall": _id,
                               "table": _id}
)  # fmt: skip


def _own(data: dict[str, Any], hall: str, table: str) -> None:
    """A table speaks only for itself: a hall or table named inside must be the topic's."""
    for key, want in (("hall", hall), ("table", table)):
        if key in data and data[key] != want:
            raise Refused(f"says {key} {data[key]!r} on the topic of {want!r}")


def _checked(check: Check, data: Any, what: str) -> dict[str, Any]:
    if (why := check(data)) is not None:
        raise Refused(f"{what}: {why}")
    assert isinstance(data, dict)
    return data


def event(payload: bytes, hall: str, table: str) -> dict[str, Any]:
    """An `events` message: one journal entry."""
    data = _checked(_EVENT, parse(payload, topics.EVENTS), "event")
    _own(data, hall, table)
    if data["prev"] >= data["seq"]:
        raise Refused(f"event: seq {data['seq']} does not come after the prev {data['prev']}")
    return data


def state(payload: bytes, hall: str, table: str) -> dict[str, Any]:
    """A `state` message: the table's tile and how far its outboxes go."""
    data = _checked(_STATE, parse(payload, topics.STATE), "state")
    _own(data, hall, table)
    tile = data["tile"]
    game = tile.get("game")
    if game not in TILES:
        raise Refused(f"state: the tile's game must be one of {', '.join(GAMES)}")
    _checked(TILES[game], tile, f"state: {game} tile")
    for box in data.get("outbox", {}):
        if not ID.fullmatch(box):
            raise Refused(f"state: outbox {box[:80]!r} is not an id")
    return data


def call(payload: bytes, hall: str, table: str) -> dict[str, Any]:
    """A `call` message: the umpire's "Call director"."""
    data = _checked(_CALL, parse(payload, topics.CALL), "call")
    _own(data, hall, table)
    return data


_DECISION = _fields(
    {"id": _int(1, MAX_SEQ), "match": _id, "board": _BOARD, "upheld": _bool},
    {"wall": _or_null(_num(0, 1e11)), "hall": _id, "table": _id},
)


def decision(payload: bytes, hall: str, table: str) -> dict[str, Any]:
    """A `protest/decide` message, as the kiosk takes it: the director's decision on the
    protest against `board` = [game, board] of the table's match `match` (laws 144-151).
    Only the director's user may write the topic (the ACL); the kiosk checks it all the
    same, as the hall checks what tables send."""
    data = _checked(_DECISION, parse(payload, topics.DECIDE), "decision")
    _own(data, hall, table)
    return data


def status(payload: bytes) -> str:
    """A `status` message: "online" or "offline", nothing else."""
    if payload in (topics.ONLINE.encode(), topics.OFFLINE.encode()):
        return payload.decode()
    raise Refused(f"status must be {topics.ONLINE} or {topics.OFFLINE}, not {payload[:16]!r}")
