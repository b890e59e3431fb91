"""Decompositions, waits and shanten on known hands, and against brute force."""

from __future__ import annotations

import random

import pytest

from analyzer.hands.hand import (
    NO_WAITS,
    SEQ,
    decompose,
    draw_shanten,
    hand_key,
    is_chiitoitsu,
    is_complete,
    key_waits,
    shanten,
    waits,
)
from tests.scoring_helpers import counts
from tests.scoring_helpers import shanten as shanten_of
from tests.scoring_helpers import waits as waits_of


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param("123m456p789s11122z", 1, id="one-reading"),
        pytest.param("111222333m456p55s", 2, id="triplets-or-sequences"),
        pytest.param("11122233344455m", 4, id="many-readings"),
        pytest.param("11223344556677m", 3, id="chinitsu-pairs-also-sequences"),
        pytest.param("123m456p789s1234z", 0, id="not-complete"),
    ],
)
def test_decompositions(hand: str, expected: int) -> None:
    found = decompose(counts(hand))
    assert len(found) == expected
    for d in found:
        used = [0] * 34
        used[d.pair] += 2
        for g in d.groups:
            for k in (g - SEQ, g - SEQ + 1, g - SEQ + 2) if g >= SEQ else (g, g, g):
                used[k] += 1
        assert used == counts(hand)
        # Each sorted: the suits' parts are joined in the order of their kinds.
        assert list(d.triplets) == sorted(d.triplets)
        assert list(d.sequences) == sorted(d.sequences)
        assert d.groups == tuple(sorted(d.groups))


def test_decomposition_with_melds_has_fewer_groups() -> None:
    # 8 concealed tiles next to two melds: two sets and a pair.
    (d,) = decompose(counts("12355m789s"))
    assert d.pair == 4 and d.sequences == (0, 24)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param("1112345678999m", "123456789m", id="chuuren-nine-sided"),
        pytest.param("19m19p19s1234567z", "19m19p19s1234567z", id="kokushi-thirteen-sided"),
        pytest.param("19m19p19s1234566z", "7z", id="kokushi-single"),
        pytest.param("1122334455667m", "147m", id="chiitoitsu-and-sequences"),
        pytest.param("23m456p789s11z", "14m", id="ryanmen"),
        pytest.param("13m456p789s11z", "2m", id="kanchan"),
        pytest.param("12m456p789s11z", "3m", id="penchan"),
        pytest.param("55m77p456789s111z", "5m7p", id="shanpon"),
        pytest.param("4m", "4m", id="tanki-after-four-calls"),
        pytest.param("2223m", "134m", id="nobetan-and-kanchan"),
        pytest.param("1111m234p567s789s", "", id="wait-on-a-fifth-tile-is-no-wait"),
        pytest.param("123m456p789s1234z", "", id="noten"),
    ],
)
def test_waits(hand: str, expected: str) -> None:
    assert waits_of(hand) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param("123m456p789s11122z", -1, id="complete"),
        pytest.param("123m456p789s1112z", 0, id="tenpai"),
        pytest.param("123m456p789s1234z", 2, id="two-away"),
        pytest.param("19m19p19s1234567z", 0, id="kokushi-tenpai"),
        pytest.param("19m19p19s123456z5m", 1, id="kokushi-iishanten"),
        pytest.param("1122m3344p5566s7z", 0, id="chiitoitsu-tenpai"),
        pytest.param("147m258p369s1234z", 6, id="thirteen-kinds-chiitoitsu-count"),
        pytest.param("2m", 0, id="tanki-after-four-calls"),
        pytest.param("13579m2468p1357s", 4, id="scattered"),
        # A kind held four times: a pair or a lone tile of it waits for no fifth copy.
        pytest.param("1111m234p567s789s", 1, id="tanki-on-the-fifth-1m"),
        pytest.param("1111z234p567s789s", 1, id="tanki-on-the-fifth-east"),
        pytest.param("1111m2222p", 1, id="two-kinds-held-four-times"),
        pytest.param("1111m234p", 1, id="after-two-calls"),
        pytest.param("1111m", 1, id="after-three-calls"),
        pytest.param("11112m", 0, id="the-fourth-1m-in-a-set-with-2m"),
        pytest.param("1111m234p567s7899s", 0, id="fourteen-tiles-discard-a-1m"),
        pytest.param("1111m234p567s789s5z", 0, id="fourteen-tiles-any-tanki"),
        pytest.param("1111234m567s789s1z", 0, id="other-readings-still-count"),
    ],
)
def test_shanten(hand: str, expected: int) -> None:
    assert shanten_of(hand) == expected


def _random_hand(rng: random.Random, size: int) -> list[int]:
    wall = [k for k in range(34) for _ in range(4)]
    c = [0] * 34
    for k in rng.sample(wall, size):
        c[k] += 1
    return c


def _completing(c: list[int]) -> set[int]:
    """The kinds that make ``c`` a winning shape when added: waits by their definition."""
    found = set()
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if is_complete(c):
                found.add(k)
            c[k] -= 1
    return found


def test_waits_agree_with_completeness_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(300):
        c = _random_hand(rng, rng.choice([13, 13, 10, 7, 4]))
        # Bias towards ready hands: swap a tile for one of a complete hand sometimes.
        expected = _completing(c)
        assert waits(c) == expected
        assert (shanten(c) == 0) >= bool(expected)


def test_shanten_zero_iff_tenpai_on_ready_hands() -> None:
    # Hands built complete, minus one tile: shanten 0, and the removed tile is a wait.
    rng = random.Random(11)
    for _ in range(300):
        groups = []
        for _ in range(4):
            k = rng.randrange(27)
            groups += [k, k, k] if k % 9 > 6 or rng.random() < 0.4 else [k, k + 1, k + 2]
        p = rng.randrange(34)
        c = [0] * 34
        for k in [*groups, p, p]:
            c[k] += 1
        if max(c) > 4:
            continue
        assert shanten(c) == -1
        out = rng.choice([k for k in range(34) if c[k]])
        c[out] -= 1
        assert shanten(c) == 0
        assert out in waits(c)


def _after_one_exchange(c: list[int]) -> int:
    """The lowest shanten a draw (of a kind not all in the hand) and a discard give."""
    best = 9
    for draw in range(34):
        if c[draw] == 4:
            continue
        c[draw] += 1
        for out in range(34):
            if c[out]:
                c[out] -= 1
                best = min(best, shanten(c))
                c[out] += 1
        c[draw] -= 1
    return best


@pytest.mark.parametrize("four", [False, True], ids=["random", "holding-four-of-a-kind"])
def test_a_draw_and_a_discard_bring_a_hand_one_step_nearer(four: bool) -> None:
    # Some draw of a kind not all in the hand, and some discard, bring a hand one step
    # nearer tenpai (to a hand with a wait, from shanten 1), and none brings it two; a
    # hand with a wait keeps one.
    rng = random.Random(45 if four else 3)
    checked = 0
    while checked < 60:
        c = _with_four(rng, 13) if four else _random_hand(rng, 13)
        s = shanten(c)
        if s > 2:
            continue
        checked += 1
        assert _after_one_exchange(c) == max(s - 1, 0), c


def test_waits_rejects_a_complete_hand() -> None:
    with pytest.raises(ValueError, match="3k\\+1"):
        waits(counts("123m456p789s11122z"))


def _kinds(c: list[int]) -> list[int]:
    return [k for k in range(34) for _ in range(c[k])]


@pytest.mark.parametrize(
    "hand",
    [
        "1112345678999m",  # nine gates
        "1133557799m112z",  # seven pairs, waiting on 2z
        "19m19p19s1234567z",  # thirteen-sided
        "19m19p19s1234566z",  # thirteen orphans, one kind missing
        "1111m",  # the fifth 1m does not exist
        "11m22p",  # shanpon across suits
        "123456789m1p",
        "1234z",
    ],
)
def test_key_waits_match_waits(hand: str) -> None:
    c = counts(hand)
    assert key_waits(hand_key(_kinds(c))) == waits(c)


def test_key_waits_agree_with_waits_on_random_and_ready_hands() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        c = _random_hand(rng, rng.choice([13, 13, 10, 7, 4, 1]))
        if rng.random() < 0.5:  # a complete hand less one tile: ready, mostly
            c = [0] * 34
            for _ in range(4):
                if rng.random() < 0.5:
                    c[rng.randrange(34)] += 3
                else:
                    k = 9 * rng.randrange(3) + rng.randrange(7)
                    for d in range(3):
                        c[k + d] += 1
            c[rng.randrange(34)] += 2
            if max(c) > 4:
                continue
            c[rng.choice(_kinds(c))] -= 1
        found = key_waits(hand_key(_kinds(c)))
        assert found == _completing(c), c
        assert waits(c) == found, c
        assert found or found is NO_WAITS


def _suit_vectors(most: int) -> list[tuple[int, ...]]:
    """Every count vector of one suit with at most ``most`` tiles."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(9):
        out = [(*v, c) for v in out for c in range(5) if sum(v) + c <= most]
    return out


def test_completeness_agrees_with_listing_every_split() -> None:
    # is_complete decides a suit without listing its splits; decompose lists them.
    # Every suit of sets (with an honour pair) and every suit of sets and a pair.
    checked = 0
    for vec in _suit_vectors(11):
        if sum(vec) % 3 == 1:
            continue
        c = [*vec, *[0] * 25]
        if sum(vec) % 3 == 0:
            c[27] = 2
        expected = bool(decompose(c)) or is_chiitoitsu(c)
        assert is_complete(c) == expected, vec
        checked += 1
    assert checked == 84_530


def test_a_hand_no_game_can_deal_waits_on_nothing() -> None:
    # Nine of one kind (a corrupt log; the replay reports it) would overflow a digit
    # of the part keys: it waits on nothing rather than on whatever the overflow reads.
    c = [0] * 34
    c[3] = 9
    c[27] = 4
    assert waits(c) is NO_WAITS


# -- a kind held four times ----------------------------------------------------------
# A pair or a lone tile of a kind whose four copies are all in the hand waits for a
# fifth copy, which does not exist: such a hand is no nearer to tenpai for it.


def _with_four(rng: random.Random, size: int) -> list[int]:
    """A random hand of ``size`` tiles holding all four copies of one kind or more."""
    c = [0] * 34
    c[rng.randrange(34)] = 4
    wall = [k for k in range(34) for _ in range(4 - c[k])]
    for k in rng.sample(wall, size - 4):
        c[k] += 1
    return c


def _ready(rng: random.Random, size: int) -> list[int]:
    """A hand of ``size`` tiles one tile short of complete, often holding four of a kind."""
    while True:
        c = [0] * 34
        for _ in range((size - 1) // 3):
            k = rng.randrange(27) if rng.random() < 0.8 else 27 + rng.randrange(7)
            for j in (k, k, k) if k >= 27 or k % 9 > 6 or rng.random() < 0.5 else (k, k + 1, k + 2):
                c[j] += 1
        c[rng.randrange(34)] += 1
        if max(c) <= 4:
            return c


def test_shanten_zero_iff_a_wait_exists_with_four_held() -> None:
    # Tenpai means a winning tile that exists: shanten 0 exactly when waits() (which
    # leaves out a kind whose four copies are all in the hand) names one.
    rng = random.Random(44)
    checked = held_four = 0
    while checked < 600:
        c = _ready(rng, rng.choice([13, 10, 7, 4])) if checked % 2 else _with_four(rng, 13)
        checked += 1
        held_four += 4 in c
        assert (shanten(c) == 0) == bool(waits(c)), c
    assert held_four > 150


def test_draw_shanten_with_four_held_matches_shanten() -> None:
    rng = random.Random(46)
    for n in range(200):
        c = _with_four(rng, 13) if n % 2 else _ready(rng, 13)
        base, after = draw_shanten(c)
        assert base == shanten(c)
        for k in range(34):
            if c[k] == 4:
                assert after[k] == base
                continue
            c[k] += 1
            assert after[k] == shanten(c), (c, k)
            c[k] -= 1


def test_distances_from_frontiers_agree_with_counting_kind_by_kind() -> None:
    # A part holding four of no kind reads its distances off its frontier; counting
    # kind by kind, every kind at most four times, must give the same for it. (A part
    # that holds four of a kind is only counted.)
    from analyzer.hands.hand import _counted_distances, _frontier_distances

    rng = random.Random(47)
    for n in range(3000):
        honors = n % 4 == 3
        vec = [0] * (7 if honors else 9)
        for _ in range(rng.randrange(15)):
            k = rng.randrange(len(vec))
            if vec[k] < 3:
                vec[k] += 1
        part = tuple(vec)
        assert _frontier_distances(part, honors) == _counted_distances(part, honors), part
    # Four of a kind: a pair of it is no partial set, a lone one no half of a pair.
    four = _counted_distances((4, 0, 0, 0, 0, 0, 0, 0, 0), False)
    assert (four[2 * 1 + 0], four[2 * 1 + 1], four[2 * 0 + 1]) == (0, 2, 0)
    assert _frontier_distances((4, 0, 0, 0, 0, 0, 0, 0, 0), False)[2 * 1 + 1] == 1
