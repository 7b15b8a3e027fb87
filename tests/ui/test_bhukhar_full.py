"""A Bhukhar game entered in full by real taps: each team's licence, melds, void melds and
hand on the 52-card panel (rules 9, 12, 13, 17.2, 18), a game the rules refuse with the
reason named and nothing lost, then the corrected game and the standings (rule 19)."""

from __future__ import annotations

import json

from .harness import Kiosk, meld, tap_cards


def test_bhukhar_full_entry_by_taps_refused_then_entered(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("start_round")
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    # Team A went out: a seven-card sequence as its licence (13.1, 13.4), then Q K A.
    kiosk.tap(side_a.ids.full)
    assert screen.full == [True, False] and side_a.ids.licence.disabled
    kiosk.tap(side_a.ids.cards)
    assert screen.cards_open and screen.cards_side == 0 and screen.section == "licence"
    buttons = screen.ids.card_grid.buttons
    assert len(buttons) == 52
    assert all(b.width >= 70 and b.height >= 48 for b in buttons.values())  # thumb-sized
    meld(kiosk, screen, "3S", "4S", "5S", "6S", "7S", "8S", "9S")
    kiosk.tap("sec_melds")
    tap_cards(kiosk, screen, "QD", "KD", "2C")
    kiosk.tap("take_back")  # the 2C was a slip
    meld(kiosk, screen, "AD")
    assert screen.cards[0].licence == (("3S", "4S", "5S", "6S", "7S", "8S", "9S"),)
    assert screen.cards[0].melds == (("QD", "KD", "AD"),)
    assert "licence: a seven-card sequence (13.4)" in screen.cards_lines
    kiosk.tap("cards_done")
    assert not screen.cards_open
    assert screen.summaries[0] == "Table 330 · hand 0 · 2 melds"
    # Team B: a licence of 70 only (short of rule 13.4's 100), a false meld, two in hand.
    kiosk.tap(side_b.ids.full)
    kiosk.tap(side_b.ids.cards)
    assert screen.cards_side == 1 and screen.section == "licence"
    assert screen.cards_lines.startswith("[b]Licence:[/b] -")
    meld(kiosk, screen, "10C", "JC", "QC", "KC")
    meld(kiosk, screen, "AS", "AH", "AD")
    kiosk.tap("sec_void")
    meld(kiosk, screen, "4H", "6H", "7H")
    kiosk.tap("sec_hand")
    assert kiosk.widget("sec_hand").chosen and not kiosk.widget("sec_void").chosen
    assert kiosk.widget("close_meld").disabled  # the hand holds loose cards
    tap_cards(kiosk, screen, "5C", "2D")
    assert "not a licence yet" in screen.cards_lines
    kiosk.shot("bhukhar_cards_panel")
    kiosk.tap("cards_done")
    # A went out and took the bhukhar.
    assert screen.ids.closed_by.text == "Out: A"
    kiosk.tap("bhukhar")
    assert screen.ids.bhukhar.text == "Bhukhar: A"
    table = screen.table
    lines_before = table.export().splitlines()
    kiosk.tap("enter")
    assert screen.refused
    assert screen.message.startswith("Not entered: team B: licence: not a licence (rule 13.4)")
    assert "total 70 < 100" in screen.message
    kiosk.shot("bhukhar_full_refused")
    # Nothing was written, and nothing the umpire entered is lost.
    assert table.games() == [] and table.export().splitlines() == (lines_before)
    assert screen.cards[1].licence == (("10C", "JC", "QC", "KC"), ("AS", "AH", "AD"))
    assert screen.cards[0].melds == (("QD", "KD", "AD"),)
    # The umpire finds B's third meld of the licence: 9 9 9 makes 100.
    kiosk.tap(side_b.ids.cards)
    assert screen.section == "melds"  # B has a licence begun: melds come after it
    kiosk.tap("sec_licence")
    meld(kiosk, screen, "9H", "9D", "9S")
    assert "licence: melds of at least three cards worth 100 or more" in screen.cards_lines
    kiosk.tap("cards_done")
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    # A: 300 + 30 + licence 50 + bhukhar 50 + closing 50; B: 100 - 10 in hand + licence 50.
    assert screen.message == "Table 1 entered. A: 480 pts, 2 master; B: 140 pts, 0 master"
    assert screen.standings.splitlines() == [
        "1. A   master 2   bonus 3   best 480   games 1",
        "2. B   master 0   bonus 1   best 140   games 1",
    ]
    assert screen.summaries == ["No cards yet", "No cards yet"]  # ready for the next game
    kiosk.shot("bhukhar_full_entered")
    # The record's line holds every card as entered (docs/bhukhar.md, a team in full).
    line = json.loads(table.export().splitlines()[-1])
    assert line["event"] == "game" and line["end"] == "out" and line["closed_by"] == "A"
    a, b = line["teams"]["A"], line["teams"]["B"]
    assert a["licence"] == [["3S", "4S", "5S", "6S", "7S", "8S", "9S"]]
    assert a["melds"] == [["QD", "KD", "AD"]] and a["hand"] == []
    assert b["void"] == [["4H", "6H", "7H"]] and b["hand"] == ["5C", "2D"]
    assert len(b["licence"]) == 3


def test_bhukhar_full_entry_with_a_meld_still_open_is_not_entered(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    side_a = screen.ids.side_0
    kiosk.tap(side_a.ids.full)
    kiosk.tap(side_a.ids.cards)
    kiosk.tap("close_meld")  # nothing laid yet: the panel says what to do
    assert screen.cards_message.startswith("no cards laid yet")
    tap_cards(kiosk, screen, "JH", "QH", "KH")
    kiosk.tap("cards_done")
    assert screen.summaries[0].endswith("a meld open")
    kiosk.tap("end_stock")  # the stock ran out: nobody closed
    kiosk.tap("enter")
    assert screen.refused
    assert screen.message == (
        "Not entered: team A: a meld is still being laid (J\u2665 Q\u2665 K\u2665): "
        "close it or take its cards back"
    )
    assert screen.table.games() == []
    kiosk.tap(side_a.ids.cards)
    kiosk.tap("clear_cards")
    assert screen.cards[0].empty
    kiosk.tap("take_back")  # the clear is taken back too
    assert screen.cards[0].laying == ("JH", "QH", "KH")


def test_bhukhar_cards_panel_fits_an_800x480_screen(kiosk: Kiosk) -> None:
    from kivy.core.window import Window

    from .harness import pump

    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap(screen.ids.side_1.ids.full)
    kiosk.tap(screen.ids.side_1.ids.cards)
    Window.size = (800, 480)
    try:
        pump(10)
        buttons = screen.ids.card_grid.buttons
        for w in [*buttons.values(), *(screen.ids[i] for i in ("take_back", "cards_done"))]:
            x, y = w.to_window(w.x, w.y)
            assert x >= 0 and x + w.width <= 800 and y >= 0 and y + w.height <= 480
            assert w.height >= 36, f"{w.text} is {w.height:.0f} px high: too small to tap"
        meld(kiosk, screen, "10H", "JH", "QH")
        assert screen.cards[1].licence == (("10H", "JH", "QH"),)
        kiosk.shot("bhukhar_cards_800x480")
    finally:
        Window.size = (1024, 600)
        pump(10)
