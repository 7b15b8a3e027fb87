"""A Mosquitto broker started for the tests and the bench (and a small hall without a Pi).

`Mosquitto(folder, users=..., hall=...)` writes its configuration, password file and ACL into
`folder` and runs `mosquitto -c` on a free localhost port; `stop()`, `kill()` (SIGKILL, as a
power cut) and `start()` again on the same port.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from kiosk.hall.security import DIRECTOR, acl_text, broker_conf, write_password_file


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """(CA certificate, broker certificate, broker key) made with openssl for the tests and
    the bench: the broker's is valid for 127.0.0.1 for two days."""
    folder.mkdir(parents=True, exist_ok=True)

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True,
                       timeout=60)  # fmt: skip

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.crt", "-days", "2", "-subj", "/CN=Tableside test CA")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out",
            "broker.csr", "-subj", "/CN=127.0.0.1")  # fmt: skip
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1\n", encoding="utf-8")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "broker.crt", "-days", "2",
            "-extfile", "san.cnf")  # fmt: skip
    return folder / "ca.crt", folder / "broker.crt", folder / "broker.key"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    def __init__(
        self,
        folder: Path,
        *,
        users: Mapping[str, str] | None = None,
        hall: str = "hall",
        port: int | None = None,
        extra: str = "",
        directors: tuple[str, ...] = (DIRECTOR,),
        acl: str | None = None,
    ) -> None:
        if shutil.which("mosquitto") is None:
            raise RuntimeError("mosquitto is not installed (Debian package mosquitto)")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = self.folder / "mosquitto.conf"
        password_file = acl_file = None
        if users is not None:
            password_file = self.folder / "passwords"
            write_password_file(password_file, users)
            acl_file = self.folder / "acl"
            tables = [u for u in users if u not in directors]
            acl_file.write_text(acl or acl_text(hall, tables, directors), "utf-8")
        text = broker_conf(self.port, password_file=password_file, acl_file=acl_file) + extra
        if os.geteuid() == 0:  # as root it would switch to the user "mosquitto": keep ours
            text += "user root\n"
        self.conf.write_text(text, encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> Mosquitto:
        with open(self.folder / "mosquitto.log", "ab") as log:
            self.process = subprocess.Popen(
                ["mosquitto", "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at start: see {self.folder}/mosquitto.log")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.2),
            ):
                return self
            time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: whatever the broker held in memory is gone."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
