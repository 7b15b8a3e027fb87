"""Rule 17's penalties and the player who laid the licence, entered by real taps on the
Bhukhar table: shown before the game is entered, in the game's line, the standings and the
record; a refused game (rule 17.1, or a layer named for a licence not laid) loses nothing."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from kiosk.access.authority import Role
from kiosk.tables.bhukhar_draft import Draft
from kiosk.tables.commands import Command

from .harness import Kiosk, pump


def _record(screen: Any) -> list[str]:
    return list(screen.table.export().splitlines())


def _start(kiosk: Kiosk) -> Any:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("start_round")
    return screen


def test_bhukhar_rule_17_3_penalty_by_taps_in_the_game_line_standings_and_record(
    kiosk: Kiosk,
) -> None:
    screen = _start(kiosk)
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    # Totals: A went out with 215 on the table and took the bhukhar; B 120 down, 25 in hand
    # (the steppers by taps: tests/ui/test_bhukhar.py; here the draft by the table's command).
    for what, side, points in (("points", 0, 215), ("points", 1, 120), ("hand", 1, 25)):
        change = partial(Draft.step, what=what, side=side, delta=points)
        screen.table.send(Command.of("edit", Role.UMPIRE, change=change))
    pump(2)
    kiosk.tap("bhukhar")
    # Who laid each licence: the chips name the team's three players.
    assert [side_a.ids[f"by_{i}"].text for i in range(3)] == ["A1", "A2", "A3"]
    kiosk.tap(side_a.ids.by_1)
    kiosk.tap(side_b.ids.by_2)
    kiosk.tap(side_b.ids.by_0)  # a slip put right: one layer a team
    assert screen.licence_by == [1, 0]
    assert side_a.ids.by_1.chosen and side_b.ids.by_0.chosen and not side_b.ids.by_2.chosen
    # Rule 17.3: a player of B asked a hand size out of turn.
    assert screen.penalty_summary == "No penalties (rule 17)"
    kiosk.tap("penalties")
    assert screen.pen_open
    kiosk.tap("pen_add")  # no penalty chosen yet: refused, nothing added
    assert screen.penalties == [] and screen.pen_message.startswith("Choose the penalty first")
    kiosk.tap("pen_side_1")
    assert [screen.ids[f"pen_player_{i}"].text for i in range(3)] == ["B1", "B2", "B3"]
    kiosk.tap("pen_ask")
    kiosk.tap("pen_player_1")
    kiosk.tap("pen_add")
    assert screen.pen_lines == "1. B: Asking a hand size out of turn (15, 17.3), B2: -50"
    kiosk.tap("pen_add")  # a second tap adds nothing: the choice was cleared
    assert len(screen.penalties) == 1 and screen.pen_message
    kiosk.tap("pen_unfair")  # a slip, added and taken back
    kiosk.tap("pen_add")
    assert len(screen.penalties) == 2
    kiosk.tap("pen_take_back")
    assert screen.penalties == [[1, "ask", 1]]
    kiosk.shot("bhukhar_penalties_panel")
    kiosk.tap("pen_done")
    assert not screen.pen_open
    # Shown on the game's screen before it is entered.
    assert screen.ids.penalty_summary.text == "Penalties: B ask (B2) -50"
    kiosk.shot("bhukhar_penalty_before_entry")
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    # A: 215 + licence 50 + bhukhar 50 + closing 50; B: 120 - 25 + licence 50 - 50.
    assert screen.message == (
        "Table 1 entered. A: 365 pts, 2 master; B: 95 pts (penalties -50), 0 master"
    )
    assert screen.standings.splitlines() == [
        "1. A   master 2   bonus 3   best 365   games 1",
        "2. B   master 0   bonus 1   best 95   games 1",
    ]
    ((_, result),) = screen.table.games()
    assert result.score("B").penalties == -50 and result.score("A").penalties == 0
    line = json.loads(_record(screen)[-1])
    assert line["penalties"] == [{"team": "B", "kind": "ask", "player": "B2"}]
    assert line["teams"]["A"] == {"licence": True, "table": 215, "hand": 0, "licence_by": "A2"}
    assert line["teams"]["B"]["licence_by"] == "B1"
    kiosk.shot("bhukhar_penalty_entered")
    # Ready for the next game: no penalties, no layers named.
    assert screen.penalties == [] and screen.licence_by == [-1, -1]
    assert screen.penalty_summary == "No penalties (rule 17)"


def test_bhukhar_rule_17_1_false_licence_player_may_not_lay_it_refused_then_entered(
    kiosk: Kiosk,
) -> None:
    screen = _start(kiosk)
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    # A in full: a seven-card sequence as its licence (13.1, 13.4), laid by A1.
    kiosk.tap(side_a.ids.full)
    kiosk.tap(side_a.ids.cards)
    for card in ("3S", "4S", "5S", "6S", "7S", "8S", "9S"):
        kiosk.tap(screen.ids.card_grid.buttons[card])
    kiosk.tap("close_meld")
    kiosk.tap("cards_done")
    kiosk.tap(side_a.ids.by_0)
    # B as totals: no licence, 30 in hand; the umpire names B1 as its layer by mistake.
    kiosk.tap(side_b.ids.licence)
    for _ in range(3):
        kiosk.tap(side_b.ids.hand_p10)
    kiosk.tap(side_b.ids.by_0)
    kiosk.tap("end_stock")  # the stock ran out (16.2): nobody closed
    # Rule 17.1: A1 had shown a false licence earlier in the game: 100 to B.
    kiosk.tap("penalties")
    kiosk.tap("pen_side_0")
    kiosk.tap("pen_false_licence")
    assert screen.ids.pen_false_licence.text.endswith("+100 to team B")
    kiosk.tap("pen_player_0")
    kiosk.tap("pen_add")
    kiosk.tap("pen_done")
    assert screen.ids.penalty_summary.text == "Penalties: A false licence (A1) +100 to B"
    before = _record(screen)
    kiosk.tap("enter")
    assert screen.refused
    assert screen.message == (
        "Not entered: team B: B1 is named as laying the licence, but the team has no "
        "licence (rule 13.4): take the name off or enter the licence"
    )
    kiosk.tap(side_b.ids.by_0)  # the name taken off
    assert screen.licence_by == [0, -1]
    kiosk.tap("enter")
    assert screen.refused
    assert screen.message == (
        "Not entered: A1 showed a false licence and may not lay the licence in this game "
        "(rule 17.1)"
    )
    kiosk.shot("bhukhar_false_licence_refused")
    # Nothing written, nothing the umpire entered lost.
    assert _record(screen) == before and screen.table.games() == []
    assert screen.penalties == [[0, "false_licence", 0]]
    assert screen.cards[0].licence == (("3S", "4S", "5S", "6S", "7S", "8S", "9S"),)
    assert screen.hand == [0, 30] and screen.licence == [True, False]
    # A2 laid the licence after all.
    kiosk.tap(side_a.ids.by_1)
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    # A: 300 + licence 50; B: -30 in hand + 100 for A's false licence.
    assert screen.message == (
        "Table 1 entered. A: 350 pts, 2 master; B: 70 pts (penalties +100), 0 master"
    )
    line = json.loads(_record(screen)[-1])
    assert line["end"] == "stock" and line["bhukhar"] is None
    assert line["teams"]["A"]["licence_by"] == "A2"
    assert line["teams"]["A"]["licence"] == [["3S", "4S", "5S", "6S", "7S", "8S", "9S"]]
    assert "licence_by" not in line["teams"]["B"]
    assert line["penalties"] == [{"team": "A", "kind": "false_licence", "player": "A1"}]
    assert screen.standings.splitlines()[1] == "2. B   master 0   bonus 0   best 70   games 1"


def test_bhukhar_penalty_follows_its_side_when_the_team_changes(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("teams_plus")  # three teams
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("penalties")
    kiosk.tap("pen_side_1")
    kiosk.tap("pen_signal")
    kiosk.tap("pen_add")
    kiosk.tap("pen_done")
    assert screen.ids.penalty_summary.text == "Penalties: B signal -50"
    kiosk.tap(screen.ids.side_1.ids.team)  # side two is team C, not B
    assert screen.ids.side_1.ids.by_0.text == "C1"
    assert screen.ids.penalty_summary.text == "Penalties: C signal -50"


def test_bhukhar_penalties_and_layer_chips_fit_an_800x480_screen(kiosk: Kiosk) -> None:
    from kivy.core.window import Window

    from .harness import pump

    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    Window.size = (800, 480)
    try:
        pump(10)
        sides = (screen.ids.side_0, screen.ids.side_1)

        def in_sight(widgets: list[Any]) -> None:
            for w in widgets:
                x, y = w.to_window(w.x, w.y)
                assert x >= 0 and x + w.width <= 800 and y >= 0 and y + w.height <= 480, w.text
                assert w.height >= 36, f"{w.text} is {w.height:.0f} px high: too small to tap"

        # At 800x480 the entry column scrolls (48 px targets): its top in sight at first,
        # Penalties and Enter once scrolled to the bottom.
        in_sight([s.ids[f"by_{i}"] for s in sides for i in range(3)])
        screen.ids.entry_scroll.scroll_y = 0
        pump(6)
        in_sight([screen.ids.penalties, screen.ids.enter])
        kiosk.tap("penalties")
        pump(6)
        panel = [screen.ids[i] for i in ("pen_side_0", "pen_side_1", "pen_add", "pen_done")]
        panel += [screen.ids[f"pen_{k}"] for k in ("signal", "ask", "unfair", "false_licence")]
        panel += [screen.ids[f"pen_player_{i}"] for i in ("none", "0", "1", "2")]
        in_sight(panel)
        for w in panel[4:8]:  # the penalty's words fit inside its chip
            assert w.texture_size[1] <= w.height, f"{w.text!r} overflows its chip"
        kiosk.tap("pen_unfair")
        kiosk.tap("pen_add")
        assert screen.pen_lines == "1. A: Unfair play (17.5): -100"
        kiosk.shot("bhukhar_penalties_800x480")
    finally:
        Window.size = (1024, 600)
        pump(10)
