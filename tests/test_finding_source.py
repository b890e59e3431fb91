"""Findings point into the file the same way in every output, and their codes come
from one registry that docs/findings.md documents, no more and no less."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from analyzer.checks.audit import audit_path
from mjaudit import rules as rules_module
from mjaudit.findings import ERROR_CODES, INFO_CODES, WARNING_CODES
from reports.cli import main
from tests.conftest import CORPUS, REPO

DOCS = REPO / "docs" / "findings.md"
MS_FILE = CORPUS / "mahjongsoul" / "tenhou-json" / "LiYounian_riichi_sengen_ron.json"
MJAI = CORPUS / "mjai"


def _documented() -> dict[str, set[str]]:
    """The codes of each table of docs/findings.md, by its heading."""
    out: dict[str, set[str]] = {}
    section = ""
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        m = re.match(r"\| `([a-z-]+)` \|", line)
        if m:
            out.setdefault(section, set()).add(m[1])
    return out


def test_the_registry_and_the_docs_name_the_same_codes() -> None:
    docs = _documented()
    assert docs["Errors"] == set(ERROR_CODES)
    assert docs["Warnings"] == set(WARNING_CODES)
    assert docs["Review notes (info)"] == set(INFO_CODES)


def test_every_code_written_in_the_analyzer_is_registered() -> None:
    """A kebab-case string in analyzer/ is a registered code or a rule's value."""
    values: set[str] = {"tenhou-xml", "tenhou-json"}
    for name in dir(rules_module):
        values.update(a for a in get_args(getattr(rules_module, name)) if isinstance(a, str))
    registered = ERROR_CODES | WARNING_CODES | INFO_CODES
    stray = set()
    for path in sorted((REPO / "analyzer").glob("*.py")):
        for m in re.finditer(r'"([a-z]+(?:-[a-z]+)+)"', path.read_text(encoding="utf-8")):
            if m[1] not in registered and m[1] not in values:
                stray.add(f"{path.name}: {m[1]}")
    assert stray == set()


def _logs() -> list[Path]:
    if not MS_FILE.exists() or not MJAI.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    return [MS_FILE, *sorted(MJAI.glob("*.jsonl"))[:12]]


def test_every_finding_has_a_source_in_the_files_own_terms() -> None:
    found = 0
    for path in _logs():
        result = audit_path(str(path))
        for f in result.findings:
            found += 1
            assert f.source, (path.name, f)
            if path.suffix == ".jsonl":
                assert f.source.startswith("line "), f.source
    assert found > 0
    result = audit_path(str(MS_FILE))
    (wrong,) = [f for f in result.findings if f.severity.value == "error"]
    assert wrong.source == "round 6 {E4-0 result}"


def test_text_json_junit_and_html_show_the_same_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_logs()[0])
    main(["audit", "--format", "json", path])
    (finding,) = [
        f for f in json.loads(capsys.readouterr().out)["findings"] if f["severity"] == "error"
    ]
    source = finding["source"]
    assert source == "round 6 {E4-0 result}"
    main(["audit", path])
    assert f"[{source}]" in capsys.readouterr().out
    main(["audit", "--format", "junit", path])
    assert f"[{source}]" in capsys.readouterr().out.replace("&lt;", "<").replace("&gt;", ">")
    out = tmp_path / "game.html"
    main(["report", path, "-o", str(out)])
    capsys.readouterr()
    assert f'class="src">{source}<' in out.read_text(encoding="utf-8")
