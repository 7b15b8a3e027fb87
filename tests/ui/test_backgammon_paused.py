"""Backgammon round two, real taps under Xvfb: PAUSED is unmistakable (large, on
both halves, the side on turn still marked) and the delay and the bank read as two things."""

from __future__ import annotations

from typing import Any

from .harness import Kiosk, start_backgammon


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def test_backgammon_paused_marks_both_halves_and_keeps_the_turn_rule_4_1(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(3.0)
    halves = (screen.ids.half_0, screen.ids.half_1)
    assert [h.ids.paused_mark.text for h in halves] == ["", ""]
    kiosk.tap("pause")
    assert screen.paused
    assert [h.ids.paused_mark.text for h in halves] == ["PAUSED", "PAUSED"]
    assert all(h.paused for h in halves)
    assert list(screen.turns) == [True, False], screen.turns
    assert halves[0].had_turn and not halves[1].had_turn  # the side on turn stays marked
    status = screen.ids.status_line
    assert status.text == "PAUSED: the clock stands. Tap Resume to go on"
    assert status.font_size >= kiosk.app.unit * 3  # large, not the small line it was
    kiosk.shot("backgammon_paused")
    kiosk.tap("pause")  # Resume
    assert [h.ids.paused_mark.text for h in halves] == ["", ""] and status.text == ""


def test_backgammon_delay_and_bank_are_two_boxes_rule_4_1_v(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(5.0)
    half = screen.ids.half_0
    bank, delay = half.ids.bank, half.ids.delay_box
    assert bank.text == "6:00" and delay.children[0].text == "delay 7.0"
    b, d = _rect(bank), _rect(delay)
    assert b[1] >= d[3] or d[1] >= b[3], "the delay box overlaps the bank"
    assert screen.ids.half_1.ids.delay_box.children[0].text == ""  # only the side on turn
