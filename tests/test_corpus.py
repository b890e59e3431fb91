"""The whole real-log corpus: the totals and zero error findings (runs in CI)."""

from __future__ import annotations

import json

import pytest

from mjaudit.cli import main
from tests.conftest import TENHOU_XML


@pytest.mark.corpus
def test_tenhou_xml_corpus_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    if not TENHOU_XML.is_dir():
        pytest.skip(f"corpus not available at {TENHOU_XML}")
    code = main(["audit", "--format", "json", "-j", "2", str(TENHOU_XML)])
    doc = json.loads(capsys.readouterr().out)
    t = doc["totals"]
    assert (t["files"], t["games"], t["rounds"], t["wins"], t["draws"], t["unreadable"]) == (
        332,
        332,
        3114,
        2639,
        501,
        0,
    )
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    assert errors == []
    assert code == 0
    # The checks really ran: every round replayed, every win's indicators compared.
    assert t["checks"]["rounds_replayed"] == 3114
    assert t["checks"]["dora_indicators_checked"] == 2639
    warnings = [f for f in doc["findings"] if f["severity"] == "warning"]
    assert {f["code"] for f in warnings} <= {"rules-assumed"}
