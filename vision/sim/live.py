"""A live simulated board for `make run` and tests: the synthetic renderer with
coins that move and drop into pockets when told to.

`strike(t0, pocketed=[("white", 3)])` animates a stroke starting at `t0`: the
striker shoots up the board and comes back to its base line, and each named
coin (the one of that colour nearest the pocket) slides into its pocket and
vanishes. `frame(t)` renders the board at time `t` (seconds on the caller's
clock), so a simulated camera can be driven by the kiosk's monotonic clock and
the watcher sees StrokeStarted, CoinsAtRest and the StrokeDiff as it would
from a real camera.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy.typing as npt

from vision import board as B
from vision.sim.render import (
    Look,
    Piece,
    Scene,
    pocket_centres_image,
    render,
    start_arrangement,
)

Array = npt.NDArray[Any]

STRIKER_HOME = (B.SURFACE_MM / 2, B.SURFACE_MM - B.BASELINE_IN_MM - B.BASELINE_GAP_MM / 2)


@dataclass(frozen=True, slots=True)
class _Path:
    index: int
    start: tuple[float, float]
    end: tuple[float, float]
    vanish: bool
    via: tuple[float, float] | None = None


class SimulatedBoard:
    """A board whose pieces move on command; renders frames at any time."""

    def __init__(self, look: Look | None = None, pieces: Sequence[Piece] | None = None) -> None:
        self.look = look if look is not None else Look(lamp_falloff=0.15, noise=1.5, seed=1)
        if pieces is None:
            pieces = [*start_arrangement(), Piece("striker", *STRIKER_HOME, B.STRIKER_D_MM)]
        self.pieces: list[Piece] = list(pieces)
        self._paths: list[_Path] = []
        self._t0 = 0.0
        self._duration = 0.0
        self._cache: tuple[tuple[Piece, ...], Array] | None = None

    def empty_frame(self) -> Array:
        """The board with nothing on it (for calibration and the reference)."""
        return render(Scene((), self.look))

    def strike(
        self,
        t0: float,
        pocketed: Sequence[tuple[str, int]] = (),
        *,
        striker_pocket: int | None = None,
        duration: float = 0.8,
    ) -> None:
        """Animate a stroke from `t0`: `pocketed` lists (colour, pocket 1-4)."""
        self._settle()
        paths: list[_Path] = []
        used: set[int] = set()
        for colour, pocket in pocketed:
            if not 1 <= pocket <= 4:
                raise ValueError(f"pocket must be 1-4, got {pocket}")
            px, py = B.POCKETS_MM[pocket - 1]
            cands = [i for i, p in enumerate(self.pieces) if p.colour == colour and i not in used]
            if not cands:
                raise ValueError(f"no {colour} coin left on the board to pocket")
            i = min(
                cands, key=lambda k: math.hypot(self.pieces[k].x_mm - px, self.pieces[k].y_mm - py)
            )
            used.add(i)
            p = self.pieces[i]
            paths.append(_Path(i, (p.x_mm, p.y_mm), (px, py), True))
        for i, p in enumerate(self.pieces):
            if p.colour != "striker":
                continue
            if striker_pocket is not None:
                end = B.POCKETS_MM[striker_pocket - 1]
                paths.append(_Path(i, (p.x_mm, p.y_mm), end, True))
            else:
                # Up the board and back: it comes to rest where it started.
                paths.append(_Path(i, (p.x_mm, p.y_mm), (p.x_mm, p.y_mm), False, (p.x_mm, 220.0)))
        self._paths = paths
        self._t0 = t0
        self._duration = duration

    def moving(self, t: float) -> bool:
        return bool(self._paths) and self._t0 <= t < self._t0 + self._duration

    def pieces_at(self, t: float) -> list[Piece]:
        """Where the pieces are at time t."""
        if not self._paths or t < self._t0:
            return list(self.pieces)
        if t >= self._t0 + self._duration:
            self._settle()
            return list(self.pieces)
        f = (t - self._t0) / self._duration
        out = list(self.pieces)
        gone: set[int] = set()
        for path in self._paths:
            (x0, y0), (x1, y1) = path.start, path.end
            if path.via is not None:
                vx, vy = path.via
                g = 1 - abs(1 - 2 * f)  # out and back
                x, y = x0 + (vx - x0) * g, y0 + (vy - y0) * g
            else:
                x, y = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
            out[path.index] = replace(out[path.index], x_mm=x, y_mm=y)
            if path.vanish and math.hypot(x - x1, y - y1) < B.POCKET_D_MM / 2:
                gone.add(path.index)
        return [p for i, p in enumerate(out) if i not in gone]

    def _settle(self) -> None:
        if not self._paths:
            return
        gone = {p.index for p in self._paths if p.vanish}
        self.pieces = [p for i, p in enumerate(self.pieces) if i not in gone]
        self._paths = []

    def frame(self, t: float) -> Array:
        """The camera image at time t (static frames are rendered once)."""
        pieces = tuple(self.pieces_at(t))
        if self._cache is not None and self._cache[0] == pieces:
            return self._cache[1]
        img = render(Scene(pieces, self.look))
        self._cache = (pieces, img)
        return img

    def add(self, piece: Piece) -> None:
        """Put a piece on the board (a returned due, law 78)."""
        self._settle()
        self.pieces.append(piece)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(B.COLOURS, 0)
        for p in self.pieces:
            out[p.colour] += 1
        return out


_DEFAULT: SimulatedBoard | None = None


def default_board() -> SimulatedBoard:
    """The board the `synthetic` camera shows: the simulated kiosk strikes coins into
    pockets on it (`default_board().strike(time.monotonic(), [("white", 3)])`) and
    the watcher sees them vanish."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = SimulatedBoard()
    return _DEFAULT


def default_calibration() -> list[tuple[float, float]]:
    """The `synthetic` camera's calibration: where its board's pocket centres 1-4 are drawn
    in its image (exact: the renderer places them)."""
    return pocket_centres_image(default_board().look)
