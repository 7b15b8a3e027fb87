"""Stills for protests: a JPEG of the board at rest before and after every stroke,
kept in a folder beside the journal (`<journal>.stills/`), for the protest record.

`Stills.keep(stroke, "before" | "after", frame)` writes
`stroke-000123-before.jpg`; strokes are numbered on from the newest already in the
folder (`next_stroke`), so a restarted kiosk never writes over a match's stills,
and the journal's camera diff names the two files (kiosk/tables/carrom_inputs.py,
shown by `tableside protest`). The folder is pruned to the newest `keep_strokes`
strokes (a setting; 0 keeps none, so nothing is written). A still that cannot be
written is reported and skipped: a full disk must never stop the match.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import cv2
import numpy.typing as npt

Array = npt.NDArray[Any]
log = logging.getLogger(__name__)

_NAME = re.compile(r"^stroke-(\d{6})-(before|after)\.jpg$")
WHEN = ("before", "after")


def stills_folder(journal: Path) -> Path:
    """The folder beside a journal file: `match.db` -> `match.db.stills/`."""
    return journal.with_name(journal.name + ".stills")


class Stills:
    """The stills of one journal (see the module docstring)."""

    def __init__(self, folder: Path, keep_strokes: int = 500, quality: int = 85) -> None:
        if keep_strokes < 0:
            raise ValueError(f"stills: keep_strokes must be 0 or more, got {keep_strokes}")
        self.folder = folder
        self.keep_strokes = keep_strokes
        self.quality = quality
        #: The newest stroke with a still: read from the folder once (next_stroke), then
        #: kept up by keep(), so the watcher's per-frame path does not list the folder.
        self._newest: int | None = None

    def path(self, stroke: int, when: str) -> Path:
        if when not in WHEN:
            raise ValueError(f"stills: when must be 'before' or 'after', got {when!r}")
        return self.folder / f"stroke-{stroke:06d}-{when}.jpg"

    def keep(self, stroke: int, when: str, frame: Array) -> Path | None:
        """Write one still and prune; the path written, or None if none was."""
        if self.keep_strokes == 0:
            return None
        path = self.path(stroke, when)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
            if not ok:
                raise OSError("JPEG encoding failed")
            tmp = path.with_suffix(".part")
            tmp.write_bytes(data.tobytes())
            tmp.replace(path)
        except OSError as exc:
            log.warning("still %s not kept: %s", path, exc)
            return None
        if self._newest is not None:
            self._newest = max(self._newest, stroke)
        self.prune()
        return path

    def next_stroke(self) -> int:
        """The number for a new stroke: one after the newest in the folder."""
        if self._newest is None:
            strokes = self.strokes()
            self._newest = strokes[-1] if strokes else 0
        return self._newest + 1

    def strokes(self) -> list[int]:
        """The strokes that have stills, oldest first."""
        if not self.folder.is_dir():
            return []
        found = {int(m.group(1)) for p in self.folder.iterdir() if (m := _NAME.match(p.name))}
        return sorted(found)

    def prune(self) -> None:
        """Remove the stills of all but the newest `keep_strokes` strokes."""
        strokes = self.strokes()
        for stroke in strokes[: max(0, len(strokes) - self.keep_strokes)]:
            for when in WHEN:
                self.path(stroke, when).unlink(missing_ok=True)
