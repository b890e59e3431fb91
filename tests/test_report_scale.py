"""Folder reports that scale: worker processes, small rows, exit codes, --player.

The logs are the project's samples and copies of them edited the way
tests/test_audit_tamper.py edits real logs (one attribute changed), so that each
test knows which finding, unreadable input or name it made.
"""

from __future__ import annotations

import multiprocessing
import pickle
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

import analyzer.checks.audit
import reports.html
from analyzer.engine.replay import replay
from reports.cli import main
from reports.html import report_games, write_report
from tests.conftest import SAMPLES, audit_bytes, error_codes

CLEAN = (SAMPLES / "clean_game.xml").read_bytes()
KANS = (SAMPLES / "kans.xml").read_bytes()
# The first win's fu, 30 in the log, written as 40: one error finding, nothing unreadable.
WRONG_FU = CLEAN.replace(b'ten="30,3900,0"', b'ten="40,3900,0"', 1)
FULL_WIDTH = "HATANO\uff01"  # HATANO！ (a full-width exclamation mark)


def _renamed(data: bytes, seat: int, name: str) -> bytes:
    """The log with seat ``seat``'s name in <UN> replaced (names are %-encoded UTF-8)."""
    head, rest = data.split(f' n{seat}="'.encode(), 1)
    _, tail = rest.split(b'"', 1)
    return head + f' n{seat}="{quote(name, safe="")}"'.encode() + tail


def _folder(tmp_path: Path, files: dict[str, bytes]) -> Path:
    d = tmp_path / "logs"
    d.mkdir()
    for name, data in files.items():
        (d / name).write_bytes(data)
    return d


def _clean_games(n: int) -> dict[str, bytes]:
    """``n`` clean games under distinct names (alternating two sample logs)."""
    return {f"g{k:02d}.xml": (CLEAN, KANS)[k % 2] for k in range(n)}


def _pages(site: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(site.iterdir())}


def _need_forking() -> None:
    """Skip unless the pool will fork (only then do workers inherit this process's
    patches): asked when the test runs, since earlier tests may have left threads."""
    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        pytest.skip("workers inherit the patch only when forked (no threads running)")


def test_the_tampered_sample_has_an_error_finding() -> None:
    assert error_codes(audit_bytes(CLEAN, "clean.xml")) == []
    assert error_codes(audit_bytes(WRONG_FU, "wrong_fu.xml")) == ["fu-mismatch"]


def test_two_workers_write_the_same_pages_as_one(tmp_path: Path) -> None:
    files = _clean_games(5) | {"wrong_fu.xml": WRONG_FU, "broken_dora.xml": (
        SAMPLES / "broken_dora.xml").read_bytes(), "junk.xml": b"<mjloggm><INIT"}  # fmt: skip
    logs = _folder(tmp_path, files)
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["report", str(logs), "-o", str(one), "-j", "1"]) == 2
    assert main(["report", str(logs), "-o", str(two), "-j", "2"]) == 2
    pages = _pages(one)
    assert sorted(pages) == sorted(
        [f"g{k:02d}.xml.html" for k in range(5)]
        + ["wrong_fu.xml.html", "broken_dora.xml.html", "index.html", "players.html"]
    )
    assert _pages(two) == pages


def test_a_folder_with_an_error_finding_exits_1(tmp_path: Path) -> None:
    clean = _folder(tmp_path, _clean_games(2))
    assert main(["report", str(clean), "-o", str(tmp_path / "clean")]) == 0
    (clean / "wrong_fu.xml").write_bytes(WRONG_FU)
    site = tmp_path / "site"
    assert main(["report", str(clean), "-o", str(site), "-j", "2"]) == 1
    assert "fu-mismatch" in (site / "wrong_fu.xml.html").read_text("utf-8")
    assert main(["report", str(clean), "-o", str(site), "--fail-on", "never"]) == 0
    # A single game file follows the same rule.
    one = str(clean / "wrong_fu.xml")
    assert main(["report", one, "-o", str(tmp_path / "one.html")]) == 1
    assert main(["report", one, "-o", str(tmp_path / "one.html"), "--fail-on", "never"]) == 0


def test_an_unreadable_file_exits_2_and_the_good_pages_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = _folder(tmp_path, _clean_games(3) | {"junk.xml": b"<mjloggm><INIT oya="})
    site = tmp_path / "site"
    for jobs in ("1", "2"):
        assert main(["report", str(logs), "-o", str(site), "-j", jobs]) == 2
        assert sorted(p.name for p in site.iterdir()) == [
            "g00.xml.html", "g01.xml.html", "g02.xml.html", "index.html", "players.html",
        ]  # fmt: skip
        err = capsys.readouterr().err
        assert err.count("junk.xml") == 1, err
        assert "junk.xml" in (site / "index.html").read_text("utf-8")


def test_an_unknown_player_exits_2_with_the_nearest_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    assert main(["report", str(SAMPLES), "-o", str(site), "--player", "Dimitri"]) == 2
    err = capsys.readouterr().err
    assert "--player 'Dimitri': no player of that name in 3 games" in err
    assert "nearest: 'Dmitri'" in err
    assert not (site / "players.html").exists()
    assert (site / "index.html").exists()  # the games are reported all the same
    assert main(["report", str(SAMPLES), "-o", str(site), "--player", "Zzyzx"]) == 2
    assert "no player of that name in 3 games" in capsys.readouterr().err


def test_a_lobby_that_names_no_game_exits_2_with_the_games_lobbies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    assert main(["report", str(SAMPLES), "-o", str(site), "--lobby", "tenhuo"]) == 2
    err = capsys.readouterr().err
    assert err == "mjaudit: --lobby 'tenhuo' matches no game (these games are in: ippan, tenhou)\n"
    assert (site / "index.html").exists() and (site / "players.html").exists()
    # One of several that matches is a choice, not a typo.
    code = main(["report", str(SAMPLES), "-o", str(site), "--lobby", "tenhuo", "--lobby", "TENHOU"])
    assert code == 1 and "--lobby" not in capsys.readouterr().err  # broken_dora's error: 1


def test_player_names_are_compared_after_nfkc(tmp_path: Path) -> None:
    logs = _folder(tmp_path, {"a.xml": _renamed(CLEAN, 0, FULL_WIDTH), "b.xml": KANS})
    site = tmp_path / "site"
    assert main(["report", str(logs), "-o", str(site), "--player", "HATANO!"]) == 0
    players = (site / "players.html").read_text("utf-8")
    assert f"Player report: {FULL_WIDTH}" in players
    assert "Ben" not in players  # only the player asked for


def test_rows_sent_back_are_small_and_hold_no_game(tmp_path: Path) -> None:
    logs = _folder(tmp_path, _clean_games(2) | {"wrong_fu.xml": WRONG_FU})
    site = tmp_path / "site"
    site.mkdir()
    rows = list(report_games([str(logs)], site, "auto", 1 << 26, jobs=1))
    assert [r.page for r in rows] == ["g00.xml.html", "g01.xml.html", "wrong_fu.xml.html"]
    assert [r.worst for r in rows] == [-1, -1, 2]  # no finding, no finding, an error
    for r in rows:
        assert r.page is not None and len(r.seats) == 4
        assert (site / r.page).stat().st_size > 50_000  # the page itself is on disk
        assert len(pickle.dumps(r)) < 8_000, r.name


def test_pages_keep_their_names_in_input_order(tmp_path: Path) -> None:
    """Two logs of one name in two folders: the second page is name-2.html, whatever -j."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "game.xml").write_bytes(CLEAN)
    (b / "game.xml").write_bytes(KANS)
    for jobs in (1, 2):
        out = tmp_path / f"site{jobs}"
        result = write_report([str(a), str(b)], out, jobs=jobs)
        assert result.games == 2
        assert [Path(p).name for p in result.pages[:2]] == ["game.xml.html", "game.xml-2.html"]
        assert "Aoi" in (out / "game.xml.html").read_text("utf-8")


def test_two_workers_replay_each_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _need_forking()
    seen = tmp_path / "replayed.txt"

    def counted(log, rules, observers=()):  # type: ignore[no-untyped-def]
        with seen.open("a", encoding="utf-8") as f:  # one line per replay, any process
            f.write(Path(log.path).name + "\n")
        return replay(log, rules, observers)

    monkeypatch.setattr(analyzer.checks.audit, "replay", counted)
    logs = _folder(tmp_path, _clean_games(6))
    assert main(["report", str(logs), "-o", str(tmp_path / "site"), "-j", "2"]) == 0
    assert sorted(seen.read_text("utf-8").split()) == sorted(_clean_games(6))


def test_a_game_that_kills_its_worker_is_the_only_one_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    _need_forking()
    real = reports.html._locator_facts

    def dies_on_g03(loc, rules, max_size):  # type: ignore[no-untyped-def]
        if loc.name.endswith("g03.xml"):
            os._exit(3)
        return real(loc, rules, max_size)

    monkeypatch.setattr(reports.html, "_locator_facts", dies_on_g03)
    logs = _folder(tmp_path, _clean_games(8))
    site = tmp_path / "site"
    assert main(["report", str(logs), "-o", str(site), "-j", "2"]) == 2
    assert "g03.xml: not reported: its worker process died on it" in capsys.readouterr().err
    written = sorted(p.name for p in site.glob("g*.html"))
    assert written == [f"g{k:02d}.xml.html" for k in range(8) if k != 3]


def test_a_chart_drawn_on_a_used_figure_is_the_chart_drawn_on_a_new_one() -> None:
    from reports import charts

    a = ("chart-a", ["E1-0", "E2-0", "end"], [("Aoi", [25000, 33000, 41000])])
    b = ("chart-b", ["S1-0", "end"], [("さくら" * 9, [-30.5, 12.0]), ("Ben", [5.0, 1.0])])
    marks = [charts.Marker(0, 1, 33000, "win", "E2-0: Aoi wins 8000")]
    charts._FIGURES.clear()
    fresh_a = charts.line_chart(*a, marks)
    charts._FIGURES.clear()
    fresh_b = charts.line_chart(*b, ylabel="points (uma)", zero_line=True)
    assert charts.line_chart(*a, marks) == fresh_a
    assert charts.line_chart(*b, ylabel="points (uma)", zero_line=True) == fresh_b
    assert charts.line_chart(*a, marks) == fresh_a
    assert len(charts._FIGURES) == 1  # one figure of that size, drawn on again and again
    assert "<title>E2-0: Aoi wins 8000</title>" in fresh_a
    assert "…" in charts.line_chart(*b)  # a name too long for the legend is cut


def test_matplotlib_is_imported_only_to_draw() -> None:
    import subprocess
    import sys

    code = (
        "import sys, reports.cli, reports.html, reports.views, reports.views_player\n"
        "assert 'matplotlib' not in sys.modules\n"
        "from reports.charts import line_chart\n"
        "line_chart('c', ['a', 'b'], [('x', [1.0, 2.0])])\n"
        "assert 'matplotlib' in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


def test_pages_written_piece_by_piece_are_the_rendered_text() -> None:
    import random
    import re

    from markupsafe import Markup

    from reports.html import without_blank_lines

    rng = random.Random(20)
    for _ in range(2000):
        text = "".join(rng.choice("ab <\n\n \t\r\x0b") for _ in range(rng.randint(0, 40)))
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 6))))
        pieces = [text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        # Jinja gives Markup pieces too: they must not escape the text joined to them.
        pieces = [Markup(p) if k % 2 else p for k, p in enumerate(pieces)]
        assert "".join(without_blank_lines(pieces)) == re.sub(r"\n\s*\n+", "\n", text), text


def test_progress_is_shown_when_asked_and_not_when_stderr_is_no_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = _folder(tmp_path, _clean_games(3))
    assert main(["report", str(logs), "-o", str(tmp_path / "a")]) == 0
    assert "games," not in capsys.readouterr().err  # stderr is captured: not a terminal
    assert main(["report", str(logs), "-o", str(tmp_path / "b"), "--progress"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\rmjaudit: ") and err.rstrip().endswith("/s")
    assert "mjaudit: 3 games, " in err and err.endswith("\n")


def test_pages_made_by_workers_are_in_the_language_of_the_run(tmp_path: Path) -> None:
    from reports.i18n import language

    logs = _folder(tmp_path, _clean_games(3))
    with language("ja"):
        write_report([str(logs)], tmp_path / "one", jobs=1)
        write_report([str(logs)], tmp_path / "two", jobs=2)
    write_report([str(logs)], tmp_path / "en", jobs=2)
    pages = _pages(tmp_path / "one")
    assert _pages(tmp_path / "two") == pages
    assert pages["g00.xml.html"] != _pages(tmp_path / "en")["g00.xml.html"]
    assert 'lang="ja"' in pages["g00.xml.html"].decode("utf-8")


def test_the_statistics_filters_on_the_command_line(tmp_path: Path) -> None:
    """--since/--until/--lobby keep the games in the index and the statistics;
    --min-games keeps the players with that many; every game still has its page."""
    from reports.cli import main
    from tests.conftest import TENHOU_XML

    names = ("2008092000gm-0009-0000-10db094d.xml", "2009060321gm-00b9-0000-75b25bcf.xml")
    if not all((TENHOU_XML / n).exists() for n in names):
        pytest.skip(f"corpus not available at {TENHOU_XML}")
    logs = tmp_path / "logs"
    logs.mkdir()
    for n in names:
        (logs / n).write_bytes((TENHOU_XML / n).read_bytes())
    site = tmp_path / "site"
    args = ["report", str(logs), "-o", str(site), "-j", "1", "--fail-on", "never"]
    assert main([*args, "--since", "2009-01-01"]) == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "2009-06-03" in index and "2008-09-20" not in index
    assert len(list(site.glob("2*.html"))) == 2  # both pages are written
    assert main([*args, "--until", "2008-12-31"]) == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "2008-09-20" in index and "2009-06-03" not in index
    # A lobby no game is in keeps none, and says so (exit 2), the pages written.
    assert main([*args, "--lobby", "nosuchroom"]) == 2
    assert "2008-09-20" not in (site / "index.html").read_text(encoding="utf-8")
    assert main([*args, "--min-games", "2"]) == 0
    players = (site / "players.html").read_text(encoding="utf-8")
    assert 'id="overview"' not in players  # nobody played both games
