"""Tableside: the computer beside a tournament table."""

__version__ = "0.1.0"
