"""Benchmark: a Bhukhar hall's scoresheet.

Builds a session of 60 teams at 30 tables over 8 rounds (240 games, half
entered card by card, half as totals), then reports: scoring one full-entry
game, reading the whole record back (`tableside bhukhar standings`), ordering
the standings, and one entry through the table session (check, write, fsync)
on the local disk. Goals: the standings of a whole session in well under a
second; an entry, fsync included, fast enough for a tap (under 50 ms).

    .venv/bin/python bench/bench_bhukhar.py [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.rules.bhukhar.cards import RANKS, SUITS, Card, full_pack
from kiosk.rules.bhukhar.record import SessionStart, Team, parse_session
from kiosk.rules.bhukhar.scoresheet import End, FullSheet, Game, score_game, to_totals
from kiosk.tables.bhukhar_table import BhukharTable

TEAMS = 60
TABLES = 30
ROUNDS = 8


def full_game(rnd: random.Random, a: str, b: str) -> Game:
    """Each team lays a seven-card sequence in its own suit, a set of three, and holds
    a few cards; every card is drawn from the three decks (rule 3)."""
    pool = Counter(full_pack())
    suits = rnd.sample(SUITS, 2)
    sheets = {}
    for team, suit in zip((a, b), suits, strict=True):
        start = rnd.randrange(0, len(RANKS) - 7 + 1)
        licence = (tuple(Card(r, suit) for r in range(start, start + 7)),)
        pool.subtract(licence[0])
        rank = rnd.randrange(13)
        group = [Card(rank, s) for s in SUITS if pool[Card(rank, s)] > 0][:3]
        later = (tuple(group),) if len(group) == 3 else ()
        pool.subtract(group)
        hand = tuple(rnd.sample(list(pool.elements()), rnd.randrange(9)))
        pool.subtract(hand)
        sheets[team] = FullSheet(licence, later, (), hand)
    bhukhar = rnd.choice((a, b, None))
    end = End.OUT if bhukhar else rnd.choice((End.STOCK, End.TIME))
    return Game(sheets, end, bhukhar, rnd.choice((a, b)) if bhukhar else None)


def ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100)
    return f"median {statistics.median(values) * 1e3:.3f} ms, p99 {q[98] * 1e3:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    teams = tuple(Team(f"T{i:02d}", (f"P{i}a", f"P{i}b", f"P{i}c")) for i in range(TEAMS))
    start = SessionStart(teams, 30, (5.0, 1.0), tuple(range(1, TABLES + 1)), "bench")
    print(f"cpus: {os.cpu_count()} (figures taken while other work may share the CPU)")

    games = []
    for rnd_no in range(1, ROUNDS + 1):
        order = rnd.sample([t.id for t in teams], TEAMS)
        for table in range(1, TABLES + 1):
            a, b = order[2 * table - 2], order[2 * table - 1]
            games.append((rnd_no, table, full_game(rnd, a, b)))

    score_times = []
    for _, _, g in games:
        t = time.perf_counter()
        score_game(g)
        score_times.append(time.perf_counter() - t)
    print(f"score one full-entry game ({len(games)} games): {ms(score_times)}")

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.db")
        kiosk = BhukharTable.create(journal, start)
        entry_times = []
        for i, (rnd_no, tno, g) in enumerate(games):
            entry = g if i % 2 else to_totals(g)
            t = time.perf_counter()
            kiosk.enter_game(tno, entry, round=rnd_no)
            entry_times.append(time.perf_counter() - t)
        print(f"enter one game, check + journal (synced): {ms(entry_times)}")
        draft_times = []
        for i in range(200):
            t = time.perf_counter()
            side = i % 2
            kiosk.edit(lambda d: d.step("points", side, 5), role=Role.UMPIRE)  # noqa: B023
            draft_times.append(time.perf_counter() - t)
        print(f"one tap on the game being entered, draft journaled (synced): {ms(draft_times)}")
        t = time.perf_counter()
        again = BhukharTable.open(journal, kiosk.match_id)
        print(f"resume the session from the journal: {(time.perf_counter() - t) * 1e3:.1f} ms")
        assert again is not None and again.draft == kiosk.draft
        text = kiosk.export()
        journal.close()
        print(f"record: {len(text.splitlines())} lines, {len(text) / 1024:.0f} KiB")
        reads = []
        for _ in range(5):
            t = time.perf_counter()
            session = parse_session(text)
            rows = session.standings()
            reads.append(time.perf_counter() - t)
        median = statistics.median(reads) * 1e3
        print(f"read the record and order the standings: median {median:.1f} ms")
        order_times = []
        for _ in range(50):
            t = time.perf_counter()
            session.standings()
            order_times.append(time.perf_counter() - t)
        print(f"standings of {TEAMS} teams from {len(games)} games: {ms(order_times)}")
        print(f"leader: {rows[0].team} with {rows[0].master} master points")


if __name__ == "__main__":
    main()
