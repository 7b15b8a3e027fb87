"""Starting a kiosk (kiosk/startup.py, what `tableside run` calls): a bad settings file
stops the start and says why; a good one builds the parts, the services and the runner, and
the table resumes what was unfinished."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.config import Settings, dump_settings, with_values
from kiosk.engine.notify import Notifier
from kiosk.rules.carrom.events import MatchStart
from kiosk.startup import SAVED_NAME, StartRefused, start_kiosk
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.registry import CarromStart, ClockStart


def _write(path: Path, settings: Settings) -> Path:
    path.write_text(dump_settings(settings), encoding="utf-8")
    return path


def test_startup_refuses_bad_settings_and_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\ngame = "chess"\n\n[pockets]\npins = [1, 2, 3]\n')
    with pytest.raises(StartRefused) as refused:
        start_kiosk(bad, tmp_path / "data", simulate=True, notifier=Notifier({}))
    text = str(refused.value)
    assert text.startswith("cannot start: 2 problem(s) in the settings")
    assert f"{bad}:2: table.game" in text and f"{bad}:5: pockets.pins" in text
    assert not (tmp_path / "data").exists()  # refused before anything was made


def test_startup_refuses_a_data_folder_it_cannot_make(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StartRefused, match=f"the data folder {blocker / 'data'}"):
        start_kiosk(None, blocker / "data", simulate=True, notifier=Notifier({}))


def test_startup_reads_the_settings_saved_in_the_data_folder_unless_config_is_given(
    tmp_path: Path, clock: FakeClock
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    saved = _write(data / SAVED_NAME, with_values(Settings(), timers={"stroke_s": 10.0}))
    kiosk = start_kiosk(None, data, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        assert kiosk.settings_path == saved
        assert kiosk.services.settings.timers.stroke_s == 10.0
        kiosk.services.save_settings(with_values(Settings(), timers={"stroke_s": 12.0}))
        assert "stroke_s = 12.0" in saved.read_text()
    finally:
        kiosk.close()
    config = _write(tmp_path / "given.toml", Settings())
    kiosk = start_kiosk(config, data, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        assert kiosk.settings_path == config
        assert kiosk.services.settings.timers.stroke_s == 15.0
    finally:
        kiosk.close()
    (data / SAVED_NAME).write_text("[timers]\nstroke_s = -1\n")
    with pytest.raises(StartRefused, match=f"{data / SAVED_NAME}:2: timers.stroke_s"):
        start_kiosk(None, data, simulate=True, clock=clock, notifier=Notifier({}))


def test_startup_carrom_simulated_resumes_the_unfinished_match(
    tmp_path: Path, clock: FakeClock
) -> None:
    config = _write(tmp_path / "t.toml", with_values(Settings(), camera={"source": "none"}))
    kiosk = start_kiosk(config, tmp_path, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        services = kiosk.services
        assert [o.name for o in services.outputs] == ["buzzer", "display"]
        assert services.press_pocket is not None and kiosk.runner.pollers
        session = services.tables.create(
            CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")), Role.UMPIRE
        )
        assert isinstance(session, CarromTable) and kiosk.runner.table is session
        session.confirm(session.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
        state = session.view().state
    finally:
        kiosk.close()
    again = start_kiosk(config, tmp_path, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        assert again.services.tables.latest_unfinished() == "carrom"
        session = again.services.tables.resume("carrom")
        assert isinstance(session, CarromTable) and again.runner.table is session
        view = session.view()
        assert view.state == state
        assert view.beams == (1, 2, 3, 4)
        assert again.runner.step().faults == ()
    finally:
        again.close()


def test_startup_backgammon_table(tmp_path: Path, clock: FakeClock) -> None:
    config = _write(tmp_path / "bg.toml", with_values(Settings(), table={"game": "backgammon"}))
    kiosk = start_kiosk(config, tmp_path, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        assert kiosk.parts.camera is None and not kiosk.services.camera
        table = kiosk.services.tables.create(ClockStart(("Nikos", "Eleni"), 3), Role.UMPIRE)
        assert isinstance(table, BackgammonTable)
        assert [o.name for o in table.outputs.items] == ["buzzer", "display"]
        view = table.view()
        assert view.snapshot.banks["Nikos"] == 360.0
    finally:
        kiosk.close()


def test_startup_services_are_built_once_and_retry_fits_new_parts_whole(
    tmp_path: Path, clock: FakeClock
) -> None:
    """No service locator. The screens' Services cannot be changed afterwards; the
    start screen's Retry starts new parts and gives the tables a new Fitted (what a table is
    made with) and the runner the new parts' pollers, never changing the old ones."""
    kiosk = start_kiosk(None, tmp_path, simulate=True, clock=clock, notifier=Notifier({}))
    try:
        services = kiosk.services
        with pytest.raises(AttributeError, match="built once"):
            services.authority = None  # type: ignore[misc]
        before, parts = services.tables.fitted, kiosk.parts
        outputs = before.outputs
        assert services.retry_parts is not None
        assert services.retry_parts() == []
        after = services.tables.fitted
        assert after is not before and before.outputs is outputs  # the old one as it was
        assert kiosk.parts is not parts  # the new parts, in place
        new_display = [o for o in after.outputs if o.name == "display"]
        old_display = [o for o in before.outputs if o.name == "display"]
        assert new_display and old_display and new_display[0] is not old_display[0]
        assert services.outputs == after.outputs  # the screens read the new ones
        table = services.tables.create(
            CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")), Role.UMPIRE
        )
        assert tuple(table.outputs.items) == after.outputs
        # The simulated coin goes through the new beams to the table in play.
        assert services.press_pocket is not None
        services.press_pocket(2)
        clock.advance(0.5)
        kiosk.runner.step()
        assert isinstance(table, CarromTable)
        assert [p.beam for p in table.view().proposal.pockets] == [0, 1, 0, 0]
    finally:
        kiosk.close()
