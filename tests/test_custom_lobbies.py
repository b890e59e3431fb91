"""Tenhou's custom-rule lobbies (csrule) and Tenhou JSON files without a date or lobby.

Every case is a real log edited at test time: a csrule whose uma fields are empty,
a csrule flag the decoder does not know, and a tenhou.net/6 file that names neither
its log id nor its lobby (issue 17, item 6).
"""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.checks.audit import FileAudit, audit_path
from mjaudit.findings import Finding, Severity
from parsers import load
from parsers.convert import convert_log
from tests.conftest import corpus_file

# The csrule of the two custom-rule logs, its uma triples (fields 21..35) left empty.
CSRULE_NO_UMA = "0FE0BF0B,0000001F,,,30000,30000,30000" + "," * 14 + "," * 15 + ",,,,"
FABC0 = "Cherrling-mjlog2mjai_fabc0.xml"


def _errors(audit: FileAudit) -> list[Finding]:
    assert audit.error is None, audit.error
    return [f for f in audit.findings if f.severity is Severity.ERROR]


def _warnings(audit: FileAudit, code: str) -> list[Finding]:
    return [f for f in audit.findings if f.severity is Severity.WARNING and f.code == code]


def _edited(tmp_path: Path, name: str, old: str, new: str, out: str) -> Path:
    text = corpus_file(name).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / out
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_csrule_without_uma_takes_tenhous_default_uma(tmp_path: Path) -> None:
    # The real chip lobby's results are exactly its default uma (+30/+10/-10/-30) in
    # whole points; with a csrule that leaves the uma empty they still are.
    path = _edited(
        tmp_path,
        "dnovikoff-tenhou_chip.xml",
        '<GO type="553" lobby="0"/>',
        f'<GO type="553" lobby="0" csrule="{CSRULE_NO_UMA}"/>',
        "chip-csrule.xml",
    )
    audit = audit_path(str(path))
    assert _errors(audit) == []
    assert [f for f in audit.findings if f.code == "final-score-mismatch"] == []


def test_csrule_without_uma_still_judges_the_results(tmp_path: Path) -> None:
    # The default uma is a verdict, not a guess: a result off by 1.0 is an error.
    path = _edited(
        tmp_path,
        "dnovikoff-tenhou_chip.xml",
        '<GO type="553" lobby="0"/>',
        f'<GO type="553" lobby="0" csrule="{CSRULE_NO_UMA}"/>',
        "chip-csrule-wrong.xml",
    )
    text = path.read_text(encoding="utf-8").replace(
        'owari="300,10.0,448,64.0,45,-55.0,207,-19.0', 'owari="300,11.0,448,63.0,45,-55.0,207,-19.0'
    )
    path.write_text(text, encoding="utf-8")
    found = [(f.code, f.seat, f.expected, f.actual) for f in _errors(audit_path(str(path)))]
    assert found == [
        ("final-score-mismatch", 0, 10.0, 11.0),
        ("final-score-mismatch", 1, 64.0, 63.0),
    ]


def test_csrule_with_uma_is_read_as_before() -> None:
    audit = audit_path(str(corpus_file(FABC0)))
    assert _errors(audit) == []
    assert not any("custom rule not decoded" in f.message for f in audit.findings)


def _deal_passes(tmp_path: Path, csrule_flags: str, out: str) -> Path:
    # E1-0: the dealer (seat 0) wins; the log then goes on to E2-1 instead of E1-1, as
    # a lobby where the deal passes after a dealer win would.
    text = corpus_file(FABC0).read_text(encoding="utf-8")
    text = text.replace('<INIT seed="0,1,0,4,5,124"', '<INIT seed="1,1,0,4,5,124"')
    text = text.replace("0FE0BF0B,0000001F", csrule_flags)
    path = tmp_path / out
    path.write_text(text, encoding="utf-8")
    return path


def test_deal_passing_in_a_decoded_lobby_is_an_error(tmp_path: Path) -> None:
    # One wrong label, one finding: the next hand (E2-0) follows the chain's reading
    # of it (E1-1), and is no second break.
    audit = audit_path(str(_deal_passes(tmp_path, "0FE0BF0B,0000001F", "known.xml")))
    assert [(f.code, f.round, f.expected) for f in _errors(audit)] == [
        ("score-chain-mismatch", "E2-1", [0, 1, 0]),
    ]


def test_an_undecoded_custom_rule_is_a_warning_and_its_chain_findings_too(
    tmp_path: Path,
) -> None:
    audit = audit_path(str(_deal_passes(tmp_path, "0FE0BF0B,0000003F", "custom.xml")))
    assert _errors(audit) == []
    notes = [f.message for f in _warnings(audit, "rules-assumed")]
    assert any(
        "custom rule not decoded (csrule flags 0FE0BF0B,0000003F (decoded: 0FE0BF0B,0000001F))" in m
        for m in notes
    ), notes
    chain = _warnings(audit, "score-chain-mismatch")
    assert [(f.round, f.expected) for f in chain] == [("E2-1", [0, 1, 0])]
    assert all(f.message.endswith("(custom rule not decoded)") for f in chain)


def test_an_undecoded_custom_rule_still_judges_the_scores(tmp_path: Path) -> None:
    path = _deal_passes(tmp_path, "0FE0BF0B,0000003F", "custom-scores.xml")
    text = path.read_text(encoding="utf-8").replace(
        'sc="290,68,300,-58,300,0,300,0"', 'sc="290,68,300,-48,300,0,300,-10"'
    )
    path.write_text(text, encoding="utf-8")
    codes = {f.code for f in _errors(audit_path(str(path)))}
    assert "payment-mismatch" in codes


def _houou_json(tmp_path: Path, keep_lobby: bool) -> Path:
    """A 2023 mjlog saved under a name that is no log id, converted to tenhou.net/6."""
    mjlog = tmp_path / "houou.mjlog.xml"
    mjlog.write_bytes(corpus_file("2023053016gm-0029-0000-e54b3b98.xml").read_bytes())
    doc = json.loads(convert_log(load(str(mjlog)), "tenhou-json"))
    if not keep_lobby:
        doc.pop("lobby", None)
    out = tmp_path / "houou.json"
    out.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return out


def test_convert_keeps_the_lobby_so_the_output_audits_like_its_input(tmp_path: Path) -> None:
    path = _houou_json(tmp_path, keep_lobby=True)
    assert json.loads(path.read_text(encoding="utf-8"))["lobby"] == 0
    mjlog = tmp_path / "houou.mjlog.xml"
    source, converted = audit_path(str(mjlog)), audit_path(str(path))
    assert _errors(converted) == _errors(source) == []
    assert [f.code for f in converted.findings] == [f.code for f in source.findings]


def test_convert_keeps_the_log_id_as_ref(tmp_path: Path) -> None:
    name = "2023053016gm-0029-0000-e54b3b98"
    doc = json.loads(convert_log(load(str(corpus_file(f"{name}.xml"))), "tenhou-json"))
    assert (doc["ref"], doc["lobby"]) == (name, 0)


def test_undated_json_without_lobby_is_a_warning_naming_the_era(tmp_path: Path) -> None:
    audit = audit_path(str(_houou_json(tmp_path, keep_lobby=False)))
    assert _errors(audit) == []
    notes = _warnings(audit, "rules-assumed")
    assert [f.message for f in notes] == [
        "game end: the file names no date or lobby; the results fit uma +20/+10/-10/-20, "
        "return 30000, oka +20, exact to 0.1 (assumed: no date or lobby in the file)"
    ]


def test_undated_json_whose_results_fit_no_era_is_an_error(tmp_path: Path) -> None:
    path = _houou_json(tmp_path, keep_lobby=False)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["sc"][1] = round(doc["sc"][1] + 0.5, 1)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    errors = _errors(audit_path(str(path)))
    assert [(f.code, f.seat) for f in errors] == [("final-score-mismatch", 0)]
