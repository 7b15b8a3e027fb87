"""The kiosk's `[hall]` settings: where the broker is and who this table is on it.

They live with the other settings (the hall's code reads them; the settings know no hall).
Read by kiosk/config like every other section (the checks raise its `Bad`, so a bad value
is a problem naming `hall.<key>` and its line). An empty `broker` means no hall: the kiosk
scores as it always did.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.config.checks import Bad

#: A hall or table id is one MQTT topic level: no "/", "+", "#", nothing blank.
_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def parse_broker(text: str) -> tuple[str, int]:
    """ "host:port" (or "host", port 1883) as (host, port); ValueError saying what is wrong."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = text.strip(), "1883"
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f'must be "host:port" with a port from 1 to 65535, not "{text}"')
    return host.strip("[]"), int(port_text)


def _broker(value: Any) -> str:
    if not isinstance(value, str):
        raise Bad('must be text, "host:port" ("" for no hall)')
    if value:
        try:
            parse_broker(value)
        except ValueError as exc:
            raise Bad(str(exc)) from None
    return value


def _id(value: Any) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise Bad("must be 1-64 letters, digits, '.', '_' or '-' (one MQTT topic level)")
    return value


def _opt_id(value: Any) -> str:
    return "" if value == "" else _id(value)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Bad("must be text in quotes")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Bad("must be true or false")
    return value


def _range(lo: float, hi: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise Bad(f"must be a number of seconds from {lo:g} to {hi:g}")
        return float(value)

    return check


def _c(checker: Callable[[Any], Any]) -> dict[str, Callable[[Any], Any]]:
    return {"check": checker}


@dataclass(frozen=True, slots=True)
class HallSettings:
    #: "host:port" of the hall's broker; "" for no hall.
    broker: str = field(default="", metadata=_c(_broker))
    hall: str = field(default="hall", metadata=_c(_id))
    #: This table's id on the broker (and its MQTT user name); "": the table does not publish.
    table_id: str = field(default="", metadata=_c(_opt_id))
    username: str = field(default="", metadata=_c(_text))
    password: str = field(default="", metadata=_c(_text))
    tls: bool = field(default=False, metadata=_c(_bool))
    #: The CA certificate that signed the broker's (TLS on); "" for the system's CAs.
    ca_file: str = field(default="", metadata=_c(_text))
    #: MQTT keep-alive: the board shows a silent kiosk offline after 1.5 x this (the
    #: broker's last will comes on its own schedule, seconds later: docs/hall.md).
    keepalive_s: float = field(default=15.0, metadata=_c(_range(5, 600)))
    #: The state is sent again at least this often; the board shows older data as stale.
    heartbeat_s: float = field(default=5.0, metadata=_c(_range(1, 300)))

    @property
    def enabled(self) -> bool:
        return bool(self.broker and self.table_id)

    def host_port(self) -> tuple[str, int]:
        return parse_broker(self.broker)
