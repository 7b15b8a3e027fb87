"""The Bhukhar table: the round timer and the scoresheet, as totals or in full.

Built on the Bhukhar engineer's table session (kiosk/engine/bhukhar_table.py): the
round timer (rule 10: 30 to 35 minutes, warnings, time called, rule 16.3) and each
game (rules 13, 18, 19) are checked by the rules, written to the session record and
synced before this screen shows them. Each team's part of a game is entered as totals
(table and hand points) or in full (every meld's cards and the cards in hand, tapped on a
52-card panel: kiosk/ui/bhukhar_cards.py), with the player who laid the team's licence
(rule 17.1 bars a player who showed a false licence from laying it). Rule 17's penalties
are added on a panel of their own and listed on the screen before the game is entered.
The screen only gathers the umpire's choices and shows what the table answers; a refused
game keeps everything entered so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from kiosk.clocks.patterns import Pattern
from kiosk.engine.bhukhar_table import BhukharTable, TableFileError
from kiosk.rules.bhukhar.record import SessionError
from kiosk.rules.bhukhar.scoresheet import (
    FALSE_LICENCE_AWARD,
    PENALTY_POINTS,
    End,
    Game,
    GameResult,
    Penalty,
    PenaltyKind,
    ScoreError,
    Sheet,
    TotalsSheet,
)
from kiosk.ui.bhukhar_cards import (
    ALL_CARDS,
    RED_SUITS,
    SECTIONS,
    CardsEntry,
    card_face,
)
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import BigButton
from kiosk.ui.words import N_, Words, english

ENDS = (End.OUT, End.STOCK, End.TIME)
END_WORDS = {
    End.OUT: N_("went out (16.1)"),
    End.STOCK: N_("stock ran out (16.2)"),
    End.TIME: N_("time (16.3)"),
}
TEAM_IDS = "ABCDEF"
#: Rule 17's penalties as the panel names them: what was done and the rule (rules 8 and
#: 15 forbid the signal and the question; 17.3-17.5 fine the team, 17.1 rewards the other).
PENALTY_WORDS = {
    PenaltyKind.SIGNAL: N_("Signalling a partner (8, 17.4)"),
    PenaltyKind.ASK: N_("Asking a hand size out of turn (15, 17.3)"),
    PenaltyKind.UNFAIR: N_("Unfair play (17.5)"),
    PenaltyKind.FALSE_LICENCE: N_("False licence (17.1)"),
}
PENALTY_SHORT = {
    PenaltyKind.SIGNAL: N_("signal"),
    PenaltyKind.ASK: N_("ask"),
    PenaltyKind.UNFAIR: N_("unfair"),
    PenaltyKind.FALSE_LICENCE: N_("false licence"),
}
_T = TypeVar("_T")


def penalty_points(kind: PenaltyKind, other: str, _: Words = english) -> str:
    """What a penalty does to the scores: "-50", or "+100 to B" for a false licence."""
    if kind is PenaltyKind.FALSE_LICENCE:
        return _("+{points} to {team}", points=FALSE_LICENCE_AWARD, team=other)
    return f"-{PENALTY_POINTS[kind]}"


def penalty_line(
    team: str, other: str, kind: PenaltyKind, player: str | None, _: Words = english
) -> str:
    """One penalty in words, for the panel's list: "B: Asking ... (15, 17.3), B2: -50"."""
    who = f", {player}" if player else ""
    return f"{team}: {_(PENALTY_WORDS[kind])}{who}: {penalty_points(kind, other, _)}"


def penalty_short(
    team: str, other: str, kind: PenaltyKind, player: str | None, _: Words = english
) -> str:
    """One penalty in a few words, for the game's line: "B ask (B2) -50"."""
    who = f" ({player})" if player else ""
    return f"{team} {_(PENALTY_SHORT[kind])}{who} {penalty_points(kind, other, _)}"


def result_words(table_no: int, result: GameResult, _: Words = english) -> str:
    """The entered game's line: each team's total, its penalties when any, master points."""
    parts = []
    for s in result.scores:
        pen = _(" (penalties {n})", n=f"{s.penalties:+d}") if s.penalties else ""
        parts.append(
            _(
                "{team}: {total} pts{penalties}, {master} master",
                team=s.team,
                total=s.total,
                penalties=pen,
                master=s.master,
            )
        )
    return _("Table {n} entered. ", n=table_no) + "; ".join(parts)


class BhukharSetupScreen(Screen):
    """How many teams (three players each, rule 2) and the round's length (rule 10)."""

    teams = NumericProperty(2)
    round_minutes = NumericProperty(30)
    message = StringProperty("")

    def step_teams(self, delta: int) -> None:
        self.teams = max(2, min(len(TEAM_IDS), int(self.teams) + delta))

    def step_minutes(self, delta: int) -> None:
        self.round_minutes = max(30, min(35, int(self.round_minutes) + delta))


class CardButton(BigButton):
    """One of the 52 cards on the full-entry panel ("10H" shown as "10♥")."""

    card = StringProperty("")
    red = BooleanProperty(False)


class CardGrid(GridLayout):
    """The 52 cards, a row per suit, two to ace; `on_card(card)` when one is tapped.

    `buttons` maps "10H" to its button (the tests tap them)."""

    __events__ = ("on_card",)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("cols", 13)
        super().__init__(**kw)
        self.buttons: dict[str, CardButton] = {}
        for card in ALL_CARDS:
            button = CardButton(card=card, text=card_face(card), red=card[-1] in RED_SUITS)
            button.bind(on_release=lambda b: self.dispatch("on_card", b.card))
            self.buttons[card] = button
            self.add_widget(button)

    def on_card(self, card: str) -> None:
        """Kivy's default handler of the event (the .kv binds the screen's)."""


class BhukharScreen(Screen):
    """The round clock on the left, the game's entry and the standings on the right; the
    cards panel over it all while a team's cards are entered in full."""

    table: Any = ObjectProperty(None, allownone=True)
    clock_face = StringProperty("")
    round_no = NumericProperty(0)
    running = BooleanProperty(False)
    paused = BooleanProperty(False)
    time_called = BooleanProperty(False)
    team_ids = ListProperty([])
    # the game being entered
    table_no = NumericProperty(1)
    pair = ListProperty([0, 1])  # indexes into team_ids
    licence = ListProperty([True, True])
    points = ListProperty([0, 0])  # table points
    hand = ListProperty([0, 0])
    end = NumericProperty(0)  # index into ENDS
    bhukhar = NumericProperty(-1)  # -1: none, else 0/1 of the pair
    closed_by = NumericProperty(0)  # 0/1 of the pair (with "out")
    message = StringProperty("")
    refused = BooleanProperty(False)
    standings = StringProperty("")
    # the full entry: which sides are entered in full, and the cards panel
    full = ListProperty([False, False])
    summaries = ListProperty(["No cards yet", "No cards yet"])
    cards_open = BooleanProperty(False)
    cards_side = NumericProperty(0)
    section = StringProperty("licence")
    cards_lines = StringProperty("")
    cards_message = StringProperty("")
    can_take_back = BooleanProperty(False)
    # who laid each side's licence: an index into that side's players, -1 not named
    licence_by = ListProperty([-1, -1])
    side_players = ListProperty([["", "", ""], ["", "", ""]])
    # rule 17's penalties of the game: [side, kind value, player index or -1] each
    penalties = ListProperty([])
    penalty_summary = StringProperty("No penalties (rule 17)")
    pen_open = BooleanProperty(False)
    pen_side = NumericProperty(0)
    pen_kind = StringProperty("")  # a PenaltyKind value, "" before one is chosen
    pen_player = NumericProperty(-1)
    pen_lines = StringProperty("")
    pen_message = StringProperty("")

    def __init__(self, sound: Callable[[Pattern], None] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self._sound = sound
        self.cards: list[CardsEntry] = [CardsEntry(), CardsEntry()]
        #: Earlier states of each side's cards, for "Take back" (newest last).
        self._history: list[list[CardsEntry]] = [[], []]
        self._rosters: dict[str, list[str]] = {}
        tr.on_switch(self.reword)

    def reword(self) -> None:
        """The language changed: word the cards, the penalties and the standings again."""
        self._show_cards()
        self._show_penalties()
        self._show_standings()

    def attach(self, table: BhukharTable) -> None:
        if table is not self.table:  # another session: nothing of the last one's game
            self._reset_cards()
            self.licence_by = [-1, -1]
            self.penalties = []
        self.table = table
        self._rosters = {t.id: list(t.players) for t in table.session.start.teams}
        self.team_ids = [t.id for t in table.session.start.teams]
        self.pair = [0, 1]
        self._show_players()
        self._show_standings()
        self.follow(table.clock())

    # -- the round timer -----------------------------------------------------------
    def follow(self, now: float) -> None:
        """The app's tick: the face, and the buzzer patterns that fell due."""
        table = self.table
        if table is None:
            return
        for pattern in table.due(now):
            if self._sound is not None:
                self._sound(pattern)
        self.clock_face = table.face(now)
        self.round_no = table.round
        self.running = table.timer.running
        self.paused = table.timer.paused
        self.time_called = table.time_called(now)

    def _call(self, action: Callable[[], _T]) -> _T | None:
        try:
            result = action()
        except (SessionError, ScoreError, TableFileError, ValueError) as exc:
            self.refused = True
            self.message = str(exc)
            return None
        self.refused = False
        return result

    def start_round(self) -> None:
        if self.table is not None and self._call(self.table.start_round) is not None:
            self.message = tr._("Round {n} started", n=self.table.round)
            self.follow(self.table.clock())

    def pause_or_resume(self) -> None:
        if self.table is not None:
            self._call(self.table.resume if self.paused else self.table.pause)
            self.follow(self.table.clock())

    # -- the totals entry ------------------------------------------------------------
    def cycle_team(self, side: int) -> None:
        pair = list(self.pair)
        other = pair[1 - side]
        choice = (pair[side] + 1) % len(self.team_ids)
        if choice == other:
            choice = (choice + 1) % len(self.team_ids)
        pair[side] = choice
        self.pair = pair
        self._show_players()

    def step(self, what: str, side: int, delta: int) -> None:
        """Table or hand points of one side of the pair, by `delta` (never below 0)."""
        values = list(getattr(self, what))
        values[side] = max(0, values[side] + delta)
        setattr(self, what, values)

    def toggle_licence(self, side: int) -> None:
        values = list(self.licence)
        values[side] = not values[side]
        self.licence = values

    def step_table(self, delta: int) -> None:
        self.table_no = max(1, int(self.table_no) + delta)

    def cycle_end(self) -> None:
        self.end = (int(self.end) + 1) % len(ENDS)

    def cycle_bhukhar(self) -> None:
        self.bhukhar = {-1: 0, 0: 1, 1: -1}[int(self.bhukhar)]

    def cycle_closed(self) -> None:
        self.closed_by = 1 - int(self.closed_by)

    def choose_licence_by(self, side: int, player: int) -> None:
        """Who laid this side's licence (rule 17.1); tapping the chosen player again
        takes the name off."""
        values = list(self.licence_by)
        values[side] = -1 if values[side] == player else player
        self.licence_by = values

    def _ids(self) -> list[str]:
        return [self.team_ids[i] for i in self.pair] if self.team_ids else ["", ""]

    def _show_players(self) -> None:
        """The players of the two teams in the pair, for the chips naming them."""
        self.side_players = [self._rosters.get(t, ["", "", ""]) for t in self._ids()]
        self._show_penalties()

    # -- rule 17's penalties -------------------------------------------------------------
    def open_penalties(self) -> None:
        self.pen_kind = ""
        self.pen_player = -1
        self.pen_message = ""
        self.pen_open = True
        self._show_penalties()

    def close_penalties(self) -> None:
        self.pen_open = False

    def choose_pen_side(self, side: int) -> None:
        if side != self.pen_side:
            self.pen_side = side
            self.pen_player = -1  # the other team's players
        self.pen_message = ""

    def choose_pen_kind(self, kind: str) -> None:
        self.pen_kind = PenaltyKind(kind).value
        self.pen_message = ""

    def choose_pen_player(self, player: int) -> None:
        self.pen_player = player
        self.pen_message = ""

    def add_penalty(self) -> None:
        """The chosen penalty onto the game's list. Nothing is added until a penalty is
        chosen, and the choice is cleared after each, so a second tap adds nothing."""
        if not self.pen_kind:
            self.pen_message = tr._("Choose the penalty first (rule 17): nothing added")
            return
        self.penalties = [
            *self.penalties,
            [int(self.pen_side), self.pen_kind, int(self.pen_player)],
        ]
        self.pen_kind = ""
        self.pen_player = -1
        self.pen_message = ""
        self._show_penalties()

    def take_back_penalty(self) -> None:
        if self.penalties:
            self.penalties = list(self.penalties)[:-1]
            self.pen_message = ""
            self._show_penalties()

    def _penalty_parts(self) -> list[tuple[str, str, PenaltyKind, str | None]]:
        ids = self._ids()
        parts = []
        for side, kind, player in self.penalties:
            name = self.side_players[side][player] if player >= 0 else None
            parts.append((ids[side], ids[1 - side], PenaltyKind(kind), name))
        return parts

    def _show_penalties(self) -> None:
        parts = self._penalty_parts()
        self.pen_lines = "\n".join(
            f"{n}. {penalty_line(*p, tr._)}" for n, p in enumerate(parts, 1)
        ) or tr._("No penalties in this game")
        self.penalty_summary = (
            tr._("Penalties: {list}", list=" · ".join(penalty_short(*p, tr._) for p in parts))
            if parts
            else tr._("No penalties (rule 17)")
        )

    # -- the full entry -----------------------------------------------------------------
    def toggle_full(self, side: int) -> None:
        """Enter this side's part in full (its cards) or as totals; the other is kept."""
        full = list(self.full)
        full[side] = not full[side]
        self.full = full

    def open_cards(self, side: int) -> None:
        """The cards panel for one side; a team's first melds are its licence (rule 9)."""
        self.cards_side = side
        self.section = "melds" if self.cards[side].licence else "licence"
        self.cards_message = ""
        self.cards_open = True
        self._show_cards()

    def close_cards(self) -> None:
        self.cards_open = False

    def choose_section(self, section: str) -> None:
        if section in SECTIONS:
            self.section = section
            self.cards_message = ""

    def tap_card(self, card: str) -> None:
        """A card of the 52: onto the meld being laid, or into the hand."""
        self._change(lambda entry: entry.add(card, self.section))

    def close_meld(self) -> None:
        self._change(lambda entry: entry.close_meld(self.section))

    def clear_cards(self) -> None:
        self._change(lambda _entry: CardsEntry())

    def take_back(self) -> None:
        """Undo the panel's last change to this side's cards."""
        side = int(self.cards_side)
        if self._history[side]:
            self.cards[side] = self._history[side].pop()
            self.cards_message = ""
            self._show_cards()

    def _change(self, change: Callable[[CardsEntry], CardsEntry]) -> None:
        side = int(self.cards_side)
        try:
            entry = change(self.cards[side])
        except ValueError as exc:
            self.cards_message = str(exc)
            return
        if entry != self.cards[side]:
            self._history[side].append(self.cards[side])
            self.cards[side] = entry
        self.cards_message = ""
        self._show_cards()

    def _show_cards(self) -> None:
        side = int(self.cards_side)
        self.cards_lines = "\n".join(self.cards[side].lines(tr._))
        self.summaries = [entry.summary(tr._) for entry in self.cards]
        self.can_take_back = bool(self._history[side])

    def _reset_cards(self) -> None:
        self.cards = [CardsEntry(), CardsEntry()]
        self._history = [[], []]
        self._show_cards()

    def _sheet(self, side: int, team: str) -> Sheet:
        by = self.side_players[side][self.licence_by[side]] if self.licence_by[side] >= 0 else None
        sheet: Sheet
        if self.full[side]:
            sheet = replace(self.cards[side].sheet(team), licence_by=by)
        else:
            sheet = TotalsSheet(
                bool(self.licence[side]), int(self.points[side]), int(self.hand[side]), by
            )
        return sheet

    def game(self) -> Game:
        """The game as entered: each team's sheet, totals or in full (rules 13, 18), with
        who laid its licence; how it ended (rule 16); its penalties (rule 17). The
        Bhukhar core checks it when it is entered."""
        ids = self._ids()
        end = ENDS[int(self.end)]
        return Game(
            sheets={ids[i]: self._sheet(i, ids[i]) for i in (0, 1)},
            end=end,
            bhukhar=None if self.bhukhar < 0 else ids[int(self.bhukhar)],
            closed_by=ids[int(self.closed_by)] if end is End.OUT else None,
            penalties=tuple(
                Penalty(team, kind, player) for team, _, kind, player in self._penalty_parts()
            ),
        )

    def enter(self) -> None:
        """Write the game to the record; the message gives each team's total and master points."""
        table = self.table
        if table is None:
            return
        result = self._call(lambda: table.enter_game(int(self.table_no), self.game()))
        if result is None:
            # Nothing was written; what the umpire entered stays on screen to be put right.
            self.message = tr._("Not entered: {reason}", reason=self.message)
            return
        self.message = result_words(int(self.table_no), result, tr._)
        self.points, self.hand = [0, 0], [0, 0]
        self.licence_by = [-1, -1]
        self.penalties = []
        self._show_penalties()
        self._reset_cards()
        self._show_standings()

    def _show_standings(self) -> None:
        if self.table is None:
            return
        rows = [
            f"{s.place}{'=' if s.shared else '.'} {s.team}   "
            + tr._(
                "master {master}   bonus {bonus}   best {best}   games {games}",
                master=s.master,
                bonus=s.bonus,
                best="-" if s.best is None else s.best,
                games=s.games,
            )
            for s in self.table.standings()
        ]
        self.standings = "\n".join(rows) or tr._("No games yet")


load_kv(__file__)
