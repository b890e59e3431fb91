"""Pages in Japanese: one message catalogue for the templates, yaku and winds by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analyzer.checks.audit import resolve_rules
from mjaudit.yaku import Yaku
from parsers import load
from reports import i18n
from reports.html import render_game
from reports.views import build_game_view
from reports.views_facts import collect_game

ROOT = Path(__file__).resolve().parents[1]
_MESSAGE = re.compile(r"""_\("((?:[^"\\]|\\.)*)"\)""")


def _template_messages() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "templates").glob("*.j2"):
        found |= set(_MESSAGE.findall(path.read_text(encoding="utf-8")))
    return found


def _code_messages() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "reports").glob("*.py"):
        if path.name == "i18n.py":  # its docstring shows the call
            continue
        found |= set(_MESSAGE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_message_has_its_japanese_and_every_entry_is_used() -> None:
    used = _template_messages() | _code_messages()
    table = i18n.MESSAGES["ja"]
    assert used - set(table) == set()
    assert set(table) - used == set()
    assert all(text and text != english for english, text in table.items())


def test_every_yaku_and_wind_has_a_japanese_name() -> None:
    names = {i18n.yaku_name(y, "ja") for y in Yaku}
    assert len(names) == len(Yaku)  # one name each, none falls back to the romaji
    assert i18n.yaku_name(Yaku.PINFU, "ja") == "平和"
    assert [i18n.wind_name(w, "ja") for w in range(4)] == ["東", "南", "西", "北"]
    assert i18n.yaku_name(Yaku.PINFU) == "pinfu"  # English outside a Japanese block


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"), i18n.language("fr"):
        pass


def _page(lang: str) -> str:
    log = load(str(ROOT / "sample_logs" / "clean_game.xml"))
    with i18n.language(lang):
        facts = collect_game(log, resolve_rules(log, "auto"))
        return render_game(build_game_view(facts))


def test_a_game_page_in_japanese() -> None:
    english, japanese = _page("en"), _page("ja")
    assert '<html lang="ja">' in japanese and '<html lang="en">' in english
    for label in ("Final score", "Scores over the game", "Payments (recomputed)", ">Yaku<"):
        assert label in english and label not in japanese
    for label in ("最終持ち点", "点数推移", "支払い (再計算)", ">役<", "ドラ表示牌"):
        assert label in japanese and label not in english
    # Yaku by their Japanese names, winds as 東南西北 (the round title and the seats).
    assert "立直" in japanese and "riichi 1" not in japanese
    assert "東1局 0本場" in japanese and "East 1, 0 honba" in english
    assert re.search(r'<b>[東南西北]</b> <span class="name">', japanese)
    # The board's own words reach its script.
    words = json.loads(re.findall(r"data-words='([^']*)'", japanese)[0])
    assert words == {"step": "手順", "waits": "待ち", "furiten": "フリテン"}
    # The language is the page's only: English again afterwards.
    assert _page("en") == english


def test_the_command_line_offers_every_language() -> None:
    from reports.cli import report

    lang = next(p for p in report.params if p.name == "lang")
    assert tuple(lang.type.choices) == i18n.LANGS  # type: ignore[attr-defined]
