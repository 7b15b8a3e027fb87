"""Benchmark: pocket beams through gpiozero's MockFactory pins.

1. 10,000 interruptions (1-30 ms long, gaps from 20 ms per pocket, with
   chatter at both ends) driven edge by edge on MockPins against a manual
   clock: missed and doubled hits (goal 0 and 0), start and duration errors,
   and how many edges per second the whole path takes.
2. A subset driven in real time (the pins stamped by time.monotonic):
   edge-to-queue latency, from the edge that ends the interruption to the hit
   in the queue (goal p99 under 1 ms), and on to a consumer thread.

Run: .venv/bin/python bench/bench_beams.py [--count N] [--realtime N] [--seed S]
"""

from __future__ import annotations

import argparse
import bisect
import os
import queue
import random
import statistics
import threading
import time
from dataclasses import dataclass

from drivers.hits import POCKETS, BeamHit, BeamReport
from drivers.simulated import Edge, ManualClock, SimulatedBeams


@dataclass(frozen=True)
class Truth:
    pocket: int
    start: float
    duration: float  # the main interruption, from the first edge to the last clear before chatter


def make_interruptions(
    count: int, rng: random.Random, bounce: tuple[float, float] = (0.00005, 0.0004)
) -> tuple[list[Truth], list[Edge]]:
    """Interruptions spread over four pockets, each with up to 3 bounces before and
    after the main break (by default 50-400 us: shorter than the 0.5 ms glitch minimum)."""
    free_at = dict.fromkeys((1, 2, 3, 4), 0.0)
    truths: list[Truth] = []
    edges: list[Edge] = []
    t = 0.0
    for _ in range(count):
        pocket = rng.randint(1, 4)
        t += rng.uniform(0.0, 0.010)  # pockets interleave
        start = max(t, free_at[pocket] + 0.020 + rng.expovariate(1 / 0.030))
        length = rng.uniform(0.001, 0.030)
        s = start
        for _ in range(rng.randint(0, 3)):  # leading chatter
            width = rng.uniform(*bounce)
            edges += [Edge(s, pocket, True), Edge(s + width, pocket, False)]
            s += width + rng.uniform(0.00005, 0.0004)
        end = s + length
        edges += [Edge(s, pocket, True), Edge(end, pocket, False)]
        e = end
        for _ in range(rng.randint(0, 3)):  # trailing chatter
            e += rng.uniform(0.00005, 0.0004)
            width = rng.uniform(*bounce)
            edges += [Edge(e, pocket, True), Edge(e + width, pocket, False)]
            e += width
        truths.append(Truth(pocket, start, end - start))
        free_at[pocket] = e
    edges.sort(key=lambda x: x.t)
    return truths, edges


def score(truths: list[Truth], hits: list[BeamHit]) -> tuple[int, int, list[float], list[float]]:
    """Missed and doubled interruptions (a hit that matches no interruption counts as
    doubled too), and the start/duration errors of the matched hits. A hit matches
    the interruption of its pocket that starts within 0.5 ms of it (starts in one
    pocket are at least 20 ms apart)."""
    starts = {
        p: sorted((t.start, n) for n, t in enumerate(truths) if t.pocket == p) for p in POCKETS
    }
    found: list[list[BeamHit]] = [[] for _ in truths]
    spurious = 0
    for hit in hits:
        column = starts[hit.pocket]
        i = bisect.bisect_left(column, (hit.t - 0.0005, -1))
        if i < len(column) and abs(column[i][0] - hit.t) <= 0.0005:
            found[column[i][1]].append(hit)
        else:
            spurious += 1
    missed = sum(1 for f in found if not f)
    doubled = spurious + sum(len(f) - 1 for f in found if f)
    start_err = [abs(f[0].t - t.start) for t, f in zip(truths, found, strict=True) if f]
    dur_err = [abs(f[0].duration - t.duration) for t, f in zip(truths, found, strict=True) if f]
    return missed, doubled, start_err, dur_err


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def fed(count: int, seed: int, bounce: tuple[float, float] = (0.00005, 0.0004)) -> None:
    truths, edges = make_interruptions(count, random.Random(seed), bounce)
    got: list[BeamReport] = []
    clock = ManualClock(0.0)
    sim = SimulatedBeams(sink=got.append, clock=clock)
    began = time.perf_counter()
    try:
        sim.drive(edges, start=0.0)
    finally:
        sim.close()
    took = time.perf_counter() - began
    hits = [r for r in got if isinstance(r, BeamHit)]
    faults = [r for r in got if not isinstance(r, BeamHit)]
    missed, doubled, start_err, dur_err = score(truths, hits)
    lo, hi = (round(b * 1e6) for b in bounce)
    print(f"fed timestamps: {count} interruptions, {len(edges)} edges, bounces {lo}-{hi} us")
    print(f"  hits {len(hits)}  missed {missed}  doubled {doubled}  faults {len(faults)}")
    print(
        f"  start error max {max(start_err) * 1e6:.1f} us; duration error median "
        f"{statistics.median(dur_err) * 1e6:.1f} us, max {max(dur_err) * 1e6:.1f} us"
    )
    print(f"  {took:.2f} s for all edges: {len(edges) / took:,.0f} edges/s through MockPin")


def realtime(count: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    received: list[tuple[float, BeamHit]] = []
    consumed: list[tuple[float, BeamHit]] = []
    q: queue.Queue[BeamReport | None] = queue.Queue()

    def sink(report: BeamReport) -> None:
        if isinstance(report, BeamHit):
            received.append((time.monotonic(), report))
        q.put(report)

    def consumer() -> None:
        while (report := q.get()) is not None:
            if isinstance(report, BeamHit):
                consumed.append((time.monotonic(), report))

    worker = threading.Thread(target=consumer, daemon=True)
    worker.start()
    sim = SimulatedBeams(sink=sink)  # pins stamped by time.monotonic
    sent = 0
    try:
        for _ in range(count):
            pocket = rng.randint(1, 4)
            pin = sim.beams.pin_of(pocket)
            pin.drive_low()
            time.sleep(rng.uniform(0.001, 0.030))
            pin.drive_high()
            sent += 1
            time.sleep(0.020)
    finally:
        sim.close()
        q.put(None)
        worker.join(timeout=5)
    to_queue = [(at - (h.t + h.duration)) * 1e3 for at, h in received]
    to_consumer = [(at - (h.t + h.duration)) * 1e3 for at, h in consumed]
    print(f"real time: {sent} interruptions driven on MockPins, {len(received)} hits")
    print(
        f"  edge-to-queue latency ms: median {statistics.median(to_queue):.4f}  "
        f"p99 {p(to_queue, 0.99):.4f}  max {max(to_queue):.4f}"
    )
    print(
        f"  edge-to-consumer-thread latency ms: median {statistics.median(to_consumer):.4f}  "
        f"p99 {p(to_consumer, 0.99):.4f}  max {max(to_consumer):.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--realtime", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"bench_beams: {os.cpu_count()} CPUs, load average {load:.2f} (shared machine)")
    fed(args.count, args.seed)
    # Bounces longer than the glitch minimum: the count must hold; durations suffer.
    fed(args.count, args.seed, bounce=(0.0006, 0.0015))
    if args.realtime:
        realtime(args.realtime, args.seed)


if __name__ == "__main__":
    main()
