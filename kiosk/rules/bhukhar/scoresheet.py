"""One game's scoresheet: what each team laid and held, and what it scores.

Rules 13 and 16-19. Each team's part of a game is entered at one of two
levels, and the same game gives the same result at either:

- `FullSheet`: every meld's cards (the licence, the melds laid after it, any
  void melds) and the cards left in the team's hands;
- `TotalsSheet`: the umpire's sums: the points on the table, the points in
  hand, and whether the team laid a licence.

A team's total (rule 18) is its table points, less its hand points, plus 50
for its licence (13.4), 50 for the bhukhar (13.5), 50 for closing the game
(13.6), less its penalties (rule 17), plus 100 for each false licence shown by
the opponents (17.1). The higher total earns 2 master points, the lower 0, a
tie 1 each (18.4, 19); a bonus point each for the licence, the bhukhar and
closing (19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from kiosk.errors import N_, Refused
from kiosk.rules.bhukhar.cards import Card, points
from kiosk.rules.bhukhar.melds import (
    LICENCE_MIN,
    Meld,
    MeldError,
    check_running_sets,
    licence_form,
    meld,
)

LICENCE_BONUS = 50  # rule 13.4
BHUKHAR_BONUS = 50  # rule 13.5
CLOSING_BONUS = 50  # rule 13.6
FALSE_LICENCE_AWARD = 100  # rule 17.1: given to the opponents
WIN_MASTER = 2  # rule 18.4
TIE_MASTER = 1  # rule 19


class ScoreError(Refused, ValueError):
    """A game entry that breaks the rules; the message names the team and the rule, `reason`
    the same as facts for the interface to word."""


class End(Enum):
    """How the game ended (rule 16)."""

    OUT = "out"  # 16.1: a player laid or joined his last card and closed the game
    STOCK = "stock"  # 16.2: the face-down stock ran out
    TIME = "time"  # 16.3: the organisers called time


class PenaltyKind(Enum):
    """Rule 17's penalties in points (cheating, 17.6, expels and is not scored)."""

    SIGNAL = "signal"  # 17.4 and rule 8: signalling a partner, 50
    ASK = "ask"  # 17.3 and rule 15: asking a hand size out of turn, 50
    FALSE_LICENCE = "false_licence"  # 17.1: 100 to the opponents; no licence for him
    UNFAIR = "unfair"  # 17.5: unfair play, 100


PENALTY_POINTS: dict[PenaltyKind, int] = {
    PenaltyKind.SIGNAL: 50,
    PenaltyKind.ASK: 50,
    PenaltyKind.FALSE_LICENCE: 0,  # the offender loses nothing; the opponents gain 100
    PenaltyKind.UNFAIR: 100,
}


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty on `team` (and, when known, on its `player`)."""

    team: str
    kind: PenaltyKind
    player: str | None = None


@dataclass(frozen=True, slots=True)
class FullSheet:
    """A team's cards at the end of the game.

    `licence`: the melds laid as the licence (empty: none laid); `melds`: the
    melds laid after it; `void`: false melds (rule 17.2) as they were shown, void
    and uncounted: their cards went back into the hand, and those laid again
    properly are in `licence` or `melds`, where they count like any laid card;
    `hand`: every card left in the team's three hands (the bhukhar pile
    included if the team took it and kept it), without the void cards still
    held, which count neither for nor against (17.2).
    """

    licence: tuple[tuple[Card, ...], ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    void: tuple[tuple[Card, ...], ...] = ()
    hand: tuple[Card, ...] = ()
    licence_by: str | None = None

    @property
    def has_licence(self) -> bool:
        return bool(self.licence)


@dataclass(frozen=True, slots=True)
class TotalsSheet:
    """A team's totals as the umpire counted them (rules 13, 18.1, 18.2)."""

    licence: bool
    table: int
    hand: int
    licence_by: str | None = None

    @property
    def has_licence(self) -> bool:
        return self.licence


Sheet: TypeAlias = FullSheet | TotalsSheet


@dataclass(frozen=True, slots=True)
class Game:
    """One game at a table between two teams (rule 11: one game per table)."""

    sheets: Mapping[str, Sheet]
    end: End
    bhukhar: str | None = None
    closed_by: str | None = None
    penalties: tuple[Penalty, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamScore:
    """A team's line of the scoresheet (rules 18, 19)."""

    team: str
    table: int
    hand: int
    licence: int
    bhukhar: int
    closing: int
    penalties: int  # net: own penalties negative, the opponents' false licences positive
    total: int
    master: int
    bonus: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """Both teams' lines, in the order of `Game.sheets`; `winner` None on a tie."""

    scores: tuple[TeamScore, TeamScore]
    winner: str | None

    def score(self, team: str) -> TeamScore:
        for s in self.scores:
            if s.team == team:
                return s
        raise KeyError(team)


def full_melds(team: str, sheet: FullSheet) -> tuple[tuple[Meld, ...], tuple[Meld, ...]]:
    """Check a full sheet's licence and melds (rules 9, 13.4); return them as Melds."""
    licence = tuple(_meld(team, "licence", i, cards) for i, cards in enumerate(sheet.licence))
    later = tuple(_meld(team, "meld", i, cards) for i, cards in enumerate(sheet.melds))
    if licence:
        try:
            licence_form(licence)
        except MeldError as exc:
            raise ScoreError.of(
                "false_licence", N_("team {team}: licence: {meld}"), team=team, meld=exc.whole
            ) from None
    elif later:
        raise ScoreError.of(
            "no_licence_melds",
            N_(
                "team {team}: melds on the table without a licence (rule {law}: the team's "
                "licence comes first)"
            ),
            law="9",
            team=team,
        )
    try:
        check_running_sets(licence + later)
    except MeldError as exc:
        raise ScoreError.of(
            "false_melds", N_("team {team}: {meld}"), team=team, meld=exc.whole
        ) from None
    return licence, later


#: A false meld in a full sheet, by where it was laid (the licence or a later meld).
_FALSE_MELD = {
    "licence": N_(
        "team {team}: licence {n}: {meld}; a false meld is entered under 'void' (rule {law})"
    ),
    "meld": N_("team {team}: meld {n}: {meld}; a false meld is entered under 'void' (rule {law})"),
}


def _meld(team: str, what: str, i: int, cards: Sequence[Card]) -> Meld:
    try:
        return meld(cards)
    except MeldError as exc:
        raise ScoreError.of(
            "false_meld", _FALSE_MELD[what], law="17.2", team=team, n=i + 1, meld=exc.whole
        ) from None


#: Totals that are not in fives (rule 12: cards are worth 5 or 10), table then hand.
_NOT_FIVES = (
    N_(
        "team {team}: table points {value} must be a non-negative multiple of 5 "
        "(rule {law}: cards are worth 5 or 10)"
    ),
    N_(
        "team {team}: hand points {value} must be a non-negative multiple of 5 "
        "(rule {law}: cards are worth 5 or 10)"
    ),
)


def _table_and_hand(team: str, sheet: Sheet) -> tuple[int, int]:
    if isinstance(sheet, TotalsSheet):
        for message, value in ((_NOT_FIVES[0], sheet.table), (_NOT_FIVES[1], sheet.hand)):
            if value < 0 or value % 5:
                raise ScoreError.of("not_fives", message, law="12", team=team, value=value)
        if not sheet.licence and sheet.table:
            raise ScoreError.of(
                "table_no_licence",
                N_("team {team}: {table} table points without a licence (rule {law})"),
                law="9",
                team=team,
                table=sheet.table,
            )
        if sheet.licence and sheet.table < LICENCE_MIN:
            raise ScoreError.of(
                "licence_short",
                N_(
                    "team {team}: {table} table points, but any licence is worth at "
                    "least {least} (rule {law})"
                ),
                law="13.4",
                team=team,
                table=sheet.table,
                least=LICENCE_MIN,
            )
        return sheet.table, sheet.hand
    licence, later = full_melds(team, sheet)
    # Rule 17.2: void melds count neither for nor against.
    return sum(m.value for m in licence + later), points(sheet.hand)


def physical_cards(sheet: FullSheet) -> list[Card]:
    """The fewest cards a full sheet needs, for the three-deck limit (rule 3).

    Rule 17.2: «નકામા પત્તા ખેલાડી પાછા પોતાના હાથમાં લઈ લેવા પડશે»: a void meld's
    cards go back into the player's hand, and he may lay them again properly. So a
    card listed under `void` may be the very card now laid in a meld or held in the
    hand: of each card the team needs as many copies as the larger of its void
    copies and its other copies, not their sum.
    """
    elsewhere: Counter[Card] = Counter(sheet.hand)
    for group in (sheet.licence, sheet.melds):
        for cs in group:
            elsewhere.update(cs)
    void: Counter[Card] = Counter(card for cs in sheet.void for card in cs)
    return list((elsewhere | void).elements())


def score_game(game: Game, rosters: Mapping[str, Sequence[str]] | None = None) -> GameResult:
    """Score one game by rules 13 and 16-19; ScoreError if the entry breaks a rule.

    `rosters` (team -> its players), when given, checks the players named in
    penalties and as licence layers.
    """
    # Imported here: the checks read this module's types (a module of their own for size).
    from kiosk.rules.bhukhar.game_checks import check_game

    a, b = check_game(game, rosters)
    rows: dict[str, dict[str, int]] = {}
    for team in (a, b):
        sheet = game.sheets[team]
        table, hand = _table_and_hand(team, sheet)
        rows[team] = {
            "table": table,
            "hand": hand,
            "licence": LICENCE_BONUS if sheet.has_licence else 0,
            "bhukhar": BHUKHAR_BONUS if game.bhukhar == team else 0,
            "closing": CLOSING_BONUS if game.closed_by == team else 0,
            "penalties": 0,
        }
    for p in game.penalties:
        rows[p.team]["penalties"] -= PENALTY_POINTS[p.kind]
        if p.kind is PenaltyKind.FALSE_LICENCE:
            rows[b if p.team == a else a]["penalties"] += FALSE_LICENCE_AWARD
    totals = {
        t: r["table"] - r["hand"] + r["licence"] + r["bhukhar"] + r["closing"] + r["penalties"]
        for t, r in rows.items()
    }
    if totals[a] == totals[b]:
        winner = None
        master = {a: TIE_MASTER, b: TIE_MASTER}
    else:
        winner = a if totals[a] > totals[b] else b
        master = {t: WIN_MASTER if t == winner else 0 for t in (a, b)}
    scores = tuple(
        TeamScore(
            team=t,
            total=totals[t],
            master=master[t],
            bonus=sum(1 for k in ("licence", "bhukhar", "closing") if rows[t][k]),
            **rows[t],
        )
        for t in (a, b)
    )
    return GameResult((scores[0], scores[1]), winner)


def to_totals(game: Game) -> Game:
    """The same game entered as totals (what the umpire would type from the cards)."""
    sheets: dict[str, Sheet] = {}
    for team, sheet in game.sheets.items():
        if isinstance(sheet, FullSheet):
            table, hand = _table_and_hand(team, sheet)
            sheets[team] = TotalsSheet(sheet.has_licence, table, hand, sheet.licence_by)
        else:
            sheets[team] = sheet
    return Game(sheets, game.end, game.bhukhar, game.closed_by, game.penalties)
