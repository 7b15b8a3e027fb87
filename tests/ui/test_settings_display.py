"""Settings' buzzer test and volume, the player display's size and contents (saved in a real
settings.toml), and the player display's digits: at least a fifth of the screen's height, so
they read from 3 m. Real taps under Xvfb; the buzzer is the real driver on a
gpiozero mock PWM pin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from kivy.core.window import Window

from drivers.buzzer import BuzzerPlayer
from kiosk.config import load_settings, save_settings, with_values
from kiosk.parts.outputs import BuzzerOutput
from tests.waiting import wait_until

from .conftest import PIN, Hooks
from .harness import Kiosk, fit_output, pump


def _open_settings(kiosk: Kiosk) -> None:
    kiosk.tap("settings")
    for key in PIN:
        kiosk.tap(f"key_{key}")
    kiosk.tap("key_ok")
    assert kiosk.current == "settings"


@pytest.fixture
def buzzer(kiosk: Kiosk) -> Iterator[BuzzerPlayer]:
    player = BuzzerPlayer(18, tonal=True, pin_factory=MockFactory(pin_class=MockPWMPin))
    fit_output(kiosk, BuzzerOutput(player))
    yield player
    player.close()


def test_settings_buzzer_test_sounds_at_the_volume_and_saves_it(
    kiosk: Kiosk, buzzer: BuzzerPlayer, tmp_path: Path, hooks: Hooks
) -> None:
    target = tmp_path / "settings.toml"
    hooks.save = lambda s: save_settings(s, target)
    _open_settings(kiosk)
    volume = kiosk.widget("volume")
    for _ in range(4):
        kiosk.tap(volume.ids.minus)
    assert volume.value == "60"
    pin = buzzer._device.pwm_device.pin
    pin.clear_states()
    kiosk.tap("test_buzzer")
    assert wait_until(lambda: buzzer.played >= 1)
    duties = {round(s.state, 3) for s in pin.states if s.state > 0}
    assert duties == {0.3}  # 60 % of a piezo's loudest (half duty)
    assert kiosk.widget("buzzer_seen").text == "Beep: the buzzer sounded (60 percent)"
    kiosk.tap("save")
    assert load_settings(target).buzzer.volume == 60
    assert "volume = 60" in target.read_text(encoding="utf-8")


def test_settings_buzzer_test_without_a_buzzer_says_so(kiosk: Kiosk) -> None:
    _open_settings(kiosk)
    kiosk.tap("test_buzzer")
    assert kiosk.widget("buzzer_seen").text == "No buzzer on this kiosk"


def test_settings_player_display_size_and_contents_are_saved(
    kiosk: Kiosk, tmp_path: Path, hooks: Hooks
) -> None:
    target = tmp_path / "settings.toml"
    hooks.save = lambda s: save_settings(s, target)
    _open_settings(kiosk)
    for _ in range(3):
        kiosk.tap(kiosk.widget("digits").ids.plus)
    kiosk.tap("show_status")
    kiosk.tap("save")
    players = load_settings(target).players
    assert (players.digits, players.show_status, players.show_score) == (25, False, True)
    kiosk.app.show("players")
    screen = kiosk.screen()
    assert screen.digits == 25 and not screen.show_status


def ink_height(label: object) -> int:
    """The rows of a label's texture that hold ink (alpha above a quarter)."""
    texture = label.texture  # type: ignore[attr-defined]
    width, height = texture.size
    pixels = texture.pixels
    rows = [
        y
        for y in range(height)
        if any(pixels[(y * width + x) * 4 + 3] > 64 for x in range(0, width, 2))
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_player_display_digits_are_a_fifth_of_the_screen_height(
    kiosk: Kiosk, size: tuple[int, int]
) -> None:
    Window.size = size
    pump(6)
    try:
        app = kiosk.app
        # the score shows under the ICF laws only where the tournament allows it (law 128)
        kiosk.services.tables.use_settings(
            with_values(kiosk.services.settings, players={"icf_score": True})
        )
        app.choose_game("carrom_icf")
        app.start_carrom(kiosk.screen("setup_carrom"))
        kiosk.app.show("players")
        kiosk.advance(0.1)
        screen = kiosk.screen()
        assert screen.left_score == "0" and screen.status
        for wid in ("left", "right"):
            assert ink_height(screen.ids[wid]) >= size[1] / 5, wid
        # backgammon: both banks and the delay
        app.choose_game("backgammon")
        app.start_backgammon(kiosk.screen("setup_backgammon"))
        clock = kiosk.screen("backgammon")
        kiosk.tap("start_0")
        kiosk.advance(0.1)
        app.show("players")
        kiosk.advance(0.1)
        seen = (screen.big, screen.left_score, clock.delays, clock.turns)
        assert screen.big and ":" in screen.left_score and ":" in screen.right_score, seen
        for wid in ("left", "right", "big"):
            assert ink_height(screen.ids[wid]) >= size[1] / 5, wid
        kiosk.shot(f"players_backgammon_{size[0]}x{size[1]}")
    finally:
        Window.size = (1024, 600)
        pump(6)
        Window.left, Window.top = 0, 0  # SDL may move a resized window: taps aim at 0,0
        pump(2)
