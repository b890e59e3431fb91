"""``mjaudit convert``: every corpus game round-trips, the output audits as the input.

parse -> write -> parse gives the same events (``tests.test_twins.comparable``:
source positions, tile ids and the claims the target cannot hold are left out),
and the output's error findings are the input's. A conversion the target cannot
hold fails with a message naming the event; the corpus cases are listed below
with their reason, and the test fails when one of them stops failing.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjaudit.errors import SourcePos
from mjaudit.events import (
    GameEnd,
    GameLog,
    GameStart,
    Limit,
    PlayerInfo,
    RoundStart,
    Win,
    WinClaims,
)
from mjaudit.yaku import Yaku
from parsers import load, load_bytes
from parsers.convert import ConvertError, convert_file, convert_log
from reports.cli import main
from tests.test_twins import CORPUS, XML_DIR, differences, error_findings

# Inputs a target cannot hold, with the words of the refusal.
CANNOT = {
    "tenhou-json": {
        "akochan_haifu_log_sample.jsonl": "records no deltas",
        "akochan_match_result_haifu_log_1000_0.jsonl": "records no deltas",
        "mjaigym_sample.jsonl": "records no yaku",  # convlog: deltas only
        "riichienv_126_204_0_mjai.jsonl": "records no yaku",  # libriichi: deltas only
        "riichienv_example_b124_m244_0.jsonl": "records no yaku",
        "mjai-manue-go_selfmatch_2026-06-18-160903.jsonl": "has no result",  # server error
        "mjai-manue-go_selfmatch_2026-06-19-030401.jsonl": "has no result",
        "mjaigymml_sample.jsonl": "numbers the seats from the first dealer",  # oya 3 in E1
        "mjaigymml_tcplog_20201108_200002.jsonl": "draws first",  # not the dealer
    },
}
# Round trips that differ for a reason outside the writers.
KNOWN = {
    # A chip-lobby game turns open-kan dora at once; the JSON has no dora times and
    # its parser turns them at the kanner's discard, as the ranked lobbies do.
    "dnovikoff-tenhou_chip.xml": {"tenhou-json"},
}

# Outputs whose audit differs from the input's because the target cannot say it.
AUDIT_DIFFERS = {
    # The server's error line that stopped these games is not a game event, so
    # the converted log ends without it (the source gives game-incomplete; an mjai
    # log without end_game gives it too, the Tenhou JSON cannot hold the cut hand).
    "mjai-manue-go_selfmatch_2026-06-18-160903.jsonl": {"tenhou-json"},
    "mjai-manue-go_selfmatch_2026-06-19-030401.jsonl": {"tenhou-json"},
    # Game prefixes (no end_game: game-incomplete). Tenhou JSON has no way to say a
    # game was cut: only the server converter's whole games (ratingc, lobby) must end
    # with sc, so the converted prefix reads as an excerpt of a game.
    "tenhou_upd-aft-kan4.jsonl": {"tenhou-json"},
    "tenhou_upd-aft-nm.jsonl": {"tenhou-json"},
    "tenhou_upd-aft-reach4.jsonl": {"tenhou-json"},
    "tenhou_upd-aft-ron3.jsonl": {"tenhou-json"},
    # mjai records no rules: a chip or ratio lobby's kiriage, honba value and kan
    # dora times, which --rules auto reads off the mjlog's lobby, become Tenhou's.
    "dnovikoff-tenhou_chip.xml": {"mjai"},
    # Tenhou JSON keeps the log id and the lobby (``ref``, ``lobby``) but no GO type:
    # the game-end check cannot tell a gold or ratio lobby's results from the ranked
    # lobbies' (undated, private and custom-rule lobbies now audit alike).
    "dnovikoff-tenhou_ratio.xml": {"tenhou-json"},
    "dnovikoff-tenhou_ratio1.xml": {"mjai", "tenhou-json"},
    "dnovikoff-tenhou_sanma.xml": {"tenhou-json"},
}


def _corpus() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    return sorted(
        p
        for sub in ("tenhou-xml", "tenhou-json", "mjai")
        for p in (CORPUS / sub).rglob("*")
        if p.suffix in (".xml", ".json", ".jsonl")
    )


def round_trip(log: GameLog, to: str) -> GameLog:
    return load_bytes(convert_log(log, to), f"{log.path}.{to}")


@pytest.mark.corpus
@pytest.mark.parametrize("to", ["mjai", "tenhou-json"])
def test_every_corpus_game_round_trips_and_audits_alike(to: str) -> None:
    problems, converted = [], 0
    cannot = CANNOT.get(to, {})
    for path in _corpus():
        log = load(str(path))
        try:
            back = round_trip(log, to)
        except ConvertError as exc:
            if path.name not in cannot or cannot[path.name] not in str(exc):
                problems.append(f"{path.name}: {exc}")
            continue
        if path.name in cannot:
            problems.append(f"{path.name}: converted, but is listed as impossible")
        converted += 1
        diff = differences(log, back)
        if bool(diff) != (to in KNOWN.get(path.name, set())):
            problems.append(f"{path.name}: {diff or 'no longer differs: drop it from KNOWN'}")
        differs = not diff and error_findings(back) != error_findings(log)
        if differs != (to in AUDIT_DIFFERS.get(path.name, set())):
            problems.append(f"{path.name}: audit {error_findings(back)} != {error_findings(log)}")
    assert problems == []
    assert converted == {"mjai": 432, "tenhou-json": 423}[to]


@pytest.mark.corpus
def test_mjlogs_round_trip_through_the_xml_writer() -> None:
    files = [p for p in _corpus() if p.suffix == ".xml"]
    for path in files:
        log = load(str(path))
        back = round_trip(log, "tenhou-xml")
        assert differences(log, back) == [], path.name


@pytest.mark.parametrize("to", ["mjai", "tenhou-json"])
def test_a_hand_whose_play_cannot_be_read_is_not_converted(to: str) -> None:
    """Written out, a Tenhou JSON hand whose lists fit no order of play would be a
    deal and a result with nothing between them: the conversion says so instead."""
    from tests.test_tenhou_json import _broken

    log = load_bytes(_broken("order"), "unordered.json")
    with pytest.raises(ConvertError) as err:
        convert_log(log, to)
    assert str(err.value) == (
        f"unordered.json: cannot write {to}: the play of E1-0 (round 1 {{E1-0}}) cannot be "
        "read: the take and discard lists cannot be put in order: seat 2's take '4141p41' "
        "is a call where a draw is due"
    )


def test_xml_needs_tile_ids() -> None:
    path = CORPUS / "mjai" / "libriichi-arena" / "riichienv_126_204_0_mjai.jsonl"
    if not path.exists():
        pytest.skip("corpus not available")
    with pytest.raises(ConvertError) as err:
        convert_log(load(str(path)), "tenhou-xml")
    # Said once, for what it is (it named the first hand's dora indicator id).
    assert str(err.value) == (
        f"{path}: cannot write tenhou-xml: an mjai log records no physical tile ids "
        "(0..135), by which mjlog XML names every tile: only a Tenhou XML log can be "
        "written as tenhou-xml (tenhou-json and mjai take any log)"
    )


# -- generated games: corpus games cut and relabelled --------------------------------
_SEEDS = [
    "tenhou-xml/2009082817gm-00ab-0000-997dbe26.xml",
    "tenhou-xml/gimite-mjai_test.xml",
    "tenhou-xml/dnovikoff-tenhou_sanma.xml",
    "tenhou-json/full-game/2019080322gm-00a9-0000-81e85e04.json",
    "tenhou-json/full-game/2024123123gm-00b9-0000-4a3a3639.json",
    "tenhou-json/per-kyoku/Equim-chan-mjai-reviewer_double_kakan_then_chankan.json",
    "mjai/gimite-server/mjai-manue-go_selfmatch_2025-09-12-153331.jsonl",
    "mjai/converted-from-tenhou/gimite-tenhouarchive-partial/tenhou_upd-aft-kan4.jsonl",
]
_LOGS: dict[str, GameLog] = {}


def _seed(name: str) -> GameLog:
    if name not in _LOGS:
        _LOGS[name] = load(str(CORPUS / name))
    return _LOGS[name]


@st.composite
def cut_games(draw: st.DrawFn) -> GameLog:
    """A run of whole hands from a corpus game, with new player names."""
    log = _seed(draw(st.sampled_from(_SEEDS)))
    starts = [k for k, e in enumerate(log.events) if isinstance(e, RoundStart)]
    first = draw(st.integers(0, len(starts) - 1))
    last = draw(st.integers(first, len(starts) - 1))
    # Hand ``first`` of the game up to the end of hand ``last`` (its result included).
    end = starts[last + 1] if last + 1 < len(starts) else len(log.events)
    body = [e for e in log.events[starts[first] : end] if not isinstance(e, GameEnd)]
    names = draw(st.lists(st.text(min_size=1, max_size=8), min_size=4, max_size=4))
    start = log.start
    players = tuple(PlayerInfo(n) for n in names)
    tail = (
        [log.events[-1]] if end == len(log.events) and isinstance(log.events[-1], GameEnd) else []
    )
    events = (replace(start, players=players), *body, *tail)
    return GameLog(log.path, log.format, events)


@pytest.mark.corpus
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not available at {CORPUS}")
@given(game=cut_games(), to=st.sampled_from(["mjai", "tenhou-json"]))
def test_generated_games_round_trip(game: GameLog, to: str) -> None:
    known = to in KNOWN.get(Path(game.path).name, set())
    try:
        back = round_trip(game, to)
    except ConvertError as exc:
        assert "has no result" in str(exc) and to == "tenhou-json"
        return
    if not known:
        assert differences(game, back) == []
        names = [p.name for p in game.start.players[: game.players]]
        assert [p.name for p in back.start.players[: game.players]] == names


# -- the command line -----------------------------------------------------------------
def test_cli_convert_equals_the_library_call(tmp_path: Path) -> None:
    src = CORPUS / "tenhou-xml" / "gimite-mjai_test.xml"
    if not src.exists():
        pytest.skip("corpus not available")
    out = tmp_path / "game.jsonl"
    assert main(["convert", str(src), "--to", "mjai", "-o", str(out)]) == 0
    assert out.read_bytes() == convert_log(load(str(src)), "mjai")
    again = tmp_path / "again.xml"
    convert_file(str(out), "tenhou-json", str(tmp_path / "game.json"))
    assert main(["convert", str(out), "--to", "tenhou-xml", "-o", str(again)]) == 2
    assert not again.exists()


def test_start_names_survive_odd_text() -> None:
    log = _seed(_SEEDS[1]) if CORPUS.is_dir() else None
    if log is None:
        pytest.skip("corpus not available")
    odd = ('a"b', "名前", "", "x\ny")
    game = replace(
        log, events=(replace(log.start, players=tuple(map(PlayerInfo, odd))), *log.events[1:])
    )
    assert isinstance(game.events[0], GameStart)
    for to in ("mjai", "tenhou-json"):
        back = round_trip(game, to)
        assert tuple(p.name for p in back.start.players) == odd


@pytest.mark.parametrize(
    ("yakuman", "points", "text"),
    [
        ((Yaku.SUUANKOU_TANKI,), 64000, "役満64000点"),
        ((Yaku.SUUANKOU_TANKI, Yaku.SUUKANTSU), 96000, "役満96000点"),
        ((Yaku.DAISANGEN,), 32000, "役満32000点"),
        ((Yaku.DAISANGEN, Yaku.TSUUIISOU), None, "役満64000点"),
    ],
)
def test_a_yakuman_score_string_counts_what_the_win_is_worth(
    yakuman: tuple[Yaku, ...], points: int | None, text: str
) -> None:
    """A double pattern where the rules score it double (Mahjong Soul: suuankou
    tanki) is two yakuman on Tenhou's table: the Tenhou JSON writer refused a record
    with one (it counted the yakuman listed, not what they are worth)."""
    from parsers.tenhou_json_writer import _score_text

    claims = WinClaims(limit=Limit.YAKUMAN, yakuman=yakuman, points=points)
    win = Win(SourcePos("x", 1, "", "hule"), 1, 0, claims)
    assert _score_text(win, 0, 4) == text


@pytest.mark.corpus
def test_a_limit_hand_without_fu_goes_back_to_tenhou_json_through_mjai() -> None:
    """Tenhou JSON writes no fu for a limit hand and mjai no limit band: a 4-han
    mangan read from the JSON and written as mjai (its ``fan`` and ``hora_points``)
    was refused on the way back to Tenhou JSON ("records no fu or han"), though its
    points say it is a mangan."""
    path = CORPUS / "tenhou-json" / "full-game" / "2019021004gm-00a9-0000-e2f6516d.json"
    if not path.exists():
        pytest.skip("corpus not available")
    log = load(str(path))
    wins = [e for e in log.events if isinstance(e, Win)]
    assert any(w.claims.fu is None and (w.claims.han or 0) < 5 for w in wins)
    via = round_trip(log, "mjai")
    back = round_trip(via, "tenhou-json")
    assert differences(log, back) == []
    assert error_findings(back) == error_findings(log)


@pytest.mark.corpus
def test_dragon_yaku_keep_their_place_through_mjai() -> None:
    """mjai names every dragon triplet ``sangenpai``; reading it back put the dragons
    after every other yaku, so a Tenhou JSON win ``hatsu 1, dora 2`` came back from
    mjai as ``dora 2, hatsu 1`` (``replay`` and the report list them so)."""
    path = CORPUS / "tenhou-json" / "full-game" / "2019080322gm-00a9-0000-81e85e04.json"
    if not path.exists():
        pytest.skip("corpus not available")
    log = load(str(path))
    back = round_trip(round_trip(log, "mjai"), "tenhou-json")
    before = [e.claims.yaku for e in log.events if isinstance(e, Win)]
    after = [e.claims.yaku for e in back.events if isinstance(e, Win)]
    assert any(y and any(k in (Yaku.HAKU, Yaku.HATSU, Yaku.CHUN) for k, _ in y) for y in before)
    assert after == before


@pytest.mark.corpus
def test_a_double_form_yakuman_keeps_its_form_from_tenhou_json_through_mjai() -> None:
    """mjai has one name for suuankou and suuankou tanki; the hand says which. A
    Tenhou JSON win records no hand, so the mjai written from it said ``suanko`` with
    nothing to tell the forms apart, and the game came back to Tenhou JSON as a
    single-form suuankou (四暗刻 for 四暗刻単騎)."""
    path = XML_DIR / "2010112211gm-00a9-0000-56a320b2.xml"
    if not path.exists():
        pytest.skip("corpus not available")
    log = round_trip(load(str(path)), "tenhou-json")
    via = round_trip(log, "mjai")
    back = round_trip(via, "tenhou-json")

    def yakuman(game: GameLog) -> list[tuple[Yaku, ...]]:
        return [e.claims.yakuman for e in game.events if isinstance(e, Win) and e.claims.yakuman]

    assert (Yaku.SUUANKOU_TANKI,) in yakuman(log)
    assert yakuman(via) == yakuman(log)
    assert yakuman(back) == yakuman(log)
    assert differences(log, back) == []


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name",
    [
        "mjai/gimite-server/mjai-manue-go_selfmatch_2025-09-12-153331.jsonl",
        "tenhou-xml/2010112211gm-00a9-0000-56a320b2.xml",  # through mjai, which drops the uma
    ],
)
def test_final_scores_without_results_survive_tenhou_json(name: str) -> None:
    """Tenhou JSON's ``sc`` pairs each final score with its result points; mjai has
    the final scores alone (``end_game``). Written as Tenhou JSON they were dropped
    without a word: the converted game had no final scores to check."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip("corpus not available")
    log = load(str(path))
    if log.format != "mjai":
        log = round_trip(log, "mjai")
    back = round_trip(log, "tenhou-json")

    def end(game: GameLog) -> GameEnd:
        last = game.events[-1]
        assert isinstance(last, GameEnd)
        return last

    assert end(log).claims.final_scores is not None and end(log).claims.results is None
    assert end(back).claims.final_scores == end(log).claims.final_scores
    assert end(back).claims.results is None
    assert error_findings(back) == error_findings(log)
    again = round_trip(back, "mjai")
    assert end(again).claims.final_scores == end(log).claims.final_scores


def test_a_ron_on_a_kita_names_the_north_as_the_winning_tile_in_mjai() -> None:
    """A win robbing a kita, written as mjai from a log without the winning hand
    (Tenhou JSON): the writer rebuilds the hand for a ``sangenpai`` from the last
    tile played, and a kita was not one, so the ``hora`` named the tile drawn before
    it (9m) as the winning tile and put it in the winner's hand."""
    from mjaudit.events import DeclareMeld, DrawTile, RulesHint
    from mjaudit.melds import Meld, MeldKind
    from mjaudit.tiles import tiles

    pos = SourcePos("k.json", 1, "x", "round")
    start = GameStart(
        pos, "k", tuple(PlayerInfo(n) for n in "ABC"), RulesHint("tenhou-json", players=3)
    )
    hands = (tiles("1199m19p19s12345z"), tiles("234p678p555z22s44z"), tiles("1199p1199s13z567z"))
    events = (
        start,
        RoundStart(pos, 0, 0, 0, 0, (35000,) * 3, tiles("1p")[0], hands),
        DrawTile(pos, 0, tiles("9m")[0]),
        DeclareMeld(pos, 0, Meld(MeldKind.KITA, tiles("4z"))),
        Win(
            pos,
            1,
            0,
            WinClaims(han=1, fu=40, points=1300, yaku=((Yaku.HAKU, 1),), deltas=(-1300, 1300, 0)),
        ),
    )
    log = GameLog("k.json", "tenhou-json", events)
    back = round_trip(log, "mjai")
    win = next(e for e in back.events if isinstance(e, Win))
    assert win.claims.win_tile == tiles("4z")[0]
    assert win.claims.yaku == ((Yaku.HAKU, 1),)
