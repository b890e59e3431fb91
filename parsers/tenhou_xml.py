"""Tenhou mjlog XML -> format-neutral events.

The layout of every tag is described in ../shared/reference/tenhou-format.md §1.
This module transcribes: it decodes tiles, melds and numbers, and carries what the
log claims (yaku ids, fu, points, deltas, indicators, final scores) untouched.
It never judges a hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, count, islice
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from mjaudit.errors import LogFormatError, SourcePos
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawClaims,
    DrawReason,
    DrawTile,
    EndClaims,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Limit,
    Located,
    PlayerInfo,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    RulesHint,
    Win,
    WinClaims,
    make_discard,
    make_draw,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku

if TYPE_CHECKING:  # lxml is imported where a document needs it (_read_lxml)
    from lxml import etree

__all__ = ["decode_meld", "parse_tenhou_xml", "tile_from_id"]

_TILE_LETTERS = {
    **{letter: (True, seat) for seat, letter in enumerate("TUVW")},
    **{letter: (False, seat) for seat, letter in enumerate("DEFG")},
}
# Every well-formed draw and discard tag ("T52", "G135"): (is_draw, seat, tile id).
_HOT_TAGS: dict[object, tuple[bool, int, int]] = {
    f"{letter}{tile_id}": (is_draw, seat, tile_id)
    for letter, (is_draw, seat) in _TILE_LETTERS.items()
    for tile_id in range(136)
}
# Element numbers, shared by every log (ints above 256 are otherwise a new object
# each, kept by every draw and discard); a longer log counts on from the end.
_NUMBERS = tuple(range(1, 4097))
_Ints = tuple[int, ...]
Attrs = Mapping[str, str]
_DRAW_REASONS = {
    "": DrawReason.EXHAUSTIVE,
    "nm": DrawReason.NAGASHI_MANGAN,
    "yao9": DrawReason.KYUUSHU,
    "kaze4": DrawReason.SUUFON_RENDA,
    "reach4": DrawReason.SUUCHA_RIICHI,
    "kan4": DrawReason.SUUKAIKAN,
    "ron3": DrawReason.SANCHAHOU,
}
_ROOMS = {0x00: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}
_DAN_NAMES = [
    "shinjin",
    "9kyu",
    "8kyu",
    "7kyu",
    "6kyu",
    "5kyu",
    "4kyu",
    "3kyu",
    "2kyu",
    "1kyu",
    "1dan",
    "2dan",
    "3dan",
    "4dan",
    "5dan",
    "6dan",
    "7dan",
    "8dan",
    "9dan",
    "10dan",
    "tenhoui",
]

# A player's dan (0..20) and rate ("1500.00") as UN writes them; anything else is
# left out rather than refused: they are not claims the audit checks.
_DAN_TEXTS = frozenset(str(i) for i in range(len(_DAN_NAMES)))
_is_rate = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?").fullmatch

_INIT_HANDS = tuple((f"hai{i}", f"INIT hai{i}") for i in range(4))
_YAKU_BY_ID = {int(y): y for y in Yaku}
_LIMITS = tuple(Limit)  # by code 0..5

# Interned tiles by physical id, one table with red fives and one without.
_TILES_AKA = tuple(Tile(i // 4, i in (16, 52, 88)) for i in range(136))
_TILES_PLAIN = tuple(Tile(i // 4) for i in range(136))


def tile_from_id(tile_id: int, aka: bool = True) -> Tile:
    """The tile of a Tenhou physical id 0..135 (16, 52, 88 are red when aka is on)."""
    return (_TILES_AKA if aka else _TILES_PLAIN)[tile_id]


@dataclass(frozen=True, slots=True)
class _ElementSource:
    """The positions of a file's draws and discards, made only when they are read.

    A draw or discard of the fast path below keeps this object, shared by the whole
    file, and its element number, rather than a SourcePos of its own: a game has a
    thousand of them, and a position is read only for a finding or an error. Its tag
    is the canonical spelling the fast path took it by ("T52", "G135").
    """

    path: str

    def position(self, number: int, ev: Located) -> SourcePos:
        if isinstance(ev, DrawTile | Discard):
            letters = "TUVW" if type(ev) is DrawTile else "DEFG"
            return SourcePos(self.path, number, f"{letters[ev.seat]}{ev.tile_id}", "element")
        return SourcePos(self.path, number)  # only draws and discards are given this source


class _Fail(ValueError):
    """Raised inside tag handlers; turned into LogFormatError with the position."""


# A number: ASCII digits, at most 15 of them, with a sign and spaces around as int()
# allows. int() would take more (other scripts' digits, "_", thousands of digits, the
# last a ValueError of its own) that no log holds.
_INT_TEXT = r"[ \t\r\n]*[-+]?[0-9]{1,15}[ \t\r\n]*"
_is_int = re.compile(_INT_TEXT).fullmatch
_is_int_list = re.compile(rf"{_INT_TEXT}(?:,{_INT_TEXT})*").fullmatch
_is_result = re.compile(r"[ \t\r\n]*[-+]?[0-9]{1,15}(?:\.[0-9]{1,15})?[ \t\r\n]*").fullmatch
_is_long_int = re.compile(r"[ \t\r\n]*[-+]?[0-9]+[ \t\r\n]*").fullmatch


def _short(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to about ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


def _not_int(what: str, text: str) -> _Fail:
    if all(_is_long_int(t) for t in text.split(",")):  # digits only: too many of them
        return _Fail(f"{what} holds a number of more than 15 digits: {_short(text)}")
    return _Fail(
        f"{what} is not {'a list of integers' if ',' in text else 'an integer'}: {_short(text)}"
    )


def _ints(text: str | None, what: str) -> list[int]:
    if text is None:
        raise _Fail(f"missing {what}")
    if not text.strip():
        return []
    if _is_int_list(text) is None:
        raise _not_int(what, text)
    return list(map(int, text.split(",")))


def _int(text: str | None, what: str) -> int:
    if text is None:
        raise _Fail(f"missing {what}")
    if _is_int(text) is None:
        raise _not_int(what, text)
    return int(text)


def _check_ids(ids: list[int], what: str) -> list[int]:
    if ids and (min(ids) < 0 or max(ids) >= 136):
        bad = next(i for i in ids if not 0 <= i < 136)
        raise _Fail(f"{what}: tile id {bad} is outside 0..135")
    return ids


# A tile id as the log writes it, "0" to "135". Looking the text up costs about half
# of int() and checks the range in the same step; anything not in the table (another
# spelling, a bad number) takes the careful path, which words the error.
_ID_OF_TEXT = {str(i): i for i in range(136)}
_id_of_text = _ID_OF_TEXT.__getitem__


def _tile_ids(text: str | None, what: str) -> tuple[int, ...]:
    """A comma-separated list of tile ids, each in 0..135 (empty text: none)."""
    if text:
        try:
            return tuple(map(_id_of_text, text.split(",")))
        except KeyError:
            pass
    return tuple(_check_ids(_ints(text, what), what))


def _tile_id(text: str | None, what: str, range_what: str | None = None) -> int:
    """One tile id in 0..135 (``range_what`` names it when it is out of range)."""
    found = _ID_OF_TEXT.get(text) if text is not None else None
    if found is not None:
        return found
    return _check_ids([_int(text, what)], range_what or what)[0]


_SEAT_OF_TEXT = {str(i): i for i in range(4)}


def decode_meld(who: int, m: int, aka: bool = True) -> Meld:
    """Decode the ``m`` bitfield of an ``N`` tag (or of AGARI ``m``) for caller ``who``.

    Bits 0-1 are the source seat relative to the caller, counted mod 4 in sanma too.
    A code that stands for no meld (outside 0..65535, or naming a tile that does not
    exist) is a ValueError.
    """
    if not 0 <= m <= 0xFFFF:
        raise _Fail(f"meld code {m} is outside 0..65535")
    rel = m & 3
    from_seat = (who + rel) % 4
    if m & 0x4:  # chi
        base_called = m >> 10
        called_index = base_called % 3
        base = base_called // 3
        if base >= 21:  # 7 runs a suit, 3 suits
            raise _Fail(f"meld {m}: chi run {base} is outside 0..20")
        base = (base // 7) * 9 + base % 7
        ids = tuple((base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
        tiles = tuple(tile_from_id(i, aka) for i in ids)
        return Meld(
            MeldKind.CHI, tiles, tiles[called_index], from_seat, None, ids, ids[called_index]
        )
    if m & 0x18:  # pon (bit 3) or kakan (bit 4)
        t4 = (m >> 5) & 3
        base_called = m >> 9
        called_index = base_called % 3
        base = base_called // 3
        if base >= 34:
            raise _Fail(f"meld {m}: tile kind {base} is outside 0..33")
        ids = tuple(base * 4 + c for c in range(4) if c != t4)
        tiles = tuple(tile_from_id(i, aka) for i in ids)
        called, called_id = tiles[called_index], ids[called_index]
        if m & 0x8:
            return Meld(MeldKind.PON, tiles, called, from_seat, None, ids, called_id)
        added_id = base * 4 + t4
        added = tile_from_id(added_id, aka)
        return Meld(
            MeldKind.KAKAN,
            (*tiles, added),
            called,
            from_seat,
            added,
            (*ids, added_id),
            called_id,
            added_id,
        )
    if m & 0x20:  # kita (nuki)
        tile_id = m >> 8
        _check_ids([tile_id], "kita")
        return Meld(MeldKind.KITA, (tile_from_id(tile_id, aka),), None, None, None, (tile_id,))
    tile_id = m >> 8
    _check_ids([tile_id], "kan")
    kind = tile_id // 4
    ids = tuple(kind * 4 + c for c in range(4))
    tiles = tuple(tile_from_id(i, aka) for i in ids)
    if rel == 0:
        return Meld(MeldKind.ANKAN, tiles, None, None, None, ids)
    return Meld(
        MeldKind.DAIMINKAN,
        tiles,
        tile_from_id(tile_id, aka),
        from_seat,
        None,
        ids,
        tile_id,
    )


# A winner's melds are decoded again from AGARI ``m``; melds are values, so the two
# decodings can share one. A small cache is enough for that, and a large one keeps
# thousands of melds alive that are then read from all over memory.
_decode_meld_cached = lru_cache(maxsize=64)(decode_meld)


def _go_type(attrs: Attrs) -> int:
    """The GO ``type`` bitfield (9, a ranked 4-player hanchan, when absent)."""
    gtype = _int(attrs.get("type", "9"), "GO type")
    if not 0 <= gtype <= 0xFFFF:
        raise _Fail(f"GO type {gtype} is outside 0..65535")
    return gtype


def _rules_hint(attrs: Attrs, players_hint: int | None) -> RulesHint:
    gtype = _go_type(attrs)
    players = 3 if gtype & 0x10 else 4
    if players_hint is not None and players_hint != players:
        players = players_hint
    extras = tuple(sorted((str(k), str(v)) for k, v in attrs.items() if k != "type"))
    room = _ROOMS[gtype & 0xA0]
    desc = (
        f"{'3p' if players == 3 else '4p'} {room} "
        f"{'hanchan' if gtype & 0x8 else 'tonpuusen'}"
        f"{'' if gtype & 0x2 else ' aka'}{'' if gtype & 0x4 else ' kuitan'}"
        f"{' fast' if gtype & 0x40 else ''} (GO type {gtype})"
    )
    assumed = None
    if "type" not in attrs:
        # Tenhou writes type on every <GO> (all corpus logs have it); without it the
        # lobby, length and red fives are not known, and type 9 is taken.
        what = "<GO> has no type" if attrs else "the log has no <GO>"
        assumed = f"{what}: GO type 9 assumed ({desc.removesuffix(' (GO type 9)')})"
    return RulesHint(
        source="tenhou-xml",
        players=players,
        aka=not gtype & 0x2,
        kuitan=not gtype & 0x4,
        hanchan=bool(gtype & 0x8),
        fast=bool(gtype & 0x40),
        room=room,
        special_lobby=gtype > 0xFF or "csrule" in attrs,
        description=desc,
        extras=extras,
        assumed_type=assumed,
    )


def _named(names: list[str | None]) -> list[PlayerInfo]:
    return [PlayerInfo(unquote(n or "")) for n in names]


def _player_list(a: Attrs, names: list[str | None]) -> list[PlayerInfo]:
    """The players of the header's UN, with the dan, rate and sex it gives."""
    dans = a.get("dan", "").split(",")
    rates = a.get("rate", "").split(",")
    sexes = a.get("sx", "").split(",")
    players = []
    for i in range(4):
        dan = dans[i] if i < len(dans) else ""
        rate = rates[i] if i < len(rates) else ""
        players.append(
            PlayerInfo(
                unquote(names[i] or ""),
                _DAN_NAMES[int(dan)] if dan in _DAN_TEXTS else None,
                float(rate) if _is_rate(rate) else None,
                sexes[i] if i < len(sexes) and sexes[i] else None,
            )
        )
    return players


class _Reader:
    """Walks the children of <mjloggm> and emits events."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.events: list[Event] = []
        self.aka = True
        self.go: Attrs = {}
        self.players: list[PlayerInfo] = []
        self.started = False
        self.began = SourcePos(path, 0)  # the element that started the game
        self.header_seen: set[str] = set()  # SHUFFLE, GO, UN (the players), TAIKYOKU
        self.hands = 0  # INITs read
        self.seed: str | None = None
        self.first_dealer = 0
        self.last_draw: list[int | None] = [None] * 4
        self.in_round = False
        self.ended = False
        self.n_players = 4
        self.pos = SourcePos(path, 0)

    @property
    def table(self) -> tuple[Tile, ...]:
        return _TILES_AKA if self.aka else _TILES_PLAIN

    def tile(self, tile_id: int) -> Tile:
        return self.table[tile_id]

    def tiles(self, ids: list[int] | tuple[int, ...]) -> tuple[Tile, ...]:
        return tuple(map(self.table.__getitem__, ids))

    def ensure_started(self) -> None:
        if self.started:
            return
        players_hint = None
        if self.players and len(self.players) == 4 and self.players[3].name == "":
            players_hint = 3 if _go_type(self.go) & 0x10 else None
        hint = _rules_hint(self.go, players_hint)
        self.aka = bool(hint.aka)
        self.n_players = hint.players
        players = tuple(self.players) or tuple(PlayerInfo("") for _ in range(4))
        game_id = self.path.rsplit("/", 1)[-1]
        for suffix in (".gz", ".bz2", ".mjlog", ".xml"):
            game_id = game_id.removesuffix(suffix)
        game_id = game_id.split("&", 1)[0]
        self.events.append(
            GameStart(self.pos, game_id, players, hint, self.first_dealer, self.seed)
        )
        self.started = True
        self.began = self.pos

    def header(self, tag: str, before_start: bool = True) -> None:
        """A header element (SHUFFLE, GO, the UN of the players, TAIKYOKU): once a file.

        A header after the hands is a second game, which is refused as the other
        readers refuse one (one game per file). A second one in the header would
        override the first unseen, and one after the game began (``before_start``) is
        dropped: GameStart has been made from what came before it.
        """
        if self.hands:
            raise _Fail(f"a second game starts here (<{tag}> after the hands): one game per file")
        if tag in self.header_seen:
            raise _Fail(f"a second <{tag}> (a game's header has one): one game per file")
        if before_start and self.started:
            raise _Fail(
                f"<{tag}> after the game began (<{self.began.tag}> at element "
                f"{self.began.number}): the header comes first"
            )
        self.header_seen.add(tag)

    # -- tag handlers ---------------------------------------------------------
    def on_shuffle(self, a: Attrs) -> None:
        self.header("SHUFFLE")
        self.seed = a.get("seed")

    def on_go(self, a: Attrs) -> None:
        self.header("GO")
        self.go = {str(k): str(v) for k, v in a.items()}
        self.aka = not _go_type(a) & 0x2

    def on_un(self, a: Attrs) -> None:
        names = [a.get(f"n{i}") for i in range(4)]
        if "dan" in a or None not in names:
            # The header's list of the players (a reconnect names one seat only).
            self.header("UN")
            self.players = _player_list(a, names) if "dan" in a else _named(names)
            return
        if not self.started and not self.players:
            self.header_seen.add("UN")
            self.players = _named(names)
            return
        # A later UN is a reconnect: it names only the seats that came back.
        self.ensure_started()
        for seat, name in enumerate(names):
            if name is not None:
                self.events.append(Presence(self.pos, seat, True))

    def on_bye(self, a: Attrs) -> None:
        self.ensure_started()
        self.events.append(Presence(self.pos, self.seat(a, "who"), False))

    def on_taikyoku(self, a: Attrs) -> None:
        # A BYE may come before it (tenhou-format.md §1.1), and has started the game.
        self.header("TAIKYOKU", before_start=False)
        self.first_dealer = _int(a.get("oya", "0"), "TAIKYOKU oya")
        self.ensure_started()

    def seat(self, a: Attrs, key: str) -> int:
        text = a.get(key)
        seat = _SEAT_OF_TEXT.get(text) if text is not None else None
        if seat is not None:
            return seat
        seat = _int(text, key)
        if not 0 <= seat < 4:
            raise _Fail(f"{key}={seat} is not a seat 0..3")
        return seat

    def on_init(self, a: Attrs) -> None:
        self.ensure_started()
        seed = _ints(a.get("seed"), "INIT seed")
        if len(seed) != 6:
            raise _Fail(f"INIT seed has {len(seed)} numbers, expected 6")
        if min(seed[:3]) < 0:
            raise _Fail("INIT seed: the round, honba and riichi sticks cannot be negative")
        if seed[0] > 15:
            raise _Fail(f"INIT seed: round {seed[0]} is outside 0..15 (E1 to N4)")
        if not (0 <= seed[3] <= 5 and 0 <= seed[4] <= 5):
            raise _Fail(f"INIT seed: dice {seed[3]},{seed[4]} are outside 0..5")
        ten = _ints(a.get("ten"), "INIT ten")
        if len(ten) != 4:
            raise _Fail(f"INIT ten has {len(ten)} numbers, expected 4")
        dealer = self.seat(a, "oya")
        hand_ids: list[tuple[int, ...]] = []
        players = self.n_players
        for seat, (key, what) in enumerate(_INIT_HANDS):
            ids = _tile_ids(a.get(key, ""), what)
            if seat < players and len(ids) != 13:
                if key not in a:
                    raise _Fail(f"INIT has no {key}: every seat is dealt 13 tiles")
                if not ids:
                    raise _Fail(f"{what} is empty in a {players}-player game")
                raise _Fail(f"{what} has {len(ids)} tiles, expected 13")
            if seat >= players and ids:
                raise _Fail(
                    f"{what} deals {len(ids)} tiles in a three-player game "
                    f"(GO type {_go_type(self.go)} has the three-player bit 0x10)"
                )
            hand_ids.append(ids)
        _check_ids([seed[5]], "INIT dora indicator")
        self.last_draw[:] = [None] * 4  # cleared in place: the parse loop holds it
        self.in_round = True
        self.hands += 1
        self.events.append(
            RoundStart(
                self.pos,
                round_index=seed[0],
                honba=seed[1],
                riichi_sticks=seed[2],
                dealer=dealer,
                scores=tuple([t * 100 for t in ten]),
                dora_indicator=self.tile(seed[5]),
                hands=tuple(map(self.tiles, hand_ids)),
                dice=(seed[3] + 1, seed[4] + 1),
                dora_indicator_id=seed[5],
                hand_ids=tuple(hand_ids),
                shuffle=a.get("shuffle"),
            )
        )

    def need_round(self, what: str) -> None:
        if not self.in_round:
            raise _Fail(f"{what} outside a hand (no INIT before it)")

    def on_n(self, a: Attrs) -> None:
        self.need_round("N")
        who = self.seat(a, "who")
        meld = _decode_meld_cached(who, _int(a.get("m"), "N m"), self.aka)
        if meld.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN):
            self.last_draw[who] = None
        self.events.append(DeclareMeld(self.pos, who, meld))

    def on_reach(self, a: Attrs) -> None:
        self.need_round("REACH")
        who = self.seat(a, "who")
        step = _int(a.get("step"), "REACH step")
        if step == 1:
            self.events.append(RiichiDeclared(self.pos, who))
        elif step == 2:
            ten = a.get("ten")
            scores = None
            if ten:
                values = _ints(ten, "REACH ten")
                if len(values) != 4:  # Tenhou writes four scores, sanma too (as INIT)
                    raise _Fail(f"REACH ten has {len(values)} numbers, expected 4")
                scores = tuple(t * 100 for t in values)
            self.events.append(RiichiAccepted(self.pos, who, scores))
        else:
            raise _Fail(f"REACH step={step}, expected 1 or 2")

    def on_dora(self, a: Attrs) -> None:
        self.need_round("DORA")
        tile_id = _tile_id(a.get("hai"), "DORA hai", "DORA")
        self.events.append(DoraReveal(self.pos, self.tile(tile_id), tile_id))

    def score_pairs(self, a: Attrs) -> tuple[_Ints, _Ints, _Ints | None]:
        sc = _ints(a.get("sc"), "sc")
        if len(sc) not in (8, 16):
            raise _Fail(f"sc has {len(sc)} numbers, expected 8 (or 16 with chips)")
        before = tuple([t * 100 for t in sc[0:8:2]])
        deltas = tuple([t * 100 for t in sc[1:8:2]])
        extra = tuple(sc[9:16:2]) if len(sc) == 16 else None
        return before, deltas, extra

    def on_agari(self, a: Attrs) -> None:
        self.need_round("AGARI")
        who = self.seat(a, "who")
        from_who = self.seat(a, "fromWho")
        ba = _ints(a.get("ba"), "AGARI ba")
        if len(ba) != 2:
            raise _Fail("AGARI ba must be 'honba,sticks'")
        ten = _ints(a.get("ten"), "AGARI ten")
        if len(ten) != 3:
            raise _Fail("AGARI ten must be 'fu,points,limit'")
        if not 0 <= ten[2] <= 5:
            raise _Fail(f"AGARI limit code {ten[2]} is outside 0..5")
        hand_ids = _tile_ids(a.get("hai"), "AGARI hai")
        machi = _tile_id(a.get("machi"), "AGARI machi")
        aka = self.aka
        meld_codes = a.get("m")
        melds = (
            tuple([_decode_meld_cached(who, m, aka) for m in _ints(meld_codes, "AGARI m")])
            if meld_codes
            else ()
        )
        yaku: tuple[tuple[Yaku, int], ...] | None = None
        yakuman: tuple[Yaku, ...] | None = None
        han: int | None = None
        if "yaku" in a:
            flat = _ints(a["yaku"], "AGARI yaku")
            if len(flat) % 2:
                raise _Fail("AGARI yaku must be id,han pairs")
            yaku = tuple(zip(map(self.yaku_id, flat[0::2]), flat[1::2], strict=True))
            han = sum(flat[1::2])
        if "yakuman" in a:
            yakuman = tuple(self.yaku_id(i) for i in _ints(a["yakuman"], "AGARI yakuman"))
        if yaku is None and yakuman is None:
            raise _Fail("AGARI has neither yaku nor yakuman")
        dora_ids = _tile_ids(a.get("doraHai", ""), "doraHai")
        ura_text = a.get("doraHaiUra")
        ura_ids = _tile_ids(ura_text, "doraHaiUra") if ura_text is not None else None
        before, deltas, extra = self.score_pairs(a)
        pao = self.seat(a, "paoWho") if "paoWho" in a else None
        claims = WinClaims(
            hand=self.tiles(hand_ids),
            hand_ids=hand_ids,
            win_tile=self.tile(machi),
            win_tile_id=machi,
            melds=melds,
            han=han,
            fu=ten[0],
            points=ten[1],
            limit=_LIMITS[ten[2]],
            yaku=yaku,
            yakuman=yakuman,
            dora_indicators=self.tiles(dora_ids),
            dora_indicator_ids=dora_ids,
            ura_indicators=self.tiles(ura_ids) if ura_ids is not None else None,
            ura_indicator_ids=ura_ids,
            honba=ba[0],
            riichi_sticks=ba[1],
            scores_before=before,
            deltas=deltas,
            pao_seat=pao,
            extra_deltas=extra,
        )
        self.events.append(Win(self.pos, who, from_who, claims))
        self.end_round(a)

    def yaku_id(self, value: int) -> Yaku:
        try:
            return _YAKU_BY_ID[value]
        except KeyError:
            raise _Fail(f"unknown yaku id {value}") from None

    def on_ryuukyoku(self, a: Attrs) -> None:
        self.need_round("RYUUKYOKU")
        kind = a.get("type", "")
        try:
            reason = _DRAW_REASONS[kind]
        except KeyError:
            raise _Fail(f"unknown RYUUKYOKU type {kind!r}") from None
        ba = _ints(a.get("ba"), "RYUUKYOKU ba")
        if len(ba) != 2:
            raise _Fail("RYUUKYOKU ba must be 'honba,sticks'")
        hands = []
        shown_ids = []
        for i in range(4):
            if f"hai{i}" in a:
                ids = _tile_ids(a[f"hai{i}"], f"hai{i}")
                hands.append((i, self.tiles(ids)))
                shown_ids.append((i, ids))
        before, deltas, _ = self.score_pairs(a)
        tenpai = (
            tuple(seat for seat, _ in hands)
            if reason in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)
            else None
        )
        claims = DrawClaims(
            tenpai, tuple(hands), ba[0], ba[1], before, deltas, hand_ids=tuple(shown_ids)
        )
        self.events.append(RoundDraw(self.pos, reason, claims))
        self.end_round(a)

    def end_round(self, a: Attrs) -> None:
        owari = a.get("owari")
        if owari is None:
            return
        parts = owari.split(",")
        if len(parts) < 8 or len(parts) % 2:
            raise _Fail(f"owari has {len(parts)} values, expected score,result pairs")
        if not all(map(_is_int, parts[0:8:2])) or not all(map(_is_result, parts[1:8:2])):
            raise _Fail(f"owari is not numeric: {_short(owari)}")
        finals = tuple(int(parts[i]) * 100 for i in range(0, 8, 2))
        results = tuple(float(parts[i]) for i in range(1, 8, 2))
        texts = tuple(parts[i] for i in range(1, 8, 2))
        self.events.append(GameEnd(self.pos, EndClaims(finals, results, texts)))
        self.in_round = False
        self.ended = True


# Control characters (a newline in an attribute, say) shown escaped: a message is one line.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(32), 127)}


# Tenhou's elements have at most about fifteen attributes. lxml finds an attribute's
# value by its name, so reading every attribute of an element costs the square of
# their number: an element with more than this is refused before any is read.
_MAX_ATTRIBUTES = 64


def _describe(el: etree._Element) -> str:
    # The first few attributes only: each value is a look-up by name (see above).
    shown = [f'{k!s}="{el.get(k)!s}"' for k in islice(el.keys(), 8)]
    attrs = " ".join(shown) + (" ..." if len(el.attrib) > len(shown) else "")
    text = f"<{el.tag}{' ' + attrs if attrs else ''}/>"
    text = text if len(text) <= 80 else text[:77] + "...>"
    return text.translate(_CONTROLS)


_PARSER_OPTIONS = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "dtd_validation": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}


def parse_tenhou_xml(data: bytes, path: str) -> GameLog:
    """Parse one mjlog document (already un-gzipped) into a GameLog.

    A document in the plain form Tenhou writes is read from its bytes
    (:func:`_read_plain`); any other, and any document with a problem, is read by lxml,
    whose reading words every error. Both give the same events.
    """
    if data.isascii():
        log = _read_plain(data, path)
        if log is not None:
            return log
    return _read_lxml(data, path)


def _read_lxml(data: bytes, path: str) -> GameLog:
    """The GameLog of any mjlog document, read by lxml; a LogFormatError for a bad one."""
    # Imported here, not with the module: a plain mjlog (every log Tenhou writes) and
    # the other formats never need it, and importing it is a few milliseconds of every
    # command's start.
    from lxml import etree

    parser = etree.XMLParser(**_PARSER_OPTIONS)  # type: ignore[arg-type]
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (0, 0)
        # libxml2 may add ", line L, column C" on a line of its own: the position is
        # given once, in front, so the message keeps to its first line.
        msg = str(exc.msg).split("\n", 1)[0].strip()
        where = f"line {line}, column {col}"
        raise LogFormatError(path, where, f"not well-formed XML: {msg}") from None
    tree = root.getroottree()
    docinfo: Any = tree.docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise LogFormatError(
            path, "line 1", "a DOCTYPE is not allowed in an mjlog (entities are never resolved)"
        )
    if root.tag != "mjloggm":
        where = f"line {root.sourceline}"
        raise LogFormatError(path, where, f"root element is <{root.tag}>, expected <mjloggm>")
    reader = _Reader(path)
    index = 0
    events = reader.events
    last_draw = reader.last_draw
    table = reader.table
    in_round = False
    new_pos = tuple.__new__
    hot_tags = _HOT_TAGS
    add = events.append
    source = _ElementSource(path)
    for index, el in zip(chain(_NUMBERS, count(len(_NUMBERS) + 1)), root, strict=False):
        tag = el.tag
        hot = hot_tags.get(tag)
        if hot is not None and in_round:
            # The hot path: one draw or discard, decoded by a single lookup, that
            # keeps the file's shared source and its number for a position.
            is_draw, seat, tile_id = hot
            if is_draw:
                last_draw[seat] = tile_id
                add(make_draw(source, seat, table[tile_id], tile_id, index))
            else:
                # mjlog does not mark tsumogiri: it is a discard of the tile that same
                # seat drew last, with no call in between (tenhou-format.md §1.7).
                tsumogiri = last_draw[seat] == tile_id
                add(make_discard(source, seat, table[tile_id], tsumogiri, tile_id, index))
                last_draw[seat] = None
            continue
        if not isinstance(tag, str):  # entity references and the like
            where = f"line {el.sourceline}"
            raise LogFormatError(path, where, "unexpected non-element node (entity reference?)")
        try:
            if len(el.attrib) > _MAX_ATTRIBUTES:
                raise _Fail(f"{len(el.attrib)} attributes (at most {_MAX_ATTRIBUTES})")
            # The other elements keep a position of their own, built as a plain tuple,
            # which is several times cheaper than the named tuple's own constructor.
            _element(reader, new_pos(SourcePos, (path, index, tag, "element")), tag, el.attrib)
        except _Fail as exc:
            raise LogFormatError(path, f"element {index}", f"{_describe(el)}: {exc}") from None
        table = reader.table  # GO may switch red fives off
        in_round = reader.in_round
    if not reader.hands:
        # As the other readers: a header alone (a log cut before its first hand, or
        # an empty <mjloggm>) is no game to audit.
        raise LogFormatError(path, f"element {index}", "no hand in this file (no INIT)")
    # A log without owari stops before the game's result: it has no GameEnd, so the
    # hands it holds are audited and the audit reports the game as incomplete.
    return GameLog(path, "tenhou-xml", tuple(reader.events))


def _element(reader: _Reader, pos: SourcePos, tag: str, attrs: Attrs) -> None:
    """An element the parse loops' hot path does not take: a draw or discard spelt
    otherwise ("T0012", "D136") or outside a hand, or any other tag, to its handler."""
    spec = _TILE_LETTERS.get(tag[:1])
    number = tag[1:]
    if spec is not None and number.isascii() and number.isdigit():
        if not reader.in_round:
            raise _Fail("draw or discard outside a hand (no INIT before it)")
        if len(number) > 6:
            raise _Fail(f"tile id {_short(number)} is outside 0..135")
        tile_id = int(number)
        if tile_id >= 136:
            raise _Fail(f"tile id {tile_id} is outside 0..135")
        is_draw, seat = spec
        last_draw = reader.last_draw
        if is_draw:
            last_draw[seat] = tile_id
            reader.events.append(make_draw(pos, seat, reader.table[tile_id], tile_id))
        else:
            tsumogiri = last_draw[seat] == tile_id
            reader.events.append(make_discard(pos, seat, reader.table[tile_id], tsumogiri, tile_id))
            last_draw[seat] = None
        return
    handler = _HANDLERS.get(tag)
    if handler is None:
        raise _Fail(f"unknown tag <{tag if len(tag) <= 20 else tag[:20] + '...'}>")
    reader.pos = pos
    handler(reader, attrs)


_HANDLERS: dict[str, Callable[[_Reader, Attrs], None]] = {
    "SHUFFLE": _Reader.on_shuffle,
    "GO": _Reader.on_go,
    "UN": _Reader.on_un,
    "BYE": _Reader.on_bye,
    "TAIKYOKU": _Reader.on_taikyoku,
    "INIT": _Reader.on_init,
    "N": _Reader.on_n,
    "REACH": _Reader.on_reach,
    "DORA": _Reader.on_dora,
    "AGARI": _Reader.on_agari,
    "RYUUKYOKU": _Reader.on_ryuukyoku,
}

# The plain form of an mjlog, read from its bytes: ASCII; the root element, then one
# self-closing element after another, spaces and line feeds between them at most;
# names of ASCII letters, digits and "_"; every attribute value in double quotes; no
# "&" (no entity or character reference), no control character but the line feed
# (none in a value: XML refuses most, and makes a tab or a line break in a value a
# space), no comment, processing instruction, DOCTYPE or CDATA section (their "<"
# is followed by "!" or "?", not a name), no namespace (no "xmlns" anywhere). Every
# "<" of such a document opens an element, so its parts between them are its
# elements in order.
_PLAIN_ATTRS = rb'((?:[ \n]+[A-Za-z_][A-Za-z0-9_]*="[^"]*")*)[ \n]*'
_plain_root = re.compile(rb"mjloggm" + _PLAIN_ATTRS + rb">[ \n]*").fullmatch
_plain_element = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)" + _PLAIN_ATTRS + rb"/>[ \n]*").fullmatch
_plain_attrs = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="([^"]*)"').findall
_NOT_PLAIN = bytes([*range(0x0A), 0x0B, 0x0C, *range(0x0D, 0x20), ord("&")])
_PLAIN_END = b"/mjloggm>"
_SPACES = b" \n"
# Every plain draw and discard as it stands between two "<" ("T52/>", "G135/>").
_HOT_PIECES = {f"{tag}/>".encode(): hot for tag, hot in _HOT_TAGS.items()}
# An element longer than this (Tenhou's longest are a few hundred bytes) is left to
# lxml, which bounds what it reads (huge_tree off).
_PLAIN_LIMIT = 65536


def _read_plain(data: bytes, path: str) -> GameLog | None:
    """The GameLog of an ASCII mjlog in the plain form Tenhou writes; None for any
    other document, and for a plain one with any problem: lxml reads those again.

    The same events as lxml's reading, without an element object, a tag string and
    a lookup per element: a draw or discard is one lookup of its bytes.
    """
    if len(data.translate(None, _NOT_PLAIN)) != len(data) or b"xmlns" in data:
        return None  # a namespace (declared by an xmlns attribute) changes names
    pieces = data.split(b"<")
    if (
        len(pieces) < 3
        or pieces[0]
        or _plain_root(pieces[1]) is None
        or pieces[-1].rstrip(_SPACES) != _PLAIN_END
    ):
        return None
    reader = _Reader(path)
    events = reader.events
    last_draw = reader.last_draw
    table = reader.table
    in_round = False
    new_pos = tuple.__new__
    hot_pieces, hot_tags = _HOT_PIECES, _HOT_TAGS
    add = events.append
    source = _ElementSource(path)
    numbers = chain(_NUMBERS, count(len(_NUMBERS) + 1))
    try:
        for index, piece in zip(numbers, islice(pieces, 2, len(pieces) - 1), strict=False):
            hot = hot_pieces.get(piece)
            if hot is None or not in_round:
                found = _plain_element(piece) if len(piece) <= _PLAIN_LIMIT else None
                if found is None:
                    return None
                tag = found[1].decode()
                hot = hot_tags.get(tag)
                if hot is None or not in_round:
                    text = found[2]
                    pairs = _plain_attrs(text.decode())
                    attrs = dict(pairs)
                    if len(attrs) != len(pairs) or len(attrs) > _MAX_ATTRIBUTES:
                        return None  # an attribute twice (not XML), or too many
                    if b"\n" in text and any("\n" in value for value in attrs.values()):
                        return None  # lxml reads a line feed in a value as a space
                    _element(reader, new_pos(SourcePos, (path, index, tag, "element")), tag, attrs)
                    table = reader.table
                    in_round = reader.in_round
                    continue
            # The hot path of _read_lxml's loop, for the same elements, written out in
            # both loops: a call per draw or discard would cost a third of what reading
            # the bytes saves (164 M instructions over the Tenhou corpus).
            is_draw, seat, tile_id = hot
            if is_draw:
                last_draw[seat] = tile_id
                add(make_draw(source, seat, table[tile_id], tile_id, index))
            else:
                tsumogiri = last_draw[seat] == tile_id
                add(make_discard(source, seat, table[tile_id], tsumogiri, tile_id, index))
                last_draw[seat] = None
    except _Fail:
        return None
    if not reader.hands:
        return None
    return GameLog(path, "tenhou-xml", tuple(reader.events))
