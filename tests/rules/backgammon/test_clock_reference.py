"""`tableside clock replay` against an independent reference model of
shared/spec/clock-record.md, in exact fractions, over random records using every event.

Times are multiples of 1/64 s and the settings binary fractions, so the kiosk's floats
are exact and must equal the model's fractions exactly, flag times included; the JSON
output must then be the model's numbers rounded to the millisecond. An event the model
refuses must be refused by the replay, with its line number.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clocks.record import ClockRecordError, parse_clock_record
from kiosk.rules.backgammon.clocked import replay_clock

A, B = "Ann", "Bo"
CUBE = (1, 2, 4, 8, 16, 32, 64)


def allowance(n: int, best_of_three: bool) -> int:
    """Breaks each player may take (2.2 (ii))."""
    if n <= 5 or best_of_three:
        return 0
    return 1 if n <= 11 else 2 if n <= 17 else 3 if n <= 23 else 4


@dataclass
class Model:
    """The spec, read on its own: eager settling at every event."""

    length: int
    delay: F
    second_leg: F | None
    best_of_three: bool
    score: dict[str, int]
    post_crawford: bool
    bank: dict[str, F] = field(default_factory=dict)
    running: str | None = None
    paused: str | None = None
    delay_left: F = F(0)
    at: F = F(0)
    flagged: str | None = None
    winner: str | None = None
    won_by: str | None = None
    in_game: bool = False
    game_crawford: bool = False
    penalty: dict[str, int] = field(default_factory=lambda: {A: 0, B: 0})
    breaks: dict[str, int] = field(default_factory=lambda: {A: 0, B: 0})
    wait_next: set[str] = field(default_factory=set)
    waiting: str | None = None
    legs_used: set[str] = field(default_factory=set)
    games: int = 0

    @staticmethod
    def other(p: str) -> str:
        return B if p == A else A

    def due(self) -> int:
        return allowance(self.length, self.best_of_three)

    def crawford_next(self) -> bool:
        if self.winner or self.post_crawford:
            return False
        return any(self.length - self.score[p] == 1 for p in (A, B))

    def crawford_follows(self) -> None:
        """4.4 (iv): with nobody one point away no Crawford game has been played yet."""
        if all(self.length - self.score[p] > 1 for p in (A, B)):
            self.post_crawford = False

    def played(self) -> bool:
        """A game has been played or begun (a game scores a point beyond any penalty)."""
        if self.games or self.in_game:
            return True
        return any(self.score[p] > self.penalty[p] for p in (A, B))

    def to(self, t: F) -> None:
        """Run the clock to `t`: delay first, then bank; a leg or a flag at its exact time."""
        while self.running is not None:
            p = self.running
            end = self.at + self.delay_left + self.bank[p]
            if t < end:
                run = t - self.at
                used = min(run, self.delay_left)
                self.delay_left -= used
                self.bank[p] -= run - used
                self.at = t
                return
            self.at, self.delay_left, self.bank[p] = end, F(0), F(0)
            if self.second_leg is not None and p not in self.legs_used:
                self.legs_used.add(p)
                self.bank[p] = self.second_leg
                continue
            self.running, self.waiting, self.flagged = None, None, p
            if self.winner is None:
                self.winner, self.won_by = self.other(p), "time"
        self.at = t

    def turn(self, p: str, t: F) -> None:
        self.waiting = p if p in self.wait_next else None
        self.wait_next.discard(p)
        self.running, self.delay_left, self.at = p, self.delay, t

    def award(self, p: str, pts: int) -> None:
        self.penalty[p] += pts
        self.score[p] += pts
        if self.penalty[p] * 2 > self.length or self.score[p] >= self.length:
            self.winner = p
            self.won_by = "penalty" if self.penalty[p] * 2 > self.length else "points"
            self.in_game = False

    def apply(self, e: dict[str, Any], t: F) -> bool:
        """Apply `e` at `t`; False (and no change that matters) if the spec refuses it."""
        self.to(t)
        kind, p = e["event"], e.get("player")
        ok = getattr(self, "do_" + kind)(e, p, t)
        if ok and self.winner is not None:
            self.running = self.paused = self.waiting = None
            self.delay_left = F(0)
            self.wait_next.clear()
        return bool(ok)

    def do_start(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.winner or self.running:
            return False
        self.paused = None
        self.turn(p, t)
        if not self.in_game:
            self.in_game, self.game_crawford = True, self.crawford_next()
        return True

    def do_press(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.running == p:
            self.turn(self.other(p), t)
        return True

    def do_pause(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.running is None:
            return False
        self.paused, self.running = self.running, None
        return True

    def do_resume(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.paused is None:
            return False
        self.running, self.paused, self.at = self.paused, None, t
        return True

    def do_restart_delay(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.running is None and self.paused is None:
            return False
        self.delay_left = self.delay
        return True

    def do_early_pickup(self, e: dict[str, Any], p: str, t: F) -> bool:
        side = self.running or self.paused
        if side is None or side == p:
            return False
        self.wait_next.add(p)
        return True

    def do_adjust(self, e: dict[str, Any], p: str, t: F) -> bool:
        lifts = self.flagged == p and self.won_by == "time"
        if self.winner and not lifts:
            return False
        self.bank[p] = F(e["bank"])
        if self.flagged == p and self.bank[p] > 0:
            self.flagged = None
            if self.won_by == "time":
                self.winner = self.won_by = None
        return True

    def do_game_end(self, e: dict[str, Any], p: str, t: F) -> bool:
        pts = e["points"]
        cubes = (1,) if self.game_crawford else CUBE
        if not self.in_game or self.winner or pts not in {c * m for c in cubes for m in (1, 2, 3)}:
            return False
        self.running = self.paused = self.waiting = None
        self.delay_left = F(0)
        self.wait_next.clear()
        w = e["winner"]
        self.score[w] += pts
        self.games += 1
        if self.game_crawford:
            self.post_crawford = True
        self.in_game = self.game_crawford = False
        if self.score[w] >= self.length:
            self.winner, self.won_by = w, "points"
        else:
            self.crawford_follows()
        return True

    def do_overrule(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.flagged != p or self.won_by != "time" or self.winner != self.other(p):
            return False
        self.winner, self.won_by, self.in_game = p, "overrule", False
        return True

    def do_late(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.winner or self.in_game:
            return False
        pts = int(F(e["minutes"]) // 5)
        if pts:
            self.award(self.other(p), pts)
        return True

    def do_penalty(self, e: dict[str, Any], p: str, t: F) -> bool:
        if self.winner:
            return False
        self.award(p, e["points"])
        return True

    def do_break(self, e: dict[str, Any], p: str, t: F) -> bool:
        """Only between games, never before the first; an emergency at any time, using a
        break while one is left (2.2 (ii), (v)); the clock stops for it."""
        emergency = e.get("emergency", False)
        if self.winner:
            return False
        if not emergency and (self.in_game or not self.played()):
            return False
        if self.due() - self.breaks[p] > 0:
            self.breaks[p] += 1
        elif not emergency:
            return False
        if self.running is not None:
            self.paused, self.running = self.running, None
        return True

    def do_correct_score(self, e: dict[str, Any], p: str, t: F) -> bool:
        new = e["score"]
        if self.winner or any(new[q] < self.penalty[q] for q in (A, B)):
            return False
        if all(new[q] >= self.length for q in (A, B)):
            return False
        self.score = dict(new)
        self.crawford_follows()
        for q in (A, B):
            if self.score[q] >= self.length:
                self.winner, self.won_by, self.in_game = q, "points", False
        return True

    def do_match_length(self, e: dict[str, Any], p: str, t: F) -> bool:
        n = e["length"]
        if self.winner or self.in_game:
            return False
        if any(self.score[q] >= n or self.penalty[q] * 2 > n for q in (A, B)):
            return False
        self.length = n
        self.crawford_follows()
        return True

    def do_query(self, e: dict[str, Any], p: str, t: F) -> bool:
        return True

    def snapshot(self, t: F) -> dict[str, Any]:
        self.to(t)
        side = self.running or self.paused
        crawford = False
        if self.winner is None:
            crawford = self.game_crawford if self.in_game else self.crawford_next()
        wait = side if side is not None and side == self.waiting and self.delay_left > 0 else None
        return {
            "t": float(t),
            "running": self.running,
            "banks": {A: self.bank[A], B: self.bank[B]},
            "delay_left": self.delay_left if self.running else F(0),
            "score": dict(self.score),
            "crawford": crawford,
            "winner": self.winner,
            "flagged": self.flagged,
            "breaks_left": {p: max(0, self.due() - self.breaks[p]) for p in (A, B)},
            "must_wait": wait,
        }


PLAYER = st.sampled_from([A, B])
EVENT = st.one_of(
    st.builds(lambda p: {"event": "start", "player": p}, PLAYER),
    st.builds(lambda p: {"event": "press", "player": p}, PLAYER),
    st.builds(lambda p: {"event": "press", "player": p}, PLAYER),
    st.just({"event": "pause"}),
    st.just({"event": "resume"}),
    st.just({"event": "restart_delay"}),
    st.builds(lambda p: {"event": "early_pickup", "player": p}, PLAYER),
    st.builds(
        lambda p, b: {"event": "adjust", "player": p, "bank": b / 8},
        PLAYER,
        st.integers(0, 4000),
    ),
    st.builds(
        lambda p, c, m: {"event": "game_end", "winner": p, "points": c * m},
        PLAYER,
        st.sampled_from((1, 1, 2, 4, 3, 5)),
        st.sampled_from((1, 2, 3)),
    ),
    st.builds(lambda p: {"event": "overrule", "player": p}, PLAYER),
    st.builds(
        lambda p, m: {"event": "late", "player": p, "minutes": m / 4},
        PLAYER,
        st.integers(0, 50),
    ),
    st.builds(
        lambda p, n: {"event": "penalty", "player": p, "points": n}, PLAYER, st.integers(1, 2)
    ),
    st.builds(
        lambda p, em: {"event": "break", "player": p, "emergency": em}, PLAYER, st.booleans()
    ),
    st.builds(
        lambda a, b: {"event": "correct_score", "score": {A: a, B: b}},
        st.integers(0, 14),
        st.integers(0, 14),
    ),
    st.builds(
        lambda n: {"event": "match_length", "length": n},
        st.sampled_from((1, 3, 5, 7, 9, 11, 13, 25, 31)),
    ),
    st.just({"event": "query"}),
)
GAP = st.integers(0, 64 * 40)  # up to 40 s, in 1/64 s


@st.composite
def records(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    length = draw(st.sampled_from((1, 3, 5, 7, 9, 11, 13, 19, 23, 25)))
    a = draw(st.integers(0, length - 1))
    b = draw(st.integers(0, length - 1))
    header: dict[str, Any] = {
        "event": "clock",
        "players": [A, B],
        "match_length": length,
        "score": [a, b],
        "minutes_per_point": draw(st.sampled_from((0.0625, 0.125, 0.25, 0.5, 1, 2, 2.5))),
        "delay": draw(st.sampled_from((0, 2, 12, 18))),
    }
    if draw(st.booleans()) and length - max(a, b) == 1:
        header["post_crawford"] = True
    match_time = F(length * 2 - a - b, 2) * F(header["minutes_per_point"]) * 60
    if draw(st.booleans()):
        leg = draw(st.sampled_from((10, 30.5, 60)))
        if leg < match_time:  # the first leg is the match time less the second (3.5 (v))
            header["second_leg"] = leg
    if draw(st.integers(0, 4)) == 0:
        header["best_of_three"] = True
    if draw(st.integers(0, 3)) == 0:  # a clock introduced mid-match (2.2, 2.3, 3.5 (vi))
        series = header.get("best_of_three", False)
        due = allowance(length, series)
        header["breaks_taken"] = [draw(st.integers(0, due)), draw(st.integers(0, due))]
        header["penalty_points"] = [draw(st.integers(0, min(s, length // 2))) for s in (a, b)]
    events = draw(st.lists(st.tuples(GAP, EVENT), min_size=1, max_size=50))
    return header, events


def model_for(header: dict[str, Any]) -> Model:
    a, b = header["score"]
    leg = header.get("second_leg")
    m = Model(
        length=header["match_length"],
        delay=F(header["delay"]),
        second_leg=None if leg is None else F(leg),
        best_of_three=header.get("best_of_three", False),
        score={A: a, B: b},
        post_crawford=header.get("post_crawford", False),
    )
    taken = header.get("breaks_taken", [0, 0])
    m.breaks = {A: taken[0], B: taken[1]}
    pen = header.get("penalty_points", [0, 0])
    m.penalty = {A: pen[0], B: pen[1]}
    needs = header["match_length"] * 2 - a - b
    match_time = F(needs, 2) * F(header["minutes_per_point"]) * 60
    bank = match_time - (F(leg) if leg is not None else 0)  # two legs split the time
    m.bank = {A: bank, B: bank}
    return m


def text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def exact(snap: Any) -> dict[str, Any]:
    return {
        "t": snap.t,
        "running": snap.running,
        "banks": snap.banks,
        "delay_left": snap.delay_left,
        "score": snap.score,
        "crawford": snap.crawford,
        "winner": snap.winner,
        "flagged": snap.flagged,
        "breaks_left": snap.breaks_left,
        "must_wait": snap.must_wait,
    }


def rounded(want: dict[str, Any]) -> dict[str, Any]:
    out = dict(want)
    out["banks"] = {p: round(float(v), 3) for p, v in want["banks"].items()}
    out["delay_left"] = round(float(want["delay_left"]), 3)
    return out


@settings(max_examples=300, deadline=None)
@given(records())
def test_clock_replay_matches_the_reference_model_exactly(
    rec: tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]],
) -> None:
    header, drawn = rec
    model = model_for(header)
    lines: list[dict[str, Any]] = [header]
    wants: list[dict[str, Any]] = []
    refused: tuple[int, list[dict[str, Any]]] | None = None
    t = F(0)
    for gap, event in drawn:
        t += F(gap, 64)
        line = {"t": float(t), **event}
        trial = Model(**{k: _copy(v) for k, v in vars(model).items()})
        if not trial.apply(event, t):
            if refused is None:
                refused = (len(lines) + 1, [*lines, line])
            continue
        model = trial
        lines.append(line)
        if event["event"] != "query":
            lines.append({"t": float(t), "event": "query"})  # compare after every event
        wants.append(model.snapshot(t))
    snaps = replay_clock(parse_clock_record(text(lines)))
    got = [exact(s) for s in snaps[:-1]]
    assert got == wants  # floats equal to exact fractions: exact, not merely close
    assert [s.to_json() for s in snaps[:-1]] == [rounded(w) for w in wants]
    if refused is not None:
        number, bad = refused
        with pytest.raises(ClockRecordError) as err:
            replay_clock(parse_clock_record(text(bad)))
        assert err.value.line == number


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return dict(v)
    if isinstance(v, set):
        return set(v)
    return v
