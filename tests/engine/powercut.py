"""Power cuts on the journal: a writer journals numbered events (each after a poll's raw
inputs, written together and not synced) on lazyfs.py and is cut at a random moment (killed,
then the filesystem unmounted, which drops every unsynced byte), again and again. After every
cut the next writer must find each event it was told was saved, in order, and nothing else
but the one event in flight at most. Used by tests/engine/test_journal_powercut.py and
bench/bench_powercut.py.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

WRITER = r"""
import sys
from kiosk.engine.journal import EVENT, Journal, JournalError
path, board = sys.argv[1], int(sys.argv[2])
try:
    j = Journal(path)
except JournalError as exc:
    print("refused", str(exc).replace("\n", " "), flush=True)
    sys.exit(2)
row = j.unfinished("carrom")
mid = row.id if row else j.begin_match("carrom", {"event": "match"}, 0.0)
got = [e["n"] for e in j.confirmed(mid)]
ok = got == list(range(len(got)))
print("start", len(got), "ok" if ok else "bad:" + repr(got[-5:]), flush=True)
n = len(got)
while True:
    # A poll's raw inputs (beam hits) first, written together and not synced, as the tables
    # do: a cut may take them, never an event acknowledged after them.
    for pocket in (1, 2, 3):
        j.append(mid, float(n), 0.0, "beam", "beam_hit", {"pocket": pocket}, sync=False)
    j.write()
    j.append(mid, float(n), 0.0, "umpire", EVENT, {"n": n, "pad": "x" * (n % 50)})
    print("ack", n, flush=True)
    n += 1
    if n % board == 0:
        j.checkpoint()  # a board's end
"""


def fuse_usable() -> str | None:
    """None if a FUSE filesystem can be mounted here, else why not."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse"
    if shutil.which("fusermount3") is None and shutil.which("fusermount") is None:
        return "no fusermount3"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"mfusepy: {exc}"
    return None


@contextlib.contextmanager
def mounted(backing: Path, mount: Path):  # type: ignore[no-untyped-def]
    mount.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "lazyfs.py"), str(backing), str(mount)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while not os.path.ismount(mount):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"lazyfs did not mount: {proc.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.02)
        yield proc
    finally:
        whole = unmount(mount)
        try:  # a lazy unmount leaves lazyfs serving the files still open: it never exits
            proc.wait(timeout=20 if whole else 1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def held_here(mount: Path) -> list[str]:
    """The files under `mount` this process holds open (SQLite may keep a descriptor of a
    closed connection's file while another connection to it was open)."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(f"{mount}/"):
                held.append(target)
    return held


def unmount(mount: Path) -> bool:
    """Unmounted; False if only lazily (a file under it still open: by this process, at once,
    as waiting would not close it; by another, after 4 s of trying)."""
    tool = shutil.which("fusermount3") or "fusermount"
    for _ in range(200):
        if not os.path.ismount(mount):
            return True
        if subprocess.run([tool, "-u", str(mount)], capture_output=True).returncode == 0:
            return True
        if held_here(mount):
            break
        time.sleep(0.02)
    subprocess.run([tool, "-uz", str(mount)], capture_output=True)
    return False


@dataclass
class Figures:
    cuts: int = 0
    acked: int = 0
    lost: int = 0
    in_flight_kept: int = 0
    refused: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    restart_s: list[float] = field(default_factory=list)


def run(folder: Path, cuts: int, seed: int, max_wait: float = 0.25, board: int = 7) -> Figures:
    """`cuts` power cuts at random moments (0 to `max_wait` s after the writer is ready)."""
    rng = random.Random(seed)
    backing, mount = folder / "backing", folder / "mnt"
    backing.mkdir(parents=True, exist_ok=True)
    figures = Figures()
    last_acked = -1
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for cut in range(cuts + 1):
        with mounted(backing, mount):
            started = time.monotonic()
            writer = subprocess.Popen(
                [sys.executable, "-c", WRITER, str(mount / "journal.db"), str(board)],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=ROOT,
            )
            assert writer.stdout is not None
            first = writer.stdout.readline().split()
            if not first or first[0] != "start":
                figures.refused.append(" ".join(first) or f"writer died ({writer.wait()})")
                writer.kill()
                writer.wait()
                break
            figures.restart_s.append(time.monotonic() - started)
            found = int(first[1])
            if first[2] != "ok":
                figures.wrong.append(f"cut {cut}: events out of order: {first[2]}")
            if found < last_acked + 1:
                figures.lost += last_acked + 1 - found
                figures.wrong.append(f"cut {cut}: saw {found}, {last_acked + 1} were acknowledged")
            elif found > last_acked + 2:
                figures.wrong.append(f"cut {cut}: {found} events, only {last_acked + 1} written")
            elif found == last_acked + 2:
                figures.in_flight_kept += 1
            last_acked = found - 1
            if cut == cuts:
                writer.kill()
                writer.wait()
                break
            # Cut at a random moment: the writer is mid-append most of the time.
            time.sleep(rng.uniform(0.0, max_wait))
            writer.kill()
            out, _ = writer.communicate()
            # An ack counts once its whole line came: the cut may fall in the middle of one.
            whole = out.split("\n")[:-1]
            acks = [int(line.split()[1]) for line in whole if line.startswith("ack ")]
            if acks:
                figures.acked += acks[-1] - last_acked
                last_acked = acks[-1]
            figures.cuts += 1
    return figures
