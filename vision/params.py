"""Every number the detector decides by, in one place (`DetectorParams`), each with the
reason it has the value it has.

The detector's stages (propose -> change against the kept board -> shape -> the set in
use -> doubt) read their numbers from the one `DetectorParams` a `Detector` is made
with (`PARAMS`, the defaults, unless a bench gives another: the ablation bench switches
a rule off by its number).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DetectorParams:
    """The detector's numbers. Confidences and heats are 0-1; sizes in top-view px
    (0.5 px/mm) unless the name says mm; change in units of the board's own spread."""

    #: From this confidence a piece is counted without doubt.
    sure: float = 0.62
    #: From this confidence a piece is counted (below `sure`: counted, and listed unsure).
    count: float = 0.45
    #: From this confidence a proposal not counted is listed unsure.
    doubt: float = 0.3


#: The numbers the kiosk and `tableside vision detect` run with.
PARAMS = DetectorParams()
