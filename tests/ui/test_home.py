"""The home screen and the umpire's PIN, with real taps under Xvfb."""

from __future__ import annotations

from .conftest import PIN, Hooks
from .harness import Kiosk


def test_home_shows_the_four_games_and_no_resume(kiosk: Kiosk) -> None:
    assert kiosk.current == "home"
    texts = [kiosk.widget(g).text for g in ("carrom_icf", "carrom_club", "backgammon", "bhukhar")]
    assert [t.split("\n")[0] for t in texts] == ["Carrom", "Carrom", "Backgammon", "Bhukhar"]
    assert kiosk.widget("resume").disabled
    kiosk.shot("home")


def test_pin_refused_keeps_settings_shut(kiosk: Kiosk) -> None:
    kiosk.tap("settings")
    assert kiosk.current == "pin"
    for key in ("1", "2", "3", "4"):
        kiosk.tap(f"key_{key}")
    assert kiosk.screen().digits == "1234"
    kiosk.tap("key_ok")
    assert kiosk.current == "pin"
    assert kiosk.screen().message == "PIN refused. Try again."
    assert kiosk.screen().digits == ""
    kiosk.shot("pin_refused")
    kiosk.tap("back")
    assert kiosk.current == "home"


def test_pin_accepted_opens_settings_and_saves_a_timer(kiosk: Kiosk, hooks: Hooks) -> None:
    saved = hooks.saved
    kiosk.tap("settings")
    for key in PIN:
        kiosk.tap(f"key_{key}")
    kiosk.tap("key_ok")
    assert kiosk.current == "settings"
    stroke = kiosk.widget("stroke_s")
    kiosk.tap(stroke.ids.minus)
    kiosk.tap(stroke.ids.minus)
    assert stroke.value == "13"
    kiosk.tap(kiosk.widget("pin1").ids.minus)
    kiosk.shot("settings")
    kiosk.tap("save")
    assert saved and saved[-1].timers.stroke_s == 13.0
    assert saved[-1].pockets.pins[0] == 16
    assert kiosk.services.settings.timers.stroke_s == 13.0


def test_settings_refuses_a_pin_used_twice_and_names_the_key(kiosk: Kiosk, hooks: Hooks) -> None:
    saved = hooks.saved
    kiosk.app.show("settings")
    kiosk.tap(kiosk.widget("pin1").ids.minus)  # pocket 1: 17 -> 16
    for _ in range(11):  # pocket 2: 27 -> 16, the same as pocket 1
        kiosk.tap(kiosk.widget("pin2").ids.minus)
    kiosk.tap("save")
    assert not saved
    message = kiosk.screen().message
    assert message.startswith("Not saved") and "pockets.pins" in message
    kiosk.shot("settings_refused")
