"""Text on the kiosk: shaped by a real shaper, in Noto fonts, any of the four scripts on any label.

Kivy's default SDL2 text provider does not shape: Devanagari's i-sign lands after its
consonant, conjuncts fall apart and a Gujarati virama shows. Kivy's PIL provider draws
with Pillow, whose wheels bundle libraqm (HarfBuzz + FriBiDi), and that shapes both.

Every label draws through `LabelPIL`, so the fallback lives there: the text is cut into
runs, each drawn in the first font of the chain that has its characters (the label's own
font, Noto Sans for Latin and Greek, Noto Sans Devanagari, Noto Sans Gujarati, then
Kivy's DejaVu Sans for symbols such as the PIN's dots). Combining marks, viramas and
joiners stay in their base's run so raqm shapes the cluster whole. A name in Hindi beside
a Greek one in the same label works the same way, markup or not.

`before_kivy()` must run before `import kivy` (Kivy reads KIVY_TEXT once, at import);
`install()` after Kivy's Config is imported. `tableside run`, the benchmarks and the UI
tests all go through kiosk/ui/window.py or call the two themselves.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.ui.scale import text_px

log = logging.getLogger(__name__)

NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
#: Font file stems by role; fc-match names them when the files are elsewhere.
FAMILIES = {
    "latin": ("NotoSans", "Noto Sans"),
    "devanagari": ("NotoSansDevanagari", "Noto Sans Devanagari"),
    "gujarati": ("NotoSansGujarati", "Noto Sans Gujarati"),
}
#: A code point no font has: its drawing is the font's missing-glyph box.
_NOT_A_CHAR = "\U0010fffd"
#: Characters that belong to the run before them (marks, virama, ZWJ, ZWNJ).
_JOINING = frozenset({"Mn", "Mc", "Me", "Cf"})
#: Entries kept of measured runs before the cache starts again.
_CACHE_SIZE = 20000
#: FreeType faces kept open (file and size): one screen in one language uses about 15.
_FACES = 16


class FontsMissing(RuntimeError):
    """The Noto fonts are not installed: Hindi and Gujarati would show as boxes."""


@dataclass(frozen=True, slots=True)
class Face:
    """One font of the chain: the regular and bold files."""

    regular: str
    bold: str

    def path(self, bold: bool) -> str:
        return self.bold if bold else self.regular


def _fc_match(family: str, style: str) -> str | None:
    if shutil.which("fc-match") is None:
        return None
    try:
        out = subprocess.run(
            ["fc-match", "--format=%{file}", f"{family}:style={style}"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    # fc-match always answers something: accept only the family asked for.
    stem = family.replace(" ", "")
    return out if Path(out).name.startswith(stem + "-") else None


def find_face(role: str) -> Face:
    """The files of one Noto family, at Debian's path or wherever fontconfig knows them."""
    stem, family = FAMILIES[role]
    found = []
    for style in ("Regular", "Bold"):
        path = NOTO_DIR / f"{stem}-{style}.ttf"
        where = str(path) if path.is_file() else _fc_match(family, style)
        if where is None:
            raise FontsMissing(
                f"font {family} {style} not found (looked in {NOTO_DIR} and asked fc-match): "
                "install Debian's fonts-noto-core (make setup does)"
            )
        found.append(where)
    return Face(found[0], found[1])


def find_faces() -> dict[str, Face]:
    """Noto Sans, Noto Sans Devanagari, Noto Sans Gujarati; FontsMissing names the first lost."""
    return {role: find_face(role) for role in FAMILIES}


def kivy_symbols_face() -> Face:
    """DejaVu Sans, shipped inside Kivy: the symbols (● ♥ ♠ ·) the Noto texts lack."""
    import kivy

    path = str(Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf")
    return Face(path, path)


# -- the chain and the runs --------------------------------------------------------------


class Fonts:
    """The fallback chain and Pillow's font objects, cached by file and size."""

    def __init__(self, chain: list[Face]) -> None:
        self.chain = chain
        self._fonts: dict[tuple[str, int], Any] = {}
        self._has: dict[tuple[str, str], bool] = {}
        self._boxes: dict[str, tuple[tuple[int, int], bytes]] = {}
        # Kivy measures every word and line again at each layout: keep recent answers.
        self._runs: dict[tuple[str, str, bool], list[tuple[str, str]]] = {}
        self._lengths: dict[tuple[str, str, int], float] = {}
        # A label's layout asks a word's extents again for every line it tries (a screen of
        # four languages: 1.3 million asks, 30 different for each one measured): the answer
        # whole, in one look-up, rather than its runs, metrics and lengths each time.
        self._extents: dict[tuple[str, str, bool, int], tuple[int, int]] = {}
        #: Fonts that draw every printable ASCII character: plain ASCII text is one run.
        self._ascii: dict[str, bool] = {}

    def font(self, path: str, size: int) -> Any:
        """Pillow's font for `path` at `size`. Each is a FreeType face with its own map of the
        file, about 0.25 MB resident: only the `_FACES` used last are kept (the dict's order is
        the order of use), so the sizes and scripts of a language left behind give their memory
        back. Opening one again costs about 0.2 ms."""
        key = (path, size)
        font = self._fonts.pop(key, None)
        if font is None:
            from PIL import ImageFont

            font = ImageFont.truetype(path, size)
            if len(self._fonts) >= _FACES:
                del self._fonts[next(iter(self._fonts))]
        self._fonts[key] = font
        return font

    def has(self, path: str, char: str) -> bool:
        """Whether the font draws `char` as itself rather than as its missing-glyph box."""
        key = (path, char)
        known = self._has.get(key)
        if known is None:
            font = self.font(path, 24)
            box = self._boxes.get(path)
            if box is None:
                mask = font.getmask(_NOT_A_CHAR, mode="L")
                box = self._boxes[path] = (mask.size, bytes(mask))
            drawn = font.getmask(char, mode="L")
            known = self._has[key] = (drawn.size, bytes(drawn)) != box
        return known

    def length(self, run: str, path: str, size: int) -> float:
        """The run's advance in pixels (shaped)."""
        key = (run, path, size)
        found = self._lengths.get(key)
        if found is None:
            if len(self._lengths) > _CACHE_SIZE:
                self._lengths.clear()
            found = self._lengths[key] = float(self.font(path, size).getlength(run))
        return found

    def runs(self, text: str, primary: str, bold: bool) -> list[tuple[str, str]]:
        """`text` cut into (run, font file) pairs; the label's own font first."""
        key = (text, primary, bold)
        found = self._runs.get(key)
        if found is None:
            if len(self._runs) > _CACHE_SIZE:
                self._runs.clear()
            found = self._runs[key] = self._cut(text, primary, bold)
        return found

    def _cut(self, text: str, primary: str, bold: bool) -> list[tuple[str, str]]:
        # Most labels are English words and digits: no per-character look-up for those.
        if text.isascii() and self._draws_ascii(primary):
            return [(text, primary)]
        paths = [primary] + [f.path(bold) for f in self.chain if f.path(bold) != primary]
        out: list[tuple[str, str]] = []
        run, path = "", ""
        for ch in text:
            keep = bool(run) and (
                unicodedata.category(ch) in _JOINING or ch.isspace() or self.has(path, ch)
            )
            if keep:
                run += ch
                continue
            if run:
                out.append((run, path))
            path = next((p for p in paths if self.has(p, ch)), primary)
            run = ch
        if run:
            out.append((run, path))
        return out

    def _draws_ascii(self, path: str) -> bool:
        known = self._ascii.get(path)
        if known is None:
            known = self._ascii[path] = all(self.has(path, chr(c)) for c in range(0x21, 0x7F))
        return known

    def extents(self, text: str, primary: str, bold: bool, size: int) -> tuple[int, int]:
        """The width (whole pixels, rounded up) and height of `text` drawn as a line."""
        key = (text, primary, bold, size)
        found = self._extents.get(key)
        if found is None:
            if len(self._extents) > _CACHE_SIZE:
                self._extents.clear()
            runs = self.runs(text, primary, bold)
            ascent, descent = self.metrics(runs, primary, size)
            width = sum(self.length(run, path, size) for run, path in runs)
            found = self._extents[key] = (math.ceil(width), ascent + descent)
        return found

    def metrics(self, runs: list[tuple[str, str]], primary: str, size: int) -> tuple[int, int]:
        """The line's ascent and descent: the tallest of the fonts it uses (and its own)."""
        ascent, descent = self.font(primary, size).getmetrics()
        for _run, path in runs:
            a, d = self.font(path, size).getmetrics()
            ascent, descent = max(ascent, a), max(descent, d)
        return ascent, descent


FONTS: Fonts | None = None


# -- Kivy ----------------------------------------------------------------------------------


def before_kivy() -> None:
    """Choose Kivy's PIL text provider. Kivy reads KIVY_TEXT when `kivy` is first imported."""
    if "kivy" in sys.modules and os.environ.get("KIVY_TEXT") != "pil":
        raise RuntimeError("kiosk.ui.text.before_kivy() must run before Kivy is imported")
    os.environ["KIVY_TEXT"] = "pil"


def install() -> Fonts:
    """Noto Sans as Kivy's default font and the fallback chain on every label. Missing
    fonts or a Pillow without raqm are logged (the kiosk still starts: Latin still reads)."""
    global FONTS
    if FONTS is not None:
        return FONTS
    from PIL import features

    if not features.check("raqm"):
        log.error("Pillow has no libraqm: Devanagari and Gujarati are drawn unshaped")
    faces: dict[str, Face] = {}
    missing: list[FontsMissing] = []
    for role in FAMILIES:  # every family found is used, whichever is missing
        try:
            faces[role] = find_face(role)
        except FontsMissing as exc:
            missing.append(exc)
    if missing:
        log.error("%s; Hindi and Gujarati names will show as boxes", missing[0])
    chain = [*faces.values(), kivy_symbols_face()]
    latin = faces.get("latin")
    if latin is not None:
        from kivy.config import Config

        # Kivy registers its default font from this list when kivy.core.text is imported.
        Config.set(
            "kivy",
            "default_font",
            repr(["NotoSans", latin.regular, latin.regular, latin.bold, latin.bold]),
        )
    FONTS = Fonts(chain)
    _patch_pil_label(FONTS)
    return FONTS


def _patch_pil_label(fonts: Fonts) -> None:
    """Measure and draw every label (and markup label: it subclasses the provider) by runs."""
    import kivy.core.text as core_text

    provider = core_text.Label
    if provider is None or provider.__name__ != "LabelPIL":
        raise RuntimeError(
            f"Kivy's text provider is {getattr(provider, '__name__', provider)}, not LabelPIL: "
            "kiosk.ui.text.before_kivy() must run before Kivy is imported"
        )

    def _size(self: Any) -> int:
        return text_px(self.options["font_size"])  # the floor of kiosk/ui/scale.py

    def get_extents(self: Any, text: str) -> tuple[int, int]:
        size = _size(self)
        if size < 1:
            return 0, 0
        return fonts.extents(text, self.options["font_name_r"], bool(self.options["bold"]), size)

    def _render_text(self: Any, text: str, x: float, y: float) -> None:
        size = _size(self)
        if size < 1:
            return
        primary = self.options["font_name_r"]
        runs = fonts.runs(text, primary, bool(self.options["bold"]))
        ascent, _descent = fonts.metrics(runs, primary, size)
        colour = tuple(int(c * 255) for c in self.options["color"])
        for run, path in runs:
            font = fonts.font(path, size)
            # Each run's baseline on the line's: fonts differ in ascent.
            top = y + ascent - font.getmetrics()[0]
            self._pil_draw.text((x, top), run, font=font, fill=colour)
            x += fonts.length(run, path, size)

    provider.get_extents = get_extents
    provider._render_text = _render_text
