"""What the carrom core calls on an event, as data: one `Reason` per ruling.

Each ruling has a stable code and one English message (its catalogue msgid, marked `N_`),
with the names and numbers as placeholders; the law it applies travels beside it in the
`Reason`'s `law` ("73", "139, 143", "club IV i"), never inside the words. The console words
a call in the umpire's language from its message and facts (kiosk/ui/carrom_rulings.py);
`Reason.english()` is the English the record tools print.
"""

from __future__ import annotations

from kiosk.errors import N_, Reason

#: Every call's message by its code. A code means one ruling; the law beside it may differ
#: where the laws rule the same twice (the opponent's coin with the striker, 74, or in a
#: foul, 76).
CALLS: dict[str, str] = {
    # turns, dues and penalties (laws 63-87)
    "passes": N_("{name} passes"),
    "owed_returned": N_("{name} returns an owed coin"),
    "owed_placed_by": N_("{name}'s owed coin is placed by {who}"),
    "owed_returned_end_of_turn": N_("{name} returns an owed piece at the end of the turn"),
    "waived": N_("{name} waives {n} coin(s)"),
    "technical_foul": N_("technical foul on {name}: one coin back, turn goes on"),
    "technical_foul_out_of_turn": N_("technical foul on {name} out of turn: one coin back"),
    "foul_ends_turn": N_("foul on {name}: one coin back, the turn ends"),
    "foul_stroke": N_("foul on the stroke: own coins and queen go back with a penalty coin"),
    "opponent_coin_counts": N_("the opponent's coin counts as pocketed"),
    "opponent_coin_stays": N_("the opponent's coin stays pocketed"),
    "striker_too": N_("the striker too: one due more"),
    "striker_pocketed": N_("striker pocketed: one due, the turn ends"),
    "own_coin_with_striker": N_(
        "own coin with the striker: it goes back with one due, turn goes on"
    ),
    # the break (laws 44-45)
    "empty_break": N_("the break touched no coin (attempt {n})"),
    "breaks_failed": N_(
        "three breaks touched no coin; the turn passes, colours stay; {name} breaks (definition 6, 45 a)"  # noqa: E501
    ),
    "improper_break": N_("improper break or striker pocketed: the turn is over, no due"),
    "queen_striker_on_break": N_("queen with the striker on the break: queen back, one due"),
    # the queen (laws 15, 92-101)
    "queen_pocketed": N_("queen pocketed: cover it with an own coin on the next stroke"),
    "queen_covered_same_stroke": N_("queen and own coin in one stroke: the queen is covered"),
    "cover_after_nine": N_("one coin with the queen, all nine were on the board: cover it"),
    "queen_covered": N_("own coin after the queen: the queen is covered"),
    "queen_not_covered": N_("the queen was not covered and goes back to the centre"),
    "queen_while_owing": N_("queen pocketed while a due is owed: it goes back, the turn ends"),
    "queen_striker_all_on_board": N_(
        "queen with the striker, all own coins on the board: queen back"
    ),
    "queen_before_own_coin": N_("queen pocketed before an own coin: it goes back, the turn ends"),
    "queen_own_coin_striker": N_("queen, own coin and striker: queen and two coins back"),
    "queen_striker": N_("queen with the striker: queen and one coin back, turn goes on"),
    "cover_with_striker": N_("own coin with the striker while covering: cover on next stroke"),
    "striker_while_covering": N_("striker while covering: queen back with one due"),
    # boards, games, the match (laws 52-61, 137-143)
    "board_won": N_("{name} wins the board with {n} point(s)"),
    "change_sides_now": N_("change sides now (two minutes, law 61)"),
    "game_won": N_("{name} wins game {n}; change sides (law 58)"),
    "game_won_doubles": N_("{name} wins game {n}; change sides (laws 58, 59)"),
    "match_won": N_("{name} wins the match"),
    "toss_needed": N_("level at the board limit: a toss decides who breaks an extra board"),
    "toss_won": N_("{name} won the toss and breaks the extra board"),
    "passes_void": N_("three rounds of passes: the board is void and replayed"),
    "board_voided": N_("the board is void and replayed by the same breaker"),
    "conceded": N_("{name} concedes the match"),
    # protests (laws 144-151)
    "protest_lodged": N_(
        "{name} protests board {board} of game {game}: play goes on, no result is declared"
    ),
    "protest_upheld": N_(
        "the protest against board {board} of game {game} is upheld: {n} board(s) set aside; "
        "the same breaker plays it again"
    ),
    "protest_rejected": N_("the protest against board {board} of game {game} is rejected"),
    "result_declared": N_("{name} wins the match: the result is declared"),
    # the club rules (shared/seeds/001_45192af66de370db.txt)
    "club_empty_break": N_("the break touched nothing (attempt {n})"),
    "club_breaks_failed": N_("three failed breaks: a foul, one penalty piece, the turn ends"),
    "club_foul": N_("foul on {name}: one penalty piece"),
    "club_striker_foul": N_("the striker was pocketed: a foul"),
    "club_off_board_foul": N_("a piece or the striker left the board: a foul"),
    "club_improper_foul": N_("an improper stroke: a foul"),
    "club_opponent_piece_foul": N_("an opponent's piece was pocketed: a foul"),
    "club_final_piece_back": N_("the opponent's final piece goes back with the penalty"),
    "club_final_piece_early": N_("the final piece before the queen is covered: it goes back"),
    "club_queen_covered_in_turn": N_("queen and own piece in one turn: the queen is covered"),
    "club_cover_after_queen": N_(
        "own piece after the queen in the same turn: the queen is covered"
    ),
    "club_queen_to_cover": N_("queen pocketed: cover it with an own piece this turn"),
    "club_queen_goes_back": N_("queen before an own piece: it goes back after the turn"),
}

#: The calls of a foul on a player outside a stroke: the foul dialog shows their law.
FOUL_CALLS = frozenset(
    {"technical_foul", "technical_foul_out_of_turn", "foul_ends_turn", "club_foul"}
)


def ruling(code: str, law: str = "", /, **facts: object) -> Reason:
    """The call `code` under `law` with its facts (a `KeyError` for a code not in CALLS).
    A call's facts are names and numbers, never messages to word (`Reason.of`'s `worded`):
    the record is built directly, on every event of a replay."""
    return Reason(code, CALLS[code], law, tuple(facts.items()))
