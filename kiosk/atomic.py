"""Replacing a file whole: the one way the kiosk writes a file that must survive a power cut.

`write_atomic(path, data)` writes a temporary file beside `path` (created with `mode`, whatever
the umask), syncs it, renames it over `path` and syncs the folder, so after a cut the name
holds either the old content or the new, never a part of either and never nothing.
`replace_synced(temporary, path)` does the last three steps for a file built another way
(SQLite's backup API). Both import only the standard library.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE = 0o600
PRIVATE_DIR = 0o700


def fsync_path(path: str | Path) -> None:
    """Sync a file's (or a folder's) content and its metadata to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_synced(temporary: str | Path, target: str | Path) -> None:
    """`temporary` (complete) synced, renamed over `target`, and the folder synced so the new
    name is on the disk too."""
    fsync_path(temporary)
    os.replace(temporary, target)
    fsync_path(Path(target).parent)


def temporary_name(target: Path) -> Path:
    """The name a new `target` is built under: hidden, beside it, ending in `.part`."""
    return target.with_name(f".{target.name}.part")


def write_atomic(
    path: str | Path,
    data: bytes | str,
    *,
    mode: int | None = PRIVATE,
    keep_mode: bool = False,
    sync_folder: bool = True,
) -> None:
    """Replace `path` whole with `data` (str is written as UTF-8). The new file gets `mode`
    (0600 by default), or with `keep_mode` the mode the old file had (a new one: `mode`).
    `sync_folder=False` leaves the rename to the next sync (when an older file is as good)."""
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    wanted = PRIVATE if mode is None else mode
    if keep_mode:
        with contextlib.suppress(FileNotFoundError):
            wanted = stat.S_IMODE(target.stat().st_mode)
    temporary = temporary_name(target)
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, wanted)
    try:
        try:
            os.fchmod(fd, wanted)  # the umask took bits away at creation
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    if sync_folder:
        fsync_path(target.parent)


def private_dir(path: str | Path, mode: int = PRIVATE_DIR) -> Path:
    """Make the folder `path` (and its parents) if missing; a folder made here gets `mode`
    whatever the umask. An existing folder keeps its mode (an installer may have set 0750)."""
    folder = Path(path)
    missing: list[Path] = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    folder.mkdir(parents=True, exist_ok=True)
    for made in missing:
        with contextlib.suppress(OSError):
            os.chmod(made, mode)
    return folder
