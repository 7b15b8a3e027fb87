"""Counts `Any` in the signatures other modules call: public functions and methods (names
not starting with "_", in classes not starting with "_") of kiosk/, drivers/ and vision/
whose parameters or return are annotated with `Any` anywhere inside (`dict[str, Any]`
counts). Read from the source (ast), nothing imported.

    .venv/bin/python bench/count_any.py [--root DIR] [--files]
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kiosk", "drivers", "vision")


def _mentions_any(node: ast.expr | None) -> bool:
    if node is None:
        return False
    return any(
        (isinstance(n, ast.Name) and n.id == "Any")
        or (isinstance(n, ast.Attribute) and n.attr == "Any")
        or (isinstance(n, ast.Constant) and isinstance(n.value, str) and "Any" in n.value)
        for n in ast.walk(node)
    )


def _public(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_") or node.name == "__init__":
                found.append(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.extend(_public(node.body))
    return found


def any_signatures(tree: ast.Module) -> list[int]:
    """The lines of public functions with `Any` in a parameter or the return annotation."""
    lines = []
    for fn in _public(tree.body):
        args = fn.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        annotations = [a.annotation for a in every if a is not None]
        if any(_mentions_any(a) for a in [*annotations, fn.returns]):
            lines.append(fn.lineno)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--files", action="store_true", help="list the count of each file")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    for package in PACKAGES:
        for path in sorted((args.root / package).rglob("*.py")):
            found = any_signatures(ast.parse(path.read_text(encoding="utf-8")))
            if found:
                counts[str(path.relative_to(args.root))] = len(found)
    if args.files:
        for name, n in sorted(counts.items()):
            print(f"{n:4d}  {name}")
    print(f"public signatures with Any: {sum(counts.values())} in {len(counts)} files")


if __name__ == "__main__":
    main()
