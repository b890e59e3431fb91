"""Tampered copies of real Tenhou JSON and mjai logs: one wrong number, one finding.

Each edit changes one number the log records in a clean real game; the audit must
give one error for it, of the right code, with the recorded and the recomputed
values (later findings that follow from it name it as their cause).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from mjaudit.findings import Finding, Severity
from parsers import load_bytes
from tests.conftest import CORPUS

JSON_GAME = "tenhou-json/full-game/2019021004gm-00a9-0000-e2f6516d.json"
GIMITE = "mjai/gimite-server/mjai-manue-go_selfmatch_2025-08-23-085608.jsonl"
DOUBLE_RON = "mjai/gimite-server/mjai-manue-go_selfmatch_2025-09-12-153331.jsonl"
ARCHIVE = "mjai/converted-from-tenhou/gimite-tenhouarchive/tenhou_encdec-nine-gates.jsonl"
AKOCHAN = "mjai/akochan/akochan_match_result_haifu_log_1000_0.jsonl"


def _text(name: str) -> str:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path} (CI has ../shared beside the repo)")
    return path.read_text(encoding="utf-8")


def _errors(text: str, name: str) -> list[Finding]:
    log = load_bytes(text.encode(), name)
    found = audit_log(log, resolve_rules(log, "auto"), review=False).findings
    return [f for f in found if f.severity is Severity.ERROR]


def _one(text: str, name: str) -> Finding:
    errors = _errors(text, name)
    assert len(errors) == 1, [(f.code, f.message) for f in errors]
    return errors[0]


def _edit_line(text: str, number: int, edit: Any) -> str:
    """``text`` with its line ``number`` (1-based, a JSON event) edited in place."""
    lines = text.splitlines()
    event = json.loads(lines[number - 1])
    edit(event)
    lines[number - 1] = json.dumps(event, ensure_ascii=False)
    return "\n".join(lines) + "\n"


def _line_of(text: str, event_type: str, pred: Any = lambda e: True) -> int:
    for k, line in enumerate(text.splitlines(), 1):
        event = json.loads(line)
        if event.get("type") == event_type and pred(event):
            return k
    raise AssertionError(f"no {event_type} event")


def test_the_untampered_logs_are_clean() -> None:
    for name in (JSON_GAME, GIMITE, DOUBLE_RON, ARCHIVE, AKOCHAN):
        assert _errors(_text(name), Path(name).name) == [], name


def test_tenhou_json_han_total_in_the_score_string() -> None:
    # The score string's han (30符1飜) was never compared: a 2 there passed clean.
    text = _text(JSON_GAME)
    assert text.count("30符1飜1500点") == 1
    found = _one(text.replace("30符1飜1500点", "30符2飜1500点"), "game.json")
    assert (found.code, found.expected, found.actual) == ("han-mismatch", 1, 2)
    assert "log says 2 han, recomputed 1 han" in found.message


def test_tenhou_json_one_yaku_han_names_the_list_total() -> None:
    # A yaku's han was named with the log's own total beside it ("8 han in all" was
    # right for the list, but with mjai it read "1 han in all, recomputed 1").
    text = _text(JSON_GAME)
    k = text.index('"立直(1飜)"')
    found = _one(text[:k] + '"立直(2飜)"' + text[k + len('"立直(1飜)"') :], "game.json")
    assert found.code == "han-mismatch"
    assert isinstance(found.expected, int) and found.actual == found.expected + 1
    assert f"{found.actual} han in all, recomputed {found.expected}" in found.message


def test_mjai_one_yaku_fan_is_the_list_total_not_the_fan_field() -> None:
    text = _text(GIMITE)
    line = _line_of(text, "hora", lambda e: e.get("yakus") == [["tanyaochu", 1]])

    def double(event: dict[str, Any]) -> None:
        event["yakus"] = [["tanyaochu", 2]]

    found = _one(_edit_line(text, line, double), "gimite.jsonl")
    assert (found.code, found.expected, found.actual) == ("han-mismatch", 1, 2)
    assert "log gives tanyao 2 han (recomputed 1): 2 han in all, recomputed 1" in found.message


def test_mjai_riichi_stick_deltas() -> None:
    # reach_accepted's deltas were read past: [0, 0, 0, 0] passed clean.
    text = _text(GIMITE)
    line = _line_of(text, "reach_accepted", lambda e: "deltas" in e)

    def free(event: dict[str, Any]) -> None:
        event["deltas"] = [0, 0, 0, 0]

    found = _one(_edit_line(text, line, free), "gimite.jsonl")
    assert found.code == "score-chain-mismatch"
    assert found.actual == [0, 0, 0, 0] and -1000 in found.expected  # type: ignore[operator]


def test_mjai_sangenpai_fan_the_hand_does_not_have() -> None:
    # Two fan of sangenpai with one dragon triplet dropped the yaku claim: clean.
    text = _text(GIMITE)
    line = _line_of(text, "hora", lambda e: ["sangenpai", 1] in e.get("yakus", []))

    def more(event: dict[str, Any]) -> None:
        event["yakus"] = [["sangenpai", 2] if y == ["sangenpai", 1] else y for y in event["yakus"]]

    found = _one(_edit_line(text, line, more), "gimite.jsonl")
    assert found.code == "han-mismatch" and found.actual == found.expected + 1  # type: ignore[operator]


@pytest.mark.parametrize(
    ("name", "event_type"),
    [(GIMITE, "hora"), (DOUBLE_RON, "hora"), (ARCHIVE, "hora"), (AKOCHAN, "hora"),
     (GIMITE, "ryukyoku")],
)  # fmt: skip
def test_mjai_scores_after_a_result(name: str, event_type: str) -> None:
    # A hora's or ryukyoku's scores were only the next hand's basis: the last hand's,
    # the first of a double ron's and akochan's (whose next start has its own) were
    # never compared.
    text = _text(name)
    lines = [
        k
        for k, line in enumerate(text.splitlines(), 1)
        if json.loads(line).get("type") == event_type and "scores" in json.loads(line)
    ]
    line = lines[-1]

    def shift(event: dict[str, Any]) -> None:
        event["scores"][0] += 1000

    found = _one(_edit_line(text, line, shift), Path(name).name)
    assert found.code == "score-chain-mismatch"
    assert "the result shows scores after settlement" in found.message
    actual, expected = found.actual, found.expected
    assert isinstance(actual, list) and isinstance(expected, list)
    assert actual[0] == cast(int, expected[0]) + 1000


def test_tenhou_json_ron_off_another_seat_is_that_hand_only() -> None:
    # A ron's "from" changed made the whole file unreadable ("seat 1 rons seat 2, but
    # the last action is seat 0's discard"); as in an mjlog, it is that hand's
    # inconsistent-log and the other hands are audited.
    doc = json.loads(_text(JSON_GAME))
    result = doc["log"][-1][-1]
    assert result[0] == "和了" and result[2][0] != result[2][1]
    result[2][1] = next(s for s in range(4) if s not in (result[2][0], result[2][1]))
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "game.json")
    audit = audit_log(log, resolve_rules(log, "auto"), review=False)
    errors = [f for f in audit.findings if f.severity is Severity.ERROR]
    assert [(f.code, f.round) for f in errors] == [("inconsistent-log", "S4-0")]
    assert audit.rounds == len(doc["log"])


# -- Mahjong Soul records ---------------------------------------------------------------

MS_GDR = "mahjongsoul/raw-gdr/mahjongsoul_paifu_230921-0a39a19b-4820-4b40-9fda-dd5481d023e4.txt"
MS_AI = "mahjongsoul/raw-gdr/mahjongsoul_paifu_231214-df604b7c-fc99-425c-8a3c-5ad0bed89a65.json"


def _ms_records(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of a record file as the client saves it, to be edited in place."""
    actions = doc["data"]["data"]["actions"]
    return [a["result"]["data"] for a in actions if a["type"] == 1]


def _ms_audit(name: str, edit: Any) -> FileAudit:
    doc = json.loads(_text(name))
    edit(_ms_records(doc))
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), Path(name).name)
    return audit_log(log, resolve_rules(log, "auto"), review=False)


def _root(audit: FileAudit) -> tuple[Finding, list[Finding]]:
    """The one error that names no cause, and the others (each naming an earlier one)."""
    for k, f in enumerate(audit.findings):
        assert f.cause is None or f.cause < k, (k, f.code, f.cause)
    errors = [f for f in audit.findings if f.severity is Severity.ERROR]
    roots = [f for f in errors if f.cause is None]
    assert len(roots) == 1, [(f.code, f.message, f.cause) for f in errors]
    return roots[0], [f for f in errors if f.cause is not None]


def test_mahjong_soul_clean_records() -> None:
    for name in (MS_GDR, MS_AI):
        assert _errors(_text(name), Path(name).name) == [], name


def test_mahjong_soul_a_hands_first_indicator_changed() -> None:
    # A later record's indicators did not extend the changed one: the whole file was
    # unreadable ("do not extend the ones shown before"). Now the wall's finding, and
    # what the win made of the indicator names it.
    def edit(records: list[dict[str, Any]]) -> None:
        k = next(k for k, r in enumerate(records) if r.get("doras") == ["9p"] and "tiles0" in r)
        records[k]["doras"] = ["1p"]

    root, rest = _root(_ms_audit(MS_GDR, edit))
    assert root.code == "wall-mismatch" and "record 1p, wall 9p" in root.message
    assert {f.code for f in rest} >= {"dora-indicator-mismatch", "payment-mismatch"}


def test_mahjong_soul_a_liable_seat_the_calls_do_not_make() -> None:
    # The payments, settled with the log's liable seat, were errors of their own.
    def edit(records: list[dict[str, Any]]) -> None:
        k = next(k for k, r in enumerate(records) if "hules" in r)
        # baopai counts seats from 1 (0: nobody): the seat after the winner's.
        records[k]["hules"][0]["baopai"] = (records[k]["hules"][0]["seat"] + 1) % 4 + 1

    root, rest = _root(_ms_audit(MS_AI, edit))
    assert root.code == "pao-mismatch"
    assert {f.code for f in rest} == {"payment-mismatch"}


def test_mahjong_soul_a_drawn_tile_not_the_walls() -> None:
    # The replay's failure that follows (a discard of a tile not held) named no cause.
    def edit(records: list[dict[str, Any]]) -> None:
        k = next(
            k
            for k, r in enumerate(records)
            if "tile" in r and "seat" in r and "is_liqi" not in r and "moqie" not in r
            and r.get("tile") != "5z"
        )  # fmt: skip
        records[k]["tile"] = "5z" if records[k]["tile"] != "5z" else "6z"

    root, rest = _root(_ms_audit(MS_GDR, edit))
    assert root.code == "wall-mismatch"
    assert [f.code for f in rest] in ([], ["inconsistent-log"])


def test_mahjong_soul_honba_on_the_games_first_hand() -> None:
    # Paid with that honba, with no finding naming the hand's start.
    def edit(records: list[dict[str, Any]]) -> None:
        records[0]["ben"] = 1

    root, rest = _root(_ms_audit(MS_AI, edit))
    assert root.code == "score-chain-mismatch"
    assert "the game's first hand should be E1-0 with no sticks" in root.message
    assert {f.code for f in rest} <= {"payment-mismatch", "score-chain-mismatch"}


MS_RECORDS = "mahjongsoul/raw-records/220419-c7d0fa72-9b5b-4669-8653-82bdc19d3f53.json"


def test_mahjong_soul_a_riichi_flag_on_a_discard_never_accepted() -> None:
    # Each later discard of the seat was one more "declares riichi discarding ..."
    # (5 to 8 findings): the declaration lapses once its discard has gone by.
    doc = json.loads(_text(MS_RECORDS))
    records = [r["data"] for r in doc["records"]]
    k = next(
        k
        for k, r in enumerate(records)
        if set(r) == {"seat", "tile", "zhenting"} and r["seat"] == 2 and k > 230
    )
    records[k]["isLiqi"] = True
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "records.json")
    audit = audit_log(log, resolve_rules(log, "auto"), review=False)
    errors = [f for f in audit.findings if f.severity is Severity.ERROR]
    # One declaration, one finding naming both things wrong with it.
    assert [f.code for f in errors] == ["illegal-riichi"], [f.message for f in errors]
    assert "with an open hand" in errors[0].message and "not tenpai" in errors[0].message


def test_mahjong_soul_sticks_on_a_hand_that_ends_in_a_draw() -> None:
    # The next hand "should be E4-1 with 0 sticks, the log starts E4-1 with 1": a
    # second break for one number (the sticks a draw leaves were the log's).
    doc = json.loads(_text(MS_RECORDS))
    records = [r["data"] for r in doc["records"]]
    records[287]["liqibang"] = 1
    assert records[287].get("ju") == 3 and "tiles0" in records[287]
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "records.json")
    audit = audit_log(log, resolve_rules(log, "auto"), review=False)
    errors = [f for f in audit.findings if f.severity is Severity.ERROR]
    assert [(f.code, f.round) for f in errors] == [("score-chain-mismatch", "E4-0")]


def test_mahjong_soul_the_scores_after_a_win() -> None:
    # A RecordHule's scores after the settlement were read by nothing.
    def edit(records: list[dict[str, Any]]) -> None:
        k = next(k for k, r in enumerate(records) if "hules" in r and "scores" in r)
        records[k]["scores"][0] += 1000

    root, rest = _root(_ms_audit(MS_GDR, edit))
    assert root.code == "score-chain-mismatch" and rest == []
    assert "the result shows scores after settlement" in root.message


def test_mahjong_soul_a_first_hand_off_the_stated_starting_points() -> None:
    # A room that states its starting points (detail_rule init_point) but whose other
    # rules are assumed: the blame fell on the first later claim, which was right.
    assert '"init_point"' in _text(MS_AI) or '"initPoint"' in _text(MS_AI)

    def edit(records: list[dict[str, Any]]) -> None:
        records[0]["scores"] = [25000, 26000, 25000, 25000]

    root, _ = _root(_ms_audit(MS_AI, edit))
    assert root.code == "score-chain-mismatch" and root.round == "E1-0"
    assert "the game starts with scores [25000, 26000, 25000, 25000]" in root.message


def test_mahjong_soul_an_abortive_draw_of_another_kind() -> None:
    # Nine terminals (declared holding 14 tiles) recorded as four winds: the hand
    # was an inconsistent-log ("holds 14 tiles ... at the suufon-renda draw"), not
    # the draw-mismatch it is.
    doc = json.loads(_text(MS_RECORDS))
    records = [r["data"] for r in doc["records"]]
    assert records[288].get("type") == 1  # kyuushu kyuuhai
    records[288]["type"] = 2
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "records.json")
    audit = audit_log(log, resolve_rules(log, "auto"), review=False)
    errors = [f for f in audit.findings if f.severity is Severity.ERROR]
    assert [f.code for f in errors] == ["draw-mismatch"]
    assert errors[0].message.startswith("E4-0: four winds draw")


def test_honba_on_a_whole_games_first_hand() -> None:
    # The server converter's Tenhou JSON records a game from its first hand: honba
    # there made each payment an error of its own, naming nothing.
    doc = json.loads(_text(JSON_GAME))
    doc["log"][0][0][1] = 1
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "game.json")
    audit = audit_log(log, resolve_rules(log, "auto"), review=False)
    root, _ = _root(audit)
    assert root.code == "score-chain-mismatch"
    assert "the game's first hand should be E1-0 with no sticks" in root.message


def test_tenhou_json_a_dora_indicator_the_win_is_scored_with() -> None:
    # No wall in Tenhou JSON to judge the indicator by: the win is recomputed with it,
    # and its points, limit and each payment were errors of their own beside the
    # yaku's. They follow the yaku's finding now.
    name = "tenhou-json/full-game/2019050417gm-0029-0000-4f2a8622.json"
    doc = json.loads(_text(name))
    kyoku = next(k for k in doc["log"] if k[0] == [1, 1, 0])
    kyoku[2][0] = 27
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), "game.json")
    root, rest = _root(audit_log(log, resolve_rules(log, "auto"), review=False))
    assert root.code == "yaku-mismatch" and "dora" in root.message
    assert {f.code for f in rest} == {"points-mismatch", "limit-mismatch", "payment-mismatch"}
