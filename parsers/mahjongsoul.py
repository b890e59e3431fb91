"""Mahjong Soul's own game records -> format-neutral events.

Two layouts reach users (../shared/corpus/mahjongsoul/SOURCES.md):

- a decoded ``.lq.GameDetailRecords``: ``{head, data: {name, data: {version,
  actions[]}}}`` where each action of ``type`` 1 holds one record as ``result:
  {name: ".lq.RecordNewRound", data}`` (version 210715; an older version lists
  ``records[]`` of ``{name, data}`` instead of ``actions``);
- the older ``{meta, records[]}`` (the head under ``meta``), keys in camelCase.

Both are read alike: keys are taken in snake_case whichever way they are written,
the ``.lq.`` prefix of a record's name is dropped, and a field protobuf left out is
its default (0, false, empty; a missing ``seat`` is seat 0). The record numbers
positions: ``action 17 <RecordDiscardTile>`` (the index in ``actions``) or
``record 17 <RecordDiscardTile>`` (the index in ``records``).

Each RecordNewRound commits to the hand's wall (``paishan``, with its ``md5`` or
``sha256``): the RoundStart carries both, for the wall check. Dora indicators are
turned where the record first shows them: an ankan's on the replacement draw (so
before it), an open kan's on the kanner's discard (so after it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from mjaudit.errors import LogFormatError, SourcePos
from mjaudit.events import (
    DeclareMeld,
    DoraReveal,
    DrawClaims,
    DrawReason,
    EndClaims,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Limit,
    Located,
    PlayerInfo,
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
from parsers.json_text import BadJson, json_reader, short
from parsers.mahjongsoul_names import (
    FAN_IDS,
    KITA_FAN,
    LIUJU_KINDS,
    MODE_NAMES,
    RANKED_ROOMS,
    ROUND_WIND_FAN,
    SEAT_WIND_FAN,
    rank_text,
)

__all__ = ["is_mahjongsoul", "parse_mahjongsoul", "parse_mahjongsoul_object"]

_CAMEL = re.compile(r"(?<!^)([A-Z])")
_SEAT_WIND = (Yaku.SEAT_WIND_EAST, Yaku.SEAT_WIND_SOUTH, Yaku.SEAT_WIND_WEST, Yaku.SEAT_WIND_NORTH)
_ROUND_WIND = (
    Yaku.ROUND_WIND_EAST,
    Yaku.ROUND_WIND_SOUTH,
    Yaku.ROUND_WIND_WEST,
    Yaku.ROUND_WIND_NORTH,
)
_DORA_FAN = 31
_CATEGORIES = {1: "friendly", 2: "ranked", 4: "tournament"}
_RECORD_NAMES = frozenset(
    {
        "RecordNewRound",
        "RecordDealTile",
        "RecordDiscardTile",
        "RecordChiPengGang",
        "RecordAnGangAddGang",
        "RecordBaBei",
        "RecordHule",
        "RecordNoTile",
        "RecordLiuJu",
    }
)


class _Fail(Exception):
    """A problem inside one record; the caller adds the file and the position."""


def _snake(key: str) -> str:
    """``key`` in snake_case. A record's own keys are short and few, and kept once
    renamed; a long key (a hostile file's) is renamed each time, not kept in memory
    for the process's later inputs."""
    found = _SNAKE_KEYS.get(key)
    if found is None:
        found = _CAMEL.sub(r"_\1", key).lower() if not key.islower() else key
        if len(key) <= _CACHED_KEY and len(_SNAKE_KEYS) < _SNAKE_KEPT:
            _SNAKE_KEYS[key] = found
    return found


_CACHED_KEY = 64
# The keys renamed so far: a record format has a few hundred; bounded all the same.
_SNAKE_KEYS: dict[str, str] = {}
_SNAKE_KEPT = 4096


# What JSON decodes that holds no key to rename.
_PLAIN = frozenset({int, str, bool, float, type(None)})

# A record's fields the reader never reads, whose values are kept as they are, their
# inner keys not renamed: what a seat was offered to do (``operation``,
# ``operations``) and the waits the client showed (``tingpais``). They are most of a
# camelCase record's nested objects (about two fifths of the corpus's).
_UNREAD = frozenset({"operation", "operations", "tingpais"})


def _norm(value: Any) -> Any:
    """``value`` with every object key in snake_case (camelCase records).

    A walk with a stack of its own, not a recursive one: a value may be nested as
    deeply as the JSON reader takes, more than Python's stack has left by then. A
    plain value, or a list of them, is kept as it is without a call (most of a
    record's values: tiles, scores, ids), and so is the value of a field the reader
    never reads (``_UNREAD``)."""
    top = _shell(value)
    todo = [(value, top)] if top is not value else []
    plain, keys, unread = _PLAIN, _SNAKE_KEYS, _UNREAD
    while todo:
        source, copy = todo.pop()
        if isinstance(source, dict):
            for k, v in source.items():
                kind = type(v)
                if (
                    kind in plain
                    or k in unread
                    or (kind is list and plain.issuperset(map(type, v)))
                ):
                    new = v
                else:
                    new = _shell(v)
                    if new is not v:
                        todo.append((v, new))
                copy[keys.get(k) or _snake(k)] = new
        else:
            for v in source:
                new = _shell(v)
                copy.append(new)
                if new is not v:
                    todo.append((v, new))
    return top


def _shell(value: Any) -> Any:
    """An empty dict or list that :func:`_norm` fills in place of ``value``, or
    ``value`` itself where there is no key to rename in it."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {}
    if kind is list:
        if _PLAIN.issuperset(map(type, value)):
            return value  # tiles, scores, ids: nothing to rename
        return []
    return value


def _same(value: Any) -> Any:
    return value


def _camel_case(head: dict[str, Any], items: list[Any]) -> bool:
    """Whether the document's keys are camelCase (protobufjs ``toObject``,
    ``MessageToDict``): its head's or its first records' many-word keys say it."""
    samples: list[object] = [head]
    for item in items[:8]:
        if isinstance(item, dict):
            inner = item.get("result", item)
            samples.append(inner.get("data", inner) if isinstance(inner, dict) else None)
    for sample in samples:
        if isinstance(sample, dict):
            for key in sample:
                if "_" in key:
                    return False
                if any(c.isupper() for c in key):
                    return True
    return True  # undecided: renaming is always right, only slower


def _records_of(obj: dict[str, Any]) -> tuple[dict[str, Any], list[Any], str] | None:
    """(head, records or actions, unit) of a Mahjong Soul document, None if it is not one."""
    head = obj.get("head", obj.get("meta"))
    body: Any = obj.get("data", obj)
    for _ in range(3):  # {data: {name, data: {actions}}}, {data: {actions}}, {actions}
        if not isinstance(body, dict):
            break
        for key, unit in (("actions", "action"), ("records", "record")):
            items = body.get(key)
            if isinstance(items, list):
                return (head if isinstance(head, dict) else {}), items, unit
        body = body.get("data")
    return None


def is_mahjongsoul(obj: object) -> bool:
    """Whether a parsed JSON document is a Mahjong Soul record (either layout)."""
    if not isinstance(obj, dict) or "log" in obj:
        return False
    found = _records_of(obj)
    if found is None:
        # A game head whose records were not decoded (the protobuf bytes, or only the
        # ``data_url`` they can be fetched from): a Mahjong Soul file all the same,
        # refused by the reader with that reason.
        head = obj.get("head")
        return isinstance(head, dict) and "uuid" in head and ("data" in obj or "data_url" in obj)
    head, items, _ = found
    if "uuid" in head or "config" in head:
        return True
    for item in items[:3]:
        if isinstance(item, dict):
            inner = item.get("result", item)
            name = inner.get("name") if isinstance(inner, dict) else None
            if isinstance(name, str) and name.removeprefix(".lq.") in _RECORD_NAMES:
                return True
    return False


def parse_mahjongsoul(data: bytes, path: str) -> GameLog:
    """Parse the bytes of a Mahjong Soul record (``.json`` or ``.txt``) into a GameLog."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(path, f"byte {exc.start}", "not UTF-8 text") from None
    try:
        obj = json_reader(data)(text)
    except BadJson as exc:
        raise LogFormatError(
            path, exc.where or "top level", f"not valid JSON: {exc.message}"
        ) from None
    return parse_mahjongsoul_object(obj, path)


def parse_mahjongsoul_object(obj: object, path: str) -> GameLog:
    """A GameLog from an already-parsed Mahjong Soul document."""
    if not isinstance(obj, dict):
        raise LogFormatError(path, "top level", "not a Mahjong Soul record: expected an object")
    found = _records_of(obj)
    if found is None:
        if isinstance(obj.get("head"), dict):
            raise LogFormatError(
                path,
                "data",
                "a Mahjong Soul game whose records are not decoded (no 'actions' or "
                "'records' list): decode its GameDetailRecords first",
            )
        raise LogFormatError(
            path, "top level", "not a Mahjong Soul record: no 'actions' or 'records' list"
        )
    head, items, unit = found
    # Decoders write one spelling for the whole document: only a camelCase one is
    # renamed, record by record (a snake_case one is read as it is).
    camel = _camel_case(head, items)
    norm = _norm if camel else _same
    return _Reader(path, norm(head), unit, norm).read(items)


def _iter_records(
    items: list[Any], unit: str, norm: Callable[[Any], Any]
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(index, record name, record data) of each game record, in order."""
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise _Fail(f"{unit} {k}: expected an object, not {short(item)}")
        if unit == "action":
            kind = item.get("type", 0)
            if kind != 1:
                continue  # user input, user and game events: not part of the record
            inner = item.get("result")
        else:
            inner = item
        if not isinstance(inner, dict):
            raise _Fail(f"{unit} {k}: a record without its decoded 'result' ({short(inner)})")
        name = inner.get("name")
        if not isinstance(name, str):
            raise _Fail(f"{unit} {k}: a record without a 'name'")
        if "data" in inner:
            rec = inner["data"]
        else:  # a decoder that writes the record's fields beside its name
            rec = {key: value for key, value in inner.items() if key != "name"}
        if not isinstance(rec, dict):
            raise _Fail(
                f"{unit} {k} ({name}): 'data' is {short(rec)}, not a decoded record "
                "(decode the protobuf first)"
            )
        yield k, name.removeprefix(".lq."), norm(rec)


# Every tile's text (0m..9m, 0p..9p, 0s..9s, 1z..7z), looked up: a record names a tile
# per action.
_TILES: dict[str, Tile] = {
    f"{d}{suit}": Tile(f"{d}{suit}")
    for suit, digits in (
        ("m", "0123456789"),
        ("p", "0123456789"),
        ("s", "0123456789"),
        ("z", "1234567"),
    )
    for d in digits
}


def _tile(value: object) -> Tile:
    tile = _TILES.get(value) if isinstance(value, str) else None
    if tile is None:
        raise _Fail(f"{short(value)} is not a tile (1m..9m, 0m for the red five, 1z..7z)")
    return tile


def _tiles(value: object, what: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _Fail(f"'{what}' is {short(value)}, not a list of tiles")
    return tuple(_tile(v) for v in value)


def _int(rec: dict[str, Any], key: str, default: int = 0) -> int:
    value = rec.get(key, default)
    if type(value) is not int:
        raise _Fail(f"'{key}' is {short(value)}, not a whole number")
    return value


def _ints(value: object, what: str, size: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) < size or any(type(v) is not int for v in value):
        raise _Fail(f"'{what}' is {short(value)}, not {size} whole numbers")
    return tuple(value[:size])


def _pad(values: tuple[int, ...]) -> tuple[int, ...]:
    """Four entries, as every format gives them: a 3-player game's fourth seat is 0."""
    return values + (0,) * (4 - len(values))


def _flag(rec: dict[str, Any], key: str) -> bool:
    return rec.get(key) is True


class _Records:
    """The positions of a game's events: each event keeps this source and the number
    of its record, whose SourcePos is made when something reads it."""

    __slots__ = ("keys", "path", "unit")

    def __init__(self, path: str, unit: str, keys: list[tuple[int, str]]) -> None:
        self.path = path
        self.unit = unit
        self.keys = keys  # each record's number in the file and its name

    def at(self, number: int) -> SourcePos:
        if not self.keys:
            return SourcePos(self.path, 0, "", self.unit)
        k, name = self.keys[number]
        return SourcePos(self.path, k, name, self.unit)

    def position(self, number: int, ev: Located) -> SourcePos:
        return self.at(number)


class _Reader:
    """Turns the records of one game into events."""

    def __init__(
        self, path: str, head: dict[str, Any], unit: str, norm: Callable[[Any], Any]
    ) -> None:
        self.path = path
        self.head = head
        self.unit = unit
        self.norm = norm
        self.events: list[Event] = []
        self.players = 4
        self.src = _Records(path, unit, [])
        self.at = 0  # the number of the record being read, in self.src
        self.started = False
        # per hand
        self.round_index = 0
        self.dealer = 0
        self.doras: list[Tile] = []
        self.melds: list[list[Meld]] = []
        self.scores: list[int] = []
        self.last_discarder: int | None = None
        self.last_kan: tuple[int, Tile] | None = None  # a kan or kita that can be robbed
        self.red_suits: set[str] = set()
        self.in_round = False
        self.riichi = 0  # riichi accepted in this hand
        self.kans = 0  # kans made in this hand

    # -- the game ------------------------------------------------------------------

    def read(self, items: list[Any]) -> GameLog:
        try:
            records = list(_iter_records(items, self.unit, self.norm))
        except _Fail as exc:
            raise LogFormatError(self.path, "top level", str(exc)) from None
        self.players = self.player_count(records)
        self.src = _Records(self.path, self.unit, [(k, name) for k, name, _ in records])
        for at, (_, name, rec) in enumerate(records):
            self.at = at
            try:
                self.handle(name, rec)
            except _Fail as exc:
                raise LogFormatError(self.path, self.src.at(at).where, str(exc)) from None
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise LogFormatError(
                    self.path, self.src.at(at).where, f"malformed {name}: {exc}"
                ) from None
        if not self.started:
            raise LogFormatError(self.path, "top level", "no RecordNewRound: not a game record")
        self.events.append(GameEnd(self.src, self.end_claims(), self.at))
        return GameLog(self.path, "mahjongsoul", tuple(self.events))

    def player_count(self, records: list[tuple[int, str, dict[str, Any]]]) -> int:
        mode = self.mode()
        if mode in MODE_NAMES:
            return MODE_NAMES[mode][0]
        for _, name, rec in records:
            if name == "RecordNewRound":
                return 4 if rec.get("tiles3") or len(rec.get("scores") or ()) == 4 else 3
        return 4

    def config(self) -> dict[str, Any]:
        config = self.head.get("config")
        return config if isinstance(config, dict) else {}

    def mode(self) -> int | None:
        mode = self.config().get("mode")
        value = mode.get("mode") if isinstance(mode, dict) else None
        return value if type(value) is int else None

    def detail_rule(self) -> dict[str, Any]:
        mode = self.config().get("mode")
        rule = mode.get("detail_rule") if isinstance(mode, dict) else None
        return rule if isinstance(rule, dict) else {}

    def game_start(self) -> GameStart:
        players = self.player_infos()
        game_id = self.head.get("uuid")
        if not isinstance(game_id, str) or not game_id:
            game_id = self.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return GameStart(self.src, game_id, players, self.rules_hint(players), 0, None, self.at)

    def player_infos(self) -> tuple[PlayerInfo, ...]:
        names: list[PlayerInfo] = [PlayerInfo("AI") for _ in range(self.players)]
        accounts = self.head.get("accounts")
        level_key = "level3" if self.players == 3 else "level"
        for acc in accounts if isinstance(accounts, list) else ():
            if not isinstance(acc, dict):
                continue
            seat = acc.get("seat", 0)
            if type(seat) is not int or not 0 <= seat < self.players:
                continue
            name = acc.get("nickname")
            level = acc.get(level_key)
            dan = rate = None
            if isinstance(level, dict) and type(level.get("id")) is int:
                dan = rank_text(level["id"])
                score = level.get("score", 0)
                rate = float(score) if type(score) is int and dan is not None else None
            names[seat] = PlayerInfo(
                name if isinstance(name, str) and name else "(no name)", dan, rate
            )
        # A 3-player game lists an empty fourth seat, as the Tenhou formats do.
        return tuple(names) + (PlayerInfo(""),) * (4 - self.players)

    def category(self, players: tuple[PlayerInfo, ...]) -> str | None:
        accounts = self.head.get("accounts")
        humans = len(accounts) if isinstance(accounts, list) else self.players
        if humans < self.players:
            return "ai"
        raw = self.config().get("category")
        return _CATEGORIES.get(raw) if type(raw) is int else None

    def rules_hint(self, players: tuple[PlayerInfo, ...]) -> RulesHint:
        mode = self.mode()
        category = self.category(players)
        meta = self.config().get("meta")
        meta = meta if isinstance(meta, dict) else {}
        mode_id = meta.get("mode_id")
        room = None
        length = MODE_NAMES[mode][1] if mode in MODE_NAMES else None
        if category == "ranked" and type(mode_id) is int and mode_id in RANKED_ROOMS:
            room, _, length = RANKED_ROOMS[mode_id]
        stated = tuple(
            sorted(
                (_snake(k), _text(v))
                for k, v in self.detail_rule().items()
                if not isinstance(v, dict | list)
            )
        )
        rule = self.detail_rule()
        aka: bool | None = None
        if "dora_count" in rule and type(rule["dora_count"]) is int:
            aka = rule["dora_count"] > 0
        elif category == "ranked":
            aka = True
        kuitan: bool | None = None
        if "shiduan" in rule and type(rule["shiduan"]) is int:
            kuitan = rule["shiduan"] == 1
        elif category == "ranked":
            kuitan = True
        hanchan = {"East": False, "South": True}.get(length or "")
        kind = {
            "ranked": f"ranked, {room.title()} Room {length}" if room else "ranked",
            "friendly": "friendly room",
            "tournament": "tournament room",
            "ai": "game against the AI",
        }.get(category or "", "room not stated")
        desc = f"Mahjong Soul {self.players}p {kind}"
        if length and "Room" not in kind:
            desc += f", {length}"
        extras: list[tuple[str, str]] = []
        if mode is not None:
            extras.append(("mode", str(mode)))
        if type(mode_id) is int:
            extras.append(("mode_id", str(mode_id)))
        for key in ("room_id", "contest_uid"):
            if type(meta.get(key)) is int:
                extras.append((key, str(meta[key])))
        return RulesHint(
            source="mahjongsoul",
            players=self.players,
            aka=aka,
            kuitan=kuitan,
            hanchan=hanchan,
            fast=None,
            room=room,
            special_lobby=False,
            description=desc,
            extras=tuple(extras),
            platform="mahjongsoul",
            category=category,
            stated_rules=stated,
        )

    def end_claims(self) -> EndClaims:
        result = self.head.get("result")
        if result is None:
            return EndClaims()  # a record without its result: not checked, nothing to say
        rows = result.get("players") if isinstance(result, dict) else None
        where = "the record's result (head.result.players)"
        if not isinstance(rows, list) or len(rows) != self.players:
            got = f"{len(rows)} rows" if isinstance(rows, list) else short(rows)
            return EndClaims(unread=f"{where} is {got}, not one row per seat")
        finals: list[int | None] = [None] * self.players
        points: list[float | None] = [None] * self.players
        for k, row in enumerate(rows):
            if not isinstance(row, dict):
                return EndClaims(unread=f"{where}: row {k} is {short(row)}, not an object")
            seat = row.get("seat", 0)
            score = row.get("part_point_1", row.get("part_point1", 0))
            total = row.get("total_point", 0)
            if type(seat) is not int or not 0 <= seat < self.players:
                return EndClaims(unread=f"{where}: row {k}'s seat is {short(seat)}")
            if type(score) is not int or type(total) is not int:
                return EndClaims(
                    unread=f"{where}: row {k}'s points are {short(score)} and {short(total)}, "
                    "not whole numbers"
                )
            if finals[seat] is not None:
                return EndClaims(unread=f"{where}: seat {seat} is listed twice")
            finals[seat] = score
            points[seat] = total / 1000
        if any(v is None for v in finals) or any(v is None for v in points):
            return EndClaims(unread=f"{where}: a seat is missing")
        return EndClaims(
            final_scores=_pad(tuple(v for v in finals if v is not None)),
            results=tuple(v for v in points if v is not None) + (0.0,) * (4 - self.players),
        )

    # -- records -------------------------------------------------------------------

    def handle(self, name: str, rec: dict[str, Any]) -> None:
        if name == "RecordNewRound":
            self.on_new_round(rec)
            return
        if not self.in_round:
            if name in _RECORD_NAMES:
                raise _Fail(f"{name} outside a hand (no RecordNewRound before it)")
            return
        handler = _HANDLERS.get(name)
        if handler is not None:
            handler(self, rec)
        # Any other record (a newer kind) carries nothing the audit reads.

    def seat(self, rec: dict[str, Any], key: str = "seat") -> int:
        seat = rec.get(key, 0)
        if type(seat) is not int or not 0 <= seat < self.players:
            raise _Fail(f"'{key}' is {short(seat)}, not a seat 0-{self.players - 1}")
        return seat

    def on_new_round(self, rec: dict[str, Any]) -> None:
        if not self.started:
            self.events.append(self.game_start())
            self.started = True
        n = self.players
        chang = _int(rec, "chang")
        ju = _int(rec, "ju")
        if not 0 <= chang <= 3 or not 0 <= ju < n:
            raise _Fail(f"round {chang} hand {ju} is out of range")
        self.round_index = chang * 4 + ju
        self.dealer = ju
        honba = _int(rec, "ben")
        sticks = _int(rec, "liqibang")
        # As Tenhou's INIT seed and Tenhou JSON's entry 0: neither count is negative.
        if honba < 0:
            raise _Fail(f"'ben' is {honba}: the honba cannot be negative")
        if sticks < 0:
            raise _Fail(f"'liqibang' is {sticks}: the riichi sticks cannot be negative")
        scores = _pad(_ints(rec.get("scores"), "scores", n))
        hands = [list(_tiles(rec.get(f"tiles{s}"), f"tiles{s}")) for s in range(n)]
        first_draw: Tile | None = None
        if len(hands[ju]) == 14:
            first_draw = hands[ju].pop()
        for s in range(n):
            if len(hands[s]) != 13:
                raise _Fail(f"tiles{s} holds {len(hands[s])} tiles, not 13 (14 for the dealer)")
        raw_doras = rec.get("doras")
        if raw_doras is None and "dora" in rec:
            raw_doras = [rec["dora"]]
        doras = list(_tiles(raw_doras, "doras"))
        if not doras:
            raise _Fail("no dora indicator")
        paishan = rec.get("paishan")
        wall_text: str | None = None
        wall_hash: tuple[str, str] | None = None
        if isinstance(paishan, str) and paishan:
            wall_text = paishan
            self.red_suits = {
                paishan[i + 1] for i in range(0, len(paishan) - 1, 2) if paishan[i] == "0"
            }
        else:
            self.red_suits = set()
        for t in (*doras, *(t for h in hands for t in h), *([first_draw] if first_draw else [])):
            if t.red:
                self.red_suits.add(t.suit)
        for alg in ("sha256", "md5"):
            value = rec.get(alg)
            if isinstance(value, str) and value:
                wall_hash = (alg, value.lower())
                break
        self.doras = doras
        self.melds = [[] for _ in range(n)]
        self.scores = list(scores)  # four entries
        self.last_discarder = None
        self.last_kan = None
        self.riichi = 0
        self.kans = 0
        self.in_round = True
        self.events.append(
            RoundStart(
                self.src,
                self.round_index,
                honba,
                sticks,
                ju,
                scores,
                doras[0],
                tuple(tuple(h) for h in hands) + ((),) * (4 - n),
                wall_text=wall_text,
                wall_hash=wall_hash,
                number=self.at,
            )
        )
        for extra in doras[1:]:
            self.reveal(extra)
        if first_draw is not None:
            self.events.append(make_draw(self.src, ju, first_draw, None, self.at))

    def reveal(self, tile: Tile) -> None:
        self.events.append(DoraReveal(self.src, tile, None, self.at))

    def new_doras(self, rec: dict[str, Any]) -> list[Tile]:
        if "doras" not in rec:
            return []
        doras = list(_tiles(rec.get("doras"), "doras"))
        if len(doras) <= len(self.doras):
            return []
        # The indicators shown before are taken as they were first shown: one that a
        # later record shows otherwise is a number of the record, for the wall and
        # the wins to judge (wall-mismatch, dora-indicator-mismatch), not a reason to
        # leave the whole file unread.
        fresh = doras[len(self.doras) :]
        self.doras = self.doras + fresh
        return fresh

    def riichi_accepted(self, rec: dict[str, Any]) -> None:
        liqi = rec.get("liqi")
        if not isinstance(liqi, dict):
            return
        seat = self.seat(liqi)
        score = liqi.get("score", 0)
        if type(score) is not int:
            raise _Fail(f"'liqi.score' is {short(score)}, not a whole number")
        self.scores[seat] = score
        self.riichi += 1
        self.events.append(RiichiAccepted(self.src, seat, tuple(self.scores), self.at))

    def on_deal(self, rec: dict[str, Any]) -> None:
        self.riichi_accepted(rec)
        seat = self.seat(rec)
        tile = _tile(rec.get("tile"))
        fresh = self.new_doras(rec)
        for t in fresh:  # an ankan's indicator, turned before its replacement draw
            self.reveal(t)
        self.events.append(make_draw(self.src, seat, tile, None, self.at))
        self.last_kan = None

    def on_discard(self, rec: dict[str, Any]) -> None:
        seat = self.seat(rec)
        tile = _tile(rec.get("tile"))
        # An open kan's indicator, shown with the kanner's discard: turned as the
        # discard is made, before anyone can ron it (the engine's order).
        for t in self.new_doras(rec):
            self.reveal(t)
        if _flag(rec, "is_liqi") or _flag(rec, "is_wliqi"):
            self.events.append(RiichiDeclared(self.src, seat, self.at))
        self.events.append(make_discard(self.src, seat, tile, _flag(rec, "moqie"), None, self.at))
        self.last_discarder = seat
        self.last_kan = None

    def on_call(self, rec: dict[str, Any]) -> None:
        self.riichi_accepted(rec)
        seat = self.seat(rec)
        kind_no = _int(rec, "type")
        kinds = {0: MeldKind.CHI, 1: MeldKind.PON, 2: MeldKind.DAIMINKAN}
        if kind_no not in kinds:
            raise _Fail(f"call type {kind_no} is not 0 (chi), 1 (pon) or 2 (kan)")
        kind = kinds[kind_no]
        tiles = _tiles(rec.get("tiles"), "tiles")
        froms = rec.get("froms")
        if not isinstance(froms, list) or len(froms) != len(tiles):
            raise _Fail(f"'froms' {short(froms)} does not match the {len(tiles)} tiles")
        want = 4 if kind is MeldKind.DAIMINKAN else 3
        if len(tiles) != want:
            raise _Fail(f"a {kind.value} has {want} tiles, not {len(tiles)}")
        called_at = [k for k, f in enumerate(froms) if f != seat]
        if len(called_at) != 1:
            raise _Fail(f"'froms' {short(froms)} names {len(called_at)} called tiles, not 1")
        k = called_at[0]
        from_seat = froms[k]
        if type(from_seat) is not int or not 0 <= from_seat < self.players:
            raise _Fail(f"the called tile comes from {short(from_seat)}, not a seat")
        meld = Meld(kind, tuple(sorted(tiles)), tiles[k], from_seat)
        self.kans += kind is MeldKind.DAIMINKAN
        self.melds[seat].append(meld)
        self.events.append(DeclareMeld(self.src, seat, meld, self.at))
        self.last_kan = None

    def on_kan(self, rec: dict[str, Any]) -> None:
        seat = self.seat(rec)
        kind_no = _int(rec, "type")
        raw = rec.get("tiles")
        tile = _tile(raw[0] if isinstance(raw, list) and raw else raw)
        if kind_no == 3:  # ankan: the four copies, with the red five where there is one
            plain = tile.plain
            red = plain.number == 5 and plain.suit in self.red_suits
            four = (Tile(plain.kind, True), plain, plain, plain) if red else (plain,) * 4
            meld = Meld(MeldKind.ANKAN, tuple(sorted(four)))
            # Only a kokushi may rob it (mahjongsoul preset: kokushi_robs_ankan); a ron
            # right after it is off the kan's declarer, whatever was discarded before.
            self.last_kan = (seat, plain)
        elif kind_no == 2:  # kakan: a tile added to the seat's pon
            pon = next(
                (m for m in self.melds[seat] if m.kind is MeldKind.PON and m.kind34 == tile.kind),
                None,
            )
            if pon is None:
                raise _Fail(f"a kakan of {tile} without a pon of it")
            self.melds[seat].remove(pon)
            meld = Meld(MeldKind.KAKAN, (*pon.tiles, tile), pon.called, pon.from_seat, tile)
            self.last_kan = (seat, tile)
        else:
            raise _Fail(f"kan type {kind_no} is not 2 (added kan) or 3 (closed kan)")
        self.kans += 1
        self.melds[seat].append(meld)
        self.events.append(DeclareMeld(self.src, seat, meld, self.at))
        for t in self.new_doras(rec):
            self.reveal(t)

    def on_babei(self, rec: dict[str, Any]) -> None:
        seat = self.seat(rec)
        north = Tile("4z")
        self.events.append(DeclareMeld(self.src, seat, Meld(MeldKind.KITA, (north,)), self.at))
        self.last_kan = (seat, north)

    def on_hule(self, rec: dict[str, Any]) -> None:
        hules = rec.get("hules")
        if not isinstance(hules, list) or not hules:
            raise _Fail("a RecordHule without 'hules'")
        old = rec.get("old_scores")
        delta = rec.get("delta_scores")
        before = _pad(_ints(old, "old_scores", self.players)) if old is not None else None
        deltas = _pad(_ints(delta, "delta_scores", self.players)) if delta is not None else None
        wins: list[tuple[int, int, dict[str, Any]]] = []
        for k, h in enumerate(hules):
            if not isinstance(h, dict):
                raise _Fail(f"hules[{k}] is not an object")
            seat = self.seat(h)
            if _flag(h, "zimo"):
                from_seat = seat
            elif self.last_kan is not None:
                from_seat = self.last_kan[0]
            elif self.last_discarder is not None:
                from_seat = self.last_discarder
            else:
                raise _Fail("a ron with no discard or kan before it")
            wins.append((seat, from_seat, h))
        shares = self.split_deltas(wins, deltas)
        # The scores after all of the record's wins: a claim of the last one's.
        after_raw = rec.get("scores")
        after = _pad(_ints(after_raw, "scores", self.players)) if after_raw is not None else None
        for k, ((seat, from_seat, h), share) in enumerate(zip(wins, shares, strict=True)):
            claims = self.win_claims(h, seat, before, share)
            if after is not None and k == len(wins) - 1:
                claims = replace(claims, scores_after=after)
            self.events.append(Win(self.src, seat, from_seat, claims, self.at))
            # The record gives one "before" for all its wins; a later win of a double
            # ron starts from the scores the earlier one left, as in Tenhou's logs.
            if before is not None:
                before = tuple(b + d for b, d in zip(before, share, strict=True)) if share else None
        self.in_round = False

    def split_deltas(
        self, wins: list[tuple[int, int, dict[str, Any]]], deltas: tuple[int, ...] | None
    ) -> list[tuple[int, ...] | None]:
        """Each win's own delta, from the one delta a RecordHule gives for all its wins.

        A single win keeps the record's delta. In a double ron each winner's entry is
        what that winner received; the discarder paid each of them that much, except
        the riichi sticks on the table, which the winner first in turn order after
        the discarder takes (the Tenhou reading, and how every double ron's delta in
        the corpus adds up). A seat liable for one win (its ``baopai``), neither
        the discarder nor a winner, paid its part of that win: all it lost is that
        win's, and the discarder paid the rest. Where the record's numbers cannot be
        split so (a seat that is neither winner, discarder nor a win's liable seat
        moves), the whole delta stays on the first win and the others claim none:
        the audit then names the difference.
        """
        if deltas is None or len(wins) == 1:
            return [deltas] + [None] * (len(wins) - 1)
        payer = wins[0][1]
        winners = [seat for seat, _, _ in wins]
        n = self.players
        liable: dict[int, int] = {}  # a win's liable seat, where it is a bystander
        for seat, _, h in wins:
            baopai = h.get("baopai", 0)
            if type(baopai) is int and 0 < baopai <= n and baopai - 1 not in (payer, *winners):
                liable[seat] = baopai - 1
        if (
            any(f != payer for _, f, _ in wins)
            or len(set(liable.values())) != len(liable)
            or any(
                deltas[s]
                for s in range(4)
                if s != payer and s not in winners and s not in liable.values()
            )
        ):
            return [deltas] + [None] * (len(wins) - 1)
        sticks = sum(deltas)  # the sticks on the table: the only points not paid by a seat
        first = min(winners, key=lambda s: (s - payer) % n)
        out: list[tuple[int, ...] | None] = []
        for seat in winners:
            share = [0] * 4
            share[seat] = deltas[seat]
            paid = deltas[seat] - (sticks if seat == first else 0)
            if seat in liable:
                share[liable[seat]] = deltas[liable[seat]]
                paid += deltas[liable[seat]]
            share[payer] = -paid
            out.append(tuple(share))
        return out

    def win_claims(
        self,
        h: dict[str, Any],
        seat: int,
        before: tuple[int, ...] | None,
        deltas: tuple[int, ...] | None,
    ) -> WinClaims:
        win_tile = _tile(h.get("hu_tile"))
        hand = (*_tiles(h.get("hand"), "hand"), win_tile)
        yiman = _flag(h, "yiman")
        yaku, yakuman = self.fans(h, seat)
        count = h.get("count", 0)
        fu = h.get("fu", 0)
        zimo = _flag(h, "zimo")
        # ``dadian`` is the hand's value as paid, without honba and sticks (the
        # Tenhou ``ten``); ``point_sum`` of a tsumo is not (4700 for a 1300/700
        # tsumo worth 2700 in the corpus). Records without ``dadian`` give the
        # ron value, or the tsumo payments added up.
        points = h.get("dadian", 0)
        if not points:
            qin, xian = h.get("point_zimo_qin", 0), h.get("point_zimo_xian", 0)
            if not zimo:
                points = h.get("point_rong", 0)
            elif type(qin) is int and type(xian) is int:
                dealer = seat == self.dealer
                points = xian * (self.players - 1) if dealer else qin + xian * (self.players - 2)
        title = h.get("title_id", 0)
        limit: Limit | None = None
        if type(title) is int:
            limit = Limit(min(title, 5)) if title >= 0 else None
        baopai = h.get("baopai", 0)
        pao = baopai - 1 if type(baopai) is int and 0 < baopai <= self.players else None
        ura_raw = h.get("li_doras")
        riichi = _flag(h, "liqi")
        return WinClaims(
            hand=hand,
            win_tile=win_tile,
            han=count if type(count) is int and not yiman else None,
            fu=fu if type(fu) is int and not yiman and fu else None,
            points=points if type(points) is int and points else None,
            limit=limit,
            yaku=yaku if not yiman else None,
            yakuman=yakuman if yiman else None,
            dora_indicators=_tiles(h.get("doras"), "doras") if "doras" in h else None,
            ura_indicators=_tiles(ura_raw, "li_doras") if riichi and ura_raw else None,
            scores_before=before,
            deltas=deltas,
            pao_seat=pao if pao != seat else None,
        )

    def fans(
        self, h: dict[str, Any], seat: int
    ) -> tuple[tuple[tuple[Yaku, int], ...], tuple[Yaku, ...]]:
        raw = h.get("fans", [])
        if not isinstance(raw, list):
            raise _Fail(f"'fans' is {short(raw)}, not a list")
        yaku: list[tuple[Yaku, int]] = []
        yakuman: list[Yaku] = []
        dora = 0
        has_dora = False
        for item in raw:
            if not isinstance(item, dict):
                raise _Fail(f"a fan {short(item)} is not an object")
            fan_id = item.get("id", 0)
            val = item.get("val", 0)
            if type(fan_id) is not int or type(val) is not int:
                raise _Fail(f"fan {short(item)} has no whole-number id and val")
            if fan_id in (_DORA_FAN, KITA_FAN):
                dora += val
                has_dora = True
                continue
            if fan_id == SEAT_WIND_FAN:
                y = _SEAT_WIND[(seat - self.dealer) % self.players]
            elif fan_id == ROUND_WIND_FAN:
                y = _ROUND_WIND[(self.round_index // 4) % 4]
            elif fan_id in FAN_IDS:
                y = FAN_IDS[fan_id]
            else:
                raise _Fail(f"fan id {fan_id} is not a yaku mjaudit knows")
            if _flag(h, "yiman"):
                yakuman.append(y)
            else:
                yaku.append((y, val))
        if has_dora:
            yaku.append((Yaku.DORA, dora))
        if _flag(h, "liqi") and all(y is not Yaku.URA_DORA for y, _ in yaku):
            # Mahjong Soul leaves out a riichi winner's ura dora when it is worth 0;
            # Tenhou lists it at 0 han. Restore it so the formats claim alike.
            yaku.append((Yaku.URA_DORA, 0))
        return tuple(yaku), tuple(yakuman)

    def on_no_tile(self, rec: dict[str, Any]) -> None:
        players = rec.get("players")
        tenpai: tuple[int, ...] | None = None
        shown: list[tuple[int, tuple[Tile, ...]]] = []
        if isinstance(players, list) and len(players) == self.players:
            tenpai = tuple(
                s for s, p in enumerate(players) if isinstance(p, dict) and _flag(p, "tingpai")
            )
            for s in tenpai:
                p = players[s]
                if p.get("hand"):
                    shown.append((s, _tiles(p.get("hand"), f"players[{s}].hand")))
        nagashi = _flag(rec, "liujumanguan")
        before: tuple[int, ...] | None = None
        deltas: tuple[int, ...] | None = None
        rows = rec.get("scores")
        if isinstance(rows, list) and rows:
            total = [0] * 4
            for k, row in enumerate(rows):
                if not isinstance(row, dict):
                    raise _Fail(f"scores[{k}] is not an object")
                if k == 0 and "old_scores" in row:
                    before = _pad(_ints(row.get("old_scores"), "old_scores", self.players))
                if "delta_scores" in row:
                    for s, d in enumerate(
                        _ints(row.get("delta_scores"), "delta_scores", self.players)
                    ):
                        total[s] += d
            deltas = tuple(total)
        reason = DrawReason.NAGASHI_MANGAN if nagashi else DrawReason.EXHAUSTIVE
        claims = DrawClaims(
            tenpai=tenpai, hands=tuple(shown), scores_before=before, deltas=deltas or (0,) * 4
        )
        self.events.append(RoundDraw(self.src, reason, claims, self.at))
        self.in_round = False

    def on_liuju(self, rec: dict[str, Any]) -> None:
        self.riichi_accepted(rec)
        kind = _int(rec, "type")
        if kind not in LIUJU_KINDS:
            raise _Fail(f"abortive draw type {kind} is not one of 1-5")
        reason = DrawReason(LIUJU_KINDS[kind])
        if kind > 2 and self.riichi == self.players == 4:
            reason = DrawReason.SUUCHA_RIICHI
        elif kind > 2 and self.kans >= 4:
            reason = DrawReason.SUUKAIKAN
        shown: tuple[tuple[int, tuple[Tile, ...]], ...] = ()
        if reason is DrawReason.KYUUSHU and rec.get("tiles"):
            shown = ((self.seat(rec), _tiles(rec.get("tiles"), "tiles")),)
        claims = DrawClaims(hands=shown, deltas=(0,) * 4)
        self.events.append(RoundDraw(self.src, reason, claims, self.at))
        self.in_round = False


def _text(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


_HANDLERS = {
    "RecordDealTile": _Reader.on_deal,
    "RecordDiscardTile": _Reader.on_discard,
    "RecordChiPengGang": _Reader.on_call,
    "RecordAnGangAddGang": _Reader.on_kan,
    "RecordBaBei": _Reader.on_babei,
    "RecordHule": _Reader.on_hule,
    "RecordNoTile": _Reader.on_no_tile,
    "RecordLiuJu": _Reader.on_liuju,
}
