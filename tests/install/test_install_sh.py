"""systemd/install.sh end to end in a throwaway root: install, upgrade, uninstall, purge.

DESTDIR puts every file under a temporary folder, and the system tools the script calls
(apt-get, getent, groupadd, useradd, usermod, userdel, chown, systemctl) are replaced on PATH by
tests/install/fake_system.py, which records them and keeps the root's own /etc/passwd and
/etc/group; so the script cannot touch this machine. python3 -m venv, pip, tar, install and
the kiosk's own `tableside config init/check` are the real ones. The session's wheel is
installed (`--wheel`; building from the checkout is what conftest.py does), without the
kiosk's dependencies (PIP_NO_DEPS: the settings commands need none; test_wheel.py has them).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from kiosk.config import default_text

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "install.sh"
FAKE = Path(__file__).with_name("fake_system.py")
TOOLS = ("apt-get", "getent", "groupadd", "useradd", "usermod", "userdel", "chown", "systemctl")
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=0ab1-02 rootfstype=ext4 rootwait\n"


def make_root(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "boot" / "firmware").mkdir(parents=True)
    # A Pi as shipped: some device groups exist, one with a member already.
    (root / "etc" / "group").write_text("video:x:44:pi\ndialout:x:20:\n")
    (root / "etc" / "passwd").write_text("pi:x:1000:1000::/home/pi:/bin/bash\n")
    (root / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE)
    fakebin = tmp_path / "bin"
    fakebin.mkdir()
    for tool in TOOLS:
        script = fakebin / tool
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" {tool} "$@"\n')
        script.chmod(0o755)
    (fakebin / "python3").symlink_to(sys.executable)
    env = {
        "PATH": f"{fakebin}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
        "DESTDIR": str(root),
        "HOME": str(tmp_path),
        "PIP_NO_DEPS": "1",
    }
    for name in ("PIP_FIND_LINKS", "PIP_CERT", "LANG", "TMPDIR"):
        if name in os.environ:
            env[name] = os.environ[name]
    return root, env


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=600
    )


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def group_members(root: Path) -> dict[str, list[str]]:
    out = {}
    for line in (root / "etc" / "group").read_text().splitlines():
        name, _, _, members = line.split(":")
        out[name] = [m for m in members.split(",") if m]
    return out


def calls(root: Path) -> list[str]:
    return (root / "calls.log").read_text().splitlines()


def test_install_sh_installs_then_upgrades_keeping_the_journal_and_settings(
    tmp_path: Path, wheel: Path
) -> None:
    root, env = make_root(tmp_path)
    done = run(env, "--wheel", str(wheel))
    assert done.returncode == 0, done.stdout + done.stderr
    prefix, data = root / "opt/tableside", root / "var/lib/tableside"
    unit = root / "etc/systemd/system/tableside.service"

    # The user, in the device groups; the missing groups made, the existing ones kept.
    passwd = (root / "etc" / "passwd").read_text()
    assert "tableside:x:" in passwd and ":/var/lib/tableside:/usr/sbin/nologin" in passwd
    members = group_members(root)
    for group in ("gpio", "video", "render", "input", "dialout"):
        assert "tableside" in members[group], group
    assert members["video"] == ["pi", "tableside"]
    assert [c for c in calls(root) if c.startswith("groupadd")] == [
        "groupadd --system gpio",
        "groupadd --system render",
        "groupadd --system input",
    ]
    # The program and its virtual environment; nothing of the checkout's own venv or git.
    venv = prefix / ".venv"
    assert (venv / "bin" / "python").exists()
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert (prefix / "docs" / "configuration.md").exists()
    assert not (prefix / ".git").exists()
    assert not list(prefix.glob("*.egg-info")) and not (prefix / "build").exists()
    check = subprocess.run(
        [str(venv / "bin" / "tableside"), "config", "check"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    assert str(venv) in check.stdout  # the installed copy of the defaults
    # The data folder and the settings: modes, owner, the commented defaults.
    assert mode(data) == 0o750
    settings = data / "settings.toml"
    assert mode(settings) == 0o640
    assert settings.read_text() == default_text()
    assert f"chown tableside:tableside {data}" in calls(root)
    assert f"chown tableside:tableside {settings}" in calls(root)
    # The unit, installed and enabled.
    assert unit.read_text() == (ROOT / "systemd" / "tableside.service").read_text()
    assert mode(unit) == 0o644
    wants = root / "etc/systemd/system/multi-user.target.wants/tableside.service"
    assert os.readlink(wants) == "/etc/systemd/system/tableside.service"
    assert calls(root)[-3:] == [
        "systemctl daemon-reload",
        "systemctl enable tableside.service",
        "systemctl try-restart tableside.service",
    ]
    assert any("fonts-noto-core" in c for c in calls(root) if c.startswith("apt-get install"))
    cmdline = (root / "boot/firmware/cmdline.txt").read_text()
    assert cmdline == CMDLINE.rstrip("\n") + " consoleblank=0\n"

    # The upgrade: the settings screen's changes and the journal stay; the program is new.
    settings.write_text("[timers]\nstroke_s = 10\n")
    (data / "journal.db").write_bytes(b"SQLite format 3\x00 a match")
    (prefix / "kiosk" / "gone_module.py").write_text("# removed from the project\n")
    venv_inode = (venv / "pyvenv.cfg").stat().st_ino
    (installed_init,) = venv.glob("lib/python*/site-packages/kiosk/__init__.py")
    installed_init.write_text("broken = True\n")
    done = run(env, "--wheel", str(wheel))
    assert done.returncode == 0, done.stdout + done.stderr
    assert settings.read_text() == "[timers]\nstroke_s = 10\n"
    assert (data / "journal.db").read_bytes() == b"SQLite format 3\x00 a match"
    assert not (prefix / "kiosk" / "gone_module.py").exists()
    assert (venv / "pyvenv.cfg").stat().st_ino == venv_inode  # the venv is kept
    assert "__version__" in installed_init.read_text()  # the program is replaced
    assert sum(c.startswith("useradd") for c in calls(root)) == 1
    assert (root / "boot/firmware/cmdline.txt").read_text().count("consoleblank=0") == 1

    # Uninstall keeps the data and the user; --purge removes them.
    done = run(env, "--uninstall")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not prefix.exists() and not unit.exists() and not wants.is_symlink()
    assert settings.read_text() == "[timers]\nstroke_s = 10\n"
    assert (data / "journal.db").exists()
    assert "tableside:" in (root / "etc" / "passwd").read_text()
    assert "systemctl disable --now tableside.service" in calls(root)
    done = run(env, "--uninstall", "--purge")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not data.exists()
    assert "tableside:" not in (root / "etc" / "passwd").read_text()
    assert "pi:" in (root / "etc" / "passwd").read_text()


def test_install_sh_refuses_unknown_options_and_a_lone_purge(tmp_path: Path) -> None:
    root, env = make_root(tmp_path)
    done = run(env, "--frobnicate")
    assert done.returncode == 2 and "--frobnicate" in done.stderr
    done = run(env, "--purge")
    assert done.returncode == 2 and "--uninstall" in done.stderr
    assert not (root / "calls.log").exists()  # nothing was run


def test_install_sh_needs_root_without_destdir(tmp_path: Path) -> None:
    if os.getuid() == 0:
        # As root the refusal cannot be shown without running the real install.
        done = subprocess.run(["sh", "-n", str(SCRIPT)], capture_output=True, timeout=30)
        assert done.returncode == 0
        return
    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "run as root" in done.stderr
