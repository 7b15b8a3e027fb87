"""The one scaling rule of the kiosk's screens, from an 800x480 panel to a 1920x1080 screen.

Every size in the .kv files is a multiple of the app's `unit`, so a layout drawn for one
screen fills any other: the unit is a sixtieth of the window's height, or a hundredth of its
width on a screen narrower than 5:3 (the layouts' own shape), so nothing runs off the side.
At 800x480 the unit is 8 px; a tap target is then at least six units (48 px).

Text has a floor: no label is drawn under `MIN_TEXT_PX`, however small its multiple of the
unit (a secondary line at 1.8 units would be 14 px at 800x480, unreadable at arm's length).
The floor is applied where every label is drawn (kiosk/ui/text.py), so a label's box must
leave room for it; tests/ui/test_fit.py lays out every screen and fails when one does not.
"""

from __future__ import annotations

#: The smallest text drawn on any screen (pixels of font size).
MIN_TEXT_PX = 16
#: The smallest tap target at the smallest screen (pixels, each side).
MIN_TAP_PX = 48
#: The screens the layouts are made for, smallest first.
SCREENS = ((800, 480), (1024, 600), (1920, 1080))
#: The window's height and width in units: a 5:3 screen is 60 units high and 100 wide.
UNITS_HIGH = 60.0
UNITS_WIDE = 100.0
#: The smallest unit (a window shrunk below any real screen still draws).
MIN_UNIT = 6.0


def unit_for(width: float, height: float) -> float:
    """The unit for a window: a sixtieth of its height, a hundredth of its width if that is
    smaller (a screen narrower than 5:3)."""
    return max(MIN_UNIT, min(height / UNITS_HIGH, width / UNITS_WIDE))


def text_px(font_size: float) -> int:
    """The size a label is drawn at: its own, but never under `MIN_TEXT_PX` (0 stays 0: a
    label sized to nothing draws nothing)."""
    size = int(font_size)
    return 0 if size < 1 else max(MIN_TEXT_PX, size)
