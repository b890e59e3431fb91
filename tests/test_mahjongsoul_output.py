"""``mjaudit audit --format json`` and ``mjaudit replay`` on Mahjong Soul records.

A finding about a record names the record's own position: ``action 11
<RecordDiscardTile>`` (the index in a GameDetailRecords' ``actions``, every action
type counted) or ``record 9 <RecordDiscardTile>`` (the index in ``records``). The
replay of a 3-player record shows three seats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reports.cli import main
from tests.ms_records import MS

GDR_4P = MS / "raw-gdr" / "mahjongsoul_paifu_231214-df604b7c-fc99-425c-8a3c-5ad0bed89a65.json"
GDR_3P = (
    MS
    / "raw-gdr"
    / ("sanma_ikkyokusen_mahjongsoul_paifu_231215-a5d87184-f612-4c5e-a31c-72dbae44aaf8.txt")
)


def _doc(path: Path) -> Any:
    if not path.exists():
        pytest.skip("corpus not available")
    return json.loads(path.read_text(encoding="utf-8-sig"))


def _records(doc: Any) -> list[tuple[int, str, dict[str, Any]]]:
    """(position, record name, data) of each game record of either layout."""
    if "records" in doc:
        return [(k, r["name"], r["data"]) for k, r in enumerate(doc["records"])]
    actions = doc["data"]["data"]["actions"]
    return [
        (k, a["result"]["name"].removeprefix(".lq."), a["result"]["data"])
        for k, a in enumerate(actions)
        if a.get("type") == 1
    ]


def _audit_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    args = ["audit", "--format", "json", "--rules", "mahjongsoul", "--fail-on", "never"]
    assert main([*args, str(path)]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _first_discard(doc: Any, seat: int) -> tuple[int, dict[str, Any]]:
    return next(
        (k, rec)
        for k, name, rec in _records(doc)
        if name == "RecordDiscardTile" and rec.get("seat", 0) == seat
    )


@pytest.mark.corpus
def test_a_discarded_tile_not_held_names_the_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _doc(GDR_4P)
    k, rec = _first_discard(doc, 2)
    held = rec["tile"]
    rec["tile"] = "5z"  # seat 2 holds no white dragon in E1-0
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    out = _audit_json(path, capsys)
    bad = [f for f in out["findings"] if f["code"] == "inconsistent-log"]
    assert len(bad) == 1
    assert bad[0]["round"] == "E1-0"
    assert bad[0]["message"].startswith(
        f"E1-0: the log cannot be replayed at action {k} <RecordDiscardTile>: seat 2 discards 5z"
    )
    assert held != "5z"
    assert doc["data"]["data"]["actions"][k]["type"] == 1
    assert out["files"][0]["format"] == "mahjongsoul"


@pytest.mark.corpus
def test_a_record_position_in_the_older_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same edit in a records[] layout: the position is the index in records.
    doc = _doc(GDR_4P)
    records = [{"name": name, "data": rec} for _, name, rec in _records(doc)]
    older = {"meta": doc["head"], "records": records}
    k, rec = _first_discard(older, 2)
    rec["tile"] = "5z"
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older, ensure_ascii=False), encoding="utf-8")
    out = _audit_json(path, capsys)
    bad = [f for f in out["findings"] if f["code"] == "inconsistent-log"]
    assert [f["message"].split(": ")[1] for f in bad] == [
        f"the log cannot be replayed at record {k} <RecordDiscardTile>"
    ]


@pytest.mark.corpus
def test_replay_of_a_three_player_record_has_three_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _doc(GDR_3P)
    human = doc["head"]["accounts"][0]
    assert main(["replay", str(GDR_3P)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("E1-0  dealer AI")
    assert lines[1] == "scores 35000 35000 35000"
    seats = [line.split(":")[0].strip() for line in lines[2:5]]
    wind = "ESW"[human.get("seat", 0)]
    assert seats == [f"{w} {human['nickname'] if w == wind else 'AI'}" for w in "ESW"]
    assert not lines[5].startswith("  N ")
    assert any("calls kita:4z" in line for line in lines)
