"""What the backgammon clock screen shows: bank and delay apart, tenths below 20 s."""

from __future__ import annotations

import pytest

from kiosk.clocks.record import ClockHeader, GameEnd, Press, Start
from kiosk.errors import Reason
from kiosk.rules.backgammon.clocked import ClockedMatch
from kiosk.rules.backgammon.face import clock_face, format_clock


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (840.0, "14:00"),
        (839.5, "13:59"),
        (20.0, "0:20"),
        (19.99, "19.9"),
        (2.3, "2.3"),
        (0.05, "0.0"),
        (0.0, "0.0"),
        (3723.0, "1:02:03"),
    ],
)
def test_face_format_clock_tenths_below_20_seconds(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text


def codes(reason: Reason | None) -> tuple[str, ...]:
    """A ruling's code and the codes of the rulings inside it, outermost first."""
    if reason is None:
        return ()
    inner = [v for v in reason.values().values() if isinstance(v, Reason)]
    return (reason.code, *(c for r in inner for c in codes(r)))


def test_face_shows_bank_and_delay_apart_and_who_is_on_turn() -> None:
    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 7))
    cm.apply(Start(0.0, "Nikos"))
    face = clock_face(cm, 14.5)
    nikos, eleni = face.sides
    assert (nikos.bank, nikos.delay, nikos.on_turn) == ("13:57", "0.0", True)
    assert (eleni.bank, eleni.delay, eleni.on_turn) == ("14:00", "", False)
    assert face.banner is None and codes(face.match_line) == ("match_line", "cube")
    assert face.match_line.values()["n"] == 7


def test_rule_4_7_crawford_game_announced_before_it_starts() -> None:
    cm = ClockedMatch(ClockHeader(("Ann", "Bo"), 5, (3, 0)))
    cm.apply(Start(0.0, "Ann"))
    cm.apply(Press(1.0, "Ann"))
    cm.apply(GameEnd(2.0, "Ann", 1))
    face = clock_face(cm, 3.0)
    assert codes(face.banner) == ("crawford_next",)
    assert codes(face.match_line) == ("match_line", "cube_out")
    cm.apply(Start(4.0, "Bo"))
    assert codes(clock_face(cm, 5.0).banner) == ("crawford_game",)


def test_face_shows_the_flag_and_the_result() -> None:
    cm = ClockedMatch(ClockHeader(("A", "B"), 1, minutes_per_point=0.5, delay=0.0))
    cm.apply(Start(0.0, "A"))
    face = clock_face(cm, 31.0)
    assert face.sides[0].flagged and face.sides[0].bank == "0.0"
    assert face.banner is not None and face.banner.code == "won_on_time"
    assert face.banner.values() == {"name": "B", "law": "4.3 (iii)"}


def test_clause_4_1_v_b_face_shows_wait_over_the_delay_after_an_early_pickup() -> None:
    from kiosk.clocks.record import EarlyPickup

    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 7))
    cm.apply(Start(0.0, "Nikos"))
    cm.apply(EarlyPickup(1.0, "Eleni"))
    cm.apply(Press(2.0, "Nikos"))
    waiting = clock_face(cm, 5.0).sides
    assert (waiting[0].must_wait, waiting[1].must_wait) == (False, True)
    assert waiting[1].delay == "9.0"
    assert not clock_face(cm, 14.0).sides[1].must_wait  # the delay ran out: play


def test_clause_4_4_iv_face_marks_the_post_crawford_games() -> None:
    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 7, (6, 3), post_crawford=True))
    face = clock_face(cm, 0.0)
    assert face.banner is None
    assert codes(face.match_line) == ("match_line", "post_crawford", "cube")
    assert [s.breaks_left for s in face.sides] == [1, 1]


def test_clause_4_3_iii_face_names_the_overruled_winner() -> None:
    from kiosk.clocks.record import Overrule

    cm = ClockedMatch(ClockHeader(("Nikos", "Eleni"), 1, minutes_per_point=0.1, delay=0.0))
    cm.apply(Start(0.0, "Nikos"))
    cm.apply(Overrule(10.0, "Nikos"))
    face = clock_face(cm, 10.0)
    assert face.banner is not None and face.banner.code == "won_overruled"
    assert face.banner.values()["name"] == "Nikos"
    assert face.sides[0].flagged


def test_face_rulings_are_facts_for_each_language() -> None:
    """The banner and the match line are Reasons (a code, the law, the facts), so a
    screen words them in its language instead of parsing English back."""
    cm = ClockedMatch(ClockHeader(("Ann", "Bo"), 5, (4, 0)))
    face = clock_face(cm, 0.0)
    assert face.banner is not None
    assert (face.banner.code, face.banner.law) == ("crawford_next", "4.4 (iv)")
    assert face.match_line.code == "match_line"
    cube = face.match_line.values()["cube"]
    assert getattr(cube, "code", None) == "cube_out"
    assert face.match_line.english() == "match to 5 · cube out of play"
    cm.apply(Start(0.0, "Bo"))
    cm.apply(GameEnd(1.0, "Ann", 1))
    won = clock_face(cm, 2.0).banner
    assert won is not None and won.code == "won" and won.values() == {"name": "Ann"}
