"""The hall's resend requests (kiosk/hall/listener.py): asked again for the same head, the
wait doubles (2, 4, 8, then every 10 s); once the head moves, the first pace again. A hall
far behind its broker's queue used to ask every 2 s for what was only still queued, and each
table sent it all again each time: the further behind, the more it was sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord


def test_asking_again_for_the_same_head_slows_down_and_a_moved_head_resets_it(
    tmp_path: Path,
) -> None:
    listener = HallListener(HallRecord(tmp_path / "hall.db"), ("127.0.0.1", 1))  # not started
    asked: list[float] = []
    now = [0.0]

    def publish(topic: str, payload: Any, qos: int = 0, retain: bool = False) -> None:
        asked.append(now[0])

    listener.client.publish = publish  # type: ignore[method-assign, assignment]
    for tick in range(0, 60):
        now[0] = float(tick)
        listener._ask("h", "t01", "journal-1", 5, now[0])
    assert asked == [0, 2, 6, 14, 24, 34, 44, 54]
    asked.clear()
    for tick in range(60, 70):  # the head moved: asked at the first pace again
        now[0] = float(tick)
        listener._ask("h", "t01", "journal-1", 9, now[0])
    assert asked == [60, 62, 66]
    # Another outbox has its own pace.
    asked.clear()
    now[0] = 69.5
    listener._ask("h", "t02", "journal-1", 5, now[0])
    assert asked == [69.5]
