"""One team's cards for a Bhukhar game entered in full, built up by taps (no keyboard).

The umpire taps a card from the 52 on screen; it goes to the meld being laid, or straight
to the hand. "Close meld" puts the meld under the licence (rule 13.4), the melds laid after
it, or the void melds (rule 17.2). Each meld is read by the rules core as it is laid
(kiosk/rules/bhukhar/melds.py: a sequence, a set, its worth by rules 12-13, or why it is
not a meld), so the umpire sees a slip at once; the whole game is judged only when it is
entered (kiosk/rules/bhukhar/scoresheet.py). Kivy-free: the screen keeps one CardsEntry a
side and a stack of earlier ones for "Take back".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk.errors import TablesideError
from kiosk.rules.bhukhar.cards import RANKS, SUITS, parse_card, parse_cards, points
from kiosk.rules.bhukhar.melds import Meld, MeldError, licence_form, meld
from kiosk.rules.bhukhar.scoresheet import FullSheet
from kiosk.ui.words import N_, Words, english

#: Where a tapped card goes: the three kinds of meld, or the hand (rule 18.1).
SECTIONS = ("licence", "melds", "void", "hand")
MELD_SECTIONS = SECTIONS[:3]
SECTION_WORDS = {
    "licence": N_("Licence"),
    "melds": N_("Melds"),
    "void": N_("Void (17.2)"),
    "hand": N_("Hand"),
}
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")
#: Card faces on screen: rank and suit sign; the record keeps "10H" (docs/bhukhar.md).
ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
_RED = "ff7b72"
_BAD = "ff9f7a"
_DIM = "9aa4b2"


class EntryError(TablesideError, ValueError):
    """A tap that cannot be taken (the reason says what to do instead)."""


def card_face(card: str, markup: bool = False) -> str:
    """ "10H" -> "10♥" (red in Kivy markup when `markup`)."""
    c = parse_card(card)
    rank, suit = RANKS[c.rank], c.suit
    face = rank + SUIT_SIGNS[suit]
    return f"[color={_RED}]{face}[/color]" if markup and suit in RED_SUITS else face


def faces(cards: tuple[str, ...], markup: bool = False) -> str:
    return " ".join(card_face(c, markup) for c in cards) or "-"


@dataclass(frozen=True, slots=True)
class CardsEntry:
    """A team's cards so far: melds by section, the hand, and the meld being laid."""

    licence: tuple[tuple[str, ...], ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    void: tuple[tuple[str, ...], ...] = ()
    hand: tuple[str, ...] = ()
    laying: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.licence or self.melds or self.void or self.hand or self.laying)

    def add(self, card: str, section: str) -> CardsEntry:
        """A tapped card: into the hand, or onto the meld being laid."""
        parse_card(card)
        if section == "hand":
            return replace(self, hand=(*self.hand, card))
        return replace(self, laying=(*self.laying, card))

    def close_meld(self, section: str) -> CardsEntry:
        """The meld being laid goes under `section` (licence, melds or void)."""
        if section not in MELD_SECTIONS:
            raise EntryError("the hand holds loose cards: choose Licence, Melds or Void first")
        if not self.laying:
            raise EntryError("no cards laid yet: tap the meld's cards, then Close meld")
        laid = self.laying
        if section == "licence":
            return replace(self, laying=(), licence=(*self.licence, laid))
        if section == "melds":
            return replace(self, laying=(), melds=(*self.melds, laid))
        return replace(self, laying=(), void=(*self.void, laid))

    def sheet(self, team: str) -> FullSheet:
        """The core's full sheet; EntryError while a meld is still being laid."""
        if self.laying:
            raise EntryError(
                f"team {team}: a meld is still being laid ({faces(self.laying)}): "
                "close it or take its cards back"
            )
        return FullSheet(
            licence=tuple(parse_cards(m) for m in self.licence),
            melds=tuple(parse_cards(m) for m in self.melds),
            void=tuple(parse_cards(m) for m in self.void),
            hand=parse_cards(self.hand),
        )

    # -- what the panel shows (the core's reading of each meld) ---------------------
    def table_points(self) -> int:
        """The worth of the licence and melds that are melds (rules 13, 18.2)."""
        return sum(m.value for m in self._checked(self.licence + self.melds))

    def hand_points(self) -> int:
        return points(parse_cards(self.hand))

    def summary(self, _: Words = english) -> str:
        """One line for the side's box: table and hand points, melds and cards so far."""
        if self.empty:
            return _("No cards yet")
        laid = len(self.licence) + len(self.melds)
        table, hand = self.table_points(), self.hand_points()
        if laid == 1:
            words = _("Table {table} · hand {hand} · 1 meld", table=table, hand=hand)
        else:
            words = _("Table {table} · hand {hand} · {n} melds", table=table, hand=hand, n=laid)
        if self.void:
            words += _(" · {n} void", n=len(self.void))
        if self.laying:
            words += _(" · a meld open")
        return words

    def lines(self, _: Words = english) -> list[str]:
        """The panel's reading, in Kivy markup: each section, the hand, the meld being laid."""
        out = []
        for section in MELD_SECTIONS:
            laid: tuple[tuple[str, ...], ...] = getattr(self, section)
            shown = "   ".join(_meld_words(m, _, void=section == "void") for m in laid) or "-"
            out.append(f"[b]{_(SECTION_WORDS[section])}:[/b] {shown}")
            if section == "licence" and self.licence:
                out.append("      " + _licence_words(self.licence, _))
        out.append(f"[b]{_('Hand')}:[/b] {faces(self.hand, True)}   = {self.hand_points()}")
        if self.laying:
            out.append(f"[b]{_('Laying')}:[/b] {_meld_words(self.laying, _)}")
        return out

    @staticmethod
    def _checked(melds: tuple[tuple[str, ...], ...]) -> list[Meld]:
        out = []
        for cards in melds:
            try:
                out.append(meld(parse_cards(cards)))
            except MeldError:
                continue
        return out


def _meld_words(cards: tuple[str, ...], _: Words, void: bool = False) -> str:
    shown = faces(cards, True)
    if void:
        return f"{shown} [color={_DIM}]({_('not counted')})[/color]"
    try:
        m = meld(parse_cards(cards))
    except MeldError as exc:
        reason = exc.reason
        return f"{shown} [color={_BAD}]({_('not a meld: {reason}', reason=reason)})[/color]"
    return (
        f"{shown} [color={_DIM}]({_(KIND_WORDS.get(m.kind.value, m.kind.value))} {m.value})[/color]"
    )


#: The core's meld kinds, in the panel's words.
KIND_WORDS = {"sequence": N_("sequence"), "set": N_("set")}


def _licence_words(licence: tuple[tuple[str, ...], ...], _: Words) -> str:
    try:
        checked = [meld(parse_cards(m)) for m in licence]
        form = licence_form(checked)
    except MeldError as exc:
        reason = exc.reason
        return f"[color={_BAD}]{_('not a licence yet: {reason}', reason=reason)}[/color]"
    return f"[color={_DIM}]{_('licence: {form} (13.4)', form=form.value)}[/color]"
