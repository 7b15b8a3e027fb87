"""The table session: inputs in, rules and timers, journal, outputs out."""
