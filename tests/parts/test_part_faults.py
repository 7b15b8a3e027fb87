"""A part's fault as a code and facts (kiosk/parts/faults.py, kiosk/tables/sensor_faults.py),
from real dead parts: a GPIO pin another device holds on gpiozero's MockFactory, a missing or
duplicated pin, a serial port that does not exist (pyserial opening it for real), a stuck
beam. The English text stays the driver's (the log and the journal keep it); the facts word it
in Hindi, Gujarati and Greek from the catalogues."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from gpiozero import Buzzer

from drivers.display import PlayerDisplay
from drivers.errors import PinError
from drivers.hits import BeamFault
from drivers.mockpins import ClockedMockFactory
from drivers.pockets import PocketBeams
from kiosk.errors import reason_of
from kiosk.parts.faults import MESSAGES, link_said, start_said
from kiosk.tables.health import beam_fault_message
from kiosk.tables.sensor_faults import MESSAGES as SENSOR_MESSAGES
from kiosk.tables.sensor_faults import camera_silent
from kiosk.ui.words import english, said_words
from tests.waiting import wait_until

LOCALE = Path(__file__).resolve().parents[2] / "kiosk" / "locale"


def words_in(language: str) -> Any:
    """A catalogue's words without Kivy: msgid -> msgstr, then the facts filled in."""
    with (LOCALE / language / "LC_MESSAGES" / "kiosk.po").open("rb") as f:
        found = {m.id: m.string for m in read_po(f) if m.id and m.string}

    def words(message: str, /, **values: object) -> str:
        return found.get(message, message).format(**values)

    return words


def started(make: Any) -> BaseException:
    with pytest.raises(Exception) as caught:
        make()
    return caught.value


def test_a_pin_another_device_holds_is_pocket_and_pin_in_every_language() -> None:
    factory = ClockedMockFactory()
    holder = Buzzer(22, pin_factory=factory)  # pocket 3's pin, taken first
    try:
        exc = started(lambda: PocketBeams((17, 27, 22, 23), sink=print, pin_factory=factory))
    finally:
        holder.close()
    assert isinstance(exc, PinError) and exc.code == "in_use" and exc.pocket == 3
    text = f"pocket beams did not start: {exc}"
    message = start_said(text, exc)
    assert message == text  # the log's English is the driver's, unchanged
    reason = reason_of(message)
    assert reason is not None and reason.code == "pocket_pin_in_use"
    assert dict(reason.facts) == {"pocket": 3, "pin": 22, "detail": exc.reason}
    assert said_words(message, english) == "Pocket 3: GPIO pin 22 is in use by another program"
    hindi = said_words(message, words_in("hi"))
    assert hindi == "पाकेट 3: GPIO पिन 22 किसी दूसरे प्रोग्राम के इस्तेमाल में है"
    assert "22" in said_words(message, words_in("gu")) and "3" in said_words(
        message, words_in("el")
    )


def test_a_pin_the_board_lacks_and_a_pin_given_twice() -> None:
    missing = started(
        lambda: PocketBeams((17, 27, 22, 99), sink=print, pin_factory=ClockedMockFactory())
    )
    said = start_said("x", missing)
    assert said_words(said, english) == "Pocket 4: GPIO pin 99 does not exist on this board"
    twice = started(
        lambda: PocketBeams((17, 27, 17, 23), sink=print, pin_factory=ClockedMockFactory())
    )
    said = start_said("x", twice)
    assert said_words(said, words_in("el")) == ("Τρύπα 3: η ακίδα GPIO 17 ανήκει ήδη στην τρύπα 1")


def test_a_serial_port_that_does_not_exist_names_the_port(tmp_path: Path) -> None:
    port = str(tmp_path / "ttyNOPE")
    display = PlayerDisplay(port, backoff_s=(0.05, 0.1))
    try:
        assert wait_until(lambda: display.status.state == "unplugged")
        status = display.status
    finally:
        display.close()
    message = link_said(status)
    assert message == status.detail and port in message  # the English as the driver said it
    reason = reason_of(message)
    assert reason is not None and reason.code == "port_missing"
    assert said_words(message, words_in("hi")) == f"सीरियल पोर्ट {port} मौजूद नहीं है"


def test_a_stuck_beam_and_a_silent_camera_keep_their_english() -> None:
    stuck = beam_fault_message(BeamFault(2, "stuck", 5.0))
    assert stuck == "pocket 2's beam is stuck"
    assert said_words(stuck, words_in("gu")) == "પોકેટ 2નો બીમ અટકી ગયો છે"
    silent = camera_silent(3.25)
    assert silent == "camera: no frames for 3.2 s"
    assert said_words(silent, english) == "No picture from the camera for 3.2 s"


def test_a_plain_message_stays_as_it_is_and_every_code_has_words() -> None:
    assert said_words("journal: disk full", words_in("hi")) == "journal: disk full"
    hindi = words_in("hi")
    for code, message in {**MESSAGES, **SENSOR_MESSAGES}.items():
        assert hindi(message, **dict.fromkeys(_names(message), "1")) != message, code


def _names(message: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(message) if name]
