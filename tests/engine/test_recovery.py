"""Recovery: a simulated match killed with SIGKILL and restarted loses no confirmed event and
resumes to the identical state (a small run of bench/bench_recovery.py). How fast it restarts
is the benchmark's figure (its goal, max 2 s to ready, is checked there), not a test's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_recovery.py"


def test_recovery_sigkill_loses_nothing_and_resumes_identically() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--kills", "6", "--seed", "11", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.stdout.strip(), done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["problems"] == [], result["problems"]
    assert result["lost"] == 0
    assert result["identical"] == 6
    assert result["actions_confirmed"] > 0
