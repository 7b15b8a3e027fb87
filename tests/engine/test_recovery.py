"""Recovery: a simulated match killed with SIGKILL and restarted loses no confirmed event and
resumes to the identical state (a small run of bench/bench_recovery.py)."""

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
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["problems"] == [], result["problems"]
    assert result["lost"] == 0
    assert result["identical"] == 6
    assert result["actions_confirmed"] > 0
    assert result["restart_ready_s"]["max"] <= 2.0
    assert done.returncode == 0, done.stderr
