"""Stand-ins for the system tools systemd/install.sh calls, for its test in a throwaway root.

Called as `fake_system.py TOOL ARGS...` by a small script named after each tool (apt-get,
getent, groupadd, useradd, usermod, userdel, chown, systemctl) in a folder put first on PATH.
Each records its arguments in $DESTDIR/calls.log; the user tools keep $DESTDIR/etc/passwd and
$DESTDIR/etc/group like the real ones, so a chown to a user that was never made fails as it
would on the Pi. `systemctl enable` makes the multi-user.target.wants link, as systemctl does.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(os.environ["DESTDIR"])
PASSWD = ROOT / "etc" / "passwd"
GROUP = ROOT / "etc" / "group"


def rows(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    return [line.split(":") for line in path.read_text().splitlines() if line]


def write(path: Path, table: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(":".join(row) + "\n" for row in table))


def find(path: Path, name: str) -> list[str] | None:
    return next((row for row in rows(path) if row[0] == name), None)


def add_group(name: str) -> None:
    table = rows(GROUP)
    gid = max([999, *(int(r[2]) for r in table)]) + 1
    write(GROUP, [*table, [name, "x", str(gid), ""]])


def main(tool: str, args: list[str]) -> int:
    with open(ROOT / "calls.log", "a") as log:
        log.write(" ".join([tool, *args]) + "\n")
    if tool == "getent":
        row = find(PASSWD if args[0] == "passwd" else GROUP, args[1])
        if row:
            print(":".join(row))
        return 0 if row else 2
    if tool == "groupadd":
        add_group(args[-1])
    elif tool == "useradd":
        name, home = args[-1], args[args.index("--home-dir") + 1]
        shell = args[args.index("--shell") + 1]
        if "--user-group" in args:
            add_group(name)
        gid = find(GROUP, name)[2]  # type: ignore[index]
        uid = str(800 + len(rows(PASSWD)))
        write(PASSWD, [*rows(PASSWD), [name, "x", uid, gid, "", home, shell]])
    elif tool == "userdel":
        write(PASSWD, [r for r in rows(PASSWD) if r[0] != args[-1]])
        write(GROUP, [r for r in rows(GROUP) if r[0] != args[-1]])
    elif tool == "usermod":
        groups, name = args[args.index("-G") + 1].split(","), args[-1]
        table = rows(GROUP)
        for row in table:
            members = [m for m in row[3].split(",") if m]
            if row[0] in groups and name not in members:
                row[3] = ",".join([*members, name])
        write(GROUP, table)
    elif tool == "chown":
        user, _, group = args[0].partition(":")
        if find(PASSWD, user) is None or find(GROUP, group) is None:
            print(f"chown: invalid user: '{args[0]}'", file=sys.stderr)
            return 1
    elif tool == "systemctl" and args[:1] == ["enable"]:
        wants = ROOT / "etc/systemd/system/multi-user.target.wants"
        wants.mkdir(parents=True, exist_ok=True)
        if not (wants / args[1]).is_symlink():
            (wants / args[1]).symlink_to(f"/etc/systemd/system/{args[1]}")
    elif tool == "systemctl" and args[:1] == ["disable"]:
        unit = next(a for a in args if a.endswith(".service"))
        (ROOT / "etc/systemd/system/multi-user.target.wants" / unit).unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
