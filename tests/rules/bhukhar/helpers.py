"""Small builders for Bhukhar tests: cards from text, sheets and games."""

from __future__ import annotations

from kiosk.rules.bhukhar.cards import Card, parse_card
from kiosk.rules.bhukhar.scoresheet import End, FullSheet, Game, Penalty, Sheet


def cards(text: str) -> tuple[Card, ...]:
    """ "9S 10S JS" -> three cards."""
    return tuple(parse_card(t) for t in text.split())


def melds(*texts: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(t) for t in texts)


SEQ7 = "3S 4S 5S 6S 7S 8S 9S"  # rule 13.1's own example: 300
NINES7 = "9C 9D 9H 9S 9S 9S 9H"  # rule 13.2's own example: 200
FOURS7 = "4C 4D 4H 4S 4S 4C 4H"  # rule 13.3: 100


def full(
    licence: tuple[str, ...] = (),
    later: tuple[str, ...] = (),
    hand: str = "",
    void: tuple[str, ...] = (),
    licence_by: str | None = None,
) -> FullSheet:
    return FullSheet(melds(*licence), melds(*later), melds(*void), cards(hand), licence_by)


def game(
    a: Sheet,
    b: Sheet,
    end: End = End.TIME,
    bhukhar: str | None = None,
    closed_by: str | None = None,
    penalties: tuple[Penalty, ...] = (),
) -> Game:
    return Game({"A": a, "B": b}, end, bhukhar, closed_by, penalties)
