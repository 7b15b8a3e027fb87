"""Benchmark: the director's decision on a protest from the hall to the kiosk's journal.

A real Mosquitto (its ACL and passwords), the hall's listener in this process, a kiosk's
hall publisher and carrom table on a journal on disk. Each round: a board is played, the
other side protests it, the director decides from the hall (`HallListener.decide`, what the
board's /decide calls) and the table, polled every `--poll-ms` as the kiosk's runner polls
it, journals the decision as the director's. Timed: from `decide()` to the decision being in
the journal (the broker's round trip, the kiosk's check, the poll, the synced write), and
from the kiosk's journal to the hall's tile showing it decided (the state going back). Three
rounds in four uphold (the board is played again, 151 a), the fourth rejects (151 b).

Run: `.venv/bin/python bench/bench_protest.py [--rounds 30] [--poll-ms 10]`.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.config.hall import HallSettings
from kiosk.engine.journal import Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

HALL = "bench"
USERS = {"director": "dir-pw", "t01": "pw-t01"}


def _wait(check: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit("bench_protest: timed out")
        time.sleep(0.001)


def _tile_protests(record: HallRecord) -> list[dict[str, object]]:
    """The protests the hall's tile of t01 shows now."""
    for t in record.tables():
        if t["table"] == "t01" and t["state"] is not None:
            return list(t["state"]["tile"].get("protests") or [])
    return []


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--poll-ms", type=float, default=10.0)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        Mosquitto(Path(folder) / "broker", users=USERS, hall=HALL) as broker,
    ):
        data = Path(folder) / "kiosk"
        settings = HallSettings(
            broker=broker.address, hall=HALL, table_id="t01", username="t01",
            password=USERS["t01"], keepalive_s=5.0, heartbeat_s=2.0,
        )  # fmt: skip
        pub = HallPublisher(settings, data, tile_of=tile_of)
        clock = ManualClock(1000.0)
        s = CarromTable(Journal(data / "journal.db"), clock=clock, outputs=[pub], beams=())
        pub.on_command = s.post
        pub.start()
        record = HallRecord(Path(folder) / "hall.db")
        listener = HallListener(record, ("127.0.0.1", broker.port), hall=HALL,
                                username="director", password=USERS["director"])  # fmt: skip
        listener.start()
        to_journal: list[float] = []
        to_tile: list[float] = []
        try:
            _wait(lambda: pub.online and listener.connected)
            s.start_match(
                MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE
            )
            for n in range(args.rounds):
                state = s.view().state
                assert state is not None and state.now is not None
                game, board, turn = state.now.game, state.now.board, state.now.turn_colour
                for coins in ([turn, "queen"], [turn] * 8):  # the player at turn clears it
                    s.confirm(s.proposal.edited(pocketed=coins), role=Role.UMPIRE)
                if s.view().state.now is None:  # type: ignore[union-attr]
                    break  # the match is won: enough rounds for it
                clock.advance(30)
                s.protest("Bina", (game, board), "bench", f"R-{n}", role=Role.UMPIRE)
                # The hall has heard of it: the tile shows it waiting.
                _wait(lambda lodged=n + 1: len(_tile_protests(record)) == lodged)
                upheld = n % 4 != 3  # three upheld (the board again), then one rejected
                began = time.perf_counter()
                listener.decide(HALL, "t01", str(s.match_id), (game, board), upheld)

                def journaled() -> bool:
                    s.poll()
                    st = s.view().state
                    return st is not None and st.protests[-1].decision is not None

                while not journaled():
                    time.sleep(args.poll_ms / 1000)
                done = time.perf_counter()
                to_journal.append((done - began) * 1000)

                _wait(lambda: _tile_protests(record)[-1]["decision"] is not None)
                to_tile.append((time.perf_counter() - done) * 1000)
        finally:
            listener.stop()
            pub.stop()
            s.journal.close()
    for name, values in (("decide() to the kiosk's journal", to_journal),
                         ("the kiosk's journal to the hall's tile", to_tile)):  # fmt: skip
        print(
            f"{name}: {len(values)} decisions, median {statistics.median(values):.1f} ms, "
            f"p95 {_percentile(values, 95):.1f} ms, max {max(values):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
