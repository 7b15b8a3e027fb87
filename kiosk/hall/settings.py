"""The `[hall]` settings are read where every section is (kiosk/config_hall.py); this name
stays for the hall's modules that import it."""

from kiosk.config_hall import HallSettings, parse_broker

__all__ = ["HallSettings", "parse_broker"]
