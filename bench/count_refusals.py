"""Counts how structured the refusals are, read from the source (ast), nothing imported:

- plain-string refusals: a `raise SomeError(<text>)` in kiosk/ whose first argument is
  English (a string, an f-string, a `+` or `%` of them) rather than a `Reason`; a
  `raise SomeError.of(code, ...)` is structured and not counted;
- `pytest.raises(..., match=...)` in tests/: a test that pins a refusal by its English;
- assertions on codes in tests/: an `assert` that reads a `.code` (a Reason's code), or a
  `raises_code(...)` (tests/refusals.py).

    .venv/bin/python bench/count_refusals.py [--root DIR] [--files] [PATH ...]

With paths, only those files or folders are counted (the refusals in them, or the tests);
`--files` lists the plain-string refusals by file; `--root` counts another checkout (the
figures before a change: `git worktree add /tmp/before <commit>`).
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _is_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return _is_text(node.left) or _is_text(node.right)
    return False


def plain_refusals(tree: ast.AST) -> list[int]:
    """The lines of `raise X("...")`: an error made from English text."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        call = node.exc
        if isinstance(call.func, ast.Attribute) and call.func.attr == "of":
            continue
        if call.args and _is_text(call.args[0]):
            lines.append(node.lineno)
    return lines


def raises_match(tree: ast.AST) -> int:
    found = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr == "raises" and any(k.arg == "match" for k in node.keywords):
            found += 1
    return found


def code_asserts(tree: ast.AST) -> int:
    """Asserts reading a `.code`, and `raises_code(...)` (tests/refusals.py), which does."""
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "raises_code":
            found += 1
        elif isinstance(node, ast.Assert):
            reads = (n for n in ast.walk(node.test) if isinstance(n, ast.Attribute))
            if any(n.attr == "code" for n in reads):
                found += 1
    return found


def _files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        out.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--files", action="store_true")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    paths = [root / p for p in args.paths]
    code = [p for p in paths if "tests" not in p.relative_to(root).parts]
    tests = [p for p in paths if "tests" in p.relative_to(root).parts]
    code = _files(code or ([] if paths else [root / "kiosk"]))
    tests = _files(tests or ([] if paths else [root / "tests"]))
    plain: Counter[str] = Counter()
    for path in code:
        lines = plain_refusals(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            plain[str(path.relative_to(root))] = len(lines)
    match = asserts = 0
    for path in tests:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        match += raises_match(tree)
        asserts += code_asserts(tree)
    if args.files:
        for name, n in sorted(plain.items()):
            print(f"{n:4}  {name}")
    print(f"plain-string refusals: {sum(plain.values())} in {len(plain)} files")
    print(f"pytest.raises(match=...): {match}")
    print(f"assertions on codes: {asserts}")


if __name__ == "__main__":
    main()
