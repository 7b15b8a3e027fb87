"""The topic scheme: `tableside/<hall>/<table>/<what>` (docs/hall.md, "Topics").

Everything of a table lives under its own prefix, so an ACL can give each table exactly its
own branch, and a bridge can carry a whole hall (`tableside/<hall>/#`) to a central broker
without renaming anything.
"""

from __future__ import annotations

import json
from typing import Any

ROOT = "tableside"
STATUS = "status"
STATE = "state"
EVENTS = "events"
CALL = "call"
#: The director's answer to a call (written by the hall, read by the kiosk).
CALL_ACK = "call/ack"
#: The hall asks a table to send its events again after a sequence number (a gap it found).
RESEND = "resend"
#: The director's decision on a protest (laws 144-151), written by the hall only (the ACL),
#: read by the kiosk, journaled there by the table as the director's act. Retained until the
#: kiosk's `protest_decided` event comes back.
DECIDE = "protest/decide"
ONLINE = "online"
OFFLINE = "offline"


def topic(hall: str, table: str, what: str) -> str:
    return f"{ROOT}/{hall}/{table}/{what}"


def subscription(hall: str = "+") -> str:
    """Every topic of every table of `hall` ("+": of every hall)."""
    return f"{ROOT}/{hall}/#"


def split(name: str) -> tuple[str, str, str] | None:
    """(hall, table, what) of a topic in the scheme, else None."""
    parts = name.split("/", 3)
    if len(parts) != 4 or parts[0] != ROOT or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2], parts[3]


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
