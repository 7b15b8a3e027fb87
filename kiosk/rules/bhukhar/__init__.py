"""Bhukhar card tables: cards, melds, the scoresheet, standings and the session record.

Pure: standard library only; nothing here reads the time, a pin or a file.
Rules 1-19 of shared/seeds/002_636b25d23b96cd1c.txt (Gujarati); docs/bhukhar.md.
"""

from kiosk.rules.bhukhar.cards import Card, CardError, parse_card, parse_cards
from kiosk.rules.bhukhar.melds import Kind, LicenceForm, Meld, MeldError, licence_form, meld
from kiosk.rules.bhukhar.record import RecordError, Session, SessionError, parse_session
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    GameResult,
    Penalty,
    PenaltyKind,
    ScoreError,
    TeamScore,
    TotalsSheet,
    score_game,
)
from kiosk.rules.bhukhar.standings import Standing, standings

__all__ = [
    "Card",
    "CardError",
    "End",
    "FullSheet",
    "Game",
    "GameResult",
    "Kind",
    "LicenceForm",
    "Meld",
    "MeldError",
    "Penalty",
    "PenaltyKind",
    "RecordError",
    "ScoreError",
    "Session",
    "SessionError",
    "Standing",
    "TeamScore",
    "TotalsSheet",
    "licence_form",
    "meld",
    "parse_card",
    "parse_cards",
    "parse_session",
    "score_game",
    "standings",
]
