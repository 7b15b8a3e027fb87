"""Player display mode: the scores and the timer in digits readable from 3 m.

The screen shows the table the umpire is running (carrom, backgammon or Bhukhar) from
the same views as the umpire's screens; the umpire's small corner button goes back.
Carrom: the board and games, the queen's state, whose turn, each side's points and the turn
timer; backgammon: the match score, both banks and the delay; Bhukhar: the round's clock,
the last game entered and a licence meld in it spoiled later (17.2).
The names have a 12 mm cap height on the panel and the digits 25 mm (or `[players] digits`
percent of the screen's height, if more), as far as the rows shown leave room; a name too
long for its share of the row is shortened readably, never drawn smaller
(kiosk/ui/name_forms.py). `[players] show_*` choose the rows.

The display follows the table's whole state, not only its numbers: a paused or stopped
clock says PAUSED and marks no side as running, a fallen flag and a player waiting out the
delay after an early pickup (4.1 (v) b) are said, the Crawford game too. Under the ICF laws
a player learns the score only from the umpire, during his own turn (law 128): the carrom
score shows only if `[players] icf_score` allows it (club rules always show it).
"""

from __future__ import annotations

import copy
import math
from functools import partial
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.properties import AliasProperty, BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.config.sections import PlayersSettings
from kiosk.kinds import KINDS
from kiosk.tables.backgammon_table import ClockView
from kiosk.tables.bhukhar_table import BhukharView
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.registry import AnyTable
from kiosk.ui.backgammon import face_words
from kiosk.ui.bhukhar_words import entered_words, spoiled_words
from kiosk.ui.carrom import timer_text
from kiosk.ui.carrom_rulings import TIMER_NAMES
from kiosk.ui.carrom_view import banner, scoreboard
from kiosk.ui.i18n import ptr
from kiosk.ui.kvload import load_kv
from kiosk.ui.name_forms import TURN_MARK, fitted

#: A digit's ink in Noto Sans Bold, in ems (its cap height): the font size is the digits'
#: height over this.
DIGIT_EM = 0.714
#: Of a line's box (1.36 em in Noto Sans) what a digit row needs: the rest is leading.
ROW_EM = 1.1
#: The narrowest a score is taken to be (ems): one digit.
CHAR_EM = 0.6
#: Read from 3 m (issue: the display must read at a tournament table's distance): the cap
#: height of the names and of the digits (the clock, the score), in millimetres.
NAME_CAP_MM = 12.0
DIGIT_CAP_MM = 25.0
MM_PER_INCH = 25.4
#: A capital's ink as drawn (Noto Sans, anti-aliasing's faint edge left out), in ems: a bit
#: under the font's 0.714 cap height, so a size from it is never short of the millimetres.
CAP_INK_EM = 0.68


def px_per_mm(width: float, height: float, panel_in: float) -> float:
    """Pixels per millimetre of a `width` x `height` window filling a panel of `panel_in`
    inches diagonal (square pixels)."""
    return math.hypot(width, height) / (panel_in * MM_PER_INCH)


def score_shown(rules: str, icf_score: bool) -> bool:
    """Whether the players' screen may show the carrom score: under the ICF laws a player
    learns it only from the umpire during his own turn (law 128), unless the tournament's
    `[players] icf_score` allows it; under club rules it always shows."""
    return rules != "icf" or icf_score


def _ems(text: str) -> float:
    """How wide `text` is drawn in the digits' bold font, in ems."""
    if not text:
        return 0.0
    probe = CoreLabel(font_size=100, bold=True)
    return float(probe.get_extents(text)[0]) / 100


class PlayersScreen(Screen):
    """Big digits: `big` (the timer), each side's name and score, a status line (or the
    banner over it)."""

    TOP_UNITS = 6
    #: The delay's row under the banks, as a share of theirs (its digits as much smaller).
    LOW_SHARE = 0.4

    big = StringProperty("")
    caption = StringProperty("")
    left_name = StringProperty("")
    left_score = StringProperty("")
    right_name = StringProperty("")
    right_score = StringProperty("")
    left_turn = BooleanProperty(False)
    right_turn = BooleanProperty(False)
    banner = StringProperty("")
    #: What leads the top line, a banner or not: the backgammon match score ("4-2 to 5").
    lead = StringProperty("")
    urgent = BooleanProperty(False)
    #: The clock stands (paused, stopped): no side is shown running, the turn stays marked.
    paused = BooleanProperty(False)
    back_to = StringProperty("home")
    status = StringProperty("")
    #: [players]: the digits' height (percent of the screen's) and the rows shown.
    digits = NumericProperty(22)
    show_score = BooleanProperty(True)
    show_timer = BooleanProperty(True)
    show_status = BooleanProperty(True)
    #: [players] icf_score: the carrom score under the ICF laws (law 128; club rules: always).
    icf_score = BooleanProperty(False)
    #: The font size of the digit rows (pixels), from the window and the rows shown.
    digit_font = NumericProperty(100.0)
    #: The names' font size (pixels): a 12 mm cap height on the panel.
    name_font = NumericProperty(40.0)
    #: The names as drawn: each in the longest readable form that fits its share of the row
    #: at `name_font` (kiosk/ui/name_forms.py), never smaller.
    left_shown = StringProperty("")
    right_shown = StringProperty("")
    #: The left name's share of the row: a short name leaves room to a long one.
    left_share = NumericProperty(0.5)
    #: [players] panel_in: the panel's diagonal (inches).
    panel_in = NumericProperty(7.0)
    #: Carrom: the scores and the timer on one row of digits (there is room for three
    #: two-digit numbers); backgammon: the banks on one, the delay under them.
    one_row = BooleanProperty(True)

    def _scores_shown(self) -> bool:
        return bool(self.show_score and (self.left_score or self.right_score))

    scores_shown = AliasProperty(
        _scores_shown, bind=("show_score", "left_score", "right_score"), cache=True
    )

    def _timer_shown(self) -> bool:
        return bool(self.show_timer and self.big)

    timer_shown = AliasProperty(_timer_shown, bind=("show_timer", "big"), cache=True)

    def __init__(self, **kw: Any) -> None:
        self._table: AnyTable | None = None  # the table in play (`show_game`)
        self._refit_names = Clock.create_trigger(self._fit_names, -1)
        super().__init__(**kw)
        ptr.on_switch(self.on_pre_enter)  # held weakly: a method of the screen
        Window.bind(size=self._fit_digits)
        self.bind(
            panel_in=self._fit_digits,
            one_row=self._fit_digits,
            big=self._fit_digits,
            digits=self._fit_digits,
            scores_shown=self._fit_digits,
            timer_shown=self._fit_digits,
            left_score=self._fit_digits,
            right_score=self._fit_digits,
        )
        self._fit_digits()
        self.bind(left_name=self._refit_names, right_name=self._refit_names)
        self.bind(name_font=self._refit_names)

    def on_kv_post(self, base_widget: object) -> None:
        self.ids.names.bind(width=self._refit_names)

    def _name_width(self, text: str) -> float:
        """How wide `text` is drawn as a name at turn (bold, after the turn's mark), by the
        name label's own core label."""
        core = copy.copy(self.ids.left_name._label)
        options = dict(core.options)
        options.update(font_size=self.name_font, bold=True, shorten=False, max_lines=0)
        core.options = options
        core._text_size = (None, None)
        core.text = TURN_MARK + text
        core.render()
        return float(core._internal_size[0])

    def _fit_names(self, *_: object) -> None:
        """Each name its need of the row when both fit, else at least half of it; a name
        longer than its share takes its longest readable form that fits."""
        row = self.ids.names
        room = float(row.width) - float(row.spacing)
        names = (self.left_name, self.right_name)
        if room <= 1 or not any(names):
            self.left_shown, self.right_shown, self.left_share = *names, 0.5
            return
        need = [self._name_width(name) if name else 0.0 for name in names]
        if sum(need) <= room:
            widths = [n + (room - sum(need)) / 2 for n in need]
        else:
            half = [min(n, room / 2) for n in need]
            widths = [room - half[1], half[1]] if need[0] > need[1] else [half[0], room - half[0]]
        self.left_share = widths[0] / room
        self.left_shown, self.right_shown = (
            fitted(name, partial(self._fits_in, width))
            for name, width in zip(names, widths, strict=True)
        )

    def _fits_in(self, width: float, form: str) -> bool:
        return self._name_width(form) <= width - 1  # Kivy rounds the label's size

    def _fit_digits(self, *_: object) -> None:
        """The names at a 12 mm cap height and the digits at 25 mm on the panel (or at
        `digits` percent of the window's height, if more), smaller only if the rows shown or
        the widest number would not fit."""
        width, height = Window.size
        unit = float(getattr(App.get_running_app(), "unit", height / 60))
        mm = px_per_mm(width, height, float(self.panel_in))
        self.name_font = NAME_CAP_MM * mm / CAP_INK_EM
        wanted = max(DIGIT_CAP_MM * mm / CAP_INK_EM, height * float(self.digits) / 100 / DIGIT_EM)
        free = height - unit * (self.TOP_UNITS + 3) - self.name_font * 1.32
        if self.one_row and self.timer_shown:
            free *= 0.8  # the timer's caption over its digits
        elif not self.one_row and self.scores_shown and self.timer_shown:
            free /= 1 + self.LOW_SHARE  # the delay's row under the banks
        high = free / ROW_EM
        numbers = [self.left_score, self.right_score]
        if self.one_row and self.timer_shown:
            numbers.append(self.big)
        ems = sum(max(_ems(n), CHAR_EM) for n in numbers if n) or CHAR_EM
        count = max(1, sum(1 for n in numbers if n))
        wide = (width - unit * 2 * (count + 1)) / ems
        self.digit_font = max(1.0, min(wanted, high, wide))

    def configure(self, players: PlayersSettings) -> None:
        """`[players]` of the settings: the digits' size and the rows shown."""
        self.icf_score = players.icf_score
        self.digits = players.digits
        self.show_score = players.show_score
        self.show_timer = players.show_timer
        self.show_status = players.show_status
        self.panel_in = players.panel_in

    def show_game(self, table: AnyTable | None) -> None:
        """Follow the table in play, from its own view (never another screen's); None:
        nothing to show."""
        self._table = table
        self.back_to = table.kind if table is not None else "home"

    def on_pre_enter(self, *_: object) -> None:
        app = App.get_running_app()
        players = getattr(
            getattr(getattr(app, "services", None), "settings", None), "players", None
        )
        if players is not None:
            self.configure(players)
        if self._table is None:
            self.big, self.banner, self.lead = "", "", ""
            self.status = ptr._("No table running")
            self.left_name = self.right_name = self.left_score = self.right_score = ""
            self.left_turn = self.right_turn = self.paused = False
        else:  # shown at once, not blank until the app's next tick
            self.follow(0.0)

    def follow(self, _now: float) -> None:
        """The app's tick: the table's view as it is now."""
        table = self._table
        if table is None:
            return
        view = table.view()
        getattr(self, f"_{KINDS[table.kind].name}")(view)  # _carrom, _backgammon, _bhukhar

    def _carrom(self, view: CarromView) -> None:
        if view.state is None:
            return
        self.lead = ""
        self.one_row = True
        board = scoreboard(view.state, ptr._)  # in the players' own language
        scored = score_shown(view.state.rules, self.icf_score)
        self.left_name, self.right_name = (side.name for side in board.sides)
        self.left_score, self.right_score = (
            (str(side.points) for side in board.sides) if scored else ("", "")
        )
        self.left_turn, self.right_turn = (side.at_turn for side in board.sides)
        games = "-".join(str(side.games) for side in board.sides)
        self.status = " · ".join(
            part
            for part in (
                board.title,
                ptr._("Games {score}", score=games) if scored else "",
                board.queen,
            )
            if part
        )
        timer = view.timer
        self.big = timer_text(timer.remaining) if timer is not None else ""
        self.caption = ptr._(TIMER_NAMES.get(timer.kind, timer.kind)) if timer is not None else ""
        self.paused = bool(timer is not None and timer.held)
        self.urgent = bool(timer is not None and timer.low) and not self.paused
        # The console's banner, in the players' language, for what the players act on.
        words, kind = banner(view, ptr._)
        if kind in ("sides", "interval", "over", "expired"):
            self.banner = words
        elif self.paused:
            self.banner = ptr._("PAUSED: the umpire stopped the clock (law 121)")
        else:
            self.banner = ""

    def _backgammon(self, view: ClockView) -> None:
        face = view.face
        self.one_row = False
        left, right = face.sides
        self.left_name, self.right_name = left.player, right.player
        self.left_score, self.right_score = left.bank, right.bank
        self.left_turn, self.right_turn = left.on_turn, right.on_turn
        self.paused = bool(view.paused)
        on_turn = [side for side in face.sides if side.on_turn]
        side = on_turn[0] if on_turn else None
        self.big = side.delay if side is not None else ""
        waiting = side is not None and side.must_wait
        self.caption = (
            ptr._("{name}: WAIT for the delay (4.1 (v) b)", name=side.player)
            if waiting and side is not None
            else (ptr._("delay") if side is not None else "")
        )
        self.urgent = bool(view.flagged) or waiting
        words, line = face_words(view, ptr._)  # the face's facts, in the players' language
        if view.flagged and not view.winner:
            words = ptr._("TIME OUT: {name}'s flag fell", name=view.flagged)
        elif view.paused:
            words = ptr._("PAUSED: the clock stands")
        elif waiting and side is not None:
            words = ptr._("{name} waits: no move until the delay has run", name=side.player)
        # The match score, as the players say it: "4-2 to 5", first on the top line whether
        # a banner (the Crawford game, PAUSED) or the match line follows it.
        score = ptr._(
            "{left}-{right} to {length}",
            left=left.score,
            right=right.score,
            length=view.match_length,
        )
        self.lead = score
        self.banner = words
        self.status = f"{score} · {line}" if line else score

    def _bhukhar(self, view: BhukharView) -> None:
        self.lead = ""
        # The last game entered at this table, and a licence meld spoiled later (17.2).
        self.status = ""
        if view.entered is not None:
            names = {t.id: t.name or t.id for t in view.teams}
            said = [entered_words(view.entered, names, ptr._)]
            if view.entered_game is not None:
                said += spoiled_words(view.entered_game, names, ptr._)
            self.status = "\n".join(said)
        self.left_name = self.right_name = ""
        self.left_score = self.right_score = ""
        self.left_turn = self.right_turn = False
        self.one_row = False
        self.big = view.face
        self.caption = ptr._("Round {n}", n=view.round) if view.round else ""
        self.urgent = view.time_called
        self.paused = view.paused and not view.time_called
        if view.time_called:
            self.banner = ptr._("TIME")
        elif self.paused:
            self.banner = ptr._("PAUSED: the clock stands")
        else:
            self.banner = ""


load_kv(__file__)
