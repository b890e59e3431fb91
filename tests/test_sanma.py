"""Three-player (sanma) corners: a chi and a kita between three seats, the all-riichi
draw, the empty fourth seat's scores, and what a single hand or a case may hold with
three players and with four."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from analyzer.checks.audit import audit_log
from analyzer.checks.case_scoring import CaseError, score_case
from mjaudit.events import DrawReason, RoundDraw
from mjaudit.rules import override, preset
from parsers import load_bytes
from reports.cli import main
from tests.conftest import tamper

# Seat 0 holds 4p 5p for a chi of 3p; the others hold nothing it needs.
_HANDS = [
    ["4p", "5p", "1s", "1s", "2s", "9s", "E", "E", "S", "W", "P", "P", "F"],
    ["1p", "1p", "2p", "6p", "7p", "3s", "4s", "7s", "8s", "S", "W", "C", "C"],
    ["3p", "9p", "9p", "5s", "6s", "6s", "7s", "8s", "N", "S", "W", "F", "1m"],
]


def _sanma(*events: dict[str, object], hands: list[list[str]] = _HANDS) -> bytes:
    """A three-player mjai log of East 1 dealt ``hands``, then ``events``."""
    kyoku = {
        "type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
        "oya": 0, "dora_marker": "9m", "scores": [35000, 35000, 35000], "tehais": hands,
    }  # fmt: skip
    lines = [{"type": "start_game", "names": ["a", "b", "c"]}, kyoku, *events]
    return "\n".join(json.dumps(e) for e in lines).encode()


def _illegal_calls(data: bytes, chi_allowed: bool) -> list[str]:
    log = load_bytes(data, "sanma.jsonl")
    rules = override(preset("tenhou-sanma"), {"chi_allowed": chi_allowed}, "test")
    result = audit_log(log, rules)
    return [f.message for f in result.findings if f.code == "illegal-call"]


def _draw_discard(seat: int, tile: str) -> list[dict[str, object]]:
    return [
        {"type": "tsumo", "actor": seat, "pai": tile},
        {"type": "dahai", "actor": seat, "pai": tile, "tsumogiri": True},
    ]


def test_a_chi_off_the_seat_before_is_legal_where_three_players_may_chi() -> None:
    """Three players play 0, 1, 2, 0: seat 0 draws after seat 2, so seat 2's discard is
    the one a chi of seat 0 takes (a three-player ruleset with chi, e.g. a rules file
    on tenhou-sanma). It was judged as if seat 3 sat before seat 0."""
    data = _sanma(
        *_draw_discard(0, "1m"),
        *_draw_discard(1, "9m"),
        {"type": "tsumo", "actor": 2, "pai": "C"},
        {"type": "dahai", "actor": 2, "pai": "3p", "tsumogiri": False},
        {"type": "chi", "actor": 0, "target": 2, "pai": "3p", "consumed": ["4p", "5p"]},
        {"type": "dahai", "actor": 0, "pai": "F", "tsumogiri": False},
    )
    assert _illegal_calls(data, chi_allowed=True) == []
    # Where the rules have no chi (every three-player preset), it is one finding.
    assert _illegal_calls(data, chi_allowed=False) == [
        "E1-0: seat 0 calls chi, which these rules do not allow"
    ]


def test_a_chi_off_the_seat_after_is_illegal_with_three_players() -> None:
    data = _sanma(
        *_draw_discard(0, "1m"),
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "6p", "tsumogiri": False},
        {"type": "chi", "actor": 0, "target": 1, "pai": "6p", "consumed": ["4p", "5p"]},
        {"type": "dahai", "actor": 0, "pai": "F", "tsumogiri": False},
    )
    assert _illegal_calls(data, chi_allowed=True) == [
        "E1-0: seat 0 calls chi on seat 1's discard; chi is only allowed from the player "
        "on the left"
    ]


_CHI_HAND = ["234p567p22678s", "--meld", "chi:345s", "--win", "8s", "--ron"]


@pytest.mark.parametrize("rules", ["tenhou-sanma", "mahjongsoul-sanma", "worldatplay-sanma"])
def test_score_refuses_a_chi_the_rules_do_not_have(
    rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """No three-player preset has chi (docs/rules.md `chi_allowed`): such a hand was
    scored (tanyao, 1000) as if the table could have made it."""
    assert main(["score", *_CHI_HAND, "--rules", rules]) == 2
    assert capsys.readouterr().err.strip() == (
        f"mjaudit: --meld chi: the rules {rules} have no chi"
    )


def test_score_takes_a_chi_where_the_rules_have_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    club = tmp_path / "club.toml"
    club.write_text('base = "tenhou-sanma"\nchi_allowed = true\n', encoding="utf-8")
    assert main(["score", *_CHI_HAND, "--rules", str(club), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 1000
    assert main(["score", *_CHI_HAND, "--format", "json"]) == 0  # four players


def _kita_case(players: int) -> dict[str, Any]:
    return {
        "id": "kita",
        "rules": {"players": players},
        "hand": {
            "concealed": "11m234p567p234678s",
            "win_tile": "8s",
            "melds": [{"kind": "kita", "tiles": "4z"}],
        },
        "situation": {
            "seat": 1, "from_seat": 2, "dealer": 0, "tsumo": False,
            "seat_wind": "S", "round_wind": "E", "riichi": False, "double_riichi": False,
            "ippatsu": False, "rinshan": False, "chankan": False, "haitei": False,
            "houtei": False, "tenhou": False, "chiihou": False, "renhou": False,
            "dora_indicators": ["3z"], "ura_indicators": [], "kita": 1, "honba": 0,
            "riichi_sticks": 0,
        },
    }  # fmt: skip


def _kita_of(case: dict[str, Any]) -> object:
    result: Any = score_case(case)["result"]
    return result["kita"]


def test_a_four_player_case_with_kita_is_a_bad_case() -> None:
    """A North is set aside with three players only (`score --meld kita` refuses it
    with four): a four-player case with a kita was scored with its han (and the
    North made dora by a West indicator), here 3 han where the hand has 1."""
    assert _kita_of(_kita_case(3)) == 1
    case = _kita_case(4)
    with pytest.raises(CaseError, match="kita: a North is set aside in three-player games only"):
        score_case(case)
    # The count alone, with no kita meld, is refused the same way.
    case["hand"]["melds"] = []
    with pytest.raises(CaseError, match="kita: a North is set aside in three-player games only"):
        score_case(case)
    case["situation"]["kita"] = 0
    assert _kita_of(case) == 0


def test_an_unnamed_draw_after_every_seat_declared_riichi_is_the_all_riichi_draw() -> None:
    """libriichi and convlog leave a draw unnamed, and the reader infers it (docs/
    formats.md, "inferred"): with three players all three riichi are the all-riichi
    draw the replay makes due (tenhou-sanma), not an exhaustive draw with 52 tiles left
    (two draw-mismatch errors on a correct log)."""
    hands = [
        ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "1s", "2s", "3s"],
        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "E", "S", "S"],
        ["5s", "6s", "7s", "8s", "8s", "8s", "W", "W", "W", "N", "N", "C", "C"],
    ]
    events: list[dict[str, object]] = []
    for seat, tile in ((0, "1m"), (1, "9m"), (2, "1m")):
        events += [
            {"type": "tsumo", "actor": seat, "pai": tile},
            {"type": "reach", "actor": seat},
            {"type": "dahai", "actor": seat, "pai": tile, "tsumogiri": True},
            {"type": "reach_accepted", "actor": seat},
        ]
    events.append({"type": "ryukyoku", "deltas": [0, 0, 0]})
    log = load_bytes(_sanma(*events, hands=hands), "r3.jsonl")
    draw = next(e for e in log.events if isinstance(e, RoundDraw))
    assert draw.reason is DrawReason.SUUCHA_RIICHI
    result = audit_log(log, preset("tenhou-sanma"))
    assert [f.message for f in result.findings if f.code == "draw-mismatch"] == []


def _riichi_then(*turn: dict[str, object]) -> list[str]:
    """Seat 0 declares riichi (123p 456p 789p 23s NN, waiting on 1s 4s), then plays
    ``turn`` on its next draw; the illegal-call findings of the hand."""
    hands = [
        ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "2s", "3s", "N", "N"],
        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "E", "S", "S"],
        ["5s", "6s", "7s", "8s", "8s", "8s", "W", "W", "W", "P", "P", "C", "C"],
    ]
    events: list[dict[str, object]] = [
        {"type": "tsumo", "actor": 0, "pai": "1m"},
        {"type": "reach", "actor": 0},
        {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 0},
        *_draw_discard(1, "9m"),
        *_draw_discard(2, "1m"),
        *turn,
        *_draw_discard(1, "9m"),
    ]  # fmt: skip
    log = load_bytes(_sanma(*events, hands=hands), "rk.jsonl")
    result = audit_log(log, preset("tenhou-sanma"))
    return [f.message for f in result.findings if f.code in ("illegal-call", "illegal-riichi")]


def test_a_seat_in_riichi_sets_aside_only_the_north_it_drew() -> None:
    """A riichi hand may not change (rules-matrix §F; okuri-kan is forbidden): a North
    taken from the hand while the tile drawn stays swaps a tile of the locked hand
    (here the NN pair goes: the hand is no longer tenpai). Seed 004 says it outright:
    "after riichi only a freshly drawn North can go". It went without a finding."""
    assert _riichi_then(
        {"type": "tsumo", "actor": 0, "pai": "9p"},
        {"type": "kita", "actor": 0, "pai": "N"},
        *_draw_discard(0, "9s"),
    ) == [
        "E1-0: seat 0 is in riichi and sets aside a North from its hand, not the 9p it "
        "drew: a riichi hand may not change"
    ]
    # The North it drew may go, and so may the North its replacement draw brings.
    assert (
        _riichi_then(
            {"type": "tsumo", "actor": 0, "pai": "N"},
            {"type": "kita", "actor": 0, "pai": "N"},
            {"type": "tsumo", "actor": 0, "pai": "N"},
            {"type": "kita", "actor": 0, "pai": "N"},
            *_draw_discard(0, "9s"),
        )
        == []
    )


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--tsumo", "--seat-wind", "E", "--tenhou"],
         "--tenhou is a win on the first draw: the winner has no melds"),
        (["--tsumo", "--chiihou"], "--chiihou is a win on the first draw: the winner has no melds"),
        (["--ron", "--renhou"], "--renhou is a win on the first draw: the winner has no melds"),
    ],
)  # fmt: skip
def test_score_refuses_a_first_draw_win_after_a_kita(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A North set aside before the win breaks the first go-around (rules-matrix §D:
    "a kita also breaks it"; the replay gives no tenhou or chiihou after one): the
    winner's own kita, shown by `--meld kita`, came before its win, which was then no
    first draw. It was scored as a yakuman (tenhou 32000, chiihou 24000)."""
    hand = ["11m234p567p234678s", "--win", "8s", "--players", "3", "--meld", "kita:4z"]
    assert main(["score", *hand, *flags]) == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"


def test_score_refuses_ippatsu_on_a_kitas_replacement_tile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A kita breaks ippatsu (rules-matrix §D, Tenhou 3p; seed 004), the winner's own
    too, as a concealed kan does: a win on the tile drawn for it has no ippatsu, and the
    replay never gives one. It was scored (a haneman with ippatsu)."""
    hand = ["11m234p567p234678s", "--win", "8s", "--tsumo", "--players", "3", "--riichi"]
    kita = [*hand, "--rinshan", "--meld", "kita:4z"]
    assert main(["score", *kita, "--ippatsu"]) == 2
    assert capsys.readouterr().err.strip() == (
        "mjaudit: --ippatsu with --rinshan: the winner's kan or kita before the "
        "replacement tile ended its ippatsu"
    )
    assert main(["score", *kita]) == 0
    assert main(["score", *hand, "--meld", "kita:4z", "--ippatsu"]) == 0  # kita before riichi


def test_score_refuses_haitei_on_a_replacement_tile(capsys: pytest.CaptureFixture[str]) -> None:
    """A win on the tile drawn for a kita (or a kan) is rinshan, never haitei (rules-
    matrix §D, "= T4" for Tenhou 3p): the scorer drops the flag, so the hand was scored
    without the haitei asked for, and no word said so."""
    hand = ["11m234p567p234678s", "--win", "8s", "--tsumo", "--players", "3"]
    kita = [*hand, "--rinshan", "--meld", "kita:4z"]
    assert main(["score", *kita, "--haitei"]) == 2
    assert capsys.readouterr().err.strip() == (
        "mjaudit: --haitei with --rinshan: a win on a replacement tile is never haitei"
    )
    assert main(["score", *hand, "--meld", "kita:4z", "--haitei"]) == 0


_SANMA_XML = "2014091101gm-00b9-0000-5ca6b487.xml"
Els = list[etree._Element]


def _set_fourth(key: str, tag: str, n: int, value: int, at: int = 3) -> Callable[[Els], None]:
    """An edit: the ``n``-th ``tag`` element with a ``key`` list gets ``value`` at ``at`` (the
    empty fourth seat: ``ten`` index 3; ``sc`` index 6, its score before settlement)."""

    def edit(children: Els) -> None:
        el = [e for e in children if e.tag == tag and e.get(key)][n]
        values = el.get(key, "").split(",")
        values[at] = str(value)
        el.set(key, ",".join(values))

    return edit


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("edit", "said"),
    [
        pytest.param(
            _set_fourth("ten", "INIT", 1, 10),
            "E1-1: the hand's start shows the empty fourth seat of a three-player game "
            "with 1000 points, not 0",
            id="init-ten",
        ),
        pytest.param(
            _set_fourth("ten", "REACH", 0, 10),
            "E1-0: seat 0's riichi stick shows the empty fourth seat of a three-player "
            "game with 1000 points, not 0",
            id="reach-ten",
        ),
        pytest.param(
            _set_fourth("sc", "AGARI", 1, 10, at=6),
            "E1-2: the result before settlement shows the empty fourth seat of a "
            "three-player game with 1000 points, not 0",
            id="agari-sc",
        ),
    ],
)
def test_a_score_of_the_empty_fourth_seat_is_one_finding(
    edit: Callable[[Els], None], said: str
) -> None:
    """A three-player mjlog states 0 for the fourth seat wherever it lists four scores
    (tenhou-format.md §1.5 `ten="350,350,350,0"`, §1.10 "sanma: 4th pair 0,0"); its
    deltas and its owari pair were judged, its scores were not: any number passed."""
    result = tamper(_SANMA_XML, edit)
    assert [(f.code, f.message) for f in result.findings if f.severity.value == "error"] == [
        ("score-chain-mismatch", said)
    ]
