"""The console's authority (kiosk/access/authority.py), pure and on a fake time: who may do what,
the PIN's unlock, the idle lock, the director's window, the back-off, and the notes."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kiosk.access.authority import (
    ACTIONS,
    BACKOFF_MAX_S,
    BACKOFF_S,
    FREE_TRIES,
    GRANT_S,
    KIOSK_ACTIONS,
    Authority,
    Note,
    Role,
    needs,
)

UMPIRE, DIRECTOR = "1357", "8642"


@dataclass
class Desk:
    """An Authority with its notes and the PIN checks it made."""

    idle_s: float = 300.0
    director_s: float = 120.0
    notes: list[Note] = field(default_factory=list)
    checks: int = 0

    def __post_init__(self) -> None:
        self.a = Authority(
            self.check, idle_s=self.idle_s, director_s=self.director_s, note=self.notes.append
        )

    def check(self, role: Role, pin: str) -> bool:
        self.checks += 1
        return pin == (DIRECTOR if role is Role.DIRECTOR else UMPIRE)


def test_roles_a_locked_console_lets_players_press_their_clock_and_nothing_else() -> None:
    d = Desk()
    assert d.a.role(0.0) is Role.PLAYER
    assert d.a.may("press", 1.0)
    for action in ("confirm", "foul", "undo", "stop_clock", "void_board", "settings"):
        assert not d.a.may(action, 1.0)
    assert [n.what for n in d.notes] == ["refused"] * 6
    assert d.notes[0] == Note(1.0, "refused", "player", "confirm", "needs the umpire")


def test_roles_umpire_pin_unlocks_the_umpires_actions_not_the_directors() -> None:
    d = Desk()
    assert d.a.enter(UMPIRE, Role.UMPIRE, 10.0).role is Role.UMPIRE
    assert d.a.may("confirm", 11.0) and d.a.may("undo", 12.0) and d.a.may("dues_placed", 13.0)
    for action in ("void_board", "forfeit_board", "concede", "adjust", "overrule"):
        assert not d.a.may(action, 14.0)
    attempt = d.a.enter(UMPIRE, Role.DIRECTOR, 15.0, "void_board")
    assert attempt.role is None and attempt.reason == "wrong_role"
    assert not d.a.may("void_board", 16.0)


def test_roles_director_pin_opens_a_window_then_asks_again() -> None:
    d = Desk(director_s=120.0)
    assert d.a.enter(DIRECTOR, Role.DIRECTOR, 0.0, "void_board").role is Role.DIRECTOR
    assert d.a.may("void_board", 0.0)
    assert d.a.may("adjust", 119.0)
    assert not d.a.may("overrule", 120.0)  # the window is over; the umpire's console stays
    assert d.a.may("confirm", 121.0)
    # An allowed action is journaled by the table with its role: the gate notes nothing.
    assert not [n for n in d.notes if n.what == "allowed"]
    assert d.a.enter(DIRECTOR, Role.DIRECTOR, 130.0, "adjust").role is Role.DIRECTOR
    assert d.a.allows(Role.DIRECTOR, "adjust", 131.0) is Role.DIRECTOR
    assert d.a.allows(Role.UMPIRE, "confirm", 132.0) is Role.DIRECTOR  # the window's role


def test_roles_backgammon_players_run_their_own_clock_the_director_the_rest() -> None:
    """RULES.md, rulings of 2026-11-27: a backgammon table has no umpire. At a locked
    console the players press, pause, resume, restart the delay, start and end a game."""
    d = Desk()
    for action in ("press", "start", "pause", "resume_clock", "restart_delay", "game_end"):
        assert needs(action) is Role.PLAYER and d.a.may(action, 1.0), action
    d.a.enter(UMPIRE, Role.UMPIRE, 2.0)
    for action in (
        "adjust", "overrule", "penalty", "late", "take_break", "correct_score", "match_length"
    ):  # fmt: skip
        assert needs(action) is Role.DIRECTOR and not d.a.may(action, 3.0), action


def test_roles_director_window_zero_allows_one_action_per_pin() -> None:
    d = Desk(director_s=0.0)
    d.a.enter(DIRECTOR, Role.DIRECTOR, 5.0, "concede")
    assert d.a.may("concede", 5.0)
    assert not d.a.may("concede", 5.0)  # the next one asks again
    d.a.enter(DIRECTOR, Role.DIRECTOR, 6.0, "void_board")
    assert not d.a.may("concede", 6.0)  # the PIN was typed for another action


def test_roles_console_locks_after_idle_minutes_from_the_last_action() -> None:
    d = Desk(idle_s=300.0)
    d.a.enter(UMPIRE, Role.UMPIRE, 0.0)
    assert d.a.may("confirm", 299.0)  # an action starts the idle time again
    assert d.a.role(598.9) is Role.UMPIRE
    assert d.a.role(599.0) is Role.PLAYER
    assert not d.a.may("confirm", 600.0)
    assert d.notes[-2] == Note(599.0, "lock", "player", "", "idle")


def test_roles_showing_the_player_display_locks_and_closes_the_directors_window() -> None:
    d = Desk()
    d.a.enter(DIRECTOR, Role.DIRECTOR, 0.0)
    d.a.lock(1.0, "display")
    assert d.a.role(2.0) is Role.PLAYER and not d.a.may("void_board", 2.0)
    d.a.lock(3.0, "display")  # already locked: nothing more to note
    assert [n.reason for n in d.notes if n.what == "lock"] == ["display"]


def test_roles_backoff_after_five_wrong_pins_doubles_up_to_an_hour() -> None:
    d = Desk()
    now = 0.0
    for _ in range(FREE_TRIES - 1):
        assert d.a.enter("0000", Role.UMPIRE, now).wait_s == 0.0
    waits = []
    for _ in range(10):
        attempt = d.a.enter("0000", Role.UMPIRE, now)
        assert attempt.role is None and attempt.reason == "wrong"
        waits.append(attempt.wait_s)
        now += attempt.wait_s
    assert waits[:4] == [BACKOFF_S, 2 * BACKOFF_S, 4 * BACKOFF_S, 8 * BACKOFF_S]
    assert max(waits) == BACKOFF_MAX_S
    assert d.a.enter(UMPIRE, Role.UMPIRE, now).role is Role.UMPIRE  # the right one: over
    assert d.a.failures == 0


def test_roles_no_pin_is_even_checked_during_the_backoff() -> None:
    d = Desk()
    for _ in range(FREE_TRIES):
        d.a.enter("0000", Role.UMPIRE, 0.0)
    checks = d.checks
    attempt = d.a.enter(UMPIRE, Role.UMPIRE, 10.0)
    assert attempt.role is None and attempt.reason == "backoff" and attempt.wait_s == 20.0
    assert d.checks == checks and d.a.role(10.0) is Role.PLAYER
    assert d.notes[-1] == Note(10.0, "refused", "player", "", "backoff")
    assert d.a.enter(UMPIRE, Role.UMPIRE, 30.0).role is Role.UMPIRE


def test_roles_an_action_nobody_listed_needs_the_director() -> None:
    assert needs("format_the_disk") is Role.DIRECTOR
    assert set(ACTIONS.values()) == set(Role)
    assert ACTIONS.keys() >= KIOSK_ACTIONS  # the kiosk's own acts need a role too


def test_roles_limits_must_make_sense() -> None:
    with pytest.raises(ValueError, match="idle_s"):
        Authority(lambda _r, _p: False, idle_s=0.0, director_s=120.0)


# -- properties ------------------------------------------------------------------------------

_ops = st.lists(
    st.one_of(
        st.tuples(
            st.just("wait"),
            st.one_of(
                st.sampled_from([1.0, 59.0, 61.0, 119.0, 121.0, 299.0, 320.0]), st.floats(0, 400)
            ),
        ),
        st.tuples(st.just("may"), st.sampled_from(sorted(ACTIONS))),
        st.tuples(
            st.just("pin"),
            st.sampled_from([UMPIRE, DIRECTOR, "0000"]),
            st.sampled_from([Role.UMPIRE, Role.DIRECTOR]),
        ),
        st.tuples(st.just("lock")),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_ops, st.sampled_from([0.0, 60.0, 120.0]))
@example([("pin", UMPIRE, Role.UMPIRE), ("wait", 320.0), ("may", "confirm")], 0.0)
@example([("pin", DIRECTOR, Role.DIRECTOR), ("wait", 61.0), ("may", "adjust")], 60.0)
def test_roles_property_no_action_beyond_the_pin_typed_and_every_refusal_noted(
    ops: list[tuple[object, ...]], director_s: float
) -> None:
    d = Desk(idle_s=300.0, director_s=director_s)
    now = 0.0
    # What the PINs typed allow, kept apart from the model: the last good PIN and its time.
    unlocked_at: float | None = None
    last_action = 0.0
    director_at: float | None = None
    granted = ""
    for op in ops:
        kind = op[0]
        if kind == "wait":
            now += float(op[1])  # type: ignore[arg-type]
        elif kind == "lock":
            d.a.lock(now, "display")
            unlocked_at = director_at = None
            granted = ""
        elif kind == "pin":
            pin, wanted = str(op[1]), op[2]
            waiting = d.a.wait_s(now) > 0
            checks = d.checks
            attempt = d.a.enter(pin, wanted, now, "void_board")  # type: ignore[arg-type]
            if waiting:
                assert attempt.reason == "backoff" and d.checks == checks
            elif pin == DIRECTOR or (pin == UMPIRE and wanted is Role.UMPIRE):
                assert attempt.role is not None
                unlocked_at = last_action = now
                if pin == DIRECTOR:
                    director_at, granted = now, "void_board"
            else:
                assert attempt.role is None
            if unlocked_at is not None and d.a.role(now) is Role.PLAYER:
                unlocked_at = director_at = None
        else:
            action = str(op[1])
            if unlocked_at is not None and now - last_action >= 300.0:
                unlocked_at = director_at = None  # idle
            notes = len(d.notes)
            ok = d.a.may(action, now)
            role = needs(action)
            if role is Role.PLAYER:
                assert ok
            elif role is Role.UMPIRE:
                assert ok == (unlocked_at is not None)
            else:
                in_window = director_at is not None and now < director_at + director_s
                once = (
                    unlocked_at is not None
                    and granted == action
                    and director_at is not None
                    and now < director_at + max(director_s, GRANT_S)  # the PIN's own action
                )
                assert ok == (unlocked_at is not None and (in_window or once))
            granted = ""
            if ok and unlocked_at is not None:
                last_action = now
            new = [n for n in d.notes[notes:] if n.what != "lock"]
            if not ok:
                assert [n.what for n in new] == ["refused"] and new[0].action == action
            else:  # allowed: the table journals the command with its role, not the gate
                assert new == []
