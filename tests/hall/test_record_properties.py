"""The hall record's invariants under any delivery: repeats, reordering and gaps (Hypothesis).

Whatever order and however often a table's events arrive, each (table, match, seq) is stored
once, and the head is the last event up to which nothing is missing, so a resend after the
head is exactly what fills the record."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.hall.record import HallRecord


def chain(seqs: list[int]) -> list[dict[str, object]]:
    """A table's outbox as sent: each event names the one before (0 for the first)."""
    out: list[dict[str, object]] = []
    prev = 0
    for seq in seqs:
        out.append({"seq": seq, "prev": prev, "match": "1", "game": "carrom", "kind": "event",
                    "data": {"n": seq}, "outbox": "journal"})  # fmt: skip
        prev = seq
    return out


@settings(max_examples=40, deadline=None)
@given(
    seqs=st.lists(st.integers(1, 10_000), min_size=1, max_size=30, unique=True).map(sorted),
    data=st.data(),
)
def test_any_delivery_stores_each_event_once_and_the_head_is_before_the_first_gap(
    seqs: list[int], data: st.DataObject
) -> None:
    events = chain(seqs)
    # Some events lost, the rest sent once or more, in any order.
    kept = data.draw(st.lists(st.booleans(), min_size=len(events), max_size=len(events)))
    repeats = data.draw(st.lists(st.integers(1, 3), min_size=len(events), max_size=len(events)))
    sent = [e for e, k, r in zip(events, kept, repeats, strict=True) if k for _ in range(r)]
    sent = data.draw(st.permutations(sent))
    with tempfile.TemporaryDirectory() as tmp:
        rec = HallRecord(Path(tmp) / "hall.db")
        for event in sent:
            rec.add_event("h", "t", event, 0.0)
        held = [s for s, k in zip(seqs, kept, strict=True) if k]
        with sqlite3.connect(rec.path) as db:
            stored = [r[0] for r in db.execute("SELECT seq FROM events ORDER BY seq")]
        assert stored == held  # each once
        first_gap = next((i for i, k in enumerate(kept) if not k), len(seqs))
        assert rec.head("h", "t", "journal") == (seqs[first_gap - 1] if first_gap else 0)
        # The kiosk's resend after the head fills the record.
        after = rec.head("h", "t", "journal")
        for event in events:
            if int(event["seq"]) > after:  # type: ignore[call-overload]
                rec.add_event("h", "t", event, 0.0)
        assert rec.head("h", "t", "journal") == seqs[-1]
        assert rec.counts()[("h", "t")] == (len(seqs), len(seqs))
        rec.close()
