"""Hardware beside the table, each part with a simulated twin."""
