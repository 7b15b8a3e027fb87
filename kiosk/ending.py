"""How the kiosk's process ends: after every part and the journal are closed, never by
finalizing the interpreter over a thread still running.

A thread still inside native code when Python finalizes (the camera's, in OpenCV's C++; a
driver's) is unwound by the interpreter's thread exit when it comes back, through C++ frames
that may not be unwound: the process aborts ("terminate called without an active exception",
status 134; systemd logs a crash). The parts close their threads first (kiosk/parts/camera.py
waits for its frame); a thread that did not come back is named in the log, and the process
then ends at once with its status, everything it wrote flushed.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import threading

log = logging.getLogger(__name__)


def threads_left() -> list[threading.Thread]:
    """The threads still running besides the main thread."""
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and t.is_alive()]


def end_process(code: int) -> int:
    """`code`, to return from `main` when every thread has ended; otherwise the process ends
    here with `code`, after the exit handlers, the log and the standard streams (not the
    interpreter's finalization, which would abort over the threads)."""
    left = threads_left()
    if not left:
        return code
    log.error(
        "stopping with %d thread(s) still running (%s): ending without the interpreter's"
        " finalization, which would abort inside their native code",
        len(left),
        ", ".join(t.name for t in left),
    )
    atexit._run_exitfuncs()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
