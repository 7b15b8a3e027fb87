"""Counts the `isinstance` switches over the game kinds: an `isinstance(x, C)` whose class is
a table, a table's view or a table's start, outside the kinds' own record (kiosk/kinds.py)
and the tables' own modules (a table may test its own types). Read from the source (ast).

    .venv/bin/python bench/count_kind_switches.py [--root DIR]
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The classes that name a kind: its table, its view, its start.
KIND_CLASSES = {
    "CarromTable",
    "BackgammonTable",
    "BhukharTable",
    "CarromView",
    "ClockView",
    "BhukharView",
    "CarromStart",
    "ClockStart",
    "SessionStart",
}
#: Where a kind's own types may be tested: its record and its table's modules.
OWN = (
    "kiosk/kinds.py",
    "kiosk/tables/carrom_",
    "kiosk/tables/backgammon_",
    "kiosk/tables/bhukhar_",
)


def _names(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Tuple):
        return {n for e in node.elts for n in _names(e)}
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    root = parser.parse_args().root.resolve()
    found: Counter[str] = Counter()
    for path in sorted((root / "kiosk").rglob("*.py")):
        name = str(path.relative_to(root))
        if name.startswith(OWN):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) != "isinstance":
                continue
            if len(node.args) == 2 and _names(node.args[1]) & KIND_CLASSES:
                found[name] += 1
    for name, n in sorted(found.items()):
        print(f"{n:4}  {name}")
    print(f"isinstance switches over kinds: {sum(found.values())} in {len(found)} files")


if __name__ == "__main__":
    main()
