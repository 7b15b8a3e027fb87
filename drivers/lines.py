"""Sealed text lines, the framing both serial protocols share.

A line is ASCII `BODY *CCCC\\n`: CCCC is the CRC-16/CCITT-FALSE (poly 0x1021,
init 0xFFFF) of BODY's bytes, in upper-case hex. A microcontroller computes it
in a dozen lines of C; a line garbled on the wire fails the check and is
dropped (or refused, where the protocol says so) instead of being believed.
"""

from __future__ import annotations

import binascii

from drivers.errors import DriverError

MAX_LINE = 120  # bytes, newline included; longer input is garbage, not a line


class LineError(DriverError, ValueError):
    """A received line that is not a sealed line (bad checksum, no seal, not ASCII)."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (binascii.crc_hqx with init 0xFFFF)."""
    return binascii.crc_hqx(data, 0xFFFF)


def seal(body: str) -> bytes:
    """`body` as a sealed line ready to write."""
    raw = body.encode("ascii")
    if b"\n" in raw or b"*" in raw:
        raise ValueError(f"a line body cannot hold '*' or a newline: {body!r}")
    line = raw + b" *%04X\n" % crc16(raw)
    if len(line) > MAX_LINE:
        raise ValueError(f"line longer than {MAX_LINE} bytes: {body!r}")
    return line


def unseal(line: bytes) -> str:
    """The body of a sealed line (with or without its newline)."""
    text = line.rstrip(b"\r\n")
    body, sep, check = text.rpartition(b" *")
    if not sep:
        raise LineError(f"no checksum in {line!r}")
    try:
        expected = int(check, 16)
    except ValueError:
        raise LineError(f"checksum is not hex in {line!r}") from None
    if len(check) != 4 or crc16(body) != expected:
        raise LineError(f"checksum mismatch in {line!r}")
    try:
        return body.decode("ascii")
    except UnicodeDecodeError:
        raise LineError(f"not ASCII: {line!r}") from None
