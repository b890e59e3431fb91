"""Rule settings applied to real games audited under rules other than their own.

One difference in a rule is one root finding in each hand it affects; what follows
from it in that hand names it as ``cause`` (docs/findings.md), and the value a win is
recomputed at follows the rules (kan ura only where the rules have them).
"""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from mjaudit.findings import Finding, Severity
from mjaudit.rules import Ruleset, preset
from parsers import load
from tests.conftest import CORPUS, corpus_file


def _audit(name: str, **changes: object) -> tuple[Finding, ...]:
    log = load(str(corpus_file(name)))
    rules: Ruleset = replace(resolve_rules(log, "auto"), **changes)  # type: ignore[arg-type]
    return audit_log(log, rules, review=False).findings


def _preset_changes(name: str) -> dict[str, object]:
    """Every field of a preset but its name, to set on a log's own rules."""
    rules = preset(name)
    return {f.name: getattr(rules, f.name) for f in fields(rules) if f.name != "name"}


def _errors(findings: tuple[Finding, ...], round_label: str | None) -> list[tuple[int, Finding]]:
    return [
        (i, f)
        for i, f in enumerate(findings)
        if f.severity is Severity.ERROR and f.round == round_label
    ]


# S3-0: seat 3 wins by riichi tsumo (haneman) after a kan, ura indicators 6m and 7m
# (ids 21, 27), holding one 7m and one 8m: ura 2 with kan ura, 1 without.
KAN_URA_GAME = "2018010702gm-00a9-0000-5dd4f9b4.xml"


def test_no_kan_ura_counts_only_the_first_ura_indicator() -> None:
    found = _errors(_audit(KAN_URA_GAME, kan_ura=False), "S3-0")
    by_code = {f.code: f for _, f in found}
    assert by_code["ura-indicator-mismatch"].message.endswith(
        "shows 2 ura indicators, but 1 is due (2 dora indicators in force, and these rules "
        "have no kan ura)"
    )
    han = by_code["han-mismatch"]
    assert (han.expected, han.actual) == (5, 6)
    assert "ura dora 2 han (recomputed 1)" in han.message
    assert by_code["points-mismatch"].expected == 8000  # a non-dealer mangan tsumo
    # The same game under its own rules has nothing to say about this hand.
    assert _errors(_audit(KAN_URA_GAME), "S3-0") == []


# E1-0: the dealer's 4-han 30-fu ron, paid 11600 (no kiriage).
KIRIAGE_GAME = "2009082817gm-00ab-0000-997dbe26.xml"


def test_kiriage_is_one_root_per_hand_and_the_payments_follow_it() -> None:
    found = _errors(_audit(KIRIAGE_GAME, kiriage=True), "E1-0")
    roots = [f for _, f in found if f.cause is None]
    assert [(f.code, f.expected, f.actual) for f in roots] == [("points-mismatch", 12000, 11600)]
    root = next(i for i, f in found if f.code == "points-mismatch")
    payments = [f for _, f in found if f.code == "payment-mismatch"]
    assert len(payments) == 2
    assert all(f.cause == root for f in payments)


# E4-0 of this game: a composite yakuman (double) won with the liable seat paying.
COMPOSITE_GAME = "2019103023gm-00a9-0000-f90e0fe9.xml"


def test_a_single_yakuman_limit_is_one_root_per_hand() -> None:
    findings = _audit(COMPOSITE_GAME, composite_yakuman=False)
    hands = {f.round for f in findings if f.code == "points-mismatch"}
    assert hands
    for label in hands:
        found = _errors(findings, label)
        roots = [f.code for _, f in found if f.cause is None]
        assert roots == ["points-mismatch"], (label, roots)


# A hand whose win shows dora indicators 3p 1z 5s and three ura after two kans (S4-2),
# and one whose win shows 2s 3p after a kakan (E3-0, OPEN_KAN_GAME of test_rules_live).
TWO_KANS_GAME = "2010050507gm-00a9-0000-f13f215d.xml"
OPEN_KAN_GAME = "2010112714gm-00a9-0000-d497e395.xml"


def test_no_kan_dora_is_one_root_per_hand() -> None:
    for name, label in ((TWO_KANS_GAME, "S4-2"), (OPEN_KAN_GAME, "E3-0")):
        found = _errors(_audit(name, kan_dora=False), label)
        codes = {f.code for _, f in found}
        assert {"dora-timing", "dora-indicator-mismatch", "ura-indicator-mismatch"} <= codes
        roots = [f.code for _, f in found if f.cause is None]
        assert roots == ["dora-timing"], (name, label, roots)


def test_no_kan_ura_is_one_root_per_hand() -> None:
    found = _errors(_audit(KAN_URA_GAME, kan_ura=False), "S3-0")
    roots = [f.code for _, f in found if f.cause is None]
    assert roots == ["ura-indicator-mismatch"]


def test_immediate_open_kan_dora_is_one_root_per_hand() -> None:
    found = _errors(
        _audit("2014123118gm-0029-0000-4700b218.xml", open_kan_dora_timing="immediate"), "S1-1"
    )
    assert {f.code for _, f in found} == {"dora-timing", "dora-indicator-mismatch"}
    roots = [f.code for _, f in found if f.cause is None]
    assert roots == ["dora-timing"]


# Two Mahjong Soul one-hand (ikkyokusen) and one-round (cpusen) three-player games:
# each ends once a player has the return points (docs/rules.md, one_hand_game).
ONE_HAND_GAMES = (
    "sanma_cpusen_mahjongsoul_paifu_231215-613eb8b1-84e8-4726-98ac-a578055e6b9a.txt",
    "sanma_ikkyokusen_mahjongsoul_paifu_231215-a5d87184-f612-4c5e-a31c-72dbae44aaf8.txt",
)


def test_a_one_hand_game_keeps_its_length_under_a_named_preset() -> None:
    for name in ONE_HAND_GAMES:
        path = CORPUS / "mahjongsoul" / "raw-gdr" / name
        if not path.exists():
            pytest.skip(f"corpus not available: {path}")
        log = load(str(path))
        for spec in ("auto", "mahjongsoul-sanma"):
            findings = audit_log(log, resolve_rules(log, spec), review=False).findings
            ends = [f.message for f in findings if f.code == "game-end-mismatch"]
            assert ends == [], (name, spec, ends)


# Ends on 21000, 5400, 35700, 37900 (owari 210,-19.0,54,-44.6,357,15.7,379,47.9).
RESULTS_GAME = "2022060100gm-00a9-0000-6db179be.xml"


def test_the_top_result_follows_the_rules_formula_when_the_game_started_otherwise() -> None:
    # EMA: (score - 30000) / 1000 + uma +15/+5/-5/-15, no oka, whatever the points the
    # (Tenhou) game started with: the top is 7.9 + 15, not the rest of the others.
    findings = _audit(RESULTS_GAME, **_preset_changes("ema"))
    results = {
        f.seat: f.expected
        for f in findings
        if f.code == "final-score-mismatch" and "result" in f.message
    }
    assert results == {0: -14.0, 1: -39.6, 2: 10.7, 3: 22.9}


# An East game (GO type 0x41) that Tenhou extends into South: under rules with no
# extension it ends after E4, and what the log then does in South follows from that.
EXTENDED_GAME = "2014050315gm-0041-0000-7ddece8e.xml"


def test_a_game_played_on_past_its_end_is_one_root() -> None:
    findings = _audit(EXTENDED_GAME, **_preset_changes("worldatplay"))
    ends = [(i, f) for i, f in enumerate(findings) if f.code == "game-end-mismatch"]
    assert len(ends) == 2
    (first, root), (_, later) = ends
    assert "the log plays on into S1-0" in root.message and root.cause is None
    assert later.cause == first


# E2-1: seat 0's yakuman ron off seat 1 at 1 honba, seat 2 liable (pao): the log
# splits it, seat 1 -16000 and seat 2 -16300 (Tenhou: the liable seat pays the honba).
PAO_GAME = "2010060416gm-0061-0000-2d91fbe3.xml"


def test_rules_without_liability_settle_the_win_without_it() -> None:
    found = _errors(_audit(PAO_GAME, pao_yakuman=()), "E2-1")
    pao = next(f for _, f in found if f.code == "pao-mismatch")
    assert pao.message.endswith("log names seat 2 liable (pao), but these rules have no liability")
    root = next(i for i, f in found if f is pao)
    payments = {f.seat: (f.expected, f.actual) for _, f in found if f.code == "payment-mismatch"}
    assert payments == {1: (-32300, -16000), 2: (0, -16300)}
    assert all(f.cause == root for _, f in found if f.code == "payment-mismatch")


def test_a_settlement_paid_otherwise_is_one_root_per_hand() -> None:
    # No honba (mu): each payment of a hand played at 1 honba or more differs, one
    # settlement: its first payment finding is the root, the others follow it.
    # E4-1 of this game: a ron at 1 honba (-1300 / +2300 in the log).
    found = _errors(_audit("2009071823gm-0041-0000-ff3a2214.xml", honba_ron=0), "E4-1")
    assert [f.code for _, f in found] == ["payment-mismatch", "payment-mismatch"]
    (first, root), (_, other) = found
    assert root.cause is None and other.cause == first
    # An exhaustive draw with another noten pool: one root, the payments that follow.
    findings = _audit("2009071823gm-0041-0000-ff3a2214.xml", noten_pool=1000)
    draws = {f.round for f in findings if "exhaustive draw" in f.message}
    assert draws
    for label in draws:
        roots = [f for _, f in _errors(findings, label) if f.cause is None]
        assert len(roots) == 1, (label, [f.message for f in roots])


def test_the_report_names_no_liable_player_under_rules_without_liability() -> None:
    from reports.views import build_game_view
    from reports.views_facts import collect_game

    log = load(str(corpus_file(PAO_GAME)))
    rules = replace(resolve_rules(log, "auto"), pao_yakuman=frozenset())
    view = build_game_view(collect_game(log, rules))
    (k,) = [k for k, row in enumerate(view.rounds_table) if row.label == "E2-1"]
    (win,) = view.rounds[k].wins
    assert win.liable == ""  # the audit settled the win without a liable player
