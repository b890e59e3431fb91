"""The real Tenhou logs: the server forbids furiten wins and riichi when not tenpai."""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.checks.audit import resolve_rules
from analyzer.review.furiten import review_log
from parsers import load
from tests.conftest import TENHOU_XML


def test_corpus_has_no_furiten_win_and_no_noten_riichi() -> None:
    if not TENHOU_XML.exists():
        pytest.skip(f"corpus not available: {TENHOU_XML} (CI has ../shared beside the repo)")
    totals: Counter[str] = Counter()
    errors = []
    for path in sorted(TENHOU_XML.glob("*.xml")):
        log = load(str(path))
        game, tracker = review_log(log, resolve_rules(log, "auto"))
        totals.update(tracker.counts)
        errors += [f for f in tracker.findings if f.severity.value == "error"]
        errors += [f for r in game.rounds for f in r.findings if f.code == "illegal-riichi"]
    assert errors == []
    assert totals["rons_checked"] > 1000
    assert totals["tsumo_wins_checked"] > 500
