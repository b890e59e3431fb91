"""mjai parser: the dialects on tiny logs, the errors, and the real corpus."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from analyzer.engine.replay import replay
from mjaudit.errors import LogFormatError
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameEnd,
    RiichiAccepted,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import MeldKind
from mjaudit.rules import rules_for
from mjaudit.tiles import Tile, tiles
from mjaudit.yaku import Yaku
from parsers import load_bytes
from parsers.mjai import parse_mjai

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "mjai"

HAND = ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "P", "P"]
OTHER = ["1s", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "N", "N", "C"]


def mjai(*events: dict[str, object], start: dict[str, object] | None = None) -> bytes:
    kyoku: dict[str, object] = {
        "type": "start_kyoku",
        "bakaze": "E",
        "kyoku": 1,
        "honba": 0,
        "oya": 0,
        "dora_marker": "F",
        "tehais": [HAND, OTHER, OTHER, OTHER],
    }
    kyoku.update(start or {})
    lines = [{"type": "start_game", "names": ["a", "b", "c", "d"]}, kyoku, *events]
    return "\n".join(json.dumps(e) for e in lines).encode()


def of(log_events: tuple[Event, ...], kind: type[Event]) -> list[Event]:
    return [e for e in log_events if isinstance(e, kind)]


def test_gimite_dialect_hora_claims_and_rebuilt_scores() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "P"},
        {
            "type": "hora",
            "actor": 0,
            "target": 0,
            "pai": "P",
            "uradora_markers": [],
            "hora_tehais": [*HAND, "P"],
            "yakus": [["bakaze", 1], ["jikaze", 1], ["sangenpai", 1], ["akadora", 1]],
            "fu": 40,
            "fan": 4,
            "hora_points": 12000,
            "deltas": [12000, -4000, -4000, -4000],
            "scores": [37000, 21000, 21000, 21000],
        },
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [37000, 21000, 21000, 21000]},
    )
    log = parse_mjai(data, "g.mjson")
    start = of(log.events, RoundStart)[0]
    assert isinstance(start, RoundStart)
    assert start.scores == (25000,) * 4 and start.riichi_sticks == 0  # rebuilt (§2.2)
    assert start.hands[0] == tiles("123m406p789s1155z")
    win = of(log.events, Win)[0]
    assert isinstance(win, Win)
    c = win.claims
    assert c.yaku == (
        (Yaku.ROUND_WIND_EAST, 1),
        (Yaku.SEAT_WIND_EAST, 1),
        (Yaku.HAKU, 1),  # where sangenpai stands
        (Yaku.AKA_DORA, 1),
    )
    assert (c.fu, c.han, c.points, c.win_tile) == (40, 4, 12000, Tile("5z"))
    assert c.deltas == (12000, -4000, -4000, -4000) and c.ura_indicators is None
    assert c.hand is not None and len(c.hand) == 14
    end = log.events[-1]
    assert isinstance(end, GameEnd) and end.claims.final_scores == (37000, 21000, 21000, 21000)
    assert log.start.rules_hint.source == "mjai" and log.start.rules_hint.aka is True
    assert "aka default on" in log.start.rules_hint.description


def test_ron_hand_without_the_winning_tile_gets_it_added() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
        {
            "type": "hora",
            "actor": 1,
            "target": 0,
            "pai": "N",
            "hora_tehais": OTHER,
            "yakus": [["daisangen", 100]],
            "fan": 100,
            "fu": 40,
            "hora_points": 32000,
        },
    )
    win = of(parse_mjai(data, "r.mjson").events, Win)[0]
    assert isinstance(win, Win)
    assert win.claims.yakuman == (Yaku.DAISANGEN,) and win.claims.han is None
    assert win.claims.hand is not None and len(win.claims.hand) == 14


def test_libriichi_dialect_keeps_only_what_it_has() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "reach", "actor": 0},
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 0},
        {"type": "tsumo", "actor": 1, "pai": "S"},
        {
            "type": "hora",
            "actor": 1,
            "target": 1,
            "deltas": [-2000, 5000, -1000, -1000],
            "ura_markers": [],
        },
        start={"kyotaku": 1, "scores": [25000, 24000, 25000, 25000]},
    )
    log = parse_mjai(data, "l.json")
    accepted = of(log.events, RiichiAccepted)[0]
    assert isinstance(accepted, RiichiAccepted) and accepted.scores is None
    win = of(log.events, Win)[0]
    assert isinstance(win, Win)
    c = win.claims
    assert (c.yaku, c.fu, c.han, c.points, c.win_tile, c.hand) == (None,) * 6
    assert c.deltas == (-2000, 5000, -1000, -1000)
    assert not any(isinstance(e, GameEnd) for e in log.events)  # a cut log: no GameEnd


def test_akochan_singular_ura_field_and_unrounded_fu() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
        {
            "type": "hora",
            "actor": 1,
            "target": 0,
            "pai": "N",
            "fan": 1,
            "fu": 38,
            "uradora_marker": ["4p"],
            "hora_tehais": OTHER,
        },
    )
    win = of(parse_mjai(data, "a.json").events, Win)[0]
    assert isinstance(win, Win)
    # 20 base + 10 closed ron + 8 closed terminal triplet, before the table rounds it
    assert win.claims.fu == 40 and win.claims.ura_indicators == (Tile("4p"),)
    assert win.claims.deltas is None


@pytest.mark.parametrize(
    ("kyotaku", "sticks_left", "claimed"),
    [
        pytest.param(None, True, None, id="tenhou-archive-stick-left"),
        pytest.param(None, False, (26000, 24000, 25000, 24000), id="tenhou-archive-no-stick"),
        pytest.param(0, True, (26000, 24000, 25000, 24000), id="server-scores-are-final"),
    ],
)
def test_tenhou_archive_end_scores_are_final_only_without_sticks(
    kyotaku: int | None, sticks_left: bool, claimed: tuple[int, ...] | None
) -> None:
    riichi: list[dict[str, object]] = [
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "reach", "actor": 0},
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 0},
    ]
    events: list[dict[str, object]] = [
        *(riichi if sticks_left else riichi[:1] + riichi[2:3]),
        {"type": "ryukyoku", "reason": "fanpai", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [26000, 24000, 25000, 24000]},
    ]
    start: dict[str, object] = {} if kyotaku is None else {"kyotaku": kyotaku}
    data = mjai(*events, start=start).replace(
        b'"type": "start_game"', b'"type": "start_game", "uri": "http://tenhou.net/0/?log=x"'
    )
    end = parse_mjai(data, "t.mjson").events[-1]
    assert isinstance(end, GameEnd) and end.claims.final_scores == claimed


def test_kans_both_dora_orders_and_ankan_question_mark() -> None:
    gimite = mjai(
        {"type": "tsumo", "actor": 0, "pai": "1m"},
        {"type": "ankan", "actor": 0, "pai": "?", "consumed": ["1m", "1m", "1m", "1m"]},
        {"type": "dora", "dora_marker": "3p"},
        {"type": "tsumo", "actor": 0, "pai": "2m"},
    )
    log = parse_mjai(gimite, "k.mjson")
    meld = of(log.events, DeclareMeld)[0]
    assert isinstance(meld, DeclareMeld) and meld.meld.kind is MeldKind.ANKAN
    # libriichi writes a pending open-kan indicator before the next kan; it is moved
    # after the kan, where Tenhou and gimite put it.
    libriichi = mjai(
        {"type": "tsumo", "actor": 0, "pai": "1m"},
        {"type": "dora", "dora_marker": "3p"},
        {"type": "ankan", "actor": 0, "consumed": ["1m", "1m", "1m", "1m"]},
        {"type": "dora", "dora_marker": "4p"},
    )
    events = parse_mjai(libriichi, "k.json").events
    kinds = [type(e).__name__ for e in events[-3:]]
    assert kinds == ["DeclareMeld", "DoraReveal", "DoraReveal"]
    assert [e.indicator for e in events[-2:] if isinstance(e, DoraReveal)] == list(tiles("34p"))


def test_kakan_takes_called_tile_and_source_from_the_pon() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": False},
        {"type": "pon", "actor": 2, "target": 0, "pai": "E", "consumed": ["E", "E"]},
        {"type": "dahai", "actor": 2, "pai": "N", "tsumogiri": False},
        {"type": "tsumo", "actor": 3, "pai": "1p"},
        {"type": "dahai", "actor": 3, "pai": "1p", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "2p"},
        {"type": "dahai", "actor": 0, "pai": "2p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "3p"},
        {"type": "dahai", "actor": 1, "pai": "3p", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "E"},
        {"type": "kakan", "actor": 2, "pai": "E", "consumed": ["E", "E", "E"]},
        start={"tehais": [HAND, OTHER, ["E", "E", *OTHER[:11]], OTHER]},
    )
    melds = of(parse_mjai(data, "kk.json").events, DeclareMeld)
    kakan = melds[-1]
    assert isinstance(kakan, DeclareMeld)
    assert kakan.meld.kind is MeldKind.KAKAN and kakan.meld.from_seat == 0
    assert kakan.meld.added == Tile("1z") and len(kakan.meld.tiles) == 4


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        pytest.param(
            {"reason": "fanpai", "tenpais": [True, False, False, False]},
            DrawReason.EXHAUSTIVE,
            id="gimite-fanpai",
        ),
        pytest.param({"reason": "suchareach"}, DrawReason.SUUCHA_RIICHI, id="suchareach"),
        pytest.param(
            {"deltas": [3000, -1000, -1000, -1000]}, DrawReason.EXHAUSTIVE, id="libriichi-no-reason"
        ),
    ],
)
def test_ryukyoku_reasons(extra: dict[str, object], reason: DrawReason) -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
        {"type": "ryukyoku", **extra},
    )
    draw = of(parse_mjai(data, "d.json").events, RoundDraw)[0]
    assert isinstance(draw, RoundDraw) and draw.reason is reason


def test_ryukyoku_right_after_a_draw_is_nine_terminals() -> None:
    data = mjai({"type": "tsumo", "actor": 0, "pai": "N"}, {"type": "ryukyoku"})
    draw = of(parse_mjai(data, "d.json").events, RoundDraw)[0]
    assert isinstance(draw, RoundDraw) and draw.reason is DrawReason.KYUUSHU


def test_error_line_ends_the_game_without_game_end() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "error", "message": "Error in player 1's response"},
        {"type": "tsumo", "actor": 9, "pai": "??"},
    )
    log = parse_mjai(data, "e.mjson")
    assert not any(isinstance(e, GameEnd) for e in log.events)
    assert log.events[-1].pos.number == 3  # the tsumo before the error; nothing after


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param(
            '{"type":"tsumo","actor":0,"pai":"?"}',
            "line 3.*hidden tile '\\?'",
            id="hidden-tile",
        ),
        pytest.param(
            '{"type":"tsumo","actor":7,"pai":"1m"}',
            "line 3.*'actor' 7 is not a seat",
            id="bad-seat",
        ),
        pytest.param(
            '{"type":"tsumo","actor":0,"pai":"0m"}',
            "line 3.*'0m' is not an mjai tile",
            id="bad-tile",
        ),
        pytest.param('{"type":"tsumo","actor":0', "line 3, column .*not valid JSON", id="json"),
        pytest.param('{"type":"frobnicate"}', "line 3.*unknown event type", id="unknown-type"),
        pytest.param(
            '{"type":"dahai","actor":0}',
            "line 3.*missing field 'pai'|line 3.*None",
            id="missing-field",
        ),
    ],
)
def test_errors_name_the_line_and_the_problem(line: str, message: str) -> None:
    data = mjai() + b"\n" + line.encode()
    with pytest.raises(LogFormatError, match=message):
        parse_mjai(data, "bad.mjson")


def test_a_long_number_on_any_line_is_refused_there() -> None:
    # Numbers are read natively only where the whole file has no over-long run of
    # digits; a long one on a later line is still refused, on its own line.
    data = mjai({"type": "tsumo", "actor": 0, "pai": "N"}) + b'\n{"type":"dahai","actor":0,'
    data += b'"pai":"N","tsumogiri":true,"x":12345678901234567}'
    with pytest.raises(LogFormatError, match=r"line 4.*a number of 17 digits"):
        parse_mjai(data, "long.mjson")


def test_lines_with_spaces_around_or_extra_data() -> None:
    spaced = mjai() + b'\n  {"type": "tsumo", "actor": 0, "pai": "N"}  '
    draw = of(parse_mjai(spaced, "s.mjson").events, DrawTile)[0]
    assert isinstance(draw, DrawTile) and draw.tile == Tile("4z")
    with pytest.raises(LogFormatError, match=r"line 3, column 38.*Extra data"):
        parse_mjai(mjai() + b'\n{"type":"tsumo","actor":0,"pai":"N"} {}', "x.mjson")


def test_positions_name_the_line_and_its_type_when_read() -> None:
    log = parse_mjai(
        mjai({"type": "tsumo", "actor": 0, "pai": "N"}, {"type": "dahai", "actor": 0, "pai": "N"}),
        "p.mjson",
    )
    draw, discard = of(log.events, DrawTile)[0], of(log.events, Discard)[0]
    assert str(draw.pos) == "p.mjson (line 3 {tsumo})"
    assert str(discard.pos) == "p.mjson (line 4 {dahai})"
    assert str(log.events[1].pos) == "p.mjson (line 2 {start_kyoku})"


def test_load_sniffs_mjai() -> None:
    log = load_bytes(mjai({"type": "tsumo", "actor": 0, "pai": "N"}), "x.json")
    assert log.format == "mjai"


# -- the real corpus -----------------------------------------------------------------------
@pytest.mark.corpus
def test_every_corpus_file_parses_and_replays_consistently() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    files = sorted(CORPUS.rglob("*.jsonl"))
    rounds = wins = ends = 0
    problems = []
    unresolved = 0
    for path in files:
        log = parse_mjai(path.read_bytes(), str(path))
        rounds += sum(isinstance(e, RoundStart) for e in log.events)
        ends += sum(isinstance(e, GameEnd) for e in log.events)
        for e in log.events:
            if isinstance(e, Win):
                wins += 1
                has_yakus = b'"yakus"' in path.read_bytes()
                unresolved += has_yakus and e.claims.yaku is None and e.claims.yakuman is None
        game = replay(log, rules_for(log.start.rules_hint))
        problems += [
            f"{path.name}: {f.message}"
            for r in game.rounds
            for f in r.findings
            if f.code == "inconsistent-log"
        ]
    assert (len(files), rounds, wins, ends) == (42, 371, 308, 36)
    # The one genuine fault: mjaigym's engine lets seat 0 (or 3) draw first in
    # hands another seat deals, so those hands cannot be replayed (9 hands, 2 files).
    assert len(problems) == 9
    assert all(p.startswith("mjaigym") and "draws out of turn" in p for p in problems)
    assert unresolved == 0


def test_a_server_error_is_a_game_incomplete_finding() -> None:
    from analyzer.checks.audit import audit_path

    path = CORPUS / "gimite-server" / "mjai-manue-go_selfmatch_2026-06-18-160903.jsonl"
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    result = audit_path(str(path))
    errors = [f for f in result.findings if f.severity.value == "error"]
    assert [f.code for f in errors] == ["game-incomplete"]
    assert "line 535" in errors[0].message and "player 1's response" in errors[0].message
    # At the hand it cut short (the game page marked that hand clean: no event), and
    # located at the last line the log holds, not at the first hand's.
    assert (errors[0].round, errors[0].source) == ("E4-2", "line 534 {tsumo}")


def _edited_corpus_game(edit: Callable[[list[dict[str, object]]], None]) -> bytes:
    path = CORPUS / "gimite-server" / "mjai-manue-go_selfmatch_2025-08-23-085608.jsonl"
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    edit(events)
    return "\n".join(json.dumps(e) for e in events).encode()


def _audit(data: bytes) -> tuple[list[str], list[str], int]:
    from analyzer.checks.audit import audit_log, resolve_rules

    log = load_bytes(data, "edited.jsonl")
    result = audit_log(log, resolve_rules(log, "auto"))
    assert result.error is None
    errors = [f for f in result.findings if f.severity.value == "error"]
    return [f.code for f in errors], [f.message for f in errors], result.rounds


@pytest.mark.corpus
@pytest.mark.parametrize("copies", [5, 9])
def test_a_fifth_tile_of_a_kind_dealt_is_an_inconsistent_hand(copies: int) -> None:
    # mjai gives no tile ids, so a tile cannot be seen twice; it can be dealt five
    # times. Seat 0 is dealt `copies` of 4m (the first hand deals seat 0 two of them).
    def edit(events: list[dict[str, object]]) -> None:
        tehais = events[1]["tehais"]
        assert isinstance(tehais, list)
        tehais[0] = ["4m"] * copies + tehais[0][copies:]

    codes, messages, rounds = _audit(_edited_corpus_game(edit))
    assert codes == ["inconsistent-log"]
    assert messages[0] == (
        "E1-0: the log cannot be replayed at line 2 {start_kyoku}: "
        "5 tiles of 4m come into play; there are only four"
    )
    assert rounds == 11  # the other hands are audited as before


@pytest.mark.corpus
def test_a_fifth_tile_of_a_kind_drawn_is_an_inconsistent_hand() -> None:
    # Seat 0's first draw becomes a fifth 4m: four are dealt to it already.
    def edit(events: list[dict[str, object]]) -> None:
        tehais = events[1]["tehais"]
        assert isinstance(tehais, list)
        tehais[0] = ["4m"] * 4 + tehais[0][4:]
        first = events[2]
        assert first["type"] == "tsumo" and first["actor"] == 0
        first["pai"] = "4m"

    codes, messages, _ = _audit(_edited_corpus_game(edit))
    assert codes == ["inconsistent-log"]
    assert messages[0] == (
        "E1-0: the log cannot be replayed at line 3 {tsumo}: "
        "5 tiles of 4m come into play; there are only four"
    )


def test_the_lines_are_decoded_at_once_only_where_each_is_one_value() -> None:
    from parsers.json_text import load_lines

    good = ['{"type": "a"}', "", '  {"type": "b"}  ']
    assert load_lines("\n".join(good), good) == [{"type": "a"}, {"type": "b"}]
    # Two values on a line, a bad line, a trailing comma: line by line instead, so
    # that the bad line is the one named.
    for bad in ('{"type": "a"}, {"type": "b"}', '{"type": ', '{"type": "a"},'):
        lines = ['{"type": "x"}', bad]
        assert load_lines("\n".join(lines), lines) is None


def test_a_bad_line_after_good_ones_is_named_by_its_number() -> None:
    data = mjai({"type": "tsumo", "actor": 0, "pai": "1m"}) + b'\n{"type": "dahai", '
    with pytest.raises(LogFormatError, match="line 4"):
        parse_mjai(data, "bad.jsonl")


@pytest.mark.corpus
def test_a_winning_hand_without_the_winning_tile_named_is_completed_from_the_play() -> None:
    # akochan writes hora_tehais (13 tiles) and, in older files, no pai (§2.8, §4):
    # the winning tile is the winner's last draw (tsumo) or the tile it robbed or
    # took from the discard (ron). The same game with and without pai audits alike.
    path = CORPUS / "gimite-server" / "mjai-manue-go_selfmatch_2025-09-12-153331.jsonl"
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    wins = [e for e in events if e["type"] == "hora"]
    assert {e["actor"] == e["target"] for e in wins} == {True, False}  # tsumo and ron

    def findings(data: bytes) -> list[tuple[str, str, str]]:
        from analyzer.checks.audit import audit_log, resolve_rules

        log = load_bytes(data, "edited.jsonl")
        result = audit_log(log, resolve_rules(log, "auto"))
        return [(f.severity.value, f.code, f.message) for f in result.findings]

    baseline = findings("\n".join(json.dumps(e) for e in events).encode())
    for e in wins:
        e.pop("pai")
    data = "\n".join(json.dumps(e) for e in events).encode()
    assert findings(data) == baseline
    log = load_bytes(data, "edited.jsonl")
    hands = [e.claims.hand for e in log.events if isinstance(e, Win)]
    assert all(h is not None and len(h) % 3 == 2 for h in hands)
    # What the log does not name stays unclaimed.
    assert all(e.claims.win_tile is None for e in log.events if isinstance(e, Win))


@pytest.mark.corpus
@pytest.mark.parametrize(
    "kept",
    [pytest.param((), id="convlog"), pytest.param(("tenpais",), id="akochan-tenpais")],
)
def test_a_triple_ron_draw_written_without_a_reason_is_read_as_one(kept: tuple[str, ...]) -> None:
    # convlog drops Tenhou's draw names (三家和了 among them, §5.1) and writes no
    # reason (§2.9): a hand that stops on a discard three players can win, before
    # the wall ends and with nothing paid, is the triple-ron draw, not an exhaustive
    # draw with tiles left in the wall.
    path = (
        CORPUS
        / "converted-from-tenhou"
        / "gimite-tenhouarchive-partial"
        / "tenhou_upd-aft-ron3.jsonl"
    )
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    baseline = _audit("\n".join(json.dumps(e) for e in events).encode())
    draw = next(e for e in events if e["type"] == "ryukyoku")
    assert draw["reason"] == "sanchaho"
    for key in ("reason", "tehais", "tenpais", "scores"):
        if key not in kept:
            draw.pop(key, None)
    data = "\n".join(json.dumps(e) for e in events).encode()
    assert _audit(data) == baseline  # game-incomplete: the file is a game's prefix
    reasons = [
        e.reason for e in load_bytes(data, "edited.jsonl").events if isinstance(e, RoundDraw)
    ]
    assert reasons == [DrawReason.SANCHAHOU]


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name",
    [
        "akochan/akochan_match_result_haifu_log_1000_0.jsonl",
        "gimite-server/mjai-manue-go_selfmatch_2025-08-23-085608.jsonl",
    ],
)
def test_wins_recorded_by_their_seats_only_leave_the_ura_to_the_scores(name: str) -> None:
    # akochan writes some wins as {actor, target} only (§4): a riichi winner's ura
    # han are then unknown, and the scores the log shows next (the next hand's start,
    # the final scores) are what tell them. A chain settled with no ura at all is the
    # audit's guess, not the log's fault: no score-chain or final-score finding.
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    baseline, _, rounds = _audit("\n".join(json.dumps(e) for e in events).encode())
    for i, e in enumerate(events):
        if e["type"] == "hora":
            events[i] = {"type": "hora", "actor": e["actor"], "target": e["target"]}
    codes, messages, edited_rounds = _audit("\n".join(json.dumps(e) for e in events).encode())
    assert (codes, edited_rounds) == (baseline, rounds), messages


@pytest.mark.corpus
@pytest.mark.parametrize("key", ["han", "fan"])
def test_yakus_written_as_name_and_han_objects_claim_as_the_pairs_do(key: str) -> None:
    # Newer engines write each yaku as an object {"name": .., "han": ..} rather than
    # gimite's [name, fan] pair (§3): the same claim, the same audit.
    path = CORPUS / "gimite-server" / "mjai-manue-go_selfmatch_2025-08-23-085608.jsonl"
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    pairs = load_bytes("\n".join(json.dumps(e) for e in events).encode(), "pairs.jsonl")
    for e in events:
        if e["type"] == "hora":
            e["yakus"] = [{"name": name, key: fan} for name, fan in e["yakus"]]
    data = "\n".join(json.dumps(e) for e in events).encode()
    objects = load_bytes(data, "objects.jsonl")
    claims = [e.claims for e in objects.events if isinstance(e, Win)]
    assert claims == [e.claims for e in pairs.events if isinstance(e, Win)]
    assert all(c.yaku is not None or c.yakuman is not None for c in claims)
    codes, _, _ = _audit(data)
    assert codes == []


@pytest.mark.corpus
def test_a_fourth_riichi_left_unaccepted_before_a_draw_without_reason_is_four_riichi() -> None:
    # convlog writes reach_accepted at the next take (§2.7, §5.1); the four-riichi
    # draw comes straight after the fourth declaring discard, so that riichi is never
    # accepted in the file, and the draw has no reason. The fourth declaration stood
    # (nobody won on its tile): its stick is on the table and the draw is four riichi.
    path = (
        CORPUS
        / "converted-from-tenhou"
        / "gimite-tenhouarchive-partial"
        / "tenhou_upd-aft-reach4.jsonl"
    )
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    baseline = _audit("\n".join(json.dumps(e) for e in events).encode())
    draw = max(i for i, e in enumerate(events) if e["type"] == "ryukyoku")
    assert events[draw]["reason"] == "suchareach"
    assert events[draw - 1] == {**events[draw - 1], "type": "reach_accepted", "actor": 1}
    convlog = [
        {"type": "reach_accepted", "actor": e["actor"]} if e["type"] == "reach_accepted" else e
        for e in events[: draw - 1]
    ]
    convlog.append({"type": "ryukyoku", "deltas": [0, 0, 0, 0]})
    data = "\n".join(json.dumps(e) for e in convlog).encode()
    assert _audit(data) == baseline  # game-incomplete: the file is a game's prefix
    log = load_bytes(data, "edited.jsonl")
    last = [e for e in log.events if isinstance(e, (RiichiAccepted, RoundDraw))][-2:]
    assert isinstance(last[0], RiichiAccepted) and last[0].seat == 1
    assert isinstance(last[1], RoundDraw) and last[1].reason is DrawReason.SUUCHA_RIICHI


# -- mjai.app's penalty draw (§6.2) ------------------------------------------------------------
def _chombo(offender: int, dealer: int) -> list[int]:
    """mjai.app's penalty deltas: a mangan chombo paid by ``offender`` (§6.2)."""
    if offender == dealer:
        return [-12000 if s == offender else 4000 for s in range(4)]
    return [-8000 if s == offender else 4000 if s == dealer else 2000 for s in range(4)]


def _small_penalty() -> bytes:
    """Seat 0 deals, draws and is penalised; the next hand starts."""
    return mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "ryukyoku", "deltas": _chombo(0, 0), "reason": "error"},
        {"type": "end_kyoku"},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "kyoku": 1,
            "honba": 1,
            "kyotaku": 0,
            "oya": 0,
            "dora_marker": "F",
            "scores": [13000, 29000, 29000, 29000],
            "tehais": [HAND, OTHER, OTHER, OTHER],
        },
        start={"kyotaku": 0, "scores": [25000] * 4},
    )


def test_an_mjai_app_penalty_is_read_as_a_penalty_not_a_draw_of_the_rules() -> None:
    log = parse_mjai(_small_penalty(), "p.json")
    (draw,) = of(log.events, RoundDraw)
    assert isinstance(draw, RoundDraw)
    assert draw.reason is DrawReason.PENALTY and not draw.reason.abortive
    assert draw.claims.deltas == (-12000, 4000, 4000, 4000) and draw.claims.tenpai is None
    assert len(of(log.events, RoundStart)) == 2  # the game goes on


def _penalised(offender: int, deltas: list[int] | None = None) -> bytes:
    """The libriichi arena game with its hand E4-0 (seat 3 deals) ended by mjai.app's
    penalty of ``offender`` right after its third draw (so it holds 14 tiles), and
    every later hand's scores moved by what the penalty pays instead of the win."""
    path = CORPUS / "libriichi-arena" / "riichienv_126_204_0_mjai.jsonl"
    if not path.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    start = next(
        i
        for i, e in enumerate(events)
        if e["type"] == "start_kyoku" and (e["bakaze"], e["kyoku"], e["honba"]) == ("E", 4, 0)
    )
    assert events[start]["oya"] == 3
    end = next(i for i in range(start, len(events)) if events[i]["type"] == "hora")
    won = events[end]["deltas"]
    draws = [
        i
        for i in range(start, end)
        if events[i]["type"] == "tsumo" and events[i]["actor"] == offender
    ]
    cut = draws[2] + 1
    assert not any(e["type"] in ("reach", "reach_accepted") for e in events[start:cut])
    paid = deltas if deltas is not None else _chombo(offender, 3)
    for e in events[end:]:
        if e["type"] == "start_kyoku":
            e["scores"] = [s + p - w for s, p, w in zip(e["scores"], paid, won, strict=True)]
    penalty = {"type": "ryukyoku", "deltas": paid, "reason": "error"}
    events[cut : end + 1] = [penalty]
    return "\n".join(json.dumps(e) for e in events).encode()


def _audit_all(data: bytes) -> list[tuple[str, str, str | None, int | None, str]]:
    from analyzer.checks.audit import audit_log, resolve_rules

    log = load_bytes(data, "edited.jsonl")
    result = audit_log(log, resolve_rules(log, "auto"))
    assert result.error is None
    return [(f.severity.value, f.code, f.round, f.seat, f.message) for f in result.findings]


@pytest.mark.corpus
@pytest.mark.parametrize("offender", [1, 3], ids=["non-dealer", "dealer"])
def test_a_game_with_a_penalty_is_audited_and_the_penalty_named_once(offender: int) -> None:
    # mjai.app ends a hand in which a bot made an invalid move with a ryukyoku of
    # reason "error" and a mangan chombo for it, then plays on (§6.2): the file was
    # refused whole (exit 2). Now every hand is audited, the penalty is one warning
    # naming the seat that pays it, and nothing of the hand is judged as a draw.
    codes, messages, rounds = _audit(_penalised(offender))
    assert (codes, rounds) == ([], 12), messages
    found = _audit_all(_penalised(offender))
    penalties = [f for f in found if f[1] == "server-penalty"]
    assert [f[:4] for f in penalties] == [("warning", "server-penalty", "E4-0", offender)]
    assert f"seat {offender}" in penalties[0][4]


@pytest.mark.corpus
def test_a_penalty_of_the_wrong_amount_is_one_payment_finding() -> None:
    # Seat 1 pays 9000 instead of a mangan chombo's 8000: one payment-mismatch
    # for the penalty (the chain follows the log's deltas, so nothing more).
    codes, messages, _ = _audit(_penalised(1, [2000, -9000, 2000, 4000]))
    assert codes == ["payment-mismatch"], messages
    assert "seat 1" in messages[0] and "-9000" in messages[0] and "-8000" in messages[0]


@pytest.mark.corpus
def test_a_penalty_is_counted_as_what_it_is() -> None:
    from analyzer.checks.audit import audit_log, resolve_rules

    log = load_bytes(_penalised(1), "edited.jsonl")
    result = audit_log(log, resolve_rules(log, "auto"))
    path = CORPUS / "libriichi-arena" / "riichienv_126_204_0_mjai.jsonl"
    whole = load_bytes(path.read_bytes(), "whole.jsonl")
    baseline = audit_log(whole, resolve_rules(whole, "auto"))
    # The hand is neither a win nor a draw of the game's rules.
    assert (result.wins, result.draws) == (baseline.wins - 1, baseline.draws)
    results = [h.result for h in result.hands]
    assert results[5] == "penalty" and results.count("penalty") == 1
    assert dict(result.checks).get("penalties_checked") == 1
    assert "penalties_checked" not in dict(baseline.checks)


@pytest.mark.corpus
def test_a_penalty_is_written_to_mjai_as_it_was_and_refused_by_tenhou_json() -> None:
    from parsers.convert import ConvertError, convert_log

    log = load_bytes(_penalised(1), "edited.jsonl")
    again = load_bytes(convert_log(log, "mjai"), "again.jsonl")
    draws = [e for e in again.events if isinstance(e, RoundDraw)]
    assert [(d.reason, d.claims.deltas) for d in draws if d.reason is DrawReason.PENALTY] == [
        (DrawReason.PENALTY, (2000, -8000, 2000, 4000))
    ]
    # Tenhou's formats have no such result: refused, never written as another kind.
    small = load_bytes(_small_penalty(), "small.jsonl")
    for to in ("tenhou-json", "tenhou-xml"):
        with pytest.raises(ConvertError, match=r"penalty|tile ids"):
            convert_log(small, to)
    with pytest.raises(ConvertError, match=r"line 4 \{ryukyoku\}.*penalty"):
        convert_log(small, "tenhou-json")


# -- yaku names the reader does not know ---------------------------------------------------
def test_an_unknown_yaku_name_leaves_that_win_without_a_yaku_claim() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "P"},
        {
            "type": "hora",
            "actor": 0,
            "target": 0,
            "pai": "P",
            "yakus": [["bakaze", 1], ["役牌 白", 1]],
            "fan": 2,
            "fu": 40,
        },
    )
    (win,) = of(parse_mjai(data, "y.mjson").events, Win)
    assert isinstance(win, Win)
    c = win.claims
    assert (c.yaku, c.yakuman) == (None, None)
    assert c.yaku_unread is not None and "'役牌 白'" in c.yaku_unread
    assert (c.han, c.fu) == (2, 40)  # the other claims stand


@pytest.mark.corpus
def test_a_win_with_an_unknown_yaku_name_is_audited_but_its_yaku_are_not_compared() -> None:
    # Another engine's yaku names (RiichiEnv's Japanese strings, §3) refused the whole
    # file. Now only that win's yaku are not compared (one `unchecked` warning naming
    # the name); its han, fu, points and deltas are, and so is everything else.
    def edit(events: list[dict[str, object]], fan: int | None = None, other: bool = False) -> None:
        wins = [e for e in events if e["type"] == "hora"]
        assert wins[0]["yakus"] == [["akadora", 1], ["sangenpai", 1]]
        wins[0]["yakus"] = [["akadora", 1], ["役牌 中", 1]]
        if fan is not None:
            wins[0]["fan"] = fan
        if other:
            assert wins[2]["yakus"] == [["bakaze", 1]]
            wins[2]["yakus"] = [["tanyaochu", 1]]

    codes, messages, rounds = _audit(_edited_corpus_game(edit))
    assert (codes, rounds) == ([], 11), messages
    found = _audit_all(_edited_corpus_game(edit))
    unchecked = [f for f in found if f[1] == "unchecked"]
    assert [f[:4] for f in unchecked] == [("warning", "unchecked", "E1-0", 2)]
    assert "'役牌 中'" in unchecked[0][4] and "not compared" in unchecked[0][4]
    # That win's han is still checked, and the other wins' yaku still are.
    codes, messages, _ = _audit(_edited_corpus_game(lambda e: edit(e, fan=3)))
    assert messages == ["E1-0: seat 2: log says 3 han, recomputed 2 han"]
    codes, messages, _ = _audit(_edited_corpus_game(lambda e: edit(e, other=True)))
    assert codes == ["yaku-mismatch"], messages
    assert messages[0].startswith("E3-0: seat 0: log lists tanyao 1"), messages


def test_a_win_whose_yaku_cannot_be_read_is_not_converted_without_them() -> None:
    from parsers.convert import ConvertError, convert_log

    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "P"},
        {"type": "hora", "actor": 0, "target": 0, "yakus": [["役牌 白", 1]], "deltas": [0] * 4},
    )
    log = load_bytes(data, "y.jsonl")
    for to in ("mjai", "tenhou-json"):
        with pytest.raises(ConvertError, match="'役牌 白', which cannot be read"):
            convert_log(log, to)


# Four hands that can be dealt together (no tile five times).
DEALT = [
    HAND,
    ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "S", "S", "F", "F"],
    ["4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "W", "W", "C", "C"],
    ["4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "N", "N", "1s", "2s"],
]


def test_a_penalty_for_a_riichi_declarer_s_discard_leaves_the_declaration_unjudged() -> None:
    # The declarer's discard was the invalid move: the hand ends between the
    # declaration and its discard, which is no riichi out of place.
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "reach", "actor": 0},
        {"type": "ryukyoku", "deltas": _chombo(0, 0), "reason": "error"},
        {"type": "end_kyoku"},
        {"type": "end_game"},
        start={"tehais": DEALT},
    )
    found = _audit_all(data)
    assert [f[1] for f in found if f[0] != "warning" or f[1] != "rules-assumed"] == [
        "server-penalty"
    ], found


def test_a_penalty_nobody_pays_names_no_seat() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "N"},
        {"type": "ryukyoku", "deltas": [0, 0, 0, 0], "reason": "error"},
        {"type": "end_kyoku"},
        {"type": "end_game"},
        start={"tehais": DEALT},
    )
    found = [f for f in _audit_all(data) if f[1] != "rules-assumed"]
    assert [(f[1], f[3]) for f in found] == [("payment-mismatch", None), ("server-penalty", None)]
