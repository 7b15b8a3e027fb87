"""The kiosk's settings: a TOML file read with tomllib into frozen, typed dataclasses.

`load_settings(path)` returns a `Settings` or raises `ConfigError` listing every problem,
each with its key (and the line of the file where it can be found); `check_settings(path)`
returns the same problems as a list, for `tableside config check`. A key left out takes its
default, so a table's file holds only what differs from the shipped defaults
(kiosk/defaults/default.toml, read with importlib.resources; `Settings()` equals it). Unknown
sections and keys are problems too: a misspelt key must not silently fall back to a default.

The umpire's PIN is stored only as a salted hash (`hash_pin`, `check_pin`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from kiosk.errors import TablesideError
from kiosk.hall.settings import HallSettings  # the [hall] section (docs/hall.md)
from kiosk.rules.carrom.variants import rule_set_names
from kiosk.safe_read import ReadRefused, nonfinite_keys, read_text, toml_problem

#: The settings shipped inside the package, commented (what `tableside config init` writes).
#: A wheel is installed unpacked, so the resource is a file on disk with a path.
DEFAULT_RESOURCE = resources.files("kiosk.defaults").joinpath("default.toml")
DEFAULT_PATH = Path(str(DEFAULT_RESOURCE))


def default_text() -> str:
    """The text of the shipped default settings file, comments and all."""
    return DEFAULT_RESOURCE.read_text(encoding="utf-8")


GAMES = ("carrom", "backgammon", "bhukhar")
RULE_SETS = rule_set_names()
POCKET_SOURCES = ("gpio", "bridge", "simulated")
#: gpiozero's pin factories by their GPIOZERO_PIN_FACTORY names; "" leaves the choice to
#: gpiozero (the environment variable, then its own default order).
PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
#: BCM numbers of the 40-pin header's GPIO lines.
BCM_PINS = range(0, 28)
PIN_HASH_SCHEME = "pbkdf2_sha256"
#: Bounds a settings file's PBKDF2 iteration count, so that checking a PIN stays quick.
MAX_PIN_ITERATIONS = 5_000_000
PIN_HASH_ITERATIONS = 100_000


class _Bad(Exception):
    """A value a checker refuses; the message says what was expected."""


def _check(checker: Callable[[Any], Any]) -> dict[str, Callable[[Any], Any]]:
    return {"check": checker}


def _number_text(value: Any) -> str:
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def _choice(*options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options:
            shown = ", ".join(f'"{o}"' for o in options)
            raise _Bad(f"must be one of {shown}, not {_number_text(value)}")
        return str(value)

    return check


def _int(lo: int, hi: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"must be a whole number, not {_number_text(value)}")
        if not lo <= value <= hi:
            raise _Bad(f"must be from {lo} to {hi}, not {value}")
        return value

    return check


def _seconds(lo: float, hi: float, *, open_low: bool = False) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Bad(f"must be a number, not {_number_text(value)}")
        low_ok = value > lo if open_low else value >= lo
        if not low_ok or value > hi:
            low = f"more than {lo:g}" if open_low else f"at least {lo:g}"
            raise _Bad(f"must be {low} and at most {hi:g}, not {value}")
        return float(value)

    return check


def _whole_seconds(lo: int, hi: int) -> Callable[[Any], float]:
    check_number = _seconds(lo, hi)

    def check(value: Any) -> float:
        seconds = check_number(value)
        if not seconds.is_integer():
            raise _Bad(f"must be a whole number of seconds, not {value}")
        return seconds

    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"must be true or false, not {_number_text(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(f"must be a string, not {_number_text(value)}")
    return value


def _pins(value: Any) -> tuple[int, ...]:
    """Four BCM numbers, pocket 1 to 4 (contracts: 1 bottom-left, 2 top-left, ...)."""
    if not isinstance(value, list) or len(value) != 4:
        raise _Bad(f"must list 4 BCM pin numbers, pocket 1 to 4, not {_number_text(value)}")
    for pocket, pin in enumerate(value, start=1):
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
            raise _Bad(f"pocket {pocket}: {_number_text(pin)} is not a BCM pin (0 to 27)")
    for pocket, pin in enumerate(value, start=1):
        if value.index(pin) != pocket - 1:
            raise _Bad(
                f"pocket {pocket} uses pin {pin}, already used by pocket {value.index(pin) + 1}"
            )
    return tuple(value)


def _board_limit(value: Any) -> int | None:
    """8 boards before the quarter-final (law 56); 0 means no limit (a game to 25 only)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Bad(f"must be a number of boards, or 0 for no limit, not {_number_text(value)}")
    return value or None


def _camera_source(value: Any) -> str:
    if isinstance(value, str):
        if value in ("none", "synthetic", "picamera2"):
            return value
        if re.fullmatch(r"usb:\d+", value):
            return value
        if value.startswith("file:") and len(value) > len("file:"):
            return value
    raise _Bad(
        'must be "usb:N", "picamera2", "file:PATH", "synthetic" or "none", '
        f"not {_number_text(value)}"
    )


def _calibration(value: Any) -> tuple[tuple[float, float], ...]:
    """The four pocket centres in the camera image, pocket 1 to 4, or [] when not calibrated."""
    if not isinstance(value, list) or len(value) not in (0, 4):
        raise _Bad(f"must be [] or 4 [x, y] points (pockets 1 to 4), not {_number_text(value)}")
    points: list[tuple[float, float]] = []
    for pocket, point in enumerate(value, start=1):
        ok = isinstance(point, list) and len(point) == 2
        ok = ok and all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)
        if not ok:
            raise _Bad(f"pocket {pocket}: {_number_text(point)} is not an [x, y] point")
        points.append((float(point[0]), float(point[1])))
    return tuple(points)


def _pin_hash(value: Any) -> str:
    if not isinstance(value, str) or _split_hash(value) is None:
        raise _Bad(
            f'must be "{PIN_HASH_SCHEME}$ITERATIONS$SALT$HASH" as made by kiosk.config.hash_pin'
        )
    return value


def _split_hash(text: str) -> tuple[int, bytes, bytes] | None:
    parts = text.split("$")
    if len(parts) != 4 or parts[0] != PIN_HASH_SCHEME or not parts[1].isdigit():
        return None
    if len(parts[1]) > 8 or int(parts[1]) > MAX_PIN_ITERATIONS:
        return None  # a PIN check must not take minutes
    try:
        salt, digest = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
    except ValueError:
        return None
    if int(parts[1]) < 1 or len(salt) < 8 or len(digest) != 32:
        return None
    return int(parts[1]), salt, digest


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_HASH_ITERATIONS) -> str:
    """The stored form of an umpire PIN: PBKDF2-HMAC-SHA256 with a random 16-byte salt."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"{PIN_HASH_SCHEME}${iterations}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, pin_hash: str) -> bool:
    """Whether `pin` is the PIN `pin_hash` was made from (constant-time comparison)."""
    parts = _split_hash(pin_hash)
    if parts is None:
        return False
    iterations, salt, digest = parts
    return hmac.compare_digest(
        hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations), digest
    )


@dataclass(frozen=True, slots=True)
class TableSettings:
    game: str = field(default="carrom", metadata=_check(_choice(*GAMES)))


@dataclass(frozen=True, slots=True)
class RulesSettings:
    """`set`: "icf" (ICF laws) or "club"; `board_limit` None: no limit (law 56)."""

    set: str = field(default="icf", metadata=_check(_choice(*RULE_SETS)))
    board_limit: int | None = field(default=8, metadata=_check(_board_limit))


@dataclass(frozen=True, slots=True)
class PocketSettings:
    source: str = field(default="gpio", metadata=_check(_choice(*POCKET_SOURCES)))
    pins: tuple[int, ...] = field(default=(17, 27, 22, 23), metadata=_check(_pins))
    pin_factory: str = field(default="", metadata=_check(_choice(*PIN_FACTORIES)))
    glitch_ms: float = field(default=0.5, metadata=_check(_seconds(0.0, 50.0)))
    stuck_s: float = field(default=2.0, metadata=_check(_seconds(0.1, 60.0)))


@dataclass(frozen=True, slots=True)
class BuzzerSettings:
    pin: int = field(default=18, metadata=_check(_int(0, 27)))
    tonal: bool = field(default=False, metadata=_check(_bool))
    silent: bool = field(default=False, metadata=_check(_bool))
    #: Percent: a piezo's loudness (tonal, by its PWM duty); 0 mutes an on/off buzzer.
    volume: int = field(default=100, metadata=_check(_int(0, 100)))


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """Laws 46 (break), 50 (stroke), 88 (placing), 87 a (waive), 61 (sides), 138 (interval)."""

    stroke_s: float = field(default=15.0, metadata=_check(_seconds(1.0, 600.0)))
    break_s: float = field(default=15.0, metadata=_check(_seconds(1.0, 600.0)))
    placing_s: float = field(default=15.0, metadata=_check(_seconds(1.0, 600.0)))
    waive_s: float = field(default=15.0, metadata=_check(_seconds(1.0, 600.0)))
    change_sides_s: float = field(default=120.0, metadata=_check(_seconds(1.0, 3600.0)))
    interval_s: float = field(default=600.0, metadata=_check(_seconds(1.0, 7200.0)))
    warn_at_s: float = field(default=5.0, metadata=_check(_seconds(0.0, 600.0)))
    beep_from_s: float = field(default=3.0, metadata=_check(_whole_seconds(0, 600)))


@dataclass(frozen=True, slots=True)
class CameraSettings:
    source: str = field(default="usb:0", metadata=_check(_camera_source))
    width: int = field(default=1280, metadata=_check(_int(160, 4096)))
    height: int = field(default=720, metadata=_check(_int(120, 4096)))
    calibration: tuple[tuple[float, float], ...] = field(default=(), metadata=_check(_calibration))


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """`port`: a device path or pyserial URL; "" when the table has no player display."""

    port: str = field(default="", metadata=_check(_text))
    baud: int = field(default=115200, metadata=_check(_int(300, 4_000_000)))


@dataclass(frozen=True, slots=True)
class BridgeSettings:
    port: str = field(default="", metadata=_check(_text))
    baud: int = field(default=115200, metadata=_check(_int(300, 4_000_000)))


@dataclass(frozen=True, slots=True)
class BackgammonSettings:
    """Rule 3.5 (v): 2 minutes a point and a 12 s simple delay unless the director decides."""

    minutes_per_point: float = field(
        default=2.0, metadata=_check(_seconds(0.0, 60.0, open_low=True))
    )
    delay_s: float = field(default=12.0, metadata=_check(_seconds(0.0, 120.0)))
    #: 3.5 (v): the director's two-leg time control, seconds of the second leg (0: none).
    second_leg_s: float = field(default=0.0, metadata=_check(_seconds(0.0, 3600.0)))
    #: 3.5 (v): doubles and other non-standard matches, the director's time and delay.
    doubles_minutes_per_point: float = field(
        default=2.5, metadata=_check(_seconds(0.0, 60.0, open_low=True))
    )
    doubles_delay_s: float = field(default=18.0, metadata=_check(_seconds(0.0, 120.0)))


def _minutes_list(value: Any) -> tuple[float, ...]:
    """Minutes before the end of a round at which a warning sounds ([] for none)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list):
        raise _Bad(f"must be a list of minutes, e.g. [5, 1], not {_number_text(value)}")
    out: list[float] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | float) or item <= 0:
            raise _Bad(f"{_number_text(item)} is not a number of minutes above 0")
        out.append(float(item))
    return tuple(sorted(set(out), reverse=True))


@dataclass(frozen=True, slots=True)
class BhukharSettings:
    """Bhukhar rule 10: each game lasts 30 to 35 minutes, as the organisers decide."""

    round_minutes: float = field(default=30.0, metadata=_check(_seconds(30.0, 35.0)))
    warn_minutes: tuple[float, ...] = field(default=(5.0, 1.0), metadata=_check(_minutes_list))


#: The hash of the PIN "1234", so a new kiosk can be configured; change it (docs/configuration.md).
DEFAULT_PIN_HASH = (
    "pbkdf2_sha256$100000$7461626c65736964652d64656661756c74"
    "$36c90a9cb8da6bd3aee0c05b30582ba6ca63a7b63db8dc7823ab6b117294d63f"
)


@dataclass(frozen=True, slots=True)
class UmpireSettings:
    pin_hash: str = field(default=DEFAULT_PIN_HASH, metadata=_check(_pin_hash))


@dataclass(frozen=True, slots=True)
class JournalSettings:
    """`backup_dir`: a second place (a USB stick) for the rolling backup, "" for none; a copy
    at every board's end and every `backup_every` entries, the newest `backup_keep` kept."""

    dir: str = field(default="/var/lib/tableside", metadata=_check(_text))
    backup_dir: str = field(default="", metadata=_check(_text))
    backup_every: int = field(default=100, metadata=_check(_int(1, 100_000)))
    backup_keep: int = field(default=3, metadata=_check(_int(1, 100)))


@dataclass(frozen=True, slots=True)
class FusionSettings:
    """`auto_confirm_s`: confirm a proposed stroke by itself after this long (0: never)."""

    auto_confirm_s: float = field(default=0.0, metadata=_check(_seconds(0.0, 600.0)))


#: The interface's languages (kiosk/locale): English, Hindi, Gujarati, Greek.
LANGUAGES = ("en", "hi", "gu", "el")


@dataclass(frozen=True, slots=True)
class UiSettings:
    """`language`: the umpire console's; `display_language`: the player display's ("": the same)."""

    language: str = field(default="en", metadata=_check(_choice(*LANGUAGES)))
    display_language: str = field(default="", metadata=_check(_choice("", *LANGUAGES)))


@dataclass(frozen=True, slots=True)
class PlayersSettings:
    """The player display screen: `digits`, the height of its digits in percent of the
    screen's (20: readable from 3 m); what it shows besides the names."""

    digits: int = field(default=22, metadata=_check(_int(20, 30)))
    show_score: bool = field(default=True, metadata=_check(_bool))
    show_timer: bool = field(default=True, metadata=_check(_bool))
    show_status: bool = field(default=True, metadata=_check(_bool))


@dataclass(frozen=True, slots=True)
class Settings:
    table: TableSettings = TableSettings()
    rules: RulesSettings = RulesSettings()
    pockets: PocketSettings = PocketSettings()
    buzzer: BuzzerSettings = BuzzerSettings()
    timers: TimerSettings = TimerSettings()
    camera: CameraSettings = CameraSettings()
    display: DisplaySettings = DisplaySettings()
    bridge: BridgeSettings = BridgeSettings()
    backgammon: BackgammonSettings = BackgammonSettings()
    bhukhar: BhukharSettings = BhukharSettings()
    umpire: UmpireSettings = UmpireSettings()
    journal: JournalSettings = JournalSettings()
    fusion: FusionSettings = FusionSettings()
    hall: HallSettings = HallSettings()  # noqa: RUF009 (frozen, as the others)
    ui: UiSettings = UiSettings()
    players: PlayersSettings = PlayersSettings()


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


_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")


def _cross_checks(s: Settings) -> list[tuple[str, str]]:
    """Problems between keys: a pin used twice, a warning after the time it warns of."""
    out: list[tuple[str, str]] = []
    if s.pockets.source == "gpio" and s.buzzer.pin in s.pockets.pins:
        pocket = s.pockets.pins.index(s.buzzer.pin) + 1
        out.append(("buzzer.pin", f"pin {s.buzzer.pin} is already pocket {pocket}'s beam"))
    if s.pockets.source == "bridge" and not s.bridge.port:
        out.append(("bridge.port", 'is needed when pockets.source is "bridge"'))
    if s.timers.beep_from_s > s.timers.warn_at_s:
        out.append(("timers.beep_from_s", "must not be more than timers.warn_at_s"))
    shortest = min(s.timers.stroke_s, s.timers.break_s, s.timers.placing_s, s.timers.waive_s)
    if s.timers.warn_at_s >= shortest:
        out.append(
            ("timers.warn_at_s", f"must be less than the shortest turn timer ({shortest:g} s)")
        )
    if any(w >= s.bhukhar.round_minutes for w in s.bhukhar.warn_minutes):
        out.append(("bhukhar.warn_minutes", "each must be less than bhukhar.round_minutes"))
    if s.display.port and s.display.port == s.bridge.port:
        out.append(("display.port", "is the same port as bridge.port"))
    return out


_T = TypeVar("_T")


def _section(cls: type[_T], raw: Mapping[str, Any], name: str) -> tuple[_T, list[tuple[str, str]]]:
    values: dict[str, Any] = {}
    bad: list[tuple[str, str]] = []
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in raw:
            continue
        try:
            values[f.name] = f.metadata["check"](raw[f.name])
        except _Bad as exc:
            bad.append((f"{name}.{f.name}", str(exc)))
    for key in raw:
        if key not in known:
            bad.append((f"{name}.{key}", f"unknown key (known: {', '.join(sorted(known))})"))
    return cls(**values), bad


def parse_settings(text: str, path: str = "<settings>") -> tuple[Settings, list[Problem]]:
    """The settings in a TOML text and every problem found; where there are problems the
    settings hold the defaults for the keys concerned, so the caller must check the list."""
    unsafe = toml_problem(text)  # what would make tomllib recurse or choke, with its line
    if unsafe is not None:
        return Settings(), [Problem(path, "", f"not valid TOML: {unsafe[1]}", unsafe[0])]
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        match = _TOML_POSITION.search(str(exc))
        line = int(match.group(1)) if match else None
        if line is None and "end of document" in str(exc):
            line = max(1, len(text.splitlines()))
        message = _TOML_POSITION.sub("", str(exc)).replace("(at end of document)", "").strip()
        return Settings(), [Problem(path, "", f"not valid TOML: {message}", line)]
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
        sections[name], bad = _section(section_cls, raw, name)
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
    text = dump_settings(settings)
    problems = parse_settings(text, str(target))[1]
    if problems:
        raise ConfigError(problems)
    temporary = target.with_name(f".{target.name}.new")
    # The file holds the PIN hashes: it keeps the mode the installer gave it (0640 with the
    # service's group), and a new one is the kiosk's alone, whatever the umask.
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o600
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        os.fchmod(handle.fileno(), mode)
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, target)


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
        _, bad = _section(type(current), values, name)
        problems.extend(Problem("<settings>", key, message) for key, message in bad)
        checked = {
            f.name: f.metadata["check"](values[f.name])
            for f in fields(current)
            if f.name in values and not any(key == f"{name}.{f.name}" for key, _ in bad)
        }
        changed[name] = replace(current, **checked)
    result = replace(settings, **changed)
    if not problems:
        problems.extend(
            Problem("<settings>", key, message) for key, message in _cross_checks(result)
        )
    if problems:
        raise ConfigError(problems)
    return result
