"""Real faulty media for the journal's fault tests (run as root): a small tmpfs, mounted
read-write or read-only, and a way to fill one to its last byte."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def tmpfs(where: Path, *options: str, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of `size` mounted at `where` (made here) with mount `options`, e.g. "ro"."""
    where.mkdir()
    opts = ",".join((f"size={size}", *options))
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    """Fill the medium to the last byte; returns the filler to delete."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), open(filler, "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
    return filler
