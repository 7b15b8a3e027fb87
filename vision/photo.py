"""Detection on one photo: any size and orientation, calibrated by the four pocket
centres given (in any order) or found by `auto_calibrate`, and always checked
(`calibration.check_square`) before anything is counted.

This is what `tableside vision detect` runs: how an installer checks a new camera
and how real photos are tested. The pieces are found by the kiosk's own detector
(`vision.pieces.Detector`), cold: with no view of the empty board, the board's print
is learned from the photo itself.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.calibration import (
    Calibration,
    CalibrationError,
    check_square,
    find_surface_corners,
    order_pockets,
)
from vision.params import PARAMS, DetectorParams
from vision.pieces import Detector, EmptyBoard
from vision.view import Coin, Doubt

Array = npt.NDArray[Any]

#: Auto calibration looks at the photo shrunk to this many pixels across at most.
AUTO_PX = 800
#: ... and finds no board in a copy narrower than this (a board is square).
AUTO_LEAST_PX = 32
#: The image formats `annotate` may be written as (OpenCV's writers).
ANNOTATE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class PhotoError(ValueError):
    """The photo cannot be read, is empty, or shows no board that passes the check."""


@dataclass(frozen=True, slots=True, eq=False)
class PhotoResult:
    coins: tuple[Coin, ...]
    #: The pieces the detector doubts (vision.pieces.Doubt).
    unsure: tuple[Doubt, ...]
    #: "pockets" when the pocket centres were given, "auto" when found.
    calibration: str
    #: The pocket centres 1-4 in the photo's pixels.
    pockets: tuple[tuple[float, float], ...]
    top: Array = field(repr=False)

    def counts(self) -> dict[str, int]:
        return {c: sum(1 for k in self.coins if k.colour == c) for c in B.COLOURS}

    def unsure_colours(self) -> tuple[str, ...]:
        """The classes whose count is in doubt."""
        return tuple(c for c in B.COLOURS if any(d.colour == c for d in self.unsure))

    def to_json(self) -> dict[str, Any]:
        """The shape `tableside vision detect --json` prints."""
        out: dict[str, Any] = dict(self.counts())
        out["calibration"] = self.calibration
        out["coins"] = [
            {
                "class": c.colour,
                "x_mm": round(c.x_mm, 1),
                "y_mm": round(c.y_mm, 1),
                "confidence": round(c.confidence, 2),
            }
            for c in self.coins
        ]
        out["unsure"] = [
            {
                "class": d.colour,
                "x_mm": round(d.x_mm, 1),
                "y_mm": round(d.y_mm, 1),
                "confidence": round(d.confidence, 2),
                "counted": d.counted,
                "or": d.other,
                "why": d.why,
            }
            for d in self.unsure
        ]
        return out


#: The most pixels a photo may have: a 48-megapixel phone's photo passes; a
#: decompression bomb (a small file that decodes to gigabytes) is refused unread.
MAX_PIXELS = 64_000_000


def load_image(path: str | Path) -> Array:
    """A photo as BGR uint8 (EXIF orientation applied, as viewers show it). Its size is
    read from its header first: a photo over MAX_PIXELS is refused before it is decoded.
    A damaged or truncated file is refused, not read in part."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    p = Path(path)
    if p.is_dir():
        raise PhotoError(f"{p}: a folder, not an image")
    if not p.is_file():
        raise PhotoError(f"{p}: no such file")
    if p.stat().st_size == 0:
        raise PhotoError(f"{p}: empty file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(p) as im:
                w, h = im.size
                if w * h > MAX_PIXELS:
                    raise PhotoError(
                        f"{p}: too large to read ({w}x{h} px, over {MAX_PIXELS // 1_000_000} "
                        "megapixels)"
                    )
                im.load()
                rgb = ImageOps.exif_transpose(im).convert("RGB")
    except PhotoError:
        raise
    except UnidentifiedImageError:
        raise PhotoError(f"{p}: not an image that can be read") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError(f"{p}: too large to read (a decompression bomb?)") from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PhotoError(f"{p}: damaged image ({first})") from None
    img: Array = cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)
    if img.size == 0 or min(img.shape[:2]) < 8:
        raise PhotoError(f"{p}: empty image ({img.shape[1]}x{img.shape[0]} px)")
    return img


def parse_pockets(text: str) -> list[tuple[float, float]]:
    """`X1,Y1,X2,Y2,X3,Y3,X4,Y4` as four points."""
    try:
        vals = [float(v) for v in text.replace(" ", "").split(",")]
    except ValueError:
        raise PhotoError(f"--pockets: not eight numbers: {text!r}") from None
    if len(vals) != 8 or not all(np.isfinite(vals)):
        raise PhotoError(f"--pockets: expected X1,Y1,...,X4,Y4 (eight numbers), got {text!r}")
    return [(vals[2 * i], vals[2 * i + 1]) for i in range(4)]


def checked(pockets: Sequence[tuple[float, float]], size: tuple[int, int]) -> Calibration:
    """Pockets in any order as a calibration that passed the square check."""
    cal = Calibration(order_pockets(pockets))
    problem = check_square(cal.pockets, size).problem()
    if problem:
        raise CalibrationError(problem)
    return cal


def auto_pockets(image: Array) -> list[tuple[float, float]]:
    """The pocket centres found by `find_surface_corners` on a shrunk copy (a
    suggestion: the caller checks it like any taps). A board whose light surface runs
    off the photo is measured from the sides that are seen (a side cut off by the
    photo is put where the board's print is most symmetric), and then only suggested
    when the print confirms the place (`print_confirms`)."""
    h, w = image.shape[:2]
    f = min(1.0, AUTO_PX / max(h, w))
    if min(h, w) * f < AUTO_LEAST_PX:
        raise CalibrationError(f"the image is too narrow to show a board ({w}x{h} px)")
    small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    try:
        pockets = Calibration.from_corners(find_surface_corners(small)).pockets
    except CalibrationError:

        def judge(corners: list[tuple[float, float]]) -> float:
            return asymmetry(small, Calibration.from_corners(corners).pockets)

        cut = find_surface_corners(small, off_image=True, judge=judge)
        pockets = Calibration.from_corners(cut).pockets
        print_confirms(small, pockets)
    return [(x / f, y / f) for x, y in pockets]


#: The side of the small top view the print's symmetry is judged on (px).
_FIT_PX = 160
#: Pockets are confirmed by the print when its asymmetry there is under this share of
#: what it is with the board moved 2.5% of a side any way.
PRINT_CLEAR = 0.75


def print_confirms(small: Array, pockets: Sequence[tuple[float, float]]) -> None:
    """Raise CalibrationError unless the board's print (law I prints it the same after
    a quarter turn or a mirror) is clearly more symmetric at these pockets than with the
    board moved 2.5% of a side any way: a faint or worn print, or pockets found in the
    wrong place, do not confirm them. (Symmetry fixes the board's centre and turn, not
    its size: that comes from the sides measured.)"""
    p = np.array(pockets, np.float64)
    side = float(np.mean([np.linalg.norm(p[i] - p[(i + 1) % 4]) for i in range(4)]))
    d = 0.025 * side
    here = asymmetry(small, p)
    beside = [asymmetry(small, p + np.array(m)) for m in ((d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d))]
    if not here < PRINT_CLEAR * float(np.mean(beside)):
        raise CalibrationError(
            "the board runs off the image and its print does not confirm where: "
            "tap the four pockets"
        )


_FIT_S = _FIT_PX / (B.SURFACE_MM + 2 * B.MARGIN_MM)
_FIT_TO = np.array(
    [((x + B.MARGIN_MM) * _FIT_S, (y + B.MARGIN_MM) * _FIT_S) for x, y in B.POCKETS_MM],
    np.float32,
)
# The print judged: the surface less 40 mm along its edges (the frame's rim, the pockets).
_FIT_IN = np.zeros((_FIT_PX, _FIT_PX), bool)
_m = int((B.MARGIN_MM + 40) * _FIT_S)
_FIT_IN[_m : _FIT_PX - _m, _m : _FIT_PX - _m] = True


def asymmetry(small: Array, pockets: Sequence[tuple[float, float]] | Array) -> float:
    """How unlike its other seven orientations the print (colour edges) of the small
    top view is at these pockets: the median over the seven of the mean difference
    over the mean sum, where both views are seen (0 symmetric, 1 nothing alike)."""
    from vision.coin_net import turned

    try:
        h = cv2.getPerspectiveTransform(
            np.array(order_pockets([(float(x), float(y)) for x, y in pockets]), np.float32), _FIT_TO
        )
    except (cv2.error, CalibrationError):
        return 1.0
    # Beyond the photo's edge the view is the edge's pixels repeated (no step there to
    # be taken for print), and not judged: `seen` stops 3 px short of it.
    top = cv2.warpPerspective(
        small, h, (_FIT_PX, _FIT_PX), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    inside = cv2.warpPerspective(np.ones(small.shape[:2], np.uint8), h, (_FIT_PX, _FIT_PX))
    seen: Array = cv2.erode(inside, np.ones((7, 7), np.uint8)) > 0
    g = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)
    e = cv2.GaussianBlur(
        cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)),
        (0, 0),
        1.0,
    )
    diffs = []
    for k in range(1, 8):
        ok = _FIT_IN & seen & (turned(seen.astype(np.uint8), k) > 0)
        if ok.sum() < 0.2 * _FIT_IN.sum():
            return 1.0
        ek = turned(e, k)
        total = float(np.mean((e + ek)[ok]))
        diffs.append(float(np.mean(np.abs(e - ek)[ok])) / max(total, 1e-6))
    return float(np.median(diffs))


def top_view(image: Array, cal: Calibration) -> tuple[Array, Array]:
    """The board's top view at `board.SCALE` px/mm, and the mask of its pixels that
    lie inside the photo. A large photo is shrunk first (by area) to about twice the
    top view's scale, so the warp does not alias."""
    p = np.array(cal.pockets, np.float64)
    side_px = float(np.mean([np.linalg.norm(p[i] - p[(i + 1) % 4]) for i in range(4)]))
    want = 2.0 * (B.SURFACE_MM - B.POCKET_D_MM) * B.SCALE
    f = min(1.0, want / side_px)
    if f < 0.95:
        h, w = image.shape[:2]
        image = cv2.resize(
            image, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA
        )
        cal = Calibration(tuple((x * f, y * f) for x, y in cal.pockets))
    h = cal.homography()
    return cal.warp(image, h), cal.seen((image.shape[1], image.shape[0]), h)


def detect_photo(
    image: Array,
    pockets: Sequence[tuple[float, float]] | None = None,
    empty: EmptyBoard | None = None,
    where: str = "image",
    params: DetectorParams = PARAMS,
) -> PhotoResult:
    """The pieces on one photo, by the kiosk's detector: against the `empty` board's
    view when given, else cold. Raises PhotoError naming `where` when no board that
    passes the square check can be found."""
    h, w = image.shape[:2]
    kind = "pockets" if pockets is not None else "auto"
    try:
        pts = list(pockets) if pockets is not None else auto_pockets(image)
        cal = checked(pts, (w, h))
    except CalibrationError as exc:
        how = "the pockets given" if pockets is not None else "no board found"
        raise PhotoError(f"{where}: {how}: {exc}") from None
    try:
        top, seen = top_view(image, cal)
        view = Detector(empty, params=params).find(top, seen)
    except cv2.error as exc:  # a safety net: a photo OpenCV cannot take is no board
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "OpenCV error"
        raise PhotoError(f"{where}: cannot be counted ({w}x{h} px: {first})") from None
    return PhotoResult(view.coins, view.doubts_that_matter(), kind, cal.pockets, top)


def annotate_target(path: str | Path) -> Path:
    """Where `--annotate` writes, checked before anything is counted: an image file's
    name (ANNOTATE_SUFFIXES) in a folder that exists, not a folder. Raises PhotoError
    naming it and the reason."""
    p = Path(path)
    if p.is_dir():
        raise PhotoError(f"{p}: a folder: --annotate needs an image file's name (OUT.png)")
    if p.suffix.lower() not in ANNOTATE_SUFFIXES:
        raise PhotoError(f"{p}: --annotate writes an image: its name must end .png or .jpg")
    if not p.parent.is_dir():
        raise PhotoError(f"{p}: no such folder ({p.parent})")
    return p


def annotate(image: Array, result: PhotoResult) -> Array:
    """The photo with the pockets and what was found drawn on it."""
    out = image.copy()
    cal = Calibration(result.pockets)
    scale = max(1, round(max(image.shape[:2]) / 640))
    colours = {
        "white": (255, 255, 255),
        "black": (40, 40, 40),
        "queen": (60, 60, 230),
        "striker": (255, 180, 0),
    }
    for x, y in result.pockets:
        cv2.drawMarker(
            out, (round(x), round(y)), (0, 255, 255), cv2.MARKER_CROSS, 12 * scale, scale
        )
    inv = np.linalg.inv(cal.homography())
    for c in result.coins:
        u, v = B.mm_to_top(c.x_mm, c.y_mm)
        q = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
        r_mm = 20.0 if c.colour == "striker" else B.COIN_D_MM / 2
        u2, _ = B.mm_to_top(c.x_mm + r_mm, c.y_mm)
        q2 = cv2.perspectiveTransform(np.array([[[u2, v]]], np.float64), inv)[0, 0]
        r = max(3, round(float(np.linalg.norm(q2 - q))))
        centre = (round(float(q[0])), round(float(q[1])))
        cv2.circle(out, centre, r + 2 * scale, (0, 200, 0), 2 * scale)
        cv2.circle(out, centre, max(2, r // 3), colours[c.colour], -1)
    for d in result.unsure:  # a yellow ring outside: in doubt (counted or not)
        u, v = B.mm_to_top(d.x_mm, d.y_mm)
        q = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
        u2, _ = B.mm_to_top(d.x_mm + B.COIN_D_MM / 2, d.y_mm)
        q2 = cv2.perspectiveTransform(np.array([[[u2, v]]], np.float64), inv)[0, 0]
        r = max(3, round(float(np.linalg.norm(q2 - q))))
        centre = (round(float(q[0])), round(float(q[1])))
        cv2.circle(out, centre, r + 6 * scale, (0, 220, 255), scale)
    counts = result.counts()
    label = "  ".join(f"{k} {counts[k]}" for k in B.COLOURS) + f"  ({result.calibration})"
    if result.unsure:
        label += "  unsure: " + ",".join(result.unsure_colours())
    cv2.putText(
        out, label, (8, 24 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 0, 0), 4 * scale
    )
    cv2.putText(
        out, label, (8, 24 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 255, 255), 2 * scale
    )
    return out
