"""The broker's side of the hall's security: a password per table and ACLs (docs/hall.md).

Each table's MQTT user is its table id. It may write only its own `status`, `state`, `events`
and `call`, and read only the director's answers to it (`call/ack`, `resend`, and
`protest/decide`, the director's decision on a protest); the hall's own user (the director's
process) reads every table and writes the answers.

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
#: What a table reads: the director's answers. Nobody but the director writes them (the
#: director's user has the whole hall; no table has a write line for these).
_READS = (topics.CALL_ACK, topics.RESEND, topics.DECIDE)


def write_password_file(path: Path, users: Mapping[str, str]) -> None:
    """A Mosquitto password file holding `users` (name -> password), hashed in one go by
    `mosquitto_passwd -U` (Debian package mosquitto): the plain text never stays on disk."""
    path.write_text("", encoding="utf-8")
    path.chmod(0o600)
    path.write_text("".join(f"{user}:{pw}\n" for user, pw in users.items()), encoding="utf-8")
    subprocess.run(
        ["mosquitto_passwd", "-U", str(path)], check=True, capture_output=True, timeout=300
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


def bridge_conf(
    hall: str,
    central: str,
    *,
    username: str,
    password: str,
    cafile: Path | None = None,
    restart_s: int = 1,
) -> str:
    """A hall broker's bridge to a central broker at `central` ("host:port"): the hall's
    subtree goes up, the director's answers (`call/ack`, `resend`) come down. With `cafile`
    the link is TLS, the central broker's certificate checked against that CA. The session
    is kept (cleansession false): what the hall's tables send while the link is down waits
    in the hall's broker and goes up when it is back."""
    lines = [
        f"connection to-central-{hall}",
        f"address {central}",
        f"remote_username {username}",
        f"remote_password {password}",
        f"remote_clientid bridge-{hall}",
        "cleansession false",
        "bridge_protocol_version mqttv311",
        f"restart_timeout {restart_s}",
        "bridge_attempt_unsubscribe false",
        f"topic {topics.ROOT}/{hall}/# out 1",
        f"topic {topics.ROOT}/{hall}/+/{topics.CALL_ACK} in 1",
        f"topic {topics.ROOT}/{hall}/+/{topics.RESEND} in 1",
        f"topic {topics.ROOT}/{hall}/+/{topics.DECIDE} in 1",
    ]
    if cafile is not None:
        lines += [f"bridge_cafile {cafile}", "bridge_insecure false"]
    return "\n".join(lines) + "\n"


def central_acl(halls: Iterable[str], director: str | Iterable[str] = DIRECTOR) -> str:
    """The central broker's ACL: each hall's bridge user (named after the hall) writes its
    hall's subtree and reads the answers meant for it; the central directors read and answer
    every hall."""
    lines = []
    for name in [director] if isinstance(director, str) else director:
        lines += [f"user {name}", f"topic readwrite {topics.ROOT}/#", ""]
    for hall in halls:
        lines += [f"user {hall}", f"topic readwrite {topics.ROOT}/{hall}/#", ""]
    return "\n".join(lines)
