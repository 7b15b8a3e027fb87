"""The package's import graph (issue 30): no import cycle anywhere in kiosk/, and the layers
in order: kiosk/engine (the infrastructure: journal, outputs, faults, timebase, notify) knows
no table, no part, no screen and no wiring; the tables know no part, no screen and no wiring;
the parts no screen and no wiring.

Every `import` counts, at the top of a module or inside a function alike: a cycle broken by
importing "inside a function for size" is still a cycle. The graph is read from the source
(ast), so nothing is imported to test it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import kiosk

ROOT = Path(kiosk.__file__).parent

#: The layers, lowest first, and what each may not import (every layer above it): the
#: engine is the infrastructure (journal, outputs, faults, timebase, notify); the tables; the
#: parts beside a table (they post a table's inputs and show its views); then the wiring
#: (`Tables`, the runner, the roles, the start) and the screens.
WIRING = ("kiosk.wiring", "kiosk.startup", "kiosk.runner", "kiosk.roles", "kiosk.ui")
ABOVE = {
    "kiosk.engine": ("kiosk.tables", "kiosk.parts", *WIRING),
    "kiosk.tables": ("kiosk.parts", *WIRING),
    "kiosk.parts": WIRING,
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("kiosk", *path.relative_to(ROOT).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _graph() -> dict[str, set[str]]:
    """Module -> the kiosk modules it imports (a `from package import name` of a submodule
    counts as importing that submodule)."""
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


def test_imports_no_cycle_in_the_package() -> None:
    """Every import counts, those inside a function too: a cycle dodged by a late import is
    still a cycle."""
    assert _cycles(_graph()) == set(), "an import cycle"


def test_imports_the_cycle_finder_sees_a_cycle() -> None:
    """The finder itself: a cycle through three modules is one component; a chain is none."""
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(ring) == {frozenset({"a", "b", "c"})}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == set()


def test_imports_each_layer_imports_only_the_layers_below() -> None:
    upward = set()
    for name, imports in _graph().items():
        for layer, above in ABOVE.items():
            if name == layer or name.startswith(layer + "."):
                upward |= {(name, a) for a in above for i in imports if i.startswith(a)}
    assert upward == set()
