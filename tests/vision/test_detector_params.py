"""Every number the detector decides by lives in `DetectorParams`, each with
its reason, and no module of the detector holds more than a few numbers of its own."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from vision.params import PARAMS, DetectorParams

ROOT = Path(__file__).resolve().parents[2] / "vision"
#: The detector's modules (its stages and what they share).
DETECTOR = (
    "view.py",
    "params.py",
    "empty.py",
    "propose.py",
    "shape.py",
    "symmetry.py",
    "set_in_use.py",
    "doubt.py",
    "pieces.py",
    "piece_set.py",
)
#: The most numeric literals a module may hold outside `DetectorParams` (0 and 1 are
#: not counted: an index, an identity, a flag).
MOST = 20


def _literals(tree: ast.AST) -> list[float]:
    """The numeric literals of a module, outside the `DetectorParams` class and
    docstrings."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "DetectorParams":
            skip.update(id(n) for n in ast.walk(node))
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, int | float)
        and not isinstance(n.value, bool)
        and n.value not in (0, 1)
        and id(n) not in skip
    ]


def test_counting_literals() -> None:
    tree = ast.parse("x = 2.5 + 0 + 1\nclass DetectorParams:\n    y: float = 3.0\nz = f(7, -2)")
    assert sorted(_literals(tree)) == [2, 2.5, 7]


def test_no_detector_module_holds_more_than_twenty_numbers() -> None:
    counts = {
        name: len(_literals(ast.parse((ROOT / name).read_text(encoding="utf-8"))))
        for name in DETECTOR
    }
    over = {k: n for k, n in counts.items() if n > MOST}
    assert not over, f"numeric literals outside DetectorParams: {over}"


def test_pieces_py_is_under_400_lines() -> None:
    assert len((ROOT / "pieces.py").read_text(encoding="utf-8").splitlines()) < 400


def test_every_parameter_has_its_reason() -> None:
    source = (ROOT / "params.py").read_text(encoding="utf-8").splitlines()
    names = [f.name for f in dataclasses.fields(DetectorParams)]
    for name in names:
        at = next(i for i, line in enumerate(source) if line.strip().startswith(f"{name}:"))
        said = source[at - 1].strip().startswith("#:") or "#:" in source[at]
        assert said, f"DetectorParams.{name} has no one-line reason"
    assert DetectorParams() == PARAMS
