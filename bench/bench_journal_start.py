"""Benchmark: what the journal's start-up check costs.

For journals of 1,000, 10,000 and 100,000 entries (a day at one table is a few thousand:
beam hits, camera events, taps and strokes), on the disk the checkout is on:

- `quick_check`: what the start ran before (pages only; it misses a damaged index);
- `integrity_check`: every page and every index against its table;
- `verify`: the whole read-only check of journal_check.py as `journal verify` runs it
  (integrity_check, every row read by a scan of the table and its JSON decoded, the hash
  chain, the seal);
- `start check`: the same as the start runs it (the rows' types, not their JSON: a row whose
  hash checks out holds what the journal wrote; the reads refuse a bad row by name);
- `open`: `Journal(path)` as the kiosk starts it (the lock, inspect, the open for writing,
  the counters, the key and the seal written), then closed.

Each figure is the median CPU time of 5 runs with the file in the page cache (a restart), in
ms: the machine the figures were taken on is shared, so its wall times vary with the others'
work; the fsyncs of `open` (the seal) are not in the CPU time.

    .venv/bin/python bench/bench_journal_start.py [--sizes 1000,10000,100000]
"""

from __future__ import annotations

import argparse
import importlib
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.engine.journal import EVENT, Journal  # noqa: E402
from kiosk.engine.journal_check import inspect  # noqa: E402


def timed(what: Callable[[], object], runs: int = 5) -> float:
    """The median CPU time of `what` in ms (this process's: SQLite's and Python's work, not
    the waits of a machine shared with other work)."""
    took = []
    for _ in range(runs):
        started = time.process_time()
        what()
        took.append(time.process_time() - started)
    return statistics.median(took) * 1000


def pragma(path: Path, name: str) -> Callable[[], object]:
    def run() -> object:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute(f"PRAGMA {name}").fetchall()
        finally:
            db.close()

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print("journal start-up check, median CPU time of 5 runs (ms); file in the page cache")
    print(f"{'entries':>8} {'MiB':>6} {'quick_check':>12} {'integrity':>10} {'verify':>8}", end="")
    print(f" {'start check':>12} {'open':>7}")
    with tempfile.TemporaryDirectory(dir=ROOT) as folder:
        for size in sizes:
            path = Path(folder) / f"j{size}.db"
            build_fast(path, size)
            mib = path.stat().st_size / 2**20
            quick = timed(pragma(path, "quick_check"))
            integrity = timed(pragma(path, "integrity_check"))
            whole = timed(lambda p=path: inspect(p))  # type: ignore[misc]
            start = timed(lambda p=path: inspect(p, full=False))  # type: ignore[misc]
            opened = timed(lambda p=path: Journal(p).close())  # type: ignore[misc]
            print(f"{size:>8} {mib:>6.1f} {quick:>12.1f} {integrity:>10.1f} {whole:>8.1f}", end="")
            print(f" {start:>12.1f} {opened:>7.1f}")
    return 0


def build_fast(path: Path, entries: int) -> None:
    """`entries` entries written with the journal's own append, in matches of 500 like a day's
    strokes and inputs; unsynced and unsealed while it is built (a synced append each would
    take minutes for 100,000), sealed by the open that follows."""
    module: Any = importlib.import_module("kiosk.engine.journal")
    sealing = module.write_seal
    module.write_seal = lambda *_: None
    try:
        journal = Journal(path)
        assert journal._db is not None
        journal._db.execute("PRAGMA synchronous=OFF")
        match = 0
        for n in range(entries):
            if n % 500 == 0:
                players = {"event": "match", "players": ["A", "B"]}
                match = journal.begin_match("carrom", players, 1e9)
            kind = EVENT if n % 5 == 0 else "beam_hit"
            data = {"event": "stroke", "pocketed": ["white"]} if kind == EVENT else {"pocket": 2}
            journal.append(match, float(n), 1e9 + n, "umpire", kind, data)
        journal.checkpoint()
        journal.close()
    finally:
        module.write_seal = sealing
    Journal(path).close()  # sealed


if __name__ == "__main__":
    sys.exit(main())
