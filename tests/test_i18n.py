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


# -- no English left on a Japanese game page ----------------------------------------
CORPUS = ROOT.parent / "shared" / "corpus"
# Games of every kind of page: a nagashi mangan and a kyuushu draw, three players,
# Mahjong Soul (four and three players), Tenhou JSON, mjai.
_JA_GAMES = [
    "sample_logs/clean_game.xml",
    "sample_logs/kans.xml",
    "tenhou-xml/2014051613gm-0041-0000-3366561a.xml",
    "tenhou-xml/2010112714gm-00a9-0000-d497e395.xml",
    "tenhou-xml/2009060321gm-00b9-0000-75b25bcf.xml",
    "mahjongsoul/raw-records/220418-a0451071-1198-45ea-9a24-161d1004ab83.json",
    "mahjongsoul/raw-gdr/sanma_cpusen_mahjongsoul_paifu_231215-613eb8b1-84e8-4726-98ac-"
    "a578055e6b9a.txt",
    "tenhou-json/full-game/2019021004gm-00a9-0000-e2f6516d.json",
    "mjai/gimite-server/mjai-manue-go_selfmatch_2025-08-23-085608.jsonl",
]
# What stays as it is on every page: the tiles in mpsz, the round labels (E1-0, also
# the links' anchors), the keys, and the Japanese words' own abbreviations.
_KEPT = re.compile(r"[0-9][mpsz]b?|[ESWN]\d-\d+|Home|End|pt|R\d+")


def _visible_text(html: str, facts_names: tuple[str, ...], path: Path) -> str:
    """The page's text and hover texts, without what is the log's or the audit's own
    words: names, the file and game id, the room, findings (codes and messages)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r'<section class="card" id="findings">.*?</section>', "", html, flags=re.S)
    html = re.sub(r'<div><span class="sev .*?</div>', "", html, flags=re.S)
    html = re.sub(r'<div class="meta">.*?</div>', "", html, flags=re.S)  # id, rules, room
    html = re.sub(r"<h1>.*?</h1>|<title>.*?</title>", "", html, flags=re.S)
    titles = " ".join(re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', html))
    text = re.sub(r"<[^>]+>", " ", html) + " " + titles
    import html as html_module

    text = html_module.unescape(text)
    for name in sorted(facts_names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return _KEPT.sub(" ", text.replace(path.name, " "))


@pytest.mark.parametrize("name", _JA_GAMES, ids=lambda n: Path(n).name[:24])
def test_a_japanese_game_page_has_no_english_words(name: str) -> None:
    path = ROOT / name if name.startswith("sample_logs") else CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    with i18n.language("ja"):
        facts = collect_game(log, resolve_rules(log, "auto"))
        html = render_game(build_game_view(facts))
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", _visible_text(html, facts.names, path))
    assert not words, sorted(set(words))


def test_japanese_results_headings_fu_and_shanten() -> None:
    path = CORPUS / "tenhou-xml" / "2010112714gm-00a9-0000-d497e395.xml"
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    with i18n.language("ja"):
        facts = collect_game(log, resolve_rules(log, "auto"), seat=0)
        view = build_game_view(facts)
    rows = [line for r in view.rounds_table for line in r.results]
    assert any(line.startswith("ロン: ") for line in rows)
    assert any(line.startswith("ツモ: ") for line in rows)
    assert any(re.search(r" \d+符\d+飜", line) for line in rows)
    assert any(line.startswith("流局: 聴牌 ") for line in rows)
    headings = [w.heading for r in view.rounds for w in r.wins]
    assert any(h.endswith("ツモ和了") for h in headings)
    assert any(re.search(r"ロン和了 \(.* から\)$", h) for h in headings)
    reasons = {reason for r in view.rounds for w in r.wins for reason, _ in w.fu_parts}
    assert "副底" in reasons and not any(re.search(r"[a-z]{3}", x) for x in reasons)
    items = {c.item for r in view.rounds for w in r.wins for c in w.compare}
    assert {"役", "飜", "符", "点数"} <= items
    # Shanten as Japanese review tools write it: a digit and 向聴, no hyphen.
    notes = " ".join(str(r.data) for r in view.rounds)
    assert re.search(r"\d向聴", notes) and "-向聴" not in notes
    chart = str(view.chart)
    for word in ('aria-label="点数推移のグラフ"', "点数", "和了", "放銃", "リーチ"):
        assert word in chart


# -- no English left on the Japanese players page and index -------------------------
def _site_inputs(tmp_path: Path) -> list[str]:
    """The sample logs, and corpus games of other kinds where the corpus is there (a
    rank trend over eleven games, Mahjong Soul's ranks and points, three players)."""
    paths = [str(ROOT / "sample_logs")]
    xml = CORPUS / "tenhou-xml"
    if xml.is_dir():
        paths += [str(p) for p in sorted(xml.glob("2014*.xml"))[:12]]
        paths.append(str(xml / "2009060321gm-00b9-0000-75b25bcf.xml"))
        paths.append(str(CORPUS / _JA_GAMES[5]))
    return paths


def test_a_japanese_players_page_and_index_have_no_english_words(tmp_path: Path) -> None:
    from reports.html import write_report

    with i18n.language("ja"):
        result = write_report(_site_inputs(tmp_path), tmp_path / "site")
    assert result.errors == ()
    names: set[str] = set()
    for p in _site_inputs(tmp_path):
        for f in [Path(p)] if Path(p).is_file() else sorted(Path(p).glob("*.xml")):
            log = load(str(f))
            names |= set(collect_game(log, resolve_rules(log, "auto")).names)
            names |= {f.name, f.stem, log.start.game_id}
            names.add(log.start.rules_hint.description)  # the room as the log names it
    for page in ("players.html", "index.html"):
        html = (tmp_path / "site" / page).read_text("utf-8")
        html = re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S)
        html = re.sub(r'href="[^"]*"', "", html)
        titles = " ".join(re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', html))
        import html as html_module

        text = html_module.unescape(re.sub(r"<[^>]+>", " ", html) + " " + titles)
        for name in sorted(names, key=len, reverse=True):
            if name:
                text = text.replace(name, " ")
        text = re.sub(r"\bmjaudit\b|R\d+|\bpt\b", " ", text)
        words = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
        assert not words, (page, sorted(set(words)))


def test_every_statistic_and_column_has_its_japanese() -> None:
    from reports.stats import DEFINITIONS
    from reports.views_player import _COLUMNS

    for key, definition in DEFINITIONS.items():
        name, text = i18n.statistic(key, definition, "ja")
        assert name != key and text != definition and not re.search(r"[A-Za-z]{3}", name)
    for head in [h for h, _ in _COLUMNS] + ["Points"]:
        assert i18n.column_head(head, "ja") != head
    assert i18n.statistic("games", "x") == ("games", "x")  # English outside a ja block
