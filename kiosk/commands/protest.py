"""`tableside protest JOURNAL [--match N] [--board B] -o DIR`: the record of one board for a
protest (ICF laws 144-151), as one HTML page a referee reads.

Every stroke of the board in order: the beams' hits, the camera's events, the umpire's taps
and corrections, the confirmed (or refused, or undone) event with who confirmed it, and the
timers' warnings and expiries, each with the match time and its journal number; with each
camera diff, the board at rest before and after the stroke (the protest stills kept beside
the journal, copied to DIR/stills). The hash
chain is checked first: a journal that does not verify says so at the top, in red, with the
numbers of the entries concerned. The journal is opened read-only; the kiosk may be running.

`--board B` counts the match's boards from 1 in the order they were played (the page names
each by game and board too); without it, the board of the latest protest, else the last
board. Non-carrom matches list every entry.

A protested board's page starts with the protest (laws 144-151): who lodged it and when, its
words and the fee's receipt (journaled with it at the kiosk), the decision (upheld or
rejected, by whom, from the console or the hall's board, and when; or that none is given
yet), and the board before its first stroke and after its last as the camera's stills show
it; a journal without stills of the board says so rather than show anything else.
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.access.settings_authority import KIND as ROLES_KIND
from kiosk.access.settings_authority import describe as describe_note
from kiosk.atomic import private_dir, write_atomic
from kiosk.commands.journal_verify import Verdict, verify
from kiosk.engine.journal import EVENT, UNDO, Entry, Journal, JournalError, MatchRow
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import EventError, MatchStart, event_from_dict
from kiosk.rules.carrom.match import Match
from vision.stills import stills_folder


@dataclass
class Board:
    number: int
    game: int | None
    board: int | None
    entries: list[Entry] = field(default_factory=list)


def boards_of(journal: Journal, row: MatchRow) -> list[Board]:
    """The match's entries cut into boards by replaying its confirmed events in order."""
    entries = journal.entries(row.id)
    if row.kind != "carrom":
        return [Board(1, None, None, entries)]
    start = event_from_dict(row.header)
    if not isinstance(start, MatchStart):
        raise EventError(f"match {row.id}: its first line is not a carrom match")
    match = Match(start)
    boards: dict[tuple[int, int], Board] = {}
    for entry in entries:
        now = match.state.now
        key = (now.game, now.board) if now is not None else (0, 0)
        if key not in boards:
            boards[key] = Board(len(boards) + 1, key[0], key[1])
        boards[key].entries.append(entry)
        try:
            event = event_from_dict(entry.data) if entry.kind == EVENT else None
            if event is not None and not isinstance(event, MatchStart):
                match.push(event)
            elif entry.kind == UNDO and match.events:
                match.pop()
        except (EventError, IllegalEvent):
            pass  # shown as written; the chain check says whether it was tampered with
    return list(boards.values())


@dataclass
class Lodged:
    """A protest against a board (its journal entry) and the decisions on it, oldest first;
    `undone`: the sequence numbers of those taken back by an undo."""

    entry: Entry
    decisions: list[Entry] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)


def protests_of(journal: Journal, row: MatchRow) -> list[Lodged]:
    """Every protest journaled in the match (wherever in the match it was lodged), with its
    decisions; undone entries are marked, not left out."""
    standing: list[Entry] = []
    undone: set[int] = set()
    for entry in journal.entries(row.id, [EVENT, UNDO]):
        if entry.kind == EVENT:
            standing.append(entry)
        elif standing:
            undone.add(standing.pop().seq)
    found: list[Lodged] = []
    for entry in journal.entries(row.id, [EVENT]):
        what = entry.data.get("event")
        if what == "protest":
            found.append(Lodged(entry, undone={s for s in undone if s == entry.seq}))
        elif what == "protest_decided":
            for lodged in reversed(found):
                if lodged.entry.data.get("board") == entry.data.get("board"):
                    lodged.decisions.append(entry)
                    if entry.seq in undone:
                        lodged.undone.add(entry.seq)
                    break
    return found


def _against(lodged: Lodged, board: Board) -> bool:
    return lodged.entry.data.get("board") == [board.game, board.board]


def _protest_html(path: Path, board: Board, lodged: list[Lodged], out: Path | None) -> str:
    """The protest section of a protested board's page (see the module docstring)."""
    parts = []
    for p in lodged:
        d = p.entry.data
        taken_back = " (undone)" if p.entry.seq in p.undone else ""
        head = (
            f"{d.get('by', '?')}'s side protests game {board.game}, board {board.board}"
            f"{taken_back}: lodged at {_clock(p.entry.t)} by the {p.entry.source}"
            f" (entry {p.entry.seq}; laws 144-149)"
        )
        receipt = d.get("receipt") or "none journaled"
        words = d.get("words") or "(no words journaled with it)"
        parts.append(
            f"<p><b>{html.escape(head)}</b>. Fee receipt (law 145):"
            f" {html.escape(str(receipt))}.</p><blockquote>{html.escape(str(words))}</blockquote>"
        )
        if not p.decisions:
            parts.append(
                "<p><b>Not decided yet</b>: no result is declared (law 150); the officials"
                " decide within the hour (law 151 c).</p>"
            )
        for e in p.decisions:
            upheld = e.data.get("upheld") is True
            via = str(e.data.get("via", ""))
            where = " from the hall's board" if via.startswith("hall:") else " at the console"
            what = (
                "upheld: the board and every board after it set aside, played again (law 151 a)"
                if upheld
                else "rejected: the result stands and is declared (law 151 b)"
            )
            gone = " (undone)" if e.seq in p.undone else ""
            parts.append(
                f"<p><b>Decision{html.escape(gone)}</b>: {html.escape(what)}, by the"
                f" {html.escape(e.source)}{html.escape(where)} at {_clock(e.t)}"
                f" (entry {e.seq}).</p>"
            )
    parts.append(_before_after(path, board, out))
    return '<h2>The protest</h2><div class="protest">' + "".join(parts) + "</div>"


def _before_after(path: Path, board: Board, out: Path | None) -> str:
    """The board before its first stroke and after its last, from the camera's stills; or
    that the journal holds none of this board (never anything made up in their place)."""
    names = [n for e in board.entries for n in stills_of(e)]
    before = next((n for n in names if n.endswith("-before.jpg")), None)
    after = next((n for n in reversed(names) if n.endswith("-after.jpg")), None)
    if before is None and after is None:
        return (
            '<p class="meta"><b>No stills of this board are in the journal</b> (no camera,'
            " or stills not kept): the board before and after cannot be shown.</p>"
        )
    figures = []
    for label, name in (("before its first stroke", before), ("after its last stroke", after)):
        if name is None:
            figures.append(f"<figure><figcaption>No still {label}</figcaption></figure>")
            continue
        there = (stills_folder(path) / name).is_file() or (
            out is not None and (out / "stills" / name).is_file()
        )
        shown = (
            f'<img src="stills/{html.escape(name)}" alt="{html.escape(name)}">'
            if there
            else "<p>(pruned from the kiosk: not copied)</p>"
        )
        figures.append(
            f"<figure>{shown}<figcaption>The board {label}: {html.escape(name)}</figcaption>"
            "</figure>"
        )
    return '<div class="stills">' + "".join(figures) + "</div>"


def _clock(t: float) -> str:
    minutes, seconds = divmod(max(0.0, t), 60.0)
    return f"{int(minutes)}:{seconds:04.1f}"


def _what(entry: Entry) -> tuple[str, str]:
    """(class, words) for one entry."""
    d = entry.data
    if entry.kind == "beam_hit":
        return "hit", f"beam: pocket {d.get('pocket')}, broken {1000 * d.get('duration', 0):.0f} ms"
    if entry.kind == "beam_fault":
        held = f", {d['held']} hits held for the umpire" if d.get("held") else ""
        return "fault", f"beam {d.get('pocket')}: {d.get('kind')}{held}"
    if entry.kind == "camera":
        what = d.get("what")
        if what == "diff":
            rest = {k: v for k, v in d.items() if k not in ("what", "stills")}
            return "camera", "camera: board diff " + _json(rest)
        return "camera", f"camera: coins {'moving' if what == 'motion' else 'at rest'}"
    if entry.kind == "tap":
        action = d.get("action", "")
        rest = {k: v for k, v in d.items() if k != "action"}
        if action == "edit":
            return "edit", "umpire corrects the proposal: " + _json(rest.get("changes", rest))
        return "tap", f"umpire: {action}" + (f" {_json(rest)}" if rest else "")
    if entry.kind == EVENT:
        who = f"by {entry.source}"  # the kiosk itself (auto, system, timer)
        if entry.source == "umpire":
            who = "confirmed by the umpire"
        elif entry.source in ("director", "player"):  # a role's command
            who = f"by the {entry.source}"
        body = {k: v for k, v in d.items() if k != "t"}
        return "event", f"{d.get('event', 'event')} {who}: {_json(body)}"
    if entry.kind == UNDO:
        return "undo", f"{entry.source} undoes the last confirmed event"
    if entry.kind == "refused":
        return "refused", f"refused: {d.get('reason', '')} ({_json(d)})"
    if entry.kind == ROLES_KIND:  # the console's authority: who unlocked, refused, corrected
        return describe_note(d)
    if entry.kind == "timer":
        left = f", {d['left']:g} s left" if "left" in d else ""
        return "timer", f"timer {d.get('timer')}: {d.get('what')}{left}"
    return "other", f"{entry.kind}: {_json(d)}"


def stills_of(entry: Entry) -> list[str]:
    """The protest stills a camera diff names (vision/stills.py): file names only."""
    names = entry.data.get("stills") if entry.kind == "camera" else None
    if not isinstance(names, list):
        return []
    return [n for n in names if isinstance(n, str) and n == Path(n).name and n.endswith(".jpg")]


def _stills(entry: Entry) -> str:
    """The board before and after the stroke, as the camera saw it at rest."""
    imgs = "".join(
        f'<figure><img src="stills/{html.escape(n)}" alt="{html.escape(n)}">'
        f"<figcaption>{html.escape(n)}</figcaption></figure>"
        for n in stills_of(entry)
    )
    return f'<div class="stills">{imgs}</div>' if imgs else ""


def copy_stills(journal: Path, board: Board, out: Path) -> int:
    """Copy the board's stills from beside the journal to `out`/stills; how many were there
    (pruned ones are not: the page shows their names)."""
    folder = stills_folder(journal)
    copied = 0
    for entry in board.entries:
        for name in stills_of(entry):
            if (folder / name).is_file():
                (out / "stills").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(folder / name, out / "stills" / name)
                copied += 1
    return copied


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


CSS = """
body { font: 15px/1.4 "Noto Sans", sans-serif; margin: 24px; color: #111; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 20px 0 6px; }
.ok { background: #e3f4e3; border-left: 6px solid #2c8a2c; padding: 8px 12px; }
.bad { background: #fde2df; border-left: 6px solid #c0261a; padding: 8px 12px; color: #7a130a; }
table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
td.n, td.t { font-variant-numeric: tabular-nums; white-space: nowrap; color: #555; }
tr.event td { background: #eef3fb; font-weight: 600; } tr.edit td { background: #fff6dc; }
tr.undo td, tr.refused td, tr.fault td { background: #fde2df; }
.meta { color: #555; }
.stills { display: flex; gap: 8px; } .stills figure { margin: 4px 0; }
.stills img { width: 320px; border: 1px solid #999; } figcaption { font-size: 12px; color: #555; }
.protest { background: #fff8e6; border-left: 6px solid #d08a00; padding: 4px 12px; }
blockquote { margin: 6px 0 6px 12px; font-style: italic; }
"""


def render(
    path: Path,
    row: MatchRow,
    board: Board,
    total: int,
    verdict: Verdict,
    lodged: list[Lodged] | None = None,
    out: Path | None = None,
) -> str:
    if verdict.ok and verdict.macs:
        head = (
            f'<p class="ok">Hash chain verified with the director\'s key: {verdict.entries}'
            f" entries up to number {verdict.last_seq}, none lost, changed or reordered"
            f" ({verdict.macs} MACs checked).</p>"
        )
    elif verdict.ok:
        head = (
            f'<p class="ok">Hash chain verified: {verdict.entries} entries up to number'
            f" {verdict.last_seq}, none lost or reordered. Not checked with the director's key"
            " (`--key`): an entry changed with the whole chain recomputed would not show.</p>"
        )
    else:
        items = "".join(f"<li>{html.escape(p)}</li>" for p in verdict.problems)
        head = (
            '<div class="bad"><b>WARNING: this journal does not verify.</b> What follows may'
            f" not be what was recorded.<ul>{items}</ul></div>"
        )
    notes = "".join(f'<p class="meta">{html.escape(n)}</p>' for n in verdict.notes)
    against = [p for p in lodged or [] if _against(p, board)]
    if against:
        notes += _protest_html(path, board, against, out)
    header = row.header
    players = " v ".join(str(p) for p in header.get("players", [])) or "-"
    where = f"game {board.game}, board {board.board}" if board.game is not None else "all entries"
    rows = []
    events = sum(1 for e in board.entries if e.kind == EVENT)
    undos = sum(1 for e in board.entries if e.kind == UNDO)
    for entry in board.entries:
        cls, words = _what(entry)
        rows.append(
            f'<tr class="{cls}"><td class="n">{entry.seq}</td><td class="t">{_clock(entry.t)}</td>'
            f"<td>{html.escape(entry.source)}</td><td>{html.escape(words)}{_stills(entry)}</td></tr>"
        )
    rules = str(header.get("rules", row.kind))
    title = f"Protest record: match {row.id}, {where}"
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title><style>{CSS}</style><body>{head}"
        f"<h1>{html.escape(title)}</h1>"
        f'<p class="meta">{html.escape(players)} · rules {html.escape(rules)}'
        f" · board {board.number} of {total} played · {len(board.entries)} entries,"
        f" {events} confirmed events, {undos} undone · journal {html.escape(str(path))}</p>{notes}"
        "<h2>Every entry, in order</h2>"
        "<table><tr><th>no.</th><th>time</th><th>source</th><th>what</th></tr>"
        + "".join(rows)
        + "</table><p class=meta>Times are match time (minutes:seconds). Laws 144-151:"
        " a protest is decided on the record.</p></body></html>\n"
    )


def main(args: argparse.Namespace) -> int:
    path = Path(args.journal)
    try:
        verdict = verify(path, getattr(args, "key", None))
    except ValueError as exc:  # a key that is not one
        print(f"tableside protest: --key: {exc}", file=sys.stderr)
        return 2
    try:
        with Journal(path, create=False, readonly=True) as journal:
            row = journal.match(args.match) if args.match else journal.latest()
            if row is None:
                raise JournalError(f"{path}: no match in the journal")
            boards = boards_of(journal, row)
            lodged = protests_of(journal, row) if row.kind == "carrom" else []
    except (JournalError, EventError, ValueError) as exc:
        print(f"tableside protest: {exc}", file=sys.stderr)
        return 1
    if not boards:
        print(f"tableside protest: {path}: match {row.id} has no entries", file=sys.stderr)
        return 1
    protested = [b.number for p in lodged[-1:] for b in boards if _against(p, b)]
    wanted = args.board or (protested[-1] if protested else len(boards))
    if not 1 <= wanted <= len(boards):
        print(f"tableside protest: match {row.id} has boards 1-{len(boards)}", file=sys.stderr)
        return 1
    board = boards[wanted - 1]
    out = Path(args.output)
    target = out / f"protest-match{row.id}-board{wanted}.html"
    try:
        private_dir(out)
        copy_stills(path, board, out)
        write_atomic(target, render(path, row, board, len(boards), verdict, lodged, out))
    except OSError as exc:
        print(f"tableside protest: {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(target)
    if not verdict.ok:
        print(f"{path}: the journal does not verify (said at the top)", file=sys.stderr)
    return 0
