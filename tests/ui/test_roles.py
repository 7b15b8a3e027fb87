"""Roles and PINs by real taps: each role's actions refused on a locked console
and allowed after its PIN, the lock after idle minutes (fake clock) and when the player
display is shown, the doubling back-off after five wrong PINs, the first start's PINs.
Every refusal, unlock and director action is in the journal."""

from __future__ import annotations

import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.access.authority import BACKOFF_S
from kiosk.access.pins import PIN_HASH_SCHEME
from kiosk.access.settings_authority import KIND, SettingsAuthority
from kiosk.config import Settings, check_pin, hash_pin, with_values
from kiosk.config import save_settings as write_settings

from .harness import (
    DIRECTOR_PIN,
    UMPIRE_PIN,
    FakeClock,
    Kiosk,
    Services,
    answered,
    confirmed_events,
    make_kiosk,
    pinned,
    type_pin,
    win_board,
)

UMPIRE, DIRECTOR = UMPIRE_PIN, DIRECTOR_PIN


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    return pinned(tmp_path, fake_clock)


def _notes(services: Services) -> list[dict[str, Any]]:
    journal = services.journal()
    rows = journal.entries(None) + [e for m in journal.matches() for e in journal.entries(m.id)]
    rows.sort(key=lambda e: e.seq)
    return [dict(e.data, source=e.source) for e in rows if e.kind == KIND]


def _start_carrom(kiosk: Kiosk) -> Any:
    """A carrom match started by the umpire (a new match needs the umpire's PIN)."""
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    type_pin(kiosk, UMPIRE)
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _tap_beside_the_pad(kiosk: Kiosk) -> None:
    from kivy.core.window import Window

    for x in (0.05, 0.95):  # the pad's dimmed margins, over the screen's buttons
        for y in (0.1, 0.5, 0.9):
            kiosk.tap_at(Window.width * x, Window.height * y)
    assert kiosk.app.gate.is_open


def _lock_by_the_display(kiosk: Kiosk) -> None:
    kiosk.tap("players")  # the player display shown: the console locks
    kiosk.app.show("carrom")


def test_roles_umpire_action_refused_when_locked_then_allowed_after_umpire_pin(
    kiosk: Kiosk,
) -> None:
    gate = kiosk.app.gate
    kiosk.tap("carrom_icf")
    kiosk.tap("start")  # a new match: the umpire's
    assert gate.is_open and kiosk.current == "setup_carrom"
    assert gate.pad.message == "Locked: the umpire's PIN unlocks the console"
    _tap_beside_the_pad(kiosk)  # on the setup screen behind it: acts on nothing
    assert kiosk.current == "setup_carrom"
    type_pin(kiosk, "1111")
    assert gate.is_open and gate.pad.message == "Wrong PIN: nothing was changed"
    type_pin(kiosk, UMPIRE)  # unlocked: the tap that was refused runs
    assert not gate.is_open and kiosk.current == "carrom"
    screen = kiosk.screen()
    _lock_by_the_display(kiosk)
    kiosk.tap("white_plus")  # locked: the PIN pad, nothing changed
    assert gate.is_open and screen.prop_white == 0
    _tap_beside_the_pad(kiosk)
    assert confirmed_events(screen.session) == []
    kiosk.shot("roles_locked_pad")
    type_pin(kiosk, UMPIRE)
    assert not gate.is_open and screen.prop_white == 1
    kiosk.tap("confirm")
    assert confirmed_events(screen.session)[0]["event"] == "stroke"
    notes = _notes(kiosk.services)
    assert [n["what"] for n in notes] == [
        "refused",
        "refused",
        "unlock",
        "lock",
        "refused",
        "unlock",
    ]
    assert notes[0]["action"] == "start_match" and notes[0]["reason"] == "needs the umpire"
    assert notes[1]["reason"] == "wrong" and notes[2]["role"] == "umpire"
    assert notes[4]["action"] == "edit" and notes[5]["role"] == "umpire"


def test_roles_director_actions_refused_to_the_umpire_then_allowed_after_director_pin(
    kiosk: Kiosk,
) -> None:
    screen = _start_carrom(kiosk)
    gate = kiosk.app.gate
    kiosk.tap("white_plus")  # the umpire's PIN was typed for the new match
    kiosk.tap("confirm")
    before = confirmed_events(screen.session)
    kiosk.tap("void")  # the umpire may not void a board (the director's, laws 137-142)
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, UMPIRE)
    assert gate.pad.message == "That is not the director's PIN: nothing was changed"
    assert confirmed_events(screen.session) == before
    type_pin(kiosk, DIRECTOR)
    assert not gate.is_open
    kiosk.tap("confirm_yes")  # the second confirmation, naming the consequence
    assert confirmed_events(screen.session)[-1] == {"event": "void_board"}
    # The director's window (2 min): a forfeit needs no PIN again...
    kiosk.advance(60.0)
    kiosk.tap("forfeit")
    kiosk.tap("pick_0")
    assert not gate.is_open
    kiosk.tap("confirm_yes")
    assert confirmed_events(screen.session)[-1]["event"] == "forfeit_board"
    # ...until it closes: the umpire's console stays unlocked, a concede asks again.
    kiosk.advance(61.0)
    kiosk.tap("concede")
    kiosk.tap("pick_0")
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    kiosk.tap(gate.pad.ids.pad_cancel)
    assert not gate.is_open
    assert confirmed_events(screen.session)[-1]["event"] == "forfeit_board"
    notes = _notes(kiosk.services)
    assert not [n for n in notes if n["what"] == "allowed"]  # no note paired up later:
    session = screen.session  # each command's one entry carries its role
    made = [
        (e.data["event"], e.source) for e in session.journal.entries(session.match_id, ["event"])
    ]
    assert [m for m in made if m[1] == "director"] == [
        ("void_board", "director"),
        ("forfeit_board", "director"),
    ]
    refused = [n for n in notes if n["what"] == "refused"]
    assert ("void_board", "wrong_role") in [(n["action"], n["reason"]) for n in refused]
    assert refused[-1]["action"] == "concede" and refused[-1]["reason"] == "needs the director"


def test_roles_undo_past_a_boards_end_needs_the_director(kiosk: Kiosk) -> None:
    screen = _start_carrom(kiosk)
    gate = kiosk.app.gate
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("undo")  # within the board: the umpire's
    assert not gate.is_open and confirmed_events(screen.session) == []
    win_board(screen.session)  # the board to its end by the table's commands, untapped
    kiosk.advance(0.0)
    assert screen.points == [12, 0]
    kiosk.tap("undo")  # past the board's end: the director's
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, DIRECTOR)
    assert len(confirmed_events(screen.session)) == 1 and screen.points == [0, 0]
    undos = screen.session.journal.entries(screen.session.match_id, ["undo"])
    assert [e.source for e in undos] == ["umpire", "director"]  # the role, on the undo itself


def test_roles_console_locks_after_idle_minutes_and_when_players_see_the_display(
    kiosk: Kiosk,
) -> None:
    screen = _start_carrom(kiosk)
    gate = kiosk.app.gate
    kiosk.tap("white_plus")
    kiosk.advance(4 * 60.0)  # 4 minutes idle: still open
    kiosk.tap("white_plus")
    assert not gate.is_open and screen.prop_white == 2
    kiosk.advance(5 * 60.0)  # 5 idle minutes: locked, timing went on
    kiosk.tap("white_plus")
    assert gate.is_open and screen.prop_white == 2
    type_pin(kiosk, UMPIRE)
    assert screen.prop_white == 3
    _lock_by_the_display(kiosk)
    kiosk.tap("white_plus")
    assert gate.is_open and screen.prop_white == 3
    kiosk.tap(gate.pad.ids.pad_cancel)
    locks = [n["reason"] for n in _notes(kiosk.services) if n["what"] == "lock"]
    assert locks == ["idle", "display"]


def test_roles_backoff_after_five_wrong_pins_doubles_with_a_countdown(kiosk: Kiosk) -> None:
    screen = _start_carrom(kiosk)
    gate = kiosk.app.gate
    _lock_by_the_display(kiosk)
    kiosk.tap("white_plus")
    type_pin(kiosk, "0000")  # the pad by taps once; then the pad's OK, as a tap sends it
    assert gate.pad.message == "Wrong PIN: nothing was changed"
    for _ in range(3):
        gate.pad.dispatch("on_pin", "0000")
        answered(gate.pad)
        assert gate.pad.message == "Wrong PIN: nothing was changed"
    type_pin(kiosk, "0000")  # the fifth: 30 s to wait
    assert gate.pad.message == f"Too many wrong PINs: try again in {BACKOFF_S:.0f} s"
    kiosk.shot("roles_backoff")
    type_pin(kiosk, UMPIRE)  # the right PIN, too soon: not even checked
    assert gate.is_open and screen.prop_white == 0
    kiosk.advance(10.0)
    assert gate.pad.message == "Too many wrong PINs: try again in 20 s"  # the countdown
    kiosk.advance(20.0)
    gate.pad.dispatch("on_pin", "0000")  # the sixth: twice as long
    answered(gate.pad)
    assert gate.pad.message == f"Too many wrong PINs: try again in {2 * BACKOFF_S:.0f} s"
    kiosk.advance(2 * BACKOFF_S)
    type_pin(kiosk, UMPIRE)
    assert not gate.is_open and screen.prop_white == 1
    reasons = [n.get("reason") for n in _notes(kiosk.services) if n["what"] == "refused"]
    assert reasons.count("wrong") == 6 and reasons.count("backoff") == 1


def test_roles_backgammon_players_press_their_clock_the_director_adjusts_it(
    kiosk: Kiosk,
) -> None:
    gate = kiosk.app.gate
    kiosk.tap("backgammon")
    kiosk.tap("start")  # the players start their own match (RULES.md, 2026-12-01)
    assert not gate.is_open and kiosk.current == "backgammon"
    screen = kiosk.screen()
    kiosk.tap("start_0")
    assert not gate.is_open and screen.running
    bank = screen.banks[0]
    kiosk.advance(6 * 60.0)  # the console locks; the clock runs on
    assert screen.running and screen.banks[0] != bank
    kiosk.tap("half_0")  # a player's own press: allowed on a locked console
    assert not gate.is_open and screen.turns == [False, True]
    kiosk.tap("director")
    kiosk.tap("adj_0_p60")
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, DIRECTOR)
    assert not gate.is_open
    assert confirmed_events(screen.table)[-1]["event"] == "adjust"


def test_roles_settings_need_the_director(kiosk: Kiosk) -> None:
    gate = kiosk.app.gate
    kiosk.tap("settings")
    assert gate.is_open and kiosk.current == "home"
    type_pin(kiosk, UMPIRE)
    assert gate.is_open and kiosk.current == "home"
    type_pin(kiosk, DIRECTOR)
    assert kiosk.current == "settings"


@pytest.fixture
def fresh(tmp_path: Path, fake_clock: FakeClock) -> Services:
    """A kiosk on its first start: no PIN yet, a settings file the installer made 0640."""
    path = tmp_path / "settings.toml"
    write_settings(Settings(), path)
    path.chmod(0o640)
    services = Services(
        data_dir=tmp_path / "data",
        check_pin=lambda _pin: False,
        clock=fake_clock,
        save_settings=lambda s: write_settings(s, path),
        ask_pins=True,
    )
    return services.but(authority=SettingsAuthority(lambda: services.settings, lambda _n: None))


@pytest.fixture
def first_kiosk(fresh: Services, fake_clock: FakeClock) -> Iterator[Kiosk]:
    yield from make_kiosk(fresh, fake_clock)


def pins_in_clear(path: Path, *pins: str) -> list[str]:
    """Where the settings file holds one of `pins` in clear: a key or a value (any depth, any
    type) that is or contains it. A PIN hash field is checked as a hash (salted PBKDF2), not as
    text: its hex digits may hold any four digits, a PIN's among them, by chance."""
    found: list[str] = []

    def walk(where: str, value: object) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if any(pin in str(key) for pin in pins):
                    found.append(f"{where}.{key} (the key)")
                walk(f"{where}.{key}".lstrip("."), inner)
        elif isinstance(value, list):
            for number, inner in enumerate(value):
                walk(f"{where}[{number}]", inner)
        elif where.endswith("pin_hash"):
            parts = str(value).split("$")
            if len(parts) != 4 or parts[0] != PIN_HASH_SCHEME or str(value) in pins:
                found.append(f"{where} = {value!r} (not a PIN hash)")
        elif any(pin in str(value) for pin in pins):
            found.append(f"{where} = {value!r}")

    walk("", tomllib.loads(path.read_text(encoding="utf-8")))
    return found


def test_roles_pins_in_clear_is_not_fooled_by_a_hash_that_holds_the_digits(
    tmp_path: Path,
) -> None:
    """The first start's check as it was failed when a hash held "8642" by chance: here a salt
    that holds it for certain (what a random salt or digest does once in ~700 starts)."""
    path = tmp_path / "settings.toml"
    salt = bytes.fromhex(DIRECTOR + UMPIRE + "00" * 12)
    umpire = {"pin_hash": hash_pin(UMPIRE, salt=salt), "director_pin_hash": hash_pin(DIRECTOR)}
    write_settings(with_values(Settings(), umpire=umpire), path)
    assert DIRECTOR in path.read_text()  # the digits are there, inside a hash ...
    assert pins_in_clear(path, UMPIRE, DIRECTOR) == []  # ... and no PIN is in clear
    text = path.read_text().replace("lock_after_min", f'note = "{DIRECTOR}"\nlock_after_min')
    path.write_text(text)
    assert pins_in_clear(path, UMPIRE, DIRECTOR) == ["umpire.note = '8642'"]
    plain = path.read_text().replace(umpire["pin_hash"], UMPIRE)
    path.write_text(plain)
    assert "umpire.pin_hash = '1357' (not a PIN hash)" in pins_in_clear(path, UMPIRE)


def test_roles_first_start_asks_for_both_pins_and_keeps_only_hashes(
    first_kiosk: Kiosk, fresh: Services, tmp_path: Path
) -> None:
    kiosk = first_kiosk
    assert kiosk.current == "pins"
    pad = kiosk.screen().ids.pad
    type_pin(kiosk, "12", pad)
    assert pad.message.startswith("At least 4 digits")
    type_pin(kiosk, UMPIRE, pad)
    type_pin(kiosk, "9999", pad)  # not the same twice: choose again
    assert pad.message.startswith("The two did not match")
    type_pin(kiosk, UMPIRE, pad)
    type_pin(kiosk, UMPIRE, pad)
    type_pin(kiosk, UMPIRE, pad)  # the director's may not be the umpire's
    assert pad.message.startswith("The director's PIN must differ")
    kiosk.shot("roles_first_start")
    type_pin(kiosk, DIRECTOR, pad)
    type_pin(kiosk, DIRECTOR, pad)
    assert kiosk.current == "home"
    assert pins_in_clear(tmp_path / "settings.toml", UMPIRE, DIRECTOR) == []
    umpire = fresh.settings.umpire
    assert check_pin(UMPIRE, umpire.pin_hash) and check_pin(DIRECTOR, umpire.director_pin_hash)
    assert stat.S_IMODE((tmp_path / "settings.toml").stat().st_mode) == 0o640
    # The director changes them from the settings (after the director's PIN).
    kiosk.tap("settings")
    type_pin(kiosk, DIRECTOR)
    kiosk.tap("change_pins")
    assert kiosk.current == "pins"
    pad = kiosk.screen().ids.pad
    for pin in ("2468", "2468", "9753", "9753"):
        type_pin(kiosk, pin, pad)
    assert kiosk.current == "settings"
    umpire = fresh.settings.umpire
    assert check_pin("2468", umpire.pin_hash) and check_pin("9753", umpire.director_pin_hash)


def test_roles_bhukhar_scoresheet_is_the_umpires_locked_after_idle(kiosk: Kiosk) -> None:
    """The Bhukhar round timer and scoresheet take the umpire's PIN like the carrom console:
    a locked console changes nothing, the PIN lets the same tap through."""
    kiosk.tap("bhukhar")
    kiosk.tap("start")  # a new session: the umpire's PIN
    type_pin(kiosk, UMPIRE)
    assert kiosk.current == "bhukhar"
    screen = kiosk.screen()
    gate = kiosk.app.gate
    kiosk.tap("start_round")
    assert not gate.is_open and screen.round_no == 1
    kiosk.advance(6 * 60.0)  # idle: the console locks, the round timer runs on
    assert screen.clock_face == "24:00"
    side_a = screen.ids.side_0
    kiosk.tap(side_a.ids.points_p50)
    assert gate.is_open and screen.points[0] == 0
    type_pin(kiosk, "0000")
    assert gate.pad.message == "Wrong PIN: nothing was changed" and screen.points[0] == 0
    type_pin(kiosk, UMPIRE)
    assert not gate.is_open and screen.points[0] == 50
    kiosk.advance(6 * 60.0)
    kiosk.tap("pause")
    assert gate.is_open and not screen.paused
    type_pin(kiosk, UMPIRE)
    assert screen.paused


# -- the role bypasses, by taps -------------------------------------------------------------


def _void_asked(kiosk: Kiosk) -> Any:
    """A carrom board under way, and the director's void asked: its confirmation open."""
    screen = _start_carrom(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("void")
    type_pin(kiosk, DIRECTOR)
    assert screen.confirm_action == "void_board" and not kiosk.app.gate.is_open
    return screen


def test_roles_settings_and_pins_close_when_the_console_locks(kiosk: Kiosk) -> None:
    """The settings the director left open stayed open after the lock, and a player
    changed both PINs. Locked, the console goes home; the settings ask again."""
    kiosk.tap("settings")
    type_pin(kiosk, DIRECTOR)
    assert kiosk.current == "settings"
    kiosk.advance(5 * 60.0)  # idle: the console locks
    assert kiosk.current == "home"
    kiosk.tap("settings")
    assert kiosk.app.gate.is_open and kiosk.app.gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, DIRECTOR)
    kiosk.tap("change_pins")
    assert kiosk.current == "pins"
    kiosk.app.gate.lock("display")  # the player display shown
    kiosk.advance(0.1)
    assert kiosk.current == "home"


def test_roles_a_confirmation_closes_when_the_console_locks(kiosk: Kiosk) -> None:
    """A void confirmation opened with the director's PIN stayed open through the
    lock, and a tap 30 minutes later voided the board as the director's act."""
    screen = _void_asked(kiosk)
    kiosk.advance(30 * 60.0)  # idle: locked
    assert screen.confirm_action == ""  # the dialog is gone
    assert [e["event"] for e in confirmed_events(screen.session)] == ["stroke"]
    kiosk.tap("void")  # asked again: the director's PIN again
    assert kiosk.app.gate.is_open and kiosk.app.gate.pad.message == "This needs the director's PIN"


def test_roles_a_directors_confirmation_is_checked_again_when_tapped(kiosk: Kiosk) -> None:
    """The PIN opened the confirmation; the Yes carries the act out, and is checked then: two
    minutes later (the director's window over, the console still the umpire's) the PIN pad
    asks again, and the void is made only after it."""
    screen = _void_asked(kiosk)
    kiosk.advance(121.0)
    kiosk.tap("confirm_yes")
    gate = kiosk.app.gate
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    assert [e["event"] for e in confirmed_events(screen.session)] == ["stroke"]
    type_pin(kiosk, DIRECTOR)
    assert [e["event"] for e in confirmed_events(screen.session)] == ["stroke", "void_board"]
    session = screen.session
    voids = session.journal.entries(session.match_id, ["event"])
    assert [e.source for e in voids] == ["umpire", "director"]


def test_roles_a_new_match_over_an_unfinished_one_is_the_directors(kiosk: Kiosk) -> None:
    """Starting a new match as umpire closed the unfinished one, unasked. Home asks
    first, and Start then needs the director's PIN; the close is journaled with the role."""
    screen = _start_carrom(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    old = screen.session.match_id
    kiosk.tap("home")
    kiosk.tap("carrom_icf")
    assert kiosk.current == "home" and "A new one closes it" in kiosk.screen().ask_text
    kiosk.tap("ask_go")
    kiosk.tap("start")
    gate = kiosk.app.gate
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, UMPIRE)
    assert gate.pad.message == "That is not the director's PIN: nothing was changed"
    assert kiosk.services.journal().unfinished("carrom").id == old  # still there
    type_pin(kiosk, DIRECTOR)
    assert kiosk.current == "carrom" and screen.session.match_id != old
    journal = kiosk.services.journal()
    closed = journal.entries(old, ["closed"])
    assert [(e.source, e.data) for e in closed] == [("director", {"why": "new_match"})]
    assert journal.match(old).finished


def test_roles_the_directors_settings_session_ends_when_settings_close(kiosk: Kiosk) -> None:
    """The director's PIN typed for Settings (to calibrate the camera) served every later tap
    too: the strokes the umpire confirmed afterwards were journaled as the director's
    corrections. Leaving Settings ends the director's window; the console stays the umpire's."""
    screen = _start_carrom(kiosk)
    kiosk.tap("home")
    kiosk.tap("settings")
    type_pin(kiosk, DIRECTOR)
    assert kiosk.current == "settings"
    kiosk.tap("back")
    assert kiosk.current == "home"
    kiosk.tap("resume")
    assert kiosk.current == "carrom" and not kiosk.app.gate.is_open  # still the umpire's
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    journal = kiosk.services.journal()
    match_id = screen.session.match_id
    strokes = [e for e in journal.entries(match_id, ["event"]) if e.data["event"] == "stroke"]
    assert [e.source for e in strokes] == ["umpire"]
    notes = [n["what"] for n in _notes(kiosk.services)]
    assert "director_done" in notes
    kiosk.tap("void")  # a director's act asks for the director's PIN again
    assert kiosk.app.gate.is_open
    assert kiosk.app.gate.pad.message == "This needs the director's PIN"


def test_roles_settings_saves_and_pin_changes_are_journaled_with_the_role(
    kiosk: Kiosk,
) -> None:
    """PIN changes and settings saves were not journaled. Each is an entry with the
    director's role, naming what changed, never a PIN or its hash."""
    kiosk.tap("settings")
    type_pin(kiosk, DIRECTOR)
    kiosk.tap(kiosk.widget("stroke_s").ids.plus)
    kiosk.tap("save")
    kiosk.tap("change_pins")
    pad = kiosk.screen().ids.pad
    for pin in ("2468", "2468", "9753", "9753"):
        type_pin(kiosk, pin, pad)
    assert kiosk.current == "settings"
    journal = kiosk.services.journal()
    acts = [(e.kind, e.source, e.data) for e in journal.entries(None, ["settings", "pins"])]
    assert acts[0] == ("settings", "director", {"changed": ["timers.stroke_s"]})
    assert acts[1] == ("pins", "director", {"what": "changed"})
    assert all("2468" not in str(a) and "pbkdf2" not in str(a) for a in acts)
