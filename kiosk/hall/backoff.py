"""The director's login back-off on the hall's board: per source address and for the whole
hall, kept in `<data>/login-backoff.json` so that a restart of the hall does not end it.

After `FREE_TRIES` wrong passwords from one address (`GLOBAL_FREE_TRIES` from all of them
together) each further try waits: 1 s, doubling up to `LONGEST_WAIT_S`. The right password
ends both. The server asks `wait_s` and, when it is 0, compares the password and says
`failed` or `succeeded` in the same step, with nothing awaited between (kiosk/hall/server.py):
a burst of logins whose bodies arrive together gets one comparison, the rest wait.

The file fails closed: missing in a hall folder already in use (the hall record was there
before), unreadable, not the JSON written here, or holding a time past the longest wait (or
not a number at all, as `1e400`), every login waits the longest back-off from the start, and
the log says why. A hall folder used for the first time starts without a back-off.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.atomic import write_atomic

log = logging.getLogger("kiosk.hall")

FILE = "login-backoff.json"
#: Wrong passwords from one address before its back-off starts.
FREE_TRIES = 5
#: Wrong passwords from every address together before the whole hall's back-off starts.
GLOBAL_FREE_TRIES = 20
#: The longest wait after a wrong password.
LONGEST_WAIT_S = 300.0
#: At most this many addresses are remembered (the oldest back-offs forgotten first; the
#: global count still holds whoever spreads guesses over more).
MAX_SOURCES = 4096
#: A time this far past the longest wait (the wall clock set back, or a forged file) is absurd.
SLACK_S = 60.0
_MOST_WRONG = 1_000_000


def wait_after(wrong: int, free: int) -> float:
    """The wait after `wrong` wrong passwords in a row when `free` are let go."""
    return 0.0 if wrong < free else min(LONGEST_WAIT_S, 2.0 ** min(wrong - free, 64))


class Absurd(ValueError):
    """The file holds something this module never writes."""


class LoginBackoff:
    def __init__(self, path: Path, *, wall: Callable[[], float], fresh: bool) -> None:
        """`fresh`: the hall's folder is used for the first time (no record was there), so
        a missing file is no sign of tampering."""
        self.path = path
        self.wall = wall
        #: Per address, and for all: [wrong passwords in a row, the wall time the wait ends].
        self.sources: dict[str, list[float]] = {}
        self.all: list[float] = [0, 0.0]
        #: Why the back-off was closed at the start (None: the file was read as written).
        self.closed: str | None = None
        self._load(fresh)

    # -- the file ----------------------------------------------------------------------

    def _load(self, fresh: bool) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            if fresh:
                self._save()
                return
            self._close("missing, in a hall folder already in use")
            return
        except OSError as exc:
            self._close(f"unreadable ({exc.strerror or exc})")
            return
        try:
            self._read(raw)
        except (Absurd, ValueError) as exc:
            self.sources, self.all = {}, [0, 0.0]
            self._close(f"not a back-off this hall wrote ({exc})")

    def _read(self, raw: bytes) -> None:
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict) or data.get("version") != 1:
            raise Absurd("no version 1")
        limit = self.wall() + LONGEST_WAIT_S + SLACK_S
        self.all = _entry(data.get("all"), limit, "all")
        sources = data.get("sources")
        if not isinstance(sources, dict) or len(sources) > MAX_SOURCES:
            raise Absurd(f"sources must be an object of at most {MAX_SOURCES}")
        self.sources = {str(k): _entry(v, limit, f"source {k[:40]!r}") for k, v in sources.items()}

    def _close(self, why: str) -> None:
        """Fail closed: every login waits the longest back-off from now."""
        now = self.wall()
        self.closed = why
        self.all = [max(self.all[0], GLOBAL_FREE_TRIES + 9), now + LONGEST_WAIT_S]
        log.error(
            "%s: %s: every director's login waits the longest back-off, %d s, from now",
            self.path, why, int(LONGEST_WAIT_S),
        )  # fmt: skip
        self._save()

    def _save(self) -> None:
        data = {
            "version": 1,
            "all": {"wrong": int(self.all[0]), "until": self.all[1]},
            "sources": {k: {"wrong": int(w), "until": u} for k, (w, u) in self.sources.items()},
        }
        try:
            write_atomic(self.path, json.dumps(data, sort_keys=True) + "\n")
        except OSError as exc:  # kept in memory all the same; said, so it is seen
            log.error("%s: the login back-off could not be saved: %s", self.path, exc)

    # -- the decisions -------------------------------------------------------------------

    def wait_s(self, source: str) -> float:
        """Seconds before `source` may try a password (0: now)."""
        now = self.wall()
        ends = max(self.all[1], self.sources.get(source, [0, 0.0])[1])
        return max(0.0, ends - now)

    def failed(self, source: str) -> None:
        now = self.wall()
        entry = self.sources.pop(source, [0, 0.0])  # put back last: the newest
        entry[0] = min(entry[0] + 1, _MOST_WRONG)
        entry[1] = now + wait_after(int(entry[0]), FREE_TRIES)
        self.sources[source] = entry
        while len(self.sources) > MAX_SOURCES:
            del self.sources[next(iter(self.sources))]
        self.all[0] = min(self.all[0] + 1, _MOST_WRONG)
        self.all[1] = max(self.all[1], now + wait_after(int(self.all[0]), GLOBAL_FREE_TRIES))
        self._save()

    def succeeded(self, source: str) -> None:
        self.sources.pop(source, None)
        self.all = [0, 0.0]
        self.closed = None
        self._save()


def _entry(value: Any, limit: float, what: str) -> list[float]:
    if not isinstance(value, dict):
        raise Absurd(f"{what} must be an object")
    wrong, until = value.get("wrong"), value.get("until")
    if isinstance(wrong, bool) or not isinstance(wrong, int) or not 0 <= wrong <= _MOST_WRONG:
        raise Absurd(f"{what}: wrong must be a whole number from 0")
    if isinstance(until, bool) or not isinstance(until, int | float) or not math.isfinite(until):
        raise Absurd(f"{what}: until must be a time")
    if until > limit:
        raise Absurd(f"{what}: a wait that ends past the longest back-off")
    return [wrong, float(until)]
