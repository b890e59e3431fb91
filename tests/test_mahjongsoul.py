"""Mahjong Soul's own records: both layouts, protobuf defaults, and tampered copies.

The corpus files (../shared/corpus/mahjongsoul, SOURCES.md) are read as they are, then
edited in memory: each edit must add exactly the finding it deserves to what the
untouched record gives.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import FileAudit, audit_log, audit_path, resolve_rules
from mjaudit.errors import LogFormatError
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    GameLog,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import MeldKind
from parsers.mahjongsoul import parse_mahjongsoul
from parsers.sources import load_bytes
from reports.cli import main
from tests.ms_records import GDR_3P, GDR_4P, ms_doc, ms_path, ms_records, raw_files

REC_4P = "raw-records/220420-4b5f75bc-d0eb-469a-b34c-bb082c014444.json"  # a double ron
REC_3P = "raw-records/220507-5375d110-e849-4f69-aa6d-838f813a81da.json"  # kita, kans
REC_LIUJU = "raw-records/220419-c7d0fa72-9b5b-4669-8653-82bdc19d3f53.json"  # nine terminals


def _audit(doc: Any, name: str = "tampered.json") -> FileAudit:
    log = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), name)
    return audit_log(log, resolve_rules(log, "auto"))


def _errors(result: FileAudit) -> Counter[tuple[str, str | None]]:
    return Counter((f.code, f.round) for f in result.findings if f.severity.value == "error")


def _added(name: str, edit: Any) -> Counter[tuple[str, str | None]]:
    """The error findings an edit adds to what the untouched record gives."""
    doc = ms_doc(name)
    before = _errors(_audit(doc))
    changed = copy.deepcopy(doc)
    edit(ms_records(changed))
    return _errors(_audit(changed)) - before


# -- reading --------------------------------------------------------------------------


def test_every_raw_record_is_read_with_its_rounds() -> None:
    """Each of the 30 raw records parses; rounds, wins and draws as the records hold them."""
    totals: Counter[str] = Counter()
    for path in raw_files():
        log = load_bytes(path.read_bytes(), str(path))
        assert log.format == "mahjongsoul"
        hint = log.start.rules_hint
        assert hint.platform == "mahjongsoul" and hint.source == "mahjongsoul"
        doc = json.loads(path.read_text(encoding="utf-8"))
        names = Counter(n for n, _ in ms_records(doc))
        events = Counter(type(e).__name__ for e in log.events)
        assert events["RoundStart"] == names["RecordNewRound"]
        assert events["RoundDraw"] == names["RecordNoTile"] + names["RecordLiuJu"]
        wins = sum(len(d["hules"]) for n, d in ms_records(doc) if n == "RecordHule")
        assert events["Win"] == wins
        kita = sum(
            1 for e in log.events if isinstance(e, DeclareMeld) and e.meld.kind is MeldKind.KITA
        )
        assert kita == names["RecordBaBei"]
        totals["games"] += 1
        totals["rounds"] += events["RoundStart"]
        totals["wins"] += wins
        totals[f"{hint.players}p"] += 1
    assert totals == Counter(games=30, rounds=194, wins=179, **{"4p": 23, "3p": 7})


def test_gdr_head_gives_players_ranks_and_room() -> None:
    log = load_bytes(ms_path(GDR_4P).read_bytes(), GDR_4P)
    start = log.start
    assert [p.name for p in start.players] == ["いちご畑", "ryoーta", "timpoにゃ", "ろく6"]
    assert [p.dan for p in start.players] == ["Master 3", "Saint 2", "Master 2", "Master 2"]
    assert start.players[0].rate == 1026.0
    hint = start.rules_hint
    assert (hint.category, hint.room, hint.hanchan, hint.players) == ("ranked", "jade", True, 4)
    assert "Jade Room South" in hint.description
    assert start.game_id == "230921-0a39a19b-4820-4b40-9fda-dd5481d023e4"


def test_game_against_the_ai_and_three_players_pad_to_four_seats() -> None:
    log = load_bytes(ms_path(GDR_3P).read_bytes(), GDR_3P)
    start = log.start
    assert start.rules_hint.category == "ai"
    assert [p.name for p in start.players] == ["電なのです", "AI", "AI", ""]
    assert ("init_point", "35000") in start.rules_hint.stated_rules
    first = next(e for e in log.events if isinstance(e, RoundStart))
    assert len(first.scores) == 4 and first.scores[3] == 0 and first.hands[3] == ()
    assert first.wall_hash is not None and first.wall_hash[0] == "sha256"
    assert first.wall_text is not None and len(first.wall_text) == 2 * 108


def test_camel_case_records_and_snake_case_actions_give_the_same_events() -> None:
    """The older {meta, records} layout in camelCase reads like the GDR one."""
    doc = ms_doc(GDR_4P)

    def camel(value: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                head, *rest = k.split("_")
                out[head + "".join(p.title() for p in rest)] = camel(v)
            return out
        if isinstance(value, list):
            return [camel(v) for v in value]
        return value

    older = {
        "meta": camel(doc["head"]),
        "records": [{"name": n, "data": camel(d)} for n, d in ms_records(doc)],
    }
    a = load_bytes(json.dumps(doc).encode(), "a.json")
    b = load_bytes(json.dumps(older).encode(), "b.json")
    assert _plain(a) == _plain(b)


def test_camel_case_fields_the_reader_never_reads_are_kept_as_they_are() -> None:
    """A camelCase record's renamed copy keeps what a seat was offered and the waits the
    client showed as the very values read (no copy made), whatever they hold; every
    other nested object is renamed all the way down."""
    from parsers.mahjongsoul import _norm

    offered = {"operationList": [{"type": 2, "combination": ["1m|2m"]}], "timeFixed": 5}
    waits = [{"tile": "3m", "haveYiZhongJiu": True}]
    record = {
        "seat": 1,
        "operation": offered,
        "operations": [offered],
        "tingpais": waits,
        "liqi": {"seat": 1, "liqibang": 1, "failed": False},
        "hules": [{"huTile": "3m", "liDoras": ["4p"], "pointRong": 1000}],
    }
    out = _norm(record)
    assert out["operation"] is offered and out["operations"][0] is offered
    assert out["tingpais"] is waits
    assert out["liqi"] == {"seat": 1, "liqibang": 1, "failed": False}
    assert out["hules"] == [{"hu_tile": "3m", "li_doras": ["4p"], "point_rong": 1000}]


def test_protobuf_defaults_may_be_left_out() -> None:
    """A field at its default (0, false, empty; seat 0) may be missing: same events."""
    doc = ms_doc(GDR_4P)

    def elide(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: elide(v) for k, v in value.items() if v not in (0, False, [], "")}
        if isinstance(value, list):
            return [elide(v) for v in value]
        return value

    thin = copy.deepcopy(doc)
    for action in thin["data"]["data"]["actions"]:
        if action.get("type") == 1:
            action["result"]["data"] = elide(action["result"]["data"])
    assert _plain(load_bytes(json.dumps(doc).encode(), "a")) == _plain(
        load_bytes(json.dumps(thin).encode(), "a")
    )


def _plain(log: GameLog) -> list[object]:
    """The events without their positions, for comparing two layouts."""
    out: list[object] = []
    for e in log.events:
        if isinstance(e, DrawTile):
            out.append(("draw", e.seat, e.tile))
        elif isinstance(e, Discard):
            out.append(("discard", e.seat, e.tile, e.tsumogiri))
        else:
            fields = {
                k: getattr(e, k) for k in e.__dataclass_fields__ if k not in ("where", "number")
            }
            out.append((type(e).__name__, fields))
    return out


def test_kan_indicators_are_turned_where_the_engine_expects_them() -> None:
    """An ankan's indicator before the replacement draw; an open kan's with the discard."""
    log = load_bytes(ms_path(REC_3P).read_bytes(), REC_3P)
    reveals = [k for k, e in enumerate(log.events) if isinstance(e, DoraReveal)]
    assert reveals, "the record has kans"
    result = audit_log(log, resolve_rules(log, "auto"))
    assert not [f for f in result.findings if f.code == "dora-timing"]
    assert dict(result.checks)["dora_indicators_checked"] > 0


def test_double_ron_splits_the_records_one_delta() -> None:
    log = load_bytes(ms_path(REC_4P).read_bytes(), REC_4P)
    rounds = [[]]  # type: list[list[Win]]
    for e in log.events:
        if isinstance(e, RoundStart):
            rounds.append([])
        elif isinstance(e, Win):
            rounds[-1].append(e)
    double = next(r for r in rounds if len(r) == 2)
    assert [w.claims.deltas for w in double] == [(0, 4900, 0, -3900), (0, 0, 2000, -2000)]
    result = audit_log(log, resolve_rules(log, "auto"))
    assert not [f for f in result.findings if f.code == "payment-mismatch"]


def test_a_double_ron_with_a_liable_bystander_splits_its_part_to_its_win() -> None:
    """The corpus's double ron with the second winner's hand made liable to seat 0 (a
    bystander: ``baopai`` 1), which pays 1000 of its 2000: that part is the second
    win's, the discarder (seat 3) paid the rest. Before, any bystander's move left the
    whole delta on the first win and the second claiming none."""
    doc = ms_doc(REC_4P)
    hule = next(
        data
        for name, data in ms_records(doc)
        if name == "RecordHule" and len(data.get("hules", [])) == 2
    )
    hule["hules"][1]["baopai"] = 1
    hule["deltaScores"] = [-1000, 4900, 2000, -4900]
    log = load_bytes(json.dumps(doc).encode(), REC_4P)
    wins = [e for e in log.events if isinstance(e, Win)]
    k = next(k for k, w in enumerate(wins) if w.claims.pao_seat == 0)
    double = wins[k - 1 : k + 1]
    assert [(w.seat, w.claims.deltas) for w in double] == [
        (1, (0, 4900, 0, -3900)),
        (2, (-1000, 0, 2000, -1000)),
    ]


def test_exhaustive_draws_claim_tenpai_and_payments() -> None:
    log = load_bytes(ms_path(REC_LIUJU).read_bytes(), REC_LIUJU)
    draws = [
        e for e in log.events if isinstance(e, RoundDraw) and e.reason is DrawReason.EXHAUSTIVE
    ]
    assert draws and all(d.claims.tenpai is not None for d in draws)
    assert all(d.claims.deltas is not None and sum(d.claims.deltas) == 0 for d in draws)


# -- bad input --------------------------------------------------------------------------


def test_a_bad_tile_names_the_file_and_the_record() -> None:
    doc = ms_doc(GDR_4P)
    actions = doc["data"]["data"]["actions"]
    k = next(
        k
        for k, a in enumerate(actions)
        if a.get("type") == 1 and a["result"]["name"] == ".lq.RecordDiscardTile"
    )
    actions[k]["result"]["data"]["tile"] = "8z"
    with pytest.raises(LogFormatError) as err:
        parse_mahjongsoul(json.dumps(doc).encode(), "bad.json")
    assert err.value.path == "bad.json"
    assert err.value.position == f"action {k} <RecordDiscardTile>"
    assert "'8z' is not a tile" in err.value.message


def test_an_undecoded_record_is_refused_with_its_position() -> None:
    doc = ms_doc(GDR_4P)
    actions = doc["data"]["data"]["actions"]
    k = next(k for k, a in enumerate(actions) if a.get("type") == 1)
    actions[k]["result"]["data"] = "CAEQAhgD"
    with pytest.raises(LogFormatError) as err:
        parse_mahjongsoul(json.dumps(doc).encode(), "raw.json")
    assert f"action {k}" in err.value.message and "decode the protobuf" in err.value.message


def test_cli_reads_a_folder_of_records_with_a_bad_one_beside_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .txt export is found by its content; a broken record is exit 2, the rest audited."""
    good = ms_path(GDR_4P)
    (tmp_path / good.name).write_bytes(good.read_bytes())
    (tmp_path / "notes.txt").write_text("not a log, just notes\n", encoding="utf-8")
    doc = ms_doc(GDR_4P)
    actions = doc["data"]["data"]["actions"]
    k = next(k for k, a in enumerate(actions) if a.get("type") == 1)
    actions[k]["result"]["data"]["tiles0"] = ["1m"] * 3
    (tmp_path / "broken.txt").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["audit", "--format", "json", str(tmp_path)]) == 2
    report = json.loads(capsys.readouterr().out)
    files = {Path(f["path"]).name: f for f in report["files"]}
    assert set(files) == {good.name, "broken.txt"}
    assert "tiles0 holds 3 tiles" in files["broken.txt"]["error"]
    assert f"action {k} <RecordNewRound>" in files["broken.txt"]["error"]
    assert files[good.name]["rounds"] == 5


# -- tampering --------------------------------------------------------------------------


def _hule(records: list[tuple[str, dict[str, Any]]], n: int = 0) -> dict[str, Any]:
    return [d for name, d in records if name == "RecordHule"][n]


def test_a_changed_fu_is_one_fu_mismatch() -> None:
    def edit(records: list[tuple[str, dict[str, Any]]]) -> None:
        h = _hule(records)["hules"][0]
        h["fu"] = h["fu"] + 10

    assert _added(GDR_4P, edit) == Counter({("fu-mismatch", "E1-0"): 1})


def test_a_changed_yaku_is_one_yaku_mismatch() -> None:
    def edit(records: list[tuple[str, dict[str, Any]]]) -> None:
        fans = _hule(records)["hules"][0]["fans"]
        chiitoi = next(f for f in fans if f["id"] == 25)
        chiitoi["id"] = 12  # tanyao, same han: the total stays right

    assert _added(GDR_4P, edit) == Counter({("yaku-mismatch", "E1-0"): 1})


def test_a_changed_delta_is_one_payment_mismatch_and_its_consequences_name_it() -> None:
    def edit(records: list[tuple[str, dict[str, Any]]]) -> None:
        rec = _hule(records)
        rec["delta_scores"][1] -= 100
        rec["delta_scores"][2] += 100

    doc = ms_doc(GDR_4P)
    changed = copy.deepcopy(doc)
    edit(ms_records(changed))
    result = _audit(changed)
    clean = _audit(doc)
    new = [f for f in result.findings if f not in clean.findings and f.severity.value == "error"]
    own = [f for f in new if f.cause is None]
    # One settlement paid otherwise: seat 2's payment follows seat 1's.
    assert [(f.code, f.round, f.seat) for f in own] == [("payment-mismatch", "E1-0", 1)]
    assert [(f.code, f.seat) for f in new if f.code == "payment-mismatch"] == [
        ("payment-mismatch", 1),
        ("payment-mismatch", 2),
    ]
    assert all(f.cause is not None for f in new if f not in own)


def test_kokushi_robbing_a_closed_kan_is_read_off_the_kans_declarer() -> None:
    """Mahjong Soul lets a kokushi rob a closed kan (the ``mahjongsoul`` preset's
    kokushi_robs_ankan): the ron comes from the seat that declared the kan."""
    hands = [
        ["1m", "1m", "1m", "1m", "2m", "3m", "4m", "5p", "6p", "7p", "2s", "3s", "4s", "5s"],
        ["9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "7z"],
        ["2p", "2p", "3p", "3p", "4p", "4p", "6s", "6s", "7s", "7s", "8s", "8s", "5m"],
        ["6m", "7m", "8m", "8p", "8p", "8p", "2z", "2z", "3z", "3z", "4z", "4z", "5m"],
    ]
    hule = {
        "seat": 1,
        "hand": hands[1],
        "hu_tile": "1m",
        "yiman": True,
        "count": 1,
        "fans": [{"id": 42, "val": 1}],
        "point_rong": 32000,
        "dadian": 32000,
        "title_id": 5,
        "doras": ["9s"],
    }
    records = [
        (
            "RecordNewRound",
            {"scores": [25000] * 4, "doras": ["9s"]}
            | {f"tiles{s}": h for s, h in enumerate(hands)},
        ),
        ("RecordAnGangAddGang", {"seat": 0, "type": 3, "tiles": "1m"}),
        (
            "RecordHule",
            {"hules": [hule], "old_scores": [25000] * 4, "delta_scores": [-32000, 32000, 0, 0]},
        ),
    ]
    doc = {
        "head": {"uuid": "kokushi-ankan", "config": {"category": 1, "mode": {"mode": 1}}},
        "data": {
            "name": ".lq.GameDetailRecords",
            "data": {
                "actions": [
                    {"type": 1, "result": {"name": f".lq.{n}", "data": d}} for n, d in records
                ]
            },
        },
    }
    log = load_bytes(json.dumps(doc).encode(), "kokushi.json")
    win = next(e for e in log.events if isinstance(e, Win))
    assert (win.seat, win.from_seat) == (1, 0)
    result = audit_log(log, resolve_rules(log, "mahjongsoul"))
    hand_codes = {f.code for f in result.findings if f.round == "E1-0"}
    assert hand_codes.isdisjoint(
        {"illegal-call", "yaku-mismatch", "points-mismatch", "payment-mismatch"}
    ), result.findings
    assert dict(result.checks)["wins_scored"] == 1
    # Under Tenhou's rules the same ron is not allowed.
    tenhou = audit_log(log, resolve_rules(log, "tenhou"))
    assert "illegal-call" in {f.code for f in tenhou.findings}


@pytest.mark.parametrize(
    ("kind", "reason"),
    [(1, DrawReason.KYUUSHU), (2, DrawReason.SUUFON_RENDA), (3, DrawReason.SUUKAIKAN)],
)
def test_abortive_draw_kinds(kind: int, reason: DrawReason) -> None:
    """RecordLiuJu ``type``: 1 nine terminals, 2 four winds; above 2 what the hand
    shows decides, else the table (the audit then judges whether it could happen)."""
    doc = ms_doc(REC_LIUJU)
    liuju = next(d for n, d in ms_records(doc) if n == "RecordLiuJu")
    liuju["type"] = kind
    log = load_bytes(json.dumps(doc).encode(), "liuju.json")
    draws = [e for e in log.events if isinstance(e, RoundDraw) and e.reason.abortive]
    assert draws[0].reason is reason
    shown = draws[0].claims.hands
    assert bool(shown) is (reason is DrawReason.KYUUSHU)


def test_a_game_head_without_decoded_records_is_refused_as_such() -> None:
    doc = ms_doc(GDR_4P)
    doc["data"] = "CiUubHEuR2FtZURldGFpbFJlY29yZHM="  # the protobuf bytes, not decoded
    with pytest.raises(LogFormatError) as err:
        load_bytes(json.dumps(doc).encode(), "undecoded.json")
    assert err.value.position == "data"
    assert "records are not decoded" in err.value.message


def test_records_written_with_their_fields_beside_the_name_read_alike() -> None:
    doc = ms_doc(REC_3P)
    flat = {
        "meta": doc["meta"],
        "records": [{"name": r["name"], **r["data"]} for r in doc["records"]],
    }
    a = load_bytes(json.dumps(doc).encode(), "a.json")
    b = load_bytes(json.dumps(flat).encode(), "a.json")
    assert _plain(a) == _plain(b)


def test_a_list_of_records_is_one_game_per_file() -> None:
    record = json.loads(raw_files()[0].read_text(encoding="utf-8-sig"))
    said = r"\(top level\): a list of 2 Mahjong Soul records: one game per file"
    with pytest.raises(LogFormatError, match=said):
        load_bytes(json.dumps([record, record]).encode(), "two.json")


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("edit", "why"),
    [
        pytest.param(
            lambda rows: rows[1].__setitem__("seat", 0),
            "the record's result (head.result.players): seat 0 is listed twice",
            id="a-seat-twice",
        ),
        pytest.param(
            lambda rows: rows.pop(),
            "the record's result (head.result.players) is 3 rows, not one row per seat",
            id="a-row-missing",
        ),
        pytest.param(
            lambda rows: rows[2].__setitem__("total_point", "x"),
            "the record's result (head.result.players): row 2's points are 27200 and 'x', "
            "not whole numbers",
            id="points-not-numbers",
        ),
    ],
)
def test_a_result_that_cannot_be_read_is_said_not_checked(
    tmp_path: Path, edit: Callable[[list[dict[str, object]]], object], why: str
) -> None:
    """The hands are audited; the final checks that cannot be made are one
    ``unchecked`` warning naming what is wrong (they were dropped without a word)."""
    doc = ms_doc(GDR_4P)
    edit(doc["head"]["result"]["players"])
    path = tmp_path / "result.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = audit_path(str(path), "auto")
    assert result.error is None and result.rounds > 0
    found = [
        (f.code, f.severity.value, f.message) for f in result.findings if f.code == "unchecked"
    ]
    assert found == [
        ("unchecked", "warning", f"the game's final scores and results are not checked: {why}")
    ]
