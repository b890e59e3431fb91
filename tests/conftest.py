"""Shared fixtures: the real-log corpus beside the repository, and tampering helpers."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from lxml import etree

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from analyzer.runs.batch import RunSummary, audit_many
from parsers.tenhou_xml import parse_tenhou_xml
from tests.chromium import DevTools, start_browser

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
TENHOU_XML = CORPUS / "tenhou-xml"
SAMPLES = REPO / "sample_logs"


def corpus_logs() -> list[Path]:
    """Every log file of the corpus, in all formats (skips the test without one)."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file()
        and p.suffix in (".xml", ".json", ".jsonl", ".txt")
        and p.parent.name != "corpus"
    )


def corpus_file(name: str) -> Path:
    """A file of the real-log corpus; the test skips, visibly, where it is absent."""
    path = TENHOU_XML / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path} (CI has ../shared beside the repo)")
    return path


def elements(path: Path) -> list[etree._Element]:
    """The children of <mjloggm>, to be edited and written back with :func:`rebuild`."""
    root = etree.fromstring(path.read_bytes())
    return list(root)


def rebuild(children: list[etree._Element]) -> bytes:
    root = etree.Element("mjloggm", ver="2.3")
    for el in children:
        root.append(el)
    return etree.tostring(root)


def audit_bytes(data: bytes, name: str = "tampered.xml") -> FileAudit:
    log = parse_tenhou_xml(data, name)
    return audit_log(log, resolve_rules(log, "auto"))


def tamper(name: str, edit: Callable[[list[etree._Element]], None]) -> FileAudit:
    """Audit a copy of corpus log ``name`` after ``edit`` changed its elements in place."""
    children = elements(corpus_file(name))
    edit(children)
    return audit_bytes(rebuild(children), name)


def error_codes(result: FileAudit) -> list[str]:
    return [f.code for f in result.findings if f.severity.value == "error"]


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """A dozen corpus logs in a folder (where the corpus is absent, the sample logs
    that audit clean: broken_dora.xml is broken on purpose)."""
    d = tmp_path / "logs"
    d.mkdir()
    found = sorted(TENHOU_XML.glob("*.xml"))[:12] if TENHOU_XML.is_dir() else []
    clean = [p for p in sorted(SAMPLES.glob("*.xml")) if p.name != "broken_dora.xml"]
    for p in found or clean:
        shutil.copy(p, d / p.name)
    return d


def run_store(paths: list[str], store: Path, **kw: object) -> RunSummary:
    """An ``audit --store`` run through the library; its summary."""
    summary = RunSummary()
    for _ in audit_many(paths, store=str(store), summary=summary, progress=False, **kw):  # type: ignore[arg-type]
        pass
    return summary


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    """One headless Chromium for a test module (skips where none is installed)."""
    yield from start_browser(tmp_path_factory.mktemp("chromium-profile"))
