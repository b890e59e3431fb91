"""Malformed logs and bad command-line input: one clear line and exit 2, never a traceback.

Each log below is the project's clean sample game with one defect made at run time
(or a tiny JSON file). Every command that reads a log (audit, replay, report,
convert) must name the file and the place and exit 2, or, where the file is readable
and one hand cannot be replayed, audit it with an ``inconsistent-log`` finding.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from analyzer.checks.audit import audit_log, resolve_rules
from mjaudit.errors import LogFormatError, MjauditError
from parsers import load, load_bytes
from parsers.json_text import BadJson, load_json, short
from parsers.tenhou_xml import decode_meld
from reports.cli import main
from tests.conftest import SAMPLES, corpus_file

CLEAN = SAMPLES / "clean_game.xml"
SANMA = "2009060321gm-00b9-0000-75b25bcf.xml"  # a three-player corpus game


def _xml(edit: Callable[[str], str]) -> bytes:
    text = CLEAN.read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text, "the edit must change the sample"
    return changed.encode("utf-8")


def _drop_first_hai0(text: str) -> str:
    return re.sub(r' hai0="[^"]*"', "", text, count=1)


def _seat_holds_14_at_the_draw(text: str) -> str:
    # The last discard before the exhaustive draw goes: seat 3 holds 14 tiles there.
    return text.replace("<G66/><RYUUKYOKU", "<RYUUKYOKU", 1)


# name -> (bytes, suffix, what the one error line must say)
MALFORMED: dict[str, tuple[Callable[[], bytes], str, str]] = {
    "superscript-digit-tag": (
        lambda: _xml(lambda t: t.replace("<T6/>", "<T\u2074/>", 1)),
        ".xml",
        "(element 5): <T\u2074/>: unknown tag",
    ),
    "fullwidth-digit-attribute": (
        lambda: _xml(lambda t: t.replace('oya="0"', 'oya="\uff10"', 1)),
        ".xml",
        "TAIKYOKU oya is not an integer",
    ),
    "init-without-hai0": (lambda: _xml(_drop_first_hai0), ".xml", "INIT has no hai0"),
    "init-negative-round": (
        lambda: _xml(lambda t: t.replace('seed="0,0,0,2,3,1"', 'seed="-20,0,0,2,3,1"', 1)),
        ".xml",
        "INIT seed: the round, honba and riichi sticks cannot be negative",
    ),
    "init-dice-9": (
        lambda: _xml(lambda t: t.replace('seed="0,0,0,2,3,1"', 'seed="0,0,0,9,3,1"', 1)),
        ".xml",
        "INIT seed: dice 9,3 are outside 0..5",
    ),
    "go-sanma-bit-on-4p": (
        lambda: _xml(lambda t: t.replace('<GO type="1"', '<GO type="17"', 1)),
        ".xml",
        "INIT hai3 deals 13 tiles in a three-player game (GO type 17",
    ),
    "go-type-negative": (
        lambda: _xml(lambda t: t.replace('<GO type="1"', '<GO type="-1"', 1)),
        ".xml",
        "GO type -1 is outside 0..65535",
    ),
    "go-type-huge": (
        lambda: _xml(lambda t: t.replace('<GO type="1"', '<GO type="99999999999999999999"', 1)),
        ".xml",
        "GO type holds a number of more than 15 digits",
    ),
    "go-type-above-16-bits": (
        lambda: _xml(lambda t: t.replace('<GO type="1"', '<GO type="1048577"', 1)),
        ".xml",
        "GO type 1048577 is outside 0..65535",
    ),
    "meld-code-huge": (
        lambda: _xml(lambda t: t.replace('m="48714"', 'm="4871400000"', 1)),
        ".xml",
        "meld code 4871400000 is outside 0..65535",
    ),
    "meld-code-chi-past-9": (
        lambda: _xml(lambda t: t.replace('m="48714"', f'm="{(63 << 10) | 0x4}"', 1)),
        ".xml",
        "chi run 21 is outside 0..20",
    ),
    "integer-of-4301-digits-xml": (
        lambda: _xml(lambda t: t.replace('ten="30,3900,0"', f'ten="30,{"9" * 4301},0"', 1)),
        ".xml",
        "AGARI ten holds a number of more than 15 digits",
    ),
    "reach-ten-one-score": (
        lambda: _xml(lambda t: t.replace('ten="250,240,250,250" step="2"', 'ten=" 4" step="2"', 1)),
        ".xml",
        "REACH ten has 1 numbers, expected 4",
    ),
    "nul-byte": (
        lambda: _xml(lambda t: t.replace("<T6/>", "<T6/>\x00", 1)),
        ".xml",
        "(line 1, column ",
    ),
    "deep-json": (lambda: b"[" * 100_000 + b"]" * 100_000, ".json", "nested too deeply"),
    "deep-json-in-log": (
        lambda: b'{"log": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        ".json",
        "nested too deeply",
    ),
    "integer-of-4301-digits-json": (
        lambda: b'{"log": [[[0, 0, 0], ' + b"9" * 4301 + b"]]}",
        ".json",
        "a number of 4301 digits",
    ),
    "integer-of-4301-digits-mjai": (
        lambda: (
            b'{"type":"start_game","names":["a","b","c","d"]}\n'
            b'{"type":"start_kyoku","kyoku":' + b"9" * 4301 + b"}\n"
        ),
        ".jsonl",
        "(line 2): not valid JSON: a number of 4301 digits",
    ),
    "nan-in-json": (
        lambda: b'{"log": [[[0, 0, 0], NaN]]}',
        ".json",
        "NaN is not a JSON number",
    ),
}


def _write(tmp_path: Path, name: str) -> tuple[Path, str]:
    make, suffix, words = MALFORMED[name]
    path = tmp_path / f"{name}{suffix}"
    path.write_bytes(make())
    return path, words


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_clean_line(err: str, path: Path, words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert lines[0].startswith("mjaudit: ") and str(path) in lines[0], lines[0]
    assert words in lines[0], lines[0]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_the_library_refuses_it_with_a_log_format_error(tmp_path: Path, name: str) -> None:
    path, words = _write(tmp_path, name)
    with pytest.raises(LogFormatError) as info:
        load(str(path))
    text = str(info.value)
    assert "\n" not in text and text.startswith(str(path)) and words in text
    assert len(text) < 400  # a huge value is quoted cut short


@pytest.mark.parametrize("name", sorted(MALFORMED))
@pytest.mark.parametrize("command", ["audit", "replay", "replay-wall", "convert", "report"])
def test_every_command_gives_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: str
) -> None:
    path, words = _write(tmp_path, name)
    argv = {
        "audit": ["audit", str(path)],
        "replay": ["replay", str(path), "--seat", "0"],
        "replay-wall": ["replay", str(path), "--wall"],
        "convert": ["convert", str(path), "--to", "mjai", "-o", str(tmp_path / "out.jsonl")],
        "report": ["report", str(path), "-o", str(tmp_path / "out.html")],
    }[command]
    code, _, err = _run(capsys, *argv)
    assert code == 2
    _one_clean_line(err, path, words)


def test_a_seat_with_14_tiles_at_a_draw_is_one_inconsistent_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file reads; the hand that ends in a draw cannot have happened.
    path = tmp_path / "draw-14.xml"
    path.write_bytes(_xml(_seat_holds_14_at_the_draw))
    log = load(str(path))
    audit = audit_log(log, resolve_rules(log, "auto"))
    broken = [f for f in audit.findings if f.code == "inconsistent-log"]
    assert [f.round for f in broken] == ["E3-0"]
    assert "seat 3 holds 14 tiles and 0 melds at the exhaustive draw" in broken[0].message
    code, out, err = _run(capsys, "audit", "--format", "json", str(path))
    assert code == 1 and "Traceback" not in err and "internal error" not in out + err
    doc = json.loads(out)
    assert doc["totals"]["unreadable"] == 0
    assert "inconsistent-log" in [f["code"] for f in doc["findings"]]
    for argv in (["replay", str(path)], ["replay", str(path), "--wall"]):
        code, _, err = _run(capsys, *argv)
        assert code == 0 and err == ""
    code, _, err = _run(capsys, "report", str(path), "-o", str(tmp_path / "r.html"))
    assert code == 1 and "Traceback" not in err  # its exit code is audit's: an error finding


def test_the_hand_after_an_impossible_draw_is_still_audited() -> None:
    log = load_bytes(_xml(_seat_holds_14_at_the_draw), "draw-14.xml")
    audit = audit_log(log, resolve_rules(log, "auto"))
    labels = [f.round for f in audit.findings if f.code == "inconsistent-log"]
    assert len(labels) == 1 and audit.rounds == 4


def test_a_nul_byte_error_is_one_line() -> None:
    with pytest.raises(LogFormatError) as info:
        load_bytes(_xml(lambda t: t.replace("<T6/>", "<T6/>\x00", 1)), "nul.xml")
    assert str(info.value) == (
        "nul.xml (line 1, column 480): not well-formed XML: "
        "Invalid character: Char 0x0 out of allowed range"
    )


def test_a_control_character_in_an_attribute_is_shown_escaped() -> None:
    data = _xml(lambda t: t.replace('<TAIKYOKU oya="0"', '<TAIKYOKU oya="0&#10;1"', 1))
    with pytest.raises(LogFormatError) as info:
        load_bytes(data, "ctl.xml")
    assert "\n" not in str(info.value) and 'oya="0\\x0a1"' in str(info.value)


def test_decode_meld_refuses_codes_that_are_no_meld() -> None:
    for code in (-1, 1 << 16, (63 << 10) | 0x4):
        with pytest.raises(ValueError):
            decode_meld(0, code)


def test_a_tile_id_of_thousands_of_digits_is_named() -> None:
    data = _xml(lambda t: t.replace("<T6/>", "<T" + "0" * 5000 + "6/>", 1))
    with pytest.raises(LogFormatError) as info:
        load_bytes(data, "long.xml")
    assert "is outside 0..135" in str(info.value) and len(str(info.value)) < 400


# -- XML that tries to reach outside the file ------------------------------------
@pytest.mark.parametrize(
    "doc",
    [
        pytest.param(
            b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">'
            + b"".join(
                b'<!ENTITY %s "%s">'
                % (f"a{k}".encode(), (f"&a{k - 1};" if k > 1 else "&a;").encode() * 10)
                for k in range(1, 10)
            )
            + b']><mjloggm ver="2.3"><GO type="&a9;"/></mjloggm>',
            id="billion-laughs",
        ),
        pytest.param(
            b'<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<mjloggm ver="2.3"><UN n0="&x;"/></mjloggm>',
            id="external-file-entity",
        ),
        pytest.param(
            b'<!DOCTYPE m SYSTEM "http://127.0.0.1:9/x.dtd"><mjloggm ver="2.3"/>',
            id="external-dtd",
        ),
        pytest.param(
            b"<mjloggm>" + b"<N>" * 100_000 + b"</N>" * 100_000 + b"</mjloggm>", id="deep"
        ),
    ],
)
def test_xml_entities_dtds_and_depth_are_never_expanded_or_fetched(doc: bytes) -> None:
    start = time.process_time()
    with pytest.raises(LogFormatError) as info:
        load_bytes(doc, "hostile.xml")
    text = str(info.value)
    assert "\n" not in text and text.startswith("hostile.xml (")
    assert "root:" not in text  # /etc/passwd was never read into the message
    assert time.process_time() - start < 5  # nothing was expanded (a bound, not a timing)


def test_the_xml_parser_options_forbid_entities_and_network() -> None:
    from parsers.tenhou_xml import _PARSER_OPTIONS

    assert _PARSER_OPTIONS["resolve_entities"] is False
    assert _PARSER_OPTIONS["no_network"] is True
    assert _PARSER_OPTIONS["load_dtd"] is False
    assert _PARSER_OPTIONS["huge_tree"] is False
    # An external entity in a document parsed with these options stays unread.
    parser = etree.XMLParser(**_PARSER_OPTIONS)  # type: ignore[arg-type]
    doc = b'<!DOCTYPE m [<!ENTITY e SYSTEM "file:///etc/hostname">]><m>&e;</m>'
    root = etree.fromstring(doc, parser)
    assert "".join(map(str, root.itertext())) in ("", "&e;")  # the reference, never the file


# -- JSON helpers ----------------------------------------------------------------
def test_load_json_turns_every_escape_into_bad_json() -> None:
    for text in ("[" * 10_000 + "]" * 10_000, "9" * 4301, "1" * 16, "NaN", "-Infinity", "1e999"):
        with pytest.raises(BadJson):
            load_json(text)
    assert load_json('{"a": [1, -2, 3.5]}') == {"a": [1, -2, 3.5]}
    assert load_json("123456789012345") == 123456789012345


def test_short_bounds_any_value() -> None:
    deep: list[object] = []
    for _ in range(500):
        deep = [deep]
    assert len(short(deep)) < 100 and len(short("x" * 10_000)) < 100
    assert short("5m") == "'5m'" and short(7) == "7"


# -- the rules ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "words"),
    [
        pytest.param("a = = 1\n", "not valid TOML: Invalid value (at line 1, column 5)", id="bad"),
        pytest.param("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply", id="deep"),
        pytest.param(
            'base = "tenhou"\nhonba_ron = ' + "9" * 4400 + "\n", "not valid TOML", id="long-int"
        ),
        pytest.param("x = 1\n", "unknown rule 'x'", id="unknown"),
        pytest.param("players = 5\n", "players must be one of 3, 4", id="players"),
        pytest.param('triple_ron = "maybe"\n', "triple_ron must be one of", id="choice"),
        pytest.param("honba_ron = 100000000000\n", "honba_ron must be an integer", id="huge"),
        pytest.param('uma = [20, "ten"]\n', "uma must be a list of integers", id="uma-type"),
        pytest.param("uma = [20, -20]\n", "uma has 2 values for 4 players", id="uma-size"),
        pytest.param("base = 3\n", "base must be the name of a preset", id="base"),
        pytest.param('name = ["x"]\n', "name must be a string", id="name"),
    ],
)
@pytest.mark.parametrize("command", ["audit", "replay", "score"])
def test_a_bad_rules_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, words: str, command: str
) -> None:
    rules = tmp_path / "mine.toml"
    rules.write_text(body, encoding="utf-8")
    argv = {
        "audit": ["audit", "--rules", str(rules), str(CLEAN)],
        "replay": ["replay", "--rules", str(rules), str(CLEAN)],
        "score": ["score", "234m567p22345678s", "--win", "8s", "--ron", "--rules", str(rules)],
    }[command]
    code, _, err = _run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("mjaudit: ") and str(rules) in lines[0] and words in lines[0]


def test_a_rules_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    from mjaudit.rules import load_rules

    rules = tmp_path / "latin.toml"
    rules.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(MjauditError, match=r"latin\.toml \(byte 11\): not UTF-8 text"):
        load_rules(str(rules))


@pytest.mark.parametrize(
    ("rules", "log", "want"),
    [
        (
            "tenhou-sanma",
            "4p",
            "the rules tenhou-sanma are for 3 players, but this is a 4-player game",
        ),
        (
            "mahjongsoul",
            "3p",
            "the rules mahjongsoul are for 4 players, but this is a 3-player game",
        ),
        ("tenhou", "3p", "the rules tenhou are for 4 players, but this is a 3-player game"),
    ],
)
def test_a_preset_for_another_player_count_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, log: str, want: str
) -> None:
    path = str(CLEAN) if log == "4p" else str(corpus_file(SANMA))
    code, out, err = _run(capsys, "audit", "--rules", rules, path)
    assert code == 2 and "internal error" not in out + err and "Traceback" not in err
    assert err.strip() == f"mjaudit: {path}: {want}"
    code, _, err = _run(capsys, "replay", "--rules", rules, path)
    assert code == 2 and err.strip() == f"mjaudit: {path}: {want}"
    code, _, err = _run(capsys, "report", "--rules", rules, path, "-o", str(tmp_path / "r.html"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and want in err


# -- score -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        pytest.param(
            ["00000m123p456s111z", "--win", "1z", "--ron"],
            "5 tiles of 5m (hand, melds and indicators): there are four",
            id="five-copies",
        ),
        pytest.param(
            ["123m456p789s1111z", "--win", "1z", "--ron", "--meld", "pon:111z"],
            "7 tiles of 1z",
            id="five-copies-with-a-meld",
        ),
        pytest.param(
            [
                "123m456p789s22z",
                "--win",
                "2z",
                "--ron",
                "--meld",
                "pon:111z",
                "--dora",
                "7z",
                "--dora",
                "1z",
                "--dora",
                "1z",
            ],
            "5 tiles of 1z",
            id="five-copies-with-indicators",
        ),
        pytest.param(
            ["005m123p456s11122z", "--win", "2z", "--ron"],
            "2 red fives 0m: there is one",
            id="two-red-fives",
        ),
        pytest.param(
            ["123m456p789s22z", "--win", "2z", "--ron", "--meld", "chi:340s", "--dora", "0s"],
            "2 red fives 0s: there is one",
            id="red-five-meld-and-indicator",
        ),
        pytest.param(
            [
                "11m",
                "--win",
                "1m",
                "--ron",
                "--meld",
                "ankan:1111s",
                "--meld",
                "ankan:2222s",
                "--meld",
                "ankan:3333s",
                "--meld",
                "ankan:4444s",
                "--meld",
                "ankan:6666p",
            ],
            "5 kans: a hand has at most four",
            id="five-kans",
        ),
        pytest.param(
            ["123m456p789s11z", "--win", "1z", "--ron"],
            "11 concealed tiles and 0 melds are not a hand of 14 tiles",
            id="too-small",
        ),
        pytest.param(
            ["234m567p22345678s", "--win", "8s", "--ron", "--meld", "chi:123p"],
            "14 concealed tiles and 1 melds are not a hand of 14 tiles",
            id="too-large",
        ),
        pytest.param(
            ["123m456p789s11122z", "--win", "2z", "--ron", "--players", "3"],
            "2m in a three-player game, which has no 2m..8m",
            id="2m-in-sanma",
        ),
        pytest.param(
            ["23\u2074m", "--win", "2m", "--ron"], "unexpected '\u2074'", id="superscript"
        ),
    ],
)
def test_score_refuses_impossible_hands(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = _run(capsys, "score", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mjaudit: ") and words in lines[0], err


def test_score_refuses_red_fives_under_rules_without_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "noaka.toml"
    rules.write_text('base = "tenhou"\naka = false\n', encoding="utf-8")
    code, _, err = _run(
        capsys, "score", "234m067p22345678s", "--win", "8s", "--ron", "--rules", str(rules)
    )
    assert code == 2 and "a red 0p, but these rules play without red fives" in err


def test_score_still_scores_four_of_a_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "score", "11112222333344m", "--win", "4m", "--ron")
    assert code == 0 and out.startswith("10 han 30 fu")
    code, out, _ = _run(
        capsys, "score", "11m", "--win", "1m", "--ron", "--format", "json",
        "--meld", "ankan:1111s", "--meld", "ankan:2222s", "--meld", "ankan:3333s",
        "--meld", "ankan:4444s",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["yakuman"] >= 1


def test_odd_digits_in_a_players_dan_and_rate_leave_them_unknown() -> None:
    data = _xml(lambda t: t.replace('dan="10,10,10,10"', 'dan="1\u2070,10,10,10"', 1))
    data = data.replace(b'rate="1500.00,', 'rate="\u2074500.00,'.encode(), 1)
    log = load_bytes(data, "dan.xml")
    first, second = log.start.players[0], log.start.players[1]
    assert (first.dan, first.rate) == (None, None)
    assert (second.dan, second.rate) == ("1dan", 1500.0)


def test_score_players_and_rules_must_agree(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["234p567p22345678s", "--win", "8s", "--tsumo"]
    code, _, err = _run(capsys, "score", *hand, "--rules", "tenhou-sanma", "--players", "4")
    assert code == 2
    assert err == "mjaudit: --players 4, but the rules tenhou-sanma are for 3 players\n"
    # Either one alone says both: --players 3 means the three-player preset.
    code, out, _ = _run(capsys, "score", *hand, "--players", "3", "--format", "json")
    assert code == 0 and json.loads(out)["total"] == 2000  # tsumo-son: 700 + 1300
    code, out, _ = _run(capsys, "score", *hand, "--rules", "tenhou-sanma", "--format", "json")
    assert code == 0 and json.loads(out)["total"] == 2000


def test_a_claim_of_a_million_han_converts_to_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Writing Tenhou JSON computes the claim's value from 2 ** (han + 2); a claimed
    # 10**14 han would never finish, a million exceeded int-to-text limits.
    path = tmp_path / "han.xml"
    path.write_bytes(_xml(lambda t: t.replace('yaku="1,1,7,1,52,1,53,0"', 'yaku="1,1000000"', 1)))
    out = tmp_path / "out.json"
    code, _, err = _run(capsys, "convert", str(path), "--to", "tenhou-json", "-o", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "claims 1000000 han with no limit; Tenhou's table has 1 to 4" in err


def test_a_preset_for_another_player_count_costs_only_that_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sanma = str(corpus_file(SANMA))
    code, out, err = _run(capsys, "audit", "--format", "json", "--rules", "tenhou-sanma",
                          str(CLEAN), sanma)  # fmt: skip
    doc = json.loads(out)
    assert code == 2 and doc["totals"]["games"] == 1 and doc["totals"]["unreadable"] == 1
    assert [f["path"] for f in doc["files"] if f["error"] is None] == [sanma]
    assert err.count("\n") == 1 and "but this is a 4-player game" in err
