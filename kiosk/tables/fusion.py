"""Fusion: the pocket beams and the camera's board diff joined into one proposed stroke.

DESIGN.md, "the flow of one carrom stroke", step 3-4: during a stroke each beam reports a hit
(pocket, time, how long it was broken) and, once the coins are at rest, the camera's diff says
which coins vanished and near which pocket. The proposal says what was pocketed (by colour),
whether the striker went in and what jumped off the board, and for each pocket what each
source saw, so the umpire can see at a glance where they disagree. Nothing here enters the
match: the umpire confirms (or edits) the proposal first.

- Beams and camera: the camera gives the colours, the beams check the count at each pocket.
  A pocket where they differ, a coin the camera lost away from the pockets, or a striker the
  camera saw go with no beam hit to match, flags the proposal for the umpire.
- Camera alone: its diff as it is (flagged only for coins lost away from the pockets).
- Beams alone: the count per pocket and the likely colours (the striking side's own colour
  while it has coins on the board, then the other colour; never the queen or the striker),
  always flagged: the umpire taps the colours.
- Neither: an empty proposal for manual entry, flagged.

The camera's types are taken structurally (`DiffLike`, `GoneLike`: vision/diff.py's
`StrokeDiff` and `GoneCoin` fit), so this module stays pure and needs no OpenCV.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, cast

from drivers.hits import POCKETS
from kiosk.rules.carrom.errors import N_
from kiosk.rules.carrom.events import COINS, OFF_BOARD, Coin, OffBoard, Stroke


class HitLike(Protocol):
    """A beam hit (drivers/hits.py `BeamHit`)."""

    @property
    def pocket(self) -> int: ...
    @property
    def t(self) -> float: ...
    @property
    def duration(self) -> float: ...


class GoneLike(Protocol):
    """A coin the camera saw vanish (vision/diff.py `GoneCoin`); `pocket` None: not near one."""

    @property
    def colour(self) -> str: ...
    @property
    def pocket(self) -> int | None: ...


class DiffLike(Protocol):
    """The camera's before/after of a stroke (vision/diff.py `StrokeDiff`); it may carry
    `unseen` (coins hidden after the stroke) and `unsure` (classes the camera doubts)."""

    @property
    def gone(self) -> Sequence[GoneLike]: ...
    @property
    def striker_gone(self) -> bool: ...
    @property
    def off_board(self) -> Sequence[str]: ...


@dataclass(frozen=True, slots=True)
class PocketView:
    """What each source saw at one pocket: `beam` hits (None: the beam is out) and the
    colours the camera placed there."""

    pocket: int
    beam: int | None
    camera: tuple[str, ...] | None

    @property
    def agree(self) -> bool:
        return self.beam is None or self.camera is None or self.beam == len(self.camera)


#: The notes' words, one per kind: `str(note)` fills them in English (logs, the hall's JSON);
#: the console translates the same message and fills it with the same facts
#: (kiosk/ui/carrom_view.py `note_words`).
NOTE_TEXT = {
    "manual": N_("no beams and no camera: enter the stroke"),
    "striker_unmatched": N_("the camera saw the striker go in but no beam counted it"),
    "vanished_taken": N_("a {colours} coin vanished away from the pockets: taken as pocketed"),
    "vanished": N_("a {colours} coin vanished away from the pockets: where did it go?"),
    "counts_differ": N_("pocket {pockets}: the beam counted {beam}, the camera saw {camera}"),
    "unseen": N_("the camera could not see {colours}: check them"),
    "unsure": N_("camera unsure of {colours}: check the colours"),
    "beam_out_camera": N_("beam out at pocket {pockets}: the camera's count"),
    "beam_out": N_("beam out at pocket {pockets}: count its coins"),
    "guessed": N_("no camera: beam hits {beam}; colours guessed, tap to fix"),
}
#: English with its plural, where the translated message has none.
_ENGLISH = {"guessed": "no camera: {beam} hit{plural}; colours guessed, tap to fix"}


@dataclass(frozen=True, slots=True)
class Note:
    """Why the umpire should look at a proposal, as data: its `kind` (a key of NOTE_TEXT) and
    the facts it names (the pockets, the colours, the beam's and the camera's counts)."""

    kind: str
    pockets: tuple[int, ...] = ()
    colours: tuple[str, ...] = ()
    beam: int = 0
    camera: int = 0

    def facts(self) -> dict[str, str | int]:
        """The message's placeholders (the colours as the core names them)."""
        return {
            "pockets": ", ".join(map(str, self.pockets)),
            "colours": ", ".join(self.colours),
            "beam": self.beam,
            "camera": self.camera,
        }

    def __str__(self) -> str:
        text = _ENGLISH.get(self.kind, NOTE_TEXT[self.kind])
        return text.format(**self.facts(), plural="" if self.beam == 1 else "s")


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposed stroke: the fields of the record's `stroke` event and where they came from.

    `source`: "beams+camera", "camera", "unsure" (the camera doubts a class it may have
    counted), "beams", "manual" (no sensor), or "umpire" once edited. `review`: the umpire
    should look before confirming (the reasons in `notes`).
    """

    pocketed: tuple[Coin, ...] = ()
    striker: bool = False
    off_board: tuple[OffBoard, ...] = ()
    improper: bool = False
    touched: bool = True
    source: str = "manual"
    pockets: tuple[PocketView, ...] = ()
    notes: tuple[Note, ...] = ()
    review: bool = True
    hits: int = 0

    def edited(
        self,
        *,
        pocketed: Iterable[str] | None = None,
        striker: bool | None = None,
        off_board: Iterable[str] | None = None,
        improper: bool | None = None,
        touched: bool | None = None,
    ) -> Proposal:
        """The umpire's correction: what the umpire sets stands, and needs no more review.
        Raises ValueError for a colour that is not one."""
        changes: dict[str, object] = {"source": "umpire", "review": False}
        if pocketed is not None:
            changes["pocketed"] = _colours(pocketed, COINS, "pocketed")
        if off_board is not None:
            changes["off_board"] = _colours(off_board, OFF_BOARD, "off_board")
        if striker is not None:
            changes["striker"] = striker
        if improper is not None:
            changes["improper"] = improper
        if touched is not None:
            changes["touched"] = touched
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_stroke(self, t: float | None = None) -> Stroke:
        """The record's stroke event for this proposal."""
        return Stroke(
            pocketed=self.pocketed,
            striker=self.striker,
            off_board=self.off_board,
            improper=self.improper,
            touched=self.touched,
            t=t,
        )


def _colours(values: Iterable[str], allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    out = tuple(values)
    for value in out:
        if value not in allowed:
            raise ValueError(f"{what}: {value!r} is not one of {', '.join(allowed)}")
    return out


@dataclass(frozen=True, slots=True)
class Context:
    """What the guesses from beams alone may use: the striking side's colour and the coins
    on the board (the rules core's `Now.turn_colour` and `Now.on_board`)."""

    colour: str = "white"
    on_board: Mapping[str, int | bool] = field(default_factory=dict)


def fuse(
    hits: Sequence[HitLike],
    diff: DiffLike | None,
    *,
    beams: Iterable[int] = POCKETS,
    context: Context | None = None,
) -> Proposal:
    """One proposed stroke from the beam hits of the stroke and the camera's diff.

    `beams`: the pockets whose beams work (a stuck beam's pocket is left out, so its count is
    unknown rather than 0); `diff` None: no camera (or it failed). Hits at a pocket whose beam
    is out are ignored.
    """
    working = frozenset(beams)
    counts = Counter(h.pocket for h in hits if h.pocket in working)
    total = sum(counts.values())
    if diff is not None:
        return _with_camera(counts, working, diff, total)
    if working:
        return _beams_only(counts, working, context or Context(), total)
    return Proposal(
        source="manual",
        notes=(Note("manual"),),
        review=True,
        pockets=tuple(PocketView(p, None, None) for p in POCKETS),
    )


def _with_camera(
    counts: Counter[int], working: frozenset[int], diff: DiffLike, total: int
) -> Proposal:
    placed: dict[int, list[str]] = {p: [] for p in POCKETS}
    lost: list[str] = []
    for coin in diff.gone:
        if coin.colour not in COINS:
            continue  # the striker is reported by striker_gone
        if coin.pocket in placed:
            placed[coin.pocket].append(coin.colour)
        else:
            lost.append(coin.colour)
    off_board = tuple(c for c in diff.off_board if c in OFF_BOARD)
    # Coins lost away from a pocket that the camera also saw leave the board are explained.
    unexplained = list(lost)
    for colour in off_board:
        if colour in unexplained:
            unexplained.remove(colour)
    pocketed: list[str] = [c for p in POCKETS for c in placed[p]]
    notes: list[Note] = []
    views = tuple(
        PocketView(p, counts[p] if p in working else None, tuple(placed[p])) for p in POCKETS
    )
    if working:
        # Beam hits the camera's pocketed coins do not account for, per pocket: the striker,
        # if it went in, explains one; coins the camera lost track of may explain the rest.
        excess = {p: counts[p] - len(placed[p]) for p in working}

        def take_spare() -> bool:
            for p in sorted(working):
                if excess[p] > 0:
                    excess[p] -= 1
                    return True
            return False

        if diff.striker_gone and "striker" not in off_board and not take_spare():
            notes.append(Note("striker_unmatched"))
        for colour in list(unexplained):
            if take_spare():
                pocketed.append(colour)
                unexplained.remove(colour)
                notes.append(Note("vanished_taken", colours=(colour,)))
        for p in sorted(working):
            if excess[p]:
                notes.append(Note("counts_differ", (p,), beam=counts[p], camera=len(placed[p])))
        source = "beams+camera"
    else:
        source = "camera"
    for colour in unexplained:
        notes.append(Note("vanished", colours=(colour,)))
    unseen = tuple(getattr(diff, "unseen", ()) or ())
    if unseen:
        # Coins hidden (a hand over the board) when the camera looked after the stroke.
        notes.append(Note("unseen", colours=unseen))
    unsure = tuple(getattr(diff, "unsure", ()) or ())
    if unsure:
        # The detector doubts these classes before or after the stroke (vision.pieces.Doubt):
        # its colours are a guess; the beams' counts and the umpire's tap decide.
        notes.append(Note("unsure", colours=unsure))
        source = "unsure"
    review = bool(notes)
    out = [p for p in POCKETS if p not in working]
    if out and working:
        # Said, but not flagged: the camera sees that pocket, and the fault is on screen.
        notes.append(Note("beam_out_camera", tuple(out)))
    return Proposal(
        pocketed=_coins(pocketed),
        striker=bool(diff.striker_gone) and "striker" not in off_board,
        off_board=_off(off_board),
        source=source,
        pockets=views,
        notes=tuple(notes),
        review=review,
        hits=total,
    )


def _beams_only(
    counts: Counter[int], working: frozenset[int], context: Context, total: int
) -> Proposal:
    views = tuple(PocketView(p, counts[p] if p in working else None, None) for p in POCKETS)
    notes: list[Note] = []
    out = [p for p in POCKETS if p not in working]
    if out:
        notes.append(Note("beam_out", tuple(out)))
    if total == 0:
        return Proposal(source="beams", pockets=views, notes=tuple(notes), review=bool(notes))
    own = context.colour if context.colour in ("white", "black") else "white"
    other = "black" if own == "white" else "white"
    left = {c: int(context.on_board.get(c, 9)) for c in (own, other)}
    guess: list[str] = []
    for _ in range(total):
        colour = own if left[own] > 0 else other
        left[colour] -= 1
        guess.append(colour)
    notes.insert(0, Note("guessed", beam=total))
    return Proposal(
        pocketed=_coins(guess),
        source="beams",
        pockets=views,
        notes=tuple(notes),
        review=True,
        hits=total,
    )


def _coins(values: Iterable[str]) -> tuple[Coin, ...]:
    return tuple(cast(Coin, v) for v in values if v in COINS)


def _off(values: Iterable[str]) -> tuple[OffBoard, ...]:
    return tuple(cast(OffBoard, v) for v in values if v in OFF_BOARD)
