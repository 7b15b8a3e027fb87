"""docs/carrom-rules.md cites real tests: every `test_...` name it gives exists (a name
ending in "..." is a prefix), and so does every scenario it names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "carrom-rules.md"


def _tests() -> set[str]:
    names: set[str] = set()
    for folder in ("tests/rules/carrom", "tests/ui"):
        for path in (ROOT / folder).glob("test_*.py"):
            names |= set(re.findall(r"^def (test_\w+)", path.read_text("utf-8"), flags=re.M))
    return names


def test_rules_docs_every_cited_test_exists() -> None:
    text = DOC.read_text("utf-8")
    cited = re.findall(r"`(test_\w+(?:\.\.\.)?)`", text)
    assert len(cited) > 100
    names = _tests()
    missing = [
        c
        for c in cited
        if not (any(n.startswith(c[:-3]) for n in names) if c.endswith("...") else c in names)
    ]
    assert not missing, missing


def test_rules_docs_every_cited_scenario_exists() -> None:
    text = DOC.read_text("utf-8")
    section = text[text.index("## How the gaps were ruled") :]
    cited = set(re.findall(r"sn `(\w+)`", text)) | set(re.findall(r"`((?:icf|club)_\w+)`", section))
    data = ROOT / "tests" / "data" / "carrom"
    assert cited and all((data / f"{name}.jsonl").exists() for name in cited), cited
