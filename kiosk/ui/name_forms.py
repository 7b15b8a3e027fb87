"""A side's name in a form that fits a width at a fixed size: shortened readably, never shrunk.

The player display draws names at a 12 mm cap height, so a 7-inch panel's half row holds
about seven letters. A longer name is not drawn smaller and not cut with "…": it takes the
first of its readable forms that fits, longest first, as a scoresheet abbreviates:
"Konstantinos Papadopoulos", "K. Papadopoulos", "Papadopoulos", "Konstantinos", then the
surname abbreviated with a full stop ("Papad.") down to its initial. A doubles side
("A & B") takes the same step for both partners. Letters are counted as the reader sees
them: a Devanagari or Gujarati conjunct or a letter with its marks is one, never split.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

#: How a doubles side's partners are joined (kiosk/tables: the side's name as typed).
PARTNERS = " & "
#: The mark before the name of the side at turn (players.kv). A name's form is fitted with it
#: always, so that the form stays put when the turn passes.
TURN_MARK = "> "
#: Unicode's canonical combining class of a virama: the consonant after it joins its cluster.
_VIRAMA = 9


def letters(word: str) -> list[str]:
    """`word` cut into what a reader counts as letters: a base character with its marks,
    joiners, and any consonant joined to it by a virama (a conjunct)."""
    out: list[str] = []
    for ch in word:
        joins = bool(out) and (
            unicodedata.category(ch) in ("Mn", "Mc", "Me", "Cf")
            or unicodedata.combining(out[-1][-1]) == _VIRAMA
        )
        if joins:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _one(name: str) -> list[str]:
    """One person's forms, longest first."""
    words = name.split()
    if not words:
        return [name]
    forms = [" ".join(words)]
    if len(words) > 1:
        forms.append(" ".join([letters(w)[0] + "." for w in words[:-1]] + [words[-1]]))
        forms += [words[-1], words[0]]
    last = letters(words[-1])
    forms += ["".join(last[:n]) + "." for n in range(len(last) - 1, 0, -1)]
    return forms


def forms(name: str) -> list[str]:
    """A side's name in its readable forms, longest first (see the module's docstring)."""
    partners = [_one(p) for p in name.split(PARTNERS)]
    steps = max(len(p) for p in partners)
    out = [PARTNERS.join(p[min(i, len(p) - 1)] for p in partners) for i in range(steps)]
    if len(partners) > 1:
        out.append("&".join(p[-1] for p in partners))  # "S.&R.": the partners' initials
    return list(dict.fromkeys(out))


def fitted(name: str, fits: Callable[[str], bool]) -> str:
    """The first form of `name` that `fits`; the shortest if none does."""
    candidates = forms(name)
    return next((form for form in candidates if fits(form)), candidates[-1])
