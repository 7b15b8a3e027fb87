"""Standings over many games and tables (rule 19).

Teams are ordered by master points, then bonus points, then the highest total
they scored in one game (19.2); teams still equal share the place (ranked
"1, 2, 2, 4") and are listed in the order the session named them, so the
order is total and stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.rules.bhukhar.scoresheet import GameResult


@dataclass(frozen=True, slots=True)
class Standing:
    """A team's row: `best` is its highest game total (None before its first game)."""

    place: int
    team: str
    games: int
    master: int
    bonus: int
    best: int | None
    shared: bool

    def key(self) -> tuple[int, int, bool, int]:
        """Larger is better: master, bonus, then best (no game ranks below any total)."""
        return (self.master, self.bonus, self.best is not None, self.best or 0)


def standings(teams: Sequence[str], results: Iterable[GameResult]) -> tuple[Standing, ...]:
    """The standings of `teams` after `results` (rule 19); unknown teams raise KeyError."""
    games = dict.fromkeys(teams, 0)
    master = dict.fromkeys(teams, 0)
    bonus = dict.fromkeys(teams, 0)
    best: dict[str, int | None] = dict.fromkeys(teams, None)
    for result in results:
        for s in result.scores:
            if s.team not in games:
                raise KeyError(s.team)
            games[s.team] += 1
            master[s.team] += s.master
            bonus[s.team] += s.bonus
            prev = best[s.team]
            best[s.team] = s.total if prev is None else max(prev, s.total)
    rows = [Standing(0, t, games[t], master[t], bonus[t], best[t], False) for t in teams]
    ordered = sorted(rows, key=lambda r: r.key(), reverse=True)  # sorted() is stable
    out: list[Standing] = []
    i = 0
    while i < len(ordered):  # a run of equal keys shares the place of its first row
        j = i
        while j < len(ordered) and ordered[j].key() == ordered[i].key():
            j += 1
        for row in ordered[i:j]:
            out.append(
                Standing(i + 1, row.team, row.games, row.master, row.bonus, row.best, j - i > 1)
            )
        i = j
    return tuple(out)
