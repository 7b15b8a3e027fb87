"""`tableside doctor`: each check's OK and FAIL paths on real parts (MockFactory pins, the
synthetic camera and a video file, a display on a pseudo-terminal, folders on disk, fc-list)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.display_sim import SimulatedDisplay
from drivers.mockpins import ClockedMockFactory
from kiosk.cli import main as cli_main
from kiosk.commands import doctor
from kiosk.config import Settings, with_values


def answer(stdout: str, code: int = 0, stderr: str = "") -> doctor.Run:
    def run(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(list(argv), code, stdout, stderr)

    return run


def test_doctor_pin_factory_ok_with_mock_and_fails_with_a_hint() -> None:
    check, factory = doctor.check_pin_factory(Settings(), simulate=True)
    assert check.ok and factory is not None
    factory.close()
    broken = with_values(Settings(), pockets={"pin_factory": "pigpio"})
    check, factory = doctor.check_pin_factory(broken, simulate=False)
    assert not check.ok and factory is None
    assert "--simulate" in check.fix and "pin_factory" in check.fix
    assert check.line().startswith("FAIL GPIO pin factory: ")


def test_doctor_pins_free_and_a_pin_in_use() -> None:
    factory = ClockedMockFactory(pwm=True)
    try:
        check = doctor.check_pins(Settings(), factory)
        assert check.ok and check.detail == "GPIO 17, 27, 22, 23, 18"
        from gpiozero import DigitalOutputDevice

        holder = DigitalOutputDevice(22, pin_factory=factory)  # something holds pocket 3's pin
        check = doctor.check_pins(Settings(), factory)
        holder.close()
    finally:
        factory.close()
    assert not check.ok
    assert "GPIO 22 (pocket 3)" in check.detail and "systemctl stop" in check.fix
    assert not doctor.check_pins(Settings(), None).ok


def test_doctor_camera_frames_and_their_size(tmp_path: Path) -> None:
    check = doctor.check_camera(Settings(), simulate=True)
    assert check.ok and "640x480" in check.detail
    video = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for i in range(5):
        writer.write(np.full((240, 320, 3), i * 40, np.uint8))
    writer.release()
    settings = with_values(Settings(), camera={"source": f"file:{video}"})
    check = doctor.check_camera(settings, simulate=False)
    assert check.ok and check.detail.endswith("320x240"), check.detail


def test_doctor_camera_fails_without_frames(tmp_path: Path) -> None:
    not_video = tmp_path / "notes.txt"
    not_video.write_text("not a video")
    settings = with_values(Settings(), camera={"source": f"file:{not_video}"})
    check = doctor.check_camera(settings, simulate=False, wait_s=0.5)
    assert not check.ok and "[camera] source" in check.fix
    gone = with_values(Settings(), camera={"source": f"file:{tmp_path / 'gone.avi'}"})
    assert not doctor.check_camera(gone, simulate=False, wait_s=0.5).ok


def test_doctor_display_answers_and_a_silent_one_fails() -> None:
    with SimulatedDisplay() as display:
        check = doctor.check_display(display.port_path, 115200)
        assert check.ok, check.detail
    with SimulatedDisplay() as display:
        display.mute = True
        check = doctor.check_display(display.port_path, 115200, wait_s=1.0)
    assert not check.ok and "/dev/serial/by-id" in check.fix
    assert doctor.check_display("", 115200).ok  # none fitted


def test_doctor_journal_folder(tmp_path: Path) -> None:
    check = doctor.check_journal(tmp_path)
    assert check.ok and "GiB free" in check.detail
    assert not doctor.check_journal(tmp_path / "missing").ok
    (tmp_path / "file").write_text("")
    assert not doctor.check_journal(tmp_path / "file").ok
    full = doctor.check_journal(tmp_path, min_free=1 << 62)
    assert not full.ok and "free at least" in full.fix


def test_doctor_clock_from_timedatectl_else_adjtimex() -> None:
    assert doctor.check_clock(answer("yes\n")).ok
    check = doctor.check_clock(answer("no\n"))
    assert not check.ok and "timedatectl" in check.detail and "set-ntp" in check.fix
    # No timedatectl answer: the kernel's own state (whatever this machine's is).
    check = doctor.check_clock(answer("", 1, "System has not been booted with systemd"))
    state = doctor.adjtimex_state()
    assert state is not None and "adjtimex" in check.detail
    assert check.ok == (state != 5)


def test_doctor_fonts_with_fc_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = doctor.check_fonts()  # this machine's fonts (make setup installs fonts-noto-core)
    assert check.ok, check.detail
    # fontconfig told to look in an empty folder finds none of them.
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{tmp_path}</dir>'
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    check = doctor.check_fonts()
    assert not check.ok and "Noto Sans Gujarati" in check.detail
    assert check.fix == "sudo apt install fonts-noto-core"


def test_doctor_service_state() -> None:
    assert doctor.check_service(answer("active\n")).ok
    check = doctor.check_service(answer("failed\n", 3))
    assert not check.ok and check.detail == "tableside.service failed"
    assert "journalctl" in check.fix


def test_doctor_command_simulated_prints_one_line_per_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli_main(["doctor", "--simulate", "--data", str(tmp_path)])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 9
    assert all(line.startswith(("OK   ", "FAIL ")) for line in lines[:8])
    assert [line.split(":")[0][5:] for line in lines[:8]] == [
        "GPIO pin factory",
        "pins free",
        "camera",
        "player display",
        "journal folder",
        "clock synchronised",
        "fonts",
        "service",
    ]
    assert all(line.startswith("OK") for line in lines[:5])
    failed = sum(line.startswith("FAIL") for line in lines[:8])
    assert code == (0 if failed == 0 else 1)
    assert lines[-1] == ("doctor: all OK" if not failed else f"doctor: {failed} check(s) failed")
