"""The journal's hash chain: every row carries the SHA-256 of its own content and of the row
before it, so a lost, changed or reordered row is found and named by its sequence number.

Matches and entries share one sequence: a match row takes the next number when it begins, its
entries the numbers after it. The hashed text is canonical JSON of the row's stored columns (the
`data` and `header` columns are hashed as the text stored, byte for byte) followed by the
previous row's hash; the first row's previous hash is empty.

Journals written before the chain (schema 1) have rows without hashes: the migration records
`chain_from`, the first sequence number chained, and `verify` says how many rows are unchained.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _text
from typing import Any

GENESIS = ""


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a finite number")
    return float.__repr__(float(value))


def _id(value: int | None) -> str:
    return "null" if value is None else int.__repr__(int(value))


def entry_body(
    seq: int, match_id: int | None, t: float, wall: float, source: str, kind: str, data: str
) -> str:
    """The canonical JSON of an entry row, `["entry", seq, match, t, wall, source, kind, data]`
    as `json.dumps(..., ensure_ascii=False, separators=(",", ":"), allow_nan=False)` writes it,
    built directly: the start hashes every row, and this is twice as fast."""
    return (
        f'["entry",{_id(seq)},{_id(match_id)},{_number(t)},{_number(wall)},'
        f"{_text(source)},{_text(kind)},{_text(data)}]"
    )


def entry_hash(
    prev: str,
    seq: int,
    match_id: int | None,
    t: float,
    wall: float,
    source: str,
    kind: str,
    data: str,
) -> str:
    """The hash of one entry row, chained on `prev`."""
    body = entry_body(seq, match_id, t, wall, source, kind, data)
    return hashlib.sha256((prev + "\n" + body).encode("utf-8", "surrogatepass")).hexdigest()


def match_hash(prev: str, seq: int, match_id: int, kind: str, header: str, wall: float) -> str:
    """The hash of one match row (its first line and start), chained on `prev`."""
    body = f'["match",{_id(seq)},{_id(match_id)},{_text(kind)},{_text(header)},{_number(wall)}]'
    return hashlib.sha256((prev + "\n" + body).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class ChainReport:
    """What `verify_chain` found: `problems` name sequence numbers; `notes` are not faults."""

    rows: int = 0
    last_seq: int = 0
    last_hash: str = GENESIS
    unchained: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The last sequence number up to which every row checked out (0: none).
    good_until: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


#: Rows as the chain reads them: (seq, prev, hash, body, mac); body is ("entry", match, t,
#: wall, source, kind, data-text) or ("match", id, kind, header-text, wall_start).
Row = tuple[int, str | None, str | None, tuple[Any, ...], str | None]

_ENTRIES = "SELECT seq, prev, hash, match_id, t, wall, source, kind, data{mac} FROM entries"
_MATCHES = (
    "SELECT seq, prev, hash, id, kind, header, wall_start{mac} FROM matches WHERE seq IS NOT NULL"
)


def _real(value: object) -> bool:
    return type(value) is float and math.isfinite(value)


def _is_text(value: object) -> bool:
    return type(value) is str


def _hash_or_none(value: object) -> bool:
    return value is None or type(value) is str


def _object_text(value: object) -> str | None:
    """Why a row's JSON column is not one JSON object (None: it is)."""
    if type(value) is not str:
        return f"is {type(value).__name__}, not JSON text"
    try:
        parsed = DECODER.decode(value)
    except (ValueError, RecursionError) as exc:
        return f"is not JSON ({str(exc)[:60]})"
    if not isinstance(parsed, dict):
        return f"is JSON {type(parsed).__name__}, not an object"
    return None


def _reject(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


#: The rows' JSON columns are read with this: NaN and Infinity are refused.
DECODER = json.JSONDecoder(parse_constant=_reject)


def entry_problem(row: tuple[Any, ...], full: bool = True) -> str | None:
    """What is wrong with an entry row's values (seq, prev, hash, match, t, wall, source,
    kind, data, ...), in words; None when it can be read. `full`: its data decoded as JSON too
    (without, only the types: enough to hash it; a row whose hash checks out was written by
    the journal, whose data is always a JSON object)."""
    _seq, prev, digest, mid, t, wall, source, kind, data = row[:9]
    if mid is not None and type(mid) is not int:
        return f"its match is {mid!r:.40}, not a number"
    if not _real(t):
        return f"its time t is {t!r:.40}, not a finite number"
    if not _real(wall):
        return f"its wall time is {wall!r:.40}, not a finite number"
    if not (_is_text(source) and _is_text(kind)):
        return "its source or kind is not text"
    if not (_hash_or_none(prev) and _hash_or_none(digest)):
        return "its hash is not text"
    if not full:
        return None if _is_text(data) else f"its data is {type(data).__name__}, not JSON text"
    why = _object_text(data)
    return None if why is None else f"its data {why}"


def match_problem(row: tuple[Any, ...], full: bool = True) -> str | None:
    _seq, prev, digest, mid, kind, header, wall = row[:7]
    if type(mid) is not int:
        return f"its id is {mid!r:.40}, not a number"
    if not _real(wall):
        return f"its start time is {wall!r:.40}, not a finite number"
    if not _is_text(kind):
        return "its kind is not text"
    if not (_hash_or_none(prev) and _hash_or_none(digest)):
        return "its hash is not text"
    if not full:
        return None if _is_text(header) else f"its first line is {type(header).__name__}"
    why = _object_text(header)
    return None if why is None else f"its first line {why}"


def chained_rows(
    db: sqlite3.Connection, keyed: bool = False, full: bool = True
) -> tuple[list[Row], list[str]]:
    """Every row in sequence order, and the problems of rows that cannot be read (named by
    their number: a row whose values are not what the journal writes). Matches without a
    sequence number (schema 1) are left out. The tables are scanned whole, by row, so no
    index can hide a row."""
    rows: list[Row] = []
    problems: list[str] = []
    mac = ", mac" if keyed else ", NULL"
    for raw in db.execute(_ENTRIES.format(mac=mac)):
        seq = raw[0]
        why = (
            "its number is not a whole number" if type(seq) is not int else entry_problem(raw, full)
        )
        if why is not None:
            problems.append(f"entry {seq!r:.40}: cannot be read: {why}")
            continue
        rows.append((seq, raw[1], raw[2], ("entry", *raw[3:9]), raw[9]))
    for raw in db.execute(_MATCHES.format(mac=mac)):
        seq = raw[0]
        why = (
            "its number is not a whole number" if type(seq) is not int else match_problem(raw, full)
        )
        if why is not None:
            problems.append(f"entry {seq!r:.40} (a match's start): cannot be read: {why}")
            continue
        rows.append((seq, raw[1], raw[2], ("match", *raw[3:7]), raw[7]))
    rows.sort(key=lambda r: (r[0], r[3][0]))
    return rows, problems


def recompute(prev: str, seq: int, body: tuple[Any, ...]) -> str:
    if body[0] == "entry":
        _, mid, t, wall, source, kind, data = body
        return entry_hash(prev, seq, mid, float(t), float(wall), source, kind, data)
    _, mid, kind, header, wall = body
    return match_hash(prev, seq, mid, kind, header, float(wall))


def verify_chain(
    db: sqlite3.Connection | None,
    chain_from: int,
    rows: list[Row] | None = None,
    bad: Sequence[str] = (),
) -> ChainReport:
    """Check every row from `chain_from` on: contiguous numbers, each hash right, each row
    pointing at the one before. Rows before `chain_from` are counted as unchained. A row
    that cannot be read at all is a problem too (`rows` when read already, problems and all,
    are checked as given)."""
    report = ChainReport()
    if rows is None:
        assert db is not None, "the rows, or the journal to read them from"
        rows, bad = chained_rows(db)
    report.problems.extend(bad)
    expected_prev = GENESIS
    expected_seq = chain_from
    broken = bool(report.problems)
    for seq, prev, digest, body, _mac in rows:
        report.rows += 1
        report.last_seq = seq
        if seq < 1:  # the journal numbers from 1: a row before it was put there by hand
            report.problems.append(f"entry {seq}: numbered before the journal's first entry")
            broken = True
            continue
        if seq < chain_from or digest is None:
            if seq >= chain_from:
                report.problems.append(f"entry {seq}: no hash (written outside the journal?)")
                broken = True
            else:
                report.unchained += 1
            continue
        if seq != expected_seq:
            if seq < expected_seq:
                report.problems.append(f"entry {seq}: its number is used twice")
            else:
                gap = (
                    f"entry {expected_seq}"
                    if seq == expected_seq + 1
                    else f"entries {expected_seq}-{seq - 1}"
                )
                report.problems.append(f"{gap}: lost (the numbers jump to {seq})")
            broken = True
        if prev != expected_prev:
            report.problems.append(
                f"entry {seq}: does not follow the entry before it (out of order or one lost)"
            )
            broken = True
        if recompute(prev or GENESIS, seq, body) != digest:
            report.problems.append(f"entry {seq}: its content was changed after it was written")
            broken = True
        if not broken:
            report.good_until = seq
        expected_prev = digest
        expected_seq = seq + 1
        report.last_hash = digest
    if report.unchained:
        report.notes.append(
            f"{report.unchained} entries before number {chain_from} were written before the"
            " hash chain existed and are not checked"
        )
    return report
