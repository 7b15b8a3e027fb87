"""The carrom console's words for the rules core's rulings: the ruling strip, the
consequence a destructive call asks to confirm, the proposal pocket by pocket.

Kivy-free (the words are passed in as `_`): every fact comes from the core, its calls
(`MatchState.calls`, "law 73: own coin with the striker: ...") or a preview of an event
(kiosk/tables/carrom_preview.py); this module only words them. A call is split into its law
("law 73", "laws 139, 143", "club IV i") and its text; the text is looked up among the
core's own call texts (CALLS, one catalogue message each, its names and numbers as
placeholders) and shown as "Text (law 73)". A call the table does not know is shown as the
core wrote it, never dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from kiosk.rules.carrom.events import (
    Concede,
    Event,
    ForfeitBoard,
    Foul,
    Pass,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.tables.carrom_preview import Preview
from kiosk.tables.fusion import Proposal
from kiosk.ui.words import N_, Words, english

#: The texts of the core's calls (kiosk/rules/carrom: icf.py, club.py, core.py, match.py),
#: after their law; a test checks that every call in the core's source is here.
CALLS = (
    N_("the queen was not covered and goes back to the centre"),
    N_("{name} returns an owed piece at the end of the turn"),
    N_("{name} returns an owed coin"),
    N_("{name}'s owed coin is placed by {who}"),
    N_(
        "three breaks touched no coin; the turn passes, colours stay; {name} breaks (definition 6, 45 a)"  # noqa: E501
    ),
    N_("the break touched no coin (attempt {n})"),
    N_("improper break or striker pocketed: the turn is over, no due"),
    N_("foul on the stroke: own coins and queen go back with a penalty coin"),
    N_("queen pocketed while a due is owed: it goes back, the turn ends"),
    N_("queen with the striker, all own coins on the board: queen back"),
    N_("queen pocketed before an own coin: it goes back, the turn ends"),
    N_("queen and own coin in one stroke: the queen is covered"),
    N_("own coin after the queen: the queen is covered"),
    N_("foul on {name}: one coin back, the turn ends"),
    N_("level at the board limit: a toss decides who breaks an extra board"),
    N_("queen with the striker on the break: queen back, one due"),
    N_("the opponent's coin counts as pocketed"),
    N_("the striker too: one due more"),
    N_("queen, own coin and striker: queen and two coins back"),
    N_("queen with the striker: queen and one coin back, turn goes on"),
    N_("one coin with the queen, all nine were on the board: cover it"),
    N_("queen pocketed: cover it with an own coin on the next stroke"),
    N_("own coin with the striker while covering: cover on next stroke"),
    N_("striker while covering: queen back with one due"),
    N_("technical foul on {name}: one coin back, turn goes on"),
    N_("technical foul on {name} out of turn: one coin back"),
    N_("own coin with the striker: it goes back with one due, turn goes on"),
    N_("the opponent's coin stays pocketed"),
    N_("striker pocketed: one due, the turn ends"),
    N_("{name} won the toss and breaks the extra board"),
    N_("{name} concedes the match"),
    N_("{name} wins the board with {n} point(s)"),
    N_("{name} wins game {n}; change sides ({law})"),
    N_("{name} wins the match"),
    N_("{name} waives {n} coin(s)"),
    N_("change sides now (two minutes, law 61)"),
    N_("{name} passes"),
    N_("three rounds of passes: the board is void and replayed"),
    N_("the board is void and replayed by the same breaker"),
    N_("the break touched nothing (attempt {n})"),
    N_("three failed breaks: a foul, one penalty piece, the turn ends"),
    N_("foul on {name}: one penalty piece"),
    N_("queen and own piece in one turn: the queen is covered"),
    N_("own piece after the queen in the same turn: the queen is covered"),
    N_("queen pocketed: cover it with an own piece this turn"),
    N_("queen before an own piece: it goes back after the turn"),
    N_("the striker was pocketed: a foul"),
    N_("a piece or the striker left the board: a foul"),
    N_("an improper stroke: a foul"),
    N_("an opponent's piece was pocketed: a foul"),
    N_("the opponent's final piece goes back with the penalty"),
    N_("the final piece before the queen is covered: it goes back"),
)

_LAW = re.compile(r"^((?:laws?|club) [^:]+): (.*)$", re.S)
_HOLE = re.compile(r"\{(\w+)\}")


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for text in CALLS:
        pieces = _HOLE.split(text)
        regex = "".join(
            re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces)
        )
        out.append((re.compile(f"^{regex}$", re.S), text))
    return tuple(out)


def split_call(call: str) -> tuple[str, str]:
    """("law 73", "own coin with ...") for a call; ("", call) when it names no law."""
    found = _LAW.match(call)
    return (found.group(1), found.group(2)) if found else ("", call)


def known(text: str) -> tuple[str, dict[str, str]] | None:
    """The catalogue message a call's text is, with its values; None if it is none."""
    for pattern, message in _patterns():
        found = pattern.match(text)
        if found:
            return message, found.groupdict()
    return None


def law_words(law: str, _: Words = english) -> str:
    """ "law 73" -> "law 73", "club IV i" -> "club rule IV i", in the console's language."""
    word, _sp, number = law.partition(" ")
    if word == "laws":
        return _("laws {n}", n=number)
    if word == "club":
        return _("club rule {n}", n=number)
    return _("law {law}", law=number)  # `law`: the translator letters its clause (i18n.py)


def capital(text: str) -> str:
    """The first letter in capitals (scripts without capitals are left as they are)."""
    return text[:1].upper() + text[1:]


def word_call(call: str, _: Words = english) -> str:
    """One call of the core in plain words: "Striker pocketed: one due, ... (law 72 a)"."""
    law, text = split_call(call)
    found = known(text)
    worded = capital(_(found[0], **found[1]) if found else text)
    return _("{ruling} ({where})", ruling=worded, where=law_words(law, _)) if law else worded


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
    return str(event)  # pragma: no cover - the Event union is exhausted above


# -- the consequence of a destructive call ---------------------------------------------


def consequence(action: str, by: str, seen: Preview, _: Words = english) -> str:
    """What the core says `action` ("concede", "forfeit_board", "void_board") would do, for
    the confirmation: "Κώστας concedes the match: Rajesh wins, games 1-0 (law 139)"."""
    state, outcome = seen.state, seen.outcome
    assert state is not None and outcome is not None
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


# -- the ruling strip ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the strip, kept as facts so that it is worded again in a new language:
    `kind` "call" (the core's call `text`), "undone" (`event`, on `name` at turn before it),
    "dues" (`n` coins placed by `name`)."""

    kind: str
    text: str = ""
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
        calls: tuple[str, ...],
        turn: str | None,
    ) -> None:
        old = self._events
        if match_id != self._match:
            self._match, self.lines = match_id, []
            self._turns = [None] * len(events)
            for call in calls[-self.keep :] if events else ():
                self.add(Line("call", call))
        elif len(events) < len(old):
            for gone in reversed(range(len(events), len(old))):
                self.add(Line("undone", name=self._turns[gone], event=old[gone]))
            self._turns = self._turns[: len(events)]
        elif len(events) > len(old):
            added = len(events) - len(old)
            self._turns = [*self._turns, *[self._turn] * added]
            for call in calls:
                self.add(Line("call", call))
        self._events = events
        self._turn = turn

    def dues_placed(self, name: str | None, n: int) -> None:
        self.add(Line("dues", name=name, n=n))

    def word(self, line: Line, _: Words = english) -> str:
        if line.kind == "call":
            return word_call(line.text, _)
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

COLOUR_WORDS = {"white": N_("white"), "black": N_("black"), "queen": N_("queen")}


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
