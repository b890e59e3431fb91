"""Mahjong Soul's rules (issue 18 item 2): the presets ``mahjongsoul`` and
``mahjongsoul-sanma``, their final points against the records' own, and what
``--rules auto`` makes of each kind of room (docs/rules.md, "Mahjong Soul rooms")."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import audit_log, audit_path
from analyzer.hands.final import final_result
from mjaudit.events import RulesHint
from mjaudit.findings import Severity
from mjaudit.rules import Ruleset, preset, rules_for, stated_end_rules
from parsers import load
from tests.conftest import CORPUS
from tests.ms_records import ms_doc

MJS = CORPUS / "mahjongsoul"
CONVERTED = MJS / "tenhou-json"
# The ranked converter files whose every hand is right (the fifth has a converter fault).
READABLE = (
    "LiYounian_9tiles.json",
    "LiYounian_kazoe_yakuman.json",
    "LiYounian_url_encode_replace.json",
    "kbkn3_2025_1_1_Jade_Room_South.json",
)
SENGEN_RON = "LiYounian_riichi_sengen_ron.json"


def converted(name: str) -> str:
    """A converter file of the corpus; the test skips, visibly, where it is absent."""
    path = CONVERTED / name
    if not path.is_file():
        pytest.skip(f"corpus not available: {path} (CI has ../shared beside the repo)")
    return str(path)


# -- the defect: every ranked game's final points -----------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("name", READABLE)
def test_ranked_converter_games_end_with_the_recorded_points(name: str) -> None:
    """The recorded points are (score - 25000)/1000 + uma 15/5/-5/-15, no oka: under
    ``--rules mahjongsoul`` the game end has no finding at all."""
    result = audit_path(converted(name), "mahjongsoul")
    assert result.error is None
    assert [f for f in result.findings if f.code == "final-score-mismatch"] == []
    assert [f for f in result.findings if f.severity is Severity.ERROR] == []


@pytest.mark.corpus
def test_a_declaration_ron_is_the_converters_fault_not_the_final_formula() -> None:
    """E4-0: seat 2 declares riichi on 2s and seat 0 rons it for 2000. The file pays
    the winner +3000 but takes only 2000 from seat 2 (its deltas add up to +1000 with
    no stick on the table), and its own final scores follow the 2000: one payment
    finding, and neither a final-score nor a result finding."""
    result = audit_path(converted(SENGEN_RON), "mahjongsoul")
    errors = [
        (f.code, f.seat, f.expected, f.actual)
        for f in result.findings
        if f.severity is Severity.ERROR
    ]
    assert errors == [("payment-mismatch", 0, 2000, 3000)]


def test_the_ranked_formula_has_no_oka() -> None:
    """A Jade South game of the corpus (raw-gdr 230921-0a39a19b): part_point_1 39600,
    34100, 27200, -900 and total_point 29600, 14100, -2800, -40900."""
    rules = preset("mahjongsoul")
    hint = RulesHint("mahjongsoul", 4, platform="mahjongsoul", category="ranked")
    res = final_result((39600, 34100, 27200, -900), 0, 0, 4, rules, hint, "g")
    assert res.results == (29.6, 14.1, -2.8, -40.9)
    assert not res.assumed


def test_the_old_preset_would_have_taken_oka() -> None:
    """What the issue saw: return 30000 with the oka to the top."""
    rules = replace(preset("mahjongsoul"), settlement_points=None)
    hint = RulesHint("mahjongsoul", 4, platform="mahjongsoul", category="ranked")
    res = final_result((39600, 34100, 27200, -900), 0, 0, 4, rules, hint, "g")
    assert res.results == (44.6, 9.1, -7.8, -45.9)


def test_sanma_counts_from_35000_with_uma_15_0_minus_15() -> None:
    """raw-gdr 231215-4940479a: part_point_1 81200, 24000, -200 -> 61200, -11000, -50200."""
    rules = preset("mahjongsoul-sanma")
    hint = RulesHint("mahjongsoul", 3, platform="mahjongsoul", category="ranked")
    res = final_result((81200, 24000, -200), 0, 0, 3, rules, hint, "g")
    assert res.results == (61.2, -11.0, -50.2)


def test_ties_rank_by_seat_order_from_the_first_dealer() -> None:
    """raw-gdr 231215-a5d87184 (3p): seats 1 and 2 both end on 29000; seat 1 is
    second (-6.0) and seat 2 third (-21.0), as the record says."""
    rules = preset("mahjongsoul-sanma")
    hint = RulesHint("mahjongsoul", 3, platform="mahjongsoul", category="friendly")
    res = final_result((47000, 29000, 29000), 0, 0, 3, rules, hint, "g")
    assert res.results == (27.0, -6.0, -21.0)


# -- every record of the corpus: head.result against the presets ----------------------


def _snake(key: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z0-9])", "_", key).lower()


def _records() -> list[tuple[str, dict[str, Any]]]:
    """(file name, the game's head) of every raw record in the corpus."""
    out = []
    for path in sorted((MJS / "raw-gdr").glob("*")) + sorted((MJS / "raw-records").glob("*")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append((path.name, data["head"] if "head" in data else data["meta"]))
    return out


def _result(head: dict[str, Any]) -> tuple[list[int], list[int], int]:
    """Each seat's final score and total_point, and the player count (protobuf elides
    a seat 0 and a zero)."""
    players = [{_snake(k): v for k, v in p.items()} for p in head["result"]["players"]]
    n = len(players)
    scores, totals = [0] * n, [0] * n
    for p in players:
        scores[p.get("seat", 0)] = p.get("part_point_1", 0)
        totals[p.get("seat", 0)] = p.get("total_point", 0)
    return scores, totals, n


# The three-player friendly records of April and May 2022 (raw-records) count uma
# +20/0/-20; those of December 2023 (raw-gdr) +15/0/-15, as riichi.wiki's 3P rules.
SANMA_UMA_20 = frozenset(
    {
        "220423-eb56450b-7e9b-492f-8bd2-0e01de068aa3.json",
        "220507-31823bf1-5e47-4b9a-83a1-e7ba7089945f.json",
        "220507-5375d110-e849-4f69-aa6d-838f813a81da.json",
    }
)


@pytest.mark.corpus
def test_every_records_final_points_follow_the_preset() -> None:
    """30 records (2 ranked, 28 friendly or against the AI; 23 four-player, 7
    three-player): total_point is (score - start) + uma, no oka, ties by seat order.
    All 23 four-player games and the 4 three-player games of 2023 follow the presets;
    the 3 three-player games of 2022 count uma +20/0/-20 (a friendly room's results
    are only ever warnings: results_assumed)."""
    if not MJS.is_dir():
        pytest.skip(f"corpus not available: {MJS}")
    checked: dict[tuple[int, tuple[int, ...]], int] = {}
    for name, head in _records():
        scores, totals, n = _result(head)
        rules = preset("mahjongsoul-sanma" if n == 3 else "mahjongsoul")
        if name in SANMA_UMA_20:
            rules = replace(rules, uma=(20, 0, -20))
        hint = RulesHint("mahjongsoul", n, platform="mahjongsoul")
        res = final_result(scores, 0, 0, n, rules, hint, name)
        assert res.results == tuple(t / 1000 for t in totals), name
        key = (n, rules.uma)
        checked[key] = checked.get(key, 0) + 1
    assert checked == {(4, (15, 5, -5, -15)): 23, (3, (15, 0, -15)): 4, (3, (20, 0, -20)): 3}


# -- --rules auto: each kind of room ---------------------------------------------------

# The detail_rule of the corpus's friendly rooms, as the parser gives it.
FRIENDLY_4P = (
    ("ai_level", "1"),
    ("bianjietishi", "true"),
    ("dora_count", "3"),
    ("fandian", "30000"),
    ("fanfu", "1"),
    ("init_point", "25000"),
    ("shiduan", "1"),
    ("time_add", "20"),
    ("time_fixed", "5"),
)
FRIENDLY_3P = (
    ("ai_level", "1"),
    ("bianjietishi", "true"),
    ("dora_count", "2"),
    ("fandian", "40000"),
    ("fanfu", "1"),
    ("have_zimosun", "true"),
    ("init_point", "35000"),
    ("shiduan", "1"),
    ("time_add", "20"),
    ("time_fixed", "5"),
)


def _hint(players: int, hanchan: bool | None, category: str | None, stated: Any = ()) -> RulesHint:
    return RulesHint(
        "mahjongsoul",
        players,
        hanchan=hanchan,
        platform="mahjongsoul",
        category=category,
        stated_rules=tuple(stated),
    )


@pytest.mark.parametrize(
    ("players", "hanchan", "category", "stated", "name", "warnings"),
    [
        pytest.param(4, True, "ranked", (), "mahjongsoul", 0, id="4p-south-ranked"),
        pytest.param(4, False, "ranked", (), "mahjongsoul", 0, id="4p-east-ranked"),
        pytest.param(3, True, "ranked", (), "mahjongsoul-sanma", 0, id="3p-south-ranked"),
        pytest.param(3, False, "ranked", (), "mahjongsoul-sanma", 0, id="3p-east-ranked"),
        pytest.param(4, False, "friendly", FRIENDLY_4P, "mahjongsoul", 2, id="4p-east-friendly"),
        pytest.param(4, True, "friendly", FRIENDLY_4P, "mahjongsoul", 2, id="4p-south-friendly"),
        pytest.param(3, True, "friendly", FRIENDLY_3P, "mahjongsoul-sanma", 2, id="3p-friendly"),
        pytest.param(4, True, "tournament", (), "mahjongsoul", 2, id="4p-tournament"),
        pytest.param(3, False, "tournament", (), "mahjongsoul-sanma", 2, id="3p-tournament"),
        pytest.param(4, True, "ai", FRIENDLY_4P, "mahjongsoul", 2, id="4p-ai"),
        pytest.param(3, True, "ai", FRIENDLY_3P, "mahjongsoul-sanma", 2, id="3p-ai"),
        pytest.param(4, True, None, (), "mahjongsoul", 2, id="4p-unknown-kind"),
    ],
)
def test_auto_picks_the_preset_by_player_count_and_warns_outside_ranked(
    players: int,
    hanchan: bool,
    category: str | None,
    stated: tuple[tuple[str, str], ...],
    name: str,
    warnings: int,
) -> None:
    rules = rules_for(_hint(players, hanchan, category, stated))
    assert (rules.name, rules.players, rules.hanchan) == (name, players, hanchan)
    assert len(rules.assumed) == warnings
    assert rules.results_assumed is (category != "ranked")
    if category == "ranked":
        assert rules == preset(name) or rules == replace(preset(name), hanchan=hanchan)
        return
    unstated, results = rules.assumed
    # The first warning names every rule key the record leaves out, none it states.
    said = {key for key, _ in stated}
    assert all(key not in unstated for key in said if key in _RULE_KEYS)
    assert "can_jifei" in unstated and "have_yifa" in unstated
    assert ("have_zimosun" in unstated) is (players == 3 and "have_zimosun" not in said)
    assert ("have_sifenglianda" in unstated) is (players == 4)
    assert results.startswith(f"Mahjong Soul {category or 'unknown kind of'} room: final results")


_RULE_KEYS = {"init_point", "fandian", "dora_count", "shiduan", "have_zimosun"}


def test_the_friendly_rooms_stated_rules_are_read() -> None:
    """The corpus's 3p friendly rooms: 35000 start, 40000 target, two red fives,
    kuitan and tsumo-son stated; the results count from the stated start."""
    rules = rules_for(_hint(3, True, "friendly", FRIENDLY_3P))
    assert (rules.start_points, rules.return_points, rules.settlement_points) == (
        35000,
        40000,
        35000,
    )
    assert (rules.aka, rules.kuitan, rules.tsumo_son, rules.uma) == (True, True, True, (15, 0, -15))


@pytest.mark.parametrize(
    ("stated", "field", "value"),
    [
        pytest.param((("init_point", "30000"),), "start_points", 30000, id="init_point"),
        pytest.param((("init_point", "30000"),), "settlement_points", 30000, id="settles-at-start"),
        pytest.param((("fandian", "35000"),), "return_points", 35000, id="fandian"),
        pytest.param((("dora_count", "0"),), "aka", False, id="no-red-fives"),
        pytest.param((("shiduan", "0"),), "kuitan", False, id="no-kuitan"),
        pytest.param((("can_jifei", "false"),), "tobi", False, id="no-busting"),
        pytest.param((("changbang_value", "1500"),), "honba_ron", 1500, id="honba"),
        pytest.param((("changbang_value", "1500"),), "honba_tsumo_each", 500, id="honba-tsumo"),
        pytest.param((("have_qieshangmanguan", "true"),), "kiriage", True, id="kiriage"),
        pytest.param((("have_yifa", "false"),), "ippatsu", False, id="no-ippatsu"),
        pytest.param((("have_li_dora", "false"),), "ura_dora", False, id="no-ura"),
        pytest.param(
            (("ming_dora_immediately_open", "true"),),
            "open_kan_dora_timing",
            "immediate",
            id="open-kan-dora-at-once",
        ),
        pytest.param((("have_toutiao", "true"),), "double_ron", False, id="head-bump"),
        pytest.param((("have_toutiao", "true"),), "triple_ron", "atamahane", id="head-bump-3"),
        pytest.param((("have_nanruxiru", "false"),), "west_extension", False, id="no-west"),
        pytest.param((("have_helezhongju", "false"),), "agari_yame", False, id="no-agari-yame"),
        pytest.param(
            (("have_jiuzhongjiupai", "false"),),
            "abortive_draws",
            frozenset({"suufon-renda", "suucha-riichi", "suukaikan"}),
            id="no-kyuushu",
        ),
        pytest.param(
            (("have_sanjiahele", "true"),),
            "triple_ron",
            "abortive",
            id="triple-ron-abortive",
        ),
        pytest.param(
            (("disable_multi_yukaman", "true"),),
            "double_yakuman_patterns",
            False,
            id="single-yakuman",
        ),
        pytest.param((("jingsuanyuandian", "30000"),), "settlement_points", 30000, id="settle"),
        pytest.param(
            (("shunweima_2", "10"), ("shunweima_3", "-10"), ("shunweima_4", "-20")),
            "uma",
            (20, 10, -10, -20),
            id="uma",
        ),
    ],
)
def test_each_stated_rule_sets_its_field(
    stated: tuple[tuple[str, str], ...], field: str, value: object
) -> None:
    rules = rules_for(_hint(4, True, "friendly", stated))
    assert getattr(rules, field) == value
    assert getattr(preset("mahjongsoul"), field) != value or field == "settlement_points"
    unstated = rules.assumed[0]
    assert all(f"{key}," not in unstated and not unstated.endswith(key) for key, _ in stated)


def test_a_stated_rule_the_engine_cannot_play_is_named() -> None:
    rules = rules_for(_hint(4, True, "friendly", (("fanfu", "2"), ("guyi_mode", "1"))))
    odd = [note for note in rules.assumed if "does not play" in note]
    assert odd == [
        "Mahjong Soul friendly room: the record sets fanfu 2; guyi_mode 1, which the engine "
        "does not play; mahjongsoul rules assumed instead"
    ]


# -- a friendly room's results are warnings, never errors ------------------------------


def _results_findings(rules: Ruleset) -> list[tuple[str, str]]:
    log = load(converted(READABLE[0]))
    audit = audit_log(log, rules)
    return [
        (f.code, f.severity.value)
        for f in audit.findings
        if f.message.startswith("game end: ") and "result is" in f.message
    ]


@pytest.mark.corpus
def test_results_assumed_turns_a_result_difference_into_a_warning() -> None:
    """A friendly room under another uma than the record's: four differing results,
    judged errors when the rules are known, warnings when they are assumed."""
    wrong = replace(preset("mahjongsoul"), uma=(20, 10, -10, -20))
    known = _results_findings(wrong)
    assumed = _results_findings(replace(wrong, results_assumed=True))
    assert known == [("final-score-mismatch", "error")] * 4
    assert assumed == [("rules-assumed", "warning")] * 4


@pytest.mark.parametrize(
    ("mode", "one_hand"), [("1", False), ("2", False), ("4", True), ("14", True)]
)
def test_the_one_hand_modes_end_after_their_first_hand(mode: str, one_hand: bool) -> None:
    players = 3 if int(mode) > 10 else 4
    hint = replace(_hint(players, None, "ai"), extras=(("mode", mode),))
    assert rules_for(hint).one_hand_game is one_hand


# -- --rules auto on every raw record of the corpus ------------------------------------


@pytest.mark.corpus
def test_auto_audits_every_record_under_a_mahjong_soul_preset() -> None:
    """All 30 raw records: a Mahjong Soul preset by the player count; no warning for
    the 2 ranked games; no final-score-mismatch anywhere; the only result warnings
    are the 3 three-player games of 2022 that count uma +20/0/-20 (2 seats each)."""
    if not MJS.is_dir():
        pytest.skip(f"corpus not available: {MJS}")
    paths = sorted((MJS / "raw-gdr").glob("*")) + sorted((MJS / "raw-records").glob("*"))
    names: dict[str | None, int] = {}
    result_warnings: dict[str, int] = {}
    for path in paths:
        audit = audit_path(str(path), "auto")
        assert audit.error is None, path.name
        names[audit.rules] = names.get(audit.rules, 0) + 1
        assert [f for f in audit.findings if f.code == "final-score-mismatch"] == [], path.name
        assumed = [f for f in audit.findings if f.code == "rules-assumed"]
        ranked = json.loads(path.read_text(encoding="utf-8")).get("head", {}).get("config", {})
        if ranked.get("category") == 2:
            assert assumed == [], path.name
        else:
            assert assumed, path.name
        results = [f for f in assumed if "result is" in f.message]
        if results:
            result_warnings[path.name] = len(results)
    assert names == {"mahjongsoul": 23, "mahjongsoul-sanma": 7}
    assert result_warnings == {name: 2 for name in SANMA_UMA_20}


@pytest.mark.parametrize("players", [4, 3])
def test_a_casual_match_plays_the_ranked_rules_and_leaves_its_results_unjudged(
    players: int,
) -> None:
    """交流の間 (Casual Match, as the converters name it): the ranked rules of play, with
    one warning that its result points are assumed, never an error built on them."""
    rules = rules_for(_hint(players, True, "casual", ()))
    name = "mahjongsoul-sanma" if players == 3 else "mahjongsoul"
    assert replace(rules, results_assumed=False) == replace(preset(name), hanchan=True)
    assert rules.results_assumed is True
    assert len(rules.assumed) == 1 and rules.assumed[0].startswith("Mahjong Soul casual match")


# -- a room's stated end rules are judged, whatever else is assumed --------------------

_TONPUU_FRIENDLY = "raw-records/220419-c7d0fa72-9b5b-4669-8653-82bdc19d3f53.json"
# The end rules a friendly room may state (camelCase, as its record writes them).
_END_RULES = {"canJifei": True, "haveNanruxiru": True, "haveHelezhongju": True}


def _room_game(tmp_path: Path, detail: dict[str, Any]) -> list[Any]:
    """The corpus's East-only friendly game (the top ends E4-2 on 54200) with its
    ``detailRule`` updated, audited under ``--rules auto``: its findings."""
    doc = ms_doc(_TONPUU_FRIENDLY)
    doc["meta"]["config"]["mode"]["detailRule"].update(detail)
    path = tmp_path / "room.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = audit_path(str(path), "auto")
    assert result.error is None
    return [f for f in result.findings if f.severity is Severity.ERROR]


@pytest.mark.corpus
def test_a_room_stating_its_end_rules_is_judged_by_them(tmp_path: Path) -> None:
    """Every end rule stated, and a target of 60000 nobody reaches: the extension
    sends the game on into South, so a result after East 4 is one game-end finding
    (it was never judged: the assumed uma made every rule of the room unknown)."""
    errors = _room_game(tmp_path, {**_END_RULES, "fandian": 60000})
    assert [(f.code, f.round) for f in errors] == [("game-end-mismatch", "E4-2")]
    assert "no player has 60000 after E4, so the game goes on into S1" in errors[0].message


@pytest.mark.corpus
def test_a_room_whose_target_is_reached_ends_cleanly(tmp_path: Path) -> None:
    assert _room_game(tmp_path, {**_END_RULES, "fandian": 30000}) == []


@pytest.mark.corpus
def test_a_room_that_leaves_an_end_rule_out_is_not_judged_for_it(tmp_path: Path) -> None:
    """No extension stated (protobuf drops a false value): the end is unknown."""
    rules = {key: value for key, value in _END_RULES.items() if key != "haveNanruxiru"}
    assert _room_game(tmp_path, {**rules, "fandian": 60000}) == []


def test_stated_end_rules_need_every_key_and_points() -> None:
    every = (
        ("can_jifei", "true"),
        ("fandian", "30000"),
        ("have_helezhongju", "true"),
        ("have_nanruxiru", "true"),
        ("init_point", "25000"),
    )
    assert stated_end_rules(_hint(4, True, "friendly", every)) == (True, True)
    no_points = tuple((k, "0" if k == "fandian" else v) for k, v in every)
    assert stated_end_rules(_hint(4, True, "friendly", no_points)) == (False, True)
    assert stated_end_rules(_hint(4, True, "friendly", every[1:])) == (False, False)
    assert stated_end_rules(_hint(4, True, "ranked", ())) == (True, True)
    assert stated_end_rules(RulesHint("tenhou-xml", 4)) == (False, False)


@pytest.mark.parametrize(
    ("hele", "tingpai", "yame"),
    [("true", "false", True), ("false", "true", True), ("false", "false", False)],
)
def test_either_stop_rule_lets_the_dealer_stop(hele: str, tingpai: str, yame: bool) -> None:
    """和了止め and 聴牌止め are one rule to the engine (the dealer may stop): either
    one stated true allows it, whichever key comes last."""
    stated = (("have_helezhongju", hele), ("have_tingpaizhongju", tingpai))
    assert rules_for(_hint(4, True, "friendly", stated)).agari_yame is yame


def test_a_seat_result_counts_from_its_own_score_not_the_others() -> None:
    """Mahjong Soul counts each seat's result from its own final score (no oka, no
    top taking the rest): scores that add up to 100 more than the start (one payment
    off) leave the top player's result as the record has it: (39700 - 25000)/1000
    + 15 = 29.7, not minus the others' (29.6)."""
    rules = preset("mahjongsoul")
    hint = RulesHint("mahjongsoul", 4, platform="mahjongsoul", category="ranked")
    res = final_result((39700, 34100, 27200, -900), 0, 0, 4, rules, hint, "g")
    assert res.results == (29.7, 14.1, -2.8, -40.9)
