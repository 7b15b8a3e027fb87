"""The carrom umpire console: scoreboard, the proposed stroke, the umpire's calls, the timer.

Everything shown comes from the engine's CarromView (kiosk/tables/carrom_table.py); every
button calls one session command. The laws are the rules core's: this screen never
decides a foul, a due or a point. A refused command shows the core's reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.scrollview import ScrollView

from kiosk.clocks.patterns import Pattern
from kiosk.engine.outputs import CallbackOutput
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.carrom_view import CarromView
from kiosk.ui.carrom_calls import CarromCalls, next_step
from kiosk.ui.carrom_rulings import TIMER_NAMES, capital, disagree_words
from kiosk.ui.carrom_view import banner, game_totals, note_words, scoreboard, scoresheet
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.protest import DecisionBox, ProtestPanel, waiting_label
from kiosk.ui.signs import buzzer_played
from kiosk.ui.widgets import SheetCell
from kiosk.ui.words import N_, reason_words

#: Where the proposed stroke came from (carrom.kv words it).
SOURCES = {
    "beams+camera": N_("beams + camera"),
    "beams": N_("beams only: check the colours"),
    "camera": N_("camera"),
    "unsure": N_("camera unsure: check the colours"),
    "manual": N_("enter the stroke"),
    "umpire": N_("as the umpire set it"),
    "uncalibrated": N_("beams only, the camera is not calibrated: check the colours"),
}


def source_of(view: CarromView) -> str:
    """The key of SOURCES for the proposal's header: only the sources really working (a
    camera with a fault, or not yet calibrated, is not one; nor is a beam that is out)."""
    source = view.proposal.source
    if source in ("beams+camera", "camera", "unsure") and not view.camera:
        return "beams" if view.beams else "manual"
    if (
        source in ("beams+camera", "camera", "unsure", "beams")
        and view.camera
        and not view.calibrated
    ):
        # a camera that works, but adds nothing until it is calibrated
        return "uncalibrated" if view.beams else "manual"
    if source == "beams+camera" and not view.beams:
        return "camera"
    if source == "beams" and not view.beams:
        return "manual"
    return source


#: While these timers run, the dues the core asks for are still to be placed.
PLACING_TIMERS = ("placing", "waive")


#: The side's colour on the scoreboard (carrom.kv words it).
COLOURS = (N_("white"), N_("black"))

SHEET_HEADER = (N_("Game"), N_("Board"), N_("Breaker"), N_("Winner"), N_("Points"), N_("Queen"), "")


class SheetGrid(ScrollView):
    """The scoresheet's table: one row per board begun (void ones too), newest last."""

    rows_data = ListProperty([])
    #: Built only while the sheet is open: a long match would otherwise keep many labels.
    live = BooleanProperty(False)

    def on_live(self, _widget: object, live: bool) -> None:
        if live:
            self.on_rows_data(self, self.rows_data)
        else:
            self.ids.grid.clear_widgets()

    def on_rows_data(self, _widget: object, rows: list[list[str]]) -> None:
        if not self.live:
            return
        grid = self.ids.grid
        grid.clear_widgets()
        header = [tr._(word) for word in SHEET_HEADER]
        for i, row in enumerate([header, *rows]):
            for column, cell in enumerate(row):
                grid.add_widget(SheetCell(text=cell, bold=i == 0, column=column))
        self.scroll_y = 0


def timer_text(seconds: float) -> str:
    """Whole seconds under a minute ("12"), else minutes ("9:58"), never less than is left."""
    whole = int(-(-seconds // 1))
    if whole < 60:
        return str(whole)
    return f"{whole // 60}:{whole % 60:02d}"


class ScreenOutput(CallbackOutput[CarromView]):
    """The screen as an output: the views, and each sound the buzzer is given (the screen
    shows that it sounded, for a hall too noisy to hear it)."""

    def __init__(
        self, on_change: Callable[[CarromView], None], on_sound: Callable[[], None]
    ) -> None:
        super().__init__(CarromView, on_change)
        self._on_sound = on_sound

    def sound(self, pattern: Pattern) -> None:
        self._on_sound()


class CarromScreen(CarromCalls):
    """Mirrors a CarromView into properties the .kv binds to."""

    title = StringProperty("")
    status = StringProperty("")
    queen = StringProperty("")
    on_board = StringProperty("")
    names = ListProperty(["", ""])
    colours = ListProperty(["", ""])
    points = ListProperty([0, 0])
    games = ListProperty([0, 0])
    pocketed = ListProperty([0, 0])
    owed = ListProperty([0, 0])
    at_turn = ListProperty([False, False])
    timer = StringProperty("")
    timer_kind = StringProperty("")
    timer_held = BooleanProperty(False)
    timer_low = BooleanProperty(False)
    # the proposal
    prop_white = NumericProperty(0)
    prop_black = NumericProperty(0)
    prop_queen = BooleanProperty(False)
    prop_striker = BooleanProperty(False)
    prop_off = StringProperty("")
    prop_improper = BooleanProperty(False)
    prop_source = StringProperty("")
    prop_notes = StringProperty("")
    prop_review = BooleanProperty(False)
    prop_pockets = StringProperty("")
    #: Where the beams and the camera disagree, said out loud ("" : they agree).
    prop_disagree = StringProperty("")
    #: The proposal holds something (a Clear is offered).
    prop_held = BooleanProperty(False)
    auto_confirm = StringProperty("")
    is_break = BooleanProperty(False)
    touched = BooleanProperty(True)
    phase = StringProperty("no_match")
    banner = StringProperty("")
    banner_kind = StringProperty("")
    placing = StringProperty("")
    #: A timer ran out: the clock and the border flash (`flash` toggles) until the umpire acts.
    alarm = BooleanProperty(False)
    flash = BooleanProperty(False)
    #: The buzzer was given a sound since the alarm began (shown for a noisy hall), and
    #: whether a working buzzer was there to play it (kiosk/ui/signs.py).
    buzzed = BooleanProperty(False)
    buzzer_works = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    over = BooleanProperty(False)
    #: A tie at the board limit waits for the toss (law 56 b): the Toss button's cue.
    toss_due = BooleanProperty(False)
    # protests (laws 144-151): the Protest button's words, and whether one waits
    protest_label = StringProperty("")
    protest_waiting = BooleanProperty(False)
    # the scoresheet
    sheet_rows = ListProperty([])
    sheet_totals = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self._show, -1)
        #: The screen is one of its table's outputs: the views come to `changed`.
        self._output = ScreenOutput(self.changed, self._sounded)
        self._heard = False
        self._flasher = Clock.create_trigger(self._flash, 0.4, interval=True)
        self._latest: CarromView | None = None
        self._shown: CarromView | None = None
        #: Called after each view is drawn (the benchmark times a beam hit to its drawing).
        self.drawn: Callable[[CarromView], None] | None = None
        #: Protests (kiosk/ui/protest.py): the panel and the director's decision, over all.
        self.protests = ProtestPanel(screen=self)
        self.decision = DecisionBox(screen=self)
        self.add_widget(self.protests)
        self.add_widget(self.decision)
        self.protest_label = waiting_label(None, tr._)
        tr.on_switch(self.reword)

    def reword(self) -> None:
        """The language changed: word the latest view again."""
        self._shown = None
        self._redraw()
        self.reword_rulings()
        self.protests.reword()
        grid = self.ids.get("sheet_grid")
        if grid is not None:
            grid.on_live(grid, grid.live)

    # -- following the session -------------------------------------------------------
    def attach(self, session: CarromTable) -> None:
        """Follow `session`: the screen becomes one of its outputs (the runner polls the
        session; every view it gives its outputs comes to `changed`)."""
        old = self.session.outputs if self.session is not None else None
        joined = self._output.follow(old, session.outputs)
        if session is not self.session:
            self.seen.forget()  # nothing of another table's views was seen of this one
        self.session = session
        self.pick_action = ""
        if joined:
            view = session.view()
            if view.phase != "no_match":
                self.changed(view)  # a match already under way: draw it now

    def changed(self, view: CarromView) -> None:
        """A new view; the redraw is coalesced to once a frame."""
        self._latest = view
        self._redraw()

    def _show(self, *_: object) -> None:
        view = self._latest
        if view is None or view == self._shown:
            return
        self._shown = view
        self.seen.drawn(view.version)
        self._show_state(view)
        self._show_timer(view)
        self._show_proposal(view)
        self.follow_rulings(view)
        self.protests.follow(view)
        self.protest_label = waiting_label(view, tr._)
        self.protest_waiting = view.protest_minutes is not None
        self.phase = view.phase
        self.can_undo = view.can_undo
        refusal = view.refusal
        if refusal or not self.error_quiet:  # a quiet word stays its while
            self.error = capital(reason_words(refusal, tr._) if refusal else "")
            self.error_quiet = False
        if view.expired and not self.alarm:  # the strip keeps it once the banner goes
            self.log.expired(view.expired)
            self.reword_rulings()
        self.alarm = bool(view.expired)
        self.buzzed = self.alarm and (self.buzzed or self._heard)
        self._heard = False
        outputs = self.session.outputs.items if self.session is not None else ()
        self.buzzer_works = self.buzzed and buzzer_played(outputs)
        self.show_faults(view)
        if self.drawn is not None:
            self.drawn(view)

    def _show_state(self, view: CarromView) -> None:
        state = view.state
        if state is None:
            return
        board = scoreboard(state, tr._)
        self.title = board.title
        self.status = board.status
        self.queen = board.queen
        self.on_board = board.on_board
        self.names = [s.name for s in board.sides]
        self.colours = [s.colour for s in board.sides]
        self.points = [s.points for s in board.sides]
        self.games = [s.games for s in board.sides]
        self.pocketed = [s.pocketed for s in board.sides]
        self.owed = [s.owed for s in board.sides]
        self.at_turn = [s.at_turn for s in board.sides]
        self.over = view.phase == "over"  # a protest may wait: play is over all the same
        self.toss_due = state.toss_due
        now = state.now
        self.is_break = bool(now and now.is_break)
        placing = ""
        timer = view.timer.kind if view.timer is not None else view.expired
        if now is not None and now.placer is not None and timer in PLACING_TIMERS:
            coins = sum(now.placing.values())
            if coins:
                placing = (
                    tr._(
                        "{name} places {n} coins (law 88): tap Dues placed when done",
                        name=now.placer,
                        n=coins,
                    )
                    if coins > 1
                    else tr._(
                        "{name} places 1 coin (law 88): tap Dues placed when done",
                        name=now.placer,
                    )
                )
        self.placing = placing
        self.banner, self.banner_kind = banner(view, tr._)
        self.banner_next = next_step(self.banner_kind, view)
        self.sheet_rows = [
            [
                str(r.game),
                str(r.board),
                r.breaker,
                r.winner or "-",
                str(r.points) if r.winner else "",
                r.queen or "",
                r.note,
            ]
            for r in scoresheet(state, tr._)
        ]
        self.sheet_totals = "\n".join(game_totals(state, tr._))

    def _show_timer(self, view: CarromView) -> None:
        t = view.timer
        if t is None:
            self.timer, self.timer_kind, self.timer_held, self.timer_low = "", "", False, False
            if view.awaiting_lift:
                self.timer_kind = tr._("Starts when the striker is lifted (law 124 b)")
            elif view.phase == "moving":
                self.timer_kind = tr._("Stroke under way")
            elif view.phase == "at_rest":
                self.timer_kind = tr._("Coins at rest: confirm the stroke")
            return
        self.timer = timer_text(t.remaining)
        self.timer_kind = tr._(TIMER_NAMES.get(t.kind, t.kind)) + (
            tr._("  · stopped") if t.held else ""
        )
        self.timer_held = t.held
        self.timer_low = t.low

    def _show_proposal(self, view: CarromView) -> None:
        p = view.proposal
        self.prop_white = p.pocketed.count("white")
        self.prop_black = p.pocketed.count("black")
        self.prop_queen = "queen" in p.pocketed
        self.prop_striker = p.striker
        self.prop_off = ", ".join(p.off_board)
        self.prop_improper = p.improper
        self.touched = p.touched
        source = source_of(view)
        self.prop_source = SOURCES.get(source, source)
        self.prop_review = p.review and p.source != "manual"
        notes = (note_words(note, tr._) for note in p.notes)
        self.prop_notes = "; ".join(notes) if p.source != "manual" else ""
        self.show_pockets(view)
        out = [note_words(n, tr._) for n in p.notes if n.kind in ("beam_out", "beam_out_camera")]
        self.prop_pockets = " · ".join(
            words for _pocket, words, _missing in self.pockets_seen
        ) or "; ".join(out)
        self.prop_disagree = disagree_words(p, tr._)
        self.prop_held = bool(p.pocketed or p.striker or p.off_board or p.improper or p.hits)
        wait = view.auto_confirm_in
        self.auto_confirm = "" if wait is None else f"{wait:.0f} s"

    def locked(self) -> None:
        """The console locked: the protest panel and the decision close too."""
        super().locked()
        self.protests.close()
        self.decision.close()

    # -- the alarm ----------------------------------------------------------------------
    def _sounded(self) -> None:
        """The buzzer was given a sound: the expiry's comes just before its view."""
        self._heard = True
        self._redraw()

    def on_alarm(self, _screen: Any, alarm: bool) -> None:
        # the blinking runs only while the alarm does, and stops the moment the umpire acts
        if alarm:
            self._flasher()
        else:
            self._flasher.cancel()
            self.flash = False

    def _flash(self, _dt: float) -> None:
        self.flash = not self.flash

    # -- commands ----------------------------------------------------------------------
    def _pocketed(self) -> list[str]:
        return list(self._latest.proposal.pocketed) if self._latest is not None else []

    def coin(self, colour: str, delta: int) -> None:
        """The proposal's quick edit: one more (or one fewer) coin of `colour` pocketed."""
        pocketed = self._pocketed()
        if delta > 0:
            pocketed.append(colour)
        elif colour in pocketed:
            pocketed.reverse()
            pocketed.remove(colour)
            pocketed.reverse()
        else:
            return
        self._edit(pocketed=pocketed)

    def toggle_queen(self) -> None:
        self.coin("queen", -1 if self.prop_queen else 1)

    def toggle_striker(self) -> None:
        self._edit(striker=not self.prop_striker)

    def toggle_improper(self) -> None:
        self._edit(improper=not self.prop_improper)

    def toggle_touched(self) -> None:
        self._edit(touched=not self.touched)

    def off_board(self, what: str) -> None:
        """A coin (or the striker) jumped off the board; "" clears the list."""
        current = [] if not what or self._latest is None else list(self._latest.proposal.off_board)
        self._edit(off_board=[*current, what] if what else [])

    def confirm(self) -> None:
        self._do("confirm")

    def clear_proposal(self) -> None:
        """One tap: nothing pocketed, whatever the sensors said (a chattering beam's 61)."""
        self._do("edit", clear=True)

    def set_count(self, count: int) -> None:
        """The pocket being counted (`counting`) had `count` coins go in."""
        pocket, self.counting = int(self.counting), 0
        if pocket:
            self._edit(pocket=pocket, count=count)

    def command(self, name: str) -> None:
        """A plain call: waive, pass_turn, undo, void_board, play, striker_lifted,
        dues_placed, ask_waive, stop_clock, restart_clock."""
        self._do(name)


load_kv(__file__)
