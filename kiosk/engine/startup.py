"""Starting a kiosk: the settings checked, the journal opened, the parts built, the table's
session made and resumed, the runner ready. What `tableside run` (kiosk/commands/run.py)
calls before it opens the window; usable headless too.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from kiosk.config import ConfigError, Settings, load_settings
from kiosk.engine.clock_table import ClockTable
from kiosk.engine.display_frames import carrom_frame, clock_frame
from kiosk.engine.hardware import Parts, build_parts
from kiosk.engine.journal import Journal
from kiosk.engine.notify import Notifier
from kiosk.engine.outputs import Output
from kiosk.engine.runner import Runner
from kiosk.engine.session import CarromSession

JOURNAL_NAME = "journal.db"


def settings_or_explain(path: str | Path | None, stream: TextIO = sys.stderr) -> Settings | None:
    """The settings at `path` (default config/default.toml), or None after printing every
    problem with its file, line and key: the kiosk refuses to start on a bad file."""
    try:
        return load_settings(path)
    except ConfigError as exc:
        print(
            f"tableside: cannot start: {len(exc.problems)} problem(s) in the settings", file=stream
        )
        for problem in exc.problems:
            print(f"  {problem}", file=stream)
        return None


@dataclass
class Kiosk:
    """A started table: `carrom` or `clock_table` is set by `settings.table.game` (a Bhukhar
    table has its own session, kiosk/engine/bhukhar_table.py, and neither)."""

    settings: Settings
    journal: Journal
    parts: Parts
    notifier: Notifier
    carrom: CarromSession | None = None
    clock_table: ClockTable | None = None
    runner: Runner | None = None

    def close(self) -> None:
        if self.runner is not None:
            self.runner.stop()
        self.parts.close()
        self.journal.close()


def start_kiosk(
    settings: Settings,
    data_dir: str | Path,
    *,
    simulate: bool = False,
    clock: Callable[[], float] = time.monotonic,
    outputs: Iterable[Output] = (),
    notifier: Notifier | None = None,
) -> Kiosk:
    """Open the journal in `data_dir`, build the parts, make the table and resume what was
    unfinished. Parts that fail to start are faults on the table's view, not errors here."""
    journal = Journal(Path(data_dir) / JOURNAL_NAME)
    notifier = notifier or Notifier()
    extra = list(outputs)
    game = settings.table.game
    if game == "carrom":
        session = CarromSession(journal, settings, clock=clock, beams=(), camera=False)
        parts = build_parts(settings, session.post, simulate=simulate, clock=clock)
        session.fit(parts.pockets, parts.camera is not None)
        for output in [*parts.outputs(carrom_frame), *extra]:
            session.outputs.add(output)
        session.resume()
        parts.report(session.post, clock())
        runner = Runner(
            session,
            clock=clock,
            notifier=notifier,
            pollers=parts.pollers(session.post),
            deadlines=parts.deadlines(),
        )
        return Kiosk(settings, journal, parts, notifier, carrom=session, runner=runner)
    parts = build_parts(
        settings, _ignore, simulate=simulate, clock=clock, camera=False, beams=False
    )
    if game == "backgammon":
        table = ClockTable(
            journal,
            clock=clock,
            outputs=[*parts.outputs(clock_frame), *extra],
            settings=settings.backgammon,
        )
        table.resume()
        runner = Runner(table, clock=clock, notifier=notifier)
        return Kiosk(settings, journal, parts, notifier, clock_table=table, runner=runner)
    return Kiosk(settings, journal, parts, notifier)


def _ignore(_item: Any) -> None:
    """Beam reports at a table that does not use them."""
