"""The Bhukhar table: the round timer and the scoresheet, as totals or in full.

The screen draws its table's view (kiosk/tables/bhukhar_table.py) and sends it commands;
it builds nothing. The round timer (rule 10: 30 to 35 minutes, warnings, time called, rule
16.3) and each game (rules 13, 18, 19) are the table's; the game being entered is the
table's draft (kiosk/tables/bhukhar_draft.py), journaled at every tap, so a crash loses
nothing. Each team's part of a game is entered as totals (table and hand points) or in
full (every meld's cards and the cards in hand, tapped on a 52-card panel:
kiosk/ui/bhukhar_cards_panel.py), with the player who laid the team's licence (rule 17.1
bars a player who showed a false licence from laying it). Rule 17's penalties are added on
a panel of their own (kiosk/ui/bhukhar_penalty_panel.py) and listed on the screen before
the game is entered. A refused game keeps everything entered so far.
"""

from __future__ import annotations

from collections.abc import Callable
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
from kiosk.errors import Reason, Refused
from kiosk.rules.bhukhar.scoresheet import End, GameResult, PenaltyKind, ScoreError
from kiosk.tables.bhukhar_draft import SECTIONS, CardsEntry, Draft
from kiosk.tables.bhukhar_table import BhukharTable, BhukharView, TableFileError
from kiosk.tables.commands import StaleView
from kiosk.ui import bhukhar_cards_panel as _cards_panel  # noqa: F401  (the .kv's panels)
from kiosk.ui import bhukhar_penalty_panel as _penalty_panel  # noqa: F401
from kiosk.ui import bhukhar_totals_panel as _totals_panel  # noqa: F401
from kiosk.ui.bhukhar_cards import licence_faces, lines, summary
from kiosk.ui.bhukhar_words import (
    END_WORDS,
    ENDS,
    NOT_ENTERED,
    Refusal,
    named,
    penalty_line,
    penalty_short,
    refusal,
    result_words,
    spoiled_words,
    total_lines,
    word_refusal,
)
from kiosk.ui.i18n import Said, tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.lock import send
from kiosk.ui.seen import Seen
from kiosk.ui.words import said_words

__all__ = ["ENDS", "END_WORDS", "BhukharScreen"]
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
    team_labels = ListProperty([])  # each team's name, or its id while it has none
    # the game being entered, as the table's draft has it
    table_no = NumericProperty(1)
    pair = ListProperty([0, 1])  # indexes into team_ids
    licence = ListProperty([True, True])
    points = ListProperty([0, 0])  # table points
    hand = ListProperty([0, 0])
    end = NumericProperty(0)  # index into ENDS
    bhukhar = NumericProperty(-1)  # -1: none, else 0/1 of the pair
    closed_by = NumericProperty(0)  # 0/1 of the pair (with "out")
    message = StringProperty("")
    not_saved = StringProperty("")  # the journal's "not saved" fault, worded
    refused = BooleanProperty(False)
    standings = StringProperty("")
    full = ListProperty([False, False])
    summaries = ListProperty(["No cards yet", "No cards yet"])
    licence_by = ListProperty([-1, -1])  # an index into that side's players, -1 not named
    spoiled = ListProperty([False, False])  # as totals: a licence meld spoiled later (17.2)
    side_players = ListProperty([["", "", ""], ["", "", ""]])
    penalties = ListProperty([])  # [side, kind value, player index or -1] each
    penalty_summary = StringProperty("No penalties (rule 17)")
    # the panels (what is open and chosen on them is the screen's own)
    cards_open = BooleanProperty(False)
    cards_side = NumericProperty(0)
    section = StringProperty("licence")
    cards_lines = StringProperty("")
    cards_message = StringProperty("")
    can_take_back = BooleanProperty(False)
    cards_licence = ListProperty([])  # the open side's licence melds, as shown
    cards_spoiled = ListProperty([])  # of them, those spoiled later (17.2)
    spoil_open = BooleanProperty(False)  # the panel that marks them
    pen_open = BooleanProperty(False)
    pen_side = NumericProperty(0)
    pen_kind = StringProperty("")  # a PenaltyKind value, "" before one is chosen
    pen_player = NumericProperty(-1)
    pen_lines = StringProperty("")
    pen_message = StringProperty("")
    # how the last game's totals were added up (rule 18), on a panel of its own
    totals_open = BooleanProperty(False)
    totals_lines = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: The screen is one of its table's outputs: the views come to `changed`.
        self._output = CallbackOutput(BhukharView, self.changed)
        self._latest: BhukharView | None = None
        #: The views drawn, for the version a tap is made from (kiosk/ui/seen.py).
        self.seen = Seen()
        self._last_result: GameResult | None = None  # the last game entered here
        self._redraw = Clock.create_trigger(self._show, -1)
        tr.on_switch(self.reword)
        self._said = Said(self)  # "Not entered": worded again on a language switch
        self._why: Refusal = ""  # the last refusal, for _said
        #: The view the last command carried out here was made from: a tap refused as made
        #: from it is the second tap of a double tap, and the first one's answer stays.
        self._acted: int | None = None

    def on_kv_post(self, base_widget: Any) -> None:
        # The panels' buttons are reached by id from the screen, as when they were inline.
        panels = ("cards_panel", "spoil_panel", "penalty_panel", "totals_panel")
        for panel in (self.ids[name] for name in panels):
            self.ids.update(panel.ids)

    @property
    def cards(self) -> list[CardsEntry]:
        """Each side's cards as the draft has them."""
        draft = self._draft()
        return [s.cards for s in draft.sides] if draft else [CardsEntry(), CardsEntry()]

    def _draft(self) -> Draft | None:
        return None if self._latest is None else self._latest.draft

    @property
    def latest(self) -> BhukharView | None:
        """The table's view this screen draws (the player display words it too)."""
        return self._latest

    def reword(self) -> None:
        """The language changed: word the cards, the penalties and the standings again."""
        self._show()

    def attach(self, table: BhukharTable) -> None:
        """Follow `table`: the screen becomes one of its outputs (the runner polls it)."""
        if table is not self.table:  # another table: its own last game (after a restart too)
            self.seen.forget()
            self._last_result = table.view().entered
            self.totals_lines = ""
        old = self.table.outputs if self.table is not None else None
        self._output.follow(old, table.outputs)
        self.table = table
        self._latest = table.view()
        self._show()

    def changed(self, view: BhukharView) -> None:
        """A new view from the table; the redraw is coalesced to once a frame."""
        self._latest = view
        self._redraw()

    # -- drawing the view ------------------------------------------------------------
    def _redraw_now(self) -> None:
        """After a command: the table's view at once (the tap's answer is drawn this frame)."""
        if self.table is not None:
            self._latest = self.table.view()
            self._show()

    def _show(self, *_: object) -> None:
        view = self._latest
        if view is None:
            return
        self.seen.drawn(view.version)
        self.clock_face = view.face
        self.round_no = view.round
        self.running = view.running
        self.paused = view.paused
        self.time_called = view.time_called
        self.not_saved = said_words(view.not_saved, tr._)
        if max(self.pair, default=0) >= len(view.teams):
            self.pair = [0, 1]  # another session's teams: the indexes start again
        self.team_labels = [t.name or t.id for t in view.teams]
        self.team_ids = [t.id for t in view.teams]
        rosters = {t.id: list(t.players) for t in view.teams}
        draft = view.draft
        if draft is not None:
            sides = draft.sides
            self.table_no = draft.table_no
            self.pair = [self.team_ids.index(t) for t in draft.pair]
            self.licence = [s.licence for s in sides]
            self.points = [s.points for s in sides]
            self.hand = [s.hand for s in sides]
            self.full = [s.full for s in sides]
            self.licence_by = [s.licence_by for s in sides]
            self.spoiled = [s.spoiled for s in sides]
            self.end = ENDS.index(draft.end)
            self.bhukhar = draft.bhukhar
            self.closed_by = draft.closed_by
            self.side_players = [rosters.get(t, ["", "", ""]) for t in draft.pair]
            self.penalties = [[side, kind.value, p] for side, kind, p in draft.penalties]
            side = int(self.cards_side)
            self.cards_lines = "\n".join(lines(sides[side].cards, tr._))
            self.summaries = [summary(s.cards, tr._) for s in sides]
            self.can_take_back = view.can_take_back[side]
            self.cards_licence = licence_faces(sides[side].cards)
            self.cards_spoiled = list(sides[side].cards.spoiled)
        self._show_penalties()
        self._show_standings(view)
        if self._last_result is not None:
            names = {t.id: t.name or t.id for t in view.teams}
            added = total_lines(self._last_result, names, tr._)
            if view.entered is self._last_result and view.entered_game is not None:
                added += spoiled_words(view.entered_game, names, tr._)  # 17.2
            self.totals_lines = "\n".join(added)

    def _show_penalties(self) -> None:
        # The teams by their names (as typed at the setup), as everywhere on the screen.
        ids = [self.team_labels[i] for i in self.pair] if self.team_labels else ["", ""]
        players = self.side_players
        parts = [
            (ids[side], ids[1 - side], PenaltyKind(kind), players[side][p] if p >= 0 else None)
            for side, kind, p in self.penalties
        ]
        self.pen_lines = "\n".join(
            f"{n}. {penalty_line(*p, tr._)}" for n, p in enumerate(parts, 1)
        ) or tr._("No penalties in this game")
        self.penalty_summary = (
            tr._("Penalties: {list}", list=" · ".join(penalty_short(*p, tr._) for p in parts))
            if parts
            else tr._("No penalties (rule 17)")
        )

    def _show_standings(self, view: BhukharView) -> None:
        names = {t.id: t.name or t.id for t in view.teams}
        rows = [
            f"{s.place}{'=' if s.shared else '.'} {names.get(s.team, s.team)}   "
            + tr._(
                "master {master}   bonus {bonus}   best {best}   games {games}",
                master=s.master,
                bonus=s.bonus,
                best="-" if s.best is None else s.best,
                games=s.games,
            )
            for s in view.standings
        ]
        self.standings = "\n".join(rows) or tr._("No games yet")

    # -- commands to the table -------------------------------------------------------
    def _send(self, action: str, retry: Callable[[], None], /, **args: object) -> bool:
        """One command to the table with the console's role (kiosk/ui/lock.py `send`); a
        refusal is said from its facts in the console's language. True: carried out."""
        try:
            # An edit of the draft is made from the view on screen (a field typed in); every
            # other call from the view the umpire has seen (kiosk/ui/seen.py).
            view = self.seen.newest() if action == "edit" else self.seen.version()
            sent = send(self.table, action, retry, view=view, **args)
        except (Refused, ScoreError, TableFileError, ValueError) as exc:
            if not self._repeated(exc, view):
                self._refused(exc)
            return False
        if sent:
            if self.refused:  # the draft changed: the refusal was of what it was before
                self.message = ""
            self.refused = False
            self._acted = view
        return sent

    def _repeated(self, exc: Exception, view: int | None) -> bool:
        """`exc` refuses a tap made from the very view a tap before it acted on: the second
        tap of a double tap. Nothing was done, as it should be; the first tap's answer
        stays on the screen rather than a "not entered" that would be untrue."""
        return isinstance(exc, StaleView) and view is not None and view == self._acted

    def _names(self) -> dict[str, str]:
        """Each team's name as typed at the setup (its id if none), by id."""
        return dict(zip(self.team_ids, self.team_labels, strict=False))

    def _refused(self, exc: Exception) -> None:
        self.refused = True
        why = refusal(exc)
        self._why = named(why, self._names()) if isinstance(why, Reason) else why
        self.message = word_refusal(self._why, tr._)

    def _edit(self, change: Callable[[Draft], Draft]) -> None:
        if self._send("edit", lambda: self._edit(change), change=change):
            self._redraw_now()

    def start_round(self) -> None:
        if self._send("start_round", self.start_round) and self.table is not None:
            self.message = tr._("Round {n} started", n=self.table.view().round)

    def pause_or_resume(self) -> None:
        self._send("resume_round" if self.paused else "pause_round", self.pause_or_resume)

    def locked(self) -> None:
        """The console locked: the panels close (what is entered stays in the draft)."""
        self.pen_open = self.cards_open = self.totals_open = self.spoil_open = False

    def cycle_team(self, side: int) -> None:
        self._edit(lambda d: d.next_team(side, self.team_ids))

    def step(self, what: str, side: int, delta: int) -> None:
        """Table or hand points of one side of the pair, by `delta` (never below 0)."""
        self._edit(lambda d: d.step(what, side, delta))

    def toggle_licence(self, side: int) -> None:
        self._edit(lambda d: d.toggle_licence(side))

    def toggle_spoiled(self, side: int) -> None:
        """As totals: a meld of the side's licence spoiled later by a wrong card (17.2)."""
        self._edit(lambda d: d.toggle_spoiled(side))

    def toggle_full(self, side: int) -> None:
        self._edit(lambda d: d.toggle_full(side))

    def step_table(self, delta: int) -> None:
        self._edit(lambda d: d.step_table(delta))

    def choose_end(self, end: str) -> None:
        """How the game ended (rule 16): out, stock or time, chosen by its own button."""
        self._edit(lambda d: d.choose_end(End(end)))

    def cycle_bhukhar(self) -> None:
        self._edit(lambda d: d.choose_bhukhar({-1: 0, 0: 1, 1: -1}[d.bhukhar]))

    def cycle_closed(self) -> None:
        self._edit(lambda d: d.choose_closed(1 - d.closed_by))

    def choose_licence_by(self, side: int, player: int) -> None:
        """Who laid this side's licence (rule 17.1); the chosen player again takes it off."""
        self._edit(lambda d: d.choose_licence_by(side, player))

    # -- rule 17's penalties -------------------------------------------------------------
    def open_penalties(self) -> None:
        self.pen_kind = ""
        self.pen_player = -1
        self.pen_message = ""
        self.pen_open = True

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
        side, kind, player = int(self.pen_side), PenaltyKind(self.pen_kind), int(self.pen_player)
        self._edit(lambda d: d.add_penalty(side, kind, player))
        self.pen_kind = ""
        self.pen_player = -1
        self.pen_message = ""

    def take_back_penalty(self) -> None:
        if self.penalties:
            self._edit(lambda d: d.take_back_penalty())
            self.pen_message = ""

    # -- the full entry -----------------------------------------------------------------
    def open_cards(self, side: int) -> None:
        """The cards panel for one side; a team's first melds are its licence (rule 9)."""
        self.cards_side = side
        self.section = "melds" if self.cards[side].licence else "licence"
        self.cards_message = ""
        self.cards_open = True
        self._redraw_now()

    def close_cards(self) -> None:
        self.cards_open = self.spoil_open = False

    def choose_section(self, section: str) -> None:
        if section in SECTIONS:
            self.section = section
            self.cards_message = ""

    def tap_card(self, card: str) -> None:
        """A card of the 52: onto the meld being laid, or into the hand."""
        section = self.section
        self._cards(lambda entry: entry.add(card, section))

    def close_meld(self) -> None:
        section = self.section
        self._cards(lambda entry: entry.close_meld(section))

    def open_spoiled(self) -> None:
        """The panel marking a licence meld spoiled later (17.2), over the cards panel."""
        self.spoil_open = True

    def close_spoiled(self) -> None:
        self.spoil_open = False

    def toggle_spoiled_meld(self, index: int) -> None:
        """Licence meld `index` spoiled later by a wrong card (17.2): void, not counted; the
        licence stands. Tapped again: it was not."""
        self._cards(lambda entry: entry.toggle_spoiled(index))

    def clear_cards(self) -> None:
        self._cards(lambda _entry: CardsEntry())

    def take_back(self) -> None:
        """Undo the panel's last change to this side's cards."""
        if self._send("take_back_cards", self.take_back, side=int(self.cards_side)):
            self.cards_message = ""
            self._redraw_now()

    def _cards(self, change: Callable[[CardsEntry], CardsEntry]) -> None:
        retry = lambda: self._cards(change)  # noqa: E731
        try:
            side = int(self.cards_side)  # a card tapped: a quick second tap is a second card
            view = self.seen.newest()
            sent = send(self.table, "edit_cards", retry, view=view, side=side, change=change)
        except (Refused, ValueError) as exc:
            self.cards_message = word_refusal(refusal(exc), tr._, self._names())
            return
        if sent:
            self.cards_message = ""
            self._redraw_now()

    def enter(self) -> None:
        """Enter the draft; the message gives each team's total and master points."""
        table_no = int(self.table_no)
        view = self.seen.version()
        try:
            sent = send(self.table, "enter_draft", self.enter, view=view)
        except (Refused, ScoreError, TableFileError, ValueError) as exc:
            if self._repeated(exc, view):
                return
            self._refused(exc)
            # Nothing was written; what the umpire entered stays on screen to be put right.
            self._said.say(NOT_ENTERED, reason=self._why)
            return
        if not sent or self.table is None:
            return
        self.refused = False
        self._acted = view
        result = self.table.view().entered
        assert result is not None
        self.message = result_words(table_no, result, tr._, self._names())
        self._last_result = result
        self._redraw_now()

    # -- how the totals were added up ---------------------------------------------------
    def open_totals(self) -> None:
        if self.totals_lines:
            self.totals_open = True

    def close_totals(self) -> None:
        self.totals_open = False


load_kv(__file__)
