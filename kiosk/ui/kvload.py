"""Load the .kv layout that sits beside a module, whatever the working directory."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder


def load_kv(module_file: str) -> None:
    """Load `<module>.kv` from the module's own folder, once per process."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)
