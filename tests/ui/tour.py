"""A tour of every screen of a running kiosk, and of every dialog on them (test_fit.py and the
screenshots script both take it).

`tour(kiosk)` brings each state to the front in turn and yields its name; the first tour
starts a carrom match, a backgammon clock and a Bhukhar session through the app's own
setup screens (their setups' defaults), later tours show them again. After the named states
of each screen, every Overlay on it that is still closed is opened by itself too, so a
dialog added later is laid out with the rest without a line here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kivy.uix.widget import Widget

from kiosk.ui.widgets import Overlay

from .harness import Kiosk
from .harness import pump as _draw


def _started(kiosk: Kiosk, name: str, start: Callable[[Any], None]) -> None:
    """The game screen `name`, its table started from its setup the first time."""
    game = kiosk.screen(name)
    if getattr(game, "session", None) is None and getattr(game, "table", None) is None:
        start(kiosk.screen(f"setup_{name}"))
    kiosk.app.show(name)


def overlays(root: Widget) -> list[Overlay]:
    return [w for w in root.walk(restrict=True) if isinstance(w, Overlay)]


#: The overlays a named state opened (their id()): not opened again by force.
_SEEN_OPEN: set[int] = set()


def _mark(kiosk: Kiosk) -> None:
    _SEEN_OPEN.update(id(o) for o in overlays(kiosk.screen()) if o.is_open())


def _forced_open(kiosk: Kiosk, name: str) -> Iterator[str]:
    """Each overlay of the current screen that is closed now and no named state opened,
    opened by itself."""
    screen = kiosk.screen()
    for index, overlay in enumerate(overlays(screen)):
        if overlay.is_open() or id(overlay) in _SEEN_OPEN:
            continue
        kept = overlay.pos_hint
        overlay.pos_hint = {"center_x": 0.5, "center_y": 0.5}
        pump(3)
        yield f"{name}/overlay{index}"
        overlay.pos_hint = kept
        pump(2)


def _show(kiosk: Kiosk, name: str) -> Iterator[str]:
    kiosk.app.show(name)
    pump(4)
    yield name
    yield from _forced_open(kiosk, name)


#: How the tour lets Kivy lay out a state: the harness's frames (drawn, for screenshots)
#: or the fit test's layout-only ticks.
pump: Callable[[int], None] = _draw


def tour(kiosk: Kiosk, settle: Callable[[int], None] = _draw) -> Iterator[str]:
    """Every screen and dialog, each laid out in turn: yields the state's name with it on
    the window. `settle(frames)` runs Kivy's clock between steps."""
    global pump
    pump = settle
    app = kiosk.app
    yield from _show(kiosk, "home")
    yield from _show(kiosk, "pin")
    yield from _show(kiosk, "settings")
    yield from _show(kiosk, "calibration")
    yield from _show(kiosk, "pins")  # the PINs, first start or changed in the settings
    yield from _show(kiosk, "parts")  # the parts that did not start
    # carrom: setup, the console, the foul dialog, the scoresheet
    app.choose_game("carrom_icf")
    pump(4)
    yield "setup_carrom"
    _started(kiosk, "carrom", app.start_carrom)
    pump(4)
    yield "carrom"
    carrom = kiosk.screen("carrom")
    carrom.ask("foul")
    pump(4)
    _mark(kiosk)
    yield "carrom/foul"
    carrom.pick_action = ""
    carrom.ids.sheet_panel.shown = True
    pump(4)
    _mark(kiosk)
    yield "carrom/scoresheet"
    carrom.ids.sheet_panel.shown = False
    yield from _forced_open(kiosk, "carrom")
    kiosk.screen("players").show_game(carrom)
    yield from _show(kiosk, "players")  # the player display of a carrom match
    # backgammon: setup, the clock, the director, the game's end
    yield from _show(kiosk, "setup_backgammon")
    _started(kiosk, "backgammon", app.start_backgammon)
    pump(4)
    yield "backgammon"
    clock = kiosk.screen("backgammon")
    clock.ids.director_panel.shown = True
    pump(4)
    _mark(kiosk)
    yield "backgammon/director"
    clock.ids.director_panel.shown = False
    clock.end_open = True
    pump(4)
    _mark(kiosk)
    yield "backgammon/game_over"
    clock.end_open = False
    yield from _forced_open(kiosk, "backgammon")
    kiosk.screen("players").show_game(clock)
    yield from _show(kiosk, "players")  # the player display of a backgammon clock
    # Bhukhar: setup, the scoresheet, the cards and penalties panels
    yield from _show(kiosk, "setup_bhukhar")
    _started(kiosk, "bhukhar", app.start_bhukhar)
    pump(4)
    yield "bhukhar"
    sheet = kiosk.screen("bhukhar")
    sheet.open_cards(0)
    pump(4)
    _mark(kiosk)
    yield "bhukhar/cards"
    sheet.close_cards()
    sheet.open_penalties()
    pump(4)
    _mark(kiosk)
    yield "bhukhar/penalties"
    sheet.close_penalties()
    yield from _forced_open(kiosk, "bhukhar")
    app.show("home")
    pump(2)
