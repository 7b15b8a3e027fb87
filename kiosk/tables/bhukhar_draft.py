"""The Bhukhar game being entered: a draft the table holds and journals as it changes.

The umpire builds a game's scoresheet tap by tap: the table and the two teams, each team's
part as totals (table and hand points, a licence or not) or in full (every meld's cards and
the cards in hand, `CardsEntry`), who laid each licence (rule 17.1), how the game ended
(rule 16), the bhukhar and the closing (13.5, 13.6), rule 17's penalties, and a licence meld
spoiled later by a wrong card (17.2 after a licence, ruling of 2026-11-27). Every change
is a new frozen `Draft` (the table journals it, so a crash loses nothing); `game()` gives
the core's `Game`, which the rules judge only when it is entered. Nothing here is a rule:
the values come from the Bhukhar core (kiosk/rules/bhukhar).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kiosk.errors import N_, Reason, Refused
from kiosk.rules.bhukhar.cards import parse_card, parse_cards, points
from kiosk.rules.bhukhar.melds import ACE, Kind, Meld, MeldError, licence_form, meld
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    Penalty,
    PenaltyKind,
    Sheet,
    TotalsSheet,
)

#: Where a tapped card goes: the three kinds of meld, or the hand (rule 18.1).
SECTIONS = ("licence", "melds", "void", "hand")
MELD_SECTIONS = SECTIONS[:3]
#: The suits' signs, for the cards named in a refusal ("J♥ Q♥ K♥").
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: Which part of a side's totals a step changes.
TOTALS = ("points", "hand")


class DraftError(Refused, ValueError):
    """A change the draft cannot take; its `reason` says what to do instead, as facts the
    screen words in its language."""


Melds = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class CardsEntry:
    """A team's cards so far: melds by section, the hand, and the meld being laid.

    `spoiled`: the licence's melds (0 = the first) that a wrong card spoiled later (17.2):
    void, their cards not counted, while the licence, judged when laid (13.4), stands."""

    licence: Melds = ()
    melds: Melds = ()
    void: Melds = ()
    hand: tuple[str, ...] = ()
    laying: tuple[str, ...] = ()
    spoiled: tuple[int, ...] = ()

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
            raise DraftError.of(
                "meld_section",
                N_("the hand holds loose cards: choose Licence, Melds or Void first"),
            )
        if not self.laying:
            raise DraftError.of(
                "nothing_laid", N_("no cards laid yet: tap the meld's cards, then Close meld")
            )
        laid: Melds = (*getattr(self, section), self.laying)
        if section == "licence":
            return replace(self, laying=(), licence=laid)
        if section == "melds":
            return replace(self, laying=(), melds=laid)
        return replace(self, laying=(), void=laid)

    def toggle_spoiled(self, index: int) -> CardsEntry:
        """Licence meld `index` was spoiled later by a wrong card (17.2), or, tapped again,
        was not after all."""
        if not 0 <= index < len(self.licence):
            raise DraftError.of(
                "no_licence_meld",
                N_("the licence has {count} melds: no meld {n} to mark spoiled"),
                law="17.2",
                count=len(self.licence),
                n=index + 1,
            )
        if index in self.spoiled:
            return replace(self, spoiled=tuple(i for i in self.spoiled if i != index))
        return replace(self, spoiled=tuple(sorted((*self.spoiled, index))))

    def sheet(self, team: str) -> FullSheet:
        """The core's full sheet; DraftError while a meld is still being laid."""
        if self.laying:
            raise DraftError.of(
                "meld_being_laid",
                N_(
                    "team {team}: a meld is still being laid ({cards}): close it or take "
                    "its cards back"
                ),
                team=team,
                cards=faces(self.laying),
            )
        return FullSheet(
            licence=tuple(parse_cards(m) for m in self.licence),
            melds=tuple(parse_cards(m) for m in self.melds),
            void=tuple(parse_cards(m) for m in self.void),
            hand=parse_cards(self.hand),
            licence_spoiled=self.spoiled,
        )

    @property
    def standing(self) -> Melds:
        """The licence's melds that still count: those not spoiled later (17.2)."""
        return tuple(m for i, m in enumerate(self.licence) if i not in self.spoiled)

    def table_points(self) -> int:
        """The worth of the licence and melds that are melds and count (rules 13, 17.2,
        18.2): a licence meld spoiled later counts nothing."""
        return sum(m.value for m in checked_melds(self.standing + self.melds))

    def hand_points(self) -> int:
        return points(parse_cards(self.hand))

    def licence_reading(self) -> LicenceReading:
        """The licence as laid, as the core judges it (13.4 judges it then, its melds
        spoiled later too: 17.2)."""
        try:
            form = licence_form([meld(parse_cards(m)) for m in self.licence])
        except MeldError as exc:
            return LicenceReading(None, exc.why)
        return LicenceReading(form.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "licence": [list(m) for m in self.licence],
            "melds": [list(m) for m in self.melds],
            "void": [list(m) for m in self.void],
            "hand": list(self.hand),
            "laying": list(self.laying),
            "spoiled": list(self.spoiled),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardsEntry:
        def group(key: str) -> Melds:
            return tuple(tuple(str(c) for c in m) for m in data.get(key, ()))

        return cls(
            group("licence"),
            group("melds"),
            group("void"),
            tuple(str(c) for c in data.get("hand", ())),
            tuple(str(c) for c in data.get("laying", ())),
            tuple(int(i) for i in data.get("spoiled", ())),
        )


def faces(cards: tuple[str, ...]) -> str:
    """ "10H JH" -> "10♥ J♥" (a card's rank, then its suit's sign)."""
    return " ".join(card[:-1] + SUIT_SIGNS[card[-1]] for card in cards) or "-"


@dataclass(frozen=True, slots=True)
class MeldReading:
    """Some laid cards as the rules core reads them (rules 12-13): `cards` in the core's
    order (a sequence in order, the ace first when low), `kind` ("sequence", "set") and
    its worth; or `refused`, why they are not a meld (then `cards` as laid)."""

    cards: tuple[str, ...]
    kind: str | None = None
    value: int = 0
    ace_low: bool = False
    refused: Reason | None = None


@dataclass(frozen=True, slots=True)
class LicenceReading:
    """The licence's form as the core judges it (13.4: the LicenceForm's value), or
    `refused`: why it is not a licence yet."""

    form: str | None
    refused: Reason | None = None


def read_meld(cards: tuple[str, ...]) -> MeldReading:
    """`cards` as the core reads them, for a panel that shows a slip at once."""
    try:
        m = meld(parse_cards(cards))
    except MeldError as exc:
        return MeldReading(cards, refused=exc.why)
    low = m.kind is Kind.SEQUENCE and m.cards[0].rank == ACE
    return MeldReading(tuple(str(c) for c in m.cards), m.kind.value, m.value, low)


def checked_melds(melds: Melds) -> list[Meld]:
    """The groups of cards that are melds (those that are not are left out)."""
    out = []
    for cards in melds:
        try:
            out.append(meld(parse_cards(cards)))
        except MeldError:
            continue
    return out


@dataclass(frozen=True, slots=True)
class SideDraft:
    """One team's part of the game: as totals, or in full (`cards`)."""

    licence: bool = True
    points: int = 0
    hand: int = 0
    full: bool = False
    cards: CardsEntry = CardsEntry()
    #: Who laid the team's licence: an index into the team's players, -1 not named.
    licence_by: int = -1
    #: As totals: a meld of the licence was spoiled later (17.2): the table points hold
    #: only what still counts, so below the 100 a licence is worth when laid (13.4).
    spoiled: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "licence": self.licence,
            "points": self.points,
            "hand": self.hand,
            "full": self.full,
            "cards": self.cards.to_dict(),
            "licence_by": self.licence_by,
            "spoiled": self.spoiled,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SideDraft:
        return cls(
            bool(data.get("licence", True)),
            int(data.get("points", 0)),
            int(data.get("hand", 0)),
            bool(data.get("full", False)),
            CardsEntry.from_dict(data.get("cards", {})),
            int(data.get("licence_by", -1)),
            bool(data.get("spoiled", False)),
        )


Sides = tuple[SideDraft, SideDraft]


@dataclass(frozen=True, slots=True)
class Draft:
    """The game being entered at `table_no` between the teams `pair` (ids)."""

    pair: tuple[str, str]
    table_no: int = 1
    sides: Sides = (SideDraft(), SideDraft())
    end: End = End.OUT
    #: Which side of the pair took the bhukhar (13.5): 0, 1, or -1 for none yet.
    bhukhar: int = -1
    #: Which side closed the game (13.6, with "out").
    closed_by: int = 0
    #: Rule 17's penalties: (side, kind, player index or -1), in the order added.
    penalties: tuple[tuple[int, PenaltyKind, int], ...] = ()

    # -- changes (each returns the new draft) ----------------------------------------
    def _side(self, side: int, **changes: Any) -> Draft:
        sides = list(self.sides)
        sides[side] = replace(sides[side], **changes)
        return replace(self, sides=(sides[0], sides[1]))

    def step_table(self, delta: int) -> Draft:
        return replace(self, table_no=max(1, self.table_no + delta))

    def next_team(self, side: int, teams: Sequence[str]) -> Draft:
        """The next team of the session on this side (never the other side's)."""
        pair = list(self.pair)
        at = teams.index(pair[side]) if pair[side] in teams else -1
        choice = teams[(at + 1) % len(teams)]
        if choice == pair[1 - side]:
            choice = teams[(at + 2) % len(teams)]
        pair[side] = choice
        return replace(self, pair=(pair[0], pair[1]))

    def step(self, what: str, side: int, delta: int) -> Draft:
        """Table or hand points of one side, by `delta` (never below 0)."""
        if what not in TOTALS:
            raise DraftError.of(
                "no_such_total",
                N_("no such total: {what} (one of {totals})"),
                what=what,
                totals=", ".join(TOTALS),
            )
        value = max(0, int(getattr(self.sides[side], what)) + delta)
        return self._side(side, **{what: value})

    def toggle_licence(self, side: int) -> Draft:
        return self._side(side, licence=not self.sides[side].licence)

    def toggle_spoiled(self, side: int) -> Draft:
        """As totals: a meld of this side's licence was spoiled later (17.2), or was not."""
        return self._side(side, spoiled=not self.sides[side].spoiled)

    def toggle_full(self, side: int) -> Draft:
        """Enter this side's part in full (its cards) or as totals; the other is kept."""
        return self._side(side, full=not self.sides[side].full)

    def choose_end(self, end: End) -> Draft:
        return replace(self, end=end)

    def choose_bhukhar(self, side: int) -> Draft:
        """Who took the bhukhar: 0 or 1 of the pair, -1 nobody."""
        return replace(self, bhukhar=side if side in (0, 1) else -1)

    def choose_closed(self, side: int) -> Draft:
        return replace(self, closed_by=1 if side else 0)

    def choose_licence_by(self, side: int, player: int) -> Draft:
        """Who laid this side's licence (rule 17.1); the same player again takes the name off."""
        current = self.sides[side].licence_by
        return self._side(side, licence_by=-1 if current == player else player)

    def add_penalty(self, side: int, kind: PenaltyKind, player: int = -1) -> Draft:
        return replace(self, penalties=(*self.penalties, (side, kind, player)))

    def take_back_penalty(self) -> Draft:
        return replace(self, penalties=self.penalties[:-1])

    def with_cards(self, side: int, cards: CardsEntry) -> Draft:
        return self._side(side, cards=cards)

    def after_entry(self) -> Draft:
        """The draft once its game is entered: the scores go, the table and teams stay."""
        return Draft(self.pair, self.table_no, end=self.end)

    # -- the game --------------------------------------------------------------------
    def sheet(self, side: int, rosters: Mapping[str, Sequence[str]]) -> Sheet:
        s, team = self.sides[side], self.pair[side]
        by = player_name(rosters, team, s.licence_by)
        if s.full:
            return replace(s.cards.sheet(team), licence_by=by)
        return TotalsSheet(s.licence, s.points, s.hand, by, licence_spoiled=s.spoiled)

    def game(self, rosters: Mapping[str, Sequence[str]]) -> Game:
        """The game as entered: each team's sheet, how it ended (rule 16), its penalties
        (rule 17). The Bhukhar core checks it when it is entered."""
        a, b = self.pair
        return Game(
            sheets={a: self.sheet(0, rosters), b: self.sheet(1, rosters)},
            end=self.end,
            bhukhar=None if self.bhukhar < 0 else self.pair[self.bhukhar],
            closed_by=self.pair[self.closed_by] if self.end is End.OUT else None,
            penalties=tuple(
                Penalty(self.pair[side], kind, player_name(rosters, self.pair[side], player))
                for side, kind, player in self.penalties
            ),
        )

    # -- the journal's form ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "pair": list(self.pair),
            "table": self.table_no,
            "sides": [s.to_dict() for s in self.sides],
            "end": self.end.value,
            "bhukhar": self.bhukhar,
            "closed_by": self.closed_by,
            "penalties": [[side, kind.value, player] for side, kind, player in self.penalties],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Draft:
        a, b = (str(t) for t in data["pair"])
        s0, s1 = (SideDraft.from_dict(s) for s in data["sides"])
        return cls(
            (a, b),
            int(data.get("table", 1)),
            (s0, s1),
            End(data.get("end", End.OUT.value)),
            int(data.get("bhukhar", -1)),
            int(data.get("closed_by", 0)),
            tuple(
                (int(side), PenaltyKind(kind), int(player))
                for side, kind, player in data.get("penalties", ())
            ),
        )


def player_name(rosters: Mapping[str, Sequence[str]], team: str, index: int) -> str | None:
    players = rosters.get(team, ())
    return players[index] if 0 <= index < len(players) else None
