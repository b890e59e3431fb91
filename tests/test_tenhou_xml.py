from __future__ import annotations

import gzip
from itertools import pairwise
from pathlib import Path

import pytest

from mjaudit.errors import LogFormatError
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DrawTile,
    GameEnd,
    GameStart,
    Presence,
    RiichiAccepted,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import MeldKind
from mjaudit.tiles import Tile, tiles
from mjaudit.yaku import Yaku
from parsers import load
from parsers.tenhou_xml import decode_meld, parse_tenhou_xml
from tests.conftest import corpus_file

HEAD = (
    '<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
    '<UN n0="%41" n1="%42" n2="%43" n3="%44" dan="16,17,18,20" rate="2134.87,1,2,3" sx="M,F,M,F"/>'
    '<TAIKYOKU oya="0"/>'
)


@pytest.mark.parametrize(
    ("who", "m", "kind", "tiles_", "called", "from_seat"),
    [
        pytest.param(0, 30752, MeldKind.KITA, "4z", None, None, id="kita-30752"),
        pytest.param(1, 0, MeldKind.ANKAN, "1111m", None, None, id="ankan-of-1m-is-m0"),
        pytest.param(1, 41994, MeldKind.PON, "111z", "1z", 3, id="pon-from-toimen"),
        pytest.param(2, 49159, MeldKind.CHI, "345s", "3s", 1, id="chi-3s-from-kamicha"),
    ],
)
def test_decode_meld(
    who: int, m: int, kind: MeldKind, tiles_: str, called: str | None, from_seat: int | None
) -> None:
    meld = decode_meld(who, m)
    assert meld.kind is kind
    assert tuple(t.plain for t in meld.tiles) == tiles(tiles_)
    assert meld.called == (Tile(called) if called else None)
    assert meld.from_seat == from_seat


def test_decode_kakan_keeps_the_pon_and_adds_the_fourth() -> None:
    # A pon of 8p (kind 16) called from toimen, with copy 1 left out, then added.
    base_called = 16 * 3 + 0
    pon = decode_meld(0, (base_called << 9) | (1 << 5) | 0x8 | 2)
    kakan = decode_meld(0, (base_called << 9) | (1 << 5) | 0x10 | 2)
    assert pon.kind is MeldKind.PON and pon.tile_ids == (64, 66, 67) and pon.from_seat == 2
    assert kakan.kind is MeldKind.KAKAN and kakan.added_id == 65 and len(kakan.tiles) == 4
    assert kakan.called_id == pon.called_id


def test_a_whole_corpus_game() -> None:
    log = load(str(corpus_file("2010112714gm-00a9-0000-d497e395.xml")))
    start = log.start
    assert isinstance(start, GameStart) and start.rules_hint.players == 4
    assert start.rules_hint.aka and start.rules_hint.hanchan and start.rules_hint.room == "houou"
    assert start.seed is not None and start.seed.startswith("mt19937ar-sha512-n288-base64,")
    rounds = [e for e in log.events if isinstance(e, RoundStart)]
    assert rounds[0].label == "E1-0" and rounds[0].scores == (25000,) * 4
    assert all(len(h) == 13 for h in rounds[0].hands)
    assert isinstance(log.events[-1], GameEnd)
    discards = [e for e in log.events if isinstance(e, Discard)]
    assert 0.2 < sum(d.tsumogiri for d in discards) / len(discards) < 0.6


def test_sanma_kita_and_old_shuffle() -> None:
    log = load(str(corpus_file("2009060321gm-00b9-0000-75b25bcf.xml")))
    assert log.start.rules_hint.players == 3
    kita = [e for e in log.events if isinstance(e, DeclareMeld) and e.meld.kind is MeldKind.KITA]
    assert len(kita) == 2
    first = next(e for e in log.events if isinstance(e, RoundStart))
    assert first.shuffle is not None and first.shuffle.startswith("mt19937ar,")
    win = next(e for e in log.events if isinstance(e, Win))
    assert win.claims.yaku is not None and (Yaku.DORA, 4) in win.claims.yaku
    assert win.claims.melds is not None and len(win.claims.melds) == 2


def test_old_reach_without_ten() -> None:
    path = corpus_file("2009072918gm-0061-0000-e6e91672.xml")
    accepted = [e for e in load(str(path)).events if isinstance(e, RiichiAccepted)]
    assert accepted and all(e.scores is None for e in accepted)


def _mini(body: str) -> bytes:
    hands = ",".join(str(i) for i in range(13))
    h = [",".join(str(i) for i in range(k * 13, k * 13 + 13)) for k in range(4)]
    init = (
        f'<INIT seed="0,0,0,2,3,135" ten="250,250,250,250" oya="0" '
        f'hai0="{h[0]}" hai1="{h[1]}" hai2="{h[2]}" hai3="{h[3]}"/>'
    )
    del hands
    return (HEAD + init + body + "</mjloggm>").encode()


def test_names_reconnects_and_draw() -> None:
    body = (
        '<T60/><D60/><BYE who="1"/><UN n1="%42"/>'
        '<RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0" '
        'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25,60" '
        'owari="250,-5.0,250,-15.0,250,5.0,250,15.0"/>'
    )
    log = parse_tenhou_xml(_mini(body), "mini.xml")
    assert [p.name for p in log.start.players] == ["A", "B", "C", "D"]
    assert log.start.players[3].dan == "tenhoui" and log.start.players[0].rate == 2134.87
    presence = [e for e in log.events if isinstance(e, Presence)]
    assert [(p.seat, p.connected) for p in presence] == [(1, False), (1, True)]
    draw = next(e for e in log.events if isinstance(e, RoundDraw))
    assert draw.reason.value == "kyuushu" and draw.claims.hands[0][0] == 1
    d = next(e for e in log.events if isinstance(e, Discard))
    assert d.tsumogiri and next(e for e in log.events if isinstance(e, DrawTile)).tile_id == 60


def test_gzip_is_read(tmp_path: Path) -> None:
    src = corpus_file("2009060321gm-00b9-0000-75b25bcf.xml")
    gz = tmp_path / "game.mjlog"
    gz.write_bytes(gzip.compress(src.read_bytes()))
    assert load(str(gz)).events == load(str(src)).events or len(load(str(gz)).events) > 10


@pytest.mark.parametrize(
    ("content", "position", "words"),
    [
        pytest.param(
            b'<mjloggm ver="2.3"><GO type="169"/><UN n0="%41"',
            "line 1",
            "not well-formed",
            id="truncated",
        ),
        pytest.param(b"this is not a log\n", "byte 0", "not a mahjong log", id="not-xml"),
        pytest.param(
            b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<mjloggm ver="2.3">&x;</mjloggm>',
            "line 1",
            "DOCTYPE",
            id="external-entity",
        ),
        pytest.param(_mini("<T60/><X1/>"), "element 6", "unknown tag <X1>", id="unknown-tag"),
        pytest.param(_mini('<T60/><D61/><N who="7" m="3"/>'), "element 7", "who=7", id="bad-seat"),
        pytest.param(
            _mini("<T60/><D136/>"), "element 6", "<D136/>: tile id 136 is outside", id="id-136"
        ),
        pytest.param(
            HEAD.encode() + b"<T60/></mjloggm>", "element 4", "outside a hand", id="no-init"
        ),
    ],
)
def test_bad_input_names_the_position(content: bytes, position: str, words: str) -> None:
    from parsers import load_bytes

    with pytest.raises(LogFormatError) as info:
        load_bytes(content, "bad.xml")
    text = str(info.value)
    assert text.startswith("bad.xml (") and position in text and words in text
    assert "\n" not in text


def test_entity_is_never_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET", encoding="utf-8")
    doc = (
        f'<!DOCTYPE m [<!ENTITY x SYSTEM "file://{secret}">]>'
        f'<mjloggm ver="2.3"><UN n0="&x;"/></mjloggm>'
    ).encode()
    with pytest.raises(LogFormatError) as info:
        parse_tenhou_xml(doc, "ent.xml")
    assert "TOPSECRET" not in str(info.value)


def test_a_discard_right_after_chi_or_pon_is_never_tsumogiri() -> None:
    # Regression: the last draw of the previous hand must not survive an INIT
    # (2009082817gm-00ab E4-0 opens with a pon and a discard of that same tile id).
    log = load(str(corpus_file("2009082817gm-00ab-0000-997dbe26.xml")))
    events = log.events
    pairs = [
        (a, b)
        for a, b in pairwise(events)
        if isinstance(a, DeclareMeld)
        and a.meld.kind in (MeldKind.CHI, MeldKind.PON)
        and isinstance(b, Discard)
    ]
    assert pairs and not any(b.tsumogiri for _, b in pairs)


_END = (
    '<RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0" '
    'owari="250,-5.0,250,-15.0,250,5.0,250,15.0"/>'
)


def test_an_odd_draw_tag_is_read_like_a_plain_one() -> None:
    # "T060" is not one of the tags the fast path knows; it means tile 60 all the same.
    plain = parse_tenhou_xml(_mini("<T60/><D60/>" + _END), "a.xml").events
    odd = parse_tenhou_xml(_mini("<T060/><D060/>" + _END), "a.xml").events
    assert [e for e in odd if not isinstance(e, DrawTile | Discard)] == [
        e for e in plain if not isinstance(e, DrawTile | Discard)
    ]
    draws = [(e.seat, e.tile, e.tile_id) for e in odd if isinstance(e, DrawTile | Discard)]
    assert draws == [(0, Tile(60 // 4), 60), (0, Tile(60 // 4), 60)]
    assert next(e for e in odd if isinstance(e, Discard)).tsumogiri


def test_fast_event_builders_make_the_same_frozen_values() -> None:
    from dataclasses import FrozenInstanceError

    from mjaudit.errors import SourcePos
    from mjaudit.events import make_discard, make_draw

    pos = SourcePos("a.xml", 7, "T60", "element")
    draw = make_draw(pos, 2, Tile("6p"), 60)
    assert draw == DrawTile(pos, 2, Tile("6p"), 60) and type(draw) is DrawTile
    assert hash(draw) == hash(DrawTile(pos, 2, Tile("6p"), 60))
    discard = make_discard(pos, 1, Tile("0p"), False, None)
    assert discard == Discard(pos, 1, Tile("0p"), False, None)
    assert draw.pos is pos and discard.pos is pos
    with pytest.raises(FrozenInstanceError):
        draw.seat = 3  # type: ignore[misc]


def test_draws_and_discards_make_their_positions_when_read() -> None:
    # The fast path keeps one source per file and the element number; the position
    # read back is the one the element had: its number, its tag, its file.
    from lxml import etree

    from mjaudit.errors import SourcePos

    path = str(corpus_file("2009060321gm-00b9-0000-75b25bcf.xml"))
    data = Path(path).read_bytes()
    events = parse_tenhou_xml(data, path).events
    tags = [el.tag for el in etree.fromstring(data)]
    hot = [e for e in events if isinstance(e, DrawTile | Discard)]
    assert len(hot) > 30
    assert len({id(e.where) for e in hot}) == 1  # one shared source, no position each
    for ev in hot:
        assert ev.pos == SourcePos(path, ev.number, tags[ev.number - 1], "element")
        letters = "TUVW" if isinstance(ev, DrawTile) else "DEFG"
        assert ev.pos.where == f"element {ev.number} <{letters[ev.seat]}{ev.tile_id}/>"
    # Two readings of the same file give equal events.
    assert parse_tenhou_xml(data, path).events == events


def _init(**changes: str) -> str:
    attrs = {
        "seed": "0,0,0,2,3,135",
        "ten": "250,250,250,250",
        "oya": "0",
        **{f"hai{k}": ",".join(str(i) for i in range(k * 13, k * 13 + 13)) for k in range(4)},
        **changes,
    }
    return "<INIT " + " ".join(f'{k}="{v}"' for k, v in attrs.items()) + "/>"


_AGARI = (
    '<AGARI ba="0,0" hai="{hai}" machi="{machi}" ten="30,1000,0" yaku="1,1,8,1" '
    'doraHai="135" who="{who}" fromWho="1" sc="250,10,250,-10,250,0,250,0" '
    'owari="260,6.0,240,-16.0,250,-5.0,250,15.0"/>'
)


_BAD_ATTRIBUTES = [
    (
        4,
        "hai-136",
        _init(hai0="0,1,2,3,4,5,6,7,8,9,10,11,136"),
        "INIT hai0: tile id 136 is outside 0..135",
    ),
    (4, "hai-x", _init(hai1="13,14,x"), "INIT hai1 is not a list of integers: '13,14,x'"),
    (4, "hai-short", _init(hai2="26,27"), "INIT hai2 has 2 tiles, expected 13"),
    (4, "oya-4", _init(oya="4"), "oya=4 is not a seat 0..3"),
    (4, "oya-text", _init(oya="east"), "oya is not an integer: 'east'"),
    (5, "dora-140", _init() + '<DORA hai="140"/>', "DORA: tile id 140 is outside 0..135"),
    (5, "dora-none", _init() + "<DORA/>", "missing DORA hai"),
    (
        5,
        "machi-negative",
        _init() + _AGARI.format(hai="0,1,2", machi="-1", who="0"),
        "AGARI machi: tile id -1 is outside 0..135",
    ),
    (
        5,
        "agari-hai-999",
        _init() + _AGARI.format(hai="0,1,2,999", machi="2", who="0"),
        "AGARI hai: tile id 999 is outside 0..135",
    ),
    (
        5,
        "agari-who-9",
        _init() + _AGARI.format(hai="0,1,2", machi="2", who="9"),
        "who=9 is not a seat 0..3",
    ),
]


@pytest.mark.parametrize(
    ("element", "body", "words"),
    [pytest.param(element, body, words, id=name) for element, name, body, words in _BAD_ATTRIBUTES],
)
def test_a_bad_attribute_is_named_with_its_element(element: int, body: str, words: str) -> None:
    with pytest.raises(LogFormatError) as info:
        parse_tenhou_xml((HEAD + body + "</mjloggm>").encode(), "bad.xml")
    text = str(info.value)
    assert text.startswith(f"bad.xml (element {element}): <") and text.endswith(words)


def test_other_spellings_of_numbers_read_as_the_numbers() -> None:
    # Ids, seats and lists are looked up by their usual spelling first; any other
    # spelling int() accepts (a leading zero, spaces) still means the same number.
    usual = _init() + "<T52/>" + _AGARI.format(hai="0,1,2,3", machi="3", who="0")
    odd = (
        _init(oya="00", hai0=" 0, 1,2,3,4,5,6,7,8,9,10,11,012")
        + "<T52/>"
        + _AGARI.format(hai="00,1, 2,3", machi="03", who=" 0")
    )
    a = parse_tenhou_xml((HEAD + usual + "</mjloggm>").encode(), "a.xml").events
    b = parse_tenhou_xml((HEAD + odd + "</mjloggm>").encode(), "a.xml").events
    assert a == b
    win = next(e for e in a if isinstance(e, Win))
    assert win.claims.hand_ids == (0, 1, 2, 3) and win.claims.win_tile_id == 3
    assert win.claims.yaku == ((Yaku(1), 1), (Yaku(8), 1)) and win.claims.han == 2
    assert win.claims.deltas == (1000, -1000, 0, 0)
