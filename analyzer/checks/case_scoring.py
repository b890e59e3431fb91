"""Scoring a conformance case with mjaudit's own scorer, as any other scorer would.

A case (``mjaudit.cases/1``, docs/cases.md) is read back into tiles, melds, a
:class:`~mjaudit.hands.WinContext` and a :class:`~mjaudit.rules.Ruleset`, then scored
and settled by the same functions the audit uses. A case that cannot be read is a
:class:`CaseError` naming the field; the caller adds the file and line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from operator import itemgetter
from typing import cast

from analyzer.checks.audit_wins import expected_pao
from analyzer.checks.case_results import answer_text, result_doc
from analyzer.checks.cases import CASE_SCHEMA, SCORING_RULES, WINDS
from analyzer.engine.state import WinRecord
from analyzer.hands.points import settle_win, with_ura_han
from analyzer.hands.scoring import NotAWin, score
from mjaudit.errors import MjauditError, SourcePos, did_you_mean
from mjaudit.events import Win, WinClaims
from mjaudit.findings import JsonValue
from mjaudit.frozen import quick_builder, quick_init
from mjaudit.hands import HandResult, WinContext, check_tile_set
from mjaudit.melds import Meld, MeldKind, shape_problem
from mjaudit.rules import RulesError, Ruleset, override, preset
from mjaudit.tiles import Tile, tiles

__all__ = ["CaseError", "ScoredCase", "answer_line", "read_case", "score_case"]

Doc = dict[str, JsonValue]

_FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
)
_NOWHERE = SourcePos("<case>", 0, "", "case")
_NO_CLAIMS = WinClaims()
# WinContext(...) and WinRecord(...), built without the constructors' __init__ (about
# half their cost; mjaudit.frozen.quick_builder).
_win_context: Callable[..., WinContext] = quick_builder(WinContext, "_win_context")
_win_record: Callable[..., WinRecord] = quick_builder(WinRecord, "_win_record")


class CaseError(MjauditError):
    """A case that does not follow the schema: what is wrong, naming the field."""


@quick_init
@dataclass(frozen=True, slots=True)
class ScoredCase:
    """A case read back: the winner's record (as the replay would have made it) and
    the rules; ``ura_han`` are ura han given as a number where the log showed no
    indicators."""

    case_id: str
    record: WinRecord
    rules: Ruleset
    takes_counters: bool
    ura_han: int


_MISSING: JsonValue = cast(JsonValue, object())


def _field(doc: Mapping[str, JsonValue], key: str, kind: type, where: str) -> JsonValue:
    value = doc.get(key, _MISSING)
    if type(value) is kind:  # what JSON decoding makes: the common case, at once
        return value
    if value is _MISSING:
        raise CaseError(f"{where}{key}: missing")
    # bool is an int to Python, not to a schema.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CaseError(f"{where}{key}: expected {_KIND_NAMES[kind]}, not {json.dumps(value)}")
    return value


_KIND_NAMES: dict[type, str] = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _object(doc: Mapping[str, JsonValue], key: str, where: str = "") -> dict[str, JsonValue]:
    value = doc.get(key)
    if type(value) is dict:  # what JSON decoding makes: the common case, at once
        return value
    value = _field(doc, key, dict, where)
    assert isinstance(value, dict)
    return value


def _int(
    doc: Mapping[str, JsonValue], key: str, where: str, low: int = 0, high: int = 10**6
) -> int:
    value = _field(doc, key, int, where)
    assert isinstance(value, int)
    if not low <= value <= high:
        raise CaseError(f"{where}{key}: {value} is not in {low}..{high}")
    return value


def _bool(doc: Mapping[str, JsonValue], key: str, where: str) -> bool:
    return bool(_field(doc, key, bool, where))


# Every tile by its own mpsz text (``0m`` a red five): a case's tiles are read by
# looking them up, and only text that is not found goes through the parser, for
# its message.
_BY_TEXT: dict[str, Tile] = {
    f"{d}{suit}": t
    for suit, top in (("m", 9), ("p", 9), ("s", 9), ("z", 7))
    for d in range(0 if suit != "z" else 1, top + 1)
    for t in tiles(f"{d}{suit}")
}


_GROUPS = re.compile(r"[0-9]+[mpsz]")

# The tiles of each group of digits and a suit met so far (``678p``): the groups of
# the cases of a file repeat, their hands seldom do. Kept to a bounded size: at most
# _GROUP_LIMIT groups, each no longer than a hand's 14 tiles and its suit (a longer
# one, which no valid case holds, is read each time and not kept).
_GROUP_TILES: dict[str, tuple[Tile, ...]] = {}
_GROUP_LIMIT = 4096
_GROUP_LONGEST = 15


def _group(text: str) -> tuple[Tile, ...] | None:
    """The tiles of one group ``digits + suit``; None where a digit makes no tile."""
    found = _GROUP_TILES.get(text)
    if found is None:
        suit = text[-1]
        try:
            found = tuple([_BY_TEXT[d + suit] for d in text[:-1]])
        except KeyError:
            return None
        if len(text) <= _GROUP_LONGEST and len(_GROUP_TILES) < _GROUP_LIMIT:
            _GROUP_TILES[text] = found
    return found


def _quick_tiles(text: str) -> tuple[Tile, ...] | None:
    """The tiles of well-formed compact mpsz, looked up group by group; None for
    anything else (the parser then says what is wrong)."""
    groups = _GROUPS.findall(text)
    if sum(map(len, groups)) != len(text):
        return None
    if len(groups) == 1:
        return _group(groups[0])
    parts = list(map(_GROUP_TILES.get, groups))  # the groups seen before, at once
    if None in parts:
        parts = list(map(_group, groups))
        if None in parts:
            return None
    # Joined by tuple addition: a few short tuples, quicker than any iterator.
    return sum(parts, ())  # type: ignore[type-var]


def _tiles(text: JsonValue, where: str) -> tuple[Tile, ...]:
    if not isinstance(text, str):
        raise CaseError(f"{where}: expected an mpsz string, not {json.dumps(text)}")
    quick = _quick_tiles(text)
    if quick is not None:
        return quick
    try:
        return tiles(text)
    except ValueError as exc:
        raise CaseError(f"{where}: {exc}") from None


def _tile(text: JsonValue, where: str) -> Tile:
    if isinstance(text, str):
        tile = _BY_TEXT.get(text)
        if tile is not None:
            return tile
    group = _tiles(text, where)
    if len(group) != 1:
        raise CaseError(f"{where}: expected one tile, not {json.dumps(text)}")
    return group[0]


def _indicators(value: JsonValue, key: str) -> tuple[Tile, ...]:
    """The tiles of ``situation.key``, a list of them."""
    if not isinstance(value, list):
        raise CaseError(f"situation.{key}: expected a list of tiles, not {json.dumps(value)}")
    try:
        return tuple([_BY_TEXT[t] for t in value])
    except (KeyError, TypeError):  # not a tile's text: _tile says which and why
        return tuple(_tile(t, f"situation.{key}[{k}]") for k, t in enumerate(value))


_MELD_KINDS = {k.value: k for k in MeldKind}


# The melds read so far, by their keys, values and the values' types (``true`` is
# not ``1`` to a schema, though equal to Python): the melds of a file's cases repeat
# (a quarter of those of the Tenhou corpus are new). A meld with a value that is a
# list or an object is read each time. At most _MELD_LIMIT kept.
_MELDS: dict[tuple[tuple[tuple[str, JsonValue], ...], tuple[type, ...]], Meld] = {}
_MELD_LIMIT = 4096


def _meld(doc: JsonValue, index: int) -> Meld:
    """``hand.melds[index]`` (its place named only in a message)."""
    if not isinstance(doc, dict):
        raise CaseError(f"hand.melds[{index}]: expected an object, not {json.dumps(doc)}")
    key = (tuple(doc.items()), tuple(map(type, doc.values())))
    try:
        return _MELDS[key]
    except KeyError:
        meld = _read_meld(doc, f"hand.melds[{index}]")
        if len(_MELDS) < _MELD_LIMIT:
            _MELDS[key] = meld
        return meld
    except TypeError:  # a value that is a list or an object: read, for its message
        return _read_meld(doc, f"hand.melds[{index}]")


def _read_meld(doc: dict[str, JsonValue], where: str) -> Meld:
    kind_text = _field(doc, "kind", str, f"{where}.")
    assert isinstance(kind_text, str)
    kind = _MELD_KINDS.get(kind_text)
    if kind is None:
        known = ", ".join(k.value for k in MeldKind)
        raise CaseError(f"{where}.kind: {json.dumps(kind_text)} is not one of {known}")
    group = _tiles(_field(doc, "tiles", str, f"{where}."), f"{where}.tiles")
    problem = shape_problem(kind, group)
    if problem is not None:
        raise CaseError(f"{where}.tiles: {problem}")
    called = _tile(doc["called"], f"{where}.called") if "called" in doc else None
    added = _tile(doc["added"], f"{where}.added") if "added" in doc else None
    from_seat = _int(doc, "from_seat", f"{where}.", 0, 3) if "from_seat" in doc else None
    return Meld(kind, group, called, from_seat, added)


_last_rules: list[tuple[dict[str, JsonValue], Ruleset]] = []


def _case_rules(doc: dict[str, JsonValue]) -> Ruleset:
    """The ruleset of a case's ``rules``; the cases of a file share a few, so the last
    one is kept and compared first (a dict comparison is cheaper than any key; the
    same object, as score --batch decodes a file's repeated rules, _read takes at
    once)."""
    if _last_rules and _last_rules[0][0] == doc:
        return _last_rules[0][1]
    rules = _rules(json.dumps(doc, sort_keys=True))
    _last_rules[:] = [(doc, rules)]
    return rules


# The keys of a case's ``rules``: its name and the rules that change what a win is
# worth (what analyzer.checks.cases.rules_doc writes; docs/cases.md).
_RULE_KEYS = ("name", *SCORING_RULES)
# Ruleset fields a case does not carry: its indicators, melds and situation already
# say what they would change (kan dora: every indicator turned), or they change no
# win's value (the game's end, the results).
_NOT_A_CASES = frozenset(f.name for f in fields(Ruleset)) - set(_RULE_KEYS)


def _unknown_keys(doc: Mapping[str, JsonValue]) -> str | None:
    """What is wrong with the keys of a case's ``rules``, each named; None if nothing.
    A key dropped unread would score the case under other rules than it states."""
    wrong = []
    for key in doc:
        if key in _RULE_KEYS:
            continue
        if key in _NOT_A_CASES:
            wrong.append(f"rules.{key}: a setting a case does not carry (docs/cases.md)")
        else:
            near = did_you_mean(key, list(_RULE_KEYS), 2)
            wrong.append(f"rules.{key}: unknown rule{near}")
    return "; ".join(wrong) if wrong else None


@lru_cache(maxsize=64)
def _rules(text: str) -> Ruleset:
    """A case's rules from their JSON text, checked: run once for each rules object a
    file holds (the cases of a file share a few)."""
    doc = json.loads(text)
    wrong = _unknown_keys(doc)
    if wrong is not None:
        raise CaseError(wrong)
    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        raise CaseError(f"rules.name: expected a string, not {json.dumps(name)}")
    players = doc.get("players", 4)
    base = preset("tenhou-sanma" if players == 3 else "tenhou")
    values = {k: doc[k] for k in SCORING_RULES if k in doc}
    try:
        rules = override(base, values, "rules")
    except RulesError as exc:
        raise CaseError(str(exc)) from None
    return replace(rules, name=name) if name is not None else rules


_WIND_INDEX = {w: k for k, w in enumerate(WINDS)}


def _wind(s: dict[str, JsonValue], key: str) -> int:
    """The wind ``situation.key`` names, as an index into WINDS."""
    text = s.get(key)
    wind = _WIND_INDEX.get(text) if isinstance(text, str) else None
    if wind is None:
        text = _field(s, key, str, "situation.")
        raise CaseError(f"situation.{key}: expected one of E, S, W, N, not {json.dumps(text)}")
    return wind


_INTS = ("seat", "from_seat", "dealer", "honba", "riichi_sticks")


_INT_TYPES = (int,) * len(_INTS)


def _ints(s: dict[str, JsonValue], w: str, last: int) -> tuple[int, ...]:
    """The seats (0..last) and counters (0..10**6) of a situation, each checked; the
    first wrong one is named."""
    return tuple([_int(s, key, w, 0, last if k < 3 else 10**6) for k, key in enumerate(_INTS)])


_FLAG_KEYS = ("tsumo", *_FLAGS)
_FLAG_TYPES = (bool,) * len(_FLAG_KEYS)


def _flags(s: dict[str, JsonValue], w: str) -> tuple[bool, ...]:
    """``tsumo`` and the situation's flags in _FLAG_KEYS' order, each checked; the
    first wrong one is named."""
    return tuple(_bool(s, key, w) for key in _FLAG_KEYS)


# The seats, counters and flags read together: the common case in one lookup and one
# comparison of types (_ints and _flags read them one by one, for the message).
_GET_SITUATION = itemgetter(*_INTS, *_FLAG_KEYS)
_SITUATION_TYPES = _INT_TYPES + _FLAG_TYPES


# The seats and counters (_INTS), then the flags (_FLAG_KEYS): typed one by one, so
# that a flag stays a bool (the compiled build keeps an ``int`` as a number).
_Situation = tuple[
    int, int, int, int, int,
    bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool,
]  # fmt: skip


def _situation(s: dict[str, JsonValue], w: str, last: int) -> _Situation:
    """_ints(s, w, last) and then _flags(s, w), one tuple; the first wrong value named
    as they name it."""
    try:
        values: tuple[object, ...] = _GET_SITUATION(s)
    except KeyError:
        values = ()
    if tuple(map(type, values)) == _SITUATION_TYPES:
        seat, from_seat, dealer, honba, sticks = cast(tuple[int, ...], values[:5])
        if (
            0 <= seat <= last
            and 0 <= from_seat <= last
            and 0 <= dealer <= last
            and 0 <= honba <= 10**6
            and 0 <= sticks <= 10**6
        ):
            return cast(_Situation, values)
    return cast(_Situation, _ints(s, w, last) + _flags(s, w))


def read_case(doc: JsonValue) -> ScoredCase:
    """A case read back into the scorer's values, or CaseError."""
    (
        case_id, seat, off, dealer, honba, sticks,
        concealed, win_tile, melds, ctx, kita, last_kan,
        rules, takes, ura_han,
    ) = _read(doc)  # fmt: skip
    record = _record(
        seat, off, dealer, honba, sticks, concealed, win_tile, melds, ctx, kita, last_kan
    )
    return ScoredCase(case_id, record, rules, takes, ura_han)


# The win of each winner and seat it won off: the same sixteen for every case.
_WINS = {(seat, off): Win(_NOWHERE, seat, off, _NO_CLAIMS) for seat in range(4) for off in range(4)}


def _record(
    seat: int,
    from_seat: int,
    dealer: int,
    honba: int,
    sticks: int,
    concealed: tuple[Tile, ...],
    win_tile: Tile,
    melds: tuple[Meld, ...],
    ctx: WinContext,
    kita: int,
    last_kan: Meld | None,
) -> WinRecord:
    """The winner's record, as the replay would have made it."""
    # Positional, in WinRecord's order (analyzer/engine/state.py).
    return _win_record(
        0, _WINS[seat, from_seat], seat, from_seat, concealed, win_tile,
        melds, ctx, ctx.dora_indicators, dealer, (), sticks, honba, kita, last_kan,
    )  # fmt: skip


# What _read gives: the case's id, seat, seat won off, dealer, honba, sticks, then
# _record's other arguments in its order, then the rules, whether the winner takes
# the honba and sticks, and ura han given as a number.
_Read = tuple[
    str, int, int, int, int, int,
    tuple[Tile, ...], Tile, tuple[Meld, ...], WinContext, int, "Meld | None",
    Ruleset, bool, int,
]  # fmt: skip


def _read(doc: JsonValue) -> _Read:
    """read_case's fields as plain values (score_case builds no record unless a
    liable seat must be found)."""
    if not isinstance(doc, dict):
        raise CaseError(f"a case is a JSON object, not {json.dumps(doc)[:40]}")
    schema = doc.get("schema", CASE_SCHEMA)
    if schema != CASE_SCHEMA:
        raise CaseError(f"schema: {json.dumps(schema)}, this reads {CASE_SCHEMA}")
    # Each value is taken at once where it is what it should be; otherwise _field,
    # _object and _tile read it again, for the message (the same, in the same order).
    case_id = doc.get("id")
    if type(case_id) is not str:
        case_id = _field(doc, "id", str, "")
    assert isinstance(case_id, str)
    rules_doc = doc.get("rules")
    if _last_rules and rules_doc is _last_rules[0][0]:  # as score --batch reads a file
        rules = _last_rules[0][1]
    else:
        rules = _case_rules(_object(doc, "rules"))
    hand = doc.get("hand")
    if type(hand) is not dict:
        hand = _object(doc, "hand")
    text = hand.get("concealed")
    concealed = _tiles(
        text if type(text) is str else _field(hand, "concealed", str, "hand."), "hand.concealed"
    )
    text = hand.get("win_tile")
    win_tile = _BY_TEXT.get(text) if type(text) is str else None
    if win_tile is None:
        win_tile = _tile(_field(hand, "win_tile", str, "hand."), "hand.win_tile")
    melds_doc = hand.get("melds")
    if type(melds_doc) is not list:
        melds_doc = _field(hand, "melds", list, "hand.")
    assert isinstance(melds_doc, list)
    melds = tuple(map(_meld, melds_doc, range(len(melds_doc)))) if melds_doc else ()
    s = doc.get("situation")
    if type(s) is not dict:
        s = _object(doc, "situation")
    w = "situation."
    last = rules.players - 1
    (
        seat, from_seat, dealer, honba, sticks,
        tsumo, riichi, double, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou,
    ) = _situation(s, w, last)  # fmt: skip
    if tsumo != (seat == from_seat):
        raise CaseError(f"{w}tsumo: {str(tsumo).lower()}, but seat {seat} wins off {from_seat}")
    text = s.get("seat_wind")
    seat_wind = _WIND_INDEX.get(text) if type(text) is str else None
    if seat_wind is None:
        seat_wind = _wind(s, "seat_wind")
    text = s.get("round_wind")
    round_wind = _WIND_INDEX.get(text) if type(text) is str else None
    if round_wind is None:
        round_wind = _wind(s, "round_wind")
    if (seat - dealer) % rules.players != seat_wind:
        raise CaseError(
            f"{w}seat_wind: {WINDS[seat_wind]}, but seat {seat} sits "
            f"{WINDS[(seat - dealer) % rules.players]} of dealer {dealer}"
        )
    ura_value = s.get("ura_indicators", [])
    ura_han = 0
    if ura_value is None:
        ura_han = _int(s, "ura_han", w, 0, 60) if "ura_han" in s else 0
        ura: tuple[Tile, ...] = ()
    else:
        ura = _indicators(ura_value, "ura_indicators") if ura_value != [] else ()
    value = s.get("dora_indicators")
    if type(value) is not list:
        value = _field(s, "dora_indicators", list, w)
    dora = _indicators(value, "dora_indicators")
    kita = s.get("kita", 0)
    if type(kita) is not int or not 0 <= kita <= 4:
        kita = _int(s, "kita", w, 0, 4)
    if kita and rules.players == 4:
        raise CaseError(f"{w}kita: a North is set aside in three-player games only")
    # Positional: the fields in WinContext's order (mjaudit/hands.py), the quicker call.
    ctx = _win_context(
        tsumo, riichi, double, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou,
        renhou, seat_wind, round_wind, dora, ura, honba, sticks, kita, rules.players,
    )  # fmt: skip
    last_kan = None
    if "last_kan" in hand:
        k = _int(hand, "last_kan", "hand.", 0, max(len(melds) - 1, 0))
        if k >= len(melds) or not melds[k].kind.is_kan:
            raise CaseError(f"hand.last_kan: {k} is not the index of a kan in hand.melds")
        last_kan = melds[k]
    try:
        check_tile_set(concealed, melds, (*dora, *ura), rules.players, rules.aka)
    except ValueError as exc:
        raise CaseError(f"hand: {exc}") from None
    takes = s.get("takes_counters", True)
    if type(takes) is not bool:
        takes = _bool(s, "takes_counters", w)
    return (
        case_id, seat, from_seat, dealer, honba, sticks,
        concealed, win_tile, melds, ctx, kita, last_kan,
        rules, takes, ura_han,
    )  # fmt: skip


def _scored(doc: JsonValue) -> tuple[str, HandResult | NotAWin, tuple[int, ...], int | None]:
    """The case's id, its result (or why the hand is not a win), the deltas and the
    seat liable (pao)."""
    (
        case_id, seat, off, dealer, honba, sticks,
        concealed, win_tile, melds, ctx, kita, last_kan,
        rules, takes, ura_han,
    ) = _read(doc)  # fmt: skip
    try:
        result = score(concealed, win_tile, melds, ctx, rules)
    except NotAWin as exc:
        return case_id, exc, (), None
    if ura_han and not result.yakuman:
        result = with_ura_han(result, ura_han, ctx, rules)
    pao = None
    if result.yakuman:  # only a yakuman makes a player liable (pao)
        record = _record(
            seat, off, dealer, honba, sticks, concealed, win_tile, melds, ctx, kita, last_kan
        )
        pao = expected_pao(record, result, rules)
    # As audit_wins.settle_record settles a record.
    deltas = settle_win(
        result, seat, off, dealer, honba, sticks, rules,
        pao_seat=pao, players=rules.players, takes_honba_and_sticks=takes,
    )  # fmt: skip
    return case_id, result, deltas, pao


def score_case(doc: JsonValue) -> Doc:
    """The answer to one case: ``{"id", "result"}``, or ``{"id", "error", "message"}``
    for a hand that is not a win. CaseError for a case that cannot be read."""
    case_id, result, deltas, pao = _scored(doc)
    if isinstance(result, NotAWin):
        return {"id": case_id, "error": result.code, "message": result.message}
    return {"id": case_id, "result": result_doc(result, deltas, pao)}


_dumps = json.JSONEncoder(ensure_ascii=False).encode


def answer_line(doc: JsonValue) -> tuple[str, bool]:
    """The answer to one case as a line of JSON text, newline included, and whether
    the hand is a win: ``json.dumps(score_case(doc), ensure_ascii=False)``, written
    without building the document (analyzer.checks.case_results.answer_text)."""
    case_id, result, deltas, pao = _scored(doc)
    if isinstance(result, NotAWin):
        error = {"id": case_id, "error": result.code, "message": result.message}
        return _dumps(error) + "\n", False
    return answer_text(case_id, result, deltas, pao) + "\n", True
