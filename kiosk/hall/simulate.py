"""Simulated tables for the hall: real engines (no Kivy) on real journals, publishing.

Each `SimTable` is one kiosk: a carrom session, a backgammon clock or a Bhukhar table on its
own data folder, with its own `HallPublisher`. `step()` does one thing an umpire or a player
would (a stroke confirmed, a clock pressed, a game entered); strokes the rules refuse are
replaced by a miss, and a finished match is followed by a new one. Used by the tests and by
bench/bench_hall.py; `python -m kiosk.hall.simulate` runs a group of tables as one process
(the bench kills such a process to kill its kiosks).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.access.authority import Role
from kiosk.config.hall import HallSettings
from kiosk.engine.journal import Journal
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.views import bhukhar_tile, carrom_tile, clock_tile
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.rules.bhukhar.record import SessionError, SessionStart, Team
from kiosk.rules.bhukhar.scoresheet import End, Game, TotalsSheet
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import Command, Commands

GAMES = ("carrom", "backgammon", "bhukhar")


def send(table: Commands, action: str, role: Role, /, **args: object) -> None:
    """A command sent as a console sends it: made from the table's current view, carrying the
    role of whoever plays that part (the umpire, a backgammon player), checked by the table."""
    table.send(Command.of(action, role, view=table.version, **args))


#: Each kind's tile, by the simulated table's game.
TILES: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "carrom": carrom_tile,
    "backgammon": clock_tile,
    "bhukhar": bhukhar_tile,
}


class SimTable:
    def __init__(self, game: str, data: Path, hall: HallSettings, *, seed: int = 0) -> None:
        self.game = game
        self.data = Path(data)
        self.data.mkdir(parents=True, exist_ok=True)
        self.rng = random.Random(seed)
        # One simulated table of one kind: its publisher makes that kind's tiles.
        self.publisher = HallPublisher(hall, self.data, tile_of=TILES[game]).start()
        self.confirmed = 0
        self.carrom: CarromTable | None = None
        self.clock: BackgammonTable | None = None
        self.bhukhar: BhukharTable | None = None
        if game == "carrom":
            self.carrom = CarromTable(Journal(self.data / "journal.db"), outputs=[self.publisher])
            if self.carrom.resume() is None:
                self._new_carrom()
        elif game == "backgammon":
            self.clock = BackgammonTable(
                Journal(self.data / "journal.db"), outputs=[self.publisher]
            )
            if self.clock.resume() is None:
                self._new_clock()
        elif game == "bhukhar":
            journal = Journal(self.data / "journal.db")
            t = hall.table_id
            self.bhukhar = BhukharTable.open(journal, outputs=[self.publisher])
            if self.bhukhar is None:
                players = ("1", "2", "3")
                teams = tuple(
                    Team(f"{t}-{x}", tuple(x + p for p in players), f"{t} {x}") for x in "ABCD"
                )
                start = SessionStart(teams, tables=(1, 2), name=f"{t} session")
                self.bhukhar = BhukharTable.create(journal, start, outputs=[self.publisher])
            self.bhukhar.poll()  # its first view to the publisher (each entry then sends its own)
        else:
            raise ValueError(f"no such game: {game}")

    # -- one action ------------------------------------------------------------------

    def step(self) -> None:
        if self.carrom is not None:
            self._carrom_step(self.carrom)
        elif self.clock is not None:
            self._clock_step(self.clock)
        elif self.bhukhar is not None:
            self._bhukhar_step(self.bhukhar)
        self.confirmed += 1

    def _new_carrom(self) -> None:
        assert self.carrom is not None
        start = MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=2)
        self.carrom.start_match(start, role=Role.DIRECTOR)  # over an unfinished one: closes it

    def _carrom_step(self, s: CarromTable) -> None:
        if s.match is None or s.match.state.winner is not None:
            self._new_carrom()
            return
        if s.match.state.toss_due:
            send(s, "toss", Role.UMPIRE, winner=self.rng.choice(s.match.state.sides))
            return
        now = s.match.state.now
        pocketed: list[str] = []
        if now is not None and self.rng.random() < 0.6:
            own = now.colours[now.turn_side]
            left = int(now.on_board.get(own, 0))
            pocketed = [own] * min(left, self.rng.choice((1, 1, 2, 3)))
        try:
            send(s, "confirm", Role.UMPIRE, proposal=s.proposal.edited(pocketed=pocketed))
        except IllegalEvent:
            try:
                send(s, "confirm", Role.UMPIRE, proposal=s.proposal.edited(pocketed=[]))
            except IllegalEvent:
                self._new_carrom()  # a state this simple player cannot go on from

    def _new_clock(self) -> None:
        assert self.clock is not None
        players = ("Nikos", "Eleni")  # over an unfinished (flagged) match: the director closes it
        self.clock.start_match(players, 3, minutes_per_point=2, delay=12, role=Role.DIRECTOR)
        send(self.clock, "start", Role.PLAYER, player="Nikos")

    def _clock_step(self, t: BackgammonTable) -> None:
        view = t.view()
        if view.winner is not None or view.flagged is not None:
            self._new_clock()
            return
        try:
            if view.running is None:
                send(t, "start", Role.PLAYER, player=view.players[0])
            elif self.rng.random() < 0.05:
                send(t, "game_end", Role.PLAYER, winner=view.running, points=1)
            else:
                send(t, "press", Role.PLAYER, player=view.running)
        except IllegalAction:
            self._new_clock()

    def _bhukhar_step(self, b: BhukharTable) -> None:
        teams = [team.id for team in b.session.start.teams]
        played = {(e.round, e.table) for e, _ in b.games()}
        if b.round == 0 or all((b.round, n) in played for n in (1, 2)):
            send(b, "start_round", Role.UMPIRE)
        else:
            n = 1 if (b.round, 1) not in played else 2
            order = teams[b.round % 4 :] + teams[: b.round % 4]
            a, c = (order[0], order[1]) if n == 1 else (order[2], order[3])
            win, lose = (a, c) if self.rng.random() < 0.5 else (c, a)
            game = Game(
                {win: TotalsSheet(True, 330, 5, None), lose: TotalsSheet(False, 0, 25)},
                End.OUT,
                bhukhar=win,
                closed_by=win,
            )
            try:
                b.enter_game(n, game)
            except SessionError:
                send(b, "start_round", Role.UMPIRE)

    def close(self) -> None:
        self.publisher.stop()
        for table in (self.carrom, self.clock, self.bhukhar):
            if table is not None:
                table.journal.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kiosk.hall.simulate")
    p.add_argument("--broker", required=True)
    p.add_argument("--hall", default="hall")
    p.add_argument("--data", required=True, help="one folder per table is made in it")
    p.add_argument("--tables", required=True, help="table:game,... e.g. t01:carrom,t02:bhukhar")
    p.add_argument("--password", default="", help="every table's password (test brokers)")
    p.add_argument("--every", default="2,10", help="seconds between actions: MIN,MAX")
    p.add_argument("--keepalive", type=float, default=5)
    p.add_argument("--heartbeat", type=float, default=2.0, help="the state's heartbeat (s)")
    p.add_argument("--steps", type=int, default=0, help="stop after this many per table (0: run)")
    args = p.parse_args(argv)
    lo, hi = (float(x) for x in args.every.split(","))
    tables: list[tuple[SimTable, list[float]]] = []
    for n, item in enumerate(args.tables.split(",")):
        name, game = item.split(":")
        settings = HallSettings(
            broker=args.broker, hall=args.hall, table_id=name, username=name,
            password=args.password, keepalive_s=args.keepalive, heartbeat_s=args.heartbeat,
        )  # fmt: skip
        sim = SimTable(game, Path(args.data) / name, settings, seed=n)
        tables.append((sim, [time.monotonic() + sim.rng.uniform(0, hi)]))
    # SIGINT and SIGTERM stop the loop between two steps: an interrupt raised inside a step
    # (in a journal write, in the publisher's lock) once left the close waiting forever.
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print("ready", flush=True)
    done: dict[int, int] = {}
    try:
        while not stop.is_set():
            now = time.monotonic()
            for i, (sim, due) in enumerate(tables):
                if now >= due[0] and (not args.steps or done.get(i, 0) < args.steps):
                    sim.step()
                    done[i] = done.get(i, 0) + 1
                    due[0] = now + sim.rng.uniform(lo, hi)
            if args.steps and all(done.get(i, 0) >= args.steps for i in range(len(tables))):
                break
            stop.wait(0.01)
    finally:
        for sim, _ in tables:
            sim.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
