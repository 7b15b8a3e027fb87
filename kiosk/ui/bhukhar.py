"""The Bhukhar table: the round timer and the scoresheet, as totals or in full.

Built on the Bhukhar engineer's table session (kiosk/tables/bhukhar_table.py): the
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

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.engine.outputs import CallbackOutput
from kiosk.rules.bhukhar.record import SessionError
from kiosk.rules.bhukhar.scoresheet import (
    End,
    Game,
    Penalty,
    PenaltyKind,
    ScoreError,
    Sheet,
    TotalsSheet,
)
from kiosk.tables.bhukhar_table import BhukharTable, BhukharView, TableFileError
from kiosk.ui import bhukhar_grid as _grid  # noqa: F401  (registers CardGrid for the .kv)
from kiosk.ui.bhukhar_cards import (
    SECTIONS,
    CardsEntry,
)
from kiosk.ui.bhukhar_words import penalty_line, penalty_short, result_words
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.words import N_

ENDS = (End.OUT, End.STOCK, End.TIME)
END_WORDS = {
    End.OUT: N_("went out (16.1)"),
    End.STOCK: N_("stock ran out (16.2)"),
    End.TIME: N_("time (16.3)"),
}
_T = TypeVar("_T")


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

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: The screen is one of its table's outputs: the views come to `changed`.
        self._output = CallbackOutput(self.changed)
        self._latest: BhukharView | None = None
        self._redraw = Clock.create_trigger(self._show_round, -1)
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
        """Follow `table`: the screen becomes one of its outputs (the runner polls it)."""
        if table is not self.table:  # another session: nothing of the last one's game
            self._reset_cards()
            self.licence_by = [-1, -1]
            self.penalties = []
        old = self.table.outputs if self.table is not None else None
        self._output.follow(old, table.outputs)
        self.table = table
        self._rosters = {t.id: list(t.players) for t in table.session.start.teams}
        self.team_ids = [t.id for t in table.session.start.teams]
        self.pair = [0, 1]
        self._show_players()
        self._show_standings()
        self.changed(table.view())

    # -- the round timer -----------------------------------------------------------
    def changed(self, view: BhukharView) -> None:
        """A new view from the table; the redraw is coalesced to once a frame."""
        self._latest = view
        self._redraw()

    def _show_round(self, *_: object) -> None:
        view = self._latest
        if view is None:
            return
        self.clock_face = view.face
        self.round_no = view.round
        self.running = view.running
        self.paused = view.paused
        self.time_called = view.time_called

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

    def pause_or_resume(self) -> None:
        if self.table is not None:
            self._call(self.table.resume if self.paused else self.table.pause)

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
