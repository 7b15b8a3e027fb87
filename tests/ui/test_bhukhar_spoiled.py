"""17.2 after a licence and the ace low (rulings of 2026-11-27), by real taps: a licence meld
a wrong card spoiled later is marked on the cards panel (in full) or by its toggle (as
totals), shown VOID with the licence standing, entered, and said on the
player display; a sequence A-2-3 tapped in any order shows as A 2 3, "ace low"; K-A-2 is
refused in the console's words."""

from __future__ import annotations

import json

from .harness import Kiosk, meld

SEVEN = ("3S", "4S", "5S", "6S", "7S", "8S", "9S")


def test_17_2_a_spoiled_licence_meld_in_full_and_as_totals_ace_low_shown(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("start_round")
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    kiosk.tap(side_a.ids.full)
    kiosk.tap(side_a.ids.cards)
    assert kiosk.widget("spoil_open").disabled  # no licence yet: nothing to spoil
    meld(kiosk, screen, *SEVEN)
    meld(kiosk, screen, "3H", "AH", "2H")  # tapped in any order: the ace is low
    assert "2) A♥ 2♥ 3♥" in _plain(screen.cards_lines)
    assert "(sequence 20, ace low)" in screen.cards_lines
    # A partner laid a wrong card on A 2 3 later: that meld is void (17.2).
    kiosk.tap("spoil_open")
    assert kiosk.widget("spoil_1").text == "2) A♥ 2♥ 3♥" and kiosk.widget("spoil_2").disabled
    kiosk.tap("spoil_1")
    assert kiosk.widget("spoil_1").chosen and screen.cards[0].spoiled == (1,)
    kiosk.shot("bhukhar_spoil_panel")
    kiosk.tap("spoil_done")
    assert not screen.spoil_open and screen.cards_open
    lines = screen.cards_lines
    assert "2) A♥ 2♥ 3♥ (VOID: spoiled later, not counted; the licence stands (17.2))" in _plain(
        lines
    )
    assert "licence: a seven-card sequence (13.4) · it stands though a meld" in lines
    kiosk.shot("bhukhar_spoiled_licence_meld")
    kiosk.tap("sec_melds")
    meld(kiosk, screen, "KD", "AD", "2D")  # never round the corner
    assert "may not turn the corner at the ace" in screen.cards_lines
    for _ in range(4):
        kiosk.tap("take_back")  # the meld closed, then its three cards
    assert screen.cards[0].melds == () and screen.cards[0].laying == ()
    kiosk.tap("cards_done")
    assert screen.summaries[0] == "Table 300 · hand 0 · 1 meld · licence meld spoiled: 1"
    # Team B as totals: a licence of which 40 points still count, a meld of it spoiled.
    kiosk.tap(side_b.ids.points_p50)
    kiosk.tap(side_b.ids.points_m5)
    kiosk.tap(side_b.ids.points_m5)
    kiosk.tap("end_stock")
    kiosk.tap("enter")
    assert screen.refused and "any licence is worth at least 100" in screen.message
    kiosk.tap(side_b.ids.spoiled)
    assert side_b.ids.spoiled.chosen and screen.spoiled == [False, True]
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    # A: 300 (A 2 3 not counted) + licence 50; B: 40 + licence 50 (the licence stands).
    assert screen.message == "Table 1 entered. A: 350 pts, 2 master; B: 90 pts, 0 master"
    line = json.loads(screen.table.export().splitlines()[-1])
    assert line["teams"]["A"]["licence_spoiled"] == [2]
    assert line["teams"]["B"]["licence_spoiled"] is True
    kiosk.tap("totals")
    assert (
        "A: a licence meld spoiled later is void: its table points are not counted, its cards "
        "go back into the hand and may be laid again; the licence stands (17.2)"
        in screen.totals_lines
    )
    kiosk.tap("totals_done")
    kiosk.tap("home")
    kiosk.tap("players")
    players = kiosk.screen()
    assert players.status.splitlines() == [
        "Last game: A 350 · B 90",
        *(
            f"{team}: a licence meld spoiled later is void: its table points are not counted, its "
            "cards go back into the hand and may be laid again; the licence stands (17.2)"
            for team in "AB"
        ),
    ]
    kiosk.shot("players_bhukhar_spoiled")


def _plain(markup: str) -> str:
    """Kivy markup's tags taken out: the text as read."""
    import re

    return re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", markup)
