"""Random legal Bhukhar games for the property tests, with their totals worked out
independently of the scoresheet (from how each meld was built)."""

from __future__ import annotations

import random
from collections import Counter

from kiosk.rules.bhukhar.cards import RANKS, SUITS, Card, full_pack
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    Penalty,
    PenaltyKind,
    TotalsSheet,
)

LOW_TOP = RANKS.index("7")
ACE = RANKS.index("A")


def _value(card: Card) -> int:
    return 5 if card.rank <= LOW_TOP else 10


def _worth(kind: str, cs: list[Card]) -> int:
    """Rule 13 from first principles: seven cards have fixed values, others count cards."""
    if len(cs) == 7:
        if kind == "seq":
            return 300
        return 100 if cs[0].rank <= LOW_TOP else 200
    return sum(_value(c) for c in cs)


class _Pool:
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.left = Counter(full_pack())

    def take(self, cs: list[Card]) -> bool:
        need = Counter(cs)
        if any(self.left[c] < n for c, n in need.items()):
            return False
        self.left -= need
        return True

    def sequence(self, length: int) -> list[Card] | None:
        """A sequence of one suit; from -1 the ace is low (A 2 3 ...)."""
        suit = self.rnd.choice(SUITS)
        start = self.rnd.randrange(-1, len(RANKS) - length + 1)
        cs = [Card(ACE if r < 0 else r, suit) for r in range(start, start + length)]
        return cs if self.take(cs) else None

    def set(self, length: int, rank: int | None = None) -> list[Card] | None:
        rank = self.rnd.randrange(len(RANKS)) if rank is None else rank
        suits = [s for s in SUITS for _ in range(self.left[Card(rank, s)])]
        if len(suits) < length:
            return None
        cs = [Card(rank, s) for s in self.rnd.sample(suits, length)]
        return cs if self.take(cs) else None


def _team(pool: _Pool, rnd: random.Random, licence: bool) -> tuple[FullSheet, int, int]:
    melds: list[tuple[str, list[Card]]] = []
    lic: list[list[Card]] = []
    spoiled: tuple[int, ...] = ()
    later: list[list[Card]] = []
    open_ranks: set[int] = set()

    def add(kind: str, cs: list[Card] | None, into: list[list[Card]]) -> None:
        if cs is None:
            return
        if kind == "set" and len(cs) < 7:
            if cs[0].rank in open_ranks:
                pool.left += Counter(cs)  # rule 9: would be a second open set; give back
                return
            open_ranks.add(cs[0].rank)
        melds.append((kind, cs))
        into.append(cs)

    if licence:
        form = rnd.randrange(3)
        if form == 0:
            cs = pool.sequence(7)
            while cs is None:
                cs = pool.sequence(7)
            add("seq", cs, lic)
        elif form == 1:
            s7 = pool.set(7)
            while s7 is None:
                s7 = pool.set(7)
            q = pool.sequence(rnd.randrange(3, 7))
            while q is None:
                q = pool.sequence(3)
            add("set", s7, lic)
            add("seq", q, lic)
        else:
            while sum(_value(c) for m in lic for c in m) < 100:
                if rnd.random() < 0.5:
                    add("seq", pool.sequence(rnd.randrange(3, 7)), lic)
                else:
                    add("set", pool.set(rnd.randrange(3, 7)), lic)
        if rnd.random() < 0.25:  # 17.2: a partner's wrong card spoiled licence melds later
            spoiled = tuple(sorted(rnd.sample(range(len(lic)), rnd.randrange(1, len(lic) + 1))))
        for _ in range(rnd.randrange(4)):
            if rnd.random() < 0.5:
                add("seq", pool.sequence(rnd.randrange(3, 8)), later)
            else:
                add("set", pool.set(rnd.randrange(3, 8)), later)
    hand: list[Card] = []
    for _ in range(rnd.randrange(0, 30)):
        c = rnd.choice(list(pool.left.elements()))
        pool.take([c])
        hand.append(c)
    rnd.shuffle(hand)
    void: list[list[Card]] = []
    if rnd.random() < 0.2:
        cs = [Card(0, "S"), Card(1, "H"), Card(2, "S")]  # mixed suits: a false meld
        if pool.take(cs):
            void.append(cs)
    void_ids = {id(lic[i]) for i in spoiled}  # spoiled: void, uncounted
    table = sum(_worth(k, cs) for k, cs in melds if id(cs) not in void_ids)
    sheet = FullSheet(
        tuple(tuple(rnd.sample(m, len(m))) for m in lic),
        tuple(tuple(m) for m in later),
        tuple(tuple(m) for m in void),
        tuple(hand),
        licence_spoiled=spoiled,
    )
    return sheet, table, sum(_value(c) for c in hand)


def random_game(rnd: random.Random, teams: tuple[str, str] = ("A", "B")) -> tuple[Game, Game]:
    """A legal game entered in full, and the same game entered as totals."""
    pool = _Pool(rnd)
    sheets = {}
    totals = {}
    for team in teams:
        has = rnd.random() < 0.8
        sheet, table, hand = _team(pool, rnd, has)
        sheets[team] = sheet
        totals[team] = TotalsSheet(has, table, hand, licence_spoiled=bool(sheet.licence_spoiled))
    licensed = [t for t in teams if sheets[t].licence]
    bhukhar = rnd.choice([*licensed, None]) if licensed else None
    end = rnd.choice(list(End))
    closed_by = None
    if end is End.OUT:
        if bhukhar is None:
            end = End.STOCK
        else:
            closed_by = rnd.choice(licensed)
    penalties = tuple(
        Penalty(rnd.choice(teams), rnd.choice(list(PenaltyKind))) for _ in range(rnd.randrange(3))
    )
    full_game = Game(sheets, end, bhukhar, closed_by, penalties)
    return full_game, Game(dict(totals), end, bhukhar, closed_by, penalties)
