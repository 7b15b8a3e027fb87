"""Why a player may not double now (4.4), as facts the interface words in its language.

The refusal names the player and the reason in one message per case, so that each language
can put the player's name where its grammar wants it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.errors import N_, Reason

if TYPE_CHECKING:
    from kiosk.rules.backgammon.match import Match


def double_refusal(match: Match, player: str) -> Reason | None:
    """Why `player` (a player of `match`) may not double now, or None if the double is
    allowed (4.4 (ii))."""
    if match.over:
        return Reason.of(
            "double_over", N_("{player} may not double: the match is over"), player=player
        )
    if not match.in_game:
        return Reason.of(
            "double_no_game",
            N_("{player} may not double: no game is being played"),
            player=player,
        )
    if match.game_is_crawford:
        return Reason.of(
            "double_crawford",
            N_("{player} may not double: no cube in the Crawford game ({law})"),
            law="4.4 (iv)",
            player=player,
        )
    if match.offered_by is not None:
        return Reason.of(
            "double_waits",
            N_("{player} may not double: a double by {doubler} waits for an answer"),
            player=player,
            doubler=match.offered_by,
        )
    if match.owner is not None and match.owner != player:
        return Reason.of(
            "double_not_owner",
            N_("{player} may not double: the cube belongs to {owner}"),
            player=player,
            owner=match.owner,
        )
    if match.cube >= match.needs(player):
        # 4.4 (vii): a cube whose value already wins the match for its holder is dead.
        return Reason.of(
            "dead_cube",
            N_(
                "{player} may not double: dead cube: {cube} already wins {player} the match ({law})"
            ),
            law="4.4 (vii)",
            player=player,
            cube=match.cube,
        )
    return None
