"""Plays no log can hold: a call of the wrong tiles or off one's own discard, and
anything played after the hand ended. Each is one ``inconsistent-log`` at the event,
naming what is wrong (the replay cannot go on from it)."""

from __future__ import annotations

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.checks.case_scoring import CaseError, read_case
from mjaudit.findings import JsonValue
from parsers import load_bytes
from tests.test_mjai import HAND
from tests.test_mjai import mjai as _mjai

# Seat 0 holds 123m 456p 789s EE PP, seat 1 123456789s NN CC, seat 2 1123456789p SS F,
# seat 3 1123456789m WW F.
_DEAL = [
    HAND,
    ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "N", "N", "C", "C"],
    ["1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "S", "S", "F"],
    ["1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "W", "W", "F"],
]


def mjai(*events: dict[str, object]) -> bytes:
    return _mjai(*events, start={"tehais": _DEAL})


def _errors(data: bytes) -> list[tuple[str, str]]:
    log = load_bytes(data, "play.jsonl")
    result = audit_log(log, resolve_rules(log, "auto"))
    assert result.error is None
    return [(f.code, f.message) for f in result.findings if f.severity.value == "error"]


def _replay_error(data: bytes) -> str:
    broken = [m for code, m in _errors(data) if code == "inconsistent-log"]
    assert len(broken) == 1, broken
    return broken[0]


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        pytest.param(
            {"type": "pon", "actor": 1, "target": 0, "pai": "C", "consumed": ["N", "N"]},
            "seat 1 declares pon:447z: all tiles of a pon are the same",
            id="pon-of-other-tiles",
        ),
        pytest.param(
            {"type": "chi", "actor": 1, "target": 0, "pai": "C", "consumed": ["N", "N"]},
            "seat 1 declares chi:447z: a chi is a run of three in one suit",
            id="chi-of-honours",
        ),
        pytest.param(
            {"type": "daiminkan", "actor": 1, "target": 0, "pai": "C", "consumed": ["N"] * 3},
            "seat 1 declares daiminkan:4447z: all tiles of a daiminkan are the same",
            id="kan-of-other-tiles",
        ),
    ],
)
def test_a_call_of_tiles_that_make_no_meld_is_refused(
    call: dict[str, object], problem: str
) -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        call,
    )
    assert _replay_error(data).endswith(problem)


def test_a_chi_that_is_no_run_is_refused() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "3s"},
        {"type": "dahai", "actor": 0, "pai": "3s", "tsumogiri": True},
        {"type": "chi", "actor": 1, "target": 0, "pai": "3s", "consumed": ["1s", "5s"]},
    )
    assert _replay_error(data).endswith(
        "seat 1 declares chi:135s: a chi is a run of three in one suit"
    )


def test_a_call_off_ones_own_discard_is_refused() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True},
        {"type": "pon", "actor": 0, "target": 0, "pai": "E", "consumed": ["E", "E"]},
    )
    assert _replay_error(data).endswith("seat 0 calls pon:111z off its own discard")


def test_a_draw_after_a_ron_is_refused() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "hora", "actor": 1, "target": 0, "pai": "C"},
        {"type": "tsumo", "actor": 1, "pai": "1p"},
    )
    assert _replay_error(data).endswith(
        "seat 1 draws after the hand ended (seat 1's ron off seat 0 at line 5 {hora})"
    )


def test_a_second_tsumo_after_a_tsumo_is_refused() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "hora", "actor": 0, "target": 0, "pai": "E"},
        {"type": "hora", "actor": 0, "target": 0, "pai": "E"},
    )
    assert _replay_error(data).endswith(
        "seat 0 wins after the hand ended (seat 0's tsumo at line 4 {hora})"
    )


def test_a_discard_after_a_draw_is_refused() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "ryukyoku", "reason": "kyushukyuhai"},
        {"type": "dahai", "actor": 1, "pai": "C"},
    )
    errors = [m for code, m in _errors(data) if code == "inconsistent-log"]
    assert any("seat 1 discards 7z after the hand ended (the " in m for m in errors), errors


def test_a_double_ron_is_not_play_after_the_end() -> None:
    """Two rons of one discard: the second win is no play after the end."""
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "hora", "actor": 1, "target": 0, "pai": "C"},
        {"type": "hora", "actor": 2, "target": 0, "pai": "C"},
    )
    assert [c for c, _ in _errors(data) if c == "inconsistent-log"] == []


_CASE: JsonValue = {
    "schema": "mjaudit.cases/1",
    "id": "x",
    "rules": {"players": 4},
    "hand": {
        "concealed": "234m567p22345s",
        "win_tile": "5s",
        "melds": [{"kind": "pon", "tiles": "224p", "called": "4p", "from_seat": 2}],
    },
    "situation": {
        "seat": 0, "from_seat": 2, "dealer": 0, "honba": 0, "riichi_sticks": 0,
        "tsumo": False, "riichi": False, "double_riichi": False, "ippatsu": False,
        "rinshan": False, "chankan": False, "haitei": False, "houtei": False,
        "tenhou": False, "chiihou": False, "renhou": False,
        "seat_wind": "E", "round_wind": "E", "dora_indicators": ["1z"],
    },
}  # fmt: skip


def test_a_case_meld_of_tiles_that_make_no_meld_is_a_bad_case() -> None:
    with pytest.raises(CaseError, match=r"hand\.melds\[0\]\.tiles: all tiles of a pon are"):
        read_case(_CASE)


# -- a riichi hand does not change (rules-matrix §F) ----------------------------------


def _riichi_game(seat1: list[str], *after: dict[str, object]) -> bytes:
    """Seat 1, dealt ``seat1``, declares riichi on its first draw (tsumogiri 9p);
    the others draw and discard 9p/8p/1z around it; then ``after``."""
    deal = [
        ["2m", "3m", "4m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "P", "P"],
        seat1,
        ["1p", "1p", "2p", "3p", "7p", "8p", "S", "S", "F", "F", "N", "N", "C"],
        ["5m", "6m", "7m", "8m", "9m", "9m", "W", "W", "C", "C", "2s", "2s", "9s"],
    ]
    start = [
        {"type": "tsumo", "actor": 0, "pai": "7p"},
        {"type": "dahai", "actor": 0, "pai": "7p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "9p"},
        {"type": "reach", "actor": 1},
        {"type": "dahai", "actor": 1, "pai": "9p", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 1},
        {"type": "tsumo", "actor": 2, "pai": "9p"},
        {"type": "dahai", "actor": 2, "pai": "9p", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "8p"},
        {"type": "dahai", "actor": 3, "pai": "8p", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True},
    ]
    return _mjai(*start, *after, start={"tehais": deal})


_WAITS_23M = ["1m", "1m", "1m", "2m", "4p", "5p", "6p", "6s", "7s", "8s", "3s", "4s", "5s"]


def _errors_of(data: bytes, code: str) -> list[str]:
    return [m for c, m in _errors(data) if c == code]


def test_a_seat_in_riichi_discards_the_tile_it_drew() -> None:
    data = _riichi_game(
        _WAITS_23M,
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "5s", "tsumogiri": False},
    )
    assert _errors_of(data, "illegal-riichi") == [
        "E1-0: seat 1 is in riichi and discards 5s from its hand, not the 9m it drew: "
        "a riichi hand may not change"
    ]


def test_a_seat_in_riichi_discarding_a_tile_it_does_not_hold_is_one_finding() -> None:
    """The log contradicts itself once (a tile not held): the replay says so, and the
    riichi check adds nothing of its own."""
    data = _riichi_game(
        _WAITS_23M,
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "7p", "tsumogiri": False},
    )
    assert [c for c, _ in _errors(data) if c != "game-incomplete"] == ["inconsistent-log"]


def test_a_seat_in_riichi_calls_nothing() -> None:
    data = _riichi_game(
        _WAITS_23M,
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "9m", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "5p"},
        {"type": "dahai", "actor": 2, "pai": "5p", "tsumogiri": True},
        {"type": "chi", "actor": 3, "target": 2, "pai": "5p", "consumed": ["4p", "6p"]},
    )
    assert _errors_of(data, "illegal-call") == []  # seat 3 is not in riichi
    data = _riichi_game(
        _WAITS_23M,
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "9m", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "6s"},
        {"type": "dahai", "actor": 2, "pai": "6s", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "6p"},
        {"type": "dahai", "actor": 3, "pai": "6p", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "1p"},
        {"type": "dahai", "actor": 0, "pai": "4p", "tsumogiri": False},
        {"type": "chi", "actor": 1, "target": 0, "pai": "4p", "consumed": ["5p", "6p"]},
    )
    assert _errors_of(data, "illegal-call") == [
        "E1-0: seat 1 is in riichi and calls chi:456p: a riichi hand may not change"
    ]


def test_a_concealed_kan_in_riichi_that_changes_the_waits_is_illegal() -> None:
    """1112m 456p 678s 345s waits on 2m and 3m; the kan of 1m leaves 2m alone."""
    data = _riichi_game(
        _WAITS_23M,
        {"type": "tsumo", "actor": 1, "pai": "1m"},
        {"type": "ankan", "actor": 1, "consumed": ["1m"] * 4},
    )
    assert _errors_of(data, "illegal-call") == [
        "E1-0: seat 1 is in riichi and declares ankan:1111m, which changes its waits from 23m to 2m"
    ]


def test_a_concealed_kan_in_riichi_that_keeps_the_waits_is_legal() -> None:
    """111m 234m 456p 678s 5s waits on 5s, with the kan of 1m as without it."""
    keeps = ["1m", "1m", "1m", "2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "5s"]
    data = _riichi_game(
        keeps,
        {"type": "tsumo", "actor": 1, "pai": "1m"},
        {"type": "ankan", "actor": 1, "consumed": ["1m"] * 4},
    )
    assert _errors_of(data, "illegal-call") == []


def test_a_concealed_kan_in_riichi_without_the_drawn_tile_is_illegal() -> None:
    """Okuri-kan: the four 1m were held at the declaration (waits: 5s)."""
    four = ["1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "6s", "7s", "8s", "5s"]
    data = _riichi_game(
        four,
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "ankan", "actor": 1, "consumed": ["1m"] * 4},
    )
    assert _errors_of(data, "illegal-call") == [
        "E1-0: seat 1 is in riichi and declares ankan:1111m without the 9m it drew "
        "(okuri-kan): a riichi hand may not change"
    ]


def test_an_open_hand_declaring_riichi_scores_no_riichi() -> None:
    """Seat 1 pons 7z, declares riichi (an illegal-riichi) and wins by tsumo: the
    win is scored as the open hand it is (chun, no riichi, no ippatsu)."""
    from analyzer.engine.replay import replay

    data = _mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "pon", "actor": 1, "target": 0, "pai": "C", "consumed": ["C", "C"]},
        {"type": "dahai", "actor": 1, "pai": "1s", "tsumogiri": False},
        {"type": "tsumo", "actor": 2, "pai": "9p"},
        {"type": "dahai", "actor": 2, "pai": "9p", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "9m"},
        {"type": "dahai", "actor": 3, "pai": "9m", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "P"},
        {"type": "reach", "actor": 1},
        {"type": "dahai", "actor": 1, "pai": "P", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 1},
        {"type": "tsumo", "actor": 2, "pai": "8p"},
        {"type": "dahai", "actor": 2, "pai": "8p", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "8m"},
        {"type": "dahai", "actor": 3, "pai": "8m", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "S"},
        {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "7s"},
        {"type": "hora", "actor": 1, "target": 1, "pai": "7s"},
        start={"tehais": _DEAL},
    )
    log = load_bytes(data, "open.jsonl")
    win = replay(log, resolve_rules(log, "tenhou")).rounds[0].wins[0]
    assert (win.context.riichi, win.context.double_riichi, win.context.ippatsu) == (
        False,
        False,
        False,
    )
    assert _errors_of(data, "illegal-riichi") == ["E1-0: seat 1 declares riichi with an open hand"]


def test_an_open_hand_declaring_riichi_noten_is_one_finding() -> None:
    """One declaration, two things wrong with it (an open hand, a discard that leaves
    it not tenpai): one ``illegal-riichi`` naming both, not one for each."""
    data = _mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "pon", "actor": 1, "target": 0, "pai": "C", "consumed": ["C", "C"]},
        {"type": "dahai", "actor": 1, "pai": "1s", "tsumogiri": False},
        {"type": "tsumo", "actor": 2, "pai": "9p"},
        {"type": "dahai", "actor": 2, "pai": "9p", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "9m"},
        {"type": "dahai", "actor": 3, "pai": "9m", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "P"},
        {"type": "reach", "actor": 1},
        {"type": "dahai", "actor": 1, "pai": "9s", "tsumogiri": False},
        {"type": "reach_accepted", "actor": 1},
        {"type": "tsumo", "actor": 2, "pai": "8p"},
        {"type": "dahai", "actor": 2, "pai": "8p", "tsumogiri": True},
        start={"tehais": _DEAL},
    )
    assert _errors_of(data, "illegal-riichi") == [
        "E1-0: seat 1 declares riichi with an open hand; its discard 9s leaves "
        "2345678s445z: not tenpai"
    ]


_KANS_DEAL = [
    ["1m"] * 4 + ["2m"] * 4 + ["3m"] * 4 + ["E"],
    ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "N", "N", "N", "C", "C"],
    ["1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "S", "S", "F"],
    ["5m", "6m", "7m", "8m", "9m", "9m", "W", "W", "F", "F", "2s", "2s", "9s"],
]


def _kans(*own: tuple[str, str, str]) -> list[dict[str, object]]:
    """Seat 0's concealed kans on its first turn: (kind, replacement, new indicator)."""
    events: list[dict[str, object]] = [{"type": "tsumo", "actor": 0, "pai": "E"}]
    for kind, rinshan, marker in own:
        events += [
            {"type": "ankan", "actor": 0, "consumed": [kind] * 4},
            {"type": "dora", "dora_marker": marker},
            {"type": "tsumo", "actor": 0, "pai": rinshan},
        ]
    return events


def test_four_kans_by_two_players_end_the_hand_after_the_next_discard() -> None:
    """Three kans by seat 0 and a fourth by seat 1: once seat 1's discard after its
    replacement draw passes, the hand is a four-kan draw (Tenhou); the log plays on."""
    events = _kans(("1m", "E", "1s"), ("2m", "E", "2p"), ("3m", "5p", "3p"))
    events += [
        {"type": "dahai", "actor": 0, "pai": "5p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "N"},
        {"type": "ankan", "actor": 1, "consumed": ["N"] * 4},
        {"type": "dora", "dora_marker": "4p"},
        {"type": "tsumo", "actor": 1, "pai": "6p"},
        {"type": "dahai", "actor": 1, "pai": "6p", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "7p"},
        {"type": "dahai", "actor": 2, "pai": "7p", "tsumogiri": True},
    ]
    data = _mjai(*events, start={"tehais": _KANS_DEAL})
    assert _errors_of(data, "draw-mismatch") == [
        "E1-0: these rules end the hand in a suukaikan draw after the fourth kan, by two "
        "players or more at line 15 {ankan}, but the log plays on"
    ]


def test_a_fifth_kan_is_refused() -> None:
    """Seat 0 declares four concealed kans (1m, 2m, 3m, East); seat 1's kan of North
    would be a fifth: the dead wall has four replacement tiles."""
    deal = [
        ["1m"] * 4 + ["2m"] * 4 + ["3m"] * 4 + ["E"],
        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "N", "N", "N", "C", "C"],
        ["1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "S", "S", "F"],
        ["5m", "6m", "7m", "8m", "9m", "9m", "W", "W", "F", "F", "2s", "2s", "9s"],
    ]
    kans: list[dict[str, object]] = [{"type": "tsumo", "actor": 0, "pai": "E"}]
    for own, rinshan, marker in (("1m", "E", "1s"), ("2m", "E", "2p"), ("3m", "5p", "3p")):
        kans += [
            {"type": "ankan", "actor": 0, "consumed": [own] * 4},
            {"type": "dora", "dora_marker": marker},
            {"type": "tsumo", "actor": 0, "pai": rinshan},
        ]
    kans += [
        {"type": "ankan", "actor": 0, "consumed": ["E"] * 4},
        {"type": "dora", "dora_marker": "4p"},
        {"type": "tsumo", "actor": 0, "pai": "6p"},
        {"type": "dahai", "actor": 0, "pai": "6p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "N"},
        {"type": "ankan", "actor": 1, "consumed": ["N"] * 4},
    ]
    data = _mjai(*kans, start={"tehais": deal})
    assert _replay_error(data).endswith(
        "seat 1 declares a fifth kan (ankan:4444z): the dead wall holds four replacement tiles"
    )


def test_a_riichi_accepted_before_its_tile_is_ronned_is_one_finding() -> None:
    """Seat 1 declares riichi discarding 6z; the log accepts it, then seat 2 rons the
    6z (honitsu, ittsu, hatsu: 12000) and settles without the stick, as the rules have it (a
    riichi is accepted once its discard passes). One finding, at the acceptance's
    contradiction; the payments and scores follow the hand without the riichi."""
    deal = [
        _DEAL[0],
        _DEAL[1],
        ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "S", "S", "F", "F"],
        _DEAL[3],
    ]
    data = _mjai(
        {"type": "tsumo", "actor": 0, "pai": "7p"},
        {"type": "dahai", "actor": 0, "pai": "7p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "F"},
        {"type": "reach", "actor": 1},
        {"type": "dahai", "actor": 1, "pai": "F", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 1},
        {
            "type": "hora", "actor": 2, "target": 1, "pai": "F",
            "deltas": [0, -12000, 12000, 0], "scores": [25000, 13000, 37000, 25000],
        },
        start={"tehais": deal, "dora_marker": "9s"},
    )  # fmt: skip
    assert [e for e in _errors(data) if e[0] != "game-incomplete"] == [
        (
            "inconsistent-log",
            "E1-0: seat 2 rons the tile that declared seat 1's riichi, which the log "
            "accepted before the ron: a riichi is accepted once its discard passes; "
            "replayed without it",
        )
    ]


def test_a_replay_error_names_the_seat_whose_event_it_is() -> None:
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "hora", "actor": 1, "target": 0, "pai": "C"},
        {"type": "tsumo", "actor": 2, "pai": "1p"},
    )
    log = load_bytes(data, "play.jsonl")
    result = audit_log(log, resolve_rules(log, "auto"))
    assert [f.seat for f in result.findings if f.code == "inconsistent-log"] == [2]


@pytest.mark.corpus
@pytest.mark.parametrize(("rules", "due"), [("tenhou-sanma", True), ("mahjongsoul-sanma", False)])
def test_three_riichi_are_due_in_three_player_rules_that_have_the_draw(
    rules: str, due: bool
) -> None:
    """Three players: all three in riichi is the all-riichi draw where the rules have
    it (Tenhou sanma, rules-matrix §E), not where they do not (Mahjong Soul)."""
    from analyzer.engine.round_state import RoundState
    from mjaudit.events import DrawReason, RiichiAccepted, RoundStart
    from mjaudit.rules import preset
    from tests.conftest import corpus_file

    log = load_bytes(corpus_file("dnovikoff-tenhou_sanma.xml").read_bytes(), "sanma.xml")
    start = next(e for e in log.events if isinstance(e, RoundStart))
    state = RoundState(start, preset(rules), 3, 0)
    for seat in range(3):
        state.declaring = seat
        state.on_riichi_accepted(RiichiAccepted(start.pos, seat))
        assert (state.abort_due is not None) is (due and seat == 2)
    assert state.abort_due in (None, DrawReason.SUUCHA_RIICHI)


def test_a_kan_of_tiles_not_held_shows_the_hand_before_the_kan() -> None:
    """The hand shown is the one the kan was declared from, not what was left after
    taking the tiles that were there."""
    data = mjai(
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "ankan", "actor": 0, "consumed": ["E"] * 4},
    )
    assert _replay_error(data).endswith(
        "seat 0 declares a concealed kan with 1111z but holds 123m406p789s11155z"
    )


@pytest.mark.corpus
def test_what_the_log_shows_of_a_changed_riichi_hand_follows_from_the_change() -> None:
    """A real game with one discard of a seat in riichi changed to another tile it
    holds (element 452: G12 to G30): the hand it then shows at the draw (tenpai, the
    payments) follows from the changed hand; one root finding, the riichi's."""
    import re

    from tests.conftest import corpus_file

    text = corpus_file("2014050315gm-0041-0000-7ddece8e.xml").read_text(encoding="utf-8")
    tags = list(re.finditer(r"<(\w+)((?:\s+\w+=\"[^\"]*\")*)\s*/?>", text))
    tag = tags[452]
    assert tag.group(1) == "G12"
    data = (text[: tag.start()] + "<G30/>" + text[tag.end() :]).encode()
    log = load_bytes(data, "changed.xml")
    result = audit_log(log, resolve_rules(log, "auto"))
    errors = [f for f in result.findings if f.severity.value == "error"]
    roots = [f for f in errors if f.cause is None]
    assert [f.code for f in roots] == ["illegal-riichi"]
    assert "discards 8m from its hand, not the 4m it drew" in roots[0].message
    assert len(errors) > 1
