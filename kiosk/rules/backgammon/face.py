"""What a backgammon clock screen shows, as text and fields (no Kivy here).

The bank and the delay are shown apart; below 20 seconds the bank shows tenths,
as on tournament clocks. The Crawford game is announced before it starts
(4.7: the players announce it to each other) and while it is played; the games
after it are marked post-Crawford. A side that must wait out its delay after an
early pickup (4.1 (v) b) shows "wait" over the delay.

The banner and the match line are rulings, so they are facts (`Reason`: a code, the law,
the facts) that each language words: the face carries no English.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.errors import N_, Reason
from kiosk.rules.backgammon.clocked import ClockedMatch
from kiosk.rules.backgammon.match import Match

TENTHS_BELOW_S = 20.0


def format_clock(seconds: float) -> str:
    """A clock reading: "1:02:03", "13:05", "0:20", and "19.9" ... "0.0" below 20 s.

    Shown rounded down, so a display never reads more time than there is."""
    ms = max(0, round(seconds * 1000))  # whole milliseconds first: 2.3 s must show 2.3
    if ms < TENTHS_BELOW_S * 1000:
        tenths = ms // 100
        return f"{tenths // 10}.{tenths % 10}"
    whole = ms // 1000
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


@dataclass(frozen=True, slots=True)
class SideFace:
    """One player's half of the clock."""

    player: str
    bank: str
    delay: str  # the delay left, only on the side that runs (or is paused); else ""
    on_turn: bool
    flagged: bool
    score: int
    must_wait: bool = False
    breaks_left: int = 0


@dataclass(frozen=True, slots=True)
class ClockFace:
    sides: tuple[SideFace, SideFace]
    banner: Reason | None  # the Crawford announcement, the match result
    paused: bool
    match_line: Reason  # the length and the cube


#: How a match was won, by `Match.won_by`: the banner's code and words (4.3 (iii), 2.2 (iv)).
_WON: dict[str, tuple[str, str, str]] = {
    "time": ("won_on_time", N_("{name} wins the match on time"), "4.3 (iii)"),
    "penalty": ("won_on_penalty", N_("{name} wins the match on penalty points"), "2.2 (iv)"),
    "overrule": (
        "won_overruled",
        N_("{name} wins the match: time ran out, but the match was already won"),
        "4.3 (iii)",
    ),
}


def banner_reason(match: Match) -> Reason | None:
    """The banner as facts: the match's result, or the Crawford game announced before it
    starts and while it is played (4.4 (iv), 4.7), else None."""
    if match.winner is not None:
        code, message, law = _WON.get(match.won_by or "", ("won", N_("{name} wins the match"), ""))
        return Reason.of(code, message, law, name=match.winner)
    if match.crawford and not match.in_game:
        return Reason.of(
            "crawford_next", N_("Next game: the Crawford game, no doubling"), "4.4 (iv)"
        )
    if match.crawford:
        return Reason.of("crawford_game", N_("Crawford game: no doubling"), "4.4 (iv)")
    return None


def match_reason(match: Match) -> Reason:
    """The match line as facts: the length and the cube (out of play in the Crawford game,
    "post-Crawford" after it)."""
    if match.crawford:
        cube = Reason.of("cube_out", N_("cube out of play"), "4.4 (iv)")
    elif match.owner is not None:
        cube = Reason.of(
            "cube_owned", N_("cube {value} ({name})"), value=match.cube, name=match.owner
        )
    else:
        cube = Reason.of("cube", N_("cube {value}"), value=match.cube)
    if match.post_crawford and not match.crawford and not match.over:
        cube = Reason.of("post_crawford", N_("post-Crawford · {cube}"), "4.4 (iv)", cube=cube)
    return Reason.of("match_line", N_("match to {n} · {cube}"), n=match.length, cube=cube)


def clock_face(cm: ClockedMatch, now: float) -> ClockFace:
    """The screen's fields at `now`."""
    cm.catch_up(now)
    clock, match = cm.clock, cm.match
    side_on = clock.running or clock.paused
    waiting = clock.must_wait(now)
    delay = format_clock(clock.delay_left(now))
    sides = tuple(
        SideFace(
            player=p,
            bank=format_clock(clock.bank(p, now)),
            delay=delay if p == side_on else "",
            on_turn=p == side_on,
            flagged=clock.flagged == p,
            score=match.score[p],
            must_wait=waiting == p,
            breaks_left=match.breaks_left(p),
        )
        for p in clock.players
    )
    a, b = sides
    return ClockFace(
        sides=(a, b),
        banner=banner_reason(match),
        paused=clock.paused is not None,
        match_line=match_reason(match),
    )
