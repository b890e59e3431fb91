from __future__ import annotations

from pathlib import Path

import pytest

from mjaudit.events import RulesHint
from mjaudit.rules import PRESETS, RulesError, load_rules, preset, rules_for


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
    with pytest.raises(RulesError, match=r"bad\.toml: unknown rule 'kirriage'"):
        load_rules(str(f))
    with pytest.raises(RulesError, match="unknown rules preset"):
        load_rules("tenhoo")


def test_auto_rules_follow_the_log() -> None:
    r = rules_for(RulesHint("tenhou-xml", players=4, aka=False, kuitan=True, hanchan=True))
    assert r.name == "tenhou" and not r.aka and not r.assumed
    s = rules_for(RulesHint("tenhou-xml", players=3, aka=True, special_lobby=True))
    assert s.name == "tenhou-sanma" and s.assumed
