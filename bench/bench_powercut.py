"""Power cuts on the journal: N cuts at random moments on a filesystem that drops every
unsynced byte (tests/engine/lazyfs.py, FUSE), each followed by a restart.

Prints how many events were acknowledged (append returned: synced), how many of them were
lost (the goal: 0), how often the one event in flight survived, how many restarts refused the
journal (goal: 0) and the restart times. Needs root and /dev/fuse.

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
