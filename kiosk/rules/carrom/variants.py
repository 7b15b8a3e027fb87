"""The rule sets by name, as a match record names them ("icf", "club").

Like python-chess variants: each profile is a subclass of `IcfRules` that
overrides small hooks; `rules_for(name)` finds one by name.
"""

from __future__ import annotations

from kiosk.rules.carrom.club import ClubRules
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.icf import IcfRules

RULE_SETS: dict[str, type[IcfRules]] = {"icf": IcfRules, "club": ClubRules}


def rules_for(name: str) -> IcfRules:
    """The rule set called `name`; IllegalEvent names the known ones otherwise."""
    try:
        return RULE_SETS[name]()
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise IllegalEvent(f"unknown rule set {name!r}; known: {known}") from None
