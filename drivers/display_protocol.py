"""The player display's line protocol (docs/display-protocol.md), pure.

Every frame carries the whole picture, so a lost frame is repaired by the
next one and a display that restarts needs only the latest. The kiosk sends
one frame at a time and waits for its acknowledgement (stop-and-wait); no
answer within `ack_timeout_s` means a resend, and after `retries` resends
the display is reported silent and tried again less often (back-off).
`DisplayLink` holds that logic with time passed in; drivers/display.py runs
it on a serial port, drivers/display_sim.py answers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from drivers.errors import DriverError
from drivers.lines import LineError, seal, unseal

Turn: TypeAlias = Literal["L", "R", "-"]
SEQ_MOD = 10000  # sequence numbers run 0..9999 and wrap

_CLOCK = re.compile(r"^(?:-|\d{1,3}:\d{2}|\d{1,4})$")
_MESSAGE = re.compile(r"^[A-Z0-9 .:!?+/-]{0,12}$")
_GAMES = re.compile(r"^(?:-|\d{1,2}-\d{1,2})$")
_INITIALS = re.compile(r"^[A-Z0-9]{0,3}$")
#: The queen (carrom): "-" none (not carrom), "O" on the board, "P" pocketed and to be
#: covered, "L" or "R" covered by that side.
QUEEN_STATES = ("-", "O", "P", "L", "R")


class FrameError(DriverError, ValueError):
    """A frame that cannot be shown, naming the field."""


@dataclass(frozen=True, slots=True)
class DisplayFrame:
    """What the players see: the two scores, the clock, whose turn, the board
    number and a short message ("QUEEN", "FOUL", "CHANGE SIDES").

    `clock` is "M:SS", plain seconds, or "-" for none; `message` is at most
    12 characters of A-Z 0-9, space and .:!?+/- (an LED segment font).
    """

    left: int = 0
    right: int = 0
    clock: str = "-"
    turn: Turn = "-"
    board: int = 0
    message: str = ""
    # Version 2 (docs/display-protocol.md): the games won, the queen, both sides' own
    # clocks (the backgammon banks), the delay, and each side's Latin initials.
    games: str = "-"
    queen: str = "-"
    left_clock: str = "-"
    right_clock: str = "-"
    delay: str = "-"
    left_name: str = ""
    right_name: str = ""
    # Version 3: the backgammon match's length, so that with `left` and `right` the board
    # shows the match score ("4-2 to 5") whatever the message says (0: not a match).
    match_length: int = 0

    def __post_init__(self) -> None:
        for name in ("left", "right", "board"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
                raise FrameError(f"display frame {name}: {value!r} is not a number 0-999")
        if not _CLOCK.match(self.clock):
            raise FrameError(f"display frame clock: {self.clock!r} is not M:SS, seconds or -")
        if self.turn not in ("L", "R", "-"):
            raise FrameError(f"display frame turn: {self.turn!r} is not L, R or -")
        if not _MESSAGE.match(self.message):
            raise FrameError(
                f"display frame message: {self.message!r} is not 12 of A-Z 0-9 space .:!?+/-"
            )
        for name in ("left_clock", "right_clock", "delay"):
            if not _CLOCK.match(getattr(self, name)):
                raise FrameError(f"display frame {name}: {getattr(self, name)!r} is not M:SS")
        if not _GAMES.match(self.games):
            raise FrameError(f"display frame games: {self.games!r} is not N-N (0-99) or -")
        if self.queen not in QUEEN_STATES:
            raise FrameError(f"display frame queen: {self.queen!r} is not one of - O P L R")
        for name in ("left_name", "right_name"):
            if not _INITIALS.match(getattr(self, name)):
                raise FrameError(f"display frame {name}: {getattr(self, name)!r} is not 0-3 A-Z")
        length = self.match_length
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= 99:
            raise FrameError(f"display frame match_length: {length!r} is not a number 0-99")


def encode_frame(seq: int, frame: DisplayFrame) -> bytes:
    """`F seq L=.. R=.. C=.. T=.. B=.. M=..` sealed (spaces in M sent as `_`)."""
    message = frame.message.replace(" ", "_")
    return seal(
        f"F {seq} L={frame.left} R={frame.right} C={frame.clock} T={frame.turn} "
        f"B={frame.board} M={message} G={frame.games} Q={frame.queen} X={frame.left_clock} "
        f"Y={frame.right_clock} D={frame.delay} N={frame.left_name}/{frame.right_name} "
        f"P={frame.match_length}"
    )


def decode_frame(body: str) -> tuple[int, DisplayFrame]:
    """The sequence number and frame of an unsealed `F` line (display side)."""
    parts = body.split(" ")
    if len(parts) < 8 or parts[0] != "F":
        raise LineError(f"not a frame: {body!r}")
    try:
        seq = int(parts[1])
        fields = dict(p.split("=", 1) for p in parts[2:])
        # Version 1's fields are required; version 2's and 3's have defaults (a version 1
        # frame is still read); a field a later version adds is skipped.
        left_name, _, right_name = fields.get("N", "/").partition("/")
        frame = DisplayFrame(
            left=int(fields["L"]),
            right=int(fields["R"]),
            clock=fields["C"],
            turn=fields["T"],  # type: ignore[arg-type]  # checked by DisplayFrame
            board=int(fields["B"]),
            message=fields["M"].replace("_", " "),
            games=fields.get("G", "-"),
            queen=fields.get("Q", "-"),
            left_clock=fields.get("X", "-"),
            right_clock=fields.get("Y", "-"),
            delay=fields.get("D", "-"),
            left_name=left_name,
            right_name=right_name,
            match_length=int(fields.get("P", "0")),
        )
    except (KeyError, ValueError) as exc:
        raise LineError(f"bad frame {body!r}: {exc}") from None
    return seq, frame


@dataclass(frozen=True, slots=True)
class Reply:
    """What the display says: "A" ack of `seq`, "N" refusal (`seq` None when it
    could not read one), or "R" it has just started (`seq` None, `boot` its id)."""

    kind: Literal["A", "N", "R"]
    seq: int | None = None
    boot: str = ""


def encode_reply(reply: Reply) -> bytes:
    if reply.kind == "R":
        return seal(f"R {reply.boot or '0'}")
    return seal(f"{reply.kind} {'?' if reply.seq is None else reply.seq}")


def decode_reply(line: bytes) -> Reply:
    """A display's sealed reply line; LineError if garbled."""
    parts = unseal(line).split(" ")
    if len(parts) == 2 and parts[0] == "R":
        return Reply("R", None, parts[1])
    if len(parts) == 2 and parts[0] in ("A", "N"):
        if parts[1] == "?":
            return Reply(parts[0], None)  # type: ignore[arg-type]
        if parts[1].isdigit():
            return Reply(parts[0], int(parts[1]))  # type: ignore[arg-type]
    raise LineError(f"not a display reply: {line!r}")


LinkState: TypeAlias = Literal["starting", "ok", "silent"]


class DisplayLink:
    """The kiosk's side of the protocol with time passed in.

    Each method returns the bytes to write now (b"" for nothing). Every
    transmission carries a new sequence number; an ack counts only for the
    latest one, so a late ack of an older frame cannot confirm a newer one.
    """

    def __init__(
        self,
        *,
        ack_timeout_s: float = 0.25,
        retries: int = 3,
        keepalive_s: float = 2.0,
        backoff_max_s: float = 8.0,
    ) -> None:
        self.ack_timeout_s = ack_timeout_s
        self.retries = retries
        self.keepalive_s = keepalive_s
        self.backoff_max_s = backoff_max_s
        self.state: LinkState = "starting"
        self.frame = DisplayFrame()  # the latest picture
        self.acked: DisplayFrame | None = None  # what the display is known to show
        self.garbled = 0  # replies that failed the checksum
        self.resets = 0  # times the display announced a restart
        self._seq = 0
        self._outstanding: int | None = None  # seq awaiting an ack
        self._sent_frame = self.frame
        self._sent_at = 0.0
        self._tries = 0  # transmissions of the outstanding picture without an ack
        self._wait_s = ack_timeout_s
        self._last_ack = 0.0

    def connect(self, now: float) -> bytes:
        """A (re)opened port: the display may have missed anything; send all."""
        self.state = "starting"
        self._outstanding = None
        self._tries = 0
        self._wait_s = self.ack_timeout_s
        return self._send(now)

    def show(self, frame: DisplayFrame, now: float) -> bytes:
        """A new picture: sent now unless a frame is in flight (then on its ack)."""
        self.frame = frame
        if self._outstanding is None and frame != self.acked:
            return self._send(now)
        return b""

    def receive(self, line: bytes, now: float) -> bytes:
        try:
            reply = decode_reply(line)
        except LineError:
            self.garbled += 1
            return b""
        if reply.kind == "R":  # the display restarted: resynchronise at once
            self.resets += 1
            self.acked = None
            self._tries = 0
            return self._send(now)
        if reply.seq is None or reply.seq != self._outstanding:
            if reply.kind == "N" and self._outstanding is not None:
                return self._send(now)  # it could not read our frame: resend
            return b""
        if reply.kind == "N":
            return self._send(now)
        self.acked = self._sent_frame
        self._outstanding = None
        self._tries = 0
        self._wait_s = self.ack_timeout_s
        self._last_ack = now
        self.state = "ok"
        if self.frame != self.acked:
            return self._send(now)
        return b""

    def poll(self, now: float) -> bytes:
        """Resends on a missing ack, and keeps a quiet link alive."""
        if self._outstanding is not None:
            if now - self._sent_at < self._wait_s:
                return b""
            if self._tries > self.retries:
                self.state = "silent"
                self._wait_s = min(self._wait_s * 2, self.backoff_max_s)
            return self._send(now)
        if now - self._last_ack >= self.keepalive_s:
            return self._send(now)  # a keepalive: notices a display unplugged
        return b""

    def next_deadline(self) -> float:
        if self._outstanding is not None:
            return self._sent_at + self._wait_s
        return self._last_ack + self.keepalive_s

    def _send(self, now: float) -> bytes:
        self._seq = (self._seq + 1) % SEQ_MOD
        self._outstanding = self._seq
        self._sent_frame = self.frame
        self._sent_at = now
        self._tries += 1
        return encode_frame(self._seq, self.frame)
