"""The carrom match as the journal keeps it, read back: the match replayed through the rules
core, the match record exported (shared/spec/match-record.md), and what the record does not
keep but its comment lines may say (each correction's role, each protest's words and fee
receipt). Readers only: nothing here writes to the journal or needs a table running."""

from __future__ import annotations

from kiosk.engine.journal import EVENT, UNDO, Journal, JournalError, MatchRow
from kiosk.rules.carrom.errors import IllegalEvent, Reason
from kiosk.rules.carrom.events import (
    FIRST_NOT_MATCH,
    SECOND_MATCH,
    EventError,
    MatchStart,
    event_from_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.tables.carrom_protests import Board, protest_board

#: The journal's kind of a carrom match.
KIND = "carrom"


def replayed_match(
    journal: Journal, row: MatchRow, calls: list[tuple[Reason, ...]] | None = None
) -> Match:
    """The carrom match of `row` with its confirmed events pushed again (`calls`, when
    given, gets the core's calls on each). JournalError names the entry that cannot be
    replayed; its cause is the core's own refusal."""
    where = "the match line"
    try:
        start = event_from_dict(row.header)
        if not isinstance(start, MatchStart):
            raise EventError.of("first_not_match", FIRST_NOT_MATCH)
        match = Match(start)
        for n, data in enumerate(journal.confirmed(row.id), start=1):
            where = f"confirmed event {n}"
            event = event_from_dict(data)
            if isinstance(event, MatchStart):
                raise EventError.of("second_match", SECOND_MATCH)
            match.push(event)
            if calls is not None:
                calls.append(match.state.calls)
    except (EventError, IllegalEvent) as exc:
        raise JournalError(f"{journal.path}: match {row.id}, {where}: {exc}") from exc
    return match


def export_match_record(journal: Journal, match_id: int | None = None) -> str:
    """The match record (shared/spec/match-record.md) of `match_id` (default: the latest
    carrom match) from the journal: the match line and the confirmed events that stand."""
    from kiosk.rules.carrom.record import write_record

    if match_id is None:
        row = journal.latest(KIND)
        if row is None:
            raise JournalError(f"{journal.path}: no carrom match in the journal")
        match_id = row.id
    row = journal.match(match_id)
    start = event_from_dict(row.header)
    events = [event_from_dict(data) for data in journal.confirmed(match_id)]
    comments = [*correction_comments(journal, match_id), *protest_comments(journal, match_id)]
    return write_record([start, *events]) + "".join(f"{line}\n" for line in comments)


def protest_texts(journal: Journal, match_id: int) -> dict[Board, tuple[str, str]]:
    """The words and fee receipt of each protest that stands, by board, as journaled with
    its event."""
    texts: dict[Board, tuple[str, str]] = {}
    for data in journal.confirmed(match_id):
        if data.get("event") == "protest" and isinstance(data.get("board"), list):
            board = protest_board(data["board"])
            texts[board] = (str(data.get("words", "")), str(data.get("receipt", "")))
    return texts


def protest_comments(journal: Journal, match_id: int) -> list[str]:
    """Each protest's words and receipt as match-record comment lines (shared/spec/
    match-record.md: a `#` line is skipped by readers; the event keeps its own fields),
    one line each, whatever was typed."""
    lines: list[str] = []
    for (game, board), (words, receipt) in protest_texts(journal, match_id).items():
        said = " ".join(words.split())
        paid = " ".join(receipt.split())
        lines.append(f"# protest against board {board} of game {game}: {said} (fee receipt {paid})")
    return lines


def correction_comments(journal: Journal, match_id: int) -> list[str]:
    """The match's corrections with the role that made them, as match-record comment lines
    (shared/spec/match-record.md: lines starting with `#` are skipped by readers): each undo
    and each event the director made, read from the one entry each command journals."""
    lines: list[str] = []
    for entry in journal.entries(match_id, [EVENT, UNDO]):
        if entry.kind == UNDO:
            lines.append(f"# t={entry.t:g} correction by the {entry.source}: undo")
        elif entry.source == "director":
            action = entry.data.get("event", "")
            lines.append(f"# t={entry.t:g} correction by the director: {action}")
    return lines
