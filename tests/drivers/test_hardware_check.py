"""`tableside hw-test`: the installer's check, run with --simulate and a short --seconds."""

from __future__ import annotations

import importlib.util
from dataclasses import fields
from pathlib import Path

import pytest
from gpiozero import Buzzer

from drivers.display_protocol import DisplayFrame, encode_frame
from drivers.mockpins import ClockedMockFactory
from kiosk.cli import main
from kiosk.commands import hardware_check


def test_hw_test_simulated_shows_hits_buzzer_and_display(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hw-test", "--simulate", "--seconds", "1.0"]) == 0
    out = capsys.readouterr().out
    assert "beams: 1 clear, 2 clear, 3 clear, 4 clear" in out
    for pocket in (1, 2, 3, 4):
        assert f"pocket {pocket}  hit" in out
    assert "pocket 1: 1, pocket 2: 1, pocket 3: 1, pocket 4: 1" in out
    assert "buzzer: played a double beep on GPIO 18" in out
    assert "shows the test frame" in out
    assert "display: found at /dev/pts/" in out and "stable path" in out
    assert "hw-test: all parts answered" in out


def test_hw_test_frame_lights_every_field_of_the_display() -> None:
    # A field left at its default is dark on the players' board: the installer would not see
    # whether its digits work (the match length of protocol version 3 was left dark).
    blank = DisplayFrame()
    frame = hardware_check.TEST_FRAME
    dark = [f.name for f in fields(frame) if getattr(frame, f.name) == getattr(blank, f.name)]
    assert dark == []
    assert " P=88" in encode_frame(1, frame).decode()


def test_hw_test_simulated_bridge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bridge.toml"
    config.write_text('[pockets]\nsource = "bridge"\n[bridge]\nport = "/dev/ttyACM0"\n')
    assert main(["hw-test", "--simulate", "--seconds", "1.0", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "sensor bridge: ok" in out
    assert "sensor bridge: found at /dev/pts/" in out and "stable path" in out
    assert "pocket 3  hit" in out


def test_hw_test_silent_buzzer_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "silent.toml"
    config.write_text("[buzzer]\nsilent = true\n")
    assert main(["hw-test", "--simulate", "--seconds", "0.2", "--config", str(config)]) == 0
    assert "buzzer: silent by the settings" in capsys.readouterr().out


def test_hw_test_bad_settings_name_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "clash.toml"
    config.write_text("[buzzer]\npin = 27\n")
    assert main(["hw-test", "--simulate", "--seconds", "0.1", "--config", str(config)]) == 2
    assert "buzzer.pin" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is here")
def test_hw_test_without_gpio_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "pi.toml"
    config.write_text('[pockets]\npin_factory = "lgpio"\n')
    assert main(["hw-test", "--seconds", "0.1", "--config", str(config)]) == 2
    assert "pockets.pin_factory: lgpio cannot start" in capsys.readouterr().err


def test_hw_test_pin_in_use_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Another program already holds GPIO 22 (pocket 3's beam) on this pin factory.
    factory = ClockedMockFactory(pwm=True)
    holder = Buzzer(22, pin_factory=factory)
    monkeypatch.setattr(hardware_check, "make_pin_factory", lambda name: factory)
    try:
        assert main(["hw-test", "--simulate", "--seconds", "0.1"]) == 2
    finally:
        holder.close()
    assert "hw-test: pocket 3, GPIO pin 22: already in use" in capsys.readouterr().err
