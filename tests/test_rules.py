from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from mjaudit.events import RulesHint
from mjaudit.rules import PRESETS, RulesError, Ruleset, load_rules, override, preset, rules_for


def test_presets_named_in_the_architecture_exist() -> None:
    for name in (
        "tenhou",
        "tenhou-sanma",
        "mahjongsoul",
        "mleague",
        "wrc",
        "jpml",
        "ema",
        "worldatplay",
        "worldatplay-sanma",
    ):
        assert PRESETS[name].name == name


@pytest.mark.parametrize(
    ("name", "kiriage", "double_patterns", "honba_ron", "noten"),
    [
        ("tenhou", False, False, 300, 3000),
        ("tenhou-sanma", False, False, 200, 2000),
        ("mahjongsoul", False, True, 300, 3000),
        ("mleague", True, False, 300, 3000),
        ("wrc", True, False, 300, 3000),
        ("worldatplay", False, True, 300, 3000),
    ],
)
def test_preset_values(
    name: str, kiriage: bool, double_patterns: bool, honba_ron: int, noten: int
) -> None:
    r = preset(name)
    assert (r.kiriage, r.double_yakuman_patterns, r.honba_ron, r.noten_pool) == (
        kiriage,
        double_patterns,
        honba_ron,
        noten,
    )


def test_toml_override(tmp_path: Path) -> None:
    f = tmp_path / "club.toml"
    f.write_text('base = "tenhou"\nkiriage = true\numa = [15, 5, -5, -15]\n', encoding="utf-8")
    r = load_rules(str(f))
    assert r.kiriage and r.uma == (15, 5, -5, -15) and r.name == "tenhou+club"
    assert not preset("tenhou").kiriage


def test_toml_errors_name_the_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("kirriage = true\n", encoding="utf-8")
    with pytest.raises(
        RulesError, match=r"bad\.toml: unknown rule 'kirriage' \(did you mean kiriage\?\)$"
    ):
        load_rules(str(f))
    with pytest.raises(RulesError, match="no rules preset or file named 'tenhoo'"):
        load_rules("tenhoo")


def test_a_name_in_a_list_setting_is_checked(tmp_path: Path) -> None:
    # Read as no rule at all, a misspelt name would lose a liability or an abortive
    # draw, and the audit would then blame the log.
    f = tmp_path / "typo.toml"
    f.write_text('pao_yakuman = ["daisangen", "daisushi"]\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_rules(str(f))
    assert str(err.value) == (
        f"{f}: pao_yakuman has unknown 'daisushi' (did you mean daisuushii?); "
        "known: daisangen, daisuushii, suukantsu"
    )
    f.write_text('abortive_draws = ["kyushu", "four-winds", "suukaikan"]\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_rules(str(f))
    assert str(err.value) == (
        f"{f}: abortive_draws has unknown 'kyushu' (did you mean kyuushu?), 'four-winds'; "
        "known: kyuushu, suufon-renda, suucha-riichi, suukaikan, sanchahou"
    )
    f.write_text('abortive_draws = ["kyuushu"]\npao_yakuman = []\n', encoding="utf-8")
    rules = load_rules(str(f))
    assert (rules.abortive_draws, rules.pao_yakuman) == (frozenset({"kyuushu"}), frozenset())


@pytest.mark.parametrize(
    "field", [f.name for f in fields(Ruleset) if isinstance(getattr(Ruleset(), f.name), frozenset)]
)
def test_every_list_of_names_knows_its_names(field: str) -> None:
    """Each list-valued setting of names refuses one it does not know, through an
    override (a rules file, a case's rules) as well, and takes every preset's."""
    with pytest.raises(RulesError, match=f"<rules>: {field} has unknown 'nonesuch'; known: "):
        override(preset("tenhou"), {field: ["nonesuch"]})
    for rules in PRESETS.values():
        assert override(preset("tenhou"), {field: sorted(getattr(rules, field))})


def test_auto_rules_follow_the_log() -> None:
    r = rules_for(RulesHint("tenhou-xml", players=4, aka=False, kuitan=True, hanchan=True))
    assert r.name == "tenhou" and not r.aka and not r.assumed
    s = rules_for(RulesHint("tenhou-xml", players=3, aka=True, special_lobby=True))
    assert s.name == "tenhou-sanma" and s.assumed


def test_a_rules_file_takes_its_own_final_results_unless_it_asks_for_tenhous(
    tmp_path: Path,
) -> None:
    """A 2009 Tenhou game, whose results Tenhou rounded to whole thousands: a rules file
    based on ``tenhou`` uses its own (exact) formula, whatever it is named, unless it sets
    ``tenhou_lobby_results``."""
    from analyzer.checks.audit import audit_log
    from mjaudit.findings import Severity
    from parsers import load
    from tests.conftest import corpus_file

    log = load(str(corpus_file("2009082817gm-00ab-0000-997dbe26.xml")))

    def errors(text: str) -> list[str]:
        f = tmp_path / "club.toml"
        f.write_text(f'base = "tenhou"\n{text}', encoding="utf-8")
        found = audit_log(log, load_rules(str(f)), review=False).findings
        return sorted({x.code for x in found if x.severity is Severity.ERROR})

    assert errors("") == ["final-score-mismatch"]
    assert errors('name = "tenhou"\n') == ["final-score-mismatch"]
    assert errors("tenhou_lobby_results = true\n") == []
    assert load_rules("tenhou").tenhou_lobby_results
    assert not load_rules("wrc").tenhou_lobby_results


def test_a_rules_file_of_another_name_is_read_as_toml(tmp_path: Path) -> None:
    # A file named otherwise (club.txt, a JSON file) was taken for a preset's name:
    # "unknown rules preset '/path/club.txt'".
    f = tmp_path / "club.txt"
    f.write_text('base = "tenhou"\nkiriage = true\n', encoding="utf-8")
    assert load_rules(str(f)).kiriage
    j = tmp_path / "club.json"
    j.write_text('{"kiriage": true}\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"club\.json: not valid TOML: "):
        load_rules(str(j))
    with pytest.raises(RulesError) as err:
        load_rules("tenhoo")
    assert str(err.value).startswith(
        "no rules preset or file named 'tenhoo' (did you mean tenhou?) (presets: ema, "
    )
