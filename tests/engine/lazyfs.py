"""A FUSE filesystem for power-cut tests: it keeps whatever was not synced in memory only.

Every file's content lives in this process; the backing folder holds each file as of its last
fsync. A power cut is: kill the writer, unmount (this process exits and the unsynced bytes are
gone, with the kernel's caches), mount again on the same backing folder. Names (create, unlink,
rename) reach the backing folder at once, as a journaling filesystem's metadata would.

Writing a command to `/.lazyfs` turns faults on and off for every other file:
"ro" (writes fail with EROFS), "eio" (writes and syncs fail with EIO), "full" (writes that
grow a file fail with ENOSPC), "ok".

Run: python lazyfs.py BACKING MOUNTPOINT  (foreground, single-threaded; unmount to stop).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from typing import Any

import mfusepy as fuse

CONTROL = "/.lazyfs"


class LazyFS(fuse.Operations):  # type: ignore[misc]
    use_ns = True

    def __init__(self, backing: str) -> None:
        self.backing = backing
        self.data: dict[str, bytearray] = {}
        self.mode = "ok"
        self.handles = 0

    # -- helpers -------------------------------------------------------------------

    def _real(self, path: str) -> str:
        return os.path.join(self.backing, path.lstrip("/"))

    def _load(self, path: str) -> bytearray:
        if path not in self.data:
            try:
                with open(self._real(path), "rb") as f:
                    self.data[path] = bytearray(f.read())
            except FileNotFoundError:
                raise fuse.FuseOSError(errno.ENOENT) from None
        return self.data[path]

    def _refuse_write(self, grows: bool) -> None:
        if self.mode == "ro":
            raise fuse.FuseOSError(errno.EROFS)
        if self.mode == "eio":
            raise fuse.FuseOSError(errno.EIO)
        if self.mode == "full" and grows:
            raise fuse.FuseOSError(errno.ENOSPC)

    # -- names ---------------------------------------------------------------------

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        now = time.time_ns()
        if path == "/":
            return {
                "st_mode": stat.S_IFDIR | 0o755,
                "st_nlink": 2,
                "st_ctime": now,
                "st_mtime": now,
                "st_atime": now,
            }
        if path == CONTROL:
            return {"st_mode": stat.S_IFREG | 0o600, "st_nlink": 1, "st_size": 0}
        try:
            st = os.lstat(self._real(path))
        except FileNotFoundError:
            raise fuse.FuseOSError(errno.ENOENT) from None
        size = len(self.data[path]) if path in self.data else st.st_size
        return {
            "st_mode": st.st_mode,
            "st_nlink": 1,
            "st_size": size,
            "st_uid": st.st_uid,
            "st_gid": st.st_gid,
            "st_mtime": st.st_mtime_ns,
            "st_ctime": st.st_ctime_ns,
            "st_atime": st.st_atime_ns,
        }

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self.backing)]

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        self._refuse_write(False)
        fd = os.open(self._real(path), os.O_WRONLY | os.O_CREAT, mode)
        os.close(fd)
        self.data.setdefault(path, bytearray())
        self.handles += 1
        return self.handles

    def open(self, path: str, flags: int) -> int:
        if path != CONTROL:
            self._load(path)
        self.handles += 1
        return self.handles

    def unlink(self, path: str) -> int:
        self._refuse_write(False)
        os.unlink(self._real(path))
        self.data.pop(path, None)
        return 0

    def rename(self, old: str, new: str) -> int:
        self._refuse_write(False)
        self._load(old)
        os.replace(self._real(old), self._real(new))
        self.data[new] = self.data.pop(old)
        return 0

    def chmod(self, path: str, mode: int) -> int:
        os.chmod(self._real(path), mode)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        return 0

    def utimens(self, path: str, times: Any = None) -> int:
        return 0

    def access(self, path: str, amode: int) -> int:
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        return {
            "f_bsize": 4096,
            "f_frsize": 4096,
            "f_blocks": 1 << 20,
            "f_bfree": 1 << 19,
            "f_bavail": 1 << 19,
            "f_files": 1 << 16,
            "f_ffree": 1 << 15,
            "f_namemax": 255,
        }

    # -- contents ------------------------------------------------------------------

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        if path == CONTROL:
            return self.mode.encode()[offset : offset + size]
        return bytes(self._load(path)[offset : offset + size])

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        if path == CONTROL:
            self.mode = data.decode().strip() or "ok"
            return len(data)
        content = self._load(path)
        self._refuse_write(offset + len(data) > len(content))
        if offset > len(content):
            content.extend(b"\0" * (offset - len(content)))
        content[offset : offset + len(data)] = data
        return len(data)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        if path == CONTROL:
            return 0
        content = self._load(path)
        self._refuse_write(length > len(content))
        if length < len(content):
            del content[length:]
        else:
            content.extend(b"\0" * (length - len(content)))
        return 0

    def fallocate(self, path: str, mode: int, offset: int, size: int, fh: int) -> int:
        raise fuse.FuseOSError(errno.EOPNOTSUPP)

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        if path == CONTROL:
            return 0
        if self.mode == "eio":
            raise fuse.FuseOSError(errno.EIO)
        content = self._load(path)
        with open(self._real(path), "r+b") as f:  # the disk now holds exactly this
            f.write(content)
            f.truncate(len(content))
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0

    def release(self, path: str, fh: int) -> int:
        return 0

    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        return 0

    def opendir(self, path: str) -> int:
        return 0

    def releasedir(self, path: str, fh: int) -> int:
        return 0


def main() -> None:
    backing, mount = sys.argv[1], sys.argv[2]
    fuse.FUSE(LazyFS(backing), mount, foreground=True, nothreads=True)


if __name__ == "__main__":
    main()
