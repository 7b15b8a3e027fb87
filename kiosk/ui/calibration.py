"""Camera calibration: the umpire taps the four pockets, 1 to 4, on the live image.

Pocket numbers follow the contract (1 bottom-left, 2 top-left, 3 top-right,
4 bottom-right, seen from above with the first breaker's baseline at the bottom).
The frames come from `Services.grab_frame` (the capture layer does the camera
work); this screen only converts a tap on the picture into the image's pixel
coordinates and keeps the four points in the settings (camera.calibration).

Suggest puts the automatic calibration's pockets on the picture for the umpire to
confirm (Save) or replace (Clear, then tap). Every calibration is checked before
it is kept: the four pockets must make the board's square (vision.calibration
check_square), or the screen says why and keeps nothing. Empty board hands the
picture of the empty board to `keep_empty` (the camera: from then on the detector
judges the pieces against it, and it is kept beside the journal).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Ellipse, InstructionGroup
from kivy.graphics.texture import Texture
from kivy.properties import (
    AliasProperty,
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

from kiosk.config import ConfigError, Settings, with_values
from kiosk.ui.i18n import Said, tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.words import N_

POCKET_NAMES = (N_("bottom-left"), N_("top-left"), N_("top-right"), N_("bottom-right"))


class LiveImage(Image):
    """The camera picture, drawn with room around it; `image_point` maps a window point to
    image pixels, beyond the picture's edge too (a board that runs off the picture has
    pockets there: the umpire taps where they would be)."""

    frame_size = ListProperty([0, 0])
    #: The room left around the picture, as a share of the widget on each side.
    margin = NumericProperty(0.1)
    _texture: Any = None

    def get_norm_image_size(self) -> list[float]:
        w, h = super().get_norm_image_size()
        k = 1.0 - 2.0 * self.margin
        return [w * k, h * k]

    norm_image_size = AliasProperty(
        get_norm_image_size,
        bind=("texture", "size", "image_ratio", "fit_mode", "margin"),
        cache=True,
    )

    def show_frame(self, frame: Any) -> None:
        """Draw an RGB uint8 array (rows top to bottom) as the widget's texture."""
        height, width = int(frame.shape[0]), int(frame.shape[1])
        texture = self._texture
        if texture is None or tuple(texture.size) != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
            texture.flip_vertical()
        texture.blit_buffer(frame.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self._texture = texture
        self.texture = texture
        self.frame_size = [width, height]
        self.canvas.ask_update()

    def image_point(self, x: float, y: float) -> tuple[float, float] | None:
        width, height = self.frame_size
        if not width or not height:
            return None
        shown_w, shown_h = self.norm_image_size
        left = self.center_x - shown_w / 2
        bottom = self.center_y - shown_h / 2
        u, v = (x - left) / shown_w, (y - bottom) / shown_h
        if not self.collide_point(x, y):
            return None
        return (u * width, (1 - v) * height)

    def window_point(self, px: float, py: float) -> tuple[float, float]:
        width, height = self.frame_size
        shown_w, shown_h = self.norm_image_size
        left = self.center_x - shown_w / 2
        bottom = self.center_y - shown_h / 2
        return (left + px / width * shown_w, bottom + (1 - py / height) * shown_h)


class CalibrationScreen(Screen):
    """Tap pockets 1-4 in order; Save keeps them, Clear starts again."""

    points = ListProperty([])
    message = StringProperty("")
    no_picture = BooleanProperty(False)

    def __init__(
        self,
        grab: Callable[[], Any],
        get: Callable[[], Settings],
        put: Callable[[Settings], None],
        keep_empty: Callable[[Any], None] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(**kw)
        self._grab, self._get, self._put = grab, get, put
        self._keep_empty = keep_empty
        self._marks = InstructionGroup()
        self._said = Said(self)
        self._frame: Any = None
        #: The picture of the empty board the umpire gave (RGB), if any.
        self.empty_board: Any = None

    def on_pre_enter(self, *_: object) -> None:
        self.points = []
        self.message = ""
        self.ids.live.canvas.after.add(self._marks)
        self.follow(0.0)

    def prompt(self) -> str:
        if len(self.points) >= 4:
            return tr._("All four pockets marked: Save, or Clear to start again")
        n = len(self.points)
        return tr._("Tap pocket {n} ({where}) on the picture", n=n + 1, where=tr._(POCKET_NAMES[n]))

    def follow(self, _now: float) -> None:
        """The app's tick: show the newest frame (a camera that gives none leaves the last)."""
        frame = self._grab()
        if frame is None:
            self.no_picture = not self.ids.live.frame_size[0]
            return
        self.no_picture = False
        self._frame = frame
        self.ids.live.show_frame(frame)
        self._draw_marks()

    def tap_picture(self, x: float, y: float) -> bool:
        point = self.ids.live.image_point(x, y)
        if point is None or len(self.points) >= 4:
            return False
        self.points = [*self.points, point]
        self._draw_marks()
        return True

    def clear(self) -> None:
        self.points = []
        self._draw_marks()

    def suggest(self) -> bool:
        """Put the automatic calibration's pockets on the picture, to be confirmed."""
        from vision.calibration import CalibrationError
        from vision.photo import auto_pockets, checked

        if self._frame is None:
            self._said.say(N_("No picture from the camera"))
            return False
        frame = self._frame[..., ::-1]  # RGB -> BGR
        try:
            found = checked(auto_pockets(frame), (frame.shape[1], frame.shape[0]))
        except CalibrationError as exc:
            self._said.say(N_("No board found ({error}): tap the four pockets"), error=exc)
            return False
        self.points = [list(p) for p in found.pockets]
        self._draw_marks()
        self._said.say(N_("Suggested: check the four marks, then Save (or Clear and tap)"))
        return True

    def keep_empty(self) -> bool:
        """Keep the picture of the empty board: the detector judges against it."""
        if self._frame is None:
            self._said.say(N_("No picture from the camera"))
            return False
        self.empty_board = self._frame.copy()
        if self._keep_empty is not None:
            self._keep_empty(self.empty_board)
        self._said.say(N_("Empty board kept"))
        return True

    def save(self) -> bool:
        if len(self.points) != 4:
            self._said.say(N_("Mark all four pockets first"))
            return False
        from vision.calibration import check_square, order_pockets

        width, height = self.ids.live.frame_size
        if width and height:
            problem = check_square(order_pockets(self.points), (width, height)).problem()
            if problem:
                self._said.say(
                    N_("Not saved: {problem}. Clear and tap the four pockets"), problem=problem
                )
                return False
        try:
            settings = with_values(
                self._get(), camera={"calibration": [[x, y] for x, y in self.points]}
            )
            self._put(settings)
        except ConfigError as exc:
            self._said.say(
                N_("Not saved: {problems}"),
                problems="; ".join(f"{p.key} {p.message}" for p in exc.problems),
            )
            return False
        except OSError as exc:
            self._said.say(
                N_("Not saved: cannot write the settings ({error})"), error=exc.strerror or exc
            )
            return False
        self._said.say(N_("Calibration saved"))
        return True

    def _draw_marks(self) -> None:
        self._marks.clear()
        live = self.ids.live
        if not live.frame_size[0]:
            return
        radius = max(6.0, live.height / 40)
        self._marks.add(Color(1, 0.3, 0.2, 1))
        for px, py in self.points:
            x, y = live.window_point(px, py)
            self._marks.add(Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius)))


load_kv(__file__)
