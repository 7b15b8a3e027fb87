"""The interface's words in English, Hindi, Gujarati and Greek (gettext catalogues).

Every string a screen shows goes through a `Translator`: `tr` for the umpire console,
`ptr` for the player display, which may have its own language. In a .kv rule,
`text: tr._('Home')` re-evaluates when `tr.language` changes (the translator tells every
rule bound to `_`), so a switch takes effect at once, without a restart; Python code
that words a view (a banner built from the core's facts) registers with `on_switch` and
words it again.

The catalogues are kiosk/locale/<lang>/LC_MESSAGES/kiosk.po, extracted with Babel
(babel.cfg). The package build compiles them to .mo with Babel (setup.py); a checkout that
has no .mo (an editable install) reads the .po itself when first asked.
Placeholders are named (`{name}`) so a translation can put them where its grammar wants.
Digits stay Western (0-9), as on tournament scoresheets.
"""

from __future__ import annotations

import ast
import gettext
import inspect
import io
import logging
import weakref
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from kiosk.errors import Reason
from kiosk.ui.words import reason_words

log = logging.getLogger(__name__)

DOMAIN = "kiosk"
#: Each language in its own script, as the settings screen offers it.
LANGUAGES = {"en": "English", "hi": "हिन्दी", "gu": "ગુજરાતી", "el": "Ελληνικά"}


class _Catalogue(gettext.NullTranslations):
    """A catalogue read from a .po file: msgid -> msgstr (untranslated and fuzzy left out)."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self._words = words

    def gettext(self, message: str) -> str:
        return self._words.get(message) or message


def read_po(text: str) -> dict[str, str]:
    """The translations of a .po file. Babel writes the catalogues; reading them needs only
    their plain subset (no plurals, no contexts), so the kiosk does not load Babel to start."""
    words: dict[str, str] = {}
    field = ""
    parts: dict[str, list[str]] = {"msgid": [], "msgstr": []}
    fuzzy = False

    def keep() -> None:
        msgid, msgstr = "".join(parts["msgid"]), "".join(parts["msgstr"])
        if msgid and msgstr and not fuzzy:
            words[msgid] = msgstr

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith(("msgid ", "msgstr ")):
            name, _, quoted = line.partition(" ")
            if name == "msgid":
                keep()
                parts = {"msgid": [], "msgstr": []}
            field = name
            parts[field].append(ast.literal_eval(quoted))
        elif line.startswith('"') and field:
            parts[field].append(ast.literal_eval(line))
        elif not line:
            keep()
            parts, field, fuzzy = {"msgid": [], "msgstr": []}, "", False
    keep()
    return words


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of `language` (English: the messages themselves)."""
    if language == "en":
        return gettext.NullTranslations()
    folder = resources.files("kiosk") / "locale" / language / "LC_MESSAGES"
    mo = folder / f"{DOMAIN}.mo"
    if mo.is_file():
        return gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    po = folder / f"{DOMAIN}.po"
    if not po.is_file():
        log.error("no catalogue for language %r (looked for %s): English shown", language, po)
        return gettext.NullTranslations()
    return _Catalogue(read_po(po.read_text(encoding="utf-8")))


#: The Hindi law text letters its sub-clauses अ, आ, इ, ई: "नियम 56 (आ)" for law 56 b.
_HINDI_CLAUSES = {"a": "(अ)", "b": "(आ)", "c": "(इ)", "d": "(ई)"}


def law_number(law: str, language: str) -> str:
    """A law number as the language's law text numbers it ("52 a" is "52 (अ)" in Hindi)."""
    number, _, clause = law.partition(" ")
    if language == "hi" and clause in _HINDI_CLAUSES:
        return f"{number} {_HINDI_CLAUSES[clause]}"
    return law


class Translator(EventDispatcher):
    """`_(message, **values)`: the message in `language`, its `{placeholders}` filled."""

    language = StringProperty("en")

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self._observers: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
        self._switched: list[Callable[[], Callable[[], None] | None]] = []
        self._words = catalogue("en")
        self.language = language

    def _(self, message: str, /, **values: Any) -> str:
        text = self._words.gettext(message) if message else ""
        if "law" in values:
            values["law"] = law_number(str(values["law"]), self.language)
        return text.format(**values) if values else text

    # .kv rules bind to `_`: they are run again when the language changes.
    def fbind(self, name: str, func: Callable[..., Any], *largs: Any, **kwargs: Any) -> Any:
        if name == "_":
            self._observers.append((func, largs, kwargs))
            return 0
        return super().fbind(name, func, *largs, **kwargs)

    def funbind(self, name: str, func: Callable[..., Any], *largs: Any, **kwargs: Any) -> None:
        if name == "_":
            self._observers = [e for e in self._observers if e[0] is not func]
            return
        super().funbind(name, func, *largs, **kwargs)

    def on_switch(self, callback: Callable[[], None]) -> None:
        """`callback()` after each change of language (Python code that words views). A
        method is held weakly: a screen that is gone is not kept alive by its language."""
        if inspect.ismethod(callback):
            self._switched.append(weakref.WeakMethod(callback))
        else:
            self._switched.append(lambda: callback)  # a plain function lives on anyway

    def off_switch(self, callback: Callable[[], None]) -> None:
        """`callback` no longer hears of a change of language (its app stopped)."""
        self._switched = [ref for ref in self._switched if ref() != callback]

    def on_language(self, _instance: object, language: str) -> None:
        if language not in LANGUAGES:
            log.error("unknown language %r: English shown", language)
        self._words = catalogue(language) if language in LANGUAGES else catalogue("en")
        alive = []
        for entry in self._observers:
            func, largs, _kwargs = entry
            try:
                func(*largs, None, None)
            except ReferenceError:  # the rule's widget is gone: forget the rule
                continue
            alive.append(entry)
        # Not list.remove: comparing entries would touch the dead widgets' proxies.
        self._observers = alive
        for ref in list(self._switched):
            callback = ref()
            try:
                if callback is not None:
                    callback()
                    continue
            except ReferenceError:  # a screen whose widgets are gone (its app stopped)
                pass
            self._switched = [r for r in self._switched if r is not ref]
        # The old textures are given back two frames on (kiosk/ui/memory.py Trimmer).


#: The umpire console's words.
tr = Translator()
#: The player display's words (its own language, or the console's).
ptr = Translator()


class Said:
    """A widget's status line (`prop`, a StringProperty) worded from its message id and values,
    not kept as words: a language switch words it again. `say(message, **values)` shows it
    (mark the message `N_`); a value that is a `(message, values)` pair or a core's `Reason` is
    worded too. A line set by other code since (`widget.message = ""`) is left alone."""

    def __init__(self, widget: Any, prop: str = "message", translator: Translator = tr) -> None:
        self._widget = widget
        self._prop = prop
        self._tr = translator
        self._said: tuple[str, dict[str, Any]] | None = None
        self._shown = ""
        translator.on_switch(self._reword)

    def say(self, message: str, /, **values: Any) -> None:
        self._said = (message, values)
        self._show()

    def _word(self, message: str, values: dict[str, Any]) -> str:
        return self._tr._(message, **{key: self._value(v) for key, v in values.items()})

    def _value(self, value: Any) -> Any:
        if isinstance(value, tuple):  # a (message, values) pair
            return self._word(*value)
        if isinstance(value, Reason):
            return reason_words(value, self._tr._)
        return value

    def _show(self) -> None:
        assert self._said is not None
        self._shown = self._word(*self._said)
        setattr(self._widget, self._prop, self._shown)

    def _reword(self) -> None:
        if self._said is not None and getattr(self._widget, self._prop) == self._shown:
            self._show()


def apply_languages(console: str, display: str = "") -> None:
    """The console's language, and the player display's ("": the console's), at once."""
    tr.language = console
    ptr.language = display or console
