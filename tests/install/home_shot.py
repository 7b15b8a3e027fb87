"""Run by test_screen_sizes.py under an Xvfb screen of a given size: the kiosk's window as
`tableside run` makes it fullscreen (kiosk/ui/window.py), the home screen drawn, its size
printed and a screenshot saved. Usage: home_shot.py OUTPUT.png"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

from kiosk.ending import end_process
from kiosk.startup import start_kiosk
from kiosk.ui.window import configure_kivy

configure_kivy(fullscreen=True)

from kivy.base import EventLoop, runTouchApp  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from kiosk.ui.app import TablesideApp  # noqa: E402


def pump(frames: int) -> None:
    for _ in range(frames):
        EventLoop.idle()
        Window.mainloop()
        time.sleep(0.01)


kiosk = start_kiosk(None, tempfile.mkdtemp(prefix="tableside-shot-"), simulate=True)
app = TablesideApp(kiosk.services, kiosk.runner)
app._run_prepare()
runTouchApp(embedded=True)
pump(20)
print(f"window {Window.size[0]}x{Window.size[1]}", flush=True)
print(f"home {app.root.current} {app.root.size[0]}x{app.root.size[1]}", flush=True)
# The X window itself (what the screen shows), as the X server has it; SDL's requests may
# reach the server a moment after the frame.
geometry = ""
for _ in range(50):
    found = subprocess.run(
        ["xdotool", "search", "--class", "python", "getwindowgeometry"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    geometry = found.stdout.strip()
    if geometry:
        break
    pump(2)
print(f"x11 {geometry!r}", flush=True)
made = Window.screenshot(name=sys.argv[1].replace(".png", "-tmp.png"))
print(f"shot {made}", flush=True)
app.dispatch("on_stop")
kiosk.close()
sys.exit(end_process(0))  # as `tableside run` ends: its threads first, never an abort
