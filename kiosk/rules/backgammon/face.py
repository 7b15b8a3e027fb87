"""What a backgammon clock screen shows, as text and fields (no Kivy here).

The bank and the delay are shown apart; below 20 seconds the bank shows tenths,
as on tournament clocks. The Crawford game is announced before it starts
(4.7: the players announce it to each other) and while it is played; the games
after it are marked post-Crawford. A side that must wait out its delay after an
early pickup (4.1 (v) b) shows "wait" over the delay.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.backgammon.clocked import ClockedMatch

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
    banner: str | None  # the Crawford announcement, the match result
    paused: bool
    match_line: str


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
    banner: str | None = None
    if match.winner is not None:
        how = {
            "time": " on time",
            "penalty": " on penalty points",
            "overrule": ": time ran out, but the match was already won",
        }.get(match.won_by or "", "")
        banner = f"{match.winner} wins the match{how}"
    elif match.crawford and not match.in_game:
        banner = "Next game: the Crawford game, no doubling"
    elif match.crawford:
        banner = "Crawford game: no doubling"
    cube = "cube out of play" if match.crawford else f"cube {match.cube}"
    if match.owner is not None and not match.crawford:
        cube += f" ({match.owner})"
    if match.post_crawford and not match.crawford and not match.over:
        cube = "post-Crawford · " + cube
    a, b = sides
    return ClockFace(
        sides=(a, b),
        banner=banner,
        paused=clock.paused is not None,
        match_line=f"match to {match.length} · {cube}",
    )
