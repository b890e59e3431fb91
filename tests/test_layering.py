"""Imports point one way: reports -> analyzer -> parsers -> mjaudit (core), and inside
analyzer/, by stage: runs -> checks -> review -> engine -> hands."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LAYERS = ["mjaudit", "parsers", "analyzer", "reports"]  # each may import only those before it
# ``python -m mjaudit`` starts the command line, which lives at the top (reports/cli.py).
ENTRY_POINTS = {"mjaudit/__main__.py"}
# analyzer's stages, each importing only those before it (docs/architecture.md).
STAGES = ["hands", "engine", "review", "checks", "runs"]


def _modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def _imports(path: Path) -> set[str]:
    return {name.split(".")[0] for name in _modules(path)}


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
    f.write_text("from reports.audit_output import render_json\nimport analyzer.engine.replay\n")
    assert _imports(f) == {"reports", "analyzer"}


@pytest.mark.parametrize("stage", STAGES)
def test_analyzer_stage_imports_only_earlier_stages(stage: str) -> None:
    allowed = set(STAGES[: STAGES.index(stage) + 1])
    bad = []
    for path in sorted((REPO / "analyzer" / stage).rglob("*.py")):
        for name in _modules(path):
            parts = name.split(".")
            stage_of = parts[1] if parts[0] == "analyzer" and len(parts) > 1 else None
            if stage_of in STAGES and stage_of not in allowed:
                bad.append(f"{path.relative_to(REPO).as_posix()} imports {name}")
    assert bad == []


def test_analyzer_is_read_by_its_folders() -> None:
    """Every module of analyzer/ is in a stage's folder, each with a one-line docstring."""
    loose = [p.name for p in (REPO / "analyzer").glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    for stage in STAGES:
        init = REPO / "analyzer" / stage / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "\n" not in doc.strip(), stage


def test_the_core_package_imports_nothing_above_it() -> None:
    """mjaudit/ is the vocabulary: only ``python -m mjaudit`` reaches up, to the CLI."""
    bad = []
    for path in sorted((REPO / "mjaudit").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel not in ENTRY_POINTS:
            bad += [f"{rel} imports {n}" for n in _imports(path) & set(LAYERS) - {"mjaudit"}]
    assert bad == []
