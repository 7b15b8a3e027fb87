"""Plugging the hall into a kiosk: one call from kiosk/engine/startup.py.

With a broker and a table id in `[hall]`, the publisher starts (its own threads; without a
reachable broker it keeps trying and the kiosk scores as before) and is returned, to be added
to the outputs every table speaks to and stopped at the end. Without them: None, and paho is
never imported.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.config import Settings
    from kiosk.hall.publisher import HallPublisher
    from kiosk.tables.commands import Command


def start_hall(
    settings: Settings,
    data_dir: Path,
    tile_of: Callable[[Any], dict[str, Any] | None],
    on_command: Callable[[Command], None] | None = None,
) -> HallPublisher | None:
    """The publisher, started; `tile_of` gives a view's tile by its kind (kiosk/kinds.py);
    `on_command` takes the director's decisions the hall sends (`Tables.post`: to the table
    in play), set before the first message can come."""
    if not settings.hall.enabled:
        return None
    from kiosk.hall.publisher import HallPublisher

    publisher = HallPublisher(settings.hall, data_dir, tile_of=tile_of)
    publisher.on_command = on_command
    return publisher.start()
