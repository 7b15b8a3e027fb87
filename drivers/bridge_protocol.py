"""The sensor bridge's line protocol (docs/sensor-bridge-protocol.md), pure.

The bridge is a microcontroller that times the beams itself. Every line it
sends is sealed (drivers/lines.py) and starts with its kind and the bridge's
`micros()` when the line left, so each line is also a clock sample:

    HELLO <now_us> <boot_id> <version>     it has just started
    T <now_us>                             heartbeat, every 250 ms
    H <now_us> <pocket> <start_us> <duration_us>
    F <now_us> <pocket> <stuck|cleared|blocked_at_start> <at_us>
    SET <now_us> <glitch_us> <merge_us> <stuck_ms>   settings in force

The kiosk sends one line, on connecting: `SET <glitch_us> <merge_us> <stuck_ms>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from drivers.hits import FAULT_KINDS, POCKETS, FaultKind
from drivers.lines import LineError, seal, unseal

PROTOCOL_VERSION = 1
U32 = (1 << 32) - 1


@dataclass(frozen=True, slots=True)
class Hello:
    now_us: int
    boot_id: str
    version: int


@dataclass(frozen=True, slots=True)
class Heartbeat:
    now_us: int


@dataclass(frozen=True, slots=True)
class RawHit:
    now_us: int
    pocket: int
    start_us: int
    duration_us: int


@dataclass(frozen=True, slots=True)
class RawFault:
    now_us: int
    pocket: int
    kind: FaultKind
    at_us: int


@dataclass(frozen=True, slots=True)
class Settings:
    now_us: int
    glitch_us: int
    merge_us: int
    stuck_ms: int


BridgeMessage: TypeAlias = Hello | Heartbeat | RawHit | RawFault | Settings


def _u32(text: str, what: str) -> int:
    if not text.isdigit() or int(text) > U32:
        raise LineError(f"{what} is not a 32-bit count: {text!r}")
    return int(text)


def _pocket(text: str) -> int:
    if not text.isdigit() or int(text) not in POCKETS:
        raise LineError(f"pocket {text!r} is not 1-4")
    return int(text)


def parse_bridge_line(line: bytes) -> BridgeMessage:
    """One sealed line from the bridge; LineError (naming what is wrong) if not."""
    parts = unseal(line).split(" ")
    kind, args = parts[0], parts[1:]
    if kind == "HELLO" and len(args) == 3:
        return Hello(_u32(args[0], "now_us"), args[1], _u32(args[2], "version"))
    if kind == "T" and len(args) == 1:
        return Heartbeat(_u32(args[0], "now_us"))
    if kind == "H" and len(args) == 4:
        return RawHit(
            _u32(args[0], "now_us"),
            _pocket(args[1]),
            _u32(args[2], "start_us"),
            _u32(args[3], "duration_us"),
        )
    if kind == "F" and len(args) == 4:
        if args[2] not in FAULT_KINDS:
            raise LineError(f"fault kind {args[2]!r} is not one of {', '.join(FAULT_KINDS)}")
        fault_kind: FaultKind = args[2]  # narrowed by the check above
        return RawFault(
            _u32(args[0], "now_us"), _pocket(args[1]), fault_kind, _u32(args[3], "at_us")
        )
    if kind == "SET" and len(args) == 4:
        n = [_u32(a, "setting") for a in args]
        return Settings(n[0], n[1], n[2], n[3])
    raise LineError(f"not a bridge line: {line!r}")


def encode_bridge_message(msg: BridgeMessage) -> bytes:
    """The sealed line for `msg` (what the firmware prints; the simulator uses it)."""
    if isinstance(msg, Hello):
        return seal(f"HELLO {msg.now_us} {msg.boot_id} {msg.version}")
    if isinstance(msg, Heartbeat):
        return seal(f"T {msg.now_us}")
    if isinstance(msg, RawHit):
        return seal(f"H {msg.now_us} {msg.pocket} {msg.start_us} {msg.duration_us}")
    if isinstance(msg, RawFault):
        return seal(f"F {msg.now_us} {msg.pocket} {msg.kind} {msg.at_us}")
    return seal(f"SET {msg.now_us} {msg.glitch_us} {msg.merge_us} {msg.stuck_ms}")


def encode_settings(glitch_s: float, merge_s: float, stuck_s: float) -> bytes:
    """The kiosk's one command: the filter settings for the bridge to use."""
    return seal(f"SET {round(glitch_s * 1e6)} {round(merge_s * 1e6)} {round(stuck_s * 1e3)}")


def parse_settings_command(line: bytes) -> tuple[int, int, int]:
    """The bridge's side of `SET glitch_us merge_us stuck_ms` (the simulator uses it)."""
    parts = unseal(line).split(" ")
    if len(parts) != 4 or parts[0] != "SET":
        raise LineError(f"not a settings command: {line!r}")
    return _u32(parts[1], "glitch_us"), _u32(parts[2], "merge_us"), _u32(parts[3], "stuck_ms")
