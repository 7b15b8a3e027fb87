"""The on-screen keyboard: names typed at the table in English, Hindi, Gujarati or Greek.

Kivy's own keyboards (VKeyboard's JSON layouts) are Latin only, and its docked keyboard
covered the field being typed on a 800x480 screen. This one has four layouts, switched by a
key named in its own script: English (QWERTY), Hindi and Gujarati (InScript, the Indian
standard: a consonant, then its vowel sign, in the order they are spoken; the virama key
joins consonants), and Greek (the standard Greek layout, with the tonos as a dead key:
΄ then ε gives έ). Shift gives each layout's second layer for one key.

`Layout` and `Typist` are Kivy-free: what each key types, and the text a field holds after
a key. `OnScreenKeyboard` is the widget: when a `NameField` (the setups' name fields) is
tapped, it docks at the bottom of the window and lifts the screen just enough for the field
to stand above it, so the name being typed stays in sight; Done (or a tap on a field of no
keyboard) puts it away and the screen back. The text reaches the field code point by code
point: the label provider shapes it (kiosk/ui/text.py), as every label.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.scale import MIN_TAP_PX
from kiosk.ui.text import FontsMissing, find_face
from kiosk.ui.widgets import BigButton


@dataclass(frozen=True, slots=True)
class Layout:
    """One layout: its name on the switch key, and its rows, plain and shifted (a key that
    types nothing on a layer is "")."""

    code: str
    label: str
    rows: tuple[tuple[str, ...], ...]
    shifted: tuple[tuple[str, ...], ...]


def _split(row: str) -> tuple[str, ...]:
    """Keys written with a space between them ("_" for a key that types nothing)."""
    return tuple("" if key == "_" else key for key in row.split(" "))


ENGLISH = Layout(
    "en",
    "EN",
    (_split("q w e r t y u i o p"), _split("a s d f g h j k l '"), _split("z x c v b n m - .")),
    (_split("Q W E R T Y U I O P"), _split("A S D F G H J K L '"), _split("Z X C V B N M - .")),
)
#: InScript for Devanagari, the keys of the QWERTY rows q-], a-' and z-/ (plain and shifted),
#: with the number row's ृ / ऋ at the end of the first row.
HINDI = Layout(
    "hi",
    "हि",
    (
        _split("ौ ै ा ी ू ब ह ग द ज ड ़ ृ"),
        _split("ो े ् ि ु प र क त च ट"),
        _split("ॆ ं म न व ल स , . य"),
    ),
    (
        _split("औ ऐ आ ई ऊ भ ङ घ ध झ ढ ञ ऋ"),
        _split("ओ ए अ इ उ फ ऱ ख थ छ ठ"),
        _split("ऎ ँ ण ऩ ऴ ळ श ष । ः"),
    ),
)
#: InScript for Gujarati: the same keys as Hindi's, in the Gujarati letters.
GUJARATI = Layout(
    "gu",
    "ગુ",
    (
        _split("ૌ ૈ ા ી ૂ બ હ ગ દ જ ડ ઼ ૃ"),
        _split("ો ે ્ િ ુ પ ર ક ત ચ ટ"),
        _split("ૅ ં મ ન વ લ સ , . ય"),
    ),
    (
        _split("ઔ ઐ આ ઈ ઊ ભ ઙ ઘ ધ ઝ ઢ ઞ ઋ"),
        _split("ઓ એ અ ઇ ઉ ફ _ ખ થ છ ઠ"),
        _split("ઍ ઁ ણ _ _ ળ શ ષ । ઃ"),
    ),
)
#: The Greek layout (ELOT): ; on Q, ς on W, the tonos ΄ as a dead key where QWERTY has ;.
GREEK = Layout(
    "el",
    "ΕΛ",
    (_split("; ς ε ρ τ υ θ ι ο π"), _split("α σ δ φ γ η ξ κ λ ΄"), _split("ζ χ ψ ω β ν μ , . -")),
    (_split(": Σ Ε Ρ Τ Υ Θ Ι Ο Π"), _split("Α Σ Δ Φ Γ Η Ξ Κ Λ ΄"), _split("Ζ Χ Ψ Ω Β Ν Μ , . -")),
)
#: The digits above every layout's letters: a fee's receipt, a serial port, a table number.
DIGITS = _split("1 2 3 4 5 6 7 8 9 0")


def _with_digits(layout: Layout) -> Layout:
    return Layout(layout.code, layout.label, (DIGITS, *layout.rows), (DIGITS, *layout.shifted))


ENGLISH, HINDI, GUJARATI, GREEK = (_with_digits(x) for x in (ENGLISH, HINDI, GUJARATI, GREEK))
LAYOUTS = {layout.code: layout for layout in (ENGLISH, HINDI, GUJARATI, GREEK)}
#: The dead key and what it makes of the vowel after it.
TONOS = "΄"
ACCENTED = dict(zip("αεηιουωΑΕΗΙΟΥΩ", "άέήίόύώΆΈΉΊΌΎΏ", strict=True))


@dataclass
class Typist:
    """What the keys do to a field's text (Kivy-free): the layout, a one-key shift, and
    the Greek tonos waiting for its vowel."""

    layout: Layout = ENGLISH
    shift: bool = False
    accent: bool = False

    def layer(self) -> tuple[tuple[str, ...], ...]:
        return self.layout.shifted if self.shift else self.layout.rows

    def type(self, key: str) -> str:
        """The text a key adds (the tonos adds nothing until its vowel comes)."""
        self.shift = False
        if key == TONOS and not self.accent:
            self.accent = True
            return ""
        if self.accent:
            self.accent = False
            if key in ACCENTED:
                return ACCENTED[key]
            return TONOS + ("" if key == TONOS else key)
        return key

    def switch(self, code: str) -> None:
        self.layout = LAYOUTS[code]
        self.shift = self.accent = False


class KeyButton(BigButton):
    """One key of the on-screen keyboard: `typed` is what it types, its text what it shows."""

    typed = StringProperty("")


#: Drawn before a vowel sign, a virama or a nukta alone on its key, as the scripts' own
#: charts show them: the shaper has a base to put the mark on, and one font draws both.
DOTTED_CIRCLE = "\u25cc"


def script_face(code: str) -> str | None:
    """The Noto font of an Indian layout's script: the keys' own font, so that a vowel sign
    and its dotted circle are drawn by one font (the fallback chain picks a run's font by
    its first character, and Noto Sans has the circle but not the sign)."""
    role = {"hi": "devanagari", "gu": "gujarati"}.get(code)
    if role is None:
        return None
    try:
        return find_face(role).regular
    except FontsMissing:
        return None


def key_face(key: str) -> str:
    """What a key shows: a combining mark on a dotted circle, any other key as it types."""
    if key and unicodedata.category(key[0]) in ("Mn", "Mc"):
        return DOTTED_CIRCLE + key
    return key


class NameField(TextInput):
    """A text field typed on the on-screen keyboard (a name, a team's name): tapping it
    brings the keyboard up under it."""

    def on_focus(self, _field: Any, focused: bool) -> None:
        keyboard = shared_keyboard()
        if focused:
            keyboard.attach(self)
        else:
            # The focus may go to the next field at once: away only if no field took it.
            Clock.schedule_once(lambda _dt: keyboard.release(self), 0)


class OnScreenKeyboard(BoxLayout):
    """The keyboard, docked at the bottom of the window while a NameField is typed in."""

    #: The layout's code ("en", "hi", "gu", "el") and the keys shown now, row by row.
    code = StringProperty("en")
    rows = ListProperty([])
    shift = BooleanProperty(False)
    accent = BooleanProperty(False)
    #: How far the screen was lifted for the field to stand above the keyboard (pixels).
    lifted = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        self.typist = Typist()
        self.target: TextInput | None = None
        super().__init__(**kw)
        self._refresh()
        tr.on_switch(self._build)  # held weakly: a method of the keyboard

    def on_rows(self, *_: object) -> None:
        self._build()

    def _build(self) -> None:
        """A row of keys for each row of the layout, then the control row."""
        self.clear_widgets()
        font = self.key_font()
        face = script_face(self.typist.layout.code)
        for row in self.rows:
            line = BoxLayout(spacing=self.spacing)
            for key in row:
                button = KeyButton(text=key_face(key), typed=key, font_size=font, disabled=not key)
                if face is not None:
                    button.font_name = face
                button.bind(on_release=lambda b: self.press(b.typed))
                line.add_widget(button)
            self.add_widget(line)
        control = BoxLayout(spacing=self.spacing)
        shift = KeyButton(text=tr._("Shift"), font_size=font * 0.8, size_hint_x=1.3)
        shift.tint = (0.16, 0.55, 0.33, 1) if self.typist.shift else KeyButton.tint.defaultvalue
        shift.bind(on_release=lambda _b: self.toggle_shift())
        control.add_widget(shift)
        for layout in LAYOUTS.values():
            chip = KeyButton(text=layout.label, font_size=font * 0.8)
            if layout.code == self.typist.layout.code:
                chip.tint = (0.2, 0.35, 0.6, 1)
            chip.bind(on_release=lambda _b, code=layout.code: self.choose(code))
            control.add_widget(chip)
        space = KeyButton(text=tr._("Space"), font_size=font * 0.8, size_hint_x=2.2)
        space.bind(on_release=lambda _b: self.space())
        control.add_widget(space)
        back = KeyButton(text=tr._("Delete"), font_size=font * 0.8, size_hint_x=1.4)
        back.bind(on_release=lambda _b: self.backspace())
        control.add_widget(back)
        done = KeyButton(text=tr._("Done"), font_size=font * 0.8, size_hint_x=1.3)
        done.tint = (0.16, 0.55, 0.33, 1)
        done.bind(on_release=lambda _b: self.close())
        control.add_widget(done)
        self.add_widget(control)

    def key_font(self) -> float:
        app = App.get_running_app()
        return float(getattr(app, "unit", Window.height / 60)) * 3

    # -- showing ---------------------------------------------------------------------
    @property
    def shown(self) -> bool:
        return self.parent is not None

    def attach(self, field: TextInput) -> None:
        """Type into `field`: the keyboard docks (in the console's language the first time)
        and the screen lifts for the field to stay in sight."""
        if self.target is None and not self.shown:
            language = _console_language()
            if language in LAYOUTS:
                self.choose(language)
        self.target = field
        if not self.shown:
            Window.add_widget(self)
            Window.bind(on_key_down=self._hardware_key)
        self.height = self.wanted_height()
        self.width = Window.width
        self.pos = (0, 0)
        Clock.schedule_once(lambda _dt: self._lift(), 0)

    def release(self, field: TextInput) -> None:
        """`field` lost the focus: away with the keyboard, unless another field took it."""
        focused = bool(field.focus)
        if not focused and self.target is field:
            self.close()

    def close(self) -> None:
        target = self.target
        self.step_aside()
        if target is not None and target.focus:
            target.focus = False

    def step_aside(self) -> None:
        """Away with the keyboard and the screen back down; the field keeps its focus."""
        self.target = None
        if self.shown:
            Window.unbind(on_key_down=self._hardware_key)
            Window.remove_widget(self)
        self._lift()

    def _hardware_key(self, *_: object) -> bool:
        """A key of a real keyboard (one plugged into the kiosk): the field takes it, and the
        on-screen one steps aside, leaving the screen whole to type on."""
        self.step_aside()
        return False

    def wanted_height(self) -> float:
        """The rows of keys and the control row, each a tap target high at least (48 px at
        800x480); the rows a little lower than before the digits came, so the field being
        typed still stands above them at 800x480."""
        app = App.get_running_app()
        unit = float(getattr(app, "unit", Window.height / 60))
        row = max(unit * 5.6, float(MIN_TAP_PX))
        n = len(self.rows) + 1
        return row * n + unit * 0.4 * (n + 1)

    def _lift(self) -> None:
        """The app's root moved up just enough for the field to stand above the keyboard
        (never more than the field needs, so the screen's top goes out of sight least)."""
        root = getattr(App.get_running_app(), "root", None)
        if root is None:
            return
        field = self.target
        lift = 0.0
        if field is not None and self.shown:
            _x, y = field.to_window(field.x, field.y)
            margin = MIN_TAP_PX / 4
            lift = max(0.0, self.top + margin - (y - float(root.y)))
        root.y = lift
        self.lifted = lift

    # -- keys --------------------------------------------------------------------------
    def _refresh(self) -> None:
        self.rows = [list(row) for row in self.typist.layer()]
        self.code = self.typist.layout.code
        self.shift = self.typist.shift
        self.accent = self.typist.accent

    def press(self, key: str) -> None:
        """A letter's key: its text goes into the field at the cursor."""
        text = self.typist.type(key)
        if text and self.target is not None:
            self.target.insert_text(text)
        self._refresh()

    def backspace(self) -> None:
        if self.typist.accent:
            self.typist.accent = False
        elif self.target is not None:
            self.target.do_backspace()
        self._refresh()

    def space(self) -> None:
        self.press(" ")

    def toggle_shift(self) -> None:
        self.typist.shift = not self.typist.shift
        self._refresh()

    def choose(self, code: str) -> None:
        self.typist.switch(code)
        self._refresh()

    def on_touch_down(self, touch: Any) -> bool:
        # A tap on a key must not take the focus from the field being typed (Kivy drops the
        # focus of every field at a touch elsewhere, unless the touch is ignored for it).
        if self.collide_point(*touch.pos):
            FocusBehavior.ignored_touch.append(touch)
            super().on_touch_down(touch)
            return True
        return bool(super().on_touch_down(touch))


def shared_keyboard() -> OnScreenKeyboard:
    """The app's one keyboard (made at its first use; a test's next app makes its own)."""
    app = App.get_running_app()
    keyboard = getattr(app, "on_screen_keyboard", None)
    if keyboard is None:
        keyboard = OnScreenKeyboard()
        if app is not None:
            app.on_screen_keyboard = keyboard
    return keyboard


def _console_language() -> str:
    return str(getattr(tr, "language", "en"))


load_kv(__file__)
