"""The rule sets by name, as a match record names them ("icf", "club").

Like python-chess variants: each profile is a subclass of `IcfRules` that
overrides small hooks; `rules_for(name)` finds one by name.
"""

from __future__ import annotations

from kiosk.rules.carrom.club import ClubRules
from kiosk.rules.carrom.errors import N_, IllegalEvent
from kiosk.rules.carrom.events import RuleSet
from kiosk.rules.carrom.icf import IcfRules

#: The registry: the one list of rule-set names (the settings and the setup screen ask it).
RULE_SETS: dict[RuleSet, type[IcfRules]] = {"icf": IcfRules, "club": ClubRules}


def rule_set_names() -> tuple[str, ...]:
    """The names a match record, the settings and the setup screen may use."""
    return tuple(RULE_SETS)


def rules_for(name: str) -> IcfRules:
    """The rule set called `name`; IllegalEvent names the known ones otherwise."""
    try:
        return RULE_SETS[name]()  # type: ignore[index]  # any text may be asked for
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise IllegalEvent.of(
            "unknown_rules", N_("unknown rule set {name!r}; known: {known}"), name=name, known=known
        ) from None
