"""Starting a kiosk: a bad settings file stops the start and says why; a good one builds the
table, resumes what was unfinished and is ready."""

from __future__ import annotations

import io
from pathlib import Path

from kiosk.config import Settings, dump_settings, with_values
from kiosk.engine.startup import settings_or_explain, start_kiosk
from kiosk.rules.carrom.events import MatchStart

from .conftest import FakeClock


def test_startup_refuses_bad_settings_and_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\ngame = "chess"\n\n[pockets]\npins = [1, 2, 3]\n')
    err = io.StringIO()
    assert settings_or_explain(bad, err) is None
    text = err.getvalue()
    assert "cannot start: 2 problem(s)" in text
    assert f"{bad}:2: table.game" in text and f"{bad}:5: pockets.pins" in text


def test_startup_carrom_simulated_resumes_the_unfinished_match(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(dump_settings(with_values(Settings(), camera={"source": "none"})))
    settings = settings_or_explain(path)
    assert settings is not None
    kiosk = start_kiosk(settings, tmp_path, simulate=True, clock=clock)
    try:
        assert kiosk.carrom is not None and kiosk.runner is not None
        kiosk.carrom.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"))
        kiosk.carrom.confirm(kiosk.carrom.proposal.edited(pocketed=["white"]))
        state = kiosk.carrom.view.state
    finally:
        kiosk.close()
    again = start_kiosk(settings, tmp_path, simulate=True, clock=clock)
    try:
        assert again.carrom is not None
        assert again.carrom.view.state == state
        assert again.carrom.view.beams == (1, 2, 3, 4)
        again.runner.step()  # type: ignore[union-attr]
        assert again.carrom.view.faults == ()
    finally:
        again.close()


def test_startup_backgammon_table(tmp_path: Path, clock: FakeClock) -> None:
    settings = with_values(Settings(), table={"game": "backgammon"})
    kiosk = start_kiosk(settings, tmp_path, simulate=True, clock=clock)
    try:
        assert kiosk.clock_table is not None and kiosk.carrom is None
        assert kiosk.parts.beams is None
        view = kiosk.clock_table.start_match(("Nikos", "Eleni"), 3)
        assert view.snapshot.banks["Nikos"] == 360.0
    finally:
        kiosk.close()
