from __future__ import annotations

import pickle

import pytest

from mjaudit.tiles import Tile, tiles, to_mpsz


@pytest.mark.parametrize(
    ("text", "kind", "red"),
    [
        ("1m", 0, False),
        ("9m", 8, False),
        ("0m", 4, True),
        ("0p", 13, True),
        ("0s", 22, True),
        ("1z", 27, False),
        ("7z", 33, False),
        ("5s", 22, False),
    ],
)
def test_parse_single(text: str, kind: int, red: bool) -> None:
    t = Tile(text)
    assert (t.kind, t.red) == (kind, red)
    assert str(t) == text
    assert eval(repr(t)) is t  # repr pastes back into Python


def test_tiles_are_interned_and_immutable() -> None:
    assert Tile("5m") is Tile(4)
    assert Tile("0m") is Tile(4, True)
    assert Tile("0m") != Tile("5m")
    assert Tile("0m").plain is Tile("5m")
    with pytest.raises(AttributeError):
        Tile("1m").kind = 3
    assert pickle.loads(pickle.dumps(Tile("0p"))) == Tile("0p")


@pytest.mark.parametrize("bad", ["", "0z", "8z", "5x", "m1", "55m5"])
def test_bad_tile_text(bad: str) -> None:
    with pytest.raises(ValueError):
        Tile(bad)


def test_mpsz_round_trip() -> None:
    hand = tiles("123m0p55z789s")
    assert [str(t) for t in hand] == ["1m", "2m", "3m", "0p", "5z", "5z", "7s", "8s", "9s"]
    assert to_mpsz(hand) == "123m0p789s55z"
    with pytest.raises(ValueError):
        tiles("123")


@pytest.mark.parametrize(
    ("indicator", "dora", "players"),
    [
        pytest.param("1m", "2m", 4, id="plain-successor"),
        pytest.param("9m", "1m", 4, id="nine-wraps-to-one"),
        pytest.param("9p", "1p", 4, id="nine-pin-wraps"),
        pytest.param("0s", "6s", 4, id="red-five-indicates-six"),
        pytest.param("4z", "1z", 4, id="north-wraps-to-east"),
        pytest.param("1z", "2z", 4, id="east-indicates-south"),
        pytest.param("7z", "5z", 4, id="red-dragon-wraps-to-white"),
        pytest.param("5z", "6z", 4, id="white-indicates-green"),
        pytest.param("1m", "9m", 3, id="sanma-1m-indicates-9m"),
        pytest.param("9m", "1m", 3, id="sanma-9m-indicates-1m"),
        pytest.param("9s", "1s", 3, id="sanma-souzu-wraps-normally"),
    ],
)
def test_dora_successor(indicator: str, dora: str, players: int) -> None:
    assert Tile(indicator).dora(players) == Tile(dora)


def test_tile_properties() -> None:
    assert Tile("1m").is_terminal and Tile("9s").is_yaochu and not Tile("5p").is_yaochu
    assert Tile("3z").is_wind and Tile("6z").is_dragon and Tile("6z").is_honor
    assert Tile("7p").suit == "p" and Tile("7p").number == 7
