"""The serial player display shows what the screen's player display shows:
the kiosk is started as `tableside run --simulate` starts it, so its player display is the
simulated board on a pseudo-terminal, fed frames by the real driver over pyserial. A carrom
match is played with real taps; at each step the frame the board acknowledged holds the
players screen's points, games, queen, turn and timer, and the sides' Latin initials."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from drivers.display_protocol import DisplayFrame
from kiosk.startup import Kiosk as Started
from kiosk.startup import start_kiosk
from tests.waiting import wait_until

from .harness import FakeClock, Kiosk, make_kiosk

QUEEN = {"O": "Queen on the board", "P": "Queen pocketed, to cover"}


@pytest.fixture
def simulated(tmp_path: Path, fake_clock: FakeClock) -> Iterator[tuple[Kiosk, Started]]:
    config = tmp_path / "settings.toml"
    # The board carries the score (protocol v2 has no blank score): shown here as the screen's
    # under the ICF laws only where the tournament allows it (law 128).
    config.write_text('[camera]\nsource = "none"\n[players]\nicf_score = true\n', encoding="utf-8")
    started = start_kiosk(config, tmp_path / "data", simulate=True, clock=fake_clock)
    try:
        for kiosk in make_kiosk(started.services.but(authority=None, ask_pins=False), fake_clock):
            yield kiosk, started
    finally:
        started.close()


def _board_shows(kiosk: Kiosk, started: Started) -> DisplayFrame:
    """The frame the serial board acknowledged, once it is the latest the kiosk made."""
    sim = started.parts.display_sim
    display = started.parts.display
    assert sim is not None and display is not None
    kiosk.advance(0.1)
    assert wait_until(lambda: sim.shown is not None and sim.shown == display.link.frame)
    assert sim.shown is not None
    return sim.shown


def _same(screen: Any, frame: DisplayFrame) -> None:
    assert (screen.left_score, screen.right_score) == (str(frame.left), str(frame.right))
    assert (screen.left_turn, screen.right_turn) == (frame.turn == "L", frame.turn == "R")
    assert f"Games {frame.games}" in screen.status
    assert QUEEN[frame.queen] in screen.status
    assert screen.big == (frame.clock if frame.clock != "-" else "")


def test_the_serial_board_shows_what_the_players_screen_shows(
    simulated: tuple[Kiosk, Started],
) -> None:
    kiosk, started = simulated
    kiosk.app.show("home")
    kiosk.tap("carrom_icf")
    kiosk.tap("start")  # Player A breaks against Player B
    console = kiosk.screen()
    players = kiosk.screen("players")
    players.show_game(console.session)
    kiosk.tap("play")
    kiosk.app.show("players")
    frame = _board_shows(kiosk, started)
    assert (frame.left_name, frame.right_name) == ("PA", "PB")  # the sides' initials
    assert (frame.board, frame.games, frame.queen, frame.message) == (1, "0-0", "O", "BREAK")
    assert frame.clock == "15" and frame.turn == "L"  # the stroke timer (law 50) runs
    _same(players, frame)
    kiosk.shot("players_beside_the_serial_board")
    kiosk.app.show("carrom")
    kiosk.tap("white_plus")
    kiosk.tap("queen_in")
    kiosk.tap("confirm")  # a coin and the queen: the queen is to be covered
    kiosk.app.show("players")
    frame = _board_shows(kiosk, started)
    assert frame.queen == "P" and frame.message == "COVER QUEEN" and frame.turn == "L"
    _same(players, frame)
