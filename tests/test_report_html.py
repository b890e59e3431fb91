"""The HTML reports: golden files, determinism, escaping, self-containment.

Golden files live in tests/golden/. After an intended change, rewrite them with
``MJAUDIT_UPDATE_GOLDEN=1 python -m pytest tests/test_report_html.py`` and review
the diff like code.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from analyzer.checks.audit import resolve_rules
from mjaudit.events import PlayerInfo
from mjaudit.melds import parse_meld
from parsers import load
from reports.cli import main
from reports.html import match_player, render_game, render_game_file, write_report
from reports.tiles_svg import FACE_IDS, sprite
from reports.views import GameView, build_game_view, name_seats, script_json
from reports.views_board import meld_tokens, wind_of
from reports.views_facts import GameFacts, collect_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("MJAUDIT_UPDATE_GOLDEN") == "1"
EVIL = "<script>alert(1)</script>"
EXTERNAL = re.compile(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}|url\(\s*['\"]?(?!#)")


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with MJAUDIT_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (
        f"{name} differs from its golden file; if the change is intended, run "
        "MJAUDIT_UPDATE_GOLDEN=1 python -m pytest tests/test_report_html.py and review the diff"
    )


def test_game_report_matches_golden() -> None:
    _check_golden("clean_game.html", render_game_file(str(SAMPLES / "clean_game.xml")))


def test_multi_game_report_matches_golden(tmp_path: Path) -> None:
    result = write_report([str(SAMPLES)], tmp_path / "out")
    assert result.errors == ()
    assert result.games == 3
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == [
        "broken_dora.xml.html",
        "clean_game.xml.html",
        "index.html",
        "kans.xml.html",
        "players.html",
    ]
    _check_golden("players.html", (tmp_path / "out" / "players.html").read_text("utf-8"))
    _check_golden("index.html", (tmp_path / "out" / "index.html").read_text("utf-8"))


def test_player_report_for_one_player(tmp_path: Path) -> None:
    write_report([str(SAMPLES)], tmp_path / "out", player="Ben")
    page = (tmp_path / "out" / "players.html").read_text("utf-8")
    assert "<h2>Ben</h2>" in page
    assert "<h2>Aoi</h2>" not in page


@pytest.mark.parametrize("name", ["clean_game.xml", "kans.xml", "broken_dora.xml"])
def test_same_input_gives_byte_identical_html(name: str) -> None:
    first = render_game_file(str(SAMPLES / name))
    assert render_game_file(str(SAMPLES / name)) == first


@pytest.mark.parametrize("name", ["clean_game.xml", "kans.xml", "broken_dora.xml"])
def test_pages_are_self_contained(name: str) -> None:
    html = render_game_file(str(SAMPLES / name))
    assert EXTERNAL.search(html) is None
    assert "<link" not in html and " src=" not in html and "@import" not in html


def test_broken_dora_finding_links_to_its_step() -> None:
    html = render_game_file(str(SAMPLES / "broken_dora.xml"))
    row = re.search(r'<code>dora-timing</code></td><td><a href="#r(\d+)s(\d+)">', html)
    assert row is not None
    assert f'id="r{row.group(1)}"' in html


def test_untrusted_player_name_is_escaped() -> None:
    log = load(str(SAMPLES / "clean_game.xml"))
    start = log.start
    players = (PlayerInfo(EVIL), *start.players[1:])
    log = dataclasses.replace(
        log, events=(dataclasses.replace(start, players=players), *log.events[1:])
    )
    html = render_game(build_game_view(collect_game(log, resolve_rules(log, "auto"))))
    assert EVIL not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in html  # in the step data
    assert len(re.findall(r"<script>", html)) == 1  # only the page's own script


def test_script_json_cannot_close_its_tag() -> None:
    assert str(script_json({"c": "</script><b>&"})) == (
        '{"c":"\\u003c/script\\u003e\\u003cb\\u003e\\u0026"}'
    )


def test_sprite_has_every_face_and_red_fives_are_red() -> None:
    svg = str(sprite())
    for face in FACE_IDS:
        assert f'<symbol id="{face}"' in svg
    red_five = svg.split('<symbol id="t0p"')[1].split("</symbol>")[0]
    assert "#d0202e" in red_five
    assert "display:none" not in svg


def test_called_tile_is_turned_toward_its_source() -> None:
    # seat 1 pons from seat 0 (its left): the called tile comes first, turned.
    pon = dataclasses.replace(parse_meld("pon:777p"), from_seat=0)
    assert meld_tokens(pon, 1) == "7p^7p7p"
    assert meld_tokens(dataclasses.replace(pon, from_seat=3), 1) == "7p7p^7p"
    assert meld_tokens(dataclasses.replace(pon, from_seat=2), 1) == "7p7p7p^"
    assert meld_tokens(parse_meld("ankan:1111s"), 0) == "1sb1s1s1sb"


def test_cli_report_equals_the_library_call(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert main(["report", str(SAMPLES / "clean_game.xml"), "-o", str(out)]) == 0
    assert out.read_text("utf-8") == render_game_file(str(SAMPLES / "clean_game.xml"))


def test_cli_report_of_a_folder_writes_an_index(tmp_path: Path) -> None:
    out = tmp_path / "site"
    # broken_dora.xml has an error finding: exit 1, as audit's (every page is written).
    assert main(["report", str(SAMPLES), "-o", str(out), "--player", "Aoi"]) == 1
    assert (out / "index.html").exists() and (out / "players.html").exists()


def test_a_folder_report_onto_a_file_says_it_needs_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site.html"
    out.write_text("mine", encoding="utf-8")
    assert main(["report", str(SAMPLES), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"mjaudit: {out}: cannot write: not a folder: a report of a folder, an archive or "
        "several inputs is a folder of pages (-o names it)\n"
    )
    assert out.read_text(encoding="utf-8") == "mine"


def test_every_statistic_is_defined_in_the_docs() -> None:
    from reports.stats import DEFINITIONS

    doc = (ROOT / "docs" / "statistics.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| ([a-z -]+) \| (.+) \|$", doc, re.M))
    assert {k: rows.get(k) for k in DEFINITIONS} == DEFINITIONS


# -- Mahjong Soul records: names, ranks and the room ---------------------------------
MS_DIR = ROOT.parent / "shared" / "corpus" / "mahjongsoul"
_PLAYER_ROW = re.compile(
    r"<tr><td><span class=\"dot\"[^>]*></span>(\w+)</td><td>(.*?)</td><td>(.*?)</td>"
)


def _player_rows(html: str) -> list[tuple[str, str, str]]:
    table = html.split('<table class="players">', 1)[1].split("</table>", 1)[0]
    return _PLAYER_ROW.findall(table)


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "room", "rows"),
    [
        pytest.param(
            "raw-gdr/mahjongsoul_paifu_230921-0a39a19b-4820-4b40-9fda-dd5481d023e4.txt",
            "Mahjong Soul 4p ranked, Jade Room South",
            [
                ("East", "いちご畑", "Master 3 · 1026 pt"),
                ("South", "ryoーta", "Saint 2 · 3132 pt"),
                ("West", "timpoにゃ", "Master 2 · 2447 pt"),
                ("North", "ろく6", "Master 2 · 1220 pt"),
            ],
            id="4p-ranked-jade-south",
        ),
        pytest.param(
            "raw-gdr/sanma_cpu_emoji_mahjongsoul_paifu_231215-4940479a-5f4b-43bb-a2a2-de1402258f39.json",
            "Mahjong Soul 3p game against the AI, South",
            [("East", "電なのです", "Master 1 · 1413 pt"), ("South", "AI", ""), ("West", "AI", "")],
            id="3p-against-the-ai",
        ),
        pytest.param(
            "tenhou-json/LiYounian_9tiles.json",
            "4p Mahjong Soul Jade Room South (converter JSON, rule.disp &#39;玉の間南喰赤&#39;)",
            [
                ("East", "关于你的歌", "雀豪★1 · 1593 pt"),
                ("South", "黄金蟲", "雀聖★1 · 2027 pt"),
                ("West", "さに外", "雀豪★1 · 2051 pt"),
                ("North", "赤木义信", "雀豪★1 · 1994 pt"),
            ],
            id="converter-json-jade-south",
        ),
    ],
)
def test_mahjong_soul_report_shows_names_ranks_and_room(
    name: str, room: str, rows: list[tuple[str, str, str]]
) -> None:
    path = MS_DIR / name
    if not path.exists():
        pytest.skip("corpus not available")
    html = render_game_file(str(path))
    meta = re.search(r'<div class="meta">(.*?)</div>', html)
    assert meta is not None and meta.group(1).endswith(f" · {room}")
    # Three seats in a 3-player game: the empty fourth seat is no player.
    assert _player_rows(html) == rows


# -- one wind convention, the player's name beside every seat -------------------------
def _facts_and_view(path: Path) -> tuple[GameFacts, GameView]:
    log = load(str(path))
    facts = collect_game(log, resolve_rules(log, "auto"))
    return facts, build_game_view(facts)


def _name_and_view_paths() -> list[Path]:
    longest = (
        ROOT.parent / "shared" / "corpus" / "tenhou-xml" / ("2022060108gm-00a9-0000-3bded557.xml")
    )
    return [SAMPLES / "clean_game.xml", SAMPLES / "kans.xml", *([longest] * longest.exists())]


@pytest.mark.parametrize("path", _name_and_view_paths(), ids=lambda p: p.name)
def test_a_result_names_its_seats_and_sits_under_their_columns(path: Path) -> None:
    facts, view = _facts_and_view(path)
    names = facts.names
    assert view.seat_names == names[: facts.players]  # the columns are the players
    for k, rnd in enumerate(facts.game.rounds):
        row = view.rounds_table[k]
        dealer = rnd.start.dealer
        for w, line in zip(facts.wins[k], row.results, strict=False):
            rec = w.record
            winner = f"{wind_of(rec.seat, dealer, facts.players)} {names[rec.seat]}"
            if rec.tsumo:
                assert line.startswith(f"Tsumo: {winner} ")
            else:
                loser = f"{wind_of(rec.from_seat, dealer, facts.players)} {names[rec.from_seat]}"
                assert line.startswith(f"Ron: {winner} ← {loser} ")
            if len(facts.wins[k]) == 1:
                # The winner's gain sits in the winner's own column.
                assert row.deltas[rec.seat].startswith("+"), (row.label, line, row.deltas)
                if not rec.tsumo:
                    assert row.deltas[rec.from_seat].startswith("-")


@pytest.mark.parametrize("path", _name_and_view_paths(), ids=lambda p: p.name)
def test_findings_and_comparisons_name_the_player(path: Path) -> None:
    facts, view = _facts_and_view(path)
    names = facts.names
    for row in view.findings:
        for m in re.finditer(r"seat (\d)", row.message):
            s = int(m.group(1))
            assert row.message[: m.start()].endswith(f"{names[s]} ("), row.message
    for rnd in view.rounds:
        for win in rnd.wins:
            assert not any(c.item.startswith("seat ") for c in win.compare)
            seats = [c.item for c in win.compare if c.item.split(" ", 1)[-1] in names]
            assert len(seats) == facts.players


def test_name_seats_puts_names_beside_seats() -> None:
    names = ("Aoi", "Ben", "<b>", "Dmitri")
    assert name_seats("seat 2 rons seat 0", names, 4) == "<b> (seat 2) rons Aoi (seat 0)"
    assert name_seats("the log shows seats [0, 2] tenpai", names, 4) == (
        "the log shows seats [0, 2] (Aoi, <b>) tenpai"
    )
    assert name_seats("seat 1 wins", ("Aoi", "seat 1", "C", "D"), 4) == "seat 1 wins"
    assert name_seats("seat 3 plays in a 3-player game", names, 3) == (
        "seat 3 plays in a 3-player game"
    )


# -- a liable player (pao) is named where the hand's payments are shown -------------
@pytest.mark.parametrize(
    ("name", "label", "liable"),
    [
        # Ron: the discarder and the liable player share; the liable one pays the honba.
        ("2010060416gm-0061-0000-2d91fbe3.xml", "E2-1", "South jump-up"),
        # Tsumo: the liable player pays it all.
        ("dnovikoff-tenhou_pao.xml", "E2-1", "North くみっきー"),
    ],
)
def test_a_pao_win_names_the_liable_player(name: str, label: str, liable: str) -> None:
    from tests.conftest import corpus_file

    _, view = _facts_and_view(corpus_file(name))
    (k,) = [k for k, row in enumerate(view.rounds_table) if row.label == label]
    (line,) = view.rounds_table[k].results
    assert line.endswith(f"pao: {liable}"), line
    (win,) = view.rounds[k].wins
    assert win.liable == liable
    html = render_game(view)
    section = html[html.index(f'id="r{k}"') : html.index('class="board', html.index(f'id="r{k}"'))]
    assert f"liable (pao)</td><td>{liable}" in section.replace("&#39;", "'")
    # A win without pao names nobody.
    others = [w for r in view.rounds for w in r.wins if w is not win]
    assert others and all(w.liable == "" for w in others)


def test_a_nagashi_mangan_says_whose_tenpai_hands_it_shows() -> None:
    from tests.conftest import corpus_file

    # E1-0: South's pond is the nagashi mangan; East, West and North show tenpai hands.
    _, view = _facts_and_view(corpus_file("2014051613gm-0041-0000-3366561a.xml"))
    draw = view.rounds[0].draw
    assert draw is not None
    tenpai = "East いばらぎ, West nken311, North 煌弓イチイバル"
    assert [who for who, _, _ in draw.hands] == tenpai.split(", ")
    assert draw.heading == f"Draw: nagashi mangan for South dji294td; tenpai {tenpai}"
    assert view.rounds_table[0].results == (draw.heading,)


def test_a_name_with_a_bidi_override_cannot_reverse_the_text_after_it(tmp_path: Path) -> None:
    # U+202E (right-to-left override) in a name would show the rest of its line
    # reversed: "Ron: North ‮Aoi ← East Ben 5200" as "0025 neB tsaE → ioA".
    log = load(str(SAMPLES / "clean_game.xml"))
    start = log.start
    tricky = "Ao\u202ei\u2067x"
    players = (PlayerInfo(tricky), *start.players[1:])
    log = dataclasses.replace(
        log, events=(dataclasses.replace(start, players=players), *log.events[1:])
    )
    facts = collect_game(log, resolve_rules(log, "auto"))
    html = render_game(build_game_view(facts))
    for control in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert control not in html
    assert "Ao\\u202ei\\u2067x" in html  # shown, as other characters a page cannot hold
    assert facts.names[0] == "Ao\\u202ei\\u2067x"
    # --player over a folder finds the name as typed.
    assert match_player(tricky, [facts.names[0], "Ben"], 1) == facts.names[0]


# -- each indicator shows the tile it makes dora -------------------------------------
def _indicated(section: str, which: str) -> list[tuple[str, str]]:
    """(indicator, dora) pairs of a round's ``which`` row ("dora" or "ura")."""
    assert f'class="{which}-pairs"' in section, section[:2000]
    marker = f'class="{which}-pairs"'
    row = section[section.index(marker) + len(marker) :]
    row = row[: row.index("</div>")].split('class="ura-pairs"')[0]
    return re.findall(
        r'<span class="indicated">.*?class="mpsz">(\w+)</span></span> → '
        r'.*?class="mpsz">(\w+)</span></span></span>',
        row,
    )


@pytest.mark.parametrize(
    ("name", "label", "dora", "ura"),
    [
        # Three players: 1m indicates 9m and 9m indicates 1m (no 2m..8m).
        ("2014091101gm-00b9-0000-5ca6b487.xml", "S2-0", [("1m", "9m")], []),
        ("2014091101gm-00b9-0000-5ca6b487.xml", "E1-3", [("7s", "8s")], [("9m", "1m")]),
    ],
)
def test_each_indicator_shows_its_dora(
    name: str, label: str, dora: list[tuple[str, str]], ura: list[tuple[str, str]]
) -> None:
    from tests.conftest import corpus_file

    _, view = _facts_and_view(corpus_file(name))
    html = render_game(view)
    (k,) = [k for k, r in enumerate(view.rounds) if r.label == label]
    section = html[html.index(f'id="r{k}"') : html.index('class="board', html.index(f'id="r{k}"'))]
    assert _indicated(section, "dora") == dora
    assert _indicated(section, "ura") == ura if ura else 'class="ura-pairs"' not in section


def test_kan_dora_and_wrapping_indicators_show_their_dora() -> None:
    from mjaudit.tiles import Tile

    html = render_game_file(str(SAMPLES / "kans.xml"))
    pairs = []
    for k in range(html.count('class="card round"')):
        start = html.index(f'id="r{k}"')
        section = html[start : html.index('class="board', start)]
        pairs += _indicated(section, "dora") + (
            _indicated(section, "ura") if 'class="ura-pairs"' in section else []
        )
    assert pairs and all(str(Tile(i).dora(4)) == d for i, d in pairs)
    assert len(pairs) > html.count('class="card round"')  # a kan's indicator too
    # The wraps, as the page shows them (9 -> 1, North -> East, chun -> haku).
    assert [str(Tile(t).dora()) for t in ("9p", "4z", "7z", "0s")] == ["1p", "1z", "5z", "6s"]


# -- a nagashi mangan and a kyuushu kyuuhai name their players -----------------------
def test_a_nagashi_mangan_names_its_player() -> None:
    from tests.conftest import corpus_file

    # E1-0: South's pond (dji294td) is the nagashi mangan.
    facts, view = _facts_and_view(corpus_file("2014051613gm-0041-0000-3366561a.xml"))
    assert facts.audit.derived_draws[0] == (1,)  # the audit's record, shown as it is
    draw = view.rounds[0].draw
    assert draw is not None
    tenpai = "East いばらぎ, West nken311, North 煌弓イチイバル"
    assert draw.heading == f"Draw: nagashi mangan for South dji294td; tenpai {tenpai}"
    assert view.rounds_table[0].results == (draw.heading,)
    html = render_game(view)
    assert "<h3>Draw: nagashi mangan for South dji294td; tenpai" in html


@pytest.mark.parametrize(
    ("name", "label", "declarer"),
    [
        ("2010112714gm-00a9-0000-d497e395.xml", "S1-0", "North 月千一夜"),
        # Dealt by seat 3: seat 3 is East.
        ("2011020613gm-00a9-0000-3774f8d1.xml", "E4-1", "East ちくき"),
    ],
)
def test_a_kyuushu_kyuuhai_names_its_declarer(name: str, label: str, declarer: str) -> None:
    from tests.conftest import corpus_file

    _, view = _facts_and_view(corpus_file(name))
    (k,) = [k for k, r in enumerate(view.rounds) if r.label == label]
    draw = view.rounds[k].draw
    assert draw is not None
    assert draw.heading == f"Abortive draw (kyuushu) declared by {declarer}"
    assert view.rounds_table[k].results == (draw.heading,)


# -- "Start wind" is the seat's wind in the first hand the log records ---------------
def test_start_wind_is_the_wind_in_the_logs_first_hand() -> None:
    # A Tenhou JSON excerpt of one hand, South 4: seat 3 deals it, so seat 3 is East
    # in the first hand the page shows (the game's first dealer was seat 0).
    path = ROOT.parent / "shared" / "corpus" / "tenhou-json" / "per-kyoku"
    path = path / "Equim-chan-mjai-reviewer_confusing_nakis_3.json"
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    facts, view = _facts_and_view(path)
    assert facts.log.start.first_dealer == 0 and facts.game.rounds[0].start.dealer == 3
    assert [p.wind for p in view.players] == ["South", "West", "North", "East"]
    # The first round's board names the same seats with the same winds.
    board = view.rounds[0].board
    assert board is not None
    assert [s.wind for s in board.seats] == ["South", "West", "North", "East"]
    html = render_game(view)
    assert "the seat&#39;s wind in the first hand the log records" in html


def test_the_board_shows_the_dora_beside_its_indicators() -> None:
    import json

    from mjaudit.tiles import Tile

    _, view = _facts_and_view(SAMPLES / "kans.xml")
    for r in view.rounds:
        assert r.board is not None
        data = json.loads(str(r.data))
        # The script's table of the round: every indicator token it shows, and its dora.
        assert data["o"] and all(str(Tile(t).dora(4)) == d for t, d in data["o"].items())
        shown = re.findall(r'class="mpsz">(\w*)<', str(r.board.dora))[0]
        made = re.findall(r'class="mpsz">(\w*)<', str(r.board.dora_of))[0]
        assert made == "".join(data["o"][t] for t in re.findall(r"\d[mpsz]", shown))
    html = render_game(view)
    assert html.count('<span class="dora-of">') == len(view.rounds)


def test_the_board_of_a_three_player_game_makes_9m_of_1m() -> None:
    import json

    from tests.conftest import corpus_file

    _, view = _facts_and_view(corpus_file("2014091101gm-00b9-0000-5ca6b487.xml"))
    (r,) = [r for r in view.rounds if r.label == "S2-0"]
    assert json.loads(str(r.data))["o"]["1m"] == "9m"
