"""The wall builder against the test vectors of ../shared/reference/tenhou-wall.md §1.9."""

from __future__ import annotations

import random
import re
import struct

import pytest

from analyzer.engine.wall import (
    MT19937,
    SeedFormat,
    Wall,
    WallSeedError,
    build_wall,
    hand_words,
    init_by_array,
    parse_key,
    seed_format,
    walls_for_game,
)
from analyzer.engine.wall import _FastMT as FastMT
from tests.conftest import corpus_file


def _game(name: str) -> tuple[str | None, list[str | None], list[int], list[str]]:
    """SHUFFLE seed, per-INIT shuffles, dealers and INIT tags of a corpus log."""
    text = corpus_file(name).read_text(encoding="utf-8")
    seed = re.search(r'<SHUFFLE seed="([^"]*)"', text)
    inits = re.findall(r"<INIT [^>]*>", text)
    shuffles: list[str | None] = []
    for tag in inits:
        found = re.search(r'shuffle="([^"]*)"', tag)
        shuffles.append(found[1] if found else None)
    dealers = [int(re.search(r'oya="(\d)"', tag)[1]) for tag in inits]  # type: ignore[index]
    return (seed[1] if seed else None), shuffles, dealers, inits


def _first_wall(name: str, players: int) -> tuple[Wall, str]:
    seed, shuffles, dealers, inits = _game(name)
    return next(walls_for_game(seed, shuffles, players, dealers)), inits[0]


def _attr(tag: str, name: str) -> list[int]:
    found = re.search(rf' {name}="([^"]*)"', tag)
    assert found is not None
    return [int(x) for x in found[1].split(",")]


# -- MT19937 ------------------------------------------------------------------


def test_mt19937_matches_the_reference_output() -> None:
    # mt19937ar.c's own check: init_by_array({0x123, 0x234, 0x345, 0x456}) starts
    # 1067595299 955945823 477289528 4107218783 4228976476.
    mt = MT19937([0x123, 0x234, 0x345, 0x456])
    assert [mt.next_u32() for _ in range(5)] == [
        1067595299,
        955945823,
        477289528,
        4107218783,
        4228976476,
    ]


@pytest.mark.parametrize(
    "key",
    [
        pytest.param([0x123, 0x234, 0x345, 0x456], id="short-key"),
        pytest.param([7, 8, 9, 0], id="top-word-zero"),  # wall §4.3
        pytest.param(list(range(1, 625)), id="624-words"),
    ],
)
def test_fast_stream_equals_the_written_out_generator(key: list[int]) -> None:
    mt = MT19937(key)
    expected = b"".join(struct.pack("<I", mt.next_u32()) for _ in range(700))
    fast = FastMT(key)
    assert fast.block(288) + fast.block(412) == expected


def test_random_seed_shortcut_drops_top_zero_words() -> None:
    # Why the fast path only seeds from an integer when the top word is non-zero.
    key = [5, 6, 0]
    rng = random.Random(int.from_bytes(struct.pack("<3I", *key), "little"))
    assert rng.getstate()[1][:624] != tuple(init_by_array(key))
    assert FastMT(key).block(1) == struct.pack("<I", MT19937(key).next_u32())


# -- seeds --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "fmt"),
    [
        pytest.param("mt19937ar-sha512-n288-base64,AAAA", SeedFormat.BASE64, id="base64"),
        pytest.param("mt19937ar-sha512-n288,1,2", SeedFormat.HEX, id="hex"),
        pytest.param("mt19937ar,1,2", SeedFormat.PER_INIT, id="per-init"),
        pytest.param("", None, id="empty-mjx"),
        pytest.param("0.7652", None, id="float-bot-battle"),
        pytest.param(None, None, id="absent"),
    ],
)
def test_seed_format(seed: str | None, fmt: SeedFormat | None) -> None:
    assert seed_format(seed) is fmt


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        pytest.param("mt19937ar-sha512-n288-base64,AAAA", "3 bytes", id="short-base64"),
        pytest.param("mt19937ar-sha512-n288-base64," + "A*" * 1664, "decode", id="bad-char"),
        pytest.param("mt19937ar-sha512-n288,1,2,3", "3 words", id="hex-short"),
        pytest.param("mt19937ar,1,2,zz,4,5,6,7,8", "not hex", id="not-hex"),
        pytest.param("mt19937ar,1,2,3,4,5,6,7,100000000", "32 bits", id="wide"),
    ],
)
def test_malformed_seeds_are_refused(seed: str, message: str) -> None:
    with pytest.raises(WallSeedError, match=message):
        parse_key(seed)


def test_per_init_seeds_may_have_8_or_32_words() -> None:
    assert len(parse_key("mt19937ar," + ",".join(["1"] * 8))[1]) == 8
    assert len(parse_key("mt19937ar," + ",".join(["1"] * 32))[1]) == 32


def test_unseeded_games_yield_no_walls() -> None:
    assert list(walls_for_game("", [None, None], 4)) == []
    assert list(walls_for_game("0.123", [None], 4)) == []


# -- the vectors of wall §1.9 ---------------------------------------------------


def test_base64_four_players() -> None:
    name = "2010030412gm-00e1-0000-4a275c59.xml"
    seed, _, _, _ = _game(name)
    assert seed is not None
    fmt, key = parse_key(seed)
    assert fmt is SeedFormat.BASE64
    assert len(key) == 624
    assert key[:3] == (0x07BA772A, 0xD6E396DD, 0x326E646F)
    mt = MT19937(key)
    assert [mt.next_u32() for _ in range(3)] == [0xED1DA6B0, 0x721917E5, 0x49116B1D]
    rnd = hand_words(FastMT(key).block(288))
    assert rnd[:4] == (0x314AC142, 0xF34CB3B8, 0x74AF3598, 0xDE5C4A2A)
    wall, init = _first_wall(name, 4)
    assert wall.yama[120:][::-1] == (
        *(124, 120, 112, 54),
        *(83, 57, 114, 106),
        *(123, 45, 117, 39),
        *(11, 28, 8, 99),
    )
    assert wall.yama[:14] == (42, 128, 78, 103, 133, 95, 52, 74, 65, 59, 5, 82, 1, 130)
    assert wall.dora_indicator(0) == 95 == _attr(init, "seed")[5]
    assert wall.live_tile(0) == wall.yama[83] == 67
    assert wall.dice == (2, 2) == tuple(_attr(init, "seed")[3:5])
    assert wall.hands == tuple(tuple(_attr(init, f"hai{s}")) for s in range(4))


def test_base64_sanma() -> None:
    wall, init = _first_wall("2014091101gm-00b9-0000-5ca6b487.xml", 3)
    assert len(wall.yama) == 108
    assert not set(range(4, 32)) & set(wall.yama)
    assert wall.yama[104:][::-1] == (112, 103, 65, 76)
    assert wall.dora_indicator(0) == wall.yama[9] == 75 == _attr(init, "seed")[5]
    assert wall.ura_indicator(0) == wall.yama[8] == 71
    assert (wall.rinshan_tile(0), wall.rinshan_tile(1)) == (1, 106)
    assert wall.dice == (5, 2)
    assert wall.first_live == 68
    assert wall.live_count(0) == 55
    assert wall.hands == tuple(tuple(_attr(init, f"hai{s}")) for s in range(3))


def test_hex_format() -> None:
    wall, _ = _first_wall("2009072917gm-0061-0000-85a7478c.xml", 4)
    assert wall.format is SeedFormat.HEX
    assert wall.yama[132:][::-1] == (49, 108, 131, 61)
    assert wall.dora_indicator(0) == wall.yama[4] == 124
    assert wall.ura_indicator(0) == wall.yama[5]
    assert wall.rinshan_tile(0) == wall.yama[0]
    assert wall.dice == (5, 0)


def test_per_init_format() -> None:
    name = "2008092000gm-0009-0000-10db094d.xml"
    _, shuffles, _, _ = _game(name)
    assert shuffles[0] is not None
    _, key = parse_key(shuffles[0])
    assert MT19937(key).next_u32() == 0x6DF8F79A  # rnd[0]: raw output, no SHA
    wall, _ = _first_wall(name, 4)
    assert wall.yama[132:][::-1] == (88, 29, 24, 30)
    assert wall.dora_indicator(0) == 75
    assert wall.dice == (3, 4)


def test_per_init_sanma_rolls_the_words_after_the_shuffle() -> None:
    # The one old sanma hand: rnd[135], rnd[136] give 1,1; the log says 1,3, which
    # rnd[107], rnd[108] give (the words right after the 107 shuffle words).
    wall, init = _first_wall("2009060321gm-00b9-0000-75b25bcf.xml", 3)
    assert wall.dice == tuple(_attr(init, "seed")[3:5]) == (1, 3)
    assert wall.dora_indicator(0) == wall.yama[8] == 118
    _, key = parse_key(_game("2009060321gm-00b9-0000-75b25bcf.xml")[1][0] or "")
    raw = struct.unpack("<144I", FastMT(key).block(144))
    assert (raw[135] % 6, raw[136] % 6) == (1, 1)


def test_public_vector_shape_of_the_live_end() -> None:
    # The deal takes yama[N-1] downwards; the first live draw is yama[N-1-13P].
    rnd = list(range(144))
    wall = build_wall(rnd, SeedFormat.BASE64, 4, dealer=2)
    top = wall.yama[::-1]
    assert wall.hand(2)[:4] == top[:4]
    assert wall.hand(3)[:4] == top[4:8]
    assert wall.hand(2)[12] == top[48]
    assert wall.live_tile(0) == top[52]
    assert wall.live_count(3) == 67
