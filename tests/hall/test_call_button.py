"""The "Call director" button and the "hall: offline" mark on an umpire screen, with real
taps under Xvfb, against a real broker and the hall's listener."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of

from .conftest import HALL, USERS, table_settings, wait_for

pytestmark = pytest.mark.skipif(
    not os.environ.get("DISPLAY"), reason="a Kivy test: run under xvfb-run (make test does)"
)


@pytest.fixture
def ui_kiosk(broker: Mosquitto, tmp_path: Path) -> Iterator[tuple[object, HallPublisher]]:
    from tests.ui.harness import FakeClock, Services, make_kiosk

    clock = FakeClock(1000.0)
    publisher = HallPublisher(
        table_settings(broker, "t01"), tmp_path / "data", tile_of=tile_of
    ).start()
    services = Services(
        data_dir=tmp_path / "data",
        check_pin=lambda p: p == "2468",
        clock=clock,
        outputs=[publisher],
    )
    try:
        for kiosk in make_kiosk(services, clock):
            yield kiosk, publisher
    finally:
        publisher.stop()


def test_call_director_button_reaches_the_hall_and_shows_the_answer(
    broker: Mosquitto, ui_kiosk: tuple[object, HallPublisher], tmp_path: Path
) -> None:
    from kiosk.ui.hall_corner import HallCorner
    from kiosk.ui.i18n import apply_languages, catalogue
    from tests.ui.harness import Kiosk, start_backgammon

    kiosk, publisher = ui_kiosk
    assert isinstance(kiosk, Kiosk)
    rec = HallRecord(tmp_path / "hall.db")
    listener = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    listener.start()
    try:
        screen = start_backgammon(kiosk)
        (corner,) = [w for w in screen.children if isinstance(w, HallCorner)]
        wait_for(lambda: publisher.online, 5, "the hall link")
        corner.refresh()
        assert corner.mark.text == ""
        kiosk.tap(corner.button)
        assert corner.mark.text == "director called"
        calls = wait_for(rec.open_calls, 5, "the call at the hall")
        assert isinstance(calls, list) and calls[0]["table"] == "t01"
        listener.acknowledge(HALL, "t01", calls[0]["id"])
        wait_for(lambda: publisher.call_acked == calls[0]["id"], 5, "the answer")
        corner.refresh()
        assert corner.mark.text == "director coming"
        kiosk.shot("hall_call_director")
        broker.kill()  # the broker is gone: the screen says so, the clock runs on
        wait_for(lambda: not publisher.online, 5, "the link down")
        corner.call = None
        corner.refresh()
        assert corner.mark.text == "hall: offline"
        apply_languages("hi")  # the umpire's language: the corner words itself again at once
        try:
            hindi = catalogue("hi").gettext
            assert corner.mark.text == hindi("hall: offline") != "hall: offline"
            assert corner.button.text == hindi("Call director") != "Call director"
        finally:
            apply_languages("en")
        kiosk.tap("start_0")
        assert screen.turns == [True, False]
    finally:
        listener.stop()
