"""Reading what a user or an attacker may hand the kiosk: records, settings, journals' copies.

Whatever the input, a reader here answers with a clear refusal naming the file and the line,
never a traceback and never a hang:

- only regular files are read: a FIFO (opened without waiting for a writer), a device such as
  /dev/zero, or a folder is refused before a byte is read;
- a size limit per file and per line;
- bad UTF-8 is reported with its line;
- JSON: duplicate keys, NaN and Infinity (and numbers too large to be a float), integers of
  more than 30 digits, nesting deeper than 32 and lone surrogates (`"\\ud800"`) are refused;
- TOML: nesting deeper than 16 and integers or floats out of bounds are refused with the line.

The text functions (`loads_json`, `toml_problem`, `value_problem`) are pure and import only the
standard library, so the rules cores may use them on the text the command layer read.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

#: Limits. A season's carrom record is well under a megabyte; a settings file a few KiB.
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 256 * 1024
MAX_JSON_DEPTH = 32
MAX_TOML_DEPTH = 16
MAX_INT_DIGITS = 30


class UnsafeInput(ValueError):
    """Input refused: `reason`, and the 1-based `line` when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


class ReadRefused(UnsafeInput):
    """A file refused: str() is `PATH:LINE: reason` (or `PATH: reason`)."""

    def __init__(self, path: str | Path, reason: str, line: int | None = None) -> None:
        super().__init__(reason, line)
        self.path = str(path)

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.reason}"


# -- files -----------------------------------------------------------------------------


def read_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, what: str = "") -> bytes:
    """The bytes of a regular file of at most `max_bytes`; ReadRefused otherwise ("cannot
    read `what`: ...")."""
    cannot = f"cannot read {what}:" if what else "cannot read:"
    try:
        # O_NONBLOCK: a FIFO with no writer opens at once instead of waiting forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise ReadRefused(path, f"{cannot} {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadRefused(path, f"not a regular file ({_kind(info.st_mode)})")
        if info.st_size > max_bytes:
            raise ReadRefused(path, f"too large: {info.st_size} bytes, at most {max_bytes}")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:  # it grew while being read
            raise ReadRefused(path, f"too large: more than {max_bytes} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise ReadRefused(path, f"{cannot} {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(
    path: str | Path,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    max_line: int = MAX_LINE_BYTES,
    what: str = "",
) -> str:
    """A regular file's UTF-8 text, each line at most `max_line` bytes; ReadRefused naming
    the line otherwise."""
    return decode(read_bytes(path, max_bytes=max_bytes, what=what), path, max_line=max_line)


def decode(raw: bytes, path: str | Path, *, max_line: int = MAX_LINE_BYTES) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ReadRefused(path, "not UTF-8 text", line) from None
    start = 0
    number = 1
    while start <= len(raw):
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end
        if end - start > max_line:
            raise ReadRefused(
                path, f"line too long: {end - start} bytes, at most {max_line}", number
            )
        start = end + 1
        number += 1
    return text


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


# -- JSON ------------------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise UnsafeInput(f"the key {key!r} appears twice")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise UnsafeInput(f"{name} is not a JSON number")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise UnsafeInput(f"a number of {len(text)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 100:
        raise UnsafeInput(f"a number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeInput(f"{text[:20]} is too large for a number")
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_constant=_constant, parse_int=_int, parse_float=_float
)


def json_depth(text: str) -> int:
    """How deep [ and { nest in a JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads_json(text: str, column: str = "(column {})") -> Any:
    """One JSON value, strictly; UnsafeInput (its reason) for anything refused, including
    ordinary syntax errors ("not JSON: ... (column N)", worded by `column`)."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise UnsafeInput(f"not JSON: nested deeper than {MAX_JSON_DEPTH}")
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise UnsafeInput(f"not JSON: {exc.msg} " + column.format(exc.colno)) from None
    except UnsafeInput:
        raise
    except (ValueError, RecursionError) as exc:
        raise UnsafeInput(f"not JSON: {exc}") from None
    problem = value_problem(value)
    if problem is not None:
        raise UnsafeInput(problem)
    return value


def value_problem(value: Any, depth: int = 0) -> str | None:
    """What is wrong in a parsed value (lone surrogates, non-finite or huge numbers, too
    deep), or None."""
    if depth > MAX_JSON_DEPTH:
        return f"nested deeper than {MAX_JSON_DEPTH}"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "a string holds a lone surrogate (not text)"
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if value.bit_length() > 100:
            return "a whole number too large"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} is not a number here"
    if isinstance(value, dict):
        for key, item in value.items():
            problem = value_problem(key, depth + 1) or value_problem(item, depth + 1)
            if problem is not None:
                return problem
    elif isinstance(value, list | tuple):
        for item in value:
            problem = value_problem(item, depth + 1)
            if problem is not None:
                return problem
    return None


# -- TOML ------------------------------------------------------------------------------


def toml_problem(text: str) -> tuple[int, str] | None:
    """(line, reason) if a TOML text nests too deep or holds a number too long to read, which
    tomllib would answer with a RecursionError or a ValueError; None if it may be parsed."""
    depth = 0
    quote = ""
    for number, line in enumerate(text.split("\n"), start=1):
        i = 0
        digits = 0
        while i < len(line):
            ch = line[i]
            if quote:
                if ch == "\\" and quote == '"':
                    i += 2
                    continue
                if line.startswith(quote, i):
                    i += len(quote)
                    quote = ""
                    continue
            elif line.startswith(('"""', "'''"), i):
                quote = line[i : i + 3]
                i += 3
                continue
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            elif ch in "[{":
                depth += 1
                if depth > MAX_TOML_DEPTH:
                    return number, f"nested deeper than {MAX_TOML_DEPTH}"
            elif ch in "]}":
                depth = max(0, depth - 1)
            if not quote and ch.isdigit():
                digits += 1
                if digits > MAX_INT_DIGITS:
                    return number, f"a number of more than {MAX_INT_DIGITS} digits"
            elif ch != "_":
                digits = 0
            i += 1
        if len(quote) == 1:
            quote = ""  # a basic string ends with its line
    return None


def nonfinite_keys(data: Any, prefix: str = "") -> list[str]:
    """The dotted keys of a parsed TOML table whose value is (or holds) nan or inf."""
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(nonfinite_keys(value, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(data, list):
        if any(nonfinite_keys(item, prefix) for item in data):
            found.append(prefix)
    elif isinstance(data, float) and not math.isfinite(data):
        found.append(prefix)
    return found
