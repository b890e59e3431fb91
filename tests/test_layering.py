"""Imports point one way: reports -> analyzer -> parsers -> mjaudit (core)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LAYERS = ["mjaudit", "parsers", "analyzer", "reports"]  # each may import only those before it
ENTRY_POINTS = {"mjaudit/cli.py", "mjaudit/__main__.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_only_lower_layers(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    bad = []
    for path in sorted((REPO / layer).rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in ENTRY_POINTS:
            continue
        for name in _imports(path) & set(LAYERS):
            if name not in allowed:
                bad.append(f"{rel} imports {name}")
    assert bad == []


def test_the_check_would_catch_an_upward_import(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("from reports.audit_output import render_json\nimport analyzer.replay\n")
    assert _imports(f) == {"reports", "analyzer"}
