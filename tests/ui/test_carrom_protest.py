"""Protests at the carrom console by real taps (laws 144-151): a player cannot
protest at a locked console; the umpire lodges one (the side, the board, the words, the
fee's receipt); play goes on and the result line says "under protest"; the umpire cannot
decide it; the director upholds it and the table goes back to the start of the protested
board, showing what was set aside; the board is replayed. A late protest is refused with
law 146."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .harness import (
    DIRECTOR_PIN,
    UMPIRE_PIN,
    FakeClock,
    Kiosk,
    Services,
    confirmed_events,
    name_players,
    pinned,
    pump,
    type_pin,
    win_board,
)

UMPIRE, DIRECTOR = UMPIRE_PIN, DIRECTOR_PIN


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    # Each director's act asks the PIN (no window).
    return pinned(tmp_path, fake_clock, lock_after_min=30.0, director_window_s=0.0)


def _type(kiosk: Kiosk, field: Any, text: str) -> None:
    """Tap a text field and type `text` into it (the X server's keyboard)."""
    kiosk.tap(field)
    subprocess.run(["xdotool", "type", "--delay", "15", text], check=True, timeout=30)
    deadline = time.monotonic() + 10
    while field.text != text and time.monotonic() < deadline:
        pump(1)
    assert field.text == text


def _start(kiosk: Kiosk) -> Any:
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Asha", "Bina")
    kiosk.tap("break_0")
    kiosk.tap("start")
    type_pin(kiosk, UMPIRE)  # a new match is the umpire's
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _events(screen: Any) -> list[tuple[str, str]]:
    s = screen.session
    return [(e.source, e.data["event"]) for e in s.journal.entries(s.match_id, ["event"])]


def test_law_150_151_a_protest_play_on_the_director_upholds_the_board_is_replayed(
    kiosk: Kiosk,
) -> None:
    screen = _start(kiosk)
    gate = kiosk.app.gate
    panel = screen.protests
    win_board(screen.session)  # Asha clears board 1 (the table's commands)
    kiosk.advance(60.0)
    # A player at a locked console: the umpire's PIN is asked, nothing is lodged.
    kiosk.tap("players")  # the player display shown: the console locks
    kiosk.app.show("carrom")
    kiosk.tap("protest")
    assert gate.is_open and gate.pad.message == "Locked: the umpire's PIN unlocks the console"
    kiosk.tap(gate.pad.ids.pad_cancel)
    assert not panel.shown
    kiosk.tap("protest")
    type_pin(kiosk, UMPIRE)
    assert panel.shown and panel.boards == [[1, 1]]
    kiosk.tap(panel.ids.protest_side_1)  # Bina protests
    kiosk.tap(panel.ids.protest_board_0)
    kiosk.tap(panel.ids.protest_lodge)  # no fee yet: refused with law 145
    assert "law 145" in panel.error and panel.shown
    _type(kiosk, panel.ids.protest_words, "The queen was covered after the striker left")
    _type(kiosk, panel.ids.protest_receipt, "R-17")
    kiosk.shot("protest_panel")
    kiosk.tap(panel.ids.protest_lodge)
    assert not panel.shown
    assert _events(screen)[-1] == ("umpire", "protest")
    lodged = screen.session.journal.entries(screen.session.match_id, ["event"])[-1].data
    assert (lodged["words"], lodged["receipt"], lodged["by"]) == (
        "The queen was covered after the striker left",
        "R-17",
        "Bina",
    )
    assert screen.protest_waiting and "60 min left" in screen.ids.protest.text
    assert "under protest" in screen.title
    # Play goes on (150): board 2, Bina's break.
    kiosk.tap("white_plus")
    kiosk.tap("black_plus")
    kiosk.tap("confirm")
    assert _events(screen)[-1] == ("umpire", "stroke")
    kiosk.advance(630.0)
    assert "50 min left" in screen.ids.protest.text  # the officials' hour (151 c)
    # The umpire cannot decide it: the director's PIN is asked.
    kiosk.tap("protest")
    assert "waiting, 50 min left of the hour (law 151 c)" in panel.ids.protest_lines.text
    kiosk.tap(panel.ids.decide_0)
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, UMPIRE)
    assert gate.pad.message == "That is not the director's PIN: nothing was changed"
    type_pin(kiosk, DIRECTOR)
    box = screen.decision
    assert box.asking and box.uphold_text == (
        "The protest is upheld: 2 board(s) set aside, the scores worked out again without "
        "them; Asha breaks board 1 of game 1 again (law 151 a)"
    )
    assert box.reject_text == "The protest is rejected: the result of the board stands (law 151 b)"
    kiosk.shot("protest_decision")
    kiosk.tap(box.ids.decide_uphold)
    assert not box.asking and not panel.shown
    assert _events(screen)[-1] == ("director", "protest_decided")
    state = screen.session.view().state
    assert (state.now.game, state.now.board, state.now.breaker) == (1, 3, "Asha")
    # What was set aside: the banner and the sheet.
    assert "upheld: 2 board(s) set aside" in screen.ids.banner.text
    assert [r[6] for r in screen.sheet_rows][:2] == ["set aside: protest upheld (law 151 a)"] * 2
    assert not screen.protest_waiting and screen.ids.protest.text == "Protest"
    assert screen.title.startswith("Game 1 · Board 1/8 · 2 set aside")  # not counted (151 a)
    kiosk.shot("protest_upheld")
    # The board is replayed: Asha's break again.
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    assert _events(screen)[-1] == ("umpire", "stroke")
    assert confirmed_events(screen.session)[-1]["pocketed"] == ["white"]
    assert screen.session.view().state.games[0].boards[2].breaker == "Asha"


def test_law_146_a_late_protest_is_refused_with_its_law(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    panel = screen.protests
    win_board(screen.session)
    kiosk.advance(16 * 60.0)  # more than 15 minutes after the board's end
    kiosk.tap("protest")
    assert panel.shown and panel.boards == []
    assert panel.late == (
        "Board 1 of game 1 ended 16 minutes ago: a protest is lodged within 15 minutes (law 146)"
    )
    assert panel.ids.protest_lodge.disabled
    kiosk.tap(panel.ids.protest_close)
    assert not panel.shown and _events(screen)[-1] == ("umpire", "stroke")


def test_law_150_play_over_under_protest_until_the_director_rejects_it(kiosk: Kiosk) -> None:
    """The match won on the board with a protest waiting: the result line says so and
    Confirm is off (play is over); the rejection declares the result (151 b)."""
    screen = _start(kiosk)
    panel = screen.protests
    session = screen.session
    win_board(session)
    from kiosk.access.authority import Role
    from kiosk.tables.commands import Command

    session.send(Command.of("concede", Role.DIRECTOR, by="Bina"))
    session.send(
        Command.of("protest", Role.UMPIRE, by="Bina", board=(1, 1), words="w", receipt="R")
    )
    pump(4)
    assert screen.ids.banner.text.startswith(
        "Asha won on the board: under protest, no result is declared (law 150)"
    )
    assert screen.ids.confirm.disabled
    kiosk.tap("protest")
    kiosk.tap(panel.ids.decide_0)
    type_pin(kiosk, DIRECTOR)
    assert screen.decision.reject_text.endswith("; Asha wins the match")
    kiosk.tap(screen.decision.ids.decide_reject)
    assert _events(screen)[-1] == ("director", "protest_decided")
    assert screen.ids.banner.text.startswith("Asha wins the match")
    assert session.journal.match(session.match_id).finished
