"""An app that stopped leaves the language alone: a later change of language (another
kiosk's, the next test's) must not word its home screen, whose rules would look for a running
app and find none (`app.unit`: "'NoneType' object has no attribute 'bind'")."""

from __future__ import annotations

from kiosk.access.authority import Role
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.registry import CarromStart
from kiosk.ui.i18n import apply_languages

from .harness import FakeClock, Services, make_kiosk, pump


def test_a_stopped_app_is_not_reworded_by_a_later_change_of_language(
    services: Services, fake_clock: FakeClock
) -> None:
    kiosks = make_kiosk(services, fake_clock)
    kiosk = next(kiosks)
    # An unfinished match: home lists it, so a change of language rewords its rows.
    kiosk.services.tables.create(
        CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")), Role.UMPIRE
    )
    kiosk.app.refresh_home()
    app = kiosk.app
    kiosks.close()  # the app stops (on_stop) and is let go
    try:
        apply_languages("hi", "")
        pump(2)
    finally:
        apply_languages("en", "")
    assert app.screen("home").rows  # its rows were left as they were, no error raised
