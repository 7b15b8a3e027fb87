"""The hall as the journal's witness (docs/hall.md, "The hall as witness").

Every journal row carries the hash of its content chained on the row before
(kiosk/engine/journal_chain.py), and the kiosk sends each event with its hash and the hash it
is chained on (`prev_hash`). The hall keeps both as it first heard them, so:

- an event whose hash is not its own content's is not the kiosk's: refused as bad data;
- an event sent again with another hash, or one that does not follow the event before it
  that the hall holds (seq - 1 of the same outbox), is a break in the chain: kept apart,
  shown on the tile and in the results;
- a journal changed after the fact (the chain recomputed over the change) no longer matches
  the hall's copy: `tableside hall verify TABLE JOURNAL` says at which entry (`compare`).
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.engine.journal_chain import GENESIS, entry_hash
from kiosk.engine.journal_rows import dumps
from kiosk.hall.record import HallRecord

#: The hall recomputes hashes only while the chain is the plain SHA-256 one it knows (eight
#: fields, no key): a keyed chain (the journal's next step) needs the director's key here,
#: and until then an event is never refused for a hash the hall cannot compute.
PLAIN_CHAIN = len(inspect.signature(entry_hash).parameters) == 8


def journal_match_id(match: str) -> int | None:
    """The journal's match number in the hall's match key ("3-1732380000" -> 3)."""
    head = match.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def content_hash(m: dict[str, Any]) -> str | None:
    """The chain hash of the event `m` as the kiosk's journal computes it from the event's
    own fields and `prev_hash`; None when the event does not carry what it takes (an older
    kiosk, a journal written before the chain)."""
    prev, match_id = m.get("prev_hash"), journal_match_id(str(m.get("match", "")))
    if (
        not PLAIN_CHAIN
        or not isinstance(prev, str)
        or match_id is None
        or not isinstance(m.get("source"), str)
    ):
        return None
    try:
        text = dumps(m["data"])
    except (TypeError, ValueError):
        return None
    return entry_hash(
        prev or GENESIS, int(m["seq"]), match_id, float(m["t"]), float(m["wall"]),
        m["source"], str(m["kind"]), text,
    )  # fmt: skip


def forged(m: dict[str, Any]) -> str | None:
    """Why the event's hash is not its own (None: it is, or it cannot be told)."""
    if m.get("hash") is None:
        return None
    own = content_hash(m)
    if own is None or own == m["hash"]:
        return None
    return f"entry {m['seq']}: its hash is not its content's"


@dataclass(frozen=True, slots=True)
class Difference:
    """Where a kiosk's journal and the hall's copy differ."""

    match: str
    seq: int
    what: str

    def __str__(self) -> str:
        return f"match {self.match}, entry {self.seq}: {self.what}"


def compare(
    record: HallRecord, hall: str, table: str, journal_path: Path
) -> tuple[str, list[Difference]]:
    """(the journal's outbox name, every difference) between the journal at `journal_path`
    (opened read-only, through the journal's own reading code) and the hall's copy of that
    outbox in `record` (a HallRecord)."""
    from kiosk.engine.journal import EVENT, UNDO, Journal
    from kiosk.hall.outbox import match_key

    theirs: dict[int, tuple[str, str, str | None, str]] = {}
    with Journal(journal_path, create=False, readonly=True) as journal:
        matches = journal.matches()
        box = f"journal-{int(min(m.wall_start for m in matches))}" if matches else "journal"
        for m in matches:
            key = match_key(m.id, m.wall_start)
            for e in journal.entries(m.id, (EVENT, UNDO)):
                theirs[e.seq] = (key, e.kind, e.hash, dumps(e.data))
    ours = {row["seq"]: row for row in record.box_events(hall, table, box)}
    out: list[Difference] = []
    for seq in sorted(set(theirs) | set(ours)):
        mine, kiosk = ours.get(seq), theirs.get(seq)
        if kiosk is None:
            assert mine is not None
            out.append(Difference(mine["match"], seq, "in the hall's copy, not in the journal"))
            continue
        if mine is None:
            out.append(Difference(kiosk[0], seq, "in the journal, not in the hall's copy"))
            continue
        what = []
        if mine["match"] != kiosk[0]:
            what.append(f"the hall has it in match {mine['match']}")
        if mine["kind"] != kiosk[1]:
            what.append(f"kind {kiosk[1]!r}, the hall's {mine['kind']!r}")
        if mine["hash"] is not None and kiosk[2] is not None and mine["hash"] != kiosk[2]:
            what.append(f"hash {kiosk[2][:12]}…, the hall's {mine['hash'][:12]}…")
        if json.loads(mine["data"]) != json.loads(kiosk[3]):
            what.append(f"content {kiosk[3][:120]}, the hall's {mine['data'][:120]}")
        if what:
            out.append(Difference(kiosk[0], seq, "; ".join(what)))
    return box, out
