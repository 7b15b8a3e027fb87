"""Power cuts on the journal: N cuts at random moments on a filesystem that drops every
unsynced byte (tests/engine/lazyfs.py, FUSE), each followed by a restart. The writer journals a
poll's raw inputs (unsynced, one write) before each event.

Prints what one synced event and one raw input cost, how many events were acknowledged
(append returned: synced), how many of them were lost (the goal: 0), how often the one event
in flight survived, how many restarts refused the journal (goal: 0) and the restart times.
Needs root and /dev/fuse.

    .venv/bin/python bench/bench_powercut.py [CUTS] [SEED]
"""

from __future__ import annotations

import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def append_latency(folder: Path, n: int = 300) -> tuple[float, float, float]:
    """p50 / p99 of one synced, hash-chained, sealed append on the disk under `folder`, and
    of the same append without the seal (what the seal costs)."""
    from kiosk.engine.journal import EVENT, Journal

    def run(path: Path, seal: bool) -> list[float]:
        journal = Journal(path)
        if not seal:
            journal_module: Any = importlib.import_module("kiosk.engine.journal")
            journal_module.write_seal = lambda *_: None
        mid = journal.begin_match("carrom", {"event": "match"}, 0.0)
        took = []
        for i in range(n):
            started = time.perf_counter()
            journal.append(mid, float(i), 0.0, "umpire", EVENT, {"n": i})
            took.append(time.perf_counter() - started)
        journal.close()
        return sorted(took)

    sealed = run(folder / "sealed.db", True)
    bare = run(folder / "bare.db", False)
    return sealed[n // 2], sealed[int(n * 0.99)], bare[n // 2]


def raw_latency(folder: Path, n: int = 300) -> tuple[float, float]:
    """p50 / p99 of a poll's raw input (a beam hit) as the tables write it now: appended
    unsynced and written by the poll's one `write()` (before, each was an append as above)."""
    from kiosk.engine.journal import Journal

    journal = Journal(folder / "raw.db")
    mid = journal.begin_match("carrom", {"event": "match"}, 0.0)
    took = []
    for i in range(n):
        started = time.perf_counter()
        journal.append(mid, float(i), 0.0, "beam", "beam_hit", {"pocket": 1}, sync=False)
        journal.write()
        took.append(time.perf_counter() - started)
    journal.close()
    took.sort()
    return took[n // 2], took[int(n * 0.99)]


def main() -> int:
    cuts = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    powercut: Any = importlib.import_module("engine.powercut")
    why = powercut.fuse_usable()
    if why is not None:
        print(f"power-cut bench skipped: {why}")
        return 0
    with tempfile.TemporaryDirectory(dir=ROOT) as folder:  # the disk the checkout is on
        p50, p99, bare = append_latency(Path(folder))
        raw50, raw99 = raw_latency(Path(folder))
    print(
        f"append, synced and sealed:  p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
        f" (without the seal: p50 {bare * 1000:.2f} ms)"
    )
    print(f"raw input, written unsynced: p50 {raw50 * 1000:.2f} ms, p99 {raw99 * 1000:.2f} ms")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        figures = powercut.run(Path(folder), cuts=cuts, seed=seed, max_wait=0.3)
    took = time.monotonic() - started
    restarts = sorted(figures.restart_s)
    print(f"power cuts:                 {figures.cuts} (seed {seed}, {took:.0f} s)")
    print(f"events acknowledged:        {figures.acked}")
    print(f"acknowledged events lost:   {figures.lost}")
    print(f"in-flight event kept:       {figures.in_flight_kept} of {figures.cuts} cuts")
    print(f"restarts refused:           {len(figures.refused)}")
    print(f"restarts not as last synced: {len(figures.wrong)}")
    if restarts:
        p95 = restarts[int(0.95 * (len(restarts) - 1))]
        print(
            f"restart (open, check, resume): median {statistics.median(restarts) * 1000:.0f} ms,"
            f" p95 {p95 * 1000:.0f} ms"
        )
    for line in figures.refused + figures.wrong:
        print("  ", line)
    return 1 if figures.lost or figures.refused or figures.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
