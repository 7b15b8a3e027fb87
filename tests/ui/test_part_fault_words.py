"""A dead part's details in the umpire's language, real parts and real taps under
Xvfb: the kiosk is started as `tableside run` starts it (kiosk/startup.py). On this machine no
GPIO pin factory loads, so the beams and the buzzer do not start: after a switch to Hindi the
start screen words why from the drivers' facts. A player display on a serial port that does
not exist is a fault on the carrom console: its details name the port in Hindi. The English
text the drivers wrote stays what the log and the journal keep."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.errors import reason_of
from kiosk.startup import start_kiosk
from kiosk.ui.i18n import apply_languages

from .harness import FakeClock, Kiosk, make_kiosk

pytestmark = pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")


def _kiosk(config_text: str, tmp_path: Path, clock: FakeClock) -> Iterator[Kiosk]:
    config = tmp_path / "settings.toml"
    config.write_text(config_text, encoding="utf-8")
    started = start_kiosk(config, tmp_path / "data", clock=clock)
    try:
        yield from make_kiosk(started.services.but(authority=None), clock)
    finally:
        apply_languages("en", "")
        started.parts.close()


@pytest.fixture
def dead_gpio(
    tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Kiosk]:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    yield from _kiosk('[camera]\nsource = "none"\n', tmp_path, fake_clock)


def test_the_start_screen_words_a_dead_part_in_hindi_after_a_switch(dead_gpio: Kiosk) -> None:
    kiosk = dead_gpio
    if kiosk.current != "parts":
        pytest.skip("the GPIO pins start on this machine")
    screen = kiosk.screen()
    english = kiosk.services.startup_faults[0][1]
    assert english.startswith("pocket beams did not start: no GPIO pin factory")
    assert screen.rows[0][2] == "No GPIO pin factory can start on this computer"
    apply_languages("hi", "")
    kiosk.advance(0.1)
    assert screen.rows[0][0] == "पाकेट बीम"
    assert screen.rows[0][2] == "इस कंप्यूटर पर कोई GPIO पिन फ़ैक्टरी शुरू नहीं हो सकती"
    assert screen.ids.part_0.message == screen.rows[0][2]  # on the screen, not only in the rows
    kiosk.shot("parts_dead_hindi")
    assert kiosk.services.startup_faults[0][1] == english  # the log's words are unchanged


@pytest.fixture
def no_port(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Kiosk]:
    port = tmp_path / "ttyNOPE"  # a serial port that does not exist
    lines = ["[camera]", 'source = "none"', "[pockets]", 'pin_factory = "mock"', "[display]"]
    settings = "\n".join([*lines, f'port = "{port}"', ""])
    yield from _kiosk(settings, tmp_path, fake_clock)


def test_the_console_words_a_display_on_a_missing_port_in_hindi(
    no_port: Kiosk, tmp_path: Path
) -> None:
    kiosk = no_port
    port = str(tmp_path / "ttyNOPE")
    kiosk.app.show("home")
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    console = kiosk.screen()
    for _ in range(50):  # the display's worker fails to open the port on its own thread
        kiosk.advance(0.1)
        if console.fault_line:
            break
    assert console.fault_line == "Player display: not working"
    fault = console.session.view().faults[0]
    assert port in fault.message and reason_of(fault.message) is not None
    assert console.fault_details == f"Player display: There is no serial port {port}"
    apply_languages("hi", "")
    kiosk.advance(0.1)
    assert console.fault_line == "खिलाड़ी डिस्प्ले: काम नहीं कर रहा"
    kiosk.tap("faults")
    assert console.ids.fault_details.text == f"खिलाड़ी डिस्प्ले: सीरियल पोर्ट {port} मौजूद नहीं है"
    kiosk.shot("carrom_fault_hindi")
    kiosk.tap("fault_close")
    assert console.session.view().faults[0].message == fault.message  # English in the record
