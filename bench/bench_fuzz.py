"""Benchmark: the structure-aware fuzz of the journal's readers (tests/fuzz/test_fuzz_journal.py)
for longer than make test's 400 inputs, with other inputs each run.

Each input is a copy of a journal the kiosk wrote (a carrom match, a backgammon clock, a
Bhukhar session) with 1 to 3 mutations: a row's column set to what a hand or a damaged card
could leave, rows deleted or doubled, the meta table changed, the seal rewritten, bytes
flipped, the file cut, a stranger's -wal. Each goes through `journal verify`, the kiosk's start
and two of export, export --clock, export --bhukhar, protest and journal restore. Prints how
many inputs, how many each reader took, how many verify refused (each naming the file), and
0 tracebacks and 0 hangs, or the first input that gave one, and exits 1.

    .venv/bin/python bench/bench_fuzz.py [--inputs 5000] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def load_fuzz() -> Any:
    spec = importlib.util.spec_from_file_location(
        "fuzz_journal", ROOT / "tests" / "fuzz" / "test_fuzz_journal.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    fuzz = load_fuzz()
    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() else None
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tableside-fuzz-", dir=where) as folder:
        seed_journal = fuzz.make_seed(_mkdir(folder, "seed"))
        cases = _mkdir(folder, "cases")
        try:
            seen = fuzz.fuzz_journals(seed_journal, cases, args.inputs, random_seed=args.seed)
        except Exception:  # a traceback or a hang: the input is in what hypothesis printed
            traceback.print_exc()
            print("fuzz: FAILED (a traceback or a hang, above)")
            return 1
        finally:
            shutil.rmtree(cases, ignore_errors=True)
    took = time.monotonic() - started
    print(f"fuzz of the journal's readers: seed {args.seed}, {took:.0f} s")
    print(f"  inputs (mutated journals):     {seen['inputs']}")
    print(f"  through verify and the start:  {seen['inputs']} each")
    for reader in fuzz.READERS:
        print(f"  through {reader + ':':<22} {seen[reader]}")
    print(f"  refused by verify, by name:    {seen['refused']}")
    print("  tracebacks: 0, hangs (over 10 s): 0")
    return 0


def _mkdir(folder: str, name: str) -> Path:
    path = Path(folder) / name
    path.mkdir()
    return path


if __name__ == "__main__":
    sys.exit(main())
