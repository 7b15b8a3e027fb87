"""Benchmark: a simulated carrom match killed with SIGKILL at random moments and restarted.

A child process plays a scripted match on a real journal (SQLite, WAL, synchronous=FULL):
for each stroke it posts the beam hits, lets the session fuse them, and confirms the stroke
as the umpire would (with fouls, tosses and undos among the actions); after each confirmed
action's commit returns it prints the action's index. The parent kills it (SIGKILL) after a
random delay, then starts a fresh process on the same journal, which resumes the match and
says so ("ready" with the state), and goes on playing. Each restart is checked:

- confirmed events lost: actions the killed child had printed as committed that the
  resumed journal does not hold (goal 0);
- state identical after restart: the resumed MatchState equals the state rebuilt from the
  script's own actions up to what the journal holds (goal: every restart);
- restart to ready: from starting the process to the resumed session ready, interpreter start
  and imports included (goal at most 2 s).

    .venv/bin/python bench/bench_recovery.py [--kills N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.access.authority import Role

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.rules.carrom.errors import IllegalEvent  # noqa: E402
from kiosk.rules.carrom.events import (  # noqa: E402
    Event,
    Foul,
    MatchStart,
    Stroke,
    Toss,
)
from kiosk.rules.carrom.match import Match  # noqa: E402

PLAYERS = ("Asha", "Bina")
Action = Event | None  # None: undo the last confirmed event


def match_start(number: int) -> MatchStart:
    first = PLAYERS[number % 2]
    return MatchStart("icf", PLAYERS, first, board_limit=8)


def script(seed: int, number: int, limit: int = 2000) -> list[Action]:
    """The actions of match `number`: random legal strokes (and fouls, tosses, undos) until
    the match ends. Deterministic from (seed, number), so parent and child agree."""
    rng = random.Random(seed * 1_000_003 + number)
    match = Match(match_start(number))
    actions: list[Action] = []
    while match.state.winner is None and len(actions) < limit:
        state = match.state
        if match.events and rng.random() < 0.03:
            match.pop()
            actions.append(None)
            continue
        if state.toss_due:
            event: Event = Toss(winner=rng.choice(PLAYERS))
        else:
            event = _random_event(rng, match)
        try:
            match.push(event)
        except IllegalEvent:
            event = Stroke()
            match.push(event)
        actions.append(event)
    return actions


def _random_event(rng: random.Random, match: Match) -> Event:
    now = match.state.now
    assert now is not None
    roll = rng.random()
    if roll < 0.03:
        return Foul()
    own = now.colours[now.turn_side]
    other = "black" if own == "white" else "white"
    coins: list[str] = []
    for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 3))):
        colour = own if rng.random() < 0.75 else other
        if rng.random() < 0.08:
            colour = "queen"
        coins.append(colour)
    return Stroke(pocketed=tuple(coins), striker=rng.random() < 0.05)  # type: ignore[arg-type]


def expected_state(seed: int, number: int, done: int) -> Any:
    """The state after the first `done` actions of match `number`, as JSON-ready data."""
    match = Match(match_start(number))
    for action in script(seed, number)[:done]:
        if action is None:
            match.pop()
        else:
            match.push(action)
    return _plain(match.state)


def _plain(state: object) -> Any:
    """The state as JSON data, without the boards' `ended` times: the kiosk stamps each event
    with its match time, the script's events carry none (the protest limit, law 146, is the
    only reader of those times)."""
    plain = json.loads(json.dumps(dataclasses.asdict(state), default=str))  # type: ignore[call-overload]
    for game in plain.get("games", []):
        for board in game.get("boards", []):
            board.pop("ended", None)
    return plain


# -- the child: resume, report, play on ------------------------------------------------


def child(journal_path: str, seed: int) -> int:
    from drivers.hits import BeamHit
    from kiosk.engine.journal import EVENT, UNDO, Journal
    from kiosk.tables.carrom_record import KIND
    from kiosk.tables.carrom_table import CarromTable

    journal = Journal(journal_path)
    session = CarromTable(journal)
    session.resume()
    rows = journal.matches(KIND)
    number = max(0, len(rows) - 1)
    done = 0 if not rows else len(journal.entries(rows[-1].id, (EVENT, UNDO)))
    total = sum(len(journal.entries(r.id, (EVENT, UNDO))) for r in rows)
    state = None
    if session.match is not None:
        state = _plain(session.match.state)
    elif rows:
        # The last match ended (and was closed): rebuild it from the journal to check it.
        from kiosk.rules.carrom.events import event_from_dict

        ended = Match(event_from_dict(rows[-1].header))  # type: ignore[arg-type]
        for data in journal.confirmed(rows[-1].id):
            ended.push(event_from_dict(data))  # type: ignore[arg-type]
        state = _plain(ended.state)
    # The state the script's own actions give, computed here so that both sides of the
    # comparison run the same code (the core may be edited while a long run goes on).
    want = expected_state(seed, number, done) if rows else None
    report = {"match": number, "done": done, "total": total, "state": state, "want": want}
    print("ready " + json.dumps(report), flush=True)
    while True:
        if session.match is None or session.match.state.winner is not None:
            if rows:
                number += 1  # the next match (the first when the journal was empty)
            session.start_match(match_start(number), role=Role.UMPIRE)
            rows = journal.matches(KIND)
            done = 0
        actions = script(seed, number)
        for action in actions[done:]:
            if action is None:
                session.undo(role=Role.DIRECTOR)
            elif isinstance(action, Stroke):
                coins = [*action.pocketed] + (["striker"] if action.striker else [])
                for n, _ in enumerate(coins):
                    session.post(BeamHit(1 + (n % 4), time.monotonic(), 0.012))
                session.poll()
                session.confirm(
                    session.proposal.edited(pocketed=action.pocketed, striker=action.striker),
                    role=Role.UMPIRE,
                )
            elif isinstance(action, Foul):
                session.foul(action.by, role=Role.UMPIRE)
            elif isinstance(action, Toss):
                session.toss(action.winner, role=Role.UMPIRE)
            done += 1
            total += 1
            print(f"done {total}", flush=True)


# -- the parent: kill, restart, compare ---------------------------------------------------


def run(kills: int, seed: int, workdir: Path) -> dict[str, Any]:
    journal = workdir / "journal.db"
    rng = random.Random(seed)
    lost = 0
    identical = 0
    ready_s: list[float] = []
    printed_total = 0
    problems: list[str] = []
    actions_played = 0
    matches = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for kill in range(kills + 1):
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(journal), "--seed", str(seed)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        ready_s.append(time.perf_counter() - started)
        if not line.startswith("ready "):
            proc.kill()
            err = proc.stderr.read() if proc.stderr else ""
            raise SystemExit(f"restart {kill}: the child did not resume: {line!r} {err}")
        report = json.loads(line[len("ready ") :])
        matches = max(matches, report["match"] + 1 if report["total"] else 0)
        if kill > 0:
            # Lost: committed (printed) actions the journal does not hold.
            missing = printed_total - report["total"]
            if missing > 0:
                lost += missing
                problems.append(f"restart {kill}: {missing} confirmed action(s) lost")
            if report["total"] > printed_total + 1:
                problems.append(f"restart {kill}: journal holds more than was played")
            # An action written but killed before its "done" line was played all the same.
            printed_total = max(printed_total, report["total"])
            want = report["want"]
            if report["state"] == want and want is not None:
                identical += 1
            else:
                got = report["state"] or {}
                keys = sorted(k for k in want if got.get(k) != want[k])
                where = f"match {report['match']}, action {report['done']}"
                problems.append(f"restart {kill}: state differs after resume ({where}: {keys})")
        if kill == kills:
            proc.kill()
            proc.wait()
            break
        delay = rng.uniform(0.02, 0.4)
        # A thread reads what the child reports while the parent waits for the moment to kill.
        lines: list[str] = []
        reader = threading.Thread(target=lines.extend, args=(proc.stdout,), daemon=True)
        reader.start()
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        reader.join(timeout=10)
        for out in lines:
            if out.startswith("done "):
                printed_total = max(printed_total, int(out.split()[1]))
                actions_played += 1
        if proc.returncode != -signal.SIGKILL:
            err = proc.stderr.read() if proc.stderr else ""
            raise SystemExit(f"run {kill}: the child ended by itself ({proc.returncode}): {err}")
    ready_sorted = sorted(ready_s)
    return {
        "kills": kills,
        "actions_confirmed": printed_total,
        "matches": matches,
        "lost": lost,
        "identical": identical,
        "restart_ready_s": {
            "p50": statistics.median(ready_sorted),
            "p95": ready_sorted[min(len(ready_sorted) - 1, int(0.95 * len(ready_sorted)))],
            "max": ready_sorted[-1],
        },
        "problems": problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", metavar="JOURNAL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.seed)
    with tempfile.TemporaryDirectory(prefix="tableside-recovery-") as tmp:
        started = time.perf_counter()
        result = run(args.kills, args.seed, Path(tmp))
        result["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result))
    else:
        r = result["restart_ready_s"]
        print(f"recovery: {args.kills} SIGKILLs at random moments, seed {args.seed}")
        print("  (figures taken on a 2-core machine shared with other work)")
        print(
            f"  confirmed actions played:          {result['actions_confirmed']}"
            f" (in {result['matches']} matches)"
        )
        print(f"  confirmed events lost:             {result['lost']}  (goal 0)")
        print(
            f"  state identical after restart:     {result['identical']} of {args.kills}"
            f"  (goal {args.kills} of {args.kills})"
        )
        print(
            f"  restart to ready (s):              p50 {r['p50']:.3f}  p95 {r['p95']:.3f}"
            f"  max {r['max']:.3f}  (goal max <= 2 s)"
        )
        print(f"  wall time:                         {result['seconds']} s")
        for problem in result["problems"][:20]:
            print("  problem:", problem)
    ok = not result["problems"] and result["restart_ready_s"]["max"] <= 2.0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
