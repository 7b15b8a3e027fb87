"""PINs in the settings: no default PIN outside --simulate, the PBKDF2 iteration
count within bounds, the director's PIN and the lock's limits checked like every key."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.access.pins import MAX_PIN_ITERATIONS, MIN_PIN_ITERATIONS
from kiosk.access.settings_authority import needs_pins, simulated_pins
from kiosk.config import (
    DEFAULT_PATH,
    ConfigError,
    Settings,
    check_pin,
    check_settings,
    hash_pin,
    load_settings,
    with_values,
)


def test_roles_no_default_pin_in_the_shipped_settings() -> None:
    settings = load_settings(DEFAULT_PATH)
    assert settings.umpire.pin_hash == "" and settings.umpire.director_pin_hash == ""
    assert needs_pins(settings) and needs_pins(Settings())


def test_roles_simulate_uses_1234_and_4321_only_where_no_pin_is_set() -> None:
    simulated = simulated_pins(Settings())
    assert check_pin("1234", simulated.umpire.pin_hash)
    assert check_pin("4321", simulated.umpire.director_pin_hash)
    assert not needs_pins(simulated)
    own = with_values(Settings(), umpire={"pin_hash": hash_pin("2468", iterations=10_000)})
    assert check_pin("2468", simulated_pins(own).umpire.pin_hash)


@pytest.mark.parametrize(
    "iterations", [MIN_PIN_ITERATIONS - 1, MAX_PIN_ITERATIONS + 1, 999_999_999]
)
def test_roles_pbkdf2_iterations_out_of_bounds_are_refused_by_key(
    tmp_path: Path, iterations: int
) -> None:
    stored = hash_pin("2468", iterations=min(iterations, MAX_PIN_ITERATIONS + 1))
    stored = stored.replace(f"${min(iterations, MAX_PIN_ITERATIONS + 1)}$", f"${iterations}$")
    path = tmp_path / "s.toml"
    path.write_text(f'[umpire]\ndirector_pin_hash = "{stored}"\n', encoding="utf-8")
    (problem,) = check_settings(path)
    assert problem.key == "umpire.director_pin_hash"
    assert f"ITERATIONS from {MIN_PIN_ITERATIONS} to {MAX_PIN_ITERATIONS}" in problem.message
    assert not check_pin("2468", stored)


def test_roles_pbkdf2_iterations_at_the_bounds_are_kept() -> None:
    for iterations in (MIN_PIN_ITERATIONS, MAX_PIN_ITERATIONS):
        stored = hash_pin("2468", iterations=iterations)
        assert with_values(Settings(), umpire={"pin_hash": stored}).umpire.pin_hash == stored
        assert check_pin("2468", stored)


def test_roles_lock_limits_are_checked_by_key() -> None:
    with pytest.raises(ConfigError) as exc:
        with_values(Settings(), umpire={"lock_after_min": 0, "director_window_s": -1})
    assert {p.key for p in exc.value.problems} == {
        "umpire.lock_after_min",
        "umpire.director_window_s",
    }
