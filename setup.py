"""The package build compiles the interface's catalogues (kiosk/locale/*/LC_MESSAGES/kiosk.po)
to .mo with Babel; everything else is in pyproject.toml. An editable install skips it: the
kiosk compiles a .po in memory when its .mo is missing (kiosk/ui/i18n.py)."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("kiosk/locale").glob("*/LC_MESSAGES/*.po")):
            mo = Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parts[-3])
            with mo.open("wb") as target:
                write_mo(target, catalogue)


setup(cmdclass={"build_py": BuildWithCatalogues})
