"""The kiosk's settings: a TOML file read with tomllib into frozen, typed dataclasses.

`load_settings(path)` returns a `Settings` or raises `ConfigError` listing every problem,
each with its key (and the line of the file where it can be found); `check_settings(path)`
returns the same problems as a list, for `tableside config check`. A key left out takes its
default, so a table's file holds only what differs from the shipped defaults
(kiosk/defaults/default.toml, read with importlib.resources; `Settings()` equals it). Unknown
sections and keys are problems too: a misspelt key must not silently fall back to a default.

The sections are in kiosk/config/sections.py, the value checkers in kiosk/config/checks.py,
the umpire's PIN hashing in kiosk/access/pins.py; every name is importable from here as before.
"""

from __future__ import annotations

import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from kiosk.access.pins import (
    DEFAULT_PIN_HASH,
    MAX_PIN_ITERATIONS,
    MIN_PIN_ITERATIONS,
    PIN_HASH_ITERATIONS,
    SIMULATED_DIRECTOR_HASH,
    check_pin,
    hash_pin,
)
from kiosk.atomic import write_atomic
from kiosk.clocks.turn import TimerSettings
from kiosk.config.checks import Bad
from kiosk.config.hall import HallSettings
from kiosk.config.sections import (
    GAMES,
    LANGUAGES,
    PIN_FACTORIES,
    POCKET_SOURCES,
    BackgammonSettings,
    BhukharSettings,
    BridgeSettings,
    BuzzerSettings,
    CameraSettings,
    DisplaySettings,
    FusionSettings,
    JournalSettings,
    PocketSettings,
    RulesSettings,
    Settings,
    TableSettings,
    UiSettings,
    UmpireSettings,
    checker,
)
from kiosk.errors import TablesideError
from kiosk.safe_read import ReadRefused, nonfinite_keys, read_text, toml_problem

__all__ = [
    "DEFAULT_PATH",
    "DEFAULT_PIN_HASH",
    "GAMES",
    "LANGUAGES",
    "MAX_PIN_ITERATIONS",
    "MIN_PIN_ITERATIONS",
    "PIN_FACTORIES",
    "PIN_HASH_ITERATIONS",
    "POCKET_SOURCES",
    "BackgammonSettings",
    "BhukharSettings",
    "BridgeSettings",
    "BuzzerSettings",
    "CameraSettings",
    "ConfigError",
    "DisplaySettings",
    "FusionSettings",
    "HallSettings",
    "JournalSettings",
    "PocketSettings",
    "Problem",
    "RulesSettings",
    "Settings",
    "TableSettings",
    "TimerSettings",
    "UiSettings",
    "UmpireSettings",
    "check_pin",
    "check_settings",
    "default_text",
    "dump_settings",
    "hash_pin",
    "load_settings",
    "parse_settings",
    "save_settings",
    "with_values",
]

#: The settings shipped inside the package, commented (what `tableside config init` writes).
#: A wheel is installed unpacked, so the resource is a file on disk with a path.
DEFAULT_RESOURCE = resources.files("kiosk.defaults").joinpath("default.toml")
DEFAULT_PATH = Path(str(DEFAULT_RESOURCE))


def default_text() -> str:
    """The text of the shipped default settings file, comments and all."""
    return DEFAULT_RESOURCE.read_text(encoding="utf-8")


_DEFAULTS = Settings()


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a settings file: where (file, line, key) and what."""

    path: str
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ConfigError(TablesideError, ValueError):
    """The settings cannot be used; `problems` lists every one, each with its key."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def _key_lines(text: str) -> dict[str, int]:
    """Where each "section.key" (and "section") is written, so a problem can name its line.

    A light scan of the common TOML layout (a [section] header, then `key = value`); keys it
    cannot place are reported without a line.
    """
    lines: dict[str, int] = {}
    section = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        header = re.fullmatch(r"\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?", line)
        if header:
            section = header.group(1)
            lines.setdefault(section, number)
            continue
        assignment = re.match(r"([A-Za-z0-9_.-]+)\s*=", line)
        if assignment:
            name = assignment.group(1)
            lines.setdefault(f"{section}.{name}" if section else name, number)
    return lines


def toml_error_facts(exc: tomllib.TOMLDecodeError, text: str) -> tuple[str, int, int | None]:
    """A TOML syntax error's facts: tomllib's own message, the line (the last line when the
    error is at the end of the text) and the column (None at the end).

    Python 3.14's error carries them (`msg`, `lineno`, `colno`, `pos`). Before 3.14 it is only
    its text: the message, then the position tomllib appends, " (at line L, column C)" or
    " (at end of document)"; the facts are read from that suffix, never from the words."""
    last = max(1, len(text.splitlines()))
    msg, line, column = (getattr(exc, name, None) for name in ("msg", "lineno", "colno"))
    if isinstance(msg, str) and isinstance(line, int) and isinstance(column, int):
        at_end = getattr(exc, "pos", 0) >= len(text)
        return msg, last if at_end else line, None if at_end else column
    message, _, at = str(exc).rpartition(" (at ")
    if not message:  # no position appended
        return str(exc), last, None
    place = _TOML_PLACE.fullmatch(at)
    if place is None:
        return message, last, None
    return message, int(place.group(1)), int(place.group(2))


#: The position tomllib appends to its message before Python 3.14 ("line 3, column 5)").
_TOML_PLACE = re.compile(r"line (\d+), column (\d+)\)")


def _cross_checks(s: Settings) -> list[tuple[str, str]]:
    """Problems between keys: a pin used twice, a warning after the time it warns of."""
    out: list[tuple[str, str]] = []
    if s.pockets.source == "gpio" and s.buzzer.pin in s.pockets.pins:
        pocket = s.pockets.pins.index(s.buzzer.pin) + 1
        out.append(("buzzer.pin", f"pin {s.buzzer.pin} is already pocket {pocket}'s beam"))
    if s.pockets.source == "bridge" and not s.bridge.port:
        out.append(("bridge.port", 'is needed when pockets.source is "bridge"'))
    warn_at, beep_from = s.timers.warn_at_s or 0, s.timers.beep_from_s or 0  # None: no warning
    if beep_from > warn_at:
        out.append(("timers.beep_from_s", "must not be more than timers.warn_at_s"))
    shortest = min(s.timers.stroke_s, s.timers.break_s, s.timers.placing_s, s.timers.waive_s)
    if warn_at >= shortest:
        out.append(
            ("timers.warn_at_s", f"must be less than the shortest turn timer ({shortest:g} s)")
        )
    if any(w >= s.bhukhar.round_minutes for w in s.bhukhar.warn_minutes):
        out.append(("bhukhar.warn_minutes", "each must be less than bhukhar.round_minutes"))
    if s.display.port and s.display.port == s.bridge.port:
        out.append(("display.port", "is the same port as bridge.port"))
    return out


def _section(
    cls: type[Any], raw: Mapping[str, Any], name: str
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The keys of `raw` that section `cls` takes, checked, and the problems (`name.key`,
    message) of those it refuses or does not know."""
    values: dict[str, Any] = {}
    bad: list[tuple[str, str]] = []
    known = {f.name for f in fields(cls)}
    for f in fields(cls):
        if f.name not in raw:
            continue
        try:
            values[f.name] = checker(cls, f)(raw[f.name])
        except Bad as exc:
            bad.append((f"{name}.{f.name}", str(exc)))
    for key in raw:
        if key not in known:
            bad.append((f"{name}.{key}", f"unknown key (known: {', '.join(sorted(known))})"))
    return values, bad


def parse_settings(text: str, path: str = "<settings>") -> tuple[Settings, list[Problem]]:
    """The settings in a TOML text and every problem found; where there are problems the
    settings hold the defaults for the keys concerned, so the caller must check the list."""
    unsafe = toml_problem(text)  # what would make tomllib recurse or choke, with its line
    if unsafe is not None:
        return Settings(), [Problem(path, "", f"not valid TOML: {unsafe[1]}", unsafe[0])]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line, _column = toml_error_facts(exc, text)
        return Settings(), [Problem(path, "", f"not valid TOML: {message}", line)]
    except (ValueError, RecursionError) as exc:  # what toml_problem did not foresee
        return Settings(), [Problem(path, "", f"not valid TOML: {exc}")]
    where = _key_lines(text)
    nonfinite = [
        Problem(path, key, "must be a finite number, not nan or inf", where.get(key))
        for key in nonfinite_keys(data)
    ]
    if nonfinite:
        return Settings(), nonfinite
    found: list[tuple[str, str]] = []
    sections: dict[str, Any] = {}
    known = {f.name: type(getattr(_DEFAULTS, f.name)) for f in fields(Settings)}
    for name, raw in data.items():
        if name not in known:
            found.append((name, f"unknown section (known: {', '.join(known)})"))
        elif not isinstance(raw, dict):
            found.append((name, "must be a [section] of keys"))
    for name, section_cls in known.items():
        raw = data.get(name, {})
        if not isinstance(raw, dict):
            sections[name] = section_cls()
            continue
        values, bad = _section(section_cls, raw, name)
        sections[name] = section_cls(**values)
        found.extend(bad)
    settings = Settings(**sections)
    if not found:
        found.extend(_cross_checks(settings))
    problems = [Problem(path, key, message, where.get(key)) for key, message in found]
    return settings, problems


def check_settings(path: str | Path) -> list[Problem]:
    """Every problem in the settings file at `path` (an empty list when it can be used)."""
    return _read(path)[1]


def load_settings(path: str | Path | None = None) -> Settings:
    """The settings at `path` (default: the shipped defaults); raises ConfigError."""
    if path is None:
        settings, problems = parse_settings(default_text(), str(DEFAULT_PATH))
    else:
        settings, problems = _read(path)
    if problems:
        raise ConfigError(problems)
    return settings


def _read(path: str | Path) -> tuple[Settings, list[Problem]]:
    name = str(path)
    try:
        text = read_text(path, max_bytes=1 << 20, max_line=1 << 16)  # a regular file, bounded
    except ReadRefused as exc:
        return Settings(), [Problem(name, "", exc.reason, exc.line)]
    return parse_settings(text, name)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "0"  # board_limit: no limit
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def dump_settings(settings: Settings) -> str:
    """The TOML text of `settings` (what the settings screen writes back); parse_settings
    reads it back to equal settings."""
    out: list[str] = []
    for section in fields(settings):
        out.append(f"[{section.name}]")
        values = getattr(settings, section.name)
        for f in fields(values):
            out.append(f"{f.name} = {_toml_value(getattr(values, f.name))}")
        out.append("")
    return "\n".join(out)


def save_settings(settings: Settings, path: str | Path) -> None:
    """Write `settings` to `path` (what the settings screen keeps): to a temporary file first,
    synced, then renamed over the old one, so a power cut leaves the old or the new file."""
    target = Path(path)
    text = dump_settings(_without_simulated_pins(settings))
    problems = parse_settings(text, str(target))[1]
    if problems:
        raise ConfigError(problems)
    # The file holds the PIN hashes: it keeps the mode the installer gave it (0640 with the
    # service's group, never more), and a new one is the kiosk's alone, whatever the umask.
    try:
        mode = stat.S_IMODE(target.stat().st_mode) & 0o640
    except FileNotFoundError:
        mode = 0o600
    write_atomic(target, text, mode=mode | 0o600)


def _without_simulated_pins(settings: Settings) -> Settings:
    """`settings` without the PINs `--simulate` fills in (1234, 4321): they must never reach
    a settings file a real start reads, where they would stand for the director's PINs."""
    umpire = settings.umpire
    simulated = {DEFAULT_PIN_HASH, SIMULATED_DIRECTOR_HASH}
    if umpire.pin_hash not in simulated and umpire.director_pin_hash not in simulated:
        return settings
    return replace(
        settings,
        umpire=replace(
            umpire,
            pin_hash="" if umpire.pin_hash in simulated else umpire.pin_hash,
            director_pin_hash=""
            if umpire.director_pin_hash in simulated
            else umpire.director_pin_hash,
        ),
    )


def with_values(settings: Settings, **sections: Mapping[str, Any]) -> Settings:
    """A copy of `settings` with some keys changed, e.g. `with_values(s, timers={"stroke_s":
    10})`, checked like a file; raises ConfigError naming the bad keys."""
    problems: list[Problem] = []
    changed: dict[str, Any] = {}
    for name, values in sections.items():
        current = getattr(settings, name, None)
        if current is None:
            problems.append(Problem("<settings>", name, "unknown section"))
            continue
        checked, bad = _section(type(current), values, name)
        problems.extend(Problem("<settings>", key, message) for key, message in bad)
        changed[name] = replace(current, **checked)
    result = replace(settings, **changed)
    if not problems:
        problems.extend(
            Problem("<settings>", key, message) for key, message in _cross_checks(result)
        )
    if problems:
        raise ConfigError(problems)
    return result
