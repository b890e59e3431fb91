"""``mjaudit cases export``, ``score --batch`` and ``cases check`` (docs/cases.md)."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

import reports.cases
import reports.cli
from analyzer.checks.audit import audit_path
from analyzer.checks.case_results import result_doc, result_text
from analyzer.checks.case_scoring import CaseError, answer_line, score_case
from analyzer.hands.scoring import score
from mjaudit.events import Win
from mjaudit.hands import Payments, WinContext
from mjaudit.rules import preset
from mjaudit.tiles import Tile, tiles
from parsers import load
from reports.cli import main
from tests.conftest import CORPUS, SAMPLES

Case = dict[str, Any]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _lines(path: Path) -> list[Case]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, docs: list[Case]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def _export(capsys: pytest.CaptureFixture[str], out: Path, *argv: str) -> list[Case]:
    code, _, err = _run(capsys, "cases", "export", *argv, "-o", str(out))
    assert code == 0, err
    return _lines(out)


def _wins(paths: list[Path]) -> int:
    """The wins the logs record, counted from their parsed events."""
    return sum(sum(1 for ev in load(str(p)).events if isinstance(ev, Win)) for p in paths)


def _sample_cases(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    out = tmp_path / "cases.jsonl"
    _export(capsys, out, str(SAMPLES / "clean_game.xml"), str(SAMPLES / "kans.xml"))
    return out


def test_a_case_per_win_and_its_answer_reproduces_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    cases = _lines(cases_path)
    assert len(cases) == _wins([SAMPLES / "clean_game.xml", SAMPLES / "kans.xml"]) > 0
    assert len({c["id"] for c in cases}) == len(cases)
    for case in cases:
        assert case["schema"] == "mjaudit.cases/1"
        assert case["findings"] == []
        # A clean log: what it recorded is what mjaudit recomputed.
        for key, value in case["recorded"].items():
            if key == "yaku":
                assert sorted(map(str, value)) == sorted(map(str, case["expected"]["yaku"]))
            else:
                assert case["expected"][key] == value, (case["id"], key)
    code, out, _ = _run(capsys, "score", "--batch", str(cases_path))
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["id"] for a in answers] == [c["id"] for c in cases]
    assert [a["result"] for a in answers] == [c["expected"] for c in cases]


def _situation(**fields: Any) -> Case:
    """A case's situation: seat 1 (South) in East 1, dealer 0, no flag set, but for
    ``fields``."""
    flags = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan",
             "haitei", "houtei", "tenhou", "chiihou", "renhou")  # fmt: skip
    situation: Case = {"seat": 1, "from_seat": 1, "dealer": 0, "seat_wind": "S",
                       "round_wind": "E", "dora_indicators": [], "ura_indicators": [],
                       "honba": 0, "riichi_sticks": 0}  # fmt: skip
    situation.update(dict.fromkeys(flags, False))
    situation.update(fields)
    return situation


def test_a_case_scores_as_the_score_command_does(capsys: pytest.CaptureFixture[str]) -> None:
    case: Case = {
        "id": "pinfu-tanyao-riichi-ron",
        "rules": {"name": "tenhou", "players": 4},
        "hand": {"concealed": "234m567p22345678s", "win_tile": "8s", "melds": []},
        "situation": _situation(
            seat=1, from_seat=2, riichi=True, dora_indicators=["1m"], honba=2, riichi_sticks=1
        ),
    }
    answer: Any = score_case(case)["result"]
    code, out, _ = _run(
        capsys, "score", "234m567p22345678s", "--win", "8s", "--ron", "--riichi",
        "--dora", "1m", "--honba", "2", "--sticks", "1", "--format", "json",
    )  # fmt: skip
    assert code == 0
    cli = json.loads(out)
    assert (answer["han"], answer["fu"], answer["points"]) == (cli["han"], cli["fu"], cli["total"])
    assert answer["fu_parts"] == cli["fu_parts"]
    # Seat 2 pays the hand and two honba; seat 1 takes them and the stick.
    assert answer["deltas"] == [0, cli["received"], -cli["payments"]["discarder"], 0]
    # The seat wind must be the one the seat has, counted from the dealer.
    case["situation"]["seat_wind"] = "E"
    with pytest.raises(CaseError, match="seat_wind: E, but seat 1 sits S of dealer 0"):
        score_case(case)


def test_an_answer_line_is_the_answer_as_json_writes_it() -> None:
    """score --batch writes its lines directly; they are what json.dumps writes of
    score_case's document, whatever the id holds (the corpus test holds every case)."""
    case: Case = {
        "rules": {"name": "tenhou", "players": 4},
        "hand": {"concealed": "111m999p11s111z", "win_tile": "1z", "melds": [
            {"kind": "pon", "tiles": "777z", "called": "7z", "from_seat": 0},
        ]},
        "situation": _situation(
            seat=1, from_seat=1, tsumo=True, dora_indicators=["7z"], honba=1
        ),
    }  # fmt: skip
    for case_id in ("plain", 'a "quoted" id\\ with\ttabs', "東1局 \u2028 \x00 end"):
        case["id"] = case_id
        line, win = answer_line(case)
        assert win and line == json.dumps(score_case(case), ensure_ascii=False) + "\n"
        assert json.loads(line)["id"] == case_id
    # A hand that is not a win: its error, the same way.
    case["hand"]["concealed"] = "111m999p12s111z"
    case["hand"]["win_tile"] = "2s"
    line, win = answer_line(case)
    assert not win and json.loads(line)["error"] == score_case(case)["error"]
    assert line == json.dumps(score_case(case), ensure_ascii=False) + "\n"


def test_a_hostile_hand_is_refused_and_not_kept() -> None:
    """A group of digits no hand holds (here 100,000 1m) is a bad case, and the table
    of groups read so far keeps none longer than a hand's (memory stays bounded)."""
    import analyzer.checks.case_scoring as case_scoring

    case: Case = {
        "id": "huge",
        "rules": {"name": "tenhou", "players": 4},
        "hand": {"concealed": "1" * 100_000 + "m", "win_tile": "1m", "melds": []},
        "situation": _situation(tsumo=True),
    }
    with pytest.raises(CaseError, match="100000 tiles of 1m"):
        answer_line(case)
    assert all(len(g) <= 15 for g in case_scoring._GROUP_TILES)


def test_a_meld_read_before_does_not_stand_for_one_of_other_types() -> None:
    """The melds read so far are kept by their values and the values' types: a meld
    whose ``from_seat`` is ``true`` is refused after the same meld with ``1`` was read
    (``True == 1`` to Python, not to the schema)."""
    pon: Case = {"kind": "pon", "tiles": "777z", "called": "7z", "from_seat": 1}
    case: Case = {
        "id": "pon",
        "rules": {"name": "tenhou", "players": 4},
        "hand": {"concealed": "111m999p11s111z", "win_tile": "1z", "melds": [pon]},
        "situation": _situation(seat=1, from_seat=1, tsumo=True),
    }
    assert answer_line(case)[1]
    assert answer_line(case)[1]  # the meld as kept
    case["hand"]["melds"] = [{**pon, "from_seat": True}]
    with pytest.raises(
        CaseError, match=r"hand.melds\[0\].from_seat: expected an integer, not true"
    ):
        answer_line(case)
    case["hand"]["melds"] = [{**pon, "from_seat": 1.0}]
    with pytest.raises(CaseError, match=r"from_seat: expected an integer, not 1\.0"):
        answer_line(case)


@pytest.mark.parametrize(
    "payments",
    [Payments(8000), Payments(None, 4000, 2000), Payments(None, None, 4000), Payments()],
)
def test_payments_as_text_are_what_json_writes(payments: Payments) -> None:
    """Ron, a non-dealer's tsumo, the dealer's tsumo, and nothing (never made)."""
    hand = score(tiles("234m567p22345678s"), Tile("8s"), (), WinContext(True), preset("tenhou"))
    result = replace(hand, payments=payments)
    assert result_text(result, None, None) == json.dumps(result_doc(result, None, None))


def _edit(answers: list[Case], index: int, edit: Any) -> str:
    edit(answers[index]["result"])
    return str(answers[index]["id"])


def test_an_edited_fu_and_an_edited_yaku_are_exactly_two_disagreements(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    _, out, _ = _run(capsys, "score", "--batch", str(cases_path))
    answers = [json.loads(line) for line in out.splitlines()]
    ordinary = [k for k, a in enumerate(answers) if not a["result"]["yakuman"]]
    fu_id = _edit(answers, ordinary[0], lambda r: r.update(fu=r["fu"] + 10))

    def rename_yaku(r: Case) -> None:
        r["yaku"][0]["name"] = "chinitsu" if r["yaku"][0]["name"] != "chinitsu" else "honitsu"

    yaku_id = _edit(answers, ordinary[1], rename_yaku)
    answers_path = _write(tmp_path / "answers.jsonl", answers)
    code, out, err = _run(
        capsys, "cases", "check", str(cases_path), str(answers_path), "--format", "json"
    )
    assert code == 1, err
    doc = json.loads(out)
    assert doc["disagreements"] == 2 and doc["cases_disagreeing"] == 2
    assert {k: [d["id"] for d in v["disagreements"]] for k, v in doc["kinds"].items()} == {
        "fu": [fu_id],
        "yaku": [yaku_id],
    }
    fu = doc["kinds"]["fu"]["example"]
    assert fu["actual"] == fu["expected"] + 10
    code, out, _ = _run(capsys, "cases", "check", str(cases_path), str(answers_path))
    assert code == 1
    assert out.splitlines()[0].endswith("2 disagreements in 2 cases (against expected)")
    assert [line.split(":")[0] for line in out.splitlines()[1:] if not line[0].isspace()] == [
        "yaku",
        "fu",
    ]
    code, out, _ = _run(
        capsys, "cases", "check", str(cases_path), str(answers_path), "--format", "junit"
    )
    suite = ElementTree.fromstring(out)
    assert code == 1 and suite.get("failures") == "2"
    failed = [c.get("name") for c in suite if c.find("failure") is not None]
    assert failed == ["yaku", "fu"]


def test_a_missing_answer_and_fields_left_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    _, out, _ = _run(capsys, "score", "--batch", str(cases_path))
    answers = [json.loads(line) for line in out.splitlines()]
    # A scorer that only gives han and points: nothing else is compared.
    partial = [{"id": a["id"], "result": {"han": a["result"]["han"]}} for a in answers[1:]]
    path = _write(tmp_path / "partial.jsonl", partial)
    code, out, _ = _run(capsys, "cases", "check", str(cases_path), str(path), "--all")
    assert code == 1
    lines = out.splitlines()
    assert lines[1:2] == ["missing: 1 case"] and len(lines) == 3
    assert lines[2].startswith(f"  {answers[0]['id']}: no answer (expected ")


def test_files_given_the_wrong_way_round_are_said_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    n = len(_lines(cases_path))
    _, out, _ = _run(capsys, "score", "--batch", str(cases_path))
    answers = tmp_path / "answers.jsonl"
    answers.write_text(out, encoding="utf-8")
    # The two swapped: one line that says so, not one per case.
    code, out, err = _run(capsys, "cases", "check", str(answers), str(cases_path))
    assert code == 2 and out.startswith("0 cases, 0 answered")
    assert err.splitlines() == [
        f"mjaudit: {answers} (line 1): an answer, not a case: the cases come first "
        "(cases check CASES ANSWERS); neither file was read further"
    ]
    # The cases given as their own answers.
    code, out, err = _run(capsys, "cases", "check", str(cases_path), str(cases_path))
    assert code == 2 and out.startswith(f"{n} cases, 0 answered")
    assert err.splitlines() == [
        f"mjaudit: {cases_path} (line 1): a case, not an answer: answers are what a scorer "
        f"writes for the cases (mjaudit score --batch {cases_path} writes mjaudit's); the "
        "rest of this file was not read"
    ]
    # A scorer that echoes each case with its result added is answering.
    echoed = [
        {**c, "result": a["result"]}
        for c, a in zip(_lines(cases_path), _lines(answers), strict=True)
    ]
    code, out, err = _run(
        capsys, "cases", "check", str(cases_path), str(_write(tmp_path / "echo.jsonl", echoed))
    )
    assert code == 0 and err == "" and out.startswith(f"{n} cases, {n} answered, 0 disagreements")


def test_bad_lines_are_named_by_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = _lines(_sample_cases(capsys, tmp_path))
    broken = json.loads(json.dumps(cases[1]))
    broken["hand"]["concealed"] = "234m5x"
    no_hand = {k: v for k, v in cases[2].items() if k != "hand"}
    later = {**cases[3], "schema": "mjaudit.cases/2"}
    path = tmp_path / "bad.jsonl"
    path.write_text(
        "\n".join(
            [json.dumps(cases[0]), "{not json"] + [json.dumps(d) for d in (broken, no_hand, later)]
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, err = _run(capsys, "score", "--batch", str(path))
    assert code == 2
    assert len(out.splitlines()) == 1  # the good line is still scored
    assert err.splitlines() == [
        f"mjaudit: {path} (line 2): not JSON: Expecting property name enclosed in double "
        "quotes at column 2",
        f"mjaudit: {path} (line 3): hand.concealed: unexpected 'x' in mpsz string '234m5x'",
        f"mjaudit: {path} (line 4): hand: missing",
        f'mjaudit: {path} (line 5): schema: "mjaudit.cases/2", this reads mjaudit.cases/1',
    ]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(out + '{"id": "nobody", "result": {}}\n[1]\n', encoding="utf-8")
    code, _, err = _run(capsys, "cases", "check", str(path), str(answers))
    assert code == 2
    assert f"{answers} (line 2): no case has the id nobody" in err
    assert f"{answers} (line 3): an answer is a JSON object with a string id" in err
    assert "Traceback" not in err
    code, _, err = _run(capsys, "cases", "check", str(tmp_path / "absent.jsonl"), str(answers))
    assert code == 2 and err.startswith(f"mjaudit: {tmp_path / 'absent.jsonl'}: cannot read")


def test_score_batch_in_workers_writes_what_one_process_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chunks of three cases, so that bad lines fall in several chunks, scored by two
    # workers: the same answers, the same problems in the same order, the same exit.
    monkeypatch.setattr(reports.cases, "CHUNK", 3)
    cases = [json.dumps(c) for c in _lines(_sample_cases(capsys, tmp_path))]
    mixed = []
    for k, line in enumerate(cases * 3):
        mixed.append(line)
        if k % 4 == 1:
            mixed.append("{not json" if k % 8 == 1 else '{"id": "x"}')
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(mixed) + "\n", encoding="utf-8")
    alone = _run(capsys, "score", "--batch", str(path), "-j", "1")
    pooled = _run(capsys, "score", "--batch", str(path), "-j", "2")
    assert alone == pooled
    code, out, err = alone
    assert code == 2 and len(out.splitlines()) == 3 * len(cases)
    assert len(err.splitlines()) == sum(1 for line in mixed if line not in cases) > 4


def test_the_help_names_the_size_where_a_pool_pays() -> None:
    assert reports.cli._POOL_CASES == reports.cases.CHUNK * reports.cases.POOL_THRESHOLD


@pytest.mark.parametrize("command", [("score", "--batch"), ("cases", "check")])
def test_numbers_json_cannot_hold_are_bad_lines_not_a_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_text("[" + "9" * 5000 + ']\n[NaN]\n{"x": -Infinity}\n', encoding="utf-8")
    extra = [str(path)] if command[0] == "cases" else []
    code, _, err = _run(capsys, *command, str(path), *extra)
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[:3] == [
        f"mjaudit: {path} (line 1): not JSON: a number of more than 4300 digits",
        f"mjaudit: {path} (line 2): not JSON: NaN is not a JSON number",
        f"mjaudit: {path} (line 3): not JSON: -Infinity is not a JSON number",
    ]


def test_an_unreadable_input_is_named_and_the_others_exported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<mjloggm><INIT", encoding="utf-8")
    out = tmp_path / "c.jsonl"
    code, _, err = _run(
        capsys, "cases", "export", str(bad), str(SAMPLES / "kans.xml"), "-o", str(out)
    )
    assert code == 2
    assert err.splitlines()[0].startswith(f"mjaudit: {bad}")
    assert len(_lines(out)) == _wins([SAMPLES / "kans.xml"])


def test_filters_and_dedupe(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    every = _lines(_sample_cases(capsys, tmp_path))
    sample = [str(SAMPLES / "clean_game.xml"), str(SAMPLES / "kans.xml")]
    for spec, keep in (
        ("han>=3", lambda c: c["expected"]["han"] >= 3),
        ("han=1", lambda c: c["expected"]["han"] == 1),
        ("limit=mangan", lambda c: c["expected"]["limit"] == "mangan"),
        ("yaku=riichi", lambda c: "riichi" in [y["name"] for y in c["expected"]["yaku"]]),
        ("rules=tenhou", lambda c: c["rules"]["name"] == "tenhou"),
        (
            "yaku=seat wind E",
            lambda c: "seat_wind_east" in [y["name"] for y in c["expected"]["yaku"]],
        ),
    ):
        got = _export(capsys, tmp_path / "f.jsonl", *sample, "--filter", spec)
        assert [c["id"] for c in got] == [c["id"] for c in every if keep(c)], spec
    both = _export(
        capsys, tmp_path / "f.jsonl", *sample, "--filter", "han>=2", "--filter", "yaku=riichi"
    )
    assert all(c["expected"]["han"] >= 2 for c in both)
    code, _, err = _run(capsys, "cases", "export", *sample, "-o", "-", "--filter", "fu=30")
    assert code == 2 and "--filter 'fu=30'" in err
    # A name no result can hold would keep no case: refused, with what was meant.
    for spec, said in (
        ("yaku=riichii", "no yaku is called 'riichii' (did you mean riichi"),
        ("yaku=dora", "dora, red fives and ura are counted apart"),
        ("limit=mangann", "no limit is called 'mangann' (did you mean mangan"),
    ):
        code, _, err = _run(capsys, "cases", "export", *sample, "-o", "-", "--filter", spec)
        assert code == 2 and said in err, (spec, err)
    # The same game in two files: its cases twice (ids kept apart), or once with --dedupe.
    kans = str(SAMPLES / "kans.xml")
    copy = tmp_path / "copy" / "kans.xml"
    copy.parent.mkdir()
    shutil.copy(kans, copy)
    twice = _export(capsys, tmp_path / "t.jsonl", kans, str(copy))
    n = len(twice) // 2
    assert [c["id"] for c in twice[n:]] == [f"{c['id']}#2" for c in twice[:n]]
    once = _export(capsys, tmp_path / "t.jsonl", kans, str(copy), "--dedupe")
    assert once == twice[:n]
    # One file named twice is one input: its cases once.
    assert _export(capsys, tmp_path / "t.jsonl", kans, kans) == twice[:n]


def test_batch_needs_no_hand_and_refuses_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    code, _, err = _run(capsys, "score", "22m", "--batch", str(cases_path))
    assert code == 2 and "--batch reads the hands from the cases" in err
    code, _, err = _run(capsys, "score", "--win", "8s", "--ron")
    assert code == 2 and "Missing argument 'HAND'" in err


# One way to give each option of ``score`` that ``--batch`` does not read: each case
# carries its own hand, situation and rules, and the answers are JSON lines.
NOT_FOR_BATCH = {
    "hand": ["22m"],
    "win_tile": ["--win", "2m"],
    "ron": ["--tsumo"],
    "melds": ["--meld", "pon:777p"],
    "riichi": ["--riichi"],
    "double_riichi": ["--double-riichi"],
    "ippatsu": ["--ippatsu"],
    "rinshan": ["--rinshan"],
    "chankan": ["--chankan"],
    "haitei": ["--haitei"],
    "houtei": ["--houtei"],
    "tenhou_": ["--tenhou"],
    "chiihou": ["--chiihou"],
    "renhou": ["--renhou"],
    "seat_wind": ["--seat-wind", "S"],
    "round_wind": ["--round-wind", "E"],
    "dora": ["--dora", "1m"],
    "ura": ["--ura", "1m"],
    "honba": ["--honba", "0"],
    "sticks": ["--sticks", "1"],
    "players": ["--players", "4"],
    "rules": ["--rules", "tenhou"],
    "fmt": ["--format", "json"],
}


@pytest.mark.parametrize("name", sorted(NOT_FOR_BATCH))
def test_batch_refuses_every_option_it_does_not_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    # Even one that names a valid value, or the default: the cases' own rules and
    # situations are what is scored, and an option silently dropped misleads.
    cases_path = _sample_cases(capsys, tmp_path)
    code, out, err = _run(capsys, "score", "--batch", str(cases_path), *NOT_FOR_BATCH[name])
    assert (code, out) == (2, "")
    named = NOT_FOR_BATCH[name][0] if name != "hand" else "HAND"
    (line,) = [line for line in err.splitlines() if line.startswith("Error:")]
    assert "--batch reads the hands from the cases" in line and named in line


def test_batch_refusal_names_every_option_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases_path = _sample_cases(capsys, tmp_path)
    argv = ["--batch", str(cases_path), "--rules", "mleague", "--players", "4", "--riichi"]
    code, _, err = _run(capsys, "score", *argv, "-j", "1")
    assert code == 2
    assert err.splitlines()[-1].endswith("give no --riichi, --players or --rules")
    # Every option of the command but --batch and --jobs is refused (a new one too).
    params = {p.name for p in reports.cli.score_command.params}
    assert params - {"batch", "jobs"} == set(NOT_FOR_BATCH)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        pytest.param(
            {"kirage": True}, "rules.kirage: unknown rule (did you mean kiriage?)", id="misspelt"
        ),
        pytest.param(
            {"kan_dora": False},
            "rules.kan_dora: a setting a case does not carry",
            id="not-a-cases-rule",
        ),
        pytest.param({"kiriage": "yes"}, "rules: kiriage must be true or false", id="wrong-type"),
        pytest.param({"renhou": "half"}, "rules: renhou must be one of", id="wrong-choice"),
        pytest.param({"name": 5}, "rules.name: expected a string, not 5", id="name"),
    ],
)
def test_a_rule_the_case_reader_does_not_use_is_a_bad_case(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rules: Case, message: str
) -> None:
    # Dropped unread, it would score the case under other rules than it states.
    (case, *_) = _lines(_sample_cases(capsys, tmp_path))
    case["rules"] = {**case["rules"], **rules}
    with pytest.raises(CaseError, match=re.escape(message)):
        score_case(case)
    code, out, err = _run(capsys, "score", "--batch", str(_write(tmp_path / "c.jsonl", [case])))
    assert (code, out) == (2, "")
    assert f"c.jsonl (line 1): {message}" in err


def test_every_bad_key_of_a_cases_rules_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (case, *_) = _lines(_sample_cases(capsys, tmp_path))
    case["rules"] = {"name": "mleague", "kirage": True, "kan_dora": False, "tobi": "banana"}
    with pytest.raises(CaseError) as caught:
        score_case(case)
    assert [part.split(":")[0] for part in str(caught.value).split("; ")] == [
        "rules.kan_dora", "rules.kirage", "rules.tobi",
    ]  # fmt: skip


CORPORA = ("tenhou-xml", "tenhou-json", "mjai", "mahjongsoul")


@pytest.mark.corpus
@pytest.mark.parametrize("corpus", CORPORA)
def test_every_corpus_win_is_a_case_batch_reproduces(
    corpus: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = CORPUS / corpus
    if not folder.is_dir():
        pytest.skip(f"corpus not available at {folder}")
    cases_path = tmp_path / "c.jsonl"
    cases = _export(capsys, cases_path, str(folder))
    logs = [p for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix != ".md"]
    # One case per win the audit scored (a hand the replay could not finish has none).
    scored = sum(dict(audit_path(str(p), review=False).checks).get("wins_scored", 0) for p in logs)
    assert len(cases) == scored > 0
    if corpus != "mjai":  # two mjai logs are inconsistent (the audit's inconsistent-log)
        assert scored == _wins(logs)
    assert len({c["id"] for c in cases}) == len(cases)
    answers_path = tmp_path / "a.jsonl"
    code, out, _ = _run(capsys, "score", "--batch", str(cases_path))
    assert code == 0
    answers_path.write_text(out, encoding="utf-8")
    # The lines written directly are what json.dumps writes of each answer's document.
    assert out.splitlines() == [json.dumps(score_case(c), ensure_ascii=False) for c in cases]
    code, out, _ = _run(capsys, "cases", "check", str(cases_path), str(answers_path))
    assert (code, out.splitlines()[0]) == (
        0,
        f"{len(cases)} cases, {len(cases)} answered, 0 disagreements in 0 cases (against expected)",
    )
    # Against what the logs recorded, only the wins the audit found wrong disagree.
    code, out, _ = _run(
        capsys, "cases", "check", str(cases_path), str(answers_path),
        "--against", "recorded", "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    disagreeing = {d["id"] for kind in doc["kinds"].values() for d in kind["disagreements"]}
    marked = {c["id"] for c in cases if c["findings"]}
    assert disagreeing <= marked
    assert code == (1 if disagreeing else 0)
    if corpus == "tenhou-xml":
        assert len(cases) == 2639 and not disagreeing


def _good_case() -> Case:
    return {
        "id": "a",
        "rules": {"name": "tenhou", "players": 4},
        "hand": {"concealed": "234m567p22345678s", "win_tile": "8s", "melds": []},
        "situation": _situation(from_seat=2, dora_indicators=["1m"], kita=0),
    }


@pytest.mark.parametrize(
    ("where", "key", "value", "message"),
    [
        ("", "id", 5, "id: expected a string, not 5"),
        ("", "id", None, "id: expected a string, not null"),
        ("", "hand", [], "hand: expected an object, not []"),
        ("", "situation", "x", 'situation: expected an object, not "x"'),
        ("hand", "concealed", None, "hand.concealed: expected a string, not null"),
        ("hand", "concealed", "234m567p2234567x", "hand.concealed: unexpected 'x'"),
        ("hand", "win_tile", 8, "hand.win_tile: expected a string, not 8"),
        ("hand", "win_tile", "8x", "hand.win_tile: unexpected 'x'"),
        ("hand", "win_tile", "88s", 'hand.win_tile: expected one tile, not "88s"'),
        ("hand", "melds", {}, "hand.melds: expected a list, not {}"),
        ("situation", "seat_wind", 1, "situation.seat_wind: expected a string, not 1"),
        ("situation", "seat_wind", "X", 'situation.seat_wind: expected one of E, S, W, N, not "X"'),
        ("situation", "round_wind", None, "situation.round_wind: expected a string, not null"),
        (
            "situation",
            "round_wind",
            "e",
            'situation.round_wind: expected one of E, S, W, N, not "e"',
        ),
        (
            "situation",
            "dora_indicators",
            "1m",
            'situation.dora_indicators: expected a list, not "1m"',
        ),
        (
            "situation",
            "dora_indicators",
            [1],
            "situation.dora_indicators[0]: expected an mpsz string",
        ),
        (
            "situation",
            "ura_indicators",
            "1m",
            'situation.ura_indicators: expected a list of tiles, not "1m"',
        ),
        ("situation", "kita", True, "situation.kita: expected an integer, not true"),
        ("situation", "kita", 5, "situation.kita: 5 is not in 0..4"),
        ("situation", "kita", 1, "situation.kita: a North is set aside in three-player games only"),
        (
            "situation",
            "takes_counters",
            1,
            "situation.takes_counters: expected true or false, not 1",
        ),
        ("situation", "seat", True, "situation.seat: expected an integer, not true"),
        ("situation", "honba", -1, "situation.honba: -1 is not in 0..1000000"),
        ("situation", "riichi", 0, "situation.riichi: expected true or false, not 0"),
    ],
)
def test_each_value_of_a_case_read_wrong_is_named(
    where: str, key: str, value: Any, message: str
) -> None:
    """The reader takes a right value at once and reads a wrong one again for its
    message: each field's own, as it always said it."""
    case = _good_case()
    score_case(case)  # right as it is
    (case[where] if where else case)[key] = value
    with pytest.raises(CaseError) as caught:
        score_case(case)
    assert str(caught.value).startswith(message), str(caught.value)
    del (case[where] if where else case)[key]
    if key in ("kita", "takes_counters", "ura_indicators"):
        score_case(case)  # these may be left out
    else:
        with pytest.raises(CaseError, match=re.escape(f"{key}: missing")):
            score_case(case)
