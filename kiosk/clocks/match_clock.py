"""The backgammon match clock with simple delay (tournament rules 3.5, 4.1 (v)-(vi), 4.3).

Pure: every method takes `now`, float seconds from one monotonic clock. Each
player has a bank; at the start of each turn the running side first spends its
delay, and only then its bank (3.5 (v): "Απλή Καθυστέρηση"); unused delay is
lost, never added to the bank. Everything is computed from the timestamps of
the presses, so a late or early look at the clock changes nothing.

The moment a running bank reaches 0 that player's flag falls (4.3 (iii)): the
clock stops and `advance` reports a `Flag` at the exact time it fell. Whether
the flag loses the match is for the match (kiosk/rules/backgammon) and the
director (who may rule that the flagged player had already won) to decide.
With a second leg (3.5 (v)) a bank's first exhaustion restarts it instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.clocks.countdown import ClockError
from kiosk.errors import N_

DEFAULT_MINUTES_PER_POINT = 2.0  # 3.5 (v): two minutes a match point
DEFAULT_DELAY_S = 12.0  # 3.5 (v): twelve seconds of delay a turn


def bank_for(needs: Iterable[int], minutes_per_point: float = DEFAULT_MINUTES_PER_POINT) -> float:
    """Each player's bank in seconds: ((points A needs + points B needs) / 2) x minutes a
    point (3.5 (vi)); 14 minutes for a fresh 7-point match, 10 minutes at 3-1."""
    total = 0
    for n in needs:
        if n < 1:
            raise ClockError(f"points needed must be at least 1, not {n}")
        total += n
    if not (math.isfinite(minutes_per_point) and minutes_per_point > 0):
        raise ClockError(f"minutes_per_point must be positive, not {minutes_per_point!r}")
    return total / 2 * minutes_per_point * 60.0


@dataclass(frozen=True, slots=True)
class Flag:
    """`player`'s bank reached 0 at `t` while the side ran (4.3 (iii))."""

    player: str
    t: float


class MatchClock:
    """Two banks and a delay; one side runs at a time, or none.

    start(player) runs a side with a fresh delay; press(player) ends that
    player's turn and starts the opponent's; pause/resume keep the delay left
    (4.3 (ii)); restart_delay gives the running side its turn's delay again
    (4.3 (v)); early_pickup makes a player wait out the delay of the next turn
    (4.1 (v) b); adjust sets a bank (4.3 (iv), (vi)). `second_leg`: seconds each
    bank restarts with, once, when it first runs out (3.5 (v)).
    """

    def __init__(
        self,
        players: tuple[str, str],
        banks: Mapping[str, float],
        delay: float = DEFAULT_DELAY_S,
        second_leg: float | None = None,
    ) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise ClockError(f"a match clock needs two different players, not {players!r}")
        if not (math.isfinite(delay) and delay >= 0):
            raise ClockError(f"delay must be a non-negative number of seconds, not {delay!r}")
        self.players = players
        self.delay = float(delay)
        if second_leg is not None and not (math.isfinite(second_leg) and second_leg > 0):
            raise ClockError(f"second_leg must be a positive number of seconds, not {second_leg!r}")
        self.second_leg = None if second_leg is None else float(second_leg)
        self._on_second_leg: set[str] = set()
        self._bank: dict[str, float] = {}
        for p in players:
            self._bank[p] = self._check_bank(p, banks[p])
        self._running: str | None = None  # the side counting down now
        self._paused: str | None = None  # the side that ran when the clock was paused
        self._delay_left = 0.0  # of the running or paused side, as of `_from`
        self._from = 0.0  # start of the running stretch
        self._last = -math.inf
        self._wait_next: set[str] = set()  # must wait out the next turn's delay (4.1 (v) b)
        self._waiting: str | None = None  # the side on the turn it must wait out
        self.flagged: str | None = None
        self._pending: list[Flag] = []
        # For accounting: bank seconds spent and delay seconds used, per player.
        self.spent: dict[str, float] = dict.fromkeys(players, 0.0)
        self.delay_used: dict[str, float] = dict.fromkeys(players, 0.0)

    # -- reading it --------------------------------------------------------------

    @property
    def running(self) -> str | None:
        """The player whose side runs, or None when the clock is stopped."""
        return self._running

    @property
    def paused(self) -> str | None:
        """The side that will go on at `resume`, or None."""
        return self._paused

    def bank(self, player: str, now: float) -> float:
        """`player`'s bank at `now` in seconds (never below 0)."""
        self._known(player)
        bank = self._bank[player]
        if player == self._running:
            over = (now - self._from) - self._delay_left
            if over > 0:
                bank = max(0.0, bank - over)
        return bank

    def delay_left(self, now: float) -> float:
        """The running side's delay left at `now` (the paused side's while paused; else 0)."""
        if self._running is not None:
            return max(0.0, self._delay_left - (now - self._from))
        if self._paused is not None:
            return self._delay_left
        return 0.0

    def must_wait_next(self, player: str) -> bool:
        """Whether `player` must wait out the delay of the next turn (4.1 (v) b)."""
        return player in self._wait_next

    def must_wait(self, now: float) -> str | None:
        """The side that must wait for its delay to run out before it plays (4.1 (v) b):
        the side on its turn after an early pickup, while that delay lasts."""
        side = self._running or self._paused
        if side is None or side != self._waiting or self.delay_left(now) <= 0:
            return None
        return side

    def on_second_leg(self, player: str) -> bool:
        """Whether `player`'s first leg has run out and the bank restarted (3.5 (v))."""
        return player in self._on_second_leg

    def next_deadline(self) -> float | None:
        """When the running bank reaches 0 (a flag, or the end of a first leg), or None."""
        if self._pending:
            return self._pending[0].t
        if self._running is None:
            return None
        return self._from + self._delay_left + self._bank[self._running]

    def advance(self, now: float) -> list[Flag]:
        """The flag that fell by `now`, if any (reported once, at its exact time)."""
        self._catch_up(now)
        out, self._pending = self._pending, []
        return out

    # -- the presses -------------------------------------------------------------

    def start(self, player: str, now: float) -> None:
        """Run `player`'s side with a fresh delay (a game begins, or a stopped clock starts)."""
        self._known(player)
        self._catch_up(now)
        if self._running is not None:
            raise ClockError.of(
                "start_while_running",
                N_("start while {player}'s side is running"),
                player=self._running,
            )
        self._paused = None
        self._begin_turn(player, now)

    def press(self, player: str, now: float) -> bool:
        """`player` ends the turn (4.1 (vi) b); a press by the side not running changes
        nothing. Returns whether the press switched the clock."""
        self._known(player)
        self._catch_up(now)
        if self._running != player:
            return False
        self._settle(now)
        self._begin_turn(self._other(player), now)
        return True

    def pause(self, now: float) -> None:
        """Stop the clock (4.3 (ii)); the running side keeps the delay it had left."""
        self._catch_up(now)
        if self._running is None:
            raise ClockError.of("pause_stopped", N_("pause while the clock is stopped"))
        self._settle(now)
        self._paused, self._running = self._running, None

    def resume(self, now: float) -> None:
        """Restart the paused side where it stopped."""
        self._catch_up(now)
        if self._paused is None:
            raise ClockError.of("resume_unpaused", N_("resume without a pause"))
        self._running, self._paused = self._paused, None
        self._from = now

    def restart_delay(self, now: float) -> None:
        """The running (or paused) side's delay starts again from the full delay
        (4.3 (v): an invalid roll must not cost the roller)."""
        self._catch_up(now)
        if self._running is None and self._paused is None:
            raise ClockError.of("restart_stopped", N_("restart_delay while no side is running"))
        self._settle(now)
        self._delay_left = self.delay

    def early_pickup(self, player: str, now: float) -> None:
        """`player` picked up the dice before the opponent finished (4.1 (v) b): on the next
        turn `player` must wait for the delay to run out before playing. No time changes:
        that turn runs as any other, the delay first, then the bank."""
        self._known(player)
        self._catch_up(now)
        side = self._running or self._paused
        if side is None:
            raise ClockError.of(
                "pickup_stopped",
                N_("early_pickup by {player} while no side is running"),
                player=player,
            )
        if side == player:
            raise ClockError.of(
                "pickup_own_side",
                N_("early_pickup by {player}, whose own side is running"),
                player=player,
            )
        self._wait_next.add(player)

    def adjust(self, player: str, bank: float, now: float) -> None:
        """The director sets `player`'s bank (4.3 (iv), (vi)). Time given back to a
        flagged player lifts the flag: it fell on a clock set wrongly."""
        self._known(player)
        bank = self._check_bank(player, bank)
        self._catch_up(now)
        if player == self._running:
            self._settle(now)
        self._bank[player] = bank
        if self.flagged == player and bank > 0:
            self.flagged = None

    def stop(self, now: float) -> None:
        """Stop both sides (the game is over, 4.3 (ii) a); the banks carry on."""
        self._catch_up(now)
        if self._running is not None:
            self._settle(now)
        self._running = self._paused = self._waiting = None
        self._delay_left = 0.0
        self._wait_next.clear()  # a new game begins with nobody's dice picked up

    def check_overrule(self, player: str, now: float) -> None:
        """The director may rule only on the player whose time ran out (4.3 (iii)); the
        clock stays stopped and the flag stays: the match, not the clock, names the winner."""
        self._known(player)
        self._catch_up(now)
        if self.flagged != player:
            raise ClockError.of(
                "overrule_in_time",
                N_("overrule for {player}, whose time has not run out"),
                player=player,
            )

    # -- inside ------------------------------------------------------------------

    def _known(self, player: str) -> None:
        if player not in self.players:
            raise ClockError.of(
                "unknown_player",
                N_("unknown player {player!r} (players: {players})"),
                player=player,
                players=", ".join(self.players),
            )

    def _other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    @staticmethod
    def _check_bank(player: str, bank: float) -> float:
        bank = float(bank)
        if not (math.isfinite(bank) and bank >= 0):
            raise ClockError(f"bank of {player} must be a non-negative number, not {bank!r}")
        return bank

    def _begin_turn(self, player: str, now: float) -> None:
        self._waiting = player if player in self._wait_next else None
        self._wait_next.discard(player)
        self._running = player
        self._delay_left = self.delay
        self._from = now

    def _settle(self, now: float) -> None:
        """Charge the running side for the time since `_from`: delay first, then bank."""
        player = self._running
        if player is None:
            return
        run = now - self._from
        used = min(run, self._delay_left)
        over = run - used
        spent = min(over, self._bank[player])
        self.delay_used[player] += used
        self.spent[player] += spent
        self._delay_left -= used
        self._bank[player] -= spent
        self._from = now

    def _catch_up(self, now: float) -> None:
        """Refuse time going backwards; let a flag that fell by `now` fall."""
        if not math.isfinite(now):
            raise ClockError(f"time must be a finite number, not {now!r}")
        if now < self._last:
            raise ClockError(f"time went backwards from {self._last} to {now}")
        self._last = now
        while not self._pending and self._running is not None:
            deadline = self.next_deadline()
            if deadline is None or now < deadline:
                return
            player = self._running
            self._settle(deadline)
            self.spent[player] += self._bank[player]  # float dust: the bank is exactly spent
            self._bank[player] = 0.0
            if self.second_leg is not None and player not in self._on_second_leg:
                # 3.5 (v): the first leg is over; the clock restarts on the second.
                self._on_second_leg.add(player)
                self._bank[player] = self.second_leg
                continue
            self._running = None
            self._delay_left = 0.0
            self._waiting = None
            self.flagged = player
            self._pending.append(Flag(player, deadline))
