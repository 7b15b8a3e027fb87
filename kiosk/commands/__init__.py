"""The `tableside` sub-commands, one module each."""
