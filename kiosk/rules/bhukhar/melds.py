"""Melds and the licence: what may lie on the table and what it is worth.

Rule 13 and rule 9. A *sequence* is three to seven cards of one suit in
consecutive ranks. The text is silent on the ace; the ruling of 2026-11-27 (as in
Indian rummy): the ace is low (A-2-3) or high (Q-K-A), never both in one sequence
(no K-A-2). A *set* is three to seven cards of
one rank, any suits, identical cards allowed (rule 13.2's example). Seven is
the most either can hold: rule 9 closes a sequence at seven cards, and a new
set of a rank may only be begun once the running one is complete at seven.

Worth (rule 13, rule 18.2): a seven-card sequence 300, a seven-card set 200
(eight to ace) or 100 (two to seven); any shorter meld counts its cards at
their rule 12 values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from kiosk.errors import N_, Reason, TablesideError, worded
from kiosk.rules.bhukhar.cards import RANKS, Card, points

MIN_MELD = 3  # rule 9, rule 13.4: a meld has at least three cards
FULL_MELD = 7  # rule 9, rule 13.1-13.3: seven cards complete a meld
SEQUENCE_7 = 300  # rule 13.1
HIGH_SET_7 = 200  # rule 13.2: eight to ace
LOW_SET_7 = 100  # rule 13.3: two to seven
LICENCE_MIN = 100  # rule 13.4, third form
ACE, KING, TWO = RANKS.index("A"), RANKS.index("K"), RANKS.index("2")


class MeldError(TablesideError, ValueError):
    """Cards that are not a meld, or melds that break rule 9 or rule 13.4 together.

    `rule`: the rule broken ("9", "13.1", "13.4"); `why`: the same as facts (a `Reason`, its
    law the rule), for the interface to word; `reason`: why, in English words, without the
    cards (what a screen shows beside them). The message is `reason`, after `about` (the
    cards, or what they are not) when given.
    """

    def __init__(self, why: Reason, about: str = "") -> None:
        super().__init__(f"{about}: {why.english()}" if about else why.english())
        self.why = why
        self.about = about

    @property
    def rule(self) -> str:
        return self.why.law

    @property
    def reason(self) -> str:
        return self.why.english()

    @property
    def whole(self) -> Reason:
        """The whole message as facts (the cards or what they are not, then why), for a
        refusal that holds this one (kiosk/rules/bhukhar/scoresheet.py)."""
        if not self.about:
            return self.why
        return Reason.of(self.why.code, N_("{about}: {why}"), about=self.about, why=self.why)


class Kind(Enum):
    SEQUENCE = "sequence"
    SET = "set"


@dataclass(frozen=True, slots=True)
class Meld:
    """A checked meld: build it with `meld(cards)`."""

    kind: Kind
    cards: tuple[Card, ...]

    @property
    def complete(self) -> bool:
        """Seven cards: closed (rule 9)."""
        return len(self.cards) == FULL_MELD

    @property
    def value(self) -> int:
        """Rule 13.1-13.3 for seven cards, otherwise the cards' rule 12 values."""
        if self.complete:
            if self.kind is Kind.SEQUENCE:
                return SEQUENCE_7
            return LOW_SET_7 if self.cards[0].low else HIGH_SET_7
        return points(self.cards)

    @property
    def card_points(self) -> int:
        """The cards' rule 12 values, whatever the meld's length."""
        return points(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)


def _gap_after(ordered: Sequence[Card], low_ace: bool) -> Card | None:
    """The card after which `ordered` is not consecutive, or None; with `low_ace` the ace
    counts below the two."""

    def place(card: Card) -> int:
        return -1 if low_ace and card.rank == ACE else card.rank

    for a, b in pairwise(ordered):
        if place(b) != place(a) + 1:
            return a
    return None


def meld(cards: Sequence[Card]) -> Meld:
    """Check that `cards` form a sequence or a set (in any order) and return it.

    Raises MeldError with the reason: too few or too many cards, mixed suits,
    a gap or a repeated rank in a sequence, a sequence turning the corner at the
    ace, mixed ranks in a set. A sequence is returned in order, the ace first when
    it is low (A 2 3) and last when it is high (Q K A).
    """
    n = len(cards)
    shown = " ".join(str(c) for c in cards) or "nothing"
    if n < MIN_MELD:
        why = Reason.of(
            "meld_too_short",
            N_("a meld has at least {count} cards (rule {law})"),
            "13.4",
            count=MIN_MELD,
        )
        raise MeldError(why, shown)
    if n > FULL_MELD:
        why = Reason.of(
            "meld_too_long",
            N_("a meld has at most {count} cards (rule {law})"),
            "9",
            count=FULL_MELD,
        )
        raise MeldError(why, shown)
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        return Meld(Kind.SET, tuple(sorted(cards, key=lambda c: "SHDC".index(c.suit))))
    suits = {c.suit for c in cards}
    if len(suits) != 1:
        why = Reason.of(
            "meld_mixed",
            N_("neither a set (one rank) nor a sequence (one suit, rule {law})"),
            "13.1",
        )
        raise MeldError(why, shown)
    high = tuple(sorted(cards))
    if len(ranks) < n:
        why = Reason.of(
            "sequence_repeats", N_("a sequence of one suit repeats a rank (rule {law})"), "13.1"
        )
        raise MeldError(why, shown)
    after = _gap_after(high, low_ace=False)
    if after is None:
        return Meld(Kind.SEQUENCE, high)  # the ace, if any, high: Q K A
    if ACE in ranks:
        low = (high[-1], *high[:-1])  # the ace first: A 2 3
        low_after = _gap_after(low, low_ace=True)
        if low_after is None:
            return Meld(Kind.SEQUENCE, low)
        if {TWO, KING} <= ranks:
            why = Reason.of(
                "sequence_corner",
                N_(
                    "a sequence of one suit may not turn the corner at the ace: the ace is "
                    "low (A-2-3) or high (Q-K-A), never both (rule {law})"
                ),
                "13.1",
            )
            raise MeldError(why, shown)
        if TWO in ranks:
            after = low_after  # the ace was meant low: the gap is after it
    why = Reason.of(
        "sequence_gap",
        N_("a sequence of one suit has a gap after {card} (rule {law})"),
        "13.1",
        card=str(after),
    )
    raise MeldError(why, shown)


def check_running_sets(melds: Iterable[Meld]) -> None:
    """Rule 9: a team may not begin a second set of a rank while one is incomplete.

    So at any moment a team has at most one set of each rank with fewer than
    seven cards. Sequences may be duplicated freely.
    """
    open_sets = Counter(m.cards[0].rank for m in melds if m.kind is Kind.SET and not m.complete)
    for rank, count in sorted(open_sets.items()):
        if count > 1:
            name = str(Card(rank, "S"))[:-1]
            why = Reason.of(
                "sets_open",
                N_(
                    "{count} incomplete sets of {rank}s: a new set of a rank is begun only "
                    "when the running one has seven cards (rule {law})"
                ),
                "9",
                count=count,
                rank=name,
            )
            raise MeldError(why)


class LicenceForm(Enum):
    """The three forms of rule 13.4, in the order the rule lists them."""

    SEQUENCE_7 = "a seven-card sequence"
    SET_7_AND_SEQUENCE = "a seven-card set and a sequence"
    HUNDRED = "melds of at least three cards worth 100 or more"


def licence_form(melds: Sequence[Meld]) -> LicenceForm:
    """Which form of rule 13.4 the melds laid as a licence take; MeldError if none.

    1. a seven-card sequence of one suit;
    2. a seven-card set and a sequence of one suit (three cards or more);
    3. any sequences and sets of at least three cards whose cards total 100 or
       more at their rule 12 values.

    Ruling: the third form counts the cards at their rule 12 values, not at
    rule 13's seven-card values; otherwise a seven-card set alone would already
    be a licence and the second form, which pairs it with a sequence, would say
    nothing. A licence may hold more melds than its form needs (rule 14: a
    player may lay his whole hand as the licence).
    """
    if not melds:
        why = Reason.of(
            "licence_empty", N_("a licence needs at least one meld (rule {law})"), "13.4"
        )
        raise MeldError(why)
    check_running_sets(melds)
    sequences = [m for m in melds if m.kind is Kind.SEQUENCE]
    if any(m.complete for m in sequences):
        return LicenceForm.SEQUENCE_7
    if sequences and any(m.kind is Kind.SET and m.complete for m in melds):
        return LicenceForm.SET_7_AND_SEQUENCE
    total = sum(m.card_points for m in melds)
    if total >= LICENCE_MIN:
        return LicenceForm.HUNDRED
    why = Reason.of(
        "licence_short",
        N_(
            "no seven-card sequence, no seven-card set with a sequence, and the cards total "
            "{total} < {minimum}"
        ),
        "13.4",
        total=total,
        minimum=LICENCE_MIN,
    )
    raise MeldError(why, worded(N_("not a licence (rule 13.4)")))
