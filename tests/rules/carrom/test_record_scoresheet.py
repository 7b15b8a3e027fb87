"""The scoresheet text drawn from the `tableside replay --json` object."""

from __future__ import annotations

from typing import Any

from kiosk.rules.carrom.scoresheet import render


def _spec_example() -> dict[str, Any]:
    # The example object of shared/spec/match-record.md, with a second board added.
    return {
        "rules": "icf",
        "sides": ["Asha", "Bina"],
        "winner": None,
        "games": [
            {
                "winner": "Asha",
                "points": {"Asha": 25, "Bina": 9},
                "boards": [
                    {
                        "breaker": "Asha",
                        "winner": "Asha",
                        "points": 7,
                        "queen": "Asha",
                        "void": False,
                    },
                    {"breaker": "Bina", "winner": None, "points": 0, "queen": None, "void": True},
                    {
                        "breaker": "Bina",
                        "winner": "Bina",
                        "points": 9,
                        "queen": None,
                        "void": False,
                    },
                    {
                        "breaker": "Asha",
                        "winner": "Asha",
                        "points": 12,
                        "queen": "Bina",
                        "void": False,
                    },
                    {
                        "breaker": "Bina",
                        "winner": "Asha",
                        "points": 6,
                        "queen": "Asha",
                        "void": False,
                    },
                ],
            }
        ],
        "now": {
            "game": 2,
            "board": 1,
            "breaker": "Bina",
            "turn": "Bina",
            "white": "Bina",
            "on_board": {"white": 9, "black": 9, "queen": True},
            "queen": "on_board",
            "queen_by": None,
            "owed": {"Asha": 0, "Bina": 1},
            "break_attempts": 2,
        },
    }


def test_scoresheet_lists_every_board_with_running_game_score() -> None:
    text = render(_spec_example())
    lines = text.splitlines()
    assert lines[0].startswith("Carrom match: Asha v Bina, ICF laws of carrom")
    assert "Game 1: won by Asha, 25-9" in lines
    header = next(line for line in lines if line.strip().startswith("board"))
    assert header.split() == ["board", "breaker", "winner", "points", "queen", "Asha", "Bina"]
    rows = [line.split() for line in lines[lines.index(header) + 1 :][:5]]
    assert rows[0] == ["1", "Asha", "Asha", "7", "Asha", "7", "0"]
    assert rows[1] == ["2", "Bina", "void", "(replayed)", "-", "7", "0"]
    assert rows[2] == ["3", "Bina", "Bina", "9", "-", "7", "9"]
    assert rows[3] == ["4", "Asha", "Asha", "12", "Bina", "19", "9"]
    assert rows[4] == ["5", "Bina", "Asha", "6", "Asha", "25", "9"]


def test_scoresheet_shows_the_board_in_progress_and_the_match_so_far() -> None:
    text = render(_spec_example())
    assert "Now: game 2, board 1" in text
    assert "breaker Bina; at turn Bina; white Bina" in text
    assert "on the board: 9 white, 9 black, the queen" in text
    assert "owed dues and penalties: Asha 0, Bina 1" in text
    assert "breaks that touched no coin: 2 of 3" in text
    assert text.endswith("Match in progress: games Asha v Bina 1-0.\n")


def test_scoresheet_of_a_finished_match_has_no_board_in_progress() -> None:
    data = _spec_example()
    data["now"] = None
    data["winner"] = "Asha"
    text = render(data)
    assert "Now:" not in text
    assert text.endswith("Match won by Asha, games 1-0.\n")


def test_scoresheet_club_rules_are_rounds_of_one_game() -> None:
    data: dict[str, Any] = {
        "rules": "club",
        "sides": ["Asha", "Bina"],
        "winner": "Bina",
        "games": [
            {
                "winner": "Bina",
                "points": {"Asha": 14, "Bina": 15},
                "boards": [
                    {
                        "breaker": "Asha",
                        "winner": "Asha",
                        "points": 14,
                        "queen": "Asha",
                        "void": False,
                    },
                    {
                        "breaker": "Bina",
                        "winner": "Bina",
                        "points": 15,
                        "queen": "Bina",
                        "void": False,
                    },
                ],
            }
        ],
        "now": None,
    }
    text = render(data)
    assert "club rules" in text.splitlines()[0]
    assert "Rounds" in text
    assert any(line.split()[:1] == ["round"] for line in text.splitlines())
    assert text.endswith("Match won by Bina, 14-15.\n")


def test_scoresheet_queen_pending_and_covered_are_spelled_out() -> None:
    data = _spec_example()
    data["now"]["queen"] = "pending"
    data["now"]["queen_by"] = "Asha"
    assert "queen: pocketed by Asha, waiting for its cover" in render(data)
    data["now"]["queen"] = "covered"
    assert "queen: covered by Asha" in render(data)


def test_scoresheet_names_the_law_of_each_board_and_of_the_match_ending() -> None:
    data = _spec_example()
    laws = ["52 a", "137", "107 a", "106 a", "52 a"]
    for board, law in zip(data["games"][0]["boards"], laws, strict=True):
        board["law"] = law
    data["winner"], data["now"] = "Asha", None
    data["ending"] = {"law": "139", "reason": "conceded"}
    lines = render(data).splitlines()
    header = next(line for line in lines if line.strip().startswith("board"))
    assert header.split()[-1] == "law"
    assert lines[lines.index(header) + 3].split()[-2:] == ["107", "a"]
    assert lines[-1] == "Match won by Asha, games 1-0 (law 139: conceded)."
    data["rules"] = "club"
    data["ending"] = {"law": "club V ii", "reason": "15 points"}
    assert render(data).endswith("(club rules V ii: 15 points).\n")
