"""The settings' sections: frozen, typed dataclasses, one per [section] of the TOML file.

Each field's checker (kiosk/config/checks.py) is in its metadata. `timers` is the clocks' own
`TimerSettings` (kiosk/clocks/turn.py): the settings reuse it, so its checkers are listed in
`EXTERNAL`; a 0 in the file there means "no such warning" (None). The rule-set names are the
registry's (kiosk/rules/carrom/variants.py); the games are the tables'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, field
from typing import Any

from kiosk.clocks.turn import TimerSettings
from kiosk.config.checks import (
    boards_or_none,
    boolean,
    calibration_points,
    camera_source,
    checked_by,
    choice,
    minutes_list,
    nothing_if_zero,
    pocket_pins,
    seconds,
    stored_pin_hash,
    text,
    whole,
    whole_seconds,
)
from kiosk.config.hall import HallSettings  # the [hall] section (docs/hall.md)
from kiosk.rules.carrom.variants import rule_set_names

GAMES = ("carrom", "backgammon", "bhukhar")
POCKET_SOURCES = ("gpio", "bridge", "simulated")
#: gpiozero's pin factories by their GPIOZERO_PIN_FACTORY names; "" leaves the choice to
#: gpiozero (the environment variable, then its own default order).
PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
#: The interface's languages (kiosk/locale): English, Hindi, Gujarati, Greek.
LANGUAGES = ("en", "hi", "gu", "el")

#: The checkers of a section whose type belongs to another layer (laws 46, 50, 88 a, 87 a,
#: 61, 138 for the turn timers; 0 s: no such warning).
EXTERNAL: dict[type, dict[str, Callable[[Any], Any]]] = {
    TimerSettings: {
        "stroke_s": seconds(1.0, 600.0),
        "break_s": seconds(1.0, 600.0),
        "placing_s": seconds(1.0, 600.0),
        "waive_s": seconds(1.0, 600.0),
        "change_sides_s": seconds(1.0, 3600.0),
        "interval_s": seconds(1.0, 7200.0),
        "warn_at_s": nothing_if_zero(seconds(0.0, 600.0)),
        "beep_from_s": nothing_if_zero(whole_seconds(0, 600), int),
    }
}


def checker(section: type, key: Field[Any]) -> Callable[[Any], Any]:
    """How `key`, a field of a section of type `section`, is checked."""
    table = EXTERNAL.get(section)
    found: Callable[[Any], Any] = table[key.name] if table is not None else key.metadata["check"]
    return found


@dataclass(frozen=True, slots=True)
class TableSettings:
    game: str = field(default="carrom", metadata=checked_by(choice(*GAMES)))


@dataclass(frozen=True, slots=True)
class RulesSettings:
    """`set`: "icf" (ICF laws) or "club"; `board_limit` None: no limit (law 56)."""

    set: str = field(default="icf", metadata=checked_by(choice(*rule_set_names())))
    board_limit: int | None = field(default=8, metadata=checked_by(boards_or_none))


@dataclass(frozen=True, slots=True)
class PocketSettings:
    source: str = field(default="gpio", metadata=checked_by(choice(*POCKET_SOURCES)))
    pins: tuple[int, ...] = field(default=(17, 27, 22, 23), metadata=checked_by(pocket_pins))
    pin_factory: str = field(default="", metadata=checked_by(choice(*PIN_FACTORIES)))
    glitch_ms: float = field(default=0.5, metadata=checked_by(seconds(0.0, 50.0)))
    stuck_s: float = field(default=2.0, metadata=checked_by(seconds(0.1, 60.0)))


@dataclass(frozen=True, slots=True)
class BuzzerSettings:
    pin: int = field(default=18, metadata=checked_by(whole(0, 27)))
    tonal: bool = field(default=False, metadata=checked_by(boolean))
    silent: bool = field(default=False, metadata=checked_by(boolean))
    #: Percent: a piezo's loudness (tonal, by its PWM duty); 0 mutes an on/off buzzer.
    volume: int = field(default=100, metadata=checked_by(whole(0, 100)))


@dataclass(frozen=True, slots=True)
class CameraSettings:
    source: str = field(default="usb:0", metadata=checked_by(camera_source))
    width: int = field(default=1280, metadata=checked_by(whole(160, 4096)))
    height: int = field(default=720, metadata=checked_by(whole(120, 4096)))
    calibration: tuple[tuple[float, float], ...] = field(
        default=(), metadata=checked_by(calibration_points)
    )
    #: Protest stills (vision/stills.py): the newest strokes whose stills are kept (0: none).
    stills_keep: int = field(default=500, metadata=checked_by(whole(0, 100_000)))


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """`port`: a device path or pyserial URL; "" when the table has no player display."""

    port: str = field(default="", metadata=checked_by(text))
    baud: int = field(default=115200, metadata=checked_by(whole(300, 4_000_000)))


@dataclass(frozen=True, slots=True)
class BridgeSettings:
    port: str = field(default="", metadata=checked_by(text))
    baud: int = field(default=115200, metadata=checked_by(whole(300, 4_000_000)))


@dataclass(frozen=True, slots=True)
class BackgammonSettings:
    """Rule 3.5 (v): 2 minutes a point and a 12 s simple delay unless the director decides."""

    minutes_per_point: float = field(
        default=2.0, metadata=checked_by(seconds(0.0, 60.0, open_low=True))
    )
    delay_s: float = field(default=12.0, metadata=checked_by(seconds(0.0, 120.0)))
    #: 3.5 (v): the director's two-leg time control, seconds of the second leg (0: none).
    second_leg_s: float = field(default=0.0, metadata=checked_by(seconds(0.0, 3600.0)))
    #: 3.5 (v): doubles and other non-standard matches, the director's time and delay.
    doubles_minutes_per_point: float = field(
        default=2.5, metadata=checked_by(seconds(0.0, 60.0, open_low=True))
    )
    doubles_delay_s: float = field(default=18.0, metadata=checked_by(seconds(0.0, 120.0)))


@dataclass(frozen=True, slots=True)
class BhukharSettings:
    """Bhukhar rule 10: each game lasts 30 to 35 minutes, as the organisers decide."""

    round_minutes: float = field(default=30.0, metadata=checked_by(seconds(30.0, 35.0)))
    warn_minutes: tuple[float, ...] = field(default=(5.0, 1.0), metadata=checked_by(minutes_list))


@dataclass(frozen=True, slots=True)
class UmpireSettings:
    """The umpire's and the director's PIN hashes ("": not set yet), when the console locks
    itself, and how long the director's PIN lasts (0: each director action asks for it)."""

    pin_hash: str = field(default="", metadata=checked_by(stored_pin_hash))
    director_pin_hash: str = field(default="", metadata=checked_by(stored_pin_hash))
    lock_after_min: float = field(default=5.0, metadata=checked_by(seconds(0.5, 120.0)))
    director_window_s: float = field(default=120.0, metadata=checked_by(seconds(0.0, 900.0)))


@dataclass(frozen=True, slots=True)
class JournalSettings:
    """`backup_dir`: a second place (a USB stick) for the rolling backup, "" for none; a copy
    at every board's end and every `backup_every` entries, the newest `backup_keep` kept."""

    dir: str = field(default="/var/lib/tableside", metadata=checked_by(text))
    backup_dir: str = field(default="", metadata=checked_by(text))
    backup_every: int = field(default=100, metadata=checked_by(whole(1, 100_000)))
    backup_keep: int = field(default=3, metadata=checked_by(whole(1, 100)))


@dataclass(frozen=True, slots=True)
class FusionSettings:
    """`auto_confirm_s`: confirm a proposed stroke by itself after this long (0: never)."""

    auto_confirm_s: float = field(default=0.0, metadata=checked_by(seconds(0.0, 600.0)))


@dataclass(frozen=True, slots=True)
class UiSettings:
    """`language`: the umpire console's; `display_language`: the player display's ("": the same)."""

    language: str = field(default="en", metadata=checked_by(choice(*LANGUAGES)))
    display_language: str = field(default="", metadata=checked_by(choice("", *LANGUAGES)))


@dataclass(frozen=True, slots=True)
class PlayersSettings:
    """The player display screen: `digits`, the height of its digits in percent of the
    screen's (20: readable from 3 m); what it shows besides the names."""

    digits: int = field(default=22, metadata=checked_by(whole(20, 30)))
    show_score: bool = field(default=True, metadata=checked_by(boolean))
    show_timer: bool = field(default=True, metadata=checked_by(boolean))
    show_status: bool = field(default=True, metadata=checked_by(boolean))
    #: The carrom score under the ICF laws: off, as law 128 has it (a player learns the score
    #: only from the umpire, during his own turn); club rules always show it.
    icf_score: bool = field(default=False, metadata=checked_by(boolean))
    #: The panel's diagonal in inches (the kiosk's own 7-inch by default): the display sizes
    #: its text in millimetres on it, to read from 3 m.
    panel_in: float = field(default=7.0, metadata=checked_by(seconds(3.0, 32.0)))


@dataclass(frozen=True, slots=True)
class Settings:
    table: TableSettings = TableSettings()
    rules: RulesSettings = RulesSettings()
    pockets: PocketSettings = PocketSettings()
    buzzer: BuzzerSettings = BuzzerSettings()
    timers: TimerSettings = TimerSettings()  # noqa: RUF009 (the clocks' frozen type)
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
