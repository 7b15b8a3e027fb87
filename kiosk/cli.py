"""The `tableside` command: parses the sub-commands and hands each to its module.

Each sub-command lives in kiosk/commands/<name>.py as `main(args) -> int`; it is
imported only when used, so `tableside replay` never loads Kivy or OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence


def _handler(target: str) -> dict[str, str]:
    return {"handler": target}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableside", description="The computer beside a tournament table."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("run", help="start the kiosk")
    p.add_argument("--simulate", action="store_true", help="simulated beams and camera")
    p.add_argument("--config", metavar="FILE", help="settings file (default: the shipped defaults)")
    p.add_argument("--data", metavar="DIR", help="journal folder (--simulate: a temporary one)")
    p.add_argument("--size", metavar="WxH", help="a window of this size (a laptop), not fullscreen")
    p.add_argument(
        "--fullscreen", action="store_true", help="fullscreen at the screen's size (--simulate too)"
    )
    p.set_defaults(**_handler("kiosk.commands.run:main"))

    p = sub.add_parser("replay", help="rebuild a carrom match from its record")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON (shared/spec/match-record.md)")
    p.set_defaults(**_handler("kiosk.commands.replay:main"))

    clock = sub.add_parser("clock", help="the backgammon match clock")
    clock_sub = clock.add_subparsers(dest="clock_command", required=True, metavar="COMMAND")
    p = clock_sub.add_parser("replay", help="rebuild a match clock from its record")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON (shared/spec/clock-record.md)")
    p.set_defaults(**_handler("kiosk.commands.clock_replay:main"))

    bhukhar = sub.add_parser("bhukhar", help="Bhukhar card tables")
    bhukhar_sub = bhukhar.add_subparsers(dest="bhukhar_command", required=True, metavar="COMMAND")
    p = bhukhar_sub.add_parser("standings", help="the standings of a Bhukhar session record")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(**_handler("kiosk.commands.bhukhar_standings:main"))

    p = sub.add_parser("export", help="export the match record from a journal")
    p.add_argument("journal", metavar="JOURNAL", help="the journal database file")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.add_argument("--clock", action="store_true", help="export the clock record instead")
    p.set_defaults(**_handler("kiosk.commands.export:main"))

    config = sub.add_parser("config", help="settings")
    config_sub = config.add_subparsers(dest="config_command", required=True, metavar="COMMAND")
    p = config_sub.add_parser("check", help="report every problem in a settings file")
    p.add_argument("file", metavar="FILE", nargs="?", help="default: the shipped defaults")
    p.set_defaults(**_handler("kiosk.commands.config_check:main"))
    p = config_sub.add_parser("init", help="write the default settings, commented, to a file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(**_handler("kiosk.commands.config_init:main"))

    p = sub.add_parser("hw-test", help="check the beams, the buzzer and the display")
    p.add_argument("--config", metavar="FILE", help="settings file (default: the shipped defaults)")
    p.add_argument("--simulate", action="store_true", help="use the simulated parts")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to watch the beams")
    p.set_defaults(**_handler("kiosk.commands.hw_test:main"))

    p = sub.add_parser("doctor", help="check the installation: one line per check, OK or FAIL")
    p.add_argument("--config", metavar="FILE", help="settings file (default: as `run` finds it)")
    p.add_argument("--data", metavar="DIR", help="journal folder (default: [journal] dir)")
    p.add_argument("--simulate", action="store_true", help="check with the simulated parts")
    p.set_defaults(**_handler("kiosk.commands.doctor:main"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    module_name, _, func_name = args.handler.partition(":")
    func = getattr(importlib.import_module(module_name), func_name)
    try:
        return int(func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
