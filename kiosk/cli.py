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
    p.add_argument(
        "--bhukhar", action="store_true", help="export the latest Bhukhar session record instead"
    )
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

    journal = sub.add_parser("journal", help="the journal on disk")
    journal_sub = journal.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    p = journal_sub.add_parser("verify", help="check a journal or a copy (exit 1 on a problem)")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--key", action="append", metavar="KEY", help="the director's chain key (tsk2-...)"
    )
    p.set_defaults(**_handler("kiosk.commands.journal_verify:main"))
    p = journal_sub.add_parser("restore", help="put a good backup in place of a damaged journal")
    p.add_argument("backup", metavar="BACKUP")
    p.add_argument("journal", metavar="JOURNAL", help="the journal to replace (kept aside)")
    p.add_argument("--force", action="store_true", help="even a healthy journal as far along")
    p.set_defaults(**_handler("kiosk.commands.journal_verify:restore_main"))
    p = journal_sub.add_parser("key", help="print the director's chain key, once")
    p.add_argument("journal", metavar="JOURNAL")
    p.set_defaults(**_handler("kiosk.commands.journal_verify:key_main"))
    p = journal_sub.add_parser("forget", help="allow a new, empty journal where one is missing")
    p.add_argument("journal", metavar="JOURNAL")
    p.set_defaults(**_handler("kiosk.commands.journal_verify:forget_main"))

    p = sub.add_parser("protest", help="one board's record for a protest, as an HTML page")
    p.add_argument("journal", metavar="JOURNAL", help="the journal database file (or a copy)")
    p.add_argument("--match", type=int, metavar="N", help="the match's id (default: the latest)")
    p.add_argument(
        "--board",
        type=int,
        metavar="B",
        help="the B-th board played (default: the latest protest's board, else the last)",
    )
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="where to write it")
    p.add_argument(
        "--key", action="append", metavar="KEY", help="the director's chain key (tsk2-...)"
    )
    p.set_defaults(**_handler("kiosk.commands.protest:main"))

    p = sub.add_parser("hw-test", help="check the beams, the buzzer and the display")
    p.add_argument("--config", metavar="FILE", help="settings file (default: the shipped defaults)")
    p.add_argument("--simulate", action="store_true", help="use the simulated parts")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to watch the beams")
    p.set_defaults(**_handler("kiosk.commands.hardware_check:main"))

    p = sub.add_parser("doctor", help="check the installation: one line per check, OK or FAIL")
    p.add_argument("--config", metavar="FILE", help="settings file (default: as `run` finds it)")
    p.add_argument("--data", metavar="DIR", help="journal folder (default: [journal] dir)")
    p.add_argument("--simulate", action="store_true", help="check with the simulated parts")
    p.set_defaults(**_handler("kiosk.commands.doctor:main"))
    from kiosk.commands.hall import add_parser as add_hall  # the hall (docs/hall.md)

    add_hall(sub)

    vision = sub.add_parser("vision", help="the camera above the carrom board")
    vision_sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")
    p = vision_sub.add_parser("detect", help="count the coins on one photo of a board")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--pockets", metavar="X1,Y1,...,X4,Y4", help="pocket centres, any order")
    p.add_argument("--json", action="store_true", help="print JSON (docs/vision.md)")
    p.add_argument("--annotate", metavar="OUT.png", help="draw what was found")
    p.set_defaults(**_handler("kiosk.commands.vision_detect:main"))
    from kiosk.commands.vision_diff import add_parser as add_vision_diff

    add_vision_diff(vision_sub)
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
