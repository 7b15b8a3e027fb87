"""Small builders for the carrom law tests: matches, strokes, and boards played to an end.

Shared by the ICF law tests (laws 39-143) and the club rule tests; the rule set
is a parameter, "icf" unless a test says otherwise.
"""

from __future__ import annotations

from typing import cast

from kiosk.rules.carrom import Match, Now
from kiosk.rules.carrom.events import Coin, MatchStart, OffBoard, RuleSet, Stroke

W, B, Q = "white", "black", "queen"


def singles(first: str = "Asha", limit: int | None = 8, rules: RuleSet = "icf") -> Match:
    return Match(MatchStart(rules, ("Asha", "Bina"), first, limit))


def doubles(first: str = "Asha", rules: RuleSet = "icf") -> Match:
    return Match(MatchStart(rules, ("Asha", "Bina", "Chitra", "Dev"), first))


def st(
    *pocketed: str, striker: bool = False, improper: bool = False, touched: bool = True
) -> Stroke:
    # Tests name coins with plain strings (W, B, Q, a side's colour); the match checks them.
    coins = cast(tuple[Coin, ...], pocketed)
    return Stroke(pocketed=coins, striker=striker, improper=improper, touched=touched)


def off(*coins: str, pocketed: tuple[str, ...] = ()) -> Stroke:
    return Stroke(
        pocketed=cast(tuple[Coin, ...], pocketed), off_board=cast(tuple[OffBoard, ...], coins)
    )


def now_of(m: Match) -> Now:
    now = m.state.now
    assert now is not None
    return now


def to_turn_of(m: Match, side: str) -> None:
    now = m.state.now
    assert now is not None
    if now.is_break:
        m.push(st())
    while m.state.now is not None and m.state.now.turn_side != side:
        m.push(st())


def win_board(m: Match, side: str, opp_left: int = 9) -> None:
    """`side` covers the queen and pockets all its coins; the other side keeps `opp_left`."""
    now = m.state.now
    assert now is not None
    other = now.black if side == now.white else now.white
    if opp_left < 9:
        to_turn_of(m, other)
        m.push(st(*[now.colours[other]] * (9 - opp_left)))
        m.push(st())
    to_turn_of(m, side)
    own = now.colours[side]
    m.push(st(own))
    m.push(st(Q, own))
    left = m.state.now.on_board[own] if m.state.now else 0
    m.push(st(*[own] * int(left)))


def bina_to_play(m: Match, blacks: int = 0) -> None:
    """Asha breaks (nothing in); Bina pockets `blacks` of hers; Bina is at turn again, fresh."""
    m.push(st())
    if blacks:
        m.push(st(*[B] * blacks))
        m.push(st())
        m.push(st())
    now = now_of(m)
    assert now.turn == "Bina" and now.strokes_in_turn == 0
