"""Issue 32, the two PIN findings of the journal's brief: the back-off survives a restart, and
the PINs `--simulate` fills in never reach a settings file a real start reads."""

from __future__ import annotations

import stat
from pathlib import Path

from kiosk.authority import BACKOFF_S, FREE_TRIES, Role
from kiosk.config import DEFAULT_PIN_HASH, Settings, hash_pin, with_values
from kiosk.engine.notify import Notifier
from kiosk.pins import SIMULATED_DIRECTOR_HASH
from kiosk.roles import SettingsAuthority, needs_pins
from kiosk.startup import PIN_STATE_NAME, find_settings, start_kiosk

from .conftest import FakeClock

SETTINGS = with_values(
    Settings(), umpire={"pin_hash": hash_pin("2468"), "director_pin_hash": hash_pin("9753")}
)


def authority(state: Path, clock: FakeClock, wall: FakeClock) -> SettingsAuthority:
    return SettingsAuthority(
        lambda: SETTINGS, lambda _note: None, state=state, clock=clock, wall=wall
    )


def test_pin_backoff_survives_a_restart(tmp_path: Path) -> None:
    state = tmp_path / PIN_STATE_NAME
    clock, wall = FakeClock(100.0), FakeClock(1.7e9)
    first = authority(state, clock, wall)
    for _ in range(FREE_TRIES + 1):
        first.enter("0000", Role.UMPIRE, clock.now)
    assert first.wait_s(clock.now) == BACKOFF_S
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    # The plug pulled 10 s later: a new process, its monotonic clock from 0.
    clock, wall = FakeClock(0.0), FakeClock(1.7e9 + 10)
    again = authority(state, clock, wall)
    assert again.wait_s(clock.now) == BACKOFF_S - 10
    refused = again.enter("2468", Role.UMPIRE, clock.now)  # not even checked during it
    assert refused.role is None and refused.reason == "backoff"
    clock.advance(BACKOFF_S)
    assert again.enter("0000", Role.UMPIRE, clock.now).wait_s == 2 * BACKOFF_S  # it doubles on
    clock.advance(2 * BACKOFF_S)
    assert again.enter("2468", Role.UMPIRE, clock.now).role is Role.UMPIRE
    third = authority(state, FakeClock(0.0), FakeClock(1.7e9 + 500))
    assert third.failures == 0 and third.wait_s(0.0) == 0


def test_pin_backoff_through_the_kiosks_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    clock = FakeClock(50.0)
    kiosk = start_kiosk(None, data, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        auth = kiosk.services.authority
        for _ in range(FREE_TRIES + 1):
            auth.enter("0000", Role.UMPIRE, clock.now)
    finally:
        kiosk.close()
    kiosk = start_kiosk(None, data, simulate=True, clock=FakeClock(0.0), notifier=Notifier({}))
    try:
        assert kiosk.services.authority.wait_s(0.0) > BACKOFF_S - 5
    finally:
        kiosk.close()


def test_simulated_pins_never_reach_a_settings_file_a_real_start_reads(tmp_path: Path) -> None:
    data = tmp_path / "data"
    clock = FakeClock(50.0)
    kiosk = start_kiosk(None, data, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        umpire = kiosk.services.settings.umpire
        assert umpire.pin_hash == DEFAULT_PIN_HASH  # 1234 in the simulation
        kiosk.services.save_settings(with_values(kiosk.services.settings, timers={"stroke_s": 12}))
    finally:
        kiosk.close()
    text = (data / "settings.toml").read_text()
    assert "stroke_s = 12" in text
    assert DEFAULT_PIN_HASH not in text and SIMULATED_DIRECTOR_HASH not in text
    settings, _, _ = find_settings(None, data, simulate=False)
    assert needs_pins(settings)  # a real start on the folder asks for the PINs
