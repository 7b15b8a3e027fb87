"""Names in Devanagari, Gujarati and Greek in Latin letters, for the player display.

The serial player display (docs/display-protocol.md) draws digits and a small Latin font
(A-Z 0-9 .:!?+/-): a name it cannot draw is sent transliterated ("अमित" -> "Amit",
"ભાવેશ" -> "Bhavesh", "Νίκος" -> "Nikos"). A plain, readable scheme for a scoreboard, not a
scholarly one: long and short vowels read the same, and a word's last inherent "a" is
dropped as Hindi and Gujarati speakers say the name.

Devanagari (U+0900-097F) and Gujarati (U+0A80-0AFF) share one layout (both follow ISCII),
so one table indexed by the offset in the block serves both.
"""

from __future__ import annotations

import unicodedata

_DEVANAGARI, _GUJARATI = 0x0900, 0x0A80

#: Consonants by offset in the block; each carries an inherent "a".
_CONSONANTS = dict(
    zip(
        range(0x15, 0x3A),
        [
            "k",
            "kh",
            "g",
            "gh",
            "n",
            "ch",
            "chh",
            "j",
            "jh",
            "n",
            "t",
            "th",
            "d",
            "dh",
            "n",
            "t",
            "th",
            "d",
            "dh",
            "n",
            "n",
            "p",
            "ph",
            "b",
            "bh",
            "m",
            "y",
            "r",
            "r",
            "l",
            "l",
            "l",
            "v",
            "sh",
            "sh",
            "s",
            "h",
        ],
        strict=True,
    )
)
#: Vowel signs (matras) replace the inherent "a"; independent vowels stand alone.
_SIGNS = {0x3E: "a", 0x3F: "i", 0x40: "i", 0x41: "u", 0x42: "u", 0x43: "ri", 0x44: "ri",
          0x45: "e", 0x46: "e", 0x47: "e", 0x48: "ai", 0x49: "o", 0x4A: "o", 0x4B: "o",
          0x4C: "au"}  # fmt: skip
_VOWELS = {0x05: "a", 0x06: "a", 0x07: "i", 0x08: "i", 0x09: "u", 0x0A: "u", 0x0B: "ri",
           0x0D: "e", 0x0E: "e", 0x0F: "e", 0x10: "ai", 0x11: "o", 0x12: "o", 0x13: "o",
           0x14: "au"}  # fmt: skip
_MARKS = {0x01: "n", 0x02: "n", 0x03: "h"}  # chandrabindu, anusvara, visarga
_VIRAMA, _NUKTA, _DANDA = 0x4D, 0x3C, 0x64

_GREEK = {
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th",
    "ι": "i", "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p",
    "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps",
    "ω": "o",
}  # fmt: skip
#: Greek pairs read as one sound (ELOT 743's common cases).
_GREEK_PAIRS = {"ου": "ou", "αυ": "av", "ευ": "ev", "γγ": "ng", "γκ": "gk"}


def _indic_offset(ch: str) -> int | None:
    code = ord(ch)
    for base in (_DEVANAGARI, _GUJARATI):
        if base <= code < base + 0x80:
            return code - base
    return None


def _indic_word(word: str) -> str:
    """One Devanagari or Gujarati word: consonants, their vowel signs, viramas, marks."""
    out: list[str] = []
    pending = False  # the last consonant's inherent "a" not yet written
    syllables = 0
    for ch in word:
        offset = _indic_offset(ch)
        if offset is None:
            if pending:
                out.append("a")
                pending = False
            out.append(ch)
            continue
        if offset in _SIGNS:
            out.append(_SIGNS[offset])
            pending = False
        elif offset == _VIRAMA:
            pending = False
        elif offset == _NUKTA:
            continue
        elif offset in _MARKS:
            if pending:
                out.append("a")
                pending = False
            out.append(_MARKS[offset])
        else:
            if pending:
                out.append("a")
            pending = False
            if offset in _CONSONANTS:
                out.append(_CONSONANTS[offset])
                pending = True
                syllables += 1
            elif offset in _VOWELS:
                out.append(_VOWELS[offset])
                syllables += 1
            elif 0x66 <= offset <= 0x6F:
                out.append(str(offset - 0x66))
            elif offset == _DANDA:
                out.append(".")
    if pending and syllables < 2:
        out.append("a")  # a one-syllable word keeps its vowel ("क" is "ka")
    text = "".join(out)
    return text[:1].upper() + text[1:]


def _greek_word(word: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    out: list[str] = []
    i = 0
    while i < len(bare):
        pair = bare[i : i + 2].lower()
        if pair in _GREEK_PAIRS:
            latin, step = _GREEK_PAIRS[pair], 2
        else:
            latin, step = _GREEK.get(bare[i].lower(), bare[i]), 1
        out.append(latin.capitalize() if bare[i].isupper() else latin)
        i += step
    return "".join(out)


def to_latin(text: str) -> str:
    """`text` with its Devanagari, Gujarati and Greek words in Latin letters; other
    letters lose their accents; what is left outside ASCII is dropped."""
    words = []
    for word in text.split(" "):
        if any(_indic_offset(c) is not None for c in word):
            word = _indic_word(word)
        elif any("\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff" for c in word):
            word = _greek_word(word)
        bare = unicodedata.normalize("NFD", word)
        words.append("".join(c for c in bare if c.isascii()))
    return " ".join(words)


def initials(name: str) -> str:
    """The Latin initials of a name ("अमित शाह" -> "AS"), for a display with room for two."""
    return "".join(w[0] for w in to_latin(name).upper().split() if w[:1].isalnum())
