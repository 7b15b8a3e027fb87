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
import sqlite3
from dataclasses import dataclass, field
from typing import Any

GENESIS = ""


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
    body = json.dumps(
        ["entry", seq, match_id, t, wall, source, kind, data],
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
    return hashlib.sha256((prev + "\n" + body).encode("utf-8", "surrogatepass")).hexdigest()


def match_hash(prev: str, seq: int, match_id: int, kind: str, header: str, wall: float) -> str:
    """The hash of one match row (its first line and start), chained on `prev`."""
    body = json.dumps(
        ["match", seq, match_id, kind, header, wall],
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
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


def chained_rows(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """Every chained row in sequence order: (seq, prev, hash, kind-of-row, recomputed hash
    input...). Matches without a sequence number (schema 1) are left out."""
    rows: list[tuple[Any, ...]] = []
    for seq, prev, digest, mid, t, wall, source, kind, data in db.execute(
        "SELECT seq, prev, hash, match_id, t, wall, source, kind, data FROM entries"
    ):
        rows.append((seq, prev, digest, ("entry", mid, t, wall, source, kind, data)))
    for seq, prev, digest, mid, kind, header, wall in db.execute(
        "SELECT seq, prev, hash, id, kind, header, wall_start FROM matches WHERE seq IS NOT NULL"
    ):
        rows.append((seq, prev, digest, ("match", mid, kind, header, wall)))
    rows.sort(key=lambda r: (r[0], r[3][0]))
    return rows


def recompute(prev: str, seq: int, body: tuple[Any, ...]) -> str:
    if body[0] == "entry":
        _, mid, t, wall, source, kind, data = body
        return entry_hash(prev, seq, mid, float(t), float(wall), source, kind, data)
    _, mid, kind, header, wall = body
    return match_hash(prev, seq, mid, kind, header, float(wall))


def verify_chain(db: sqlite3.Connection, chain_from: int) -> ChainReport:
    """Check every row from `chain_from` on: contiguous numbers, each hash right, each row
    pointing at the one before. Rows before `chain_from` are counted as unchained."""
    report = ChainReport()
    expected_prev = GENESIS
    expected_seq = chain_from
    broken = False
    for seq, prev, digest, body in chained_rows(db):
        report.rows += 1
        report.last_seq = seq
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
