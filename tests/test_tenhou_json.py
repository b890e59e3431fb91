"""Tenhou JSON parser: each construct on a tiny kyoku, the errors, and the real corpus."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

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
    GameLog,
    GameStart,
    Limit,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import MeldKind
from mjaudit.rules import rules_for
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku
from parsers import load_bytes
from parsers.tenhou_json import parse_tenhou_json
from parsers.tenhou_json_result import JsonFail, parse_score, parse_yaku, tile_of
from parsers.tenhou_xml import parse_tenhou_xml

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
JSON_DIR = CORPUS / "tenhou-json"
XML_DIR = CORPUS / "tenhou-xml"

FILL = [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24]


def kyoku(
    hands: list[list[int]],
    takes: list[list[object]],
    outs: list[list[object]],
    result: list[object],
    dora: list[int] | None = None,
    ura: list[int] | None = None,
    head: list[int] | None = None,
) -> list[object]:
    k: list[object] = [head or [0, 0, 0], [25000] * 4, dora or [11], ura or []]
    for s in range(4):
        k += [hands[s], takes[s], outs[s]]
    return [*k, result]


def doc(*kyokus: list[object], disp: str = "鳳南喰赤", **extra: object) -> bytes:
    return json.dumps(
        {
            "title": ["", ""],
            "name": ["A", "B", "C", "D"],
            "rule": {"disp": disp, "aka": 1},
            "log": list(kyokus),
            **extra,
        },
        ensure_ascii=False,
    ).encode()


def shape(events: tuple[Event, ...] | list[Event]) -> list[str]:
    out = []
    for e in events:
        match e:
            case DrawTile():
                out.append(f"draw{e.seat} {e.tile}")
            case Discard():
                out.append(f"discard{e.seat} {e.tile}{' tsumogiri' if e.tsumogiri else ''}")
            case DeclareMeld():
                out.append(f"{e.meld.kind.value}{e.seat} from {e.meld.from_seat}")
            case DoraReveal():
                out.append(f"dora {e.indicator}")
            case RiichiDeclared():
                out.append(f"riichi{e.seat}")
            case RiichiAccepted():
                out.append(f"accepted{e.seat}")
            case Win():
                out.append(f"win{e.seat} from {e.from_seat}")
            case RoundDraw():
                out.append(f"draw-end {e.reason.value}")
            case _:
                pass
    return out


CALLS = kyoku(
    hands=[
        [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 41],
        [24, 25, 31, 32, 33, 34, 35, 36, 37, 38, 39, 42, 42],
        [26, 29, 41, 41, 43, 43, 44, 44, 45, 45, 46, 46, 47],
        [11, 12, 13, 14, 15, 16, 17, 18, 19, 27, 28, 31, 32],
    ],
    takes=[[47, 42, 35], [44], ["41p4141", 33], ["c292728", 34]],
    outs=[[41, 60, 60], ["r24"], [29, 60], [11, 60]],
    result=["和了", [-1000, 2000, 0, 0], [1, 0, 1, "30符1飜1000点", "立直(1飜)"]],
    ura=[25],
)


def test_calls_riichi_and_ron_in_play_order() -> None:
    log = parse_tenhou_json(doc(CALLS), "calls.json")
    assert shape(log.events) == [
        "draw0 7z",
        "discard0 1z",
        "pon2 from 0",
        "discard2 9p",
        "chi3 from 2",
        "discard3 1m",
        "draw0 2z",
        "discard0 2z tsumogiri",
        "draw1 4z",
        "riichi1",
        "discard1 4p",
        "accepted1",
        "draw2 3s",
        "discard2 3s tsumogiri",
        "draw3 4s",
        "discard3 4s tsumogiri",
        "draw0 5s",
        "discard0 5s tsumogiri",
        "win1 from 0",
    ]
    win = log.events[-2]
    assert isinstance(win, Win) and isinstance(log.events[-1], GameEnd)
    c = win.claims
    assert (c.fu, c.han, c.points, c.limit) == (30, 1, 1000, Limit.NONE)
    assert c.yaku == ((Yaku.RIICHI, 1), (Yaku.URA_DORA, 0))  # ura 0 restored, as in XML
    assert c.deltas == (-1000, 2000, 0, 0)
    assert c.ura_indicators == (Tile("5p"),)  # the winner declared riichi
    assert c.hand is None and c.win_tile is None  # not in the JSON
    pon = next(e for e in log.events if isinstance(e, DeclareMeld))
    assert pon.meld.called == Tile("1z") and pon.meld.tiles == (Tile("1z"),) * 3


KANS = kyoku(
    hands=[
        [11, 11, 11, 21, 21, 22, 31, 32, 33, 34, 35, 36, 41],
        [41, 41, 41, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23],
        FILL,
        FILL,
    ],
    takes=[[11, 42, 46], ["m41414141", 43], [44], [45]],
    outs=[["111111a11", 41, 60], [0, 60], [60], [60]],
    result=["流局", [1500, -1500, 1500, -1500]],
    dora=[11, 25, 26],
)


def test_ankan_daiminkan_filler_and_kan_dora_times() -> None:
    log = parse_tenhou_json(doc(KANS), "kans.json")
    assert shape(log.events) == [
        "draw0 1m",
        "ankan0 from None",
        "dora 5p",  # ankan: turned at once, before the replacement draw
        "draw0 2z",
        "discard0 1z",
        "daiminkan1 from 0",
        "draw1 3z",
        "dora 6p",  # open kan: turned just before the kanner's discard
        "discard1 3z tsumogiri",
        "draw2 4z",
        "discard2 4z tsumogiri",
        "draw3 5z",
        "discard3 5z tsumogiri",
        "draw0 6z",
        "discard0 6z tsumogiri",
        "draw-end exhaustive",
    ]
    end = log.events[-2]
    assert isinstance(end, RoundDraw) and end.claims.tenpai == (0, 2)


# Seat 2 can pon seat 0's first 1z, or its second: between the two, seat 3 pons seat
# 1's 2z and seat 2 draws nothing. The first way runs into seat 3's pon where a draw
# is due, and the search backs out of it.
TWO_WAYS = kyoku(
    hands=[
        [41, 41, *FILL[:11]],
        [42, *FILL[:12]],
        [41, 41, *FILL[:11]],
        [42, 42, 21, *FILL[:10]],
    ],
    takes=[[31, 32], [33], ["41p4141"], ["42p4242", 34]],
    outs=[[41, 41], [42], [11], [21, 60]],
    result=["流局", [0, 0, 0, 0]],
)


def test_a_call_that_fits_two_discards_goes_where_the_lists_allow() -> None:
    log = parse_tenhou_json(doc(TWO_WAYS), "two-ways.json")
    assert shape(log.events) == [
        "draw0 1s",
        "discard0 1z",
        "draw1 3s",
        "discard1 2z",
        "pon3 from 1",
        "discard3 1p",
        "draw0 2s",
        "discard0 1z",
        "pon2 from 0",
        "discard2 1m",
        "draw3 4s",
        "discard3 4s tsumogiri",
        "draw-end exhaustive",
    ]
    # Positions name each entry of the lists, made when read.
    pon = [e for e in log.events if isinstance(e, DeclareMeld)][1]
    assert str(pon.pos) == 'two-ways.json (round 1 {E1-0 takes2[0] "41p4141"})'


def test_lists_that_fit_no_order_name_the_furthest_dead_end() -> None:
    """Lists that fit no order of play are the hand's problem: the hand keeps its deal
    and its recorded result, without play, and says why (the replay calls it broken)."""
    k = json.loads(json.dumps(TWO_WAYS))
    k[13] = [11, 11, 21, *FILL[:10]]  # seat 3 now holds no 2z to pon with
    log = parse_tenhou_json(doc(k), "stuck.json")
    start = log.events[1]
    assert isinstance(start, RoundStart)
    # Both ways end after four actions; the first one met is named.
    assert start.unreadable == (
        "the take and discard lists cannot be put in order: "
        "seat 3's take '42p4242' is a call where a draw is due"
    )
    assert shape(log.events[2:]) == ["draw-end exhaustive"]  # its result, no play


def _kakan(
    tail_takes: list[object],
    tail_outs: list[object],
    result: list[object],
    dora: tuple[int, ...] = (11, 33),
) -> bytes:
    return doc(
        kyoku(
            hands=[FILL, [41, *FILL[:12]], [41, 41, *FILL[:11]], FILL],
            takes=[[19, 23], [41, 24], ["p414141", *tail_takes], [22]],
            outs=[[60, 60], [41, 60], [22, "k41414141", *tail_outs], [60]],
            result=result,
            dora=list(dora),
        )
    )


_RON: list[object] = ["和了", [0, 0, -1000, 1000], [3, 2, 3, "30符1飜1000点", "槍槓(1飜)"]]


def test_kakan_robbed_by_chankan_turns_no_indicator() -> None:
    ron = _RON
    # A robbed kakan turns no indicator: the list holds the first only (§1.9).
    log = parse_tenhou_json(_kakan([41], [], ron, dora=(11,)), "chankan.json")
    assert shape(log.events)[-3:] == ["draw2 1z", "kakan2 from 1", "win3 from 2"]
    kakan = next(e for e in log.events if isinstance(e, DeclareMeld) and e.meld.added)
    assert kakan.meld.kind is MeldKind.KAKAN and kakan.meld.called == Tile("1z")


def test_kakan_then_replacement_draw_then_indicator() -> None:
    draw: list[object] = ["流局", [-1000, -1000, 3000, -1000]]
    log = parse_tenhou_json(_kakan([41, 42], [60], draw), "kakan.json")
    assert shape(log.events)[-5:] == [
        "kakan2 from 1",
        "draw2 2z",
        "dora 3s",
        "discard2 2z tsumogiri",
        "draw-end exhaustive",
    ]


def test_sanma_kita_and_replacement_draw() -> None:
    k = kyoku(
        hands=[FILL, FILL, FILL, []],
        takes=[[44, 19], [25], [26], []],
        outs=[["f44", 60], [60], [60], []],
        result=["全員不聴"],
    )
    log = parse_tenhou_json(doc(k, disp="三鳳南喰赤"), "sanma.json")
    assert log.start.rules_hint.players == 3
    assert shape(log.events)[:3] == ["draw0 4z", "kita0 from None", "draw0 9m"]
    end = log.events[-2]
    assert isinstance(end, RoundDraw) and end.claims.deltas == (0, 0, 0, 0)
    assert end.claims.tenpai == ()


def test_red_fives_follow_the_aka_flags() -> None:
    k = kyoku(
        [[51, *FILL[:12]], FILL, FILL, FILL], [[52], [], [], []], [[60], [], [], []], ["九種九牌"]
    )
    on = parse_tenhou_json(doc(k), "aka.json")
    start = next(e for e in on.events if isinstance(e, RoundStart))
    assert start.hands[0][0] == Tile("0m")
    off = json.loads(doc(k))
    off["rule"] = {"disp": "鳳南喰", "aka51": 0, "aka52": 0, "aka53": 0}
    log = parse_tenhou_json(json.dumps(off).encode(), "noaka.json")
    start = next(e for e in log.events if isinstance(e, RoundStart))
    assert start.hands[0][0] == Tile("5m") and log.start.rules_hint.aka is False
    assert shape(log.events)[-1] == "draw-end kyuushu"


def test_rules_hint_from_disp() -> None:
    hint = parse_tenhou_json(doc(CALLS, disp="般東喰赤"), "x.json").start.rules_hint
    assert (hint.source, hint.players, hint.hanchan, hint.kuitan, hint.aka) == (
        "tenhou-json",
        4,
        False,
        True,
        True,
    )
    assert hint.room == "ippan"


@pytest.mark.parametrize(
    ("extra", "lobby"),
    [({"lobby": 0, "ratingc": "PF4"}, "0"), ({"lobby": 10011}, "10011"), ({}, None)],
)
def test_the_server_converters_lobby_reaches_the_rules_hint(
    extra: dict[str, object], lobby: str | None
) -> None:
    text = json.dumps({**json.loads(doc(CALLS)), **extra}, ensure_ascii=False).encode()
    log = parse_tenhou_json(text, "g.json")
    assert dict(log.start.rules_hint.extras).get("lobby") == lobby
    assert dict(log.start.rules_hint.extras)["disp"] == "鳳南喰赤"


@pytest.mark.parametrize(
    ("text", "tsumo", "fu", "han", "limit", "points"),
    [
        pytest.param("30符4飜7700点", False, 30, 4, Limit.NONE, 7700, id="ron"),
        pytest.param("30符4飜3900点∀", True, 30, 4, Limit.NONE, 11700, id="dealer-tsumo"),
        pytest.param("満貫2000-4000点", True, None, None, Limit.MANGAN, 8000, id="mangan-tsumo"),
        pytest.param("役満32000点", False, None, None, Limit.YAKUMAN, 32000, id="yakuman-ron"),
        pytest.param("跳満6000点∀", True, None, None, Limit.HANEMAN, 18000, id="haneman-all"),
        # tensoul's SHOWFU ("always show fu/han ... even for limit hands"): the fu and
        # han before a limit word are passed over; the limit and points are read.
        pytest.param("40符5飜満貫8000点", False, None, None, Limit.MANGAN, 8000, id="fu-mangan"),
        pytest.param(
            "30符4飜切り上げ満貫2000-4000点", True, None, None, Limit.MANGAN, 8000, id="fu-kiriage"
        ),
        pytest.param(
            "30Fu13HanCounted Yakuman 16000点∀",
            True,
            None,
            None,
            Limit.YAKUMAN,
            48000,
            id="fu-kazoe-en",
        ),
    ],
)
def test_parse_score(
    text: str, tsumo: bool, fu: int | None, han: int | None, limit: Limit, points: int
) -> None:
    s = parse_score(text, tsumo, 4)
    assert (s.fu, s.han, s.limit, s.points) == (fu, han, limit, points)


def test_parse_yaku() -> None:
    assert parse_yaku("立直(1飜)") == (Yaku.RIICHI, 1)
    assert parse_yaku("大三元(役満)") == (Yaku.DAISANGEN, None)
    assert parse_yaku("場風 東(1飜)") == (Yaku.ROUND_WIND_EAST, 1)
    with pytest.raises(JsonFail, match="unknown yaku"):
        parse_yaku("Richii(1飜)")


def _broken(edit: str) -> bytes:
    k = json.loads(json.dumps(CALLS))
    if edit == "short":
        k = k[:16]
    elif edit == "tile":
        k[5][0] = 99
    elif edit == "yaku":
        k[16][2][4] = "Richii(1飜)"
    elif edit == "order":
        k[11][0] = "4141p41"  # a pon from seat 3, who never discarded a 1z
    elif edit == "tsumo":
        k[16][2][:4] = [1, 1, 1, "30符1飜300-500点"]
    return doc(k)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param("short", "list of 17 entries", id="short-kyoku"),
        pytest.param("tile", "takes0[0]: 99 is not a tile", id="bad-tile"),
        pytest.param("yaku", "unknown yaku name 'Richii'", id="unknown-yaku"),
    ],
)
def test_errors_name_the_file_the_round_and_the_problem(edit: str, message: str) -> None:
    with pytest.raises(LogFormatError) as err:
        parse_tenhou_json(_broken(edit), "bad.json")
    assert err.value.path == "bad.json" and err.value.position == "round 1"
    assert message in err.value.message


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(
            "order",
            "the take and discard lists cannot be put in order: seat 2's take '4141p41' "
            "is a call where a draw is due",
            id="unorderable",
        ),
        pytest.param(
            "tsumo", "seat 1 wins by tsumo, but the last action is seat 0's discard", id="tsumo"
        ),
    ],
)
def test_play_that_cannot_be_put_in_order_breaks_its_hand_not_the_file(
    edit: str, message: str
) -> None:
    """A kyoku whose lists fit no order of play (or end in another action than its
    result needs) is one ``inconsistent-log`` at that hand, as a play the replay cannot
    follow is in the other formats; the file is read."""
    from analyzer.checks.audit import audit_log, resolve_rules

    log = parse_tenhou_json(_broken(edit), "bad.json")
    audit = audit_log(log, resolve_rules(log, "auto"))
    broken = [f for f in audit.findings if f.code == "inconsistent-log"]
    assert [f.message for f in broken] == [
        f"E1-0: the log cannot be replayed at round 1 {{E1-0}}: {message}"
    ]


def test_json_syntax_error_names_line_and_column() -> None:
    with pytest.raises(LogFormatError, match=r"bad.json \(line 1, column \d+\): not valid JSON"):
        parse_tenhou_json(b'{"log": [', "bad.json")
    lines = doc(CALLS) + b"\n" + b"{oops\n"
    with pytest.raises(LogFormatError, match=r"line 2, column 2"):
        parse_tenhou_json(lines, "bad.jsonl")


def test_json_lines_form_one_game_and_load_sniffs_the_format() -> None:
    # The second line goes on with the next hand (E1-1): E1-0 again would be another
    # game (test_a_file_of_two_whole_games_is_refused_not_read_as_one).
    data = doc(CALLS) + b"\n" + doc([[0, 1, 0], *KANS[1:]]) + b"\n"
    log = load_bytes(data, "game.jsonl")
    assert log.format == "tenhou-json"
    starts = [e for e in log.events if isinstance(e, RoundStart)]
    assert len(starts) == 2 and starts[1].pos.unit == "line" and starts[1].pos.number == 2
    assert sum(isinstance(e, GameEnd) for e in log.events) == 1


# -- the real corpus ----------------------------------------------------------------------
def _corpus_files() -> list[Path]:
    if not JSON_DIR.is_dir():
        pytest.skip(f"corpus not available at {JSON_DIR}")
    return sorted(p for p in JSON_DIR.rglob("*") if p.suffix in (".json", ".jsonl"))


@pytest.mark.corpus
def test_every_corpus_file_parses_and_replays_consistently() -> None:
    files = _corpus_files()
    rounds = wins = 0
    problems = []
    for path in files:
        log = parse_tenhou_json(path.read_bytes(), str(path))
        rounds += sum(isinstance(e, RoundStart) for e in log.events)
        wins += sum(isinstance(e, Win) for e in log.events)
        game = replay(log, rules_for(log.start.rules_hint))
        problems += [
            f.message for r in game.rounds for f in r.findings if f.code == "inconsistent-log"
        ]
    assert (len(files), rounds, wins) == (58, 454, 378)
    assert problems == []


def _same_game(event: Event) -> tuple[object, ...] | None:
    match event:
        case RoundStart():
            hands = tuple(tuple(sorted(h)) for h in event.hands)
            return (
                "start",
                event.round_index,
                event.honba,
                event.riichi_sticks,
                event.scores,
                event.dora_indicator,
                hands,
            )
        case DrawTile():
            return ("draw", event.seat, event.tile)
        case Discard():
            return ("discard", event.seat, event.tile, event.tsumogiri)
        case DeclareMeld():
            m = event.meld
            return (
                "meld",
                event.seat,
                m.kind,
                tuple(sorted(m.tiles)),
                m.called,
                m.from_seat,
                m.added,
            )
        case DoraReveal():
            return ("dora", event.indicator)
        case RiichiDeclared() | RiichiAccepted():
            return (type(event).__name__, event.seat)
        case Win():
            c = event.claims
            return (
                "win",
                event.seat,
                event.from_seat,
                c.points,
                c.limit,
                c.yakuman,
                c.deltas,
                c.pao_seat,
                c.ura_indicators,
            )
        case RoundDraw():
            return ("draw-end", event.reason, event.claims.deltas)
        case Presence():
            return ("presence", event.seat, event.connected)
        case GameEnd():
            return ("end",)
        case GameStart():
            return None


def _twins() -> list[tuple[Path, Path]]:
    pairs = []
    for path in _corpus_files():
        xml = XML_DIR / (path.name.split(".")[0] + ".xml")
        if xml.exists():
            pairs.append((path, xml))
    return pairs


@pytest.mark.corpus
def test_json_twins_give_the_same_events_as_the_xml() -> None:
    pairs = _twins()
    assert len(pairs) == 37
    for path, xml in pairs:
        j = parse_tenhou_json(path.read_bytes(), str(path))
        x = parse_tenhou_xml(xml.read_bytes(), str(xml))
        with_presence = b'"connection"' in path.read_bytes()
        je = [k for e in j.events if (k := _same_game(e))]
        xe = [k for e in x.events if (k := _same_game(e))]
        if not with_presence:  # viewer exports do not record disconnections
            xe = [k for k in xe if k[0] != "presence"]
        for a, b in itertools.zip_longest(je, xe):
            assert a == b, f"{path.name}: {a} != {b}"
        for a_ev, b_ev in zip(
            [e for e in j.events if isinstance(e, Win)],
            [e for e in x.events if isinstance(e, Win)],
            strict=True,
        ):
            jc, xc = a_ev.claims, b_ev.claims
            assert sorted(jc.yaku or ()) == sorted(xc.yaku or ()), path.name
            assert jc.han == xc.han and jc.fu in (None, xc.fu), path.name
        end_j, end_x = j.events[-1], x.events[-1]
        assert isinstance(end_j, GameEnd) and isinstance(end_x, GameEnd)
        if end_j.claims.final_scores is not None:
            assert end_j.claims.final_scores == end_x.claims.final_scores
            assert end_j.claims.results == end_x.claims.results
        draws = [e for e in j.events if isinstance(e, RoundDraw)]
        assert all(
            d.reason is not DrawReason.EXHAUSTIVE or d.claims.tenpai is not None for d in draws
        )


def test_a_file_of_two_whole_games_is_refused_not_read_as_one() -> None:
    # Two games in one file (a list of two documents, or two JSON lines) were read as
    # one game of twice the hands, with a false score-chain error where the second
    # began. A file holds one game, as an mjai log does: the second is named.
    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "clean_game.xml"
    from parsers.convert import convert_log

    one = json.loads(convert_log(parse_tenhou_xml(sample.read_bytes(), "g.xml"), "tenhou-json"))
    as_list = json.dumps([one, one]).encode()
    with pytest.raises(LogFormatError, match=r"\(item 2\): a second game starts here"):
        parse_tenhou_json(as_list, "two.json")
    as_lines = (json.dumps(one) + "\n" + json.dumps(one) + "\n").encode()
    with pytest.raises(LogFormatError, match=r"\(line 2\): a second game starts here") as err:
        parse_tenhou_json(as_lines, "two.jsonl")
    assert str(err.value).endswith("(E1-0 again): one game per file")
    # One game cut into a line per kyoku (the log viewer's export) is still one game.
    kyoku_lines = "".join(json.dumps({**one, "log": [k]}) + "\n" for k in one["log"])
    game = parse_tenhou_json(kyoku_lines.encode(), "one.jsonl")
    assert sum(isinstance(e, RoundStart) for e in game.events) == len(one["log"])


# -- producers' variants -------------------------------------------------------------------
def _sanma_all_tenpai(result: list[object]) -> bytes:
    """E2-0 of a three-player server game, run to an exhaustive draw, with seat 0's
    kept tiles changed so that all three seats are tenpai (seat 0 waits on 6p)."""
    path = JSON_DIR / "full-game" / "2024010120gm-00b9-0000-ef5da89f.json"
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    game = json.loads(path.read_bytes())
    k = game["log"][2]
    assert k[0] == [1, 0, 0] and k[16] == ["流局", [-2000, 1000, 1000, 0]]
    k[4][0], k[4][3] = 11, 29  # 1p, 2s -> 1m, 9p: kept to the end
    k[4].sort()
    k[5][4] = 38  # a kept 1p draw -> 8s
    k[16] = result
    return doc(k, disp="三鳳南喰赤")


@pytest.mark.parametrize(
    "result",
    [
        pytest.param(["流局"], id="deltas-left-out"),
        pytest.param(["流局", [0, 0, 0, 0]], id="zero-deltas"),
        pytest.param(["全員聴牌"], id="all-tenpai"),
    ],
)
def test_a_sanma_draw_with_every_seat_tenpai_is_read_as_written(result: list[object]) -> None:
    """Tenhou's converters write 全員聴牌 only where all four seats show a hand, which
    the empty fourth seat never does (tenhou-format.md §2.3; mjlog2json's
    TenpaiEverybody), and leave out deltas that are all 0: a three-player draw with
    every seat tenpai is ``["流局"]`` (or 流局 with four zeros). Nobody tenpai is
    全員不聴. So 流局 without a payment in three-player play is all three tenpai."""
    from analyzer.checks.audit import audit_log, resolve_rules

    log = parse_tenhou_json(_sanma_all_tenpai(result), "sanma-draw.json")
    end = next(e for e in log.events if isinstance(e, RoundDraw))
    assert end.claims.tenpai == (0, 1, 2)
    audit = audit_log(log, resolve_rules(log, "auto"))
    assert [f.code for f in audit.findings] == []


def test_integral_numbers_written_with_a_point_are_read_as_integers() -> None:
    """JSON has one kind of number: ``16000.0`` is 16000 (RFC 8259 §6), as Tenhou's
    viewer reads it. A converter in Python writes a pao ron's half payment so
    (``0.5 * 32000``); the file is read, not refused. A fraction is still refused."""
    text = doc(CALLS).decode()
    plain = parse_tenhou_json(text.encode(), "plain.json")
    for old, new in [
        ("[-1000, 2000, 0, 0]", "[-1000.0, 2000.0, 0, 0]"),
        ("[25000, 25000, 25000, 25000]", "[25000.0, 25000, 25000, 25000]"),
        ("[0, 0, 0]", "[0.0, 0, 0.0]"),
    ]:
        assert old in text
        log = parse_tenhou_json(text.replace(old, new).encode(), "points.json")
        assert shape(log.events) == shape(plain.events)
        start = next(e for e in log.events if isinstance(e, RoundStart))
        win = next(e for e in log.events if isinstance(e, Win))
        assert start.scores == (25000,) * 4 and type(start.scores[0]) is int
        assert win.claims.deltas == (-1000, 2000, 0, 0) and type(win.claims.deltas[1]) is int
    with pytest.raises(LogFormatError, match="deltas must be 4 integers"):
        parse_tenhou_json(
            text.replace("[-1000, 2000, 0, 0]", "[-1000.5, 2000, 0, 0]").encode(), "x"
        )


@pytest.mark.corpus
def test_a_disconnection_before_the_first_hand_is_kept() -> None:
    """The server converter numbers a ``connection`` before the game's first INIT with
    ``log`` -1 (mjlog2json's Connection: "-1 if before first INIT"): the seat is away
    from the first hand on, as the mjlog's ``<BYE>`` before ``<INIT>`` says."""
    from parsers.convert import convert_log

    xml = XML_DIR / "2022060105gm-00a9-0000-e3f01b0e.xml"
    if not xml.exists():
        pytest.skip(f"corpus not available: {xml}")
    x = parse_tenhou_xml(xml.read_bytes(), str(xml))
    doc_ = json.loads(convert_log(x, "tenhou-json"))
    assert doc_["connection"][0] == {"what": 0, "log": 0, "who": 1, "step": 0}
    doc_["connection"][0]["log"] = -1
    j = parse_tenhou_json(json.dumps(doc_, ensure_ascii=False).encode(), "g.json")
    from analyzer.engine.replay import seats_away

    def keys(log: GameLog) -> list[tuple[object, ...]]:
        return [k for e in log.events if (k := _same_game(e))]

    presence = [("presence", 1, False), ("presence", 1, True)]
    for log in (x, j):
        assert [k for k in keys(log) if k[0] == "presence"] == presence
        first_draw = next(i for i, e in enumerate(log.events) if isinstance(e, DrawTile))
        assert seats_away(log.events)[first_draw] == {1}  # the server plays seat 1's turn
    # The XML has it before the first hand's start, the JSON just after: the same play.
    assert [k for k in keys(j) if k[0] != "presence"] == [k for k in keys(x) if k[0] != "presence"]


def test_the_server_converters_dan_names_read_as_the_mjlogs() -> None:
    """The server converter writes dan 20 as 天鳳 (tenhou-format.md §1.4; mjlog2json
    DAN_NAME) and the kyu with full-width digits: each is the mjlog's dan."""
    dans = ["天鳳", "天鳳位", "１級", "新人"]
    log = parse_tenhou_json(doc(CALLS, dan=dans, rate=[2300.5, 2200, 1600, 1500]), "d.json")
    assert [p.dan for p in log.start.players] == ["tenhoui", "tenhoui", "1kyu", "shinjin"]


def _corpus_kyoku(name: str, index: int) -> tuple[dict[str, Any], list[Any]]:
    """A kyoku of the corpus and the document it is in (one kyoku per line in .jsonl)."""
    path = JSON_DIR / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    text = path.read_text(encoding="utf-8-sig")
    docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    game = docs[index] if name.endswith(".jsonl") else docs[0]
    k = game["log"][0 if name.endswith(".jsonl") else index]
    return game, k


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "index"),
    [
        pytest.param("per-kyoku/Equim-chan-mjai-reviewer_double_ron.json", 0, id="no-kan"),
        # a rinshan win after a kakan: its indicator is never turned (§1.9)
        pytest.param("full-game/2019081518gm-00a9-0000-cce9d00c.json", 9, id="rinshan"),
        # a kakan robbed by chankan turns none (§1.9)
        pytest.param("per-kyoku/Equim-chan-mjai-reviewer_chankan.json", 0, id="chankan"),
    ],
)
def test_an_indicator_no_kan_turns_is_a_finding(name: str, index: int) -> None:
    """Entry 2 lists the first indicator and every kan dora turned in the hand (§2.2).
    One more than the hand's kans turn is a wrong list: one ``dora-timing`` at the
    result, which is judged with the indicators in force, as a missing one is one
    finding ("never turns it"). It was no finding at all."""
    from analyzer.checks.audit import audit_log, resolve_rules

    game, k = _corpus_kyoku(name, index)
    seen = [t for x in (k[2], *k[4:16]) for t in x if type(t) is int]
    extra = next(c for c in range(47, 10, -1) if c % 10 and 0 < seen.count(c) < 3)
    export = {"title": ["", ""], "name": game["name"], "rule": game["rule"]}
    plain = parse_tenhou_json(json.dumps({**export, "log": [k]}).encode(), "plain.json")
    base = [f.message for f in audit_log(plain, resolve_rules(plain, "auto")).findings]
    assert all("dora" not in m for m in base)
    k[2] = [*k[2], extra]
    log = parse_tenhou_json(json.dumps({**export, "log": [k]}).encode(), "extra-dora.json")
    found = [
        f for f in audit_log(log, resolve_rules(log, "auto")).findings if f.message not in base
    ]
    turned = str(tile_of(extra, (True, True, True)))
    assert [(f.code, f.actual) for f in found] == [("dora-timing", turned)]
    assert found[0].source is not None and "result" in found[0].source
