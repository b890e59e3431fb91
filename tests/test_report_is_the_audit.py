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
from tests.conftest import CORPUS, corpus_logs

# Findings about a win's value or payment: where one is made, a row may differ.
_WIN_CODES = {
    "yaku-mismatch", "han-mismatch", "fu-mismatch", "points-mismatch", "limit-mismatch",
    "payment-mismatch", "pao-mismatch", "no-yaku-win", "not-a-winning-hand",
}  # fmt: skip


@pytest.mark.corpus
def test_the_reports_recomputed_column_is_the_audits_record() -> None:
    wins = differing = finals = 0
    for path in corpus_logs():
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


@pytest.mark.corpus
def test_hand_records_hold_the_logs_claims_and_what_the_audit_derived() -> None:
    """FileAudit.hands, which the store's hands table reads: the claims equal a plain
    walk over each hand's events, and the derived settlement equals the log's deltas
    in every hand where the audit found no payment or draw problem."""
    from analyzer.checks.audit import audit_log
    from mjaudit.events import RiichiAccepted, RoundDraw, RoundStart, Win

    payment_codes = {"payment-mismatch", "pao-mismatch", "draw-mismatch", "inconsistent-log"}
    hands = agreeing = 0
    for path in corpus_logs():
        try:
            log = load(str(path))
        except Exception:
            continue  # unreadable corpus files are other tests' business
        rules = resolve_rules(log, "auto")
        audit = audit_log(log, rules)
        players = rules.players
        walked: list[tuple[str, tuple[int, ...], str | None, tuple[int, ...] | None]] = []
        for ev in log.events:
            if isinstance(ev, RoundStart):
                walked.append((ev.label, (), None, None))
            elif walked and isinstance(ev, RiichiAccepted):
                label, riichi, result, deltas = walked[-1]
                walked[-1] = (label, (*riichi, ev.seat), result, deltas)
            elif walked and isinstance(ev, Win | RoundDraw):
                label, riichi, result, deltas = walked[-1]
                if ev.claims.deltas is not None:
                    old = deltas or (0,) * players
                    new = ev.claims.deltas[:players]
                    deltas = tuple(a + b for a, b in zip(old, new, strict=True))
                won = isinstance(ev, Win) or result == "win"
                walked[-1] = (label, riichi, "win" if won else "draw", deltas)
        assert [(h.label, h.riichi, h.result, h.deltas) for h in audit.hands] == walked, path
        bad_rounds = {f.round for f in audit.findings if f.code in payment_codes}
        for h in audit.hands:
            hands += 1
            if h.deltas is not None and h.label not in bad_rounds:
                if h.derived_deltas is None and h.result is None:
                    continue
                assert h.derived_deltas == h.deltas, (path, h.label)
                agreeing += 1
    assert hands > 3000 and agreeing > 2900
