"""Dialogs are modal: with a dialog open, a tap anywhere behind it acts on
nothing. Before, "Who concedes the match?" left Void board and Foul live behind it."""

from __future__ import annotations

from .harness import Kiosk, confirmed_events


def test_carrom_a_tap_behind_the_concede_dialog_does_nothing(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # a board in progress: Void board would act
    before = confirmed_events(screen.session)
    kiosk.tap("concede")
    kiosk.tap("void")  # behind the dialog
    kiosk.tap("foul")
    kiosk.tap("undo")
    assert screen.pick_action == "concede"
    assert screen.pick_question == "Who concedes the match? (law 139)"
    assert confirmed_events(screen.session) == before
    assert screen.banner != "Board void (law 140)"
    kiosk.tap("pick_cancel")
    assert screen.pick_action == ""
    kiosk.tap("void")  # closed, the console acts again (after its own confirmation)
    kiosk.tap("confirm_yes")
    assert screen.banner == "Board void (law 140)"
