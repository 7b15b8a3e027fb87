"""The `tableside` command line: every sub-command parses and names its handler."""

import importlib.util

import pytest

from kiosk.cli import build_parser

COMMANDS = [
    ["run", "--simulate"],
    ["replay", "match.jsonl", "--json"],
    ["clock", "replay", "clock.jsonl", "--json"],
    ["bhukhar", "standings", "session.jsonl"],
    ["export", "journal.db"],
    ["config", "check", "config/default.toml"],
    ["hw-test", "--simulate"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_cli_every_command_has_a_handler_module(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    module_name, _, func_name = args.handler.partition(":")
    assert importlib.util.find_spec(module_name) is not None, module_name
    module = importlib.import_module(module_name)
    assert callable(getattr(module, func_name))


def test_cli_without_command_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args([])
    assert exc.value.code == 2
    assert "COMMAND" in capsys.readouterr().err
