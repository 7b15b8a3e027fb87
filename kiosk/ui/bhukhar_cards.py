"""One team's cards for a Bhukhar game entered in full, in the panel's words (no keyboard).

The umpire taps a card from the 52 on screen; the table's draft (kiosk/tables/bhukhar_draft.py
`CardsEntry`) puts it on the meld being laid, or straight into the hand; "Close meld" puts
the meld under the licence (rule 13.4), the melds laid after it, or the void melds (rule
17.2). Each meld is read by the rules core as it is shown (kiosk/rules/bhukhar/melds.py: a
sequence, a set, its worth by rules 12-13, or why it is not a meld), so the umpire sees a
slip at once; the whole game is judged only when it is entered. A sequence shows in the
core's order, the ace first when it is low (A 2 3) and said so; the licence's melds are
numbered, and one a wrong card spoiled later (17.2) is drawn in the warning's colour and
said VOID, the licence standing. Kivy-free.
"""

from __future__ import annotations

from kiosk.rules.bhukhar.cards import RANKS, SUITS, parse_card
from kiosk.tables.bhukhar_draft import MELD_SECTIONS, SECTIONS, SUIT_SIGNS, CardsEntry, read_meld
from kiosk.ui.words import N_, Words, english, reason_words

__all__ = ["ALL_CARDS", "RED_SUITS", "SECTIONS", "card_face", "licence_faces", "lines", "summary"]
SECTION_WORDS = {
    "licence": N_("Licence"),
    "melds": N_("Melds"),
    "void": N_("Void (17.2)"),
    "hand": N_("Hand"),
}
RED_SUITS = frozenset("HD")
#: Card faces on screen: rank and suit sign; the record keeps "10H" (docs/bhukhar.md).
ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
_RED = "ff7b72"
_BAD = "ff9f7a"
_DIM = "9aa4b2"


def card_face(card: str, markup: bool = False) -> str:
    """ "10H" -> "10♥" (red in Kivy markup when `markup`)."""
    c = parse_card(card)
    rank, suit = RANKS[c.rank], c.suit
    face = rank + SUIT_SIGNS[suit]
    return f"[color={_RED}]{face}[/color]" if markup and suit in RED_SUITS else face


def faces(cards: tuple[str, ...], markup: bool = False) -> str:
    return " ".join(card_face(c, markup) for c in cards) or "-"


def licence_faces(entry: CardsEntry) -> list[str]:
    """Each licence meld numbered with its cards as the core orders them ("2) A♥ 2♥ 3♥"),
    for the buttons that mark one spoiled later (17.2)."""
    out = []
    for n, cards in enumerate(entry.licence, 1):
        out.append(f"{n}) {faces(read_meld(cards).cards)}")
    return out


def summary(entry: CardsEntry, _: Words = english) -> str:
    """One line for the side's box: table and hand points, melds and cards so far."""
    if entry.empty:
        return _("No cards yet")
    laid = len(entry.standing) + len(entry.melds)
    table, hand = entry.table_points(), entry.hand_points()
    if laid == 1:
        words = _("Table {table} · hand {hand} · 1 meld", table=table, hand=hand)
    else:
        words = _("Table {table} · hand {hand} · {n} melds", table=table, hand=hand, n=laid)
    if entry.void:
        words += _(" · {n} void", n=len(entry.void))
    if entry.spoiled:
        words += _(" · licence meld spoiled: {n}", n=len(entry.spoiled))
    if entry.laying:
        words += _(" · a meld open")
    return words


def lines(entry: CardsEntry, _: Words = english) -> list[str]:
    """The panel's reading, in Kivy markup: each section, those still empty on one line, the
    hand, the meld being laid. The licence's melds are numbered (as the "spoiled later"
    buttons are)."""
    out, empty = [], []
    for section in MELD_SECTIONS:
        laid: tuple[tuple[str, ...], ...] = getattr(entry, section)
        if not laid:  # the sections with nothing yet share one line: room for the rest
            empty.append(f"[b]{_(SECTION_WORDS[section])}:[/b] -")
            continue
        if section == "licence":
            shown = "   ".join(
                f"{n}) " + _meld_words(m, _, spoiled=n - 1 in entry.spoiled)
                for n, m in enumerate(laid, 1)
            )
        else:
            shown = "   ".join(_meld_words(m, _, void=section == "void") for m in laid)
        out.append(f"[b]{_(SECTION_WORDS[section])}:[/b] {shown}")
        if section == "licence":
            out.append("      " + _licence_words(entry, _))
    if empty:
        out.append("   ".join(empty))
    out.append(f"[b]{_('Hand')}:[/b] {faces(entry.hand, True)}   = {entry.hand_points()}")
    if entry.laying:
        out.append(f"[b]{_('Laying')}:[/b] {_meld_words(entry.laying, _)}")
    return out


def _meld_words(cards: tuple[str, ...], _: Words, void: bool = False, spoiled: bool = False) -> str:
    shown = faces(cards, True)
    if void:
        return f"{shown} [color={_DIM}]({_('not counted')})[/color]"
    m = read_meld(cards)
    if m.refused is not None:
        # Worded outside the f-string: Babel does not look inside one.
        said = _("not a meld: {reason}", reason=reason_words(m.refused, _))
        return f"{shown} [color={_BAD}]({said})[/color]"
    # The meld as the core reads it: a sequence in order, the ace first when low (A 2 3).
    shown = faces(m.cards, True)
    if spoiled:  # all of it in the warning's colour, the cards' own colours dropped
        said = _("VOID: spoiled later, not counted; the licence stands (17.2)")
        return f"[color={_BAD}]{faces(m.cards)} ({said})[/color]"
    if m.ace_low:
        said = _("sequence {value}, ace low", value=m.value)
    else:
        kind = m.kind or ""
        said = f"{_(KIND_WORDS.get(kind, kind))} {m.value}"
    return f"{shown} [color={_DIM}]({said})[/color]"


#: The core's meld kinds, in the panel's words.
KIND_WORDS = {"sequence": N_("sequence"), "set": N_("set")}


def _licence_words(entry: CardsEntry, _: Words) -> str:
    """The licence as laid (13.4 judges it then, its spoiled melds too: 17.2)."""
    reading = entry.licence_reading()
    if reading.refused is not None:
        said = _("not a licence yet: {reason}", reason=reason_words(reading.refused, _))
        return f"[color={_BAD}]{said}[/color]"
    form = reading.form or ""
    said = _("licence: {form} (13.4)", form=_(FORM_WORDS.get(form, form)))
    if entry.spoiled:
        said += " · " + _("it stands though a meld of it was spoiled later (17.2)")
    return f"[color={_DIM}]{said}[/color]"


#: Rule 13.4's three forms (the core's LicenceForm values), in the panel's words.
FORM_WORDS = {
    "a seven-card sequence": N_("a seven-card sequence"),
    "a seven-card set and a sequence": N_("a seven-card set and a sequence"),
    "melds of at least three cards worth 100 or more": N_(
        "melds of at least three cards worth 100 or more"
    ),
}
