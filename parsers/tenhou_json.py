"""Tenhou JSON ("tenhou.net/6", mjlog2json) -> format-neutral events.

Layout: ../shared/reference/tenhou-format.md §2. Two producers write it (§2):
the server converter (one whole game: ``ref``, ``log``, ``rule``, ``sc``,
``connection`` ...) and the log viewer's export (``title``, ``name``, ``rule``,
``log``, usually one kyoku per object). A file may hold one object, a JSON list of
objects, or one object per line (mjx's JSON Lines); all the kyoku of one file form
one game, in file order, so a file with a single kyoku is a game of one round.

What the JSON does not have, the events leave out: physical tile ids (None), dice
and the wall seed (None), the winner's hand and winning tile (None). The order of
play and the kan dora times are rebuilt (see :mod:`parsers.tenhou_json_round`).
Where there is no ``sc``, mjaudit's own ``final_scores`` (what ``convert`` writes
from an mjai log, which has final scores but no result points) are the final
scores claimed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mjaudit.errors import LogFormatError, SourcePos
from mjaudit.events import (
    EndClaims,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    PlayerInfo,
    Presence,
    RoundDraw,
    RoundStart,
    RulesHint,
    Win,
    round_label,
)
from mjaudit.tiles import Tile
from parsers.json_text import BadJson, json_reader, short
from parsers.tenhou_json_names import mahjongsoul_hint, mahjongsoul_room, with_mahjongsoul
from parsers.tenhou_json_result import AkaFlags, JsonFail, parse_result, tiles_of, whole_numbers
from parsers.tenhou_json_round import (
    RESULT,
    Action,
    KyokuSource,
    OutEntry,
    TakeEntry,
    build_round,
    order_actions,
    parse_outs,
    parse_takes,
)

__all__ = ["DAN_TEXTS", "parse_tenhou_json", "rules_hint_from_disp"]

_ROOMS = {"般": "ippan", "上": "joukyuu", "特": "tokujou", "鳳": "houou"}
# tenhou-format.md §1.4: dan 0..20; the JSON writes the Japanese names.
_DANS = (
    ["新人"]
    + [f"{n}級" for n in "９８７６５４３２１"]
    + ["初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位"]
)
_DAN_ROMAJI = (
    ["shinjin"]
    + [f"{n}kyu" for n in range(9, 0, -1)]
    + [f"{n}dan" for n in range(1, 11)]
    + ["tenhoui"]
)
_DAN_MAP = dict(zip(_DANS, _DAN_ROMAJI, strict=True))
DAN_TEXTS = dict(zip(_DAN_ROMAJI, _DANS, strict=True))
"""Romaji dan name -> the Japanese text the JSON writes (the writer's table)."""
_DAN_MAP.update({f"{n}級": f"{n}kyu" for n in range(1, 10)})
_DAN_MAP["天鳳"] = "tenhoui"  # the server converter's name for dan 20 (mjlog2json DAN_NAME)


def rules_hint_from_disp(disp: str, aka: bool | None, players: int) -> RulesHint:
    """The rules hint of ``rule.disp`` (e.g. 四鳳南喰赤, 三鳳南喰赤, 般東喰赤, 上東喰赤速).

    The string is built from the GO type bits (§1.3): room 般/上/特/鳳, 東 (tonpuusen)
    or 南 (hanchan), 喰 = kuitan on, 赤 = aka on, 速 = fast, 三 in front for sanma.
    A Mahjong Soul room as its converters write it (``玉の間南喰赤``, ``Jade Room
    South``, ``友人戦東喰赤``) is read by :func:`parsers.tenhou_json_names.mahjongsoul_hint`.
    A string of another shape (AI self-play ...) says nothing about the rules beyond
    what ``aka`` says.
    """
    soul = mahjongsoul_hint(disp, aka, players)
    if soul is not None:
        return soul
    tenhou_like = any(c in disp for c in "東南") and any(c in disp for c in "般上特鳳")
    if aka is None and tenhou_like:
        aka = "赤" in disp
    room = next((name for c, name in _ROOMS.items() if c in disp), None)
    desc = f"{players}p Tenhou JSON, rule.disp {short(disp)}"
    if not tenhou_like:
        desc += " (not a Tenhou room: rules assumed)"
    return RulesHint(
        source="tenhou-json",
        players=players,
        aka=aka,
        kuitan=("喰" in disp) if tenhou_like else None,
        hanchan=("南" in disp) if tenhou_like else None,
        fast=("速" in disp) if tenhou_like else None,
        room=room,
        special_lobby=not tenhou_like,
        description=desc,
        extras=(("disp", disp),),
    )


class _Doc:
    """One JSON object of the file, with the line it started on (JSON Lines) or None."""

    def __init__(self, obj: dict[str, Any], line: int | None) -> None:
        self.obj = obj
        self.line = line


def _split_docs(data: bytes, path: str) -> list[_Doc]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(path, f"byte {exc.start}", "not UTF-8 text") from None
    docs: list[_Doc] = []
    load_json = json_reader(data)
    try:
        whole = load_json(text)
    except BadJson as first_error:
        lines = text.splitlines()
        if first_error.line is None or sum(1 for ln in lines if ln.strip()) < 2:
            raise LogFormatError(
                path, first_error.where or "top level", f"not valid JSON: {first_error.message}"
            ) from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                obj = load_json(line)
            except BadJson as exc:
                where = f"line {number}" + (f", column {exc.column}" if exc.column else "")
                raise LogFormatError(path, where, f"not valid JSON: {exc.message}") from None
            if not isinstance(obj, dict):
                raise LogFormatError(
                    path, f"line {number}", "expected a JSON object per line"
                ) from None
            docs.append(_Doc(obj, number))
        return docs
    items = whole if isinstance(whole, list) else [whole]
    for k, obj in enumerate(items):
        if not isinstance(obj, dict):
            raise LogFormatError(path, f"item {k + 1}", "expected a JSON object with a 'log'")
        docs.append(_Doc(obj, None))
    return docs


def _aka_flags(rule: dict[str, Any]) -> tuple[AkaFlags, bool | None]:
    """Red fives per suit: ``aka51..53`` (server), or ``aka`` (viewer: 1/0), else on."""
    keys = ("aka51", "aka52", "aka53")
    if any(k in rule for k in keys):
        flags = tuple(bool(rule.get(k, 0)) for k in keys)
        return (flags[0], flags[1], flags[2]), any(flags)
    if "aka" in rule:
        on = bool(rule["aka"])
        return (on, on, on), on
    return (True, True, True), None


def _players(obj: dict[str, Any], rule: dict[str, Any]) -> int:
    disp = str(rule.get("disp", ""))
    room = mahjongsoul_room(disp)
    if disp.startswith("三") or (room is not None and room.sanma):
        return 3
    log = obj.get("log")
    if (
        isinstance(log, list)
        and log
        and isinstance(log[0], list)
        and len(log[0]) == 17
        and log[0][13] == log[0][14] == log[0][15] == []
    ):
        return 3
    return 4


def _player_infos(obj: dict[str, Any], players: int) -> tuple[PlayerInfo, ...]:
    names = obj.get("name")
    if not isinstance(names, list):
        names = [""] * 4
    dans = obj.get("dan") if isinstance(obj.get("dan"), list) else None
    rates = obj.get("rate") if isinstance(obj.get("rate"), list) else None
    sexes = obj.get("sx") if isinstance(obj.get("sx"), list) else None
    infos = []
    for s in range(4):
        name = str(names[s]) if s < len(names) and names[s] is not None else ""
        dan = rate = sex = None
        if dans is not None and s < len(dans) and s < players:
            dan = _DAN_MAP.get(str(dans[s]), str(dans[s]))
        if rates is not None and s < len(rates) and isinstance(rates[s], int | float):
            rate = float(rates[s]) if s < players else None
        if sexes is not None and s < len(sexes) and s < players:
            sex = str(sexes[s]) or None
        infos.append(PlayerInfo(name, dan, rate, sex))
    return tuple(infos)


def _whole_game(obj: dict[str, Any]) -> bool:
    """A document in the server converter's shape, which always ends with ``sc``.

    Its ``ratingc`` and ``lobby`` keys tell it from the log viewer's export (``title``,
    one or a few kyoku of a game, never an ``sc``), which is an excerpt.
    """
    return "ratingc" in obj or "lobby" in obj


def _first_hand(log: list[Any]) -> bool:
    """Whether a ``log`` opens with a game's first hand: E1-0 (``[0, 0, sticks]``)."""
    kyoku = log[0]
    head = kyoku[0] if isinstance(kyoku, list) and kyoku else None
    return isinstance(head, list) and len(head) >= 2 and head[0] == 0 and head[1] == 0


def _with_presences(events: list[Event], conns: list[tuple[int, int, bool]]) -> list[Event]:
    """A kyoku's events with its ``connection`` entries, sorted, put in place: each
    after ``step`` of the kyoku's actions (the first event, the deal, is not one; the
    entries placed before it are not either), as mjlog tags are, and after the
    entries of a smaller step. One pass over both lists: a long connection list
    costs its length, not its length times the kyoku's."""
    out = [events[0]]
    at, seen = 0, 0
    for ev in events[1:]:
        while at < len(conns) and conns[at][0] <= seen:
            _, seat, connected = conns[at]
            out.append(Presence(out[-1].pos, seat, connected))
            at += 1
        out.append(ev)
        seen += not isinstance(ev, Presence)
    for _, seat, connected in conns[at:]:
        out.append(Presence(out[-1].pos, seat, connected))
    return out


class _Game:
    def __init__(self, path: str, docs: list[_Doc]) -> None:
        self.path = path
        self.docs = docs
        head = docs[0].obj
        rule = head.get("rule") if isinstance(head.get("rule"), dict) else {}
        assert isinstance(rule, dict)
        self.aka, aka_on = _aka_flags(rule)
        self.players = _players(head, rule)
        self.hint = rules_hint_from_disp(str(rule.get("disp", "")), aka_on, self.players)
        if isinstance(rule.get("mahjongsoul"), dict):
            self.hint = with_mahjongsoul(self.hint, rule["mahjongsoul"])
        lobby = head.get("lobby")
        if isinstance(lobby, int | str) and not isinstance(lobby, bool) and str(lobby) != "":
            # The server converter's lobby number (0 = the ranked lobbies), which the
            # game-end check reads as the mjlog's GO ``lobby``.
            extras = tuple(sorted((*self.hint.extras, ("lobby", str(lobby)))))
            self.hint = replace(self.hint, extras=extras)
        game_id = head.get("ref")
        if not isinstance(game_id, str) or not game_id:
            game_id = path.rsplit("/", 1)[-1]
            for suffix in (".gz", ".bz2", ".jsonl", ".json"):
                game_id = game_id.removesuffix(suffix)
        self.game_id = game_id
        self.events: list[Event] = []

    def run(self) -> GameLog:
        first = SourcePos(self.path, self.docs[0].line or 1, "{header}", "line")
        self.events.append(
            GameStart(first, self.game_id, _player_infos(self.docs[0].obj, self.players), self.hint)
        )
        number = 0
        for i, doc in enumerate(self.docs):
            log = doc.obj.get("log")
            where = f"line {doc.line}" if doc.line is not None else "top level"
            if not isinstance(log, list) or not log:
                raise LogFormatError(self.path, where, "expected a non-empty 'log' list of kyoku")
            if i and _first_hand(log):
                # A game is in E1-0 once: a later document that starts there is another
                # game. A file holds one game (as an mjai log does), so it is refused
                # rather than read as one game of both games' hands.
                here = where if doc.line is not None else f"item {i + 1}"
                raise LogFormatError(
                    self.path, here, "a second game starts here (E1-0 again): one game per file"
                )
            connections = self._connections(doc.obj)
            for k, kyoku in enumerate(log):
                number += 1
                if doc.line is not None:
                    unit, num = "line", doc.line
                    place = f"line {doc.line}" + (f", kyoku {k + 1}" if len(log) > 1 else "")
                else:
                    unit, num = "round", number
                    place = f"round {number}"
                try:
                    events = self.kyoku(kyoku, unit, num, place)
                except JsonFail as exc:
                    raise LogFormatError(self.path, place, str(exc)) from None
                conns = connections.get(k)
                if conns:
                    events = _with_presences(events, sorted(conns))
                self.events.extend(events)
        last = self.docs[-1]
        claims = self._end(last.obj)
        if claims.final_scores is not None or not _whole_game(last.obj):
            self.events.append(
                GameEnd(
                    SourcePos(
                        self.path, last.line or number, "{sc}", "line" if last.line else "round"
                    ),
                    claims,
                )
            )
        # else: the server converter's whole game without its final ``sc``: the log
        # stops before the game's result, and has no GameEnd (the audit says so).
        return GameLog(self.path, "tenhou-json", tuple(self.events))

    def _connections(self, obj: dict[str, Any]) -> dict[int, list[tuple[int, int, bool]]]:
        """``connection`` entries {what: 0 left / 1 back, log: kyoku (-1 before the
        first), who, step}."""
        out: dict[int, list[tuple[int, int, bool]]] = {}
        raw = obj.get("connection")
        if not isinstance(raw, list):
            return out
        for c in raw:
            if not isinstance(c, dict):
                continue
            values = [c.get(k) for k in ("log", "who", "step", "what")]
            if all(type(v) is int for v in values):
                kyoku, who, step, what = (v for v in values if isinstance(v, int))
                if kyoku == -1:
                    # Before the first hand (mjlog2json's Connection: "-1 if before
                    # first INIT"): in force from the first hand's start.
                    kyoku, step = 0, 0
                if 0 <= who < 4:
                    out.setdefault(kyoku, []).append((step, who, what == 1))
        return out

    def _end(self, obj: dict[str, Any]) -> EndClaims:
        sc = obj.get("sc")
        if isinstance(sc, list) and len(sc) == 8 and all(isinstance(x, int | float) for x in sc):
            return EndClaims(
                tuple(int(sc[i]) for i in range(0, 8, 2)),
                tuple(float(sc[i]) for i in range(1, 8, 2)),
                tuple(str(sc[i]) for i in range(1, 8, 2)),
            )
        final = obj.get("final_scores")
        if (
            sc is None
            and isinstance(final, list)
            and len(final) in (3, 4)
            and all(type(x) is int for x in final)
        ):
            # mjaudit's own key: final scores without result points (written from an
            # mjai log, which has no uma), where Tenhou's ``sc`` would need both.
            return EndClaims(tuple(final))
        return EndClaims()

    def kyoku(self, kyoku: object, unit: str, num: int, place: str) -> list[Event]:
        if not isinstance(kyoku, list) or len(kyoku) != 17:
            raise JsonFail("a kyoku must be a list of 17 entries (§2.2)")
        head, start, dora, ura = kyoku[0], kyoku[1], kyoku[2], kyoku[3]
        numbers = whole_numbers(head, 3)
        if numbers is None:
            raise JsonFail(f"entry 0 must be [kyoku, honba, riichi sticks], got {short(head)}")
        round_index, honba, sticks = numbers
        players = self.players
        if round_index < 0 or honba < 0 or sticks < 0:
            raise JsonFail(f"entry 0 {short(head)} has a negative number")
        if round_index > 15:
            raise JsonFail(
                f"entry 0 {short(head)}: kyoku {round_index} is outside 0..15 (E1 to N4)"
            )
        dealer = round_index % 4
        if dealer >= players:
            raise JsonFail(f"kyoku {round_index} has dealer seat {dealer} in a {players}p game")
        label = round_label(round_index, honba)
        scores = whole_numbers(start, 4)
        if scores is None:
            raise JsonFail(f"{label}: entry 1 must be 4 start scores, got {short(start)}")
        if not isinstance(dora, list) or not dora:
            raise JsonFail(f"{label}: entry 2 must list the dora indicators")
        if not isinstance(ura, list):
            raise JsonFail(f"{label}: entry 3 must list the ura indicators")
        aka = self.aka
        try:
            indicators = list(tiles_of(dora, aka))
        except JsonFail as exc:
            raise JsonFail(f"{label}: dora indicators (entry 2): {exc}") from None
        try:
            ura_tiles = tiles_of(ura, aka)
        except JsonFail as exc:
            raise JsonFail(f"{label}: ura indicators (entry 3): {exc}") from None
        hands: list[tuple[Tile, ...]] = []
        takes: list[list[TakeEntry]] = []
        outs: list[list[OutEntry]] = []
        for s in range(4):
            hai, inc, out = kyoku[4 + 3 * s], kyoku[5 + 3 * s], kyoku[6 + 3 * s]
            if not all(isinstance(x, list) for x in (hai, inc, out)):
                raise JsonFail(f"{label}: seat {s}: hand, takes and discards must be lists")
            if s >= players:
                if hai or inc or out:
                    raise JsonFail(f"{label}: seat {s} plays in a {players}-player game")
                hands.append(())
                takes.append([])
                outs.append([])
                continue
            if len(hai) != 13:
                raise JsonFail(f"{label}: seat {s} starts with {len(hai)} tiles, expected 13")
            try:
                hands.append(tiles_of(hai, aka))
            except JsonFail as exc:
                raise JsonFail(f"{label}: seat {s} hand: {exc}") from None
            takes.append(parse_takes(inc, aka, f"{label}: takes{s}"))
            outs.append(parse_outs(out, aka, f"{label}: discards{s}"))
        try:
            wins, reason, draw_claims = parse_result(
                kyoku[16],
                players,
                ((round_index // 4) % 4, dealer),
                # Tenhou's three-player 流局 without payment: all tenpai (see there).
                # Mahjong Soul's converters write it for nobody tenpai too.
                silent_draw_all_tenpai=players == 3 and self.hint.platform != "mahjongsoul",
            )
        except JsonFail as exc:
            raise JsonFail(f"{label}: result: {exc}") from None
        path = self.path
        unreadable = None
        try:
            actions = order_actions(label, players, dealer, hands, takes, outs)
            self._check_end(label, actions, wins, reason)
        except JsonFail as exc:
            # Lists that fit no order of play (a wrong kyoku number makes another seat
            # the dealer, say) are this hand's problem, not the file's: the hand keeps
            # its deal and its recorded result, the replay calls it broken, and the
            # other hands are audited (as an mjlog's or an mjai log's would be).
            unreadable = str(exc).removeprefix(f"{label}: ")
            actions = []
        rs_pos = SourcePos(path, num, f"{{{label}}}", unit)
        source = KyokuSource(path, num, label, unit, actions, kyoku)
        draw = (
            RoundDraw(source, reason, draw_claims, RESULT)
            if reason is not None and draw_claims is not None
            else None
        )
        events: list[Event] = [
            RoundStart(
                rs_pos,
                round_index=round_index,
                honba=honba,
                riichi_sticks=sticks,
                dealer=dealer,
                scores=scores,
                dora_indicator=indicators[0],
                hands=tuple(hands),
                unreadable=unreadable,
            )
        ]
        if unreadable is None:
            events.extend(build_round(actions, source, indicators[1:], wins, ura_tiles, draw))
        else:
            events.extend(Win(source, w.seat, w.from_seat, w.claims, RESULT) for w in wins)
            if draw is not None and not wins:
                events.append(draw)
        return events

    @staticmethod
    def _check_end(label: str, actions: list[Action], wins: list[Any], reason: object) -> None:
        """The result must fit the last action: tsumo after a draw, ron after a discard."""
        last = next((a for a in reversed(actions) if a[0] != "end"), None)
        if last is None:
            raise JsonFail(f"{label}: the hand has no draw at all")
        kind, seat = last[0], last[1]
        for w in wins:
            if w.seat == w.from_seat:
                if kind != "draw" or w.seat != seat:
                    raise JsonFail(
                        f"{label}: seat {w.seat} wins by tsumo, but the last action is seat "
                        f"{seat}'s {kind}"
                    )
            elif kind not in ("discard", "self"):
                raise JsonFail(
                    f"{label}: seat {w.seat} rons seat {w.from_seat}, but the last action is "
                    f"seat {seat}'s {kind}"
                )
            # A ron off another seat than the last discarder's is the replay's to judge
            # (inconsistent-log, this hand only), as in an mjlog: the file is read.
        del reason


def parse_tenhou_json(data: bytes, path: str) -> GameLog:
    """Parse one Tenhou JSON file (a game, or kyoku exports of one game) into a GameLog."""
    docs = _split_docs(data, path)
    if not docs:
        raise LogFormatError(path, "line 1", "no JSON object in the file")
    return _Game(path, docs).run()
