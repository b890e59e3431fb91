"""mjai JSON lines -> format-neutral events.

The format and its dialects are described in ../shared/reference/mjai-format.md.
One event per line, one game per file. Every dialect there is read:

- gimite server (§4): no ``scores`` on ``start_kyoku``; ``hora`` with ``yakus``,
  ``fu``, ``fan``, ``hora_points``, ``deltas``, ``uradora_markers``; ``reach_accepted``
  and ``ryukyoku`` with ``deltas`` and ``scores``; ``end_game`` with ``scores``.
- gimite TenhouArchive: the same, without ``kyotaku`` either; ``ankan`` has
  ``"pai":"?"`` (ignored).
- Mortal/libriichi arena, mjai.app and mjai-reviewer's convlog: ``scores`` on
  ``start_kyoku``; ``hora`` with ``deltas`` and (since late 2021) ``ura_markers`` only;
  ``ryukyoku`` with ``deltas`` only.
- akochan: ``uradora_marker`` (singular), ``fan`` and unrounded ``fu``, no deltas.
  The fu claim is the fu of the score table, so an unrounded sum (38) is
  transcribed rounded up to the next ten (40), as every scorer rounds it before
  using it; 25 (chiitoitsu) is the one value that is never rounded. A rounded fu
  from any other dialect is unchanged by this. Older files have ``hora_tehais``
  without ``pai``: the winning tile that completes the hand is read off the play.
- mjaigym: gimite-like events with ``kyotaku`` but no ``scores`` on ``start_kyoku``.

What a dialect carries becomes a claim; what it lacks stays ``None``. Two numbers
every round needs are rebuilt when absent, as the reference advises (§2.2): the
start scores (the last ``scores`` any event showed, else the previous start plus
the deltas seen, 25000 each at first) and the riichi sticks (carried over, plus one
per accepted riichi, cleared by a win).

gimite's Tenhou converter (TenhouArchive: ``uri`` on ``start_game``, no ``kyotaku``
on ``start_kyoku``) writes ``end_game.scores`` as the scores after the last hand:
riichi sticks still on the table are not given to the top player as Tenhou's
``owari`` gives them. Those scores are the final scores only when no stick is
left, so only then do they become the final-score claim.

mjai.app (RiichiLab) ends a hand in which a bot made an invalid move with a
``ryukyoku`` of ``reason: "error"`` whose deltas are a mangan chombo for that bot, and
plays on with the next hand (§6.2): a :class:`RoundDraw` of ``DrawReason.PENALTY``.

A log that stops early is still a game: the server's ``error`` line (gimite stops
the game when a bot breaks a rule, §6.3) and a missing ``end_game`` (a cut log)
both give a game without :class:`GameEnd`, so the hands that were played are still
audited and the unfinished one has no result. Lines after ``error`` are ignored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

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
from parsers.json_text import BadJson, json_reader, load_json, short
from parsers.mjai_names import (
    DRAGONS,
    TILES,
    WIND_YAKU,
    YAKU_NAMES,
    YAKUMAN_FAN,
    MjaiFail,
    tile_of,
)
from parsers.tenhou_json_names import with_mahjongsoul

__all__ = ["parse_mjai"]

_WINDS = "ESWN"
_REASONS = {
    "fanpai": DrawReason.EXHAUSTIVE,
    "nagashimangan": DrawReason.NAGASHI_MANGAN,
    "kyushukyuhai": DrawReason.KYUUSHU,
    "suchareach": DrawReason.SUUCHA_RIICHI,
    "sanchaho": DrawReason.SANCHAHOU,
    "sukaikan": DrawReason.SUUKAIKAN,
    "sufonrenta": DrawReason.SUUFON_RENDA,
}
# Protocol messages some loggers keep; they are not part of the game (§2.12).
_IGNORED = frozenset({"hello", "join", "none", "end_kyoku"})
_CALLS = {"chi": MeldKind.CHI, "pon": MeldKind.PON, "daiminkan": MeldKind.DAIMINKAN}


# One yaku's fan counts its yakuman in hundreds (a double yakuman is 200); no hand
# has more than a few.
_MAX_YAKUMAN = 8


def _int(ev: dict[str, Any], key: str, default: int | None = None) -> int:
    value = ev.get(key, default)
    if type(value) is not int:
        raise MjaiFail(f"'{key}' must be an integer, got {short(value)}")
    return value


def _ints(value: object, what: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) < n or any(type(x) is not int for x in value):
        raise MjaiFail(f"'{what}' must be a list of {n} integers, got {short(value)}")
    return tuple(value[:4]) + (0,) * (4 - len(value[:4]))


def _tiles(value: object, what: str) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise MjaiFail(f"'{what}' must be a list of tiles")
    return tuple(tile_of(t) for t in value)


class _Lines:
    """The positions of a file's events: the line number, and the event's type read
    again from the line when something asks (a finding, an error)."""

    __slots__ = ("lines", "path")

    def __init__(self, path: str, lines: list[str]) -> None:
        self.path = path
        self.lines = lines

    def at(self, number: int) -> SourcePos:
        kind: object = None
        try:
            ev = load_json(self.lines[number - 1])
            kind = ev.get("type") if isinstance(ev, dict) else None
        except (BadJson, IndexError):
            pass
        return SourcePos(
            self.path, number, "{" + (kind if isinstance(kind, str) else "?") + "}", "line"
        )

    def position(self, number: int, ev: Located) -> SourcePos:
        return self.at(number)


class _Reader:
    def __init__(self, path: str, lines: list[str]) -> None:
        self.path = path
        self.events: list[Event] = []
        self.players = 4
        self.src = _Lines(path, lines)
        self.line = 0  # the number of the line being read, from 1
        self.started = False
        self.start_info: dict[str, Any] = {}
        self.in_round = False
        self.round_index = 0
        self.dealer = 0
        self.scores: list[int] | None = None
        self.sticks = 0
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.last_draw: list[Tile | None] = [None] * 4
        self.last_was_draw = False
        self.riichi: set[int] = set()
        self.declaring: int | None = None  # a riichi declared, not yet accepted
        self.stopped = False
        self.errors: list[tuple[SourcePos, str]] = []
        self.tenhou_archive: bool | None = None  # known at the first start_kyoku

    # -- helpers ---------------------------------------------------------------------
    def seat(self, ev: dict[str, Any], key: str) -> int:
        seat = ev.get(key)
        if type(seat) is int and 0 <= seat < self.players:
            return seat
        seat = _int(ev, key)
        if not 0 <= seat < self.players:
            raise MjaiFail(f"'{key}' {seat} is not a seat 0..{self.players - 1}")
        return seat

    def need_round(self, kind: str) -> None:
        if not self.in_round:
            raise MjaiFail(f"'{kind}' outside a hand (no start_kyoku before it)")

    def ensure_started(self, ev: dict[str, Any] | None = None) -> None:
        if self.started:
            return
        info = self.start_info
        names = info.get("names")
        if not isinstance(names, list):
            names = []
        if ev is not None and isinstance(ev.get("tehais"), list):
            hands = ev["tehais"]
            if len(hands) == 3 or (len(hands) == 4 and not hands[3]):
                self.players = 3
        if len(names) == 3:
            self.players = 3
        players = tuple(PlayerInfo(str(n)) for n in names[:4])
        players += tuple(PlayerInfo("") for _ in range(4 - len(players)))
        aka = info.get("aka_flag")
        first = info.get("kyoku_first")
        hint = RulesHint(
            source="mjai",
            players=self.players,
            aka=aka if isinstance(aka, bool) else True,
            hanchan={0: True, 4: False}.get(first) if type(first) is int else None,
            description=(
                f"{self.players}p mjai log: the rules are not recorded; red fives "
                + ("from aka_flag" if isinstance(aka, bool) else "assumed (aka default on)")
                + (", game length from kyoku_first" if type(first) is int else "")
            ),
        )
        if isinstance(info.get("mahjongsoul"), dict):
            # A Mahjong Soul game as mjaudit converts one (mjai_writer): its room and
            # stated rules, read as Tenhou JSON's rule.mahjongsoul is.
            hint = with_mahjongsoul(hint, info["mahjongsoul"])
        seed = info.get("seed")
        game_id = self.path.rsplit("/", 1)[-1]
        for suffix in (".gz", ".bz2", ".jsonl", ".json", ".mjson"):
            game_id = game_id.removesuffix(suffix)
        uri = info.get("uri")
        if isinstance(uri, str) and "log=" in uri:
            game_id = uri.split("log=", 1)[1].split("&", 1)[0] or game_id
        self.events.append(
            GameStart(
                self.src, game_id, players, hint, 0, None if seed is None else str(seed), self.line
            )
        )
        self.started = True

    # -- handlers ----------------------------------------------------------------------
    def on_start_game(self, ev: dict[str, Any]) -> None:
        if self.started:
            raise MjaiFail("a second start_game: one game per file")
        self.start_info = ev

    def on_start_kyoku(self, ev: dict[str, Any]) -> None:
        self.ensure_started(ev)
        wind = ev.get("bakaze")
        if not isinstance(wind, str) or wind not in _WINDS:
            raise MjaiFail(f"'bakaze' must be one of E S W N, got {short(wind)}")
        kyoku = _int(ev, "kyoku")
        if not 1 <= kyoku <= 4:
            raise MjaiFail(f"'kyoku' {kyoku} is outside 1..4")
        honba = _int(ev, "honba")
        if honba < 0:  # as Tenhou's INIT seed and Tenhou JSON's entry 0
            raise MjaiFail(f"'honba' {honba}: the honba cannot be negative")
        dealer = self.seat(ev, "oya")
        if self.tenhou_archive is None:
            self.tenhou_archive = "uri" in self.start_info and "kyotaku" not in ev
        if "kyotaku" in ev:
            self.sticks = _int(ev, "kyotaku")
            if self.sticks < 0:
                raise MjaiFail(f"'kyotaku' {self.sticks}: the riichi sticks cannot be negative")
        if "scores" in ev:
            self.scores = list(_ints(ev["scores"], "scores", self.players))
        elif self.scores is None:
            self.scores = [35000 if self.players == 3 else 25000] * self.players
            self.scores += [0] * (4 - self.players)
        raw_hands = ev.get("tehais")
        if not isinstance(raw_hands, list) or len(raw_hands) < self.players:
            raise MjaiFail(f"'tehais' must hold {self.players} hands")
        hands = []
        for s in range(4):
            hand = _tiles(raw_hands[s], f"tehais[{s}]") if s < self.players else ()
            if s < self.players and len(hand) != 13:
                raise MjaiFail(f"tehais[{s}] has {len(hand)} tiles, expected 13")
            hands.append(hand)
        self.round_index = _WINDS.index(wind) * 4 + kyoku - 1
        self.dealer = dealer
        self.melds = [[] for _ in range(4)]
        self.last_draw = [None] * 4
        self.riichi = set()
        self.declaring = None
        self.in_round = True
        self.events.append(
            RoundStart(
                self.src,
                number=self.line,
                round_index=self.round_index,
                honba=honba,
                riichi_sticks=self.sticks,
                dealer=dealer,
                scores=tuple(self.scores),
                dora_indicator=tile_of(ev.get("dora_marker")),
                hands=tuple(hands),
                scores_recorded="scores" in ev,
            )
        )

    def actor_tile(self, ev: dict[str, Any]) -> tuple[int, Tile]:
        """The ``actor`` and ``pai`` of a draw or a discard, the events of nearly every
        line: looked up at once where they are right (seat() and tile_of() say what
        is wrong)."""
        seat = ev.get("actor")
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.seat(ev, "actor")
        text = ev.get("pai")
        tile = TILES.get(text) if type(text) is str else None
        if tile is None:
            tile = tile_of(text)
        return seat, tile

    def on_tsumo(self, ev: dict[str, Any]) -> None:
        seat, tile = self.actor_tile(ev)
        self.draw(seat, tile)

    def draw(self, seat: int, tile: Tile) -> None:
        """Seat ``seat`` (one of the game's) draws ``tile`` (a line read or looked up)."""
        self.last_draw[seat] = tile
        self.events.append(make_draw(self.src, seat, tile, None, self.line))

    def on_dahai(self, ev: dict[str, Any]) -> None:
        seat, tile = self.actor_tile(ev)
        flag = ev.get("tsumogiri")
        if flag is not None and not isinstance(flag, bool):
            raise MjaiFail(f"'tsumogiri' must be true or false, got {short(flag)}")
        self.discard(seat, tile, flag)

    def discard(self, seat: int, tile: Tile, flag: bool | None) -> None:
        """Seat ``seat`` discards ``tile``; ``flag`` is the line's ``tsumogiri``, if any."""
        if flag is None:  # only libriichi requires it; infer it as Tenhou's XML is
            tsumogiri = self.last_draw[seat] is tile  # (tiles are interned)
        else:
            # gimite's converter keeps the tile drawn the turn before as "the drawn
            # tile" across a call, so it marks a discard of it after a chi or pon as
            # tsumogiri. Without a draw since the call nothing is tsumogiri.
            tsumogiri = flag and self.last_draw[seat] is not None
        self.last_draw[seat] = None
        self.events.append(make_discard(self.src, seat, tile, tsumogiri, None, self.line))

    def on_call(self, ev: dict[str, Any], kind: MeldKind) -> None:
        seat = self.seat(ev, "actor")
        target = self.seat(ev, "target")
        called = tile_of(ev.get("pai"))
        own = _tiles(ev.get("consumed"), "consumed")
        want = 3 if kind is MeldKind.DAIMINKAN else 2
        if len(own) != want:
            raise MjaiFail(f"a {kind.value} consumes {want} tiles, not {len(own)}")
        meld = Meld(kind, tuple(sorted((*own, called))), called, target)
        self.add_meld(seat, meld)

    def on_kakan(self, ev: dict[str, Any]) -> None:
        seat = self.seat(ev, "actor")
        added = tile_of(ev.get("pai"))
        own = _tiles(ev.get("consumed"), "consumed")
        if len(own) != 3:
            raise MjaiFail(f"a kakan consumes the 3 tiles of its pon, not {len(own)}")
        # kakan has no target: take the called tile and source from the pon (§2.5).
        pon = next(
            (m for m in self.melds[seat] if m.kind is MeldKind.PON and m.kind34 == added.kind),
            None,
        )
        called = pon.called if pon is not None else None
        from_seat = pon.from_seat if pon is not None else None
        tiles = pon.tiles if pon is not None else tuple(sorted(own))
        self.add_meld(seat, Meld(MeldKind.KAKAN, (*tiles, added), called, from_seat, added))

    def on_ankan(self, ev: dict[str, Any]) -> None:
        seat = self.seat(ev, "actor")
        own = _tiles(ev.get("consumed"), "consumed")  # ``pai`` may be "?": ignored
        if len(own) != 4:
            raise MjaiFail(f"an ankan consumes 4 tiles, not {len(own)}")
        self.add_meld(seat, Meld(MeldKind.ANKAN, tuple(sorted(own))))

    def on_kita(self, ev: dict[str, Any]) -> None:
        seat = self.seat(ev, "actor")
        tile = tile_of(ev.get("pai", "N"))
        self.add_meld(seat, Meld(MeldKind.KITA, (tile,)))

    def add_meld(self, seat: int, meld: Meld) -> None:
        events = self.events
        moved: list[Event] = []
        if meld.is_kan:
            # libriichi writes an earlier open kan's indicator *before* the next kan
            # (dora -> ankan -> dora); gimite and Tenhou write it right after the
            # kan (§2.6). Use the Tenhou order, which the replay expects.
            while events and isinstance(events[-1], DoraReveal):
                moved.insert(0, events.pop())
        if meld.kind is MeldKind.KAKAN:
            self.melds[seat] = [
                m
                for m in self.melds[seat]
                if not (m.kind is MeldKind.PON and m.kind34 == meld.kind34)
            ]
        self.melds[seat].append(meld)
        self.last_draw[seat] = None
        events.append(DeclareMeld(self.src, seat, meld, self.line))
        events.extend(moved)

    def on_dora(self, ev: dict[str, Any]) -> None:
        self.events.append(DoraReveal(self.src, tile_of(ev.get("dora_marker")), None, self.line))

    def on_reach(self, ev: dict[str, Any]) -> None:
        self.declaring = self.seat(ev, "actor")
        self.events.append(RiichiDeclared(self.src, self.declaring, self.line))

    def on_reach_accepted(self, ev: dict[str, Any]) -> None:
        seat = self.seat(ev, "actor")
        scores = _ints(ev["scores"], "scores", self.players) if "scores" in ev else None
        # gimite writes the stick's deltas beside the scores (§2.7): a claim as well.
        stick = _ints(ev["deltas"], "deltas", self.players) if "deltas" in ev else None
        self.sticks += 1
        self.riichi.add(seat)
        self.declaring = None
        if self.scores is not None:
            if scores is not None:
                self.scores = list(scores)
            else:
                self.scores[seat] -= 1000
        self.events.append(RiichiAccepted(self.src, seat, scores, self.line, stick))

    def on_hora(self, ev: dict[str, Any]) -> None:
        seat = self.seat(ev, "actor")
        target = self.seat(ev, "target")
        pai = tile_of(ev["pai"]) if "pai" in ev else None
        # Without ``pai`` (older akochan files, §2.8) the winning tile is read off the
        # play (§4): it completes the hand shown, and stays unclaimed itself.
        won = pai if pai is not None else self.won_tile(seat, target)
        hand: tuple[Tile, ...] | None = None
        if "hora_tehais" in ev:
            hand = _tiles(ev["hora_tehais"], "hora_tehais")
            sets = sum(1 for m in self.melds[seat] if m.kind is not MeldKind.KITA)
            # gimite's server leaves the winning tile out on a ron, the Tenhou
            # converter and akochan always do (§2.8); the claim includes it.
            if len(hand) + 3 * sets == 13 and won is not None:
                hand = (*hand, won)
        deltas = _ints(ev["deltas"], "deltas", self.players) if "deltas" in ev else None
        after = _ints(ev["scores"], "scores", self.players) if "scores" in ev else None
        ura_key = next(
            (k for k in ("uradora_markers", "ura_markers", "uradora_marker") if k in ev), None
        )
        ura_raw = ev[ura_key] if ura_key is not None else None
        if ura_key == "ura_markers" and seat not in self.riichi:
            # convlog writes the hand's ura indicators on every hora of the hand,
            # whoever won (§2.8): a winner without riichi was shown none.
            ura_raw = None
        # An empty list is how gimite and libriichi say "no ura shown" (the winner
        # did not riichi); the mjlog says it by leaving doraHaiUra out: None.
        ura = _tiles(ura_raw, "ura markers") if ura_raw else None
        yaku, yakuman, unread = self.yakus(ev, seat, hand, won)
        fan = ev.get("fan")
        han = fan if type(fan) is int and yakuman is None and fan < YAKUMAN_FAN else None
        fu = ev.get("fu")
        if type(fu) is int and fu % 10 and fu != 25:
            fu += -fu % 10  # akochan's unrounded sum, rounded as the table uses it
        points = ev.get("hora_points")
        pao = ev.get("pao")
        claims = WinClaims(
            hand=hand,
            win_tile=pai,
            melds=None,
            han=han,
            fu=fu if type(fu) is int else None,
            points=points if type(points) is int else None,
            yaku=yaku,
            yakuman=yakuman,
            ura_indicators=ura,
            deltas=deltas,
            pao_seat=pao if type(pao) is int and 0 <= pao < self.players else None,
            # gimite (server and TenhouArchive) writes pao where it applies, beside its
            # yakus; libriichi, convlog and akochan never write it (§2.8).
            pao_recorded="pao" in ev or "yakus" in ev,
            scores_after=after,
            yakuman_forms=yakuman is None or (hand is not None and won is not None),
            yaku_unread=unread,
        )
        self.events.append(Win(self.src, seat, target, claims, self.line))
        self.after_result(after, deltas)
        self.sticks = 0

    def won_tile(self, seat: int, target: int) -> Tile | None:
        """The tile a win takes where the log does not name it: the winner's last
        draw for a tsumo; for a ron the last discard, or the tile a kan adds (chankan)."""
        if target == seat:
            return self.last_draw[seat]
        for ev in reversed(self.events):
            if isinstance(ev, Discard):
                return ev.tile
            if isinstance(ev, DeclareMeld):
                meld = ev.meld
                if meld.kind is MeldKind.KAKAN:
                    return meld.added
                return meld.tiles[0] if meld.kind is MeldKind.ANKAN else None
            if isinstance(ev, RoundStart):
                break
        return None

    def yakus(
        self,
        ev: dict[str, Any],
        seat: int,
        hand: tuple[Tile, ...] | None,
        won: Tile | None,
    ) -> tuple[tuple[tuple[Yaku, int], ...] | None, tuple[Yaku, ...] | None, str | None]:
        """The win's yaku claim (ordinary yaku, or yakuman), and what of it could not
        be read: a list with a name the reader does not know (another engine's
        spelling, a Japanese name, §3) is no claim, and says so."""
        raw = ev.get("yakus")
        if raw is None:
            return None, None, None
        if not isinstance(raw, list):
            raise MjaiFail("'yakus' must be a list of [name, fan] pairs")
        yaku: list[tuple[Yaku, int]] = []
        yakuman: list[Yaku] = []
        dragon_fan = 0
        unknown: list[str] = []
        dragon_at = 0  # where the first ``sangenpai`` stands among the yaku
        for written in raw:
            item = written
            if isinstance(item, dict) and len(item) == 2 and "name" in item:
                # {"name": .., "han": ..} (or "fan"), as newer engines write them (§3)
                item = [item["name"], item.get("han", item.get("fan"))]
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not isinstance(item[0], str)
                or type(item[1]) is not int
            ):
                raise MjaiFail(f"yaku {short(written)} is not [name, fan] or {{name, han}}")
            name, fan = item
            if name in WIND_YAKU:
                wind = (
                    self.round_index // 4
                    if name == "bakaze"
                    else (seat - self.dealer) % self.players
                )
                yaku.append((WIND_YAKU[name][wind % 4], fan))
            elif name == "sangenpai":
                # One entry per dragon triplet (the Tenhou converter) or one entry with
                # the count (the server, §3): which dragons, the winner's tiles say.
                if not dragon_fan:
                    dragon_at = len(yaku)
                dragon_fan += fan
            elif name in YAKU_NAMES:
                y = YAKU_NAMES[name]
                if fan >= YAKUMAN_FAN:
                    times = fan // YAKUMAN_FAN
                    if times > _MAX_YAKUMAN:
                        # Each one would be a yakuman in a list: a fan of 15 digits
                        # is more than memory holds.
                        raise MjaiFail(
                            f"yaku {short(item)}: {times} yakuman, more yakuman than a "
                            f"hand can have (at most {_MAX_YAKUMAN} in one yaku)"
                        )
                    yakuman.extend([y] * times)
                else:
                    yaku.append((y, fan))
            else:
                unknown.append(short(name))
        if unknown:
            names = ", ".join(dict.fromkeys(unknown))
            return None, None, f"yaku name{'s' if len(unknown) > 1 else ''} {names}"
        if yakuman:
            return None, tuple(self.double_forms(yakuman, hand, won)), None
        if dragon_fan:
            dragons = self.dragon_sets(seat, hand)
            if dragons is None:
                return None, None, None  # the names cannot be told apart: no yaku claim
            if len(dragons) == dragon_fan:
                yaku[dragon_at:dragon_at] = [(d, 1) for d in dragons]
            else:
                # The fan claimed is not one a dragon triplet: still a claim, on the
                # triplets the hand holds (the extra fan on the last; haku where it
                # holds none), so the check names it rather than passing it over.
                named = dragons[:dragon_fan] or [Yaku.HAKU]
                fans = [1] * len(named)
                fans[-1] += dragon_fan - len(named)
                yaku[dragon_at:dragon_at] = zip(named, fans, strict=True)
        if any(y in (Yaku.RIICHI, Yaku.DOUBLE_RIICHI) for y, _ in yaku) and all(
            y is not Yaku.URA_DORA for y, _ in yaku
        ):
            # gimite lists no yaku worth 0 (§3); Tenhou lists a riichi winner's ura
            # dora even at 0 han. Restore it so the formats claim alike.
            yaku.append((Yaku.URA_DORA, 0))
        return tuple(yaku), None, None

    @staticmethod
    def double_forms(
        yakuman: list[Yaku], hand: tuple[Tile, ...] | None, win: Tile | None
    ) -> list[Yaku]:
        """gimite has one name for a yakuman and its double form (§3); the hand says which.

        Single-wait suuankou: the winning tile is the pair. Pure nine gates: the
        hand before the win is 1112345678999 of one suit. Thirteen-wait kokushi:
        the hand before the win holds all thirteen kinds.
        """
        if hand is None or win is None:
            return yakuman
        before = list(hand)
        if win not in before:  # the replay names this hand; the claim stays as written
            return yakuman
        before.remove(win)
        kinds = Counter(t.kind for t in before)
        out = []
        for y in yakuman:
            if y is Yaku.SUUANKOU and kinds[win.kind] == 1:
                y = Yaku.SUUANKOU_TANKI
            elif y is Yaku.CHUUREN and len(kinds) == 9:
                suit = min(kinds) // 9 * 9
                if [kinds[suit + r] for r in range(9)] == [3, 1, 1, 1, 1, 1, 1, 1, 3]:
                    y = Yaku.JUNSEI_CHUUREN
            elif y is Yaku.KOKUSHI and len(kinds) == 13:
                y = Yaku.KOKUSHI_13
            out.append(y)
        return out

    def dragon_sets(self, seat: int, hand: tuple[Tile, ...] | None) -> list[Yaku] | None:
        """The dragons the winner holds three of: which ones ``sangenpai`` stands for."""
        if hand is None:
            return None
        counts = Counter(t.kind for t in hand)
        for m in self.melds[seat]:
            counts.update(t.kind for t in m.tiles)
        return [DRAGONS[k - 31] for k in (31, 32, 33) if counts[k] >= 3]

    def on_ryukyoku(self, ev: dict[str, Any]) -> None:
        raw = ev.get("reason")
        deltas = _ints(ev["deltas"], "deltas", self.players) if "deltas" in ev else None
        seat = self.declaring
        if (
            raw in (None, "suchareach")
            and seat is not None
            and self.players == 4
            and len(self.riichi - {seat}) == 3
            and self.events
            and isinstance(self.events[-1], Discard)
            and self.events[-1].seat == seat
        ):
            # convlog accepts a riichi at the next take (§2.7), and the four-riichi
            # draw comes before any: the fourth declaration stood, its stick is paid.
            self.on_reach_accepted({"actor": seat})
        if raw is None:
            reason = self.unnamed_draw(deltas)
        elif isinstance(raw, str) and raw in _REASONS:
            reason = _REASONS[raw]
        elif raw == "error":
            # mjai.app's penalty for a bot's invalid move (§6.2): the hand ends there,
            # with a mangan chombo in the deltas, and the game goes on. The deltas say
            # who pays it; without them nothing would.
            if deltas is None:
                raise MjaiFail(
                    "ryukyoku reason 'error' (mjai.app's penalty) without 'deltas': "
                    "which seat was penalised is not recorded"
                )
            reason = DrawReason.PENALTY
        else:
            raise MjaiFail(f"unknown ryukyoku reason {short(raw)}")
        tenpai = None
        flags = ev.get("tenpais")
        if isinstance(flags, list):
            tenpai = tuple(s for s, f in enumerate(flags[: self.players]) if f is True)
        shown: list[tuple[int, tuple[Tile, ...]]] = []
        hands = ev.get("tehais")
        if isinstance(hands, list):
            for s, h in enumerate(hands[: self.players]):
                if isinstance(h, list) and h and "?" not in h and (tenpai is None or s in tenpai):
                    shown.append((s, _tiles(h, f"tehais[{s}]")))
        after = _ints(ev["scores"], "scores", self.players) if "scores" in ev else None
        claims = DrawClaims(tenpai, tuple(shown), deltas=deltas, scores_after=after)
        self.events.append(RoundDraw(self.src, reason, claims, self.line))
        self.after_result(after, deltas)

    def unnamed_draw(self, deltas: tuple[int, ...] | None) -> DrawReason:
        """The kind of a draw written without a reason (libriichi, convlog: §2.9), read
        off the hand's own events: the live wall drawn to its end (nagashi mangan where
        a pond is all terminals and honours, none called), every seat in riichi (three
        with three players), four kans by more than one player, the same wind as the
        first four discards with no call, a draw declared on one's own turn (nine
        terminals), and a stop on a discard that pays nothing (three rons: convlog keeps
        Tenhou's triple-ron draw without its name, §5.1; the audit checks that three
        players can win on the tile). Anything else is taken as exhaustive, and the
        audit then names the tiles left in the live wall."""
        hand: list[Event] = []
        for ev in reversed(self.events):
            if isinstance(ev, RoundStart):
                break
            hand.append(ev)
        hand.reverse()
        draws = sum(1 for ev in hand if isinstance(ev, DrawTile))
        if draws >= _LIVE_DRAWS[self.players]:
            called = {
                ev.meld.from_seat
                for ev in hand
                if isinstance(ev, DeclareMeld) and ev.meld.kind in _CALLED_KINDS
            }
            nagashi = [True] * self.players
            for ev in hand:
                if isinstance(ev, Discard) and not ev.tile.is_yaochu:
                    nagashi[ev.seat] = False
            if any(ok and s not in called for s, ok in enumerate(nagashi)):
                return DrawReason.NAGASHI_MANGAN
            return DrawReason.EXHAUSTIVE
        if len(self.riichi) == self.players:  # three players: all three (round_state)
            return DrawReason.SUUCHA_RIICHI
        kans = [sum(1 for m in melds if m.is_kan) for melds in self.melds]
        if sum(kans) == 4 and sum(1 for k in kans if k) > 1:
            return DrawReason.SUUKAIKAN
        first: list[Tile] = []
        for ev in hand:
            if isinstance(ev, DeclareMeld):
                break
            if isinstance(ev, Discard):
                first.append(ev.tile)
        if (
            self.players == 4
            and len(first) == 4
            and first[0].is_wind
            and all(t.kind == first[0].kind for t in first)
        ):
            return DrawReason.SUUFON_RENDA
        if self.last_was_draw:
            return DrawReason.KYUUSHU
        if self.players == 4 and hand and isinstance(hand[-1], Discard) and not any(deltas or ()):
            return DrawReason.SANCHAHOU
        return DrawReason.EXHAUSTIVE

    def after_result(self, after: tuple[int, ...] | None, deltas: tuple[int, ...] | None) -> None:
        """The scores after a result: those it shows, else the last ones and its deltas."""
        if self.scores is None:
            return
        if after is not None:
            self.scores = list(after)
        elif deltas is not None:
            self.scores = [a + b for a, b in zip(self.scores, deltas, strict=True)]

    def on_end_game(self, ev: dict[str, Any]) -> None:
        self.ensure_started()
        scores = _ints(ev["scores"], "scores", self.players) if "scores" in ev else None
        if self.tenhou_archive and self.sticks:
            scores = None  # running scores, not Tenhou's final ones (see the docstring)
        self.events.append(GameEnd(self.src, EndClaims(final_scores=scores), self.line))
        self.in_round = False

    def handle(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if type(kind) is str and self.in_round:
            handler = _HANDLERS.get(kind)
            if handler is not None:  # nearly every line: a draw or a discard
                handler(self, ev)
                self.last_was_draw = kind == "tsumo"
                return
        if not isinstance(kind, str):
            raise MjaiFail("the event has no 'type'")
        if kind in _IGNORED:
            return
        if kind == "start_game":
            self.on_start_game(ev)
        elif kind == "start_kyoku":
            self.on_start_kyoku(ev)
        elif kind == "end_game":
            self.on_end_game(ev)
        elif kind == "error":
            self.stopped = True
            message = ev.get("message")
            self.errors.append(
                (
                    self.src.at(self.line),
                    f"the server stopped the game: {message}"
                    if message
                    else "the server stopped the game with an error",
                )
            )
        else:
            self.need_round(kind)
            handler = _HANDLERS.get(kind)
            if kind in _CALLS:
                self.on_call(ev, _CALLS[kind])
            elif handler is not None:
                handler(self, ev)
            else:
                raise MjaiFail(f"unknown event type {short(kind)}")
            self.last_was_draw = kind == "tsumo"


# The draws from the live wall in a hand (replacement draws included: each takes a
# tile from the live wall's end into the dead wall): 136 - 14 - 52, 108 - 14 - 39.
_LIVE_DRAWS = {4: 70, 3: 55}
# The calls that take a tile from another seat's pond (which ends its nagashi).
_CALLED_KINDS = frozenset({MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN})

# The handlers of the events inside a hand, by type (calls are in _CALLS): plain
# functions, so that a reader holds no bound methods of itself (no reference cycle).
_HANDLERS: dict[str, Callable[[_Reader, dict[str, Any]], None]] = {
    "tsumo": _Reader.on_tsumo,
    "dahai": _Reader.on_dahai,
    "kakan": _Reader.on_kakan,
    "ankan": _Reader.on_ankan,
    "kita": _Reader.on_kita,
    "nukidora": _Reader.on_kita,
    "dora": _Reader.on_dora,
    "reach": _Reader.on_reach,
    "reach_accepted": _Reader.on_reach_accepted,
    "hora": _Reader.on_hora,
    "ryukyoku": _Reader.on_ryukyoku,
}


_UNREAD = object()  # no value decoded ahead for the line


def _plain_lines() -> dict[str, tuple[bool, int, Tile, bool | None]]:
    """Every draw and discard line as mjai writes it, compact or as Python's json
    writes it (its keys in mjai's order), with what it says: (a draw, the seat, the
    tile, the discard's ``tsumogiri`` or None). A line found here is read without
    decoding it: it decodes to ``type``, ``actor``, ``pai`` (and ``tsumogiri``) only."""
    found: dict[str, tuple[bool, int, Tile, bool | None]] = {}
    flags: tuple[tuple[str, bool | None], ...] = (("", None), ("true", True), ("false", False))
    for colon, comma in ((":", ","), (": ", ", ")):
        for seat in range(4):
            for text, tile in TILES.items():
                rest = f'{comma}"actor"{colon}{seat}{comma}"pai"{colon}"{text}"'
                found[f'{{"type"{colon}"tsumo"{rest}}}'] = (True, seat, tile, None)
                for word, flag in flags:
                    tail = f'{comma}"tsumogiri"{colon}{word}' if word else ""
                    found[f'{{"type"{colon}"dahai"{rest}{tail}}}'] = (False, seat, tile, flag)
    return found


_PLAIN_LINES = _plain_lines()


def parse_mjai(data: bytes, path: str) -> GameLog:
    """Parse one mjai log (JSON lines, already un-gzipped) into a GameLog."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(path, f"byte {exc.start}", "not UTF-8 text") from None
    lines = text.splitlines()
    reader = _Reader(path, lines)
    load_json = json_reader(data)
    # A draw or discard line as mjai writes it is looked up, not decoded (nearly
    # every line); the others are decoded at once where each is one JSON value (a log
    # as written), else line by line, so that the bad line is the one named.
    plain = list(map(_PLAIN_LINES.get, lines))
    decoded = iter(load_json.lines([ln for ln, p in zip(lines, plain, strict=True) if not p]) or ())
    number = 0
    for number, line in enumerate(lines, 1):
        found = plain[number - 1]
        if found is not None and reader.in_round and found[1] < reader.players:
            # What handle() does with the line's event (a draw or discard in a hand).
            is_draw, seat, tile, flag = found
            reader.line = number
            if is_draw:
                reader.draw(seat, tile)
            else:
                reader.discard(seat, tile, flag)
            reader.last_was_draw = is_draw
            continue
        if not line.strip():
            continue
        try:
            ev = next(decoded, _UNREAD) if found is None else _UNREAD
            if ev is _UNREAD:
                ev = load_json(line)
        except BadJson as exc:
            where = f"line {number}" + (f", column {exc.column}" if exc.column else "")
            raise LogFormatError(path, where, f"not valid JSON: {exc.message}") from None
        if not isinstance(ev, dict):
            raise LogFormatError(
                path,
                f"line {number}",
                "expected one event object per line (a JSON array "
                "per line is a bot's input stream, not a log)",
            )
        reader.line = number
        try:
            reader.handle(ev)
        except (MjaiFail, KeyError) as exc:
            kind = ev.get("type")
            message = str(exc) if isinstance(exc, MjaiFail) else f"missing field {exc}"
            raise LogFormatError(path, f"line {number}", f"{kind}: {message}") from None
        if reader.stopped:
            break
    if not any(isinstance(e, RoundStart) for e in reader.events):
        raise LogFormatError(path, f"line {number}", "no hand in this file (no start_kyoku)")
    return GameLog(path, "mjai", tuple(reader.events), tuple(reader.errors))
