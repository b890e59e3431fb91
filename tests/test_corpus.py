"""The whole real-log corpus: the totals and zero error findings (runs in CI)."""

from __future__ import annotations

import json

import pytest

from reports.cli import main
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
    # The checks really ran: every round replayed, every win re-scored and its
    # indicators compared, every seat's delta of every win and draw compared, every
    # draw and every game end checked.
    checks = t["checks"]
    assert checks["rounds_replayed"] == 3114
    assert checks["dora_indicators_checked"] == 2639
    assert checks["wins_scored"] == 2639
    assert checks["draws_checked"] == 501
    assert checks["deltas_compared"] == 4 * (2639 + 501)
    assert checks["game_ends_checked"] == 332
    assert checks["wall_checked_rounds"] == 3114  # every hand rebuilt from its seed
    assert checks["chain_values_compared"] > 30000
    warnings = [f for f in doc["findings"] if f["severity"] == "warning"]
    assert {f["code"] for f in warnings} <= {"rules-assumed"}
    # Only the special and private lobbies need an assumption, and each says which.
    assumed = {f["path"].rsplit("/", 1)[-1] for f in warnings}
    assert all(
        n.startswith(("dnovikoff-tenhou_", "Cherrling", "2019020120gm-0009-10011")) for n in assumed
    )


@pytest.mark.corpus
def test_mahjongsoul_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    """Mahjong Soul's records and converter files: all read, under its own presets.

    The one error is the converter file's own fault (LiYounian_riichi_sengen_ron.json
    E4-0: the winner is paid a riichi stick that was never on the table; the file's
    own final scores follow the payment without it; docs/formats.md).
    """
    folder = TENHOU_XML.parent / "mahjongsoul"
    if not folder.is_dir():
        pytest.skip(f"corpus not available at {folder}")
    code = main(["audit", "--format", "json", "-j", "2", str(folder)])
    doc = json.loads(capsys.readouterr().out)
    t = doc["totals"]
    assert (t["files"], t["games"], t["rounds"], t["wins"], t["draws"], t["unreadable"]) == (
        35,
        35,
        236,
        218,
        19,
        0,
    )
    errors = [
        (f["path"].rsplit("/", 1)[-1], f["round"], f["code"])
        for f in doc["findings"]
        if f["severity"] == "error"
    ]
    assert errors == [("LiYounian_riichi_sengen_ron.json", "E4-0", "payment-mismatch")]
    assert code == 1
    checks = t["checks"]
    assert checks["rounds_replayed"] == 236
    assert checks["wins_scored"] == 218
    assert checks["draws_checked"] == 19
    assert checks["deltas_compared"] == 4 * (218 + 19)
    assert checks["game_ends_checked"] == 35
    assert checks["wall_checked_rounds"] == 194  # every RecordNewRound carries its wall
    assert checks["chain_values_compared"] > 2000
    # Every game is audited under a Mahjong Soul preset.
    assert {f["rules"] for f in doc["files"]} == {"mahjongsoul", "mahjongsoul-sanma"}
    # Only the rooms that set their own rules need an assumption, and each says which.
    warnings = [f for f in doc["findings"] if f["severity"] == "warning"]
    assert {f["code"] for f in warnings} == {"rules-assumed"}
    assert all("Mahjong Soul" in f["message"] or "assumed" in f["message"] for f in warnings)
