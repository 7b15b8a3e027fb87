"""The carrom console's dialogs and its ruling strip (the base of CarromScreen).

- The player picker (foul, concede, forfeit, toss). For a foul it says per player what the
  core would call: a technical foul (law 63) or a foul (law 64).
- A destructive call (concede, forfeit the board, void it) is never made by the first tap: a
  second dialog, placed apart from the picker (across the top of the screen, where no
  picker button was), names its consequence as the table's `preview(command)` works it out
  (the core pushes, looks and pops), "Κώστας concedes the match: Rajesh wins, games 1-0".
  The director's PIN opens it; its Yes is checked again when tapped, and a lock in between
  closes it.

The screen only draws views and sends commands (kiosk/ui/lock.py `send`): it builds no event,
reads no match, and words every refusal from its Reason.
- The ruling strip: the last rulings in plain words with their laws (kiosk/ui/carrom_rulings.py).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.access.authority import Role
from kiosk.errors import Refused
from kiosk.tables.carrom_preview import foul_law
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.commands import NO_MATCH, Command, StaleView
from kiosk.ui.carrom_rulings import (
    RulingLog,
    capital,
    consequence,
    disagreeing,
    fix_colour,
    pocket_words,
)
from kiosk.ui.carrom_view import break_called
from kiosk.ui.i18n import tr
from kiosk.ui.lock import command_for, send
from kiosk.ui.parts_screen import part_name
from kiosk.ui.seen import Seen
from kiosk.ui.words import N_, error_words, reason_words, said_words

#: A tap the table did not take because the screen had changed under it (a double tap).
STALE_QUIET = N_("Second tap not taken: the first one did it")

#: Who a picked player is for: the command and what the picker asks.
PICKS = {
    "foul": N_("Foul on whom? (law 63 technical / 64)"),
    "concede": N_("Who concedes the match? (law 139)"),
    "forfeit_board": N_("Who loses this board? (laws 51, 91, 121, 126)"),
    "toss": N_("Who won the toss? (law 56 b)"),
}
#: The calls that cannot be taken back by a tap: each asks again with its consequence.
DESTRUCTIVE = {
    "concede": N_("Yes: concede the match"),
    "forfeit_board": N_("Yes: forfeit the board"),
    "void_board": N_("Yes: void the board"),
}
#: What the foul picker says under each name, by the law the core called.
FOUL_KINDS = {
    "63 a": N_("technical foul (law 63): turn goes on"),
    "63 b": N_("technical foul (law 63): out of turn"),
    "64 a": N_("foul (law 64): the turn ends"),
    "club IV i": N_("foul (club rule IV i)"),
}

#: What the umpire does next, after a banner's own words (the expiry's carry their own).
NEXT_STEPS = {
    "sides": N_("tap Play once the players have changed sides"),
    "interval": N_("tap Play when the interval is over"),
    "toss": N_("tap Toss and choose who won it"),
    "board": N_("tap Play for the next board"),
    "game": N_("tap Play for the next game"),
    "over": N_("tap Sheet to check the result, then Home"),
    "protest": N_("the director decides the protest: tap Protest (law 151)"),
}


def next_step(kind: str, view: CarromView) -> str:
    """The next step for the banner of `kind`; none once the umpire has called "play" for
    the next break (its count runs, or the break is under way: it stays gone) or where the
    banner says it already."""
    if kind in ("board", "game", "sides") and break_called(view):
        return ""
    return tr._(NEXT_STEPS[kind]) if kind in NEXT_STEPS else ""


class CarromCalls(Screen):
    """The dialogs' and the strip's side of the carrom console (see the module docstring).
    `session` and `_latest` are the console's (kiosk/ui/carrom.py)."""

    session: CarromTable | None = ObjectProperty(None, allownone=True)
    error = StringProperty("")
    # the player picker (foul, concede, forfeit, toss)
    pick_action = StringProperty("")
    pick_question = StringProperty("")
    pick_players = ListProperty([])
    #: Under each name: what the core would call (the foul's law), or "".
    pick_notes = ListProperty([])
    # the second, destructive confirmation
    confirm_action = StringProperty("")
    confirm_by = StringProperty("")
    confirm_text = StringProperty("")
    confirm_yes = StringProperty("")
    # the ruling strip, newest last
    rulings = ListProperty([])
    # the proposal pocket by pocket: [(pocket, words, colour missing)], and the pocket
    # whose colour the umpire is choosing (0: none)
    pockets_seen = ListProperty([])
    colour_missing = BooleanProperty(False)
    fixing = NumericProperty(0)
    #: The pocket whose count the umpire is setting (0: none).
    counting = NumericProperty(0)
    #: The line shows a refusal that is no alarm: the second tap of a double tap, not taken.
    error_quiet = BooleanProperty(False)

    # the parts' faults: every message in one line, the line the chip shows, the details
    #: What the umpire does next after the banner's words ("" : nothing more to say).
    banner_next = StringProperty("")
    faults = StringProperty("")
    fault_line = StringProperty("")
    fault_details = StringProperty("")
    show_fault_details = BooleanProperty(False)

    _latest: CarromView | None = None

    def __init__(self, **kw: Any) -> None:
        self.log = RulingLog()
        #: The views drawn, for the version a tap is made from (kiosk/ui/seen.py).
        self.seen = Seen()
        #: The version of the view the open destructive confirmation was made from.
        self._confirm_view: int | None = None
        #: The version the open player picker was made from.
        self._pick_view: int | None = None
        #: The last tap taken was a correction of the proposal.
        self._editing = False
        super().__init__(**kw)

    def _do(self, action: str, **args: object) -> bool:
        """One command to the table, made from the view the umpire has seen (kiosk/ui/seen.py)."""
        self._editing = False
        return self._send(self.seen.version(), action, **args)

    def _edit(self, **changes: object) -> bool:
        """A correction of the proposal, made from the view on screen when the last tap was a
        correction too (a quick second "+" is a second coin); after any other tap, from the
        view seen: a tap that lands where a closing dialog was (the queen under the foul
        picker) is the second of a double tap, not an edit."""
        view = self.seen.newest() if self._editing else self.seen.version()
        sent = self._send(view, "edit", **changes)
        self._editing = sent
        return sent

    def _send(self, view: int | None, action: str, **args: object) -> bool:
        """One command to the table, made from the view of version `view`, with the console's
        role (kiosk/ui/lock.py `send`); the new view comes as an output. A refusal is shown,
        worded from its Reason in the console's language (with a capital), and False
        returned. After a PIN the same tap goes again, made from the same view: refused if
        the table moved on meanwhile."""

        def again() -> None:  # the same tap, once the PIN is given
            self._send(view, action, **args)

        try:
            sent = send(self.session, action, again, view=view, **args)
        except StaleView:
            # The second tap of a double tap: the first one acted; said quietly, so the
            # strip's "Undone: ..." stays the news and nobody is told to tap once more.
            self.error = capital(tr._(STALE_QUIET))
            self.error_quiet = True
            return False
        except (Refused, ValueError) as exc:
            self.error = capital(error_words(exc, tr._))
            self.error_quiet = False
            return False
        self.error_quiet = False
        return sent

    def locked(self) -> None:
        """The console locked: the picker and the confirmation close."""
        self.pick_action = ""
        self.confirm_action = ""

    # -- the ruling strip -------------------------------------------------------------
    def follow_rulings(self, view: CarromView) -> None:
        events = view.history
        state = view.state
        calls = () if state is None else state.calls
        turn = None if state is None or state.now is None else state.now.turn
        self.log.follow(view.match_id, events, calls, turn, view.recent_calls)
        self.reword_rulings()

    def reword_rulings(self) -> None:
        self.rulings = self.log.words(tr._)

    def dues_placed(self) -> None:
        """Dues placed: the strip says by whom and how many (the core's `placing`), and the
        purple banner goes at once (the placing timer gives way to the stroke's)."""
        state = self._latest.state if self._latest is not None else None
        now = None if state is None else state.now
        n = 0 if now is None else sum(now.placing.values())
        placer = None if now is None else now.placer
        if self._do("dues_placed"):  # after a PIN the whole tap runs again, strip line too
            self.log.dues_placed(placer, n)
            self.reword_rulings()

    # -- the picker -------------------------------------------------------------------
    def ask(self, action: str) -> None:
        """Open the player picker for `action` (foul, concede, forfeit_board, toss)."""
        state = self._latest.state if self._latest is not None else None
        if state is None:
            return
        self.pick_players = list(state.players)
        notes = []
        for player in state.players:
            law = None
            if action == "foul" and self.session is not None:  # what the core would call
                seen = self.session.preview(Command.of("foul", Role.PLAYER, by=player))
                law = foul_law(seen.calls)
            notes.append(tr._(FOUL_KINDS[law]) if law in FOUL_KINDS else "")
        self.pick_notes = notes
        self.pick_question = tr._(PICKS[action])
        self._pick_view = self.seen.version()  # the pick is made from the view it opened on
        self.pick_action = action

    def picked(self, index: int) -> None:
        action, self.pick_action = self.pick_action, ""
        if not action or index >= len(self.pick_players):
            return
        player = self.pick_players[index]
        self._editing = False
        if action == "toss":
            self._send(self._pick_view, "toss", winner=player)
        elif action in DESTRUCTIVE:
            self.destructive(action, player, made_from=self._pick_view)
        else:
            self._send(self._pick_view, action, by=player)

    # -- the destructive confirmation ---------------------------------------------------
    def destructive(self, action: str, by: str = "", made_from: int | None = None) -> None:
        """Ask again, naming what `action` by `by` would do (the table's preview); a call the
        core refuses is said at once and asks nothing. The director's PIN comes first; the
        Yes is checked again when tapped (`confirmed`)."""
        if self.session is None:
            self.error = capital(reason_words(NO_MATCH, tr._))
            return
        args: dict[str, object] = {} if action == "void_board" else {"by": by}
        if made_from is None:  # void: no picker before it
            made_from = self.seen.version()
        retry = lambda: self.destructive(action, by, made_from)  # noqa: E731
        command = command_for(self.session, action, retry, view=made_from, keep=True, **args)
        if command is None:
            return
        seen = self.session.preview(command)
        if seen.refused is not None:
            self.error = capital(reason_words(seen.refused, tr._))
            return
        self.confirm_text = consequence(action, by, seen, tr._)
        self.confirm_yes = tr._(DESTRUCTIVE[action])
        self.confirm_by = by
        self._confirm_view = made_from
        self.confirm_action = action

    def confirmed(self) -> None:
        """The Yes: the command is sent with the console's role now, checked again (a lock
        since the dialog opened has closed it; the director's window may have ended)."""
        action, by = self.confirm_action, self.confirm_by
        self.confirm_action = ""
        if action == "void_board":  # made from the view the consequence was worded from
            self._send(self._confirm_view, "void_board")
        elif action:
            self._send(self._confirm_view, action, by=by)

    # -- the parts' faults ---------------------------------------------------------------
    def show_faults(self, view: CarromView) -> None:
        """A fault stays on the console (an icon and a line; a tap gives every message) until
        the part works again: the table clears it, never the screen."""
        faults = view.faults
        self.faults = "  ·  ".join(f.message for f in faults)
        if not faults:
            self.fault_line = self.fault_details = ""
            self.show_fault_details = False
            return
        first = tr._("{part}: not working", part=part_name(faults[0].part))
        more = len(faults) - 1
        self.fault_line = tr._("{fault} (+{n} more)", fault=first, n=more) if more else first
        # Each fault worded from its facts (the pin, the port) in the umpire's language.
        self.fault_details = "\n".join(
            f"{part_name(f.part)}: {said_words(f.message, tr._)}" for f in faults
        )

    # -- the proposal's colours ---------------------------------------------------------
    def show_pockets(self, view: CarromView) -> None:
        self.pockets_seen = [list(p) for p in pocket_words(view.proposal, tr._)]
        self.colour_missing = any(missing for _p, _w, missing in self.pockets_seen)

    def fix_first_missing(self) -> None:
        """The proposal's pocket words were tapped: where the beams and the camera disagree
        or a beam is at fault, ask that pocket's count; else the colour at the first pocket
        whose coin the camera did not see."""
        view = self._latest
        if view is not None:
            doubted = [int(f.part.split()[-1]) for f in view.faults if f.part.startswith("beam ")]
            unsure = disagreeing(view.proposal) + doubted
            if unsure:
                self.counting = unsure[0]
                return
        missing = [pocket for pocket, _w, gone in self.pockets_seen if gone]
        self.fixing = missing[0] if missing else 0

    def count_pocket(self, pocket: int) -> None:
        """Set the count of `pocket` (the count panel's pocket chips)."""
        self.counting = pocket

    def fix_pocket(self, colour: str) -> None:
        """The umpire names the colour the camera did not see at the pocket being fixed."""
        self.fixing = 0
        if self._latest is not None and colour:
            self._edit(pocketed=fix_colour(self._latest.proposal, colour))
