"""The checks of a whole game entry before it is scored (kiosk/rules/bhukhar/scoresheet.py):
the teams named, the licence's layer, the bhukhar and the closing, the false licence's
player, the rosters and the three decks. Each refusal is a `ScoreError` whose `reason` holds
the facts and the rule, for the interface to word in the umpire's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kiosk.errors import N_
from kiosk.rules.bhukhar.cards import Card, CardError, check_three_decks
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    PenaltyKind,
    ScoreError,
    physical_cards,
)


def check_game(game: Game, rosters: Mapping[str, Sequence[str]] | None) -> tuple[str, str]:
    """The two teams of a game entry whose parts agree with each other and with rules 2, 3,
    13.4, 14, 16.1 and 17.1; ScoreError (its reason as facts) for the first that does not."""
    teams = tuple(game.sheets)
    if len(teams) != 2:
        raise ScoreError.of(
            "two_teams",
            N_("a game is between two teams (rule {law}), not {count}"),
            law="2",
            count=len(teams),
        )
    a, b = teams
    for field, team in (("bhukhar", game.bhukhar), ("closed_by", game.closed_by)):
        if team is not None and team not in teams:
            raise ScoreError.of(
                "no_such_team",
                N_("{field}: {team!r} is not a team of this game"),
                field=field,
                team=team,
            )
    for p in game.penalties:
        if p.team not in teams:
            raise ScoreError.of(
                "penalty_team", N_("penalty: {team!r} is not a team of this game"), team=p.team
            )
    for team, sheet in game.sheets.items():
        if sheet.licence_by and not sheet.has_licence:
            raise ScoreError.of(
                "licence_by_without",
                N_(
                    "team {team}: {player} is named as laying the licence, but the team has "
                    "no licence (rule {law}): take the name off or enter the licence"
                ),
                law="13.4",
                team=team,
                player=sheet.licence_by,
            )
    if game.bhukhar is not None and not game.sheets[game.bhukhar].has_licence:
        raise ScoreError.of(
            "bhukhar_no_licence",
            N_(
                "team {team} took the bhukhar without a licence (rule {law}: it is taken by "
                "laying the whole hand as a licence)"
            ),
            law="14",
            team=game.bhukhar,
        )
    if game.end is End.OUT:
        if game.closed_by is None:
            raise ScoreError.of(
                "out_closed_by",
                N_("end 'out' needs closed_by: the team that closed (rule {law})"),
                law="16.1",
            )
        if game.bhukhar is None:
            raise ScoreError.of(
                "closed_before_bhukhar",
                N_("nobody may close the game before a team has taken the bhukhar (rule {law})"),
                law="16.1",
            )
        if not game.sheets[game.closed_by].has_licence:
            raise ScoreError.of(
                "closed_no_licence",
                N_(
                    "team {team} closed the game without a licence on the table (rule {law}: "
                    "the last card is laid or joined to the team's melds)"
                ),
                law="16.1",
                team=game.closed_by,
            )
    elif game.closed_by is not None:
        raise ScoreError.of(
            "closed_not_out",
            N_(
                "closed_by is set but the game ended by {end!r}: only going out closes a "
                "game (rules 13.6, 16.1)"
            ),
            end=game.end.value,
        )
    for p in game.penalties:
        licence_by = game.sheets[p.team].licence_by
        if p.kind is PenaltyKind.FALSE_LICENCE and p.player and p.player == licence_by:
            raise ScoreError.of(
                "false_licence_player",
                N_(
                    "{player} showed a false licence and may not lay the licence in this game "
                    "(rule {law})"
                ),
                law="17.1",
                player=p.player,
            )
    if rosters is not None:
        named = [(p.team, p.player) for p in game.penalties if p.player]
        named += [(t, s.licence_by) for t, s in game.sheets.items() if s.licence_by]
        for team, player in named:
            if team in rosters and player not in rosters[team]:
                raise ScoreError.of(
                    "not_in_team",
                    N_("{player!r} is not a player of team {team}"),
                    player=player,
                    team=team,
                )
    cards: list[Card] = []
    for sheet in game.sheets.values():
        if isinstance(sheet, FullSheet):
            cards.extend(physical_cards(sheet))
    try:
        check_three_decks(cards)
    except CardError as exc:
        raise ScoreError(exc.reason or str(exc)) from None
    return a, b
