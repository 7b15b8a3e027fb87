"""The default settings ship inside the package, and `tableside config init` writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main as cli_main
from kiosk.config import DEFAULT_PATH, Settings, default_text, load_settings, parse_settings

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_inside_the_package_and_equal_settings() -> None:
    import kiosk

    assert DEFAULT_PATH.parent == Path(kiosk.__file__).parent / "defaults"
    settings, problems = parse_settings(default_text())
    assert problems == []
    assert settings == Settings() == load_settings()


def test_defaults_example_in_config_is_the_shipped_file() -> None:
    # config/default.toml is the installer's example: the same text as the package's.
    assert (ROOT / "config" / "default.toml").read_text(encoding="utf-8") == default_text()


def test_defaults_package_data_ships_the_toml() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"*.toml"' in text


def test_config_init_writes_the_commented_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "settings.toml"
    assert cli_main(["config", "init", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text == default_text()
    assert "# " in text and "[pockets]" in text
    assert load_settings(target) == Settings()
    assert "written" in capsys.readouterr().out


def test_config_init_refuses_to_overwrite_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "settings.toml"
    target.write_text("[timers]\nstroke_s = 10\n", encoding="utf-8")
    assert cli_main(["config", "init", str(target)]) == 1
    assert "--force" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "[timers]\nstroke_s = 10\n"
    assert cli_main(["config", "init", "--force", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == default_text()
    assert not list(tmp_path.glob(".*.new"))


def test_config_init_into_a_missing_folder_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nowhere" / "settings.toml"
    assert cli_main(["config", "init", str(target)]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_config_check_without_a_file_checks_the_shipped_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["config", "check"]) == 0
    assert f"{DEFAULT_PATH}: OK" in capsys.readouterr().out
