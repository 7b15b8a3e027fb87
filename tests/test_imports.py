"""The import graph of every package (`kiosk`, `drivers`, `vision`): no import cycle anywhere,
every folder in a layer, and no import from a layer up to one above it.

Every `import` counts, at the top of a module or inside a function alike: a cycle broken by
importing "inside a function for size" is still a cycle. The graph is read from the source
(ast), so nothing is imported to test it.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import kiosk

ROOT = Path(kiosk.__file__).parent.parent
PACKAGES = ("kiosk", "drivers", "vision")

#: The layers, lowest first. A module belongs to the longest prefix named here (a folder, or
#: one of kiosk's loose modules), and may import its own layer and the layers below, never one
#: above. Two folders in one layer know each other at most without a cycle.
LAYERS: tuple[tuple[str, ...], ...] = (
    # what everything may use: errors, atomic files, safe reads, the roles and what each may do,
    # PIN hashes (kiosk.access)
    ("kiosk", "kiosk.errors", "kiosk.atomic", "kiosk.safe_read", "kiosk.access"),
    # the pure cores: rules and timers; the settings shipped in the package
    ("kiosk.rules", "kiosk.clocks", "kiosk.defaults"),
    # the settings, every section of them (the hall's among them)
    ("kiosk.config",),
    # the infrastructure every table runs on: journal, outputs, faults, time; no hardware
    ("kiosk.engine",),
    # the hardware's own code: pins, serial links, the camera's vision (and its renderer)
    ("drivers", "vision", "vision.sim", "vision.models"),
    # the tables
    ("kiosk.tables",),
    # the parts beside a table (they post its inputs and show its views)
    ("kiosk.parts",),
    # the hall: the kiosk's publisher and the director's board
    ("kiosk.hall",),
    # the wiring: the game kinds' records, the tables in play, the runner, the start, and
    # the console's authority wired to the settings and the journal
    (
        "kiosk.kinds",
        "kiosk.wiring",
        "kiosk.startup",
        "kiosk.runner",
        "kiosk.access.settings_authority",
    ),
    # the faces: screens, then the sub-commands and the command line
    ("kiosk.ui",),
    ("kiosk.commands", "kiosk.cli"),
)


@cache  # read once for the tests that look at it
def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


@cache
def _graph() -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports (a `from package import name` of a
    submodule counts as importing that submodule)."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.add(frozenset(component))
    return found


def _layer(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int | None:
    """The layer of the longest prefix naming `module` (its folder or itself); None: none."""
    best: tuple[int, int] | None = None
    for rank, names in enumerate(layers):
        for prefix in names:
            named = module == prefix or module.startswith(prefix + ".")
            if named and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank)
    return None if best is None else best[1]


def _upward(
    graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...] = LAYERS
) -> set[tuple[str, str]]:
    """Every import from a module up to a module of a higher layer."""
    found = set()
    for name, imports in graph.items():
        mine = _layer(name, layers)
        for target in imports:
            theirs = _layer(target, layers)
            if mine is not None and theirs is not None and theirs > mine:
                found.add((name, target))
    return found


def test_imports_no_cycle_in_any_package() -> None:
    """Every import counts, those inside a function too: a cycle dodged by a late import is
    still a cycle."""
    assert _cycles(_graph()) == set(), "an import cycle"


def test_imports_the_cycle_finder_sees_a_cycle() -> None:
    """The finder itself: a cycle through three modules is one component; a chain is none."""
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(ring) == {frozenset({"a", "b", "c"})}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == set()


def test_imports_every_package_is_scanned() -> None:
    scanned = {name.partition(".")[0] for name in _modules()}
    assert scanned == set(PACKAGES)


def test_imports_every_module_has_a_layer() -> None:
    """A new folder or loose module is given its place here, not left out of the check."""
    assert {name for name in _modules() if _layer(name) is None} == set()


@pytest.mark.parametrize(
    ("module", "rank"),
    [("kiosk.config", 2), ("kiosk.config.sections", 2), ("kiosk", 0), ("kiosk.errors", 0)],
)
def test_imports_a_module_takes_its_longest_prefix(module: str, rank: int) -> None:
    """`kiosk.config` is the settings' layer, not the package's (`kiosk`) below it."""
    assert _layer(module) == rank


def test_imports_the_layer_check_sees_an_arrow_back_up() -> None:
    layers = (("low",), ("high",))
    assert _upward({"low.a": {"high.b"}, "high.b": set()}, layers) == {("low.a", "high.b")}
    assert _upward({"high.b": {"low.a"}, "low.a": set()}, layers) == set()


def test_imports_each_layer_imports_only_its_own_and_those_below() -> None:
    assert _upward(_graph()) == set()
