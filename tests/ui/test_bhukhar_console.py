"""The Bhukhar console, with real taps: team and player names entered on the kiosk (in
any of the four scripts), the ending an explicit choice with its rule (rule 16), and the
totals shown as they were added up (rule 18)."""

from __future__ import annotations

import json

from .harness import Kiosk, pump

# Names in the four scripts of the interface: Latin, Devanagari, Gujarati, Greek.
HINDI, GUJARATI, GREEK = "राजेश", "કિરણ", "Κώστας"


def _setup_with_names(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    setup = kiosk.screen()
    assert kiosk.current == "setup_bhukhar" and setup.editing == 0
    # Team A: its name and one player typed on the keyboard (Latin).
    kiosk.type("team_name", "Shah family")
    kiosk.type("player_0", "Ravi")
    # Team B: tap its chip, then names in three scripts. xdotool cannot type these
    # scripts: each field is tapped (it takes the focus) and the text put in it.
    kiosk.tap("names_1")
    assert setup.editing == 1 and setup.ids.team_name.text == ""
    for wid, name in (("team_name", GREEK), ("player_0", HINDI), ("player_1", GUJARATI)):
        kiosk.tap(wid)
        field = setup.ids[wid]
        field.select_all()
        field.insert_text(name)
        pump(2)
    assert setup.labels[:2] == ["Shah family", GREEK]
    # Back to A: its names are kept.
    kiosk.tap("names_0")
    assert setup.ids.team_name.text == "Shah family" and setup.ids.player_0.text == "Ravi"
    kiosk.shot("bhukhar_setup_names")
    kiosk.tap("start")
    assert kiosk.current == "bhukhar", setup.message


def test_bhukhar_names_entered_on_the_kiosk_in_four_scripts(kiosk: Kiosk) -> None:
    _setup_with_names(kiosk)
    screen = kiosk.screen()
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    assert side_a.ids.team.text == "Shah family" and side_b.ids.team.text == GREEK
    assert [side_a.ids[f"by_{i}"].text for i in range(3)] == ["Ravi", "A2", "A3"]
    assert [side_b.ids[f"by_{i}"].text for i in range(3)] == [HINDI, GUJARATI, "B3"]
    kiosk.tap(side_b.ids.by_0)  # the Hindi-named player laid B's licence
    kiosk.shot("bhukhar_names_console")
    for _ in range(2):
        kiosk.tap(side_b.ids.points_p50)
    kiosk.tap(side_a.ids.licence)  # A laid no licence
    kiosk.tap("end_stock")
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    record = screen.table.export().splitlines()
    header, line = json.loads(record[0]), json.loads(record[-1])
    assert [t.get("name") for t in header["teams"]] == ["Shah family", GREEK]
    assert header["teams"][1]["players"] == [HINDI, GUJARATI, "B3"]
    assert line["teams"]["B"]["licence_by"] == HINDI
    assert screen.standings.splitlines()[0].startswith(f"1. {GREEK}   master 2")


def test_bhukhar_rule_16_the_ending_is_chosen_by_its_own_button(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    ends = [screen.ids[f"end_{e}"] for e in ("out", "stock", "time")]
    assert [e.text for e in ends] == ["went out (16.1)", "stock ran out (16.2)", "time (16.3)"]
    assert [e.chosen for e in ends] == [True, False, False]
    kiosk.tap("end_time")
    kiosk.tap("end_time")  # a second tap keeps the choice: nothing cycles
    assert [e.chosen for e in ends] == [False, False, True] and screen.end == 2
    assert screen.ids.closed_by.disabled  # only going out closes a game (16.1)
    kiosk.tap("end_out")
    assert screen.ids.closed_by.text == "Out: A" and not screen.ids.closed_by.disabled
    kiosk.tap("end_time")
    side_a = screen.ids.side_0
    for _ in range(3):
        kiosk.tap(side_a.ids.points_p50)
    kiosk.tap(screen.ids.side_1.ids.licence)  # B laid no licence
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    assert json.loads(screen.table.export().splitlines()[-1])["end"] == "time"
    assert screen.table.draft.end.value == "time"  # the next game starts from the same


def test_bhukhar_rule_18_the_totals_show_how_they_were_added_up(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    assert screen.ids.totals.disabled  # nothing entered yet
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    for widget, times in ((side_a.ids.points_p50, 4), (side_a.ids.points_p5, 3),
                          (side_b.ids.points_p50, 2), (side_b.ids.points_p5, 4),
                          (side_b.ids.hand_p5, 5)):  # fmt: skip
        for _ in range(times):
            kiosk.tap(widget)
    kiosk.tap("bhukhar")  # the bhukhar to A, who went out
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    kiosk.tap("totals")
    assert screen.totals_open
    assert screen.totals_lines.splitlines() == [
        "A: table 215 − hand 0 + licence 50 + bhukhar 50 + closing 50 + penalties +0"
        " = 365 (rule 18)",
        "    2 master points, 3 bonus points (rule 19)",
        "B: table 120 − hand 25 + licence 50 + bhukhar 0 + closing 0 + penalties +0"
        " = 145 (rule 18)",
        "    0 master points, 1 bonus points (rule 19)",
    ]
    assert screen.ids.totals_lines.text == screen.totals_lines
    kiosk.shot("bhukhar_totals_panel")
    kiosk.tap("enter")  # behind the open panel: nothing happens
    assert len(screen.table.games()) == 1
    kiosk.tap("totals_done")
    assert not screen.totals_open
