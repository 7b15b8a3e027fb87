"""The settings file: defaults, every problem reported with its key and line, the PIN hash."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main as cli_main
from kiosk.config import (
    DEFAULT_PATH,
    ConfigError,
    Settings,
    check_pin,
    check_settings,
    dump_settings,
    hash_pin,
    load_settings,
    parse_settings,
    with_values,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_config_default_file_loads_and_equals_the_built_in_defaults() -> None:
    assert check_settings(DEFAULT_PATH) == []
    assert load_settings(DEFAULT_PATH) == Settings()
    assert load_settings() == Settings()


def test_config_missing_keys_take_their_defaults(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "[timers]\nstroke_s = 10\n"))
    assert settings.timers.stroke_s == 10.0
    assert settings.timers.placing_s == 15.0
    assert settings.pockets.pins == (17, 27, 22, 23)


def test_config_board_limit_zero_means_no_limit_law_56(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, "[rules]\nboard_limit = 0\n")).rules.board_limit is None


def test_config_every_problem_is_reported_with_key_and_line(tmp_path: Path) -> None:
    text = (
        "[table]\n"
        'game = "chess"\n'
        "[pockets]\n"
        "pins = [17, 27, 17, 23]\n"
        "glitch_ms = -1\n"
        "colour = 3\n"
        "[timers]\n"
        'stroke_s = "fifteen"\n'
        "[camera]\n"
        'source = "webcam"\n'
        "[extra]\n"
        "x = 1\n"
    )
    path = write(tmp_path, text)
    problems = check_settings(path)
    by_key = {p.key: p for p in problems}
    assert set(by_key) == {
        "table.game",
        "pockets.pins",
        "pockets.glitch_ms",
        "pockets.colour",
        "timers.stroke_s",
        "camera.source",
        "extra",
    }
    assert by_key["table.game"].line == 2
    assert by_key["pockets.pins"].line == 4
    assert "pocket 3 uses pin 17, already used by pocket 1" in by_key["pockets.pins"].message
    assert by_key["timers.stroke_s"].line == 8
    assert by_key["extra"].line == 11
    assert str(by_key["table.game"]).startswith(f"{path}:2: table.game: must be one of")
    with pytest.raises(ConfigError) as exc:
        load_settings(path)
    assert len(exc.value.problems) == 7
    assert "camera.source" in str(exc.value)


def test_config_syntax_error_names_the_toml_line(tmp_path: Path) -> None:
    problems = check_settings(write(tmp_path, '[table]\ngame = "carrom"\npins = [1, 2\n'))
    assert len(problems) == 1
    assert problems[0].line == 3
    assert "not valid TOML" in problems[0].message
    (problem,) = check_settings(write(tmp_path, "[table]\ngame = carrom\n"))
    assert problem.line == 2
    assert str(problem).startswith(f"{tmp_path / 'table.toml'}:2: not valid TOML")


def test_config_toml_error_facts_come_from_the_error_not_its_words() -> None:
    """The line and column of a syntax error, and the end of the text as its last line."""
    import tomllib

    from kiosk.config import toml_error_facts

    def facts(text: str) -> tuple[str, int, int | None]:
        with pytest.raises(tomllib.TOMLDecodeError) as caught:
            tomllib.loads(text)
        return toml_error_facts(caught.value, text)

    message, line, column = facts("[table]\ngame = carrom\n")
    assert (line, column) == (2, 8) and "line" not in message
    assert facts('[table]\ngame = "carrom"\npins = [1, 2\n')[1:] == (3, None)

    class Structured(tomllib.TOMLDecodeError):  # as Python 3.14 raises it
        msg, lineno, colno, pos = "Invalid value", 4, 2, 30

        def __str__(self) -> str:
            return "words that say nothing of where"

    assert toml_error_facts(Structured(), "x" * 40) == ("Invalid value", 4, 2)
    assert toml_error_facts(Structured(), "x\n" * 10)[1:] == (10, None)  # pos at the end


def test_config_missing_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    problems = check_settings(tmp_path / "nope.toml")
    assert len(problems) == 1 and "cannot read" in problems[0].message


def test_config_cross_checks_buzzer_on_a_beam_pin_and_warning_order(tmp_path: Path) -> None:
    text = "[buzzer]\npin = 22\n[timers]\nwarn_at_s = 2\nbeep_from_s = 3\n"
    keys = {p.key for p in check_settings(write(tmp_path, text))}
    assert keys == {"buzzer.pin", "timers.beep_from_s"}


def test_config_bridge_source_needs_a_port(tmp_path: Path) -> None:
    problems = check_settings(write(tmp_path, '[pockets]\nsource = "bridge"\n'))
    assert [p.key for p in problems] == ["bridge.port"]


def test_config_calibration_is_four_points(tmp_path: Path) -> None:
    good = "[camera]\ncalibration = [[10, 20], [10, 700], [700, 700.5], [700, 20]]\n"
    cal = load_settings(write(tmp_path, good)).camera.calibration
    assert cal == ((10.0, 20.0), (10.0, 700.0), (700.0, 700.5), (700.0, 20.0))
    bad = "[camera]\ncalibration = [[10, 20], [10], [700, 700], [700, 20]]\n"
    (problem,) = check_settings(write(tmp_path, bad))
    assert problem.key == "camera.calibration" and "pocket 2" in problem.message


def test_config_dump_reads_back_equal() -> None:
    settings = with_values(
        Settings(),
        rules={"board_limit": 0},
        camera={"calibration": [[1, 2], [3, 4], [5, 6], [7, 8]], "source": "file:/tmp/a b.mp4"},
        display={"port": 'loop://"q"'},
    )
    again, problems = parse_settings(dump_settings(settings))
    assert problems == []
    assert again == settings


def test_config_with_values_refuses_bad_keys() -> None:
    with pytest.raises(ConfigError) as exc:
        with_values(Settings(), timers={"stroke_s": 0, "bogus": 1})
    assert {p.key for p in exc.value.problems} == {"timers.stroke_s", "timers.bogus"}


def test_config_pin_hash_checks_the_pin_and_is_salted() -> None:
    first, second = hash_pin("2468", iterations=10_000), hash_pin("2468", iterations=10_000)
    assert first != second
    assert check_pin("2468", first) and check_pin("2468", second)
    assert not check_pin("2469", first)
    assert not check_pin("2468", "plain-text")
    assert Settings().umpire.pin_hash == ""  # no default PIN (tests/access/test_pins_config.py)


def test_config_pin_hash_in_file_must_be_well_formed(tmp_path: Path) -> None:
    (problem,) = check_settings(write(tmp_path, '[umpire]\npin_hash = "1234"\n'))
    assert problem.key == "umpire.pin_hash"


def test_config_check_command_exits_non_zero_and_lists_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, '[table]\ngame = "chess"\n[buzzer]\ntonal = "yes"\n')
    assert cli_main(["config", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2: table.game" in err
    assert f"{bad}:4: buzzer.tonal" in err
    assert "2 problems" in err
    assert cli_main(["config", "check", str(DEFAULT_PATH)]) == 0
    assert "OK" in capsys.readouterr().out


def test_config_check_command_as_a_process(tmp_path: Path) -> None:
    bad = write(tmp_path, "[rules]\nboard_limit = -2\n")
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "config", "check", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "rules.board_limit" in done.stderr
    assert done.stdout == ""


def test_config_save_settings_writes_a_file_that_loads_back(tmp_path: Path) -> None:
    from kiosk.config import save_settings

    target = tmp_path / "tableside.toml"
    target.write_text("[table]\ngame = 'carrom'\n")
    settings = with_values(Settings(), timers={"stroke_s": 10}, display={"port": "loop://"})
    save_settings(settings, target)
    assert load_settings(target) == settings
    assert [p.name for p in tmp_path.iterdir()] == ["tableside.toml"]


def test_config_save_settings_keeps_the_installers_mode(tmp_path: Path) -> None:
    # Saving rewrote the installer's 0640 file as 0644, readable by anyone.
    from kiosk.config import save_settings

    target = tmp_path / "settings.toml"
    target.write_text("[table]\ngame = 'carrom'\n")
    target.chmod(0o640)
    old_umask = os.umask(0o022)
    try:
        save_settings(Settings(), target)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
        fresh = tmp_path / "fresh.toml"
        save_settings(Settings(), fresh)
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)


def test_config_beep_from_is_whole_seconds(tmp_path: Path) -> None:
    (problem,) = check_settings(write(tmp_path, "[timers]\nbeep_from_s = 2.5\n"))
    assert problem.key == "timers.beep_from_s" and "whole" in problem.message


def test_config_bhukhar_rule_10_round_of_30_to_35_minutes(tmp_path: Path) -> None:
    assert Settings().bhukhar.round_minutes == 30.0
    assert Settings().bhukhar.warn_minutes == (5.0, 1.0)
    (problem,) = check_settings(write(tmp_path, "[bhukhar]\nround_minutes = 40\n"))
    assert problem.key == "bhukhar.round_minutes" and "35" in problem.message
    ok = load_settings(write(tmp_path, "[bhukhar]\nround_minutes = 35\nwarn_minutes = [1, 10]\n"))
    assert ok.bhukhar.warn_minutes == (10.0, 1.0)
    (problem,) = check_settings(write(tmp_path, "[bhukhar]\nwarn_minutes = [5, 0]\n"))
    assert problem.key == "bhukhar.warn_minutes"


def test_config_timers_are_the_clocks_own_settings(tmp_path: Path) -> None:
    """One `TimerSettings`: the [timers] section is the clocks' type, no adapter between; a 0
    for a warning in the file means no such warning (None) and writes back as 0."""
    from kiosk.clocks.turn import TimerSettings, TurnTimers

    settings = load_settings(write(tmp_path, "[timers]\nwarn_at_s = 0\nbeep_from_s = 0\n"))
    assert type(settings.timers) is TimerSettings
    assert (settings.timers.warn_at_s, settings.timers.beep_from_s) == (None, None)
    assert TurnTimers(settings.timers).settings is settings.timers
    assert parse_settings(dump_settings(settings))[0] == settings
    (problem,) = check_settings(write(tmp_path, "# a comment\n[timers]\nstroke_s = 0\n"))
    assert (problem.key, problem.line) == ("timers.stroke_s", 3)
    assert str(problem).startswith(f"{tmp_path / 'table.toml'}:3: timers.stroke_s: ")


def test_config_rule_sets_are_the_registrys(tmp_path: Path) -> None:
    """The rule-set names come from the registry (kiosk/rules/carrom/variants.py) alone."""
    from kiosk.rules.carrom.variants import rule_set_names

    (problem,) = check_settings(write(tmp_path, '[rules]\nset = "pro"\n'))
    assert problem.key == "rules.set"
    assert all(f'"{name}"' in problem.message for name in rule_set_names())


def test_config_players_panel_size_is_checked_and_its_error_names_the_key(
    tmp_path: Path,
) -> None:
    """The player display's panel (its diagonal in inches, 7 by default) sizes its text in mm."""
    assert Settings().players.panel_in == 7.0
    assert load_settings(write(tmp_path, "[players]\npanel_in = 10.1\n")).players.panel_in == 10.1
    (problem,) = check_settings(write(tmp_path, "[players]\npanel_in = 1\n"))
    assert problem.key == "players.panel_in" and problem.line == 2
    assert str(problem).endswith("players.panel_in: must be at least 3 and at most 32, not 1")
    (problem,) = check_settings(write(tmp_path, '[players]\npanel_in = "7"\n'))
    assert problem.key == "players.panel_in" and "must be a number" in problem.message
