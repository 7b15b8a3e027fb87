"""The home screen and the umpire's PIN, with real taps under Xvfb."""

from __future__ import annotations

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
