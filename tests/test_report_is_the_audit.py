"""The report shows what the audit derived: one replay per game, no second scoring.

Every win of the corpus (all formats): a row of the report's comparison table
differs only where the audit made a finding about that win; and a folder report
replays each game exactly once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import analyzer.checks.audit
from analyzer.checks.audit import resolve_rules
from analyzer.engine.replay import replay
from parsers import load
from reports.views import _compare
from reports.views_facts import collect_game
from tests.conftest import CORPUS

# Findings about a win's value or payment: where one is made, a row may differ.
_WIN_CODES = {
    "yaku-mismatch", "han-mismatch", "fu-mismatch", "points-mismatch", "limit-mismatch",
    "payment-mismatch", "pao-mismatch", "no-yaku-win", "not-a-winning-hand",
}  # fmt: skip


def _corpus_logs() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file()
        and p.suffix in (".xml", ".json", ".jsonl", ".txt")
        and p.parent.name != "corpus"
        and not p.name.endswith(".md")
    )


@pytest.mark.corpus
def test_the_reports_recomputed_column_is_the_audits_record() -> None:
    wins = differing = finals = 0
    for path in _corpus_logs():
        try:
            log = load(str(path))
        except Exception:  # not a log (the corpus's notes), or a log no format reads
            continue
        facts = collect_game(log, resolve_rules(log, "auto"))
        flagged = {
            f.event for f in facts.audit.findings if f.code in _WIN_CODES and f.event is not None
        }
        claimed = facts.game.end.claims.final_scores if facts.game.end is not None else None
        if claimed is not None and not any(
            f.code == "final-score-mismatch" for f in facts.audit.findings
        ):
            # The final result the page shows is the one the audit judged the log by.
            assert facts.final is not None, path.name
            n = facts.players
            assert tuple(facts.final.final_scores[:n]) == tuple(claimed[:n]), path.name
            finals += 1
        for checks in facts.wins:
            for w in checks:
                wins += 1
                rows = [r for r in _compare(w, facts.players) if r.differs]
                if rows and w.record.event_index not in flagged:
                    differing += 1
                    pytest.fail(
                        f"{path.name} {w.record.event_index}: "
                        f"{[(r.item, r.recorded, r.recomputed) for r in rows]}"
                    )
    assert differing == 0
    assert wins > 3000  # every win of the corpus: Tenhou, JSON, mjai and Mahjong Soul
    assert finals > 400  # and every game end that the audit found right


@pytest.mark.parametrize(
    "name",
    [
        "tenhou-xml/dnovikoff-tenhou_chip.xml",  # E1-0, a kiriage mangan written as 0
        "tenhou-xml/dnovikoff-tenhou_ratio1.xml",  # E2-0
        "mjai/mjaigym-server/mjaigymml_sample.jsonl",  # E1-0, ura read back from the log
    ],
)
def test_the_three_games_show_no_differing_row(name: str) -> None:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    facts = collect_game(log, resolve_rules(log, "auto"))
    rows = [r for ws in facts.wins for w in ws for r in _compare(w, facts.players) if r.differs]
    assert rows == []
    assert sum(len(ws) for ws in facts.wins) > 0


def test_a_folder_report_replays_each_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reports.cli import main
    from tests.conftest import SAMPLES

    calls: list[str] = []

    def counted(log, rules, observers=()):  # type: ignore[no-untyped-def]
        calls.append(log.path)
        return replay(log, rules, observers)

    monkeypatch.setattr(analyzer.checks.audit, "replay", counted)
    logs = tmp_path / "logs"
    logs.mkdir()
    for p in sorted(SAMPLES.glob("*.xml")):
        (logs / p.name).write_bytes(p.read_bytes())
    main(["report", str(logs), "-o", str(tmp_path / "site")])
    assert sorted(Path(c).name for c in calls) == sorted(p.name for p in logs.iterdir())
