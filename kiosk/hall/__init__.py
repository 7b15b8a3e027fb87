"""The hall: every table live for the tournament director, over MQTT (docs/hall.md).

The kiosk's side is `publisher.HallPublisher` (an engine output; the journal is its outbox);
the director's side is `tableside hall` (`listener`, `record`, `results`, `server`). Nothing
here is imported by the kiosk unless a broker is configured in `[hall]`.
"""
