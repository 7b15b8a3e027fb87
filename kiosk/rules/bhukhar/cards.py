"""Cards of a Bhukhar table: three 52-card decks, no jokers (rule 3).

A card is written rank then suit: "9S", "10H", "AD", "QC". Ranks run 2-10, J, Q,
K, A (rule 12 counts "from the two to the seven" and "from the eight to the
ace", so the ace is ranked last and worth 10; in a sequence it may also be low, A-2-3:
kiosk/rules/bhukhar/melds.py); suits are S (spades, કાળી), H (hearts,
લાલ), D (diamonds, ચોકડી), C (clubs, ફુલ્લી). "T" is read as 10. With three
decks every card exists three times, so identical cards are normal (rule 13.2's
example set holds three nines of spades).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.errors import N_, Refused

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
#: Rule 3: three packs of 52 cards.
DECKS = 3
LOW_VALUE = 5  # rule 12.1: the two to the seven
HIGH_VALUE = 10  # rule 12.2: the eight to the ace


class CardError(Refused, ValueError):
    """Text that is not a card, or more copies of a card than three decks hold (`reason`:
    the facts of rule 3's refusal, for the interface to word)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; `rank` is its index in RANKS (0 = the two, 12 = the ace)."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANKS[self.rank] + self.suit

    @property
    def low(self) -> bool:
        """The two to the seven (rule 12.1)."""
        return self.rank <= RANKS.index("7")

    @property
    def value(self) -> int:
        """Rule 12: 5 points for the two to the seven, 10 for the eight to the ace."""
        return LOW_VALUE if self.low else HIGH_VALUE


def parse_card(text: object) -> Card:
    """Read "9S", "10h", "TD", "as" into a Card; CardError says what is wrong."""
    if not isinstance(text, str):
        raise CardError.of(
            "card_not_text",
            N_("a card is written like {example}, not {text}"),
            example="9S",
            text=repr(text),
        )
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError.of(
            "not_a_card",
            N_("{text} is not a card (rank then suit, like {example})"),
            text=repr(text),
            example="9S, 10H",
        )
    rank, suit = t[:-1], t[-1]
    if rank == "T":
        rank = "10"
    if rank not in RANKS:
        raise CardError.of(
            "unknown_rank",
            N_("{text}: unknown rank {rank} ({ranks})"),
            text=repr(text),
            rank=repr(rank),
            ranks="2-10, J, Q, K, A",
        )
    if suit not in SUITS:
        raise CardError.of(
            "unknown_suit",
            N_("{text}: unknown suit {suit} ({suits})"),
            text=repr(text),
            suit=repr(suit),
            suits=", ".join(SUITS),
        )
    return Card(RANKS.index(rank), suit)


def parse_cards(items: Iterable[object]) -> tuple[Card, ...]:
    """Read a list of card strings; CardError names the first bad one."""
    out: list[Card] = []
    for i, item in enumerate(items):
        try:
            out.append(parse_card(item))
        except CardError as exc:
            if exc.reason is None:
                raise
            card = N_("card {n}: {why}")
            raise CardError.of(exc.reason.code, card, n=i + 1, why=exc.reason) from None
    return tuple(out)


def points(cards: Iterable[Card]) -> int:
    """The rule 12 value of some cards (cards in hand at the end, rule 18.1)."""
    return sum(card.value for card in cards)


def check_three_decks(cards: Iterable[Card]) -> None:
    """Rule 3: no card may appear more than three times in one game."""
    counts = Counter(cards)
    extra = sorted(card for card, n in counts.items() if n > DECKS)
    if extra:
        names = ", ".join(f"{card} x{counts[card]}" for card in extra)
        raise CardError.of(
            "three_decks",
            N_("more copies than three decks hold (rule {law}): {cards}"),
            law="3",
            cards=names,
        )


def full_pack() -> tuple[Card, ...]:
    """All 156 cards of the three decks, in order."""
    return tuple(Card(r, s) for _ in range(DECKS) for s in SUITS for r in range(len(RANKS)))
