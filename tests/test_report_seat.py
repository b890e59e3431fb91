"""A game reviewed from one seat: its turns on the board, from the audit's one replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analyzer.checks.audit import resolve_rules
from mjaudit.events import DeclareMeld, DrawTile, RoundStart
from mjaudit.melds import MeldKind
from parsers import load
from reports.html import render_game
from reports.views import build_game_view
from reports.views_facts import collect_game

ROOT = Path(__file__).resolve().parents[1]


def _round_data(page: str) -> list[dict[str, object]]:
    found = re.findall(r'<script type="application/json" class="frames">(.*?)</script>', page, re.S)
    return [json.loads(text) for text in found]


def test_the_seat_view_notes_every_own_turn_and_every_beaten_discard() -> None:
    log = load(str(ROOT / "sample_logs" / "clean_game.xml"))
    rules = resolve_rules(log, "auto")
    seat = 1
    facts = collect_game(log, rules, seat=seat)
    page = render_game(build_game_view(facts))
    # Own turns, counted from the events: each draw of the seat, each chi or pon it made
    # (a turn of a hand broken by the log, or of a round's last draw, still counts).
    own: dict[int, int] = {}
    r = -1
    for ev in log.events:
        if isinstance(ev, RoundStart):
            r += 1
            own[r] = 0
        elif (isinstance(ev, DrawTile) and ev.seat == seat) or (
            isinstance(ev, DeclareMeld)
            and ev.seat == seat
            and ev.meld.kind in (MeldKind.CHI, MeldKind.PON)
        ):
            own[r] += 1
    rounds = _round_data(page)
    assert len(rounds) == len(own)
    for k, data in enumerate(rounds):
        notes = data["notes"]
        assert isinstance(notes, list)
        begins = [n for n in notes if n[1] == "turn" and " keeps " not in n[2]]
        beaten = [n for n in notes if n[1] == "efficiency"]
        assert len(begins) == own[k]
        tracked = [t for (r, _), t in facts.turns.items() if r == k]
        assert len(beaten) == sum(1 for t in tracked if t.note is not None)
        name = facts.names[seat]
        assert all(str(n[2]).startswith(name) for n in begins + beaten)
    assert sum(1 for t in facts.turns.values() if t.note is not None) > 0
    # The board is seen from that seat: it comes first and is marked.
    first = re.search(r'<div class="seat[^"]*" data-seat="(\d)">', page)
    assert first is not None and first.group(1) == str(seat)
    assert f'me" data-seat="{seat}"' in page


def test_without_a_seat_the_page_has_no_turn_notes() -> None:
    log = load(str(ROOT / "sample_logs" / "clean_game.xml"))
    facts = collect_game(log, resolve_rules(log, "auto"))
    assert facts.turns == {} and facts.seat is None
    page = render_game(build_game_view(facts))
    for data in _round_data(page):
        notes = data["notes"]
        assert isinstance(notes, list)
        assert all(n[1] not in ("turn", "efficiency") for n in notes)
    assert ' me" data-seat' not in page


def test_report_from_a_seat_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reports.cli import main

    game = str(ROOT / "sample_logs" / "clean_game.xml")
    log = load(game)
    name = log.start.players[2].name
    by_seat, by_name = tmp_path / "seat.html", tmp_path / "name.html"
    assert main(["report", game, "-o", str(by_seat), "--seat", "2"]) == 0
    assert main(["report", game, "-o", str(by_name), "--player", name]) == 0
    page = by_seat.read_text(encoding="utf-8")
    assert page == by_name.read_text(encoding="utf-8")
    assert ('me" data-seat="2"' in page and '"efficiency"' in page) or '"turn"' in page
    capsys.readouterr()
    assert main(["report", game, "-o", str(tmp_path / "x.html"), "--player", name + "x"]) == 2
    err = capsys.readouterr().err
    assert "no player of that name" in err and repr(name) in err
    assert main(["report", game, "-o", str(tmp_path / "y.html"), "--lang", "ja"]) == 0
    assert '<html lang="ja">' in (tmp_path / "y.html").read_text(encoding="utf-8")


def test_a_seat_for_a_folder_is_refused_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--seat reviews one game; given a folder (a site of many games) it was dropped
    without a word and the pages written as without it."""
    from reports.cli import main

    site = tmp_path / "site"
    assert main(["report", str(ROOT / "sample_logs"), "-o", str(site), "--seat", "0"]) == 2
    err = capsys.readouterr().err
    assert "--seat 0 reviews one game from a seat: name one game's file" in err
    assert not site.exists()
