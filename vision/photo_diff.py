"""What left the board between two photos of it, as the kiosk computes it: what
`tableside vision diff BEFORE AFTER --pockets ... [--empty EMPTY]` runs.

The kiosk's own path (`BoardWatcher.diff_at_rest`): the empty board kept when a photo
of it is given (else learned from BEFORE, as the kiosk learns it from its first frame),
BEFORE counted, the set in use taught by the pieces BEFORE is sure of, AFTER counted
with that set, and the diff (vision.diff). One camera takes all three photos, so one
set of pockets serves them (`after_pockets` when the camera moved between the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision import board as B
from vision.calibration import Calibration, CalibrationError
from vision.diff import StrokeDiff
from vision.empty import EmptyBoard
from vision.photo import PhotoError, PhotoResult, checked, load_image, top_view
from vision.view import Array, BoardView
from vision.watcher import BoardWatcher

Pockets = Sequence[tuple[float, float]]


@dataclass(frozen=True, slots=True, eq=False)
class PhotoDiff:
    """The two views and the diff between them."""

    before: PhotoResult
    after: PhotoResult
    diff: StrokeDiff
    #: Whether the empty board was kept (a photo of it given).
    empty_kept: bool

    def left(self) -> dict[str, int]:
        """How many of each class left the board (the striker 1 when it did)."""
        out = {c: sum(1 for g in self.diff.gone if g.colour == c) for c in B.COLOURS}
        out["striker"] = int(self.diff.striker_gone)
        return out

    def to_json(self) -> dict[str, Any]:
        """The shape `tableside vision diff --json` prints (docs/vision.md)."""
        out: dict[str, Any] = {"left": self.left()}
        out["gone"] = [
            {
                "class": g.colour,
                "x_mm": round(g.x_mm, 1),
                "y_mm": round(g.y_mm, 1),
                "pocket": g.pocket,
            }
            for g in self.diff.gone
        ]
        out["off_board"] = list(self.diff.off_board)
        out["unseen"] = list(self.diff.unseen)
        out["unsure_classes"] = list(self.diff.unsure)
        before, after = self.before.to_json(), self.after.to_json()
        out["unsure"] = [dict(d, photo="before") for d in before["unsure"]] + [
            dict(d, photo="after") for d in after["unsure"]
        ]
        out["before"] = {c: before[c] for c in B.COLOURS}
        out["after"] = {c: after[c] for c in B.COLOURS}
        out["empty_kept"] = self.empty_kept
        out["calibration"] = "pockets"
        return out


def _calibrated(image: Array, pockets: Pockets, where: str) -> Calibration:
    h, w = image.shape[:2]
    try:
        return checked(pockets, (w, h))
    except CalibrationError as exc:
        raise PhotoError(f"{where}: the pockets given: {exc}") from None


def _same_camera(image: Array, first: Array, where: str, first_where: str, hint: str) -> None:
    if image.shape[:2] != first.shape[:2]:
        raise PhotoError(
            f"{where}: {image.shape[1]}x{image.shape[0]} px, not the size of {first_where} "
            f"({first.shape[1]}x{first.shape[0]} px): {hint}"
        )


def _result(view: BoardView, cal: Calibration, top: Array) -> PhotoResult:
    return PhotoResult(view.coins, view.unsure, "pockets", cal.pockets, top)


def diff_photos(
    before: str | Path,
    after: str | Path,
    pockets: Pockets,
    empty: str | Path | None = None,
    after_pockets: Pockets | None = None,
) -> PhotoDiff:
    """What left the board between the photos `before` and `after` (files), the empty
    board's photo `empty` kept when given. Raises PhotoError naming the file and the
    reason when a photo cannot be read, is not of the same camera, or its pockets do
    not make the board's square."""
    img_b = load_image(before)
    img_a = load_image(after)
    img_e = load_image(empty) if empty is not None else None
    if after_pockets is None:
        hint = "one camera takes both; give AFTER's pockets too if it moved"
        _same_camera(img_a, img_b, str(after), str(before), hint)
    if img_e is not None:
        hint = "the empty board is kept under the same camera"
        _same_camera(img_e, img_b, str(empty), str(before), hint)
    cal_b = _calibrated(img_b, pockets, str(before))
    cal_a = _calibrated(img_a, after_pockets or pockets, str(after))
    top_b, seen_b = top_view(img_b, cal_b)
    top_a, seen_a = top_view(img_a, cal_a)
    kept = None
    if img_e is not None:
        top_e, seen_e = top_view(img_e, _calibrated(img_e, pockets, str(empty)))
        kept = EmptyBoard([top_e], seen_e)
    watcher = BoardWatcher(cal_b, kept)
    view_b, view_a, diff = watcher.diff_at_rest(top_b, top_a, seen_b, seen_a)
    return PhotoDiff(
        _result(view_b, cal_b, top_b), _result(view_a, cal_a, top_a), diff, kept is not None
    )
