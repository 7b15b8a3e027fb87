"""The two PIN findings of the journal's brief: the back-off survives a restart, and
the PINs `--simulate` fills in never reach a settings file a real start reads. A
back-off file deleted, unreadable or absurd fails closed (the longest back-off), said in the
log."""

from __future__ import annotations

import json
import logging
import stat
import time
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import BACKOFF_MAX_S, BACKOFF_S, FREE_TRIES, Role
from kiosk.access.pins import SIMULATED_DIRECTOR_HASH
from kiosk.access.settings_authority import SettingsAuthority, needs_pins
from kiosk.config import DEFAULT_PIN_HASH, Settings, hash_pin, with_values
from kiosk.engine.journal import Journal
from kiosk.engine.notify import Notifier
from kiosk.startup import PIN_STATE_NAME, find_settings, start_kiosk

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
        backed_off = time.time()  # the backoff is kept on the wall clock, across the restart
    finally:
        kiosk.close()
    kiosk = start_kiosk(None, data, simulate=True, clock=FakeClock(0.0), notifier=Notifier({}))
    try:
        # However long the second start took (a busy machine), the wait counts on from the
        # first start's backoff: never reset to nothing, never started again.
        waited = time.time() - backed_off
        assert BACKOFF_S - waited - 1 <= kiosk.services.authority.wait_s(0.0) <= BACKOFF_S
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


# -- a missing, unreadable or absurd back-off file fails closed ----------------------------------


def used_folder(tmp_path: Path) -> Path:
    """A data folder a kiosk ran in (its journal is there); its back-off file's path."""
    Journal(tmp_path / "journal.db").close()
    return tmp_path / PIN_STATE_NAME


def test_pin_backoff_file_is_made_at_the_first_start(tmp_path: Path) -> None:
    state = tmp_path / PIN_STATE_NAME
    clock, wall = FakeClock(100.0), FakeClock(1.7e9)
    first = authority(state, clock, wall)
    assert first.wait_s(clock.now) == 0  # a new kiosk: no back-off
    assert json.loads(state.read_text()) == {"failures": 0, "blocked_until_wall": 1.7e9}
    assert stat.S_IMODE(state.stat().st_mode) == 0o600


def test_pin_backoff_file_deleted_fails_closed_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = used_folder(tmp_path)
    clock, wall = FakeClock(100.0), FakeClock(1.7e9)
    first = authority(state, clock, wall)
    for _ in range(FREE_TRIES + 1):
        first.enter("0000", Role.UMPIRE, clock.now)
    state.unlink()  # the plug pulled, the file deleted from the card
    caplog.set_level(logging.ERROR, logger="kiosk.access.settings_authority")
    again = authority(state, FakeClock(0.0), FakeClock(1.7e9 + 10))
    assert again.wait_s(0.0) == BACKOFF_MAX_S
    refused = again.enter("2468", Role.UMPIRE, 0.0)
    assert refused.role is None and refused.reason == "backoff"
    said = caplog.text
    assert str(state) in said and "missing" in said and "longest back-off" in said, said
    # Written back: a second restart does not end it either.
    third = authority(state, FakeClock(0.0), FakeClock(1.7e9 + 20))
    assert third.wait_s(0.0) == pytest.approx(BACKOFF_MAX_S - 10)


ABSURD = {
    "infinite": '{"failures": 6, "blocked_until_wall": 1e400}',
    "NaN": '{"failures": 6, "blocked_until_wall": NaN}',
    "negative time": '{"failures": 0, "blocked_until_wall": -1}',
    "negative failures": '{"failures": -3, "blocked_until_wall": 0}',
    "failures true": '{"failures": true, "blocked_until_wall": 0}',
    "failures 2.5": '{"failures": 2.5, "blocked_until_wall": 0}',
    "time as text": '{"failures": 0, "blocked_until_wall": "soon"}',
    "no time": '{"failures": 0}',
    "a list": "[0, 0]",
    "garbage": "\x00\xff garbage",
    "empty": "",
}


@pytest.mark.parametrize("name", list(ABSURD))
def test_pin_backoff_file_absurd_fails_closed_and_says_so(
    name: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = used_folder(tmp_path)
    state.write_bytes(ABSURD[name].encode("utf-8", "surrogateescape"))
    caplog.set_level(logging.ERROR, logger="kiosk.access.settings_authority")
    auth = authority(state, FakeClock(0.0), FakeClock(1.7e9))
    assert auth.wait_s(0.0) == BACKOFF_MAX_S
    assert str(state) in caplog.text and "longest back-off" in caplog.text


def test_pin_backoff_file_unreadable_fails_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = used_folder(tmp_path)
    state.mkdir()  # not a file at all: reading it fails (as a damaged card would)
    caplog.set_level(logging.ERROR, logger="kiosk.access.settings_authority")
    auth = authority(state, FakeClock(0.0), FakeClock(1.7e9))
    assert auth.wait_s(0.0) == BACKOFF_MAX_S
    assert "cannot be read" in caplog.text


def test_pin_backoff_file_missing_after_an_upgrade_is_made(tmp_path: Path) -> None:
    """A kiosk of an older version made the file only after a wrong PIN: its seal (written
    before seals named their journal) says so, and the first start makes the file."""
    state = used_folder(tmp_path)
    seal = json.loads((tmp_path / "journal.db.seal").read_text())
    old = {k: seal[k] for k in ("seq", "hash", "key")}
    (tmp_path / "journal.db.seal").write_text(json.dumps(old))
    auth = authority(state, FakeClock(0.0), FakeClock(1.7e9))
    assert auth.wait_s(0.0) == 0 and state.exists()


def test_pin_backoff_far_future_is_held_to_the_longest(tmp_path: Path) -> None:
    state = used_folder(tmp_path)
    state.write_text('{"failures": 9, "blocked_until_wall": 1e12}')  # years away: the clock?
    auth = authority(state, FakeClock(0.0), FakeClock(1.7e9))
    assert auth.wait_s(0.0) == BACKOFF_MAX_S
