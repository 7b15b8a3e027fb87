"""The broker's side of the hall's security: a password per table and ACLs (docs/hall.md).

Each table's MQTT user is its table id. It may write only its own `status`, `state`, `events`
and `call`, and read only the director's answers to it (`call/ack`, `resend`); the hall's own
user (the director's process) reads every table and writes the answers.

The broker takes each client's user name as its client id (`use_username_as_clientid`): a
client id is what MQTT uses to push an older connection off, so with it bound to the user
one table's password cannot push another table off (and fire its last will).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from kiosk.hall import topics

#: The hall process's MQTT user.
DIRECTOR = "director"


def acl_text(hall: str, tables: Iterable[str], director: str | Iterable[str] = DIRECTOR) -> str:
    """A Mosquitto ACL file: per table user, exactly its own topics; the director's users
    (one per hall process: each user is one connection) read and answer every table."""
    lines = []
    for name in [director] if isinstance(director, str) else director:
        lines += [f"user {name}", f"topic readwrite {topics.ROOT}/{hall}/#", ""]
    for table in tables:
        prefix = f"{topics.ROOT}/{hall}/{table}"
        lines.append(f"user {table}")
        lines += [f"topic write {prefix}/{what}" for what in _WRITES]
        lines += [f"topic read {prefix}/{what}" for what in _READS]
        lines.append("")
    return "\n".join(lines)


_WRITES = (topics.STATUS, topics.STATE, topics.EVENTS, topics.CALL)
_READS = (topics.CALL_ACK, topics.RESEND)


def write_password_file(path: Path, users: Mapping[str, str]) -> None:
    """A Mosquitto password file holding `users` (name -> password), hashed by
    `mosquitto_passwd` (Debian package mosquitto)."""
    path.write_text("", encoding="utf-8")
    path.chmod(0o600)
    for user, password in users.items():
        subprocess.run(
            ["mosquitto_passwd", "-b", str(path), user, password],
            check=True,
            capture_output=True,
            timeout=30,
        )


def broker_conf(
    port: int,
    *,
    password_file: Path | None = None,
    acl_file: Path | None = None,
    persistence_dir: Path | None = None,
    bind: str = "127.0.0.1",
) -> str:
    """A Mosquitto 2 configuration for a hall's broker (the tests' and the bench's)."""
    lines = [
        "per_listener_settings false",
        f"listener {port} {bind}",
        "max_queued_messages 100000",
        "max_inflight_messages 0",
        "log_type error",
        "log_dest stderr",
    ]
    if password_file is None:
        lines.append("allow_anonymous true")
    else:
        # The client id is the user name: no one pushes another table off with its id.
        lines += [
            "use_username_as_clientid true",
            "allow_anonymous false",
            f"password_file {password_file}",
        ]
    if acl_file is not None:
        lines.append(f"acl_file {acl_file}")
    if persistence_dir is not None:
        lines += ["persistence true", f"persistence_location {persistence_dir}/"]
    return "\n".join(lines) + "\n"
