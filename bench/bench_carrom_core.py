"""Benchmark of the carrom rules core: push() per event, a 600-stroke replay, the import.

Targets (task A): replaying 600 strokes well under 20 ms in total, push() a few
tens of microseconds, `import kiosk.rules.carrom` under 50 ms. Prints figures;
asserts nothing. Run: .venv/bin/python bench/bench_carrom_core.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Event, MatchStart, Stroke

START = MatchStart("icf", ("Asha", "Bina"), "Asha")


def _stroke(rng: random.Random, match: Match) -> Stroke:
    now = match.state.now
    assert now is not None
    own = now.colours[now.turn_side]
    other = "black" if own == "white" else "white"
    roll = rng.random()
    left = int(now.on_board[own])
    if roll < 0.45 or left == 0:
        return Stroke()
    if roll < 0.75:
        return Stroke(pocketed=(own,) * min(left, rng.choice((1, 1, 2))))  # type: ignore[arg-type]
    if roll < 0.82 and now.on_board["queen"]:
        return Stroke(pocketed=("queen",))
    if roll < 0.88 and now.on_board[other]:
        return Stroke(pocketed=(other,))  # type: ignore[arg-type]
    if roll < 0.94:
        return Stroke(striker=True)
    return Stroke(improper=True)


def matches(strokes: int, seed: int = 1) -> list[list[Event]]:
    """Whole matches played by a seeded random player, `strokes` strokes in all."""
    rng = random.Random(seed)
    out: list[list[Event]] = []
    total = 0
    while total < strokes:
        match = Match(START)
        events: list[Event] = []
        while not match.is_over() and total < strokes:
            event = _stroke(rng, match)
            try:
                match.push(event)
            except IllegalEvent:
                continue
            events.append(event)
            total += 1
        out.append(events)
    return out


def replay(games: list[list[Event]], *, read_state: bool) -> None:
    for events in games:
        match = Match(START)
        for event in events:
            match.push(event)
            if read_state:
                match.state  # noqa: B018 - what a screen does after each event


def timed(fn: object, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return times


def import_ms(runs: int = 15) -> list[float]:
    code = "import time; t = time.perf_counter(); import kiosk.rules.carrom; "
    code += "print(time.perf_counter() - t)"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="0")
    out = []
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        out.append(float(result.stdout) * 1000)
    return out


def main() -> None:
    games = matches(600)
    n = sum(len(g) for g in games)
    version = sys.version.split()[0]
    print(f"carrom core benchmark: {n} strokes in {len(games)} match(es), python {version}")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (shared)")
    for read_state in (False, True):
        times = timed(lambda rs=read_state: replay(games, read_state=rs), 30)
        best, median = min(times) * 1000, statistics.median(times) * 1000
        label = "push + state each event" if read_state else "push only"
        print(
            f"replay 600 strokes, {label:24}: best {best:6.2f} ms, median {median:6.2f} ms,"
            f" {best * 1000 / n:5.1f} us/event (best)"
        )
    imports = import_ms()
    print(
        f"import kiosk.rules.carrom (fresh interpreter): best {min(imports):.1f} ms, "
        f"median {statistics.median(imports):.1f} ms"
    )


if __name__ == "__main__":
    main()
