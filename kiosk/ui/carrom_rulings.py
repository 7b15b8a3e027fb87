"""The carrom console's words for the rules core's rulings: the ruling strip, the
consequence a destructive call asks to confirm, the proposal pocket by pocket.

Kivy-free (the words are passed in as `_`): every fact comes from the core, its calls
(`MatchState.calls`: a `Reason` each, with its code, law and facts; kiosk/rules/carrom/
calls.py holds one catalogue message per code) or a preview of an event
(kiosk/tables/carrom_preview.py); this module only words them: the call's message in the
umpire's language with its names and numbers, then its law, "Text (law 73)".
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from kiosk.errors import Reason
from kiosk.rules.carrom.events import (
    Concede,
    Event,
    ForfeitBoard,
    Foul,
    Pass,
    Protest,
    ProtestDecided,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.state import MatchState, ProtestState
from kiosk.tables.carrom_preview import Preview
from kiosk.tables.carrom_view import DECISION_WITHIN_S as DECISION_WITHIN_S  # 151 c
from kiosk.tables.carrom_view import decision_left
from kiosk.tables.fusion import Proposal
from kiosk.ui.words import N_, Words, english, reason_words


def law_words(law: str, _: Words = english) -> str:
    """A call's law in the console's language: "73" -> "law 73", "139, 143" -> "laws 139,
    143", "club IV i" -> "club rule IV i"."""
    if law.startswith("club "):
        return _("club rule {n}", n=law.removeprefix("club "))
    if "," in law:
        return _("laws {n}", n=law)
    return _("law {law}", law=law)  # `law`: the translator letters its clause (i18n.py)


def capital(text: str) -> str:
    """The first letter in capitals (scripts without capitals are left as they are)."""
    return text[:1].upper() + text[1:]


def word_call(call: Reason, _: Words = english) -> str:
    """One call of the core in plain words: "Striker pocketed: one due, ... (law 72 a)"."""
    worded = capital(reason_words(call, _))
    return (
        _("{ruling} ({where})", ruling=worded, where=law_words(call.law, _)) if call.law else worded
    )


# -- what an event was (for "Undone: ...") ------------------------------------------------


def event_words(event: Event, turn: str | None, _: Words = english) -> str:
    """An event in a few words; `turn`: the player at turn before it (for `by` None)."""
    name = getattr(event, "by", None) or turn or "?"
    match event:
        case Stroke():
            return _("stroke by {name}", name=name)
        case Foul():
            return _("foul on {name}", name=name)
        case Waive():
            return _("the waive of the dues")
        case Pass():
            return _("pass by {name}", name=name)
        case VoidBoard():
            return _("the void board")
        case ForfeitBoard():
            return _("board forfeited by {name}", name=name)
        case Toss():
            return _("toss won by {name}", name=event.winner)
        case Concede():
            return _("match conceded by {name}", name=name)
        case Protest():
            game, board = event.board
            return _(
                "the protest by {name} against board {board} of game {game}",
                name=name,
                board=board,
                game=game,
            )
        case ProtestDecided():
            game, board = event.board
            return _(
                "the decision on the protest against board {board} of game {game}",
                board=board,
                game=game,
            )
    return str(event)  # pragma: no cover - the Event union is exhausted above


# -- the consequence of a destructive call ---------------------------------------------


def consequence(action: str, by: str, seen: Preview, _: Words = english) -> str:
    """What the core says `action` ("concede", "forfeit_board", "void_board",
    "uphold_protest") would do, for the confirmation: "Κώστας concedes the match: Rajesh
    wins, games 1-0 (law 139)"."""
    state, outcome = seen.state, seen.outcome
    assert state is not None and outcome is not None
    if action == "uphold_protest":
        upheld = next(c for c in seen.calls if c.code == "protest_upheld")
        facts = upheld.values()
        now = state.now
        assert now is not None
        return _(
            "The protest is upheld: {n} board(s) set aside, the scores worked out again "
            "without them; {name} breaks board {board} of game {game} again (law 151 a)",
            n=facts["n"],
            name=now.breaker,
            board=facts["board"],
            game=facts["game"],
        )
    if action == "concede":
        ended = outcome.match
        assert ended is not None and ended.winner is not None
        loser = next(s for s in state.sides if s != ended.winner)
        return _(
            "{loser} concedes the match: {winner} wins, games {won}-{lost} (laws 139, 143)",
            loser=loser,
            winner=ended.winner,
            won=state.games_won.get(ended.winner, 0),
            lost=state.games_won.get(loser, 0),
        )
    if action == "forfeit_board":
        board = outcome.board
        assert board is not None
        text = _(
            "{name} loses the board: {winner} wins it with {n} point(s) (law {law})",
            name=by,
            winner=board.winner or "?",
            n=board.points,
            law=board.law,
        )
        if outcome.match is not None:
            text += _("; {winner} wins the match", winner=outcome.match.winner or "?")
        elif outcome.game is not None:
            text += _("; {winner} wins the game", winner=outcome.game.winner or "?")
        return text
    now = state.now
    breaker = now.breaker if now is not None else "?"
    return _(
        "The board is void: the coins are set out again and {name} breaks it again (laws 140, 142)",
        name=breaker,
    )


# -- protests (laws 144-151) ------------------------------------------------------------


def protest_words(protest: ProtestState, t: float | None, _: Words = english) -> str:
    """A protest as the console and the hall list it: who, which board, and its decision,
    or while it waits the minutes left of the officials' hour at `t` (151 c)."""
    game, board = protest.board
    where = {"name": protest.by, "board": board, "game": game}
    if protest.decision == "upheld":
        return _(
            "Protest by {name} against board {board} of game {game}: upheld, the board is "
            "played again (law 151 a)",
            **where,
        )
    if protest.decision == "rejected":
        return _(
            "Protest by {name} against board {board} of game {game}: rejected, the result "
            "stands (law 151 b)",
            **where,
        )
    if t is None or protest.t is None:
        return _(
            "Protest by {name} against board {board} of game {game}: waiting for the "
            "decision (law 150)",
            **where,
        )
    left = math.ceil((decision_left(protest, t) or 0.0) / 60 - 1e-9)
    return _(
        "Protest by {name} against board {board} of game {game}: waiting, {minutes} min "
        "left of the hour (law 151 c)",
        minutes=left,
        **where,
    )


def result_words(state: MatchState, _: Words = english) -> str | None:
    """The match's result line while a protest waits: won on the board, not declared
    (150); None when there is no such result (play goes on, or the result is declared)."""
    if state.winner is not None or state.provisional_winner is None:
        return None
    return _(
        "{name} won on the board: under protest, no result is declared (law 150)",
        name=state.provisional_winner,
    )


# -- the ruling strip ------------------------------------------------------------------


#: The carrom timers, as the console and the player display name them (kiosk/clocks/turn.py).
TIMER_NAMES = {
    "stroke": N_("Stroke (law 50)"),
    "break": N_("Break (law 46)"),
    "placing": N_("Placing dues (law 88)"),
    "waive": N_("Waive? (law 87 a)"),
    "change_sides": N_("Change sides (law 61)"),
    "interval": N_("Interval (law 138)"),
}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the strip, kept as facts so that it is worded again in a new language:
    `kind` "call" (the core's `call`), "undone" (`event`, on `name` at turn before it),
    "dues" (`n` coins placed by `name`), "expired" (the timer `name` ran out)."""

    kind: str
    call: Reason | None = None
    name: str | None = None
    n: int = 0
    event: Event | None = None


class RulingLog:
    """The last rulings of the match on the table, newest last (at most `keep`).

    `follow` is given each view's match id, the core's events, its calls on the last one and
    the player at turn: a new event adds the core's calls on it; fewer events than before is
    an undo ("Undone: foul on X"). Kept by the screen, so a restarted kiosk starts it afresh
    from the last event's calls.
    """

    def __init__(self, keep: int = 4) -> None:
        self.keep = keep
        self.lines: list[Line] = []
        self._match: int | None = None
        self._events: tuple[Event, ...] = ()
        #: The player at turn before each event (None: not seen by this log).
        self._turns: list[str | None] = []
        self._turn: str | None = None

    def add(self, line: Line) -> None:
        self.lines = [*self.lines, line][-self.keep :]

    def follow(
        self,
        match_id: int | None,
        events: tuple[Event, ...],
        calls: tuple[Reason, ...],
        turn: str | None,
        recent: tuple[Reason, ...] = (),
    ) -> None:
        old = self._events
        if match_id != self._match:
            # A console that starts again (a restart, another table): the calls of the last
            # few events (`recent`, the table's), else those on the last one.
            self._match, self.lines = match_id, []
            self._turns = [None] * len(events)
            for call in (recent or calls)[-self.keep :] if events else ():
                self.add(Line("call", call=call))
        elif len(events) < len(old):
            for gone in reversed(range(len(events), len(old))):
                self.add(Line("undone", name=self._turns[gone], event=old[gone]))
            self._turns = self._turns[: len(events)]
        elif len(events) > len(old):
            added = len(events) - len(old)
            self._turns = [*self._turns, *[self._turn] * added]
            for call in calls:
                self.add(Line("call", call=call))
        self._events = events
        self._turn = turn

    def dues_placed(self, name: str | None, n: int) -> None:
        self.add(Line("dues", name=name, n=n))

    def expired(self, timer: str) -> None:
        """A timer ran out: its banner goes with the next count, this line stays."""
        self.add(Line("expired", name=timer))

    def word(self, line: Line, _: Words = english) -> str:
        if line.kind == "call":
            assert line.call is not None
            return word_call(line.call, _)
        if line.kind == "expired":
            timer = line.name or ""
            return _("Time ran out: {timer}", timer=_(TIMER_NAMES.get(timer, timer)))
        if line.kind == "dues":
            if line.n and line.name:
                return _(
                    "Dues placed: {n} coin(s) by {name}; the next stroke within 15 s (law 50)",
                    n=line.n,
                    name=line.name,
                )
            return _("Dues placed: the next stroke within 15 s (law 50)")
        assert line.event is not None
        return _("Undone: {what}", what=event_words(line.event, line.name, _))

    def words(self, _: Words = english) -> list[str]:
        return [self.word(line, _) for line in self.lines]


# -- the proposal, pocket by pocket ----------------------------------------------------

#: The pieces by name (what the camera saw at a pocket, what a proposal's notes name).
COLOUR_WORDS = {
    "white": N_("white"),
    "black": N_("black"),
    "queen": N_("queen"),
    "striker": N_("striker"),
}


def pocket_words(proposal: Proposal, _: Words = english) -> list[tuple[int, str, bool]]:
    """(pocket, words, colour missing) for each pocket something was seen at:
    "Pocket 1: white", "Pocket 3: colour not seen", "Pocket 2: white, 1 colour not seen"."""
    out = []
    for pv in proposal.pockets:
        if not (pv.beam or pv.camera):
            continue
        seen = list(pv.camera or ())
        missing = max(0, (pv.beam or 0) - len(seen))
        parts = [_(COLOUR_WORDS.get(c, c)) for c in seen]
        if missing == 1 and not seen:
            parts.append(_("colour not seen"))
        elif missing:
            parts.append(_("{n} colour(s) not seen", n=missing))
        out.append(
            (pv.pocket, _("Pocket {n}: {what}", n=pv.pocket, what=", ".join(parts)), bool(missing))
        )
    return out


def disagreeing(proposal: Proposal) -> list[int]:
    """The pockets where the beam and the camera counted differently."""
    return [
        pv.pocket
        for pv in proposal.pockets
        if pv.beam is not None and pv.camera is not None and pv.beam != len(pv.camera)
    ]


def disagree_words(proposal: Proposal, _: Words = english) -> str:
    """Where the beams and the camera disagree, and what the proposal holds, said out loud:
    "Beams and camera disagree: pocket 1, beam 7, camera 0; the stroke holds 5" ("" when
    they agree, or one of them saw nothing). The umpire sets the count."""
    pockets = disagreeing(proposal)
    if not pockets:
        return ""
    where = "; ".join(
        _(
            "pocket {n}: beam {beam}, camera {camera}",
            n=pv.pocket,
            beam=pv.beam or 0,
            camera=len(pv.camera or ()),
        )
        for pv in proposal.pockets
        if pv.pocket in pockets
    )
    held = len(proposal.pocketed) + int(proposal.striker)
    return _(
        "Beams and camera disagree: {where}; the stroke holds {n}: set the count",
        where=where,
        n=held,
    )


def fix_colour(proposal: Proposal, colour: str) -> list[str]:
    """The proposal's pocketed coins with one coin whose colour no camera saw (a beam's
    guess) made `colour`; with no guess left, `colour` is added."""
    seen = Counter(c for pv in proposal.pockets for c in (pv.camera or ()))
    pocketed: list[str] = list(proposal.pocketed)
    for i in range(len(pocketed)):
        coin = pocketed[i]
        if seen[coin] > 0:
            seen[coin] -= 1
            continue
        pocketed[i] = colour
        return pocketed
    return [*pocketed, colour]
