"""Tenhou JSON written from Mahjong Soul games by community converters.

The five converter files of ../shared/corpus/mahjongsoul/tenhou-json are read whole
and audited; copies edited in memory put them in English, change a draw's tenpai
set or a kita count, and small hand-made games cover what the corpus lacks (an
all-tenpai draw that a converter writes as a plain draw, at mid-game and at the
game's last hand).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from analyzer.checks.audit_wins import tenhou_yaku
from analyzer.hands.hand import waits
from mjaudit.events import EndClaims, GameEnd, GameStart, Limit, RulesHint, Win
from mjaudit.findings import Finding
from mjaudit.hands import HandResult, Payments
from mjaudit.rules import Ruleset, override, preset
from mjaudit.yaku import Yaku
from parsers.tenhou_json import parse_tenhou_json, rules_hint_from_disp
from parsers.tenhou_json_result import parse_score, parse_yaku

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
MS_JSON = CORPUS / "mahjongsoul" / "tenhou-json"
SANMA_JSON = CORPUS / "tenhou-json" / "full-game" / "2024010120gm-00b9-0000-e324b88a.json"
FILES = (
    "LiYounian_9tiles.json",
    "LiYounian_kazoe_yakuman.json",
    "LiYounian_riichi_sengen_ron.json",
    "LiYounian_url_encode_replace.json",
    "kbkn3_2025_1_1_Jade_Room_South.json",
)
SENGEN = "LiYounian_riichi_sengen_ron.json"
URL_ENCODE = "LiYounian_url_encode_replace.json"

Doc = dict[str, Any]


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    return path


def _doc(name: str) -> Doc:
    data: Doc = json.loads(_need(MS_JSON / name).read_text(encoding="utf-8"))
    return data


def _bytes(doc: Doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def _soul_rules() -> Ruleset:
    """The mahjongsoul preset with Mahjong Soul's final points as its records show
    them: (score - 25000) / 1000 + uma, no oka (all five converter files fit it)."""
    return override(preset("mahjongsoul"), {"return_points": 25000})


def _audit(doc: Doc, name: str, rules: Ruleset | str = "mahjongsoul") -> FileAudit:
    log = parse_tenhou_json(_bytes(doc), name)
    if isinstance(rules, str):
        rules = resolve_rules(log, rules)
    return audit_log(log, rules)


def _errors(result: FileAudit) -> list[Finding]:
    return [f for f in result.findings if f.severity.value == "error"]


# -- every converter file reads and audits ------------------------------------------
def test_every_converter_file_reads_with_its_rounds_and_results() -> None:
    rounds = wins = draws = 0
    for name in FILES:
        result = _audit(_doc(name), name, _soul_rules())
        assert result.error is None
        rounds, wins, draws = rounds + result.rounds, wins + result.wins, draws + result.draws
        checks = dict(result.checks)
        assert checks["rounds_replayed"] == result.rounds
        assert checks["wins_scored"] == result.wins
    assert (rounds, wins, draws) == (42, 39, 3)


def test_the_converter_files_audit_clean_but_for_the_riichi_declaration_ron() -> None:
    found = {name: _errors(_audit(_doc(name), name, _soul_rules())) for name in FILES}
    assert {name: [f.code for f in errs] for name, errs in found.items()} == {
        "LiYounian_9tiles.json": [],
        "LiYounian_kazoe_yakuman.json": [],
        SENGEN: ["payment-mismatch"],
        URL_ENCODE: [],
        "kbkn3_2025_1_1_Jade_Room_South.json": [],
    }


def test_with_the_mahjongsoul_preset_only_the_final_points_formula_differs() -> None:
    # Until the preset's final points are Mahjong Soul's, the result points differ
    # (return 30000 with oka); nothing else does.
    for name in FILES:
        errors = _errors(_audit(_doc(name), name, "mahjongsoul"))
        other = [f for f in errors if not f.message.startswith("game end: seat")]
        assert [f.code for f in other] == (["payment-mismatch"] if name == SENGEN else [])


# -- item 5: a ron on the riichi declaration tile ----------------------------------
def test_ron_on_the_riichi_declaration_tile_pays_no_stick() -> None:
    """E4-0: seat 2 declares riichi with 2p (``r22``) and seat 0 rons it. The stick is
    not paid (the declaration is not accepted), as the log's own final scores show:
    24600 = 22600 + 2000 for seat 0, 15900 = 17900 - 2000 for seat 2. The delta +3000
    is the converter's (it counts the stick at the declaration): one finding, and the
    final scores, which agree with the recomputation, get none."""
    doc = _doc(SENGEN)
    last = doc["log"][-1]
    assert last[1] == [22600, 25600, 17900, 33900] and last[0] == [3, 0, 0]
    assert last[12][-1] == "r22" and last[16][1] == [3000, 0, -2000, 0]
    assert doc["sc"][0::2] == [24600, 25600, 15900, 33900]
    errors = _errors(_audit(doc, SENGEN, _soul_rules()))
    assert [(f.code, f.round, f.seat, f.expected, f.actual) for f in errors] == [
        ("payment-mismatch", "E4-0", 0, 2000, 3000)
    ]
    # Written as Mahjong Soul settled it, the game is clean.
    doc["log"][-1][16][1] = [2000, 0, -2000, 0]
    assert _errors(_audit(doc, SENGEN, _soul_rules())) == []


def test_mahjong_souls_own_records_pay_no_stick_for_a_declaration_ron() -> None:
    """The rule the engine applies, as Mahjong Soul's own records settle it: in the
    raw records of the corpus, each of the 8 rons on a riichi declaration tile has the
    declarer pay the hand and honba only (no stick), and the scores after follow."""
    records = CORPUS / "mahjongsoul" / "raw-records"
    rons = []
    for path in sorted(_need(records).glob("*.json")):
        recs = json.loads(path.read_text(encoding="utf-8"))["records"]
        honba, players = 0, 4
        before: dict[str, Any] = {"name": ""}
        for rec in recs:
            if rec["name"] == "RecordNewRound":
                honba, players = rec["data"].get("ben", 0), len(rec["data"]["scores"])
            declared = before["name"] == "RecordDiscardTile" and before["data"].get("isLiqi")
            before, previous = rec, before
            if rec["name"] != "RecordHule" or not declared:
                continue
            seat, data = previous["data"].get("seat", 0), rec["data"]
            owed = sum(h["pointRong"] for h in data["hules"]) + 100 * honba * (players - 1)
            paid = -data["deltaScores"][seat]
            rons.append((paid == owed, data["scores"][seat] == data["oldScores"][seat] - owed))
    assert rons == [(True, True)] * 8


# -- item 1: yaku names -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "winds", "want"),
    [
        pytest.param("役牌:場風牌(1飜)", (0, 1), (Yaku.ROUND_WIND_EAST, 1), id="round-east"),
        pytest.param("役牌:場風牌(1飜)", (1, 0), (Yaku.ROUND_WIND_SOUTH, 1), id="round-south"),
        pytest.param("役牌:自風牌(1飜)", (0, 2), (Yaku.SEAT_WIND_WEST, 1), id="seat-west"),
        pytest.param("Seat Wind(1飜)", (1, 3), (Yaku.SEAT_WIND_NORTH, 1), id="seat-en"),
        pytest.param("Prevalent Wind(1飜)", (1, 3), (Yaku.ROUND_WIND_SOUTH, 1), id="round-en"),
        pytest.param("役牌 白(1飜)", None, (Yaku.HAKU, 1), id="haku"),
        pytest.param("ダブル立直(2飜)", None, (Yaku.DOUBLE_RIICHI, 2), id="double-riichi"),
        pytest.param("All Simples(1飜)", None, (Yaku.TANYAO, 1), id="tanyao-en"),
        pytest.param("Fully Concealed Hand(1飜)", None, (Yaku.MENZEN_TSUMO, 1), id="tsumo-en"),
        pytest.param("Half Outside Hand(2飜)", None, (Yaku.CHANTA, 2), id="chanta-en"),
        pytest.param("Red Five(2飜)", None, (Yaku.AKA_DORA, 2), id="aka-en"),
        pytest.param("Kita(1飜)", None, (Yaku.DORA, 1), id="kita-en"),
        pytest.param("抜きドラ(2飜)", None, (Yaku.DORA, 2), id="kita-ja"),
        pytest.param("国士無双十三面待ち(役満)", None, (Yaku.KOKUSHI_13, None), id="kokushi-13-ja"),
        pytest.param(
            "Thirteen-wait Thirteen Orphans(役満)", None, (Yaku.KOKUSHI_13, None), id="k13-en"
        ),
        pytest.param("Big Three Dragons(役満)", None, (Yaku.DAISANGEN, None), id="daisangen"),
    ],
)
def test_mahjongsoul_yaku_names(
    text: str, winds: tuple[int, int] | None, want: tuple[Yaku, int | None]
) -> None:
    assert parse_yaku(text, winds) == want


def test_wind_yaku_name_their_wind_from_the_round_and_the_seat() -> None:
    # E1-0 of kazoe_yakuman: the dealer (seat 0, East) wins with a triplet of East in
    # the East round, listed as 役牌:場風牌 and 役牌:自風牌.
    log = parse_tenhou_json(_bytes(_doc("LiYounian_kazoe_yakuman.json")), "k.json")
    first = next(ev for ev in log.events if isinstance(ev, Win))
    assert first.claims.yaku is not None
    assert Counter(first.claims.yaku) == Counter(
        {(Yaku.CHUN, 1): 1, (Yaku.ROUND_WIND_EAST, 1): 1, (Yaku.SEAT_WIND_EAST, 1): 1}
    )


def test_a_wrong_yakuhai_is_a_yaku_mismatch() -> None:
    # The round wind listed as a white dragon.
    doc = _doc("LiYounian_kazoe_yakuman.json")
    entry = doc["log"][0][16][2]
    assert entry[4:] == ["役牌 中(1飜)", "役牌:場風牌(1飜)", "役牌:自風牌(1飜)"]
    entry[5] = "役牌 白(1飜)"
    errors = _errors(_audit(doc, "k.json", _soul_rules()))
    assert [(f.code, f.round) for f in errors] == [("yaku-mismatch", "E1-0")]


@pytest.mark.parametrize(
    ("text", "tsumo", "want"),
    [
        pytest.param("30Fu3Han1000-2000点", True, (30, 3, Limit.NONE, 4000), id="fu-han"),
        pytest.param("30符2飜2000点", False, (30, 2, Limit.NONE, 2000), id="ja"),
        pytest.param("Mangan 2000-4000点", True, (None, None, Limit.MANGAN, 8000), id="mangan"),
        pytest.param("Haneman 18000点", False, (None, None, Limit.HANEMAN, 18000), id="hane"),
        pytest.param(
            "Counted Yakuman 32000点", False, (None, None, Limit.YAKUMAN, 32000), id="kazoe-en"
        ),
        pytest.param(
            "Kazoe Yakuman 32000点", False, (None, None, Limit.YAKUMAN, 32000), id="kazoe-ro"
        ),
        pytest.param("切り上げ満貫8000点", False, (None, None, Limit.MANGAN, 8000), id="kiriage"),
    ],
)
def test_english_and_romaji_score_strings(
    text: str, tsumo: bool, want: tuple[int | None, int | None, Limit, int]
) -> None:
    score = parse_score(text, tsumo, 4)
    assert (score.fu, score.han, score.limit, score.points) == want


_ENGLISH = {
    "断幺九": "All Simples",
    "門前清自摸和": "Fully Concealed Hand",
    "立直": "Riichi",
    "一発": "Ippatsu",
    "平和": "Pinfu",
    "一盃口": "Pure Double Sequence",
    "三色同順": "Mixed Triple Sequence",
    "混一色": "Half Flush",
    "海底摸月": "Under the Sea",
    "役牌 白": "White Dragon",
    "役牌 發": "Green Dragon",
    "役牌 中": "Red Dragon",
    "役牌:場風牌": "Prevalent Wind",
    "役牌:自風牌": "Seat Wind",
    "ドラ": "Dora",
    "赤ドラ": "Red Five",
    "裏ドラ": "Ura Dora",
}
_ENGLISH_LIMITS = {"満貫": "Mangan ", "跳満": "Haneman ", "倍満": "Baiman ", "役満": "Yakuman "}


def _in_english(doc: Doc) -> Doc:
    """The game as a converter set to English writes it."""
    out = copy.deepcopy(doc)
    disp = out["rule"]["disp"]
    room = {"玉の間": "Jade Room"}[disp[:3]]
    out["rule"]["disp"] = room + {"南": " South", "東": " East"}[disp[3]]
    for kyoku in out["log"]:
        result = kyoku[16]
        if result[0] == "流局":
            result[0] = "Exhaustive Draw"
        if result[0] == "九種九牌":
            result[0] = "Nine Terminal Abortion"
        if result[0] != "和了":
            continue
        for info in result[2::2]:
            score = info[3]
            for ja, en in _ENGLISH_LIMITS.items():
                if score.startswith(ja):
                    score = en + score[len(ja) :]
            info[3] = score.replace("符", "Fu").replace("飜", "Han")
            for k, text in enumerate(info[4:], 4):
                name, _, rest = text.partition("(")
                info[k] = f"{_ENGLISH[name]}({rest}"
    return out


@pytest.mark.parametrize("name", FILES)
def test_a_game_in_english_audits_as_in_japanese(name: str) -> None:
    doc = _doc(name)
    english = _in_english(doc)
    assert english != doc
    ja, en = _audit(doc, name, _soul_rules()), _audit(english, name, _soul_rules())
    assert (en.rounds, en.wins, en.draws) == (ja.rounds, ja.wins, ja.draws)
    assert [(f.code, f.round, f.seat) for f in en.findings] == [
        (f.code, f.round, f.seat) for f in ja.findings
    ]
    assert dict(en.checks)["wins_scored"] == ja.wins


# -- kita listed apart (抜きドラ) --------------------------------------------------------
def _kita_apart(doc: Doc, name: str, extra: int = 0, limit: int = 99) -> int:
    """Split each kita winner's ドラ(n) into ドラ(n - k) and ``name``(k + extra), as
    Mahjong Soul lists them (k = the winner's kita), for the first ``limit`` such
    wins; returns how many wins changed."""
    changed = 0
    for kyoku in doc["log"]:
        result = kyoku[16]
        if result[0] != "和了":
            continue
        for info in result[2::2]:
            who = info[0]
            kita = sum(1 for o in kyoku[6 + 3 * who] if isinstance(o, str) and o[0] == "f")
            dora = next((k for k, t in enumerate(info) if str(t).startswith("ドラ(")), None)
            if not kita or dora is None or changed == limit:
                continue
            n = int(info[dora][3:].split("飜")[0])
            rest = [f"ドラ({n - kita}飜)"] if n > kita else []
            info[dora : dora + 1] = [*rest, f"{name}({kita + extra}飜)"]
            changed += 1
    return changed


@pytest.mark.parametrize("name", ["抜きドラ", "Kita"])
def test_kita_listed_apart_from_dora_audits_as_tenhou_folds_it(name: str) -> None:
    source = json.loads(_need(SANMA_JSON).read_text(encoding="utf-8"))
    edited = copy.deepcopy(source)
    assert _kita_apart(edited, name) >= 4
    path = SANMA_JSON.name
    before, after = _audit(source, path, "auto"), _audit(edited, path, "auto")
    assert _errors(before) == []
    assert [(f.code, f.round) for f in after.findings] == [
        (f.code, f.round) for f in before.findings
    ]


def test_a_wrong_kita_count_is_one_han_mismatch() -> None:
    source = json.loads(_need(SANMA_JSON).read_text(encoding="utf-8"))
    edited = copy.deepcopy(source)
    assert _kita_apart(edited, "抜きドラ", extra=1, limit=1) == 1
    errors = _errors(_audit(edited, SANMA_JSON.name, "auto"))
    assert [f.code for f in errors] == ["han-mismatch"]


def test_kita_folds_into_dora_as_the_tenhou_xml_path_counts_it() -> None:
    # The recomputation lists kita inside the dora entry (Tenhou XML's way).
    result = HandResult(
        han=4, fu=30, yakuman=0, limit=Limit.NONE, yaku=(), dora=1, aka=0, ura=0, kita=2,
        fu_parts=(), base=0, total=0, payments=Payments(),
    )  # fmt: skip
    assert tenhou_yaku(result, False) == Counter({(Yaku.DORA, 3): 1})


# -- item 2: rooms --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("disp", "players", "want"),
    [
        # (players, category, room, hanchan, aka, kuitan)
        pytest.param("玉の間南喰赤", 4, (4, "ranked", "jade", True, True, True), id="jade-s"),
        pytest.param("金の間東喰赤", 4, (4, "ranked", "gold", False, True, True), id="gold-e"),
        pytest.param("王座の間南喰赤", 4, (4, "ranked", "throne", True, True, True), id="throne"),
        pytest.param("銅の間", 4, (4, "ranked", "bronze", None, True, True), id="bronze"),
        pytest.param("銀の間", 4, (4, "ranked", "silver", None, True, True), id="silver"),
        pytest.param("三銀の間赤", 4, (3, "ranked", "silver", None, True, True), id="sanma-ja"),
        pytest.param("3玉の間南喰赤", 4, (3, "ranked", "jade", True, True, True), id="sanma-3"),
        pytest.param(
            "友人戦東喰赤", 4, (4, "friendly", "friendly", False, True, None), id="friendly"
        ),
        pytest.param(
            "大会戦南喰", 4, (4, "tournament", "tournament", True, None, None), id="tourney"
        ),
        pytest.param("Jade Room South", 4, (4, "ranked", "jade", True, True, True), id="jade"),
        pytest.param(
            "Throne Room East", 4, (4, "ranked", "throne", False, True, True), id="throne-en"
        ),
        pytest.param("Gold Room", 4, (4, "ranked", "gold", None, True, True), id="gold-en"),
        pytest.param("Silver Room", 3, (3, "ranked", "silver", None, True, True), id="silver3"),
        pytest.param("Bronze Room", 4, (4, "ranked", "bronze", None, True, True), id="bronze-en"),
        pytest.param(
            "3-Player Jade Room South", 4, (3, "ranked", "jade", True, True, True), id="3p-en"
        ),
        pytest.param(
            "Friendly East No Red Fives",
            4,
            (4, "friendly", "friendly", False, False, None),
            id="friendly-en",
        ),
        pytest.param(
            "Tournament South", 4, (4, "tournament", "tournament", True, None, None), id="t-en"
        ),
        pytest.param("交流の間東喰赤", 4, (4, "casual", "casual", False, True, True), id="casual"),
    ],
)
def test_mahjongsoul_rooms_make_a_mahjongsoul_hint(
    disp: str, players: int, want: tuple[object, ...]
) -> None:
    hint = rules_hint_from_disp(disp, None, players)
    assert hint.platform == "mahjongsoul" and not hint.special_lobby
    got = (hint.players, hint.category, hint.room, hint.hanchan, hint.aka, hint.kuitan)
    assert got == want
    assert "Mahjong Soul" in hint.description and dict(hint.extras)["disp"] == disp


def test_the_files_red_five_flags_win_over_the_room_words() -> None:
    assert rules_hint_from_disp("友人戦東喰赤", False, 4).aka is False
    assert rules_hint_from_disp("Friendly East", True, 4).aka is True


@pytest.mark.parametrize(
    "disp", ["四鳳南喰赤", "般東喰赤", "Jade Room Southwest", "玉の間西", "Casual", ""]
)
def test_other_strings_are_not_mahjongsoul_rooms(disp: str) -> None:
    hint = rules_hint_from_disp(disp, None, 4)
    assert hint.platform is None and hint.category is None


def test_a_corpus_game_carries_its_room() -> None:
    log = parse_tenhou_json(_bytes(_doc("LiYounian_9tiles.json")), "g.json")
    hint: RulesHint = log.start.rules_hint
    assert (hint.platform, hint.category, hint.room, hint.hanchan) == (
        "mahjongsoul",
        "ranked",
        "jade",
        True,
    )
    log = parse_tenhou_json(_bytes(_doc(SENGEN)), "g.json")
    assert (log.start.rules_hint.room, log.start.rules_hint.hanchan) == ("jade", False)


# -- item 3: ranks and final points -----------------------------------------------------
def test_ranks_rates_and_final_points_as_written() -> None:
    doc = _doc("LiYounian_9tiles.json")
    doc["dan"][3] = "Master I"  # a converter set to English
    log = parse_tenhou_json(_bytes(doc), "g.json")
    start = log.events[0]
    assert isinstance(start, GameStart)
    assert [p.dan for p in start.players] == ["雀豪★1", "雀聖★1", "雀豪★1", "Master I"]
    assert [p.rate for p in start.players] == [1593.0, 2027.0, 2051.0, 1994.0]
    end = log.events[-1]
    assert isinstance(end, GameEnd)
    assert end.claims == EndClaims(
        (34500, 52400, 18600, -5500), (14.5, 42.4, -11.4, -45.5), ("14.5", "42.4", "-11.4", "-45.5")
    )


# -- item 6: a wrong tenpai set, and what follows from it --------------------------------
def test_a_wrong_tenpai_set_names_the_findings_that_follow() -> None:
    """E3-1 ends in a draw with seats 0 and 2 (the dealer) tenpai (+1500 each). A
    converter that credits seat 0 alone writes 3000/-1000/-1000/-1000 and carries
    Mahjong Soul's real scores on: one draw finding, the four payments and the next
    hand's start follow from it (``cause``); the dealer's repeat is no finding."""
    doc = _doc(URL_ENCODE)
    draw = doc["log"][3]
    assert draw[0] == [2, 1, 0] and draw[16] == ["流局", [1500, -1500, 1500, -1500]]
    assert doc["log"][4][0] == [2, 2, 0]  # the dealer repeats
    draw[16][1] = [3000, -1000, -1000, -1000]
    result = _audit(doc, URL_ENCODE, _soul_rules())
    errors = _errors(result)
    assert [(f.code, f.round, f.seat, f.expected, f.actual) for f in errors] == [
        ("draw-mismatch", "E3-1", None, [0, 2], [0]),
        ("payment-mismatch", "E3-1", 0, 1500, 3000),
        ("payment-mismatch", "E3-1", 1, -1500, -1000),
        ("payment-mismatch", "E3-1", 2, 1500, -1000),
        ("payment-mismatch", "E3-1", 3, -1500, -1000),
        ("score-chain-mismatch", "E3-2", None, [29600, 18800, 30900, 20700],
         [28100, 18300, 33400, 20200]),
    ]  # fmt: skip
    index = result.findings.index(errors[0])
    assert [f.cause for f in errors] == [None, index, index, index, index, index]


def test_no_positive_delta_is_a_tenpai_set_of_nobody_not_a_shown_hand() -> None:
    # Tenhou JSON shows no hands at a draw: a wrong set is a draw-mismatch.
    doc = _doc(URL_ENCODE)
    doc["log"][3][16] = ["流局", [0, 0, 0, 0]]
    errors = _errors(_audit(doc, URL_ENCODE, _soul_rules()))
    assert (errors[0].code, errors[0].expected, errors[0].actual) == ("draw-mismatch", [0, 2], [])
    assert "tenpai-hand-mismatch" not in [f.code for f in errors]


# Hand-made games: every seat tenpai from the deal, every draw thrown back.
_HANDS = [
    [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25],  # 123456789m123p5p: 5p
    [31, 32, 33, 34, 35, 36, 37, 38, 39, 41, 41, 42, 42],  # 123456789s1122z: 1z 2z
    [22, 23, 24, 26, 27, 28, 33, 34, 35, 36, 36, 37, 37],  # 234678p345s6677s: 6s 7s
    [21, 22, 23, 24, 25, 26, 27, 28, 29, 43, 43, 44, 44],  # 123456789p3344z: 3z 4z
]


def _kind(code: int) -> int:
    return (code // 10 - 1) * 9 + code % 10 - 1


def _all_tenpai_kyoku(head: list[int], scores: list[int], result: list[object]) -> list[object]:
    """A kyoku dealt ``_HANDS`` that runs to an exhaustive draw with all four tenpai."""
    counts = Counter(c for hand in _HANDS for c in hand)
    wait_kinds: set[int] = set()
    for hand in _HANDS:
        kinds = [0] * 34
        for c in hand:
            kinds[_kind(c)] += 1
        wait_kinds |= waits(kinds)
    pool = [
        c
        for c in [10 * s + r for s in (1, 2, 3) for r in range(1, 10)] + list(range(41, 48))
        for _ in range(4 - counts[c])
        if _kind(c) not in wait_kinds
    ]
    dora, pool = pool[0], pool[1:]
    dealer = head[0] % 4
    takes: list[list[object]] = [[], [], [], []]
    for turn in range(70):
        takes[(dealer + turn) % 4].append(pool[(turn * 29) % len(pool)])
        pool.pop((turn * 29) % len(pool))
    outs = [[60] * len(t) for t in takes]
    k: list[object] = [head, scores, [dora], []]
    for s in range(4):
        k += [list(_HANDS[s]), takes[s], outs[s]]
    return [*k, result]


def _game(kyokus: list[list[object]], sc: list[float] | None) -> Doc:
    doc: Doc = {
        "title": ["", ""],
        "name": ["A", "B", "C", "D"],
        "rule": {"disp": "般東喰赤", "aka51": 0, "aka52": 0, "aka53": 0},
        "log": kyokus,
    }
    if sc is not None:
        doc.update({"ver": "2.3", "ref": "2024010100gm-0001-0000-00000000", "lobby": 0, "sc": sc})
        doc.update({"ratingc": "PF4"})
    return doc


def test_an_all_tenpai_draw_written_as_a_plain_draw_is_one_finding() -> None:
    """The dealer is tenpai and repeats; the log's zero deltas say nobody was."""
    start = [25000] * 4
    kyokus = [
        _all_tenpai_kyoku([0, 0, 0], start, ["流局", [0, 0, 0, 0]]),
        _all_tenpai_kyoku([0, 1, 0], start, ["全員聴牌"]),
    ]
    result = _audit(_game(kyokus, None), "made.json", "auto")
    errors = _errors(result)
    assert [(f.code, f.round, f.expected, f.actual) for f in errors] == [
        ("draw-mismatch", "E1-0", [0, 1, 2, 3], [])
    ]
    assert dict(result.checks)["draws_checked"] == 2


@pytest.mark.parametrize(
    ("written", "want"),
    [
        # The log's tenpai claim (nobody) ends the game; that claim is the finding.
        pytest.param(["流局", [0, 0, 0, 0]], ["draw-mismatch"], id="plain-draw"),
        # Written right, the dealer is tenpai and not top: the game goes on.
        pytest.param(["全員聴牌"], ["game-end-mismatch"], id="all-tenpai"),
    ],
)
def test_at_the_last_hand_the_game_end_follows_the_tenpai_claim(
    written: list[object], want: list[str]
) -> None:
    scores = [31000, 25000, 24000, 20000]
    kyokus = [_all_tenpai_kyoku([3, 0, 0], scores, written)]
    sc: list[float] = [31000, 41.0, 25000, 5.0, 24000, -16.0, 20000, -30.0]
    result = _audit(_game(kyokus, sc), "last.json", "auto")
    assert [f.code for f in _errors(result)] == want
