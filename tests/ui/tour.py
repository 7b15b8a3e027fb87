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

from .harness import Kiosk, look
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
    _SEEN_OPEN.clear()  # another kiosk's (an id may be used again), or marked again below
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
    kiosk.screen("players").show_game(carrom.session)
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
    clock.open_fix()  # the director's corrections of the score and the length (4.7, 4.8)
    pump(4)
    _mark(kiosk)
    yield "backgammon/corrections"
    clock.fix_open = False
    yield from _forced_open(kiosk, "backgammon")
    kiosk.screen("players").show_game(clock.table)
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


# -- the states the issues found wanting: a story the tour does not tell ----------

#: A doubles match named in the four scripts, long enough to wrap: the side boxes, the
#: player display, the scoresheet ("a doubles name cut", "Dimitri/s").
CARROM_NAMES = ("Dimitris Papadopoulos", "अमित शाह", "Ελένη Παπαδοπούλου", "ભાવિન પટેલ")
BACKGAMMON_NAMES = ("Dimitris Papadopoulos", "Ελένη Παπαδοπούλου")
BHUKHAR_TEAM = "Lions of Surat"
BHUKHAR_PLAYERS = ("Dimitris", "अमित", "Ελένη")


def _carrom_story(kiosk: Kiosk) -> Iterator[str]:
    app = kiosk.app
    app.choose_game("carrom_icf")
    setup = kiosk.screen("setup_carrom")
    setup.set_doubles(True)
    for seat, name in enumerate(CARROM_NAMES):
        setup.set_name(seat, name)
    app.start_carrom(setup)
    pump(4)
    carrom = kiosk.screen("carrom")
    assert carrom.ids.side_0.children[-1].children[1].text.startswith("Dimitris"), "no name"
    yield "carrom/doubles"
    look()
    carrom.command("pass_turn")  # refused on the break (law 46): the refusal's line
    pump(4)
    yield "carrom/refusal"
    players = kiosk.screen("players")
    look()
    carrom._edit(pocketed=[carrom.colours[0], "queen"])
    look()
    carrom.confirm()  # the breaker pockets the queen: to cover
    pump(4)
    yield "carrom/queen"
    players.show_game(carrom.session)
    app.show("players")
    pump(4)
    yield "players/queen"
    app.show("carrom")
    own = carrom.colours[0] if carrom.at_turn[0] else carrom.colours[1]
    look()
    carrom._edit(pocketed=[own], striker=True)
    look()
    carrom.confirm()  # own coin with the striker: "it goes back with one due" (law 73)
    pump(4)
    yield "carrom/rulings"
    for _board in range(40):  # boards won until a game is: the change of sides
        if any(carrom.games):
            break
        own = carrom.colours[0] if carrom.at_turn[0] else carrom.colours[1]
        if carrom.placing:
            look()
            carrom.dues_placed()
        look()
        carrom._edit(pocketed=[own] * 9 + (["queen"] if "queen" in carrom.on_board else []))
        look()
        carrom.confirm()
        pump(2)
    assert any(carrom.games), f"the story's boards won no game: {carrom.error}"
    pump(4)
    yield "carrom/change_sides"
    carrom.ids.sheet_panel.shown = True
    pump(4)
    yield "carrom/scoresheet_rows"
    carrom.ids.sheet_panel.shown = False
    app.show("players")
    pump(4)
    yield "players/change_sides"


def _backgammon_story(kiosk: Kiosk) -> Iterator[str]:
    app = kiosk.app
    app.choose_game("backgammon")
    setup = kiosk.screen("setup_backgammon")
    for seat, name in enumerate(BACKGAMMON_NAMES):
        setup.set_name(seat, name)
    length = setup.match_length
    setup.step_length_by_one(25 - int(length))  # "25 points" ("12…s")
    pump(4)
    yield "setup_backgammon/25"
    setup.step_length_by_one(int(length) - int(setup.match_length))
    app.start_backgammon(setup)
    pump(4)
    clock = kiosk.screen("backgammon")
    look()
    clock.start_side(0)
    pump(2)  # the screen draws each view at its next frame: a half's tap asks who runs
    look()
    clock.early_pickup(1)  # the other player picked up the dice: waits the delay out
    pump(2)
    look()
    clock.tap_half(0)
    pump(4)
    assert clock.waits[1], "the story's early pickup did not take"
    yield "backgammon/wait"
    app.show("players")
    pump(4)
    yield "players/wait"
    app.show("backgammon")
    look()
    clock.pause_or_resume()
    pump(4)
    yield "backgammon/paused"
    app.show("players")
    pump(4)
    yield "players/paused"
    app.show("backgammon")
    look()
    clock.early_pickup(1)  # refused: that side's clock runs
    pump(4)
    yield "backgammon/refusal"
    look()
    clock.pause_or_resume()
    clock.end_open = True
    clock.end_points = 12
    pump(4)
    yield "backgammon/game_over_12"
    clock.end_open = False


#: A seven-card sequence: a licence (13.4).
BHUKHAR_LICENCE = ("3S", "4S", "5S", "6S", "7S", "8S", "9S")


def _bhukhar_story(kiosk: Kiosk) -> Iterator[str]:
    app = kiosk.app
    app.choose_game("bhukhar")
    setup = kiosk.screen("setup_bhukhar")
    setup.edit_team(0)
    setup.set_team_name(BHUKHAR_TEAM)
    for seat, name in enumerate(BHUKHAR_PLAYERS):
        setup.set_player(seat, name)
    pump(2)
    yield "setup_bhukhar/names"
    app.start_bhukhar(setup)
    pump(4)
    sheet = kiosk.screen("bhukhar")
    yield "bhukhar/names"
    sheet.toggle_licence(1)  # team B has no licence, yet B1 is named as its layer
    sheet.choose_licence_by(1, 0)
    look()
    sheet.enter()
    pump(4)
    yield "bhukhar/refused"
    sheet.choose_licence_by(1, 0)
    sheet.choose_end("stock")
    sheet.step("points", 0, 100)
    look()
    sheet.enter()
    pump(4)
    assert not sheet.refused, sheet.message
    yield "bhukhar/entered"
    sheet.open_totals()  # how the game's totals were added up (rule 18)
    pump(4)
    assert sheet.totals_open
    yield "bhukhar/totals"
    sheet.close_totals()
    sheet.open_cards(0)  # a licence and a meld of it spoiled later (17.2), in full
    for laid in (BHUKHAR_LICENCE, ("3H", "AH", "2H")):
        for card in laid:
            sheet.tap_card(card)
        sheet.close_meld()
    sheet.open_spoiled()
    sheet.toggle_spoiled_meld(1)
    pump(4)
    assert sheet.spoil_open and sheet.cards[0].spoiled == (1,), sheet.cards_message
    yield "bhukhar/spoiled"
    sheet.close_spoiled()
    yield "bhukhar/cards_spoiled"
    sheet.clear_cards()
    sheet.close_cards()


def _pins_story(kiosk: Kiosk) -> Iterator[str]:
    app = kiosk.app
    pins = kiosk.screen("pins")
    pins.first = True
    app.show("pins")
    pump(4)
    pins.typed("12")  # too short: the problem above the ask
    pump(4)
    yield "pins/short"
    pins.typed("1234")
    pins.typed("9999")  # not the same twice
    pump(4)
    yield "pins/mismatch"
    pins.first = False


def _home_story(kiosk: Kiosk) -> Iterator[str]:
    """Home asking before a new game with a table of each kind unfinished and the clock
    running (three lines), then the clock's match decided on time."""
    app = kiosk.app
    app.resume("backgammon")  # in play again (paused by the resume): its clock runs on
    clock = kiosk.screen("backgammon")
    pump(2)
    look()
    clock.pause_or_resume()
    pump(2)
    app.show("home")
    pump(4)
    home = kiosk.screen("home")
    home.choose("carrom_club")
    pump(4)
    assert home.ask_text.count("\n") == 2, home.ask_text
    yield "home/ask_running_clock"
    home.ask_game = ""
    kiosk.clock.advance(2 * 3600.0)  # the flag falls: the match is decided on time
    app.tick()
    app.show("home")
    pump(4)
    assert any(row[0] == "backgammon" and "\n" in row[1] for row in home.rows)
    yield "home/decided_on_time"


def story(kiosk: Kiosk, settle: Callable[[int], None] = _draw) -> Iterator[str]:
    """The states the tour does not reach, each brought about once, in order, by the screens'
    own commands: a carrom doubles match in four scripts (a refusal, the queen to cover, the
    rulings, a game won and the change of sides, the scoresheet), a backgammon clock (waiting
    after an early pickup, paused, a refusal), a Bhukhar session with long names (a refused
    and an entered game), the PINs' problems, home asking with three tables unfinished and a
    match decided on time. Yields each state's name with it on the window; the caller checks
    it at every size and in every language before the next."""
    global pump
    pump = settle
    yield from _pins_story(kiosk)
    yield from _carrom_story(kiosk)
    yield from _backgammon_story(kiosk)
    yield from _bhukhar_story(kiosk)
    yield from _home_story(kiosk)
    kiosk.app.show("home")
    pump(2)
