"""The four catalogues are complete and keep every placeholder, number and law.

The messages are extracted again with Babel (babel.cfg) and compared with the committed
kiosk.pot: a string wrapped in `_()` but not extracted fails here. Each translation must
exist (not empty, not fuzzy), keep the message's `{placeholders}` and numbers (law and
rule numbers as the texts number them, Western digits), and the .kv files must hold no
visible text left outside `tr._()`.
"""

from __future__ import annotations

import gettext
import re
import string
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "kiosk" / "locale"
LANGUAGES = ("hi", "gu", "el")
#: Devanagari and Gujarati digits: the interface keeps Western 0-9 (tournament scoresheets).
NATIVE_DIGITS = re.compile("[\u0966-\u096f\u0ae6-\u0aef]")


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def placeholders(text: str) -> Counter[str]:
    return Counter(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def numbers(text: str) -> Counter[str]:
    return Counter(re.findall(r"\d+", text))


def problems(catalogue: Catalog, template: Catalog) -> list[str]:
    """Every message of the template that the catalogue lacks or words wrongly."""
    found = []
    for message in template:
        if not message.id:
            continue
        got = catalogue.get(message.id)
        if got is None or not got.string:
            found.append(f"no translation: {message.id!r}")
            continue
        if got.fuzzy:
            found.append(f"fuzzy: {message.id!r}")
        if placeholders(got.string) != placeholders(message.id):
            found.append(f"placeholders differ: {message.id!r} -> {got.string!r}")
        if numbers(got.string) != numbers(message.id):
            found.append(f"numbers differ: {message.id!r} -> {got.string!r}")
        if NATIVE_DIGITS.search(got.string):
            found.append(f"non-Western digits: {got.string!r}")
    return found


def test_the_template_holds_every_wrapped_message(tmp_path: Path) -> None:
    out = tmp_path / "fresh.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "-q", "extract", "-F", "babel.cfg", "-k", "N_", "-o", str(out), "."],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    fresh = {m.id for m in _read(out) if m.id}
    committed = {m.id for m in _read(LOCALE / "kiosk.pot") if m.id}
    assert fresh - committed == set(), "run the extraction in babel.cfg's header"
    assert committed - fresh == set(), "kiosk.pot holds messages no screen uses"
    assert len(fresh) > 200


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    template = _read(LOCALE / "kiosk.pot")
    catalogue = _read(LOCALE / language / "LC_MESSAGES" / "kiosk.po")
    assert problems(catalogue, template) == []


def test_the_check_catches_a_dropped_placeholder_and_a_missing_message() -> None:
    template = Catalog()
    template.add("{name} wins the board, {n} points")
    template.add("Stroke (law 50)")
    template.add("Home")
    bad = Catalog(locale="hi")
    bad.add("{name} wins the board, {n} points", "{name} बोर्ड जीता")
    bad.add("Stroke (law 50)", "स्ट्रोक (नियम ५०)")
    found = problems(bad, template)
    assert any("placeholders differ" in p for p in found)
    assert any("numbers differ" in p for p in found)
    assert any("non-Western digits" in p for p in found)
    assert any("no translation: 'Home'" in p for p in found)


def test_the_seeds_words_and_law_numbers() -> None:
    """Hindi from the law text (बोर्ड, क्वीन, ड्यूज, फाउल, ब्रेक; sub-clauses (अ), (आ)),
    Gujarati from the Bhukhar rules (લાઇસન્સ, માસ્ટર, દંડ), Greek from the tournament
    rules (ρολόι, καθυστέρηση, Crawford, Διευθυντής Αγώνων)."""
    hi = _read(LOCALE / "hi" / "LC_MESSAGES" / "kiosk.po")
    gu = _read(LOCALE / "gu" / "LC_MESSAGES" / "kiosk.po")
    el = _read(LOCALE / "el" / "LC_MESSAGES" / "kiosk.po")

    def word(catalogue: Catalog, msgid: str) -> str:
        message = catalogue.get(msgid)
        assert message is not None
        return str(message.string)

    assert word(hi, "Who won the toss? (law 56 b)") == "टॉस किसने जीता? (नियम 56 (आ))"
    assert "क्वीन" in word(hi, "Queen pocketed, to cover")
    assert "ड्यूज" in word(hi, "Placing dues (law 88)")
    assert "फाउल" in word(hi, "Foul") and "ब्रेक" in word(hi, "Break (law 46)")
    assert "बोर्ड" in word(hi, "Board {n}")
    assert word(gu, "Licence") == "લાઇસન્સ"
    assert "માસ્ટર" in word(gu, "{team}: {total} pts{penalties}, {master} master")
    assert "દંડ" in word(gu, "Add penalty") and "રુલ 17" in word(gu, "No penalties (rule 17)")
    assert "Crawford" in word(el, "Crawford game: no doubling")
    assert "καθυστέρηση" in word(el, "delay {time}")
    assert "ρολογιού" in word(el, "Start the clock")
    assert word(el, "Director") == "Δ/ντής Αγώνων"  # the rules' Διευθυντής Αγώνων, abbreviated


def test_no_visible_text_is_left_outside_the_catalogue() -> None:
    """In a .kv property that shows text, every quoted literal with letters is `tr._(...)`'s."""
    shown = re.compile(r"^\s*(text|label|hint_text|caption):")
    quoted = re.compile(r"'[^']*'|\"[^\"]*\"")
    left = []
    for kv in sorted((ROOT / "kiosk" / "ui").glob("*.kv")):
        for n, line in enumerate(kv.read_text(encoding="utf-8").splitlines(), 1):
            if not shown.match(line):
                continue
            for m in quoted.finditer(line):
                # Markup tags, newlines and %-formats are not words; `== 'icf'` is a comparison.
                words = re.sub(r"\[/?\w+\]|\\n|%[.\d]*[dfs]", "", m.group())
                before = line[: m.start()].rstrip()
                if before.endswith(("==", "!=")):
                    continue
                if re.search("[A-Za-z]", words) and not before.endswith("_("):
                    left.append(f"{kv.name}:{n}: {line.strip()}")
    assert left == []


def test_the_catalogue_loads_from_the_po_without_a_compiled_mo() -> None:
    """An editable checkout has no .mo: the kiosk reads the .po as Babel's .mo would hold it."""
    from babel.messages.mofile import write_mo

    from kiosk.ui.i18n import catalogue, read_po

    for language in LANGUAGES:
        path = LOCALE / language / "LC_MESSAGES" / "kiosk.po"
        mine = read_po(path.read_text(encoding="utf-8"))
        compiled = Path(tempfile.mkdtemp()) / "kiosk.mo"
        with compiled.open("wb") as target:
            write_mo(target, _read(path))
        with compiled.open("rb") as source:
            babel = gettext.GNUTranslations(source)
        assert mine == {k: v for k, v in babel._catalog.items() if k}  # type: ignore[attr-defined]

    catalogue.cache_clear()
    assert catalogue("hi").gettext("Home") == "होम"
    assert catalogue("gu").gettext("Licence") == "લાઇસન્સ"
    assert catalogue("el").gettext("Pause") == "Παύση"
    assert catalogue("en").gettext("Pause") == "Pause"


def test_a_law_number_reads_as_the_hindi_text_numbers_it() -> None:
    from kiosk.ui.i18n import Translator, law_number

    assert law_number("52 a", "hi") == "52 (अ)" and law_number("56 b", "hi") == "56 (आ)"
    assert law_number("52 a", "el") == "52 a" and law_number("140", "hi") == "140"
    hindi = Translator("hi")
    assert hindi._("law {law}", law="52 a") == "नियम 52 (अ)"
    assert Translator("en")._("law {law}", law="52 a") == "law 52 a"
