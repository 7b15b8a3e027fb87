"""One root for every Tableside error, each also the built-in that fits."""

from __future__ import annotations

import pytest

from drivers.errors import DriverError, PinError
from drivers.lines import LineError
from kiosk.clocks.countdown import ClockError
from kiosk.clocks.record import ClockRecordError
from kiosk.config import ConfigError
from kiosk.engine.journal import JournalError
from kiosk.errors import TablesideError
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.rules.bhukhar.cards import CardError
from kiosk.rules.bhukhar.melds import MeldError
from kiosk.rules.bhukhar.record import RecordError, SessionError
from kiosk.rules.bhukhar.scoresheet import ScoreError
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import EventError
from kiosk.rules.carrom.record import MatchRecordError
from kiosk.startup import StartRefused
from kiosk.tables.bhukhar_table import TableFileError
from vision.calibration import CalibrationError
from vision.capture import CameraError

VALUE_ERRORS = [
    ClockError,
    ClockRecordError,
    ConfigError,
    IllegalAction,
    CardError,
    MeldError,
    RecordError,
    SessionError,
    ScoreError,
    IllegalEvent,
    EventError,
    MatchRecordError,
    TableFileError,
    CalibrationError,
    PinError,
    LineError,
]


@pytest.mark.parametrize("error", VALUE_ERRORS, ids=lambda e: e.__name__)
def test_errors_bad_input_is_a_tableside_error_and_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, TablesideError) and issubclass(error, ValueError)


@pytest.mark.parametrize("error", [JournalError, StartRefused, CameraError, DriverError])
def test_errors_failing_parts_are_tableside_errors(error: type[Exception]) -> None:
    assert issubclass(error, TablesideError)


def test_errors_the_two_record_errors_have_two_names() -> None:
    assert MatchRecordError.__name__ != RecordError.__name__
