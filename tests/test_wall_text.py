"""The printed wall: live order, starting hands and the dead wall with named positions."""

from __future__ import annotations

from analyzer.checks.audit import resolve_rules
from analyzer.checks.audit_wall import round_walls
from analyzer.engine.replay import replay
from parsers.tenhou_xml import parse_tenhou_xml
from reports.wall_text import render_round_wall, render_wall
from tests.conftest import corpus_file


def _text(name: str, round_no: int) -> str:
    log = parse_tenhou_xml(corpus_file(name).read_bytes(), name)
    rw = round_walls(log, replay(log, resolve_rules(log, "auto")))[round_no]
    return render_wall(rw.wall, label=rw.label, trace=rw)


def test_four_player_wall() -> None:
    text = _text("2010030412gm-00e1-0000-4a275c59.xml", 0)
    lines = text.splitlines()
    assert lines[0] == (
        "E1-0 wall: mt19937ar-sha512-n288-base64, 4 players, 136 tiles, dealer seat 0, dice 3+3"
    )
    # INIT hai0="124,120,112,54,...", seed[5] = 95, first draw <T67/> (wall §1.9).
    assert lines[2] == "  E seat 0: 5z 4z 2z 5p 4p 5z 2p 1z 5m 4m 7z 6s 5m"
    assert "live wall: 70 draws, yama[83] down to yama[14]" in lines
    assert "    1-10  yama[ 83]  8p 9m 3z 9m 3p 7m 8s 2s 3m 2m" in lines
    assert "  yama[ 5] 6s  dora indicator 1 (INIT) (turned)" in lines
    assert "  yama[ 4] 7z  ura indicator 1" in lines
    assert "  yama[ 1] 6z  rinshan 1" in lines


def test_sanma_wall_has_eight_rinshan_slots() -> None:
    text = _text("2014091101gm-00b9-0000-5ca6b487.xml", 0)
    assert "  yama[ 6] 9m  rinshan 8" in text
    assert "  yama[ 9] 1s  dora indicator 1 (INIT) (turned)" in text
    assert "the log drew 25 live, 2 rinshan; next live draw would be 8p (yama[43])" in text


def test_render_round_wall_for_the_cli() -> None:
    name = "2010030412gm-00e1-0000-4a275c59.xml"
    log = parse_tenhou_xml(corpus_file(name).read_bytes(), name)
    text = render_round_wall(log, replay(log, resolve_rules(log, "auto")), 1)
    assert text.startswith("E2-0 wall: mt19937ar-sha512-n288-base64")
    assert "the log drew 40 live, 0 rinshan; next live draw would be 2p (yama[43])" in text


def test_a_log_without_a_seed_says_so() -> None:
    text = corpus_file("2010030412gm-00e1-0000-4a275c59.xml").read_text(encoding="utf-8")
    start = text.index("<SHUFFLE")
    data = (text[:start] + text[text.index("/>", start) + 2 :]).encode()
    log = parse_tenhou_xml(data, "unseeded.xml")
    text = render_round_wall(log, replay(log, resolve_rules(log, "auto")), 0)
    assert text == "no wall for unseeded.xml: the log carries no Tenhou seed"


def test_positions_a_rinshan_draw_took_from_the_live_wall_are_not_live() -> None:
    """Three players, two kita (two rinshan draws): the live wall ends at yama[16], so
    yama[14] and yama[15] are the dead wall's now; only yama[16] and up are live."""
    path = corpus_file("2014091101gm-00b9-0000-5ca6b487.xml")
    log = parse_tenhou_xml(path.read_bytes(), str(path))
    game = replay(log, resolve_rules(log, "auto"))
    text = render_round_wall(log, game, 0)
    assert "yama[68] down to yama[16] (after 2 rinshan draws)" in text
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("  yama[")}
    live = sorted(k for k, line in lines.items() if line.endswith("(live at the end)"))
    assert live == ["yama[16]", "yama[17]"]
