"""What the player display shows, made from a table's view (drivers/display_protocol.py frames).

Carrom: the two sides' points in the game being played (the first side on the left), the
running timer in whole seconds (rounded up, so it never shows less time than there is),
whose turn, the board number, and a short message for the players: a change of sides
(law 60), an expired timer, the queen waiting for its cover, the match's end.
Backgammon: the match score (the scores and, since version 3, the match's length), the
running side's bank as the clock, and the message.
Version 2 of the protocol adds what the kiosk's own player display screen shows beside: the
games won and the queen's state (carrom), both banks and the delay (backgammon), and each
side's Latin initials (a name in any script, transliterated).
Bhukhar: the round's clock, the round as the board number, TIME when it is called (rule 16.3).
"""

from __future__ import annotations

import math
import re

from drivers.display_protocol import DisplayFrame, Turn
from drivers.transliterate import initials, to_latin
from kiosk.tables.backgammon_table import ClockView
from kiosk.tables.bhukhar_table import BhukharView
from kiosk.tables.carrom_view import CarromView

_ALLOWED = re.compile(r"[^A-Z0-9 .:!?+/-]")


def message(text: str) -> str:
    """`text` in the display's font: capitals, digits and .:!?+/- only, 12 characters; a name
    in Devanagari, Gujarati or Greek goes transliterated (drivers/transliterate.py)."""
    return _ALLOWED.sub("", to_latin(text).upper())[:12].strip()


def seconds_text(seconds: float) -> str:
    """A timer as the display shows it: "15", "1:05", "10:00" (whole seconds, rounded up)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    if whole < 60:
        return str(whole)
    minutes, rest = divmod(whole, 60)
    return f"{min(minutes, 999)}:{rest:02d}"


def side_initials(side: str) -> str:
    """A side's Latin initials, at most 3: a player's ("अमित शाह" -> "AS"), or in doubles
    (partners joined by " & ") the first letter of each partner's ("Asha & Bina" -> "AB")."""
    partners = side.split(" & ")
    if len(partners) > 1:
        return "".join(initials(p)[:1] for p in partners)[:3]
    return initials(side)[:3]


def _queen(view: CarromView, left: str) -> str:
    """The queen as one letter: O on the board, P pocketed and to cover, L or R covered."""
    now = view.state.now if view.state is not None else None
    if now is None:
        return "-"
    if now.queen == "covered" and now.queen_by is not None:
        return "L" if now.queen_by == left else "R"
    return "P" if now.queen == "pending" else "O"


def carrom_frame(view: CarromView) -> DisplayFrame:
    state = view.state
    if state is None:
        return DisplayFrame(message="TABLESIDE")
    left, right = state.sides
    points = state.games[-1].points if state.games else {left: 0, right: 0}
    clock = "-" if view.timer is None else seconds_text(view.timer.remaining)
    now = state.now
    if state.winner is not None:
        text = f"{state.winner} WINS"
    elif view.expired is not None:
        text = "TIME"
    elif state.change_sides:
        text = "CHANGE SIDES"
    elif view.timer is not None and view.timer.kind == "interval":
        text = "INTERVAL"
    elif now is not None and now.queen == "pending":
        text = "COVER QUEEN"
    elif now is not None and now.is_break:
        text = "BREAK"
    else:
        text = ""
    turn: Turn = "-"
    if now is not None:
        turn = "L" if now.turn_side == left else "R"
    won = state.games_won
    return DisplayFrame(
        left=min(999, points.get(left, 0)),
        right=min(999, points.get(right, 0)),
        clock=clock,
        turn=turn,
        board=0 if now is None else min(999, now.board),
        message=message(text),
        games=f"{min(99, won.get(left, 0))}-{min(99, won.get(right, 0))}",
        queen=_queen(view, left),
        left_name=side_initials(left),
        right_name=side_initials(right),
    )


def clock_frame(view: ClockView) -> DisplayFrame:
    """The backgammon clock: the running side's bank as the clock, the score either side."""
    a, b = view.players
    running = view.running
    clock = "-" if running is None else seconds_text(view.snapshot.banks[running])
    if view.winner is not None:
        text = f"{view.winner} WINS"
    elif view.flagged is not None:
        text = "TIME"
    elif view.paused:
        text = "PAUSED"
    elif view.must_wait is not None:
        text = "WAIT"  # 4.1 (v) b: the side shown by `turn` waits its delay out
    elif view.crawford:
        text = "CRAWFORD"
    else:
        text = f"TO {view.match_length}"
    banks = view.snapshot.banks
    return DisplayFrame(
        left=view.snapshot.score.get(a, 0),
        right=view.snapshot.score.get(b, 0),
        clock=clock,
        turn="-" if view.running is None else ("L" if view.running == a else "R"),
        message=message(text),
        left_clock=seconds_text(banks[a]) if a in banks else "-",
        right_clock=seconds_text(banks[b]) if b in banks else "-",
        delay="-" if running is None else seconds_text(view.snapshot.delay_left),
        left_name=side_initials(a),
        right_name=side_initials(b),
        match_length=min(99, view.match_length),  # as corrected by the director (4.8)
    )


def bhukhar_frame(view: BhukharView) -> DisplayFrame:
    """The Bhukhar round's clock (what the players screen shows of a Bhukhar session)."""
    if view.round == 0:
        return DisplayFrame(message="BHUKHAR")
    if view.time_called:
        text = "TIME"
    elif view.paused:
        text = "PAUSED"
    else:
        text = f"ROUND {view.round}"
    return DisplayFrame(
        clock=seconds_text(view.left), board=min(999, view.round), message=message(text)
    )
