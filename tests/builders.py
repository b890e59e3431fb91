"""Tiny event builders that speak mahjong, for tests and sample logs.

>>> b = GameBuilder(("A", "B", "C", "D"))
>>> b.start_round(["123m456p789s1122z"] * 2 + ["234m567p678s3344z"] * 2, dora="9m")

The builder hands out unique physical Tenhou ids (kind * 4 + copy; with aka the red
five is copy 0 and plain fives take copies 1..3), keeps every seat's concealed ids,
the scores and the riichi sticks, and stamps each event with a :class:`SourcePos`
that numbers the elements the way the mjlog writer lays them out. It never judges:
what a win or a draw is worth (han, fu, points, yaku, deltas) is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjaudit.errors import SourcePos
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
    PlayerInfo,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    RulesHint,
    Win,
    WinClaims,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, tiles
from mjaudit.yaku import Yaku

__all__ = ["GameBuilder", "rules_hint"]

_ROOM_BITS = {"ippan": 0x00, "joukyuu": 0x80, "tokujou": 0x20, "houou": 0xA0}


def rules_hint(
    *,
    aka: bool = True,
    kuitan: bool = True,
    hanchan: bool = False,
    fast: bool = False,
    room: str = "ippan",
) -> RulesHint:
    """A four-player Tenhou rules hint, worded as the mjlog parser words it."""
    gtype = 0x01 | _ROOM_BITS[room]
    gtype |= (0 if aka else 0x02) | (0 if kuitan else 0x04)
    gtype |= (0x08 if hanchan else 0) | (0x40 if fast else 0)
    desc = (
        f"4p {room} {'hanchan' if hanchan else 'tonpuusen'}"
        f"{' aka' if aka else ''}{' kuitan' if kuitan else ''}"
        f"{' fast' if fast else ''} (GO type {gtype})"
    )
    return RulesHint(
        source="tenhou-xml",
        players=4,
        aka=aka,
        kuitan=kuitan,
        hanchan=hanchan,
        fast=fast,
        room=room,
        description=desc,
        extras=(("lobby", "0"),),
    )


class GameBuilder:
    """Builds one four-player game, event by event, in mpsz."""

    def __init__(
        self,
        names: Sequence[str] = ("A", "B", "C", "D"),
        *,
        path: str = "built.xml",
        aka: bool = True,
        hanchan: bool = False,
    ) -> None:
        self.path = path
        self.aka = aka
        self.events: list[Event] = []
        self.element = 3  # GO, UN, TAIKYOKU come first in the document
        self.scores = [25000] * 4
        self.sticks = 0
        game_id = path.rsplit("/", 1)[-1].removesuffix(".xml")
        players = tuple(PlayerInfo(n, "1dan", 1500.0, "M") for n in names)
        hint = rules_hint(aka=aka, hanchan=hanchan)
        self.add(GameStart(self.pos("<TAIKYOKU>"), game_id, players, hint))
        self._reset()

    # -- bookkeeping ---------------------------------------------------------------
    def _reset(self) -> None:
        self.free: dict[int, list[int]] = {}
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.indicators: list[int] = []
        self.last_draw: tuple[int, int] | None = None
        self.last_discard: tuple[int, int] | None = None
        self.last_kakan: tuple[int, int] | None = None
        self.riichi_seats: list[int] = []
        self.drawn = 0
        self.round: RoundStart | None = None

    def pos(self, tag: str) -> SourcePos:
        # Worded as the parser words positions: "<T52/>", "<REACH/>", "<RYUUKYOKU>".
        name = tag.strip("<>/")
        return SourcePos(self.path, self.element, f"<{name}/>" if len(name) < 6 else f"<{name}>")

    def add(self, event: Event, advance: bool = True) -> None:
        self.events.append(event)
        if advance:
            self.element += 1

    def tile(self, tile_id: int) -> Tile:
        return Tile(tile_id // 4, self.aka and tile_id in (16, 52, 88))

    def take_id(self, text: str) -> int:
        """A fresh physical id for one mpsz tile (raises when all copies are out)."""
        tile = Tile(text)
        copies = self.free.setdefault(tile.kind, [tile.kind * 4 + c for c in range(4)])
        for i in copies:
            if self.tile(i) == tile:
                copies.remove(i)
                return i
        raise ValueError(f"no copy of {tile} left in the wall")

    def remaining(self, text: str) -> int:
        """How many copies of one mpsz tile have not been dealt, drawn or turned yet."""
        tile = Tile(text)
        copies = self.free.get(tile.kind, [tile.kind * 4 + c for c in range(4)])
        return sum(1 for i in copies if self.tile(i) == tile)

    def held(self, seat: int, text: str, prefer: int | None = None) -> int:
        """The id of a tile ``seat`` holds (the just-drawn copy first, if it matches)."""
        tile = Tile(text)
        hand = self.hands[seat]
        if prefer is not None and prefer in hand and self.tile(prefer) == tile:
            return prefer
        for i in hand:
            if self.tile(i) == tile:
                return i
        held = " ".join(str(self.tile(i)) for i in sorted(hand))
        raise ValueError(f"seat {seat} has no {tile} in {held}")

    def give_up(self, seat: int, text: str) -> int:
        tile_id = self.held(seat, text)
        self.hands[seat].remove(tile_id)
        return tile_id

    # -- the round -------------------------------------------------------------------
    def start_round(
        self,
        hands: Sequence[str],
        dora: str,
        *,
        round_index: int = 0,
        honba: int = 0,
        dice: tuple[int, int] = (3, 4),
    ) -> None:
        """Deal: four 13-tile hands and the first dora indicator.

        Scores and riichi sticks carry over from the previous result.
        """
        self._reset()
        if len(hands) != 4:
            raise ValueError("four hands, one per seat")
        hand_ids = []
        for seat, text in enumerate(hands):
            ids = tuple(self.take_id(str(t)) for t in tiles(text))
            if len(ids) != 13:
                raise ValueError(f"seat {seat} is dealt {len(ids)} tiles, not 13")
            hand_ids.append(ids)
            self.hands[seat] = list(ids)
        indicator = self.take_id(dora)
        self.indicators = [indicator]
        start = RoundStart(
            self.pos("<INIT>"),
            round_index=round_index,
            honba=honba,
            riichi_sticks=self.sticks,
            dealer=round_index % 4,
            scores=tuple(self.scores),
            dora_indicator=self.tile(indicator),
            hands=tuple(tuple(self.tile(i) for i in h) for h in hand_ids),
            dice=dice,
            dora_indicator_id=indicator,
            hand_ids=tuple(hand_ids),
        )
        self.round = start
        self.add(start)

    def draw(self, seat: int, tile: str) -> None:
        tile_id = self.take_id(tile)
        self.hands[seat].append(tile_id)
        self.drawn += 1
        self.last_draw = (seat, tile_id)
        self.last_discard = self.last_kakan = None
        self.add(
            DrawTile(self.pos(f"<{'TUVW'[seat]}{tile_id}/>"), seat, self.tile(tile_id), tile_id)
        )

    def discard(self, seat: int, tile: str) -> None:
        """Discard from the hand; the just-drawn copy goes first (tsumogiri)."""
        drawn = self.last_draw[1] if self.last_draw and self.last_draw[0] == seat else None
        tile_id = self.held(seat, tile, prefer=drawn)
        self.hands[seat].remove(tile_id)
        self.last_draw = self.last_kakan = None
        self.last_discard = (seat, tile_id)
        tag = f"<{'DEFG'[seat]}{tile_id}/>"
        self.add(Discard(self.pos(tag), seat, self.tile(tile_id), tile_id == drawn, tile_id))

    def turn(self, seat: int, draw: str, discard: str | None = None) -> None:
        """Draw, then discard (the drawn tile when ``discard`` is None)."""
        self.draw(seat, draw)
        self.discard(seat, discard or draw)

    def riichi(self, seat: int, discard: str, *, accepted: bool = True) -> None:
        """Declare riichi with ``discard``; the stick is paid unless the discard is ronned."""
        self.add(RiichiDeclared(self.pos("<REACH>"), seat))
        self.discard(seat, discard)
        if accepted:
            self.scores[seat] -= 1000
            self.sticks += 1
            self.riichi_seats.append(seat)
            self.add(RiichiAccepted(self.pos("<REACH>"), seat, tuple(self.scores)))

    def dora(self, indicator: str) -> None:
        """Turn a kan dora indicator (the caller decides when, as the log would)."""
        tile_id = self.take_id(indicator)
        self.indicators.append(tile_id)
        self.add(DoraReveal(self.pos("<DORA>"), self.tile(tile_id), tile_id))

    # -- calls ----------------------------------------------------------------------
    def _call(self, seat: int, kind: MeldKind, own: str) -> None:
        if self.last_discard is None:
            raise ValueError(f"seat {seat} calls {kind.value} with no discard to call")
        from_seat, called_id = self.last_discard
        own_ids = [self.give_up(seat, str(t)) for t in tiles(own)]
        ids = tuple(sorted([*own_ids, called_id]))
        meld = Meld(
            kind,
            tuple(self.tile(i) for i in ids),
            self.tile(called_id),
            from_seat,
            None,
            ids,
            called_id,
        )
        self._declare(seat, meld)

    def _declare(self, seat: int, meld: Meld) -> None:
        self.melds[seat].append(meld)
        self.last_discard = self.last_draw = None
        self.add(DeclareMeld(self.pos("<N>"), seat, meld))

    def chi(self, seat: int, own: str) -> None:
        """Chi the last discard with the two tiles ``own``, e.g. ``chi(1, "46m")``."""
        self._call(seat, MeldKind.CHI, own)

    def pon(self, seat: int, own: str | None = None) -> None:
        """Pon the last discard (with ``own``, e.g. ``"05m"``, to choose the copies)."""
        self._call(seat, MeldKind.PON, own or self._copies(2))

    def daiminkan(self, seat: int) -> None:
        """Call an open kan on the last discard; draw the replacement next."""
        self._call(seat, MeldKind.DAIMINKAN, self._copies(3))

    def _copies(self, n: int) -> str:
        if self.last_discard is None:
            raise ValueError("no discard to call")
        return str(self.tile(self.last_discard[1]).plain) * n

    def kakan(self, seat: int, tile: str) -> None:
        """Add ``tile`` from the hand to the seat's pon of that kind."""
        kind = Tile(tile).kind
        k = next(
            (
                k
                for k, m in enumerate(self.melds[seat])
                if m.kind is MeldKind.PON and m.kind34 == kind
            ),
            None,
        )
        if k is None:
            raise ValueError(f"seat {seat} has no pon of {tile} to add to")
        pon = self.melds[seat][k]
        assert pon.tile_ids is not None
        added = self.give_up(seat, tile)
        meld = Meld(
            MeldKind.KAKAN,
            (*pon.tiles, self.tile(added)),
            pon.called,
            pon.from_seat,
            self.tile(added),
            (*pon.tile_ids, added),
            pon.called_id,
            added,
        )
        self.melds[seat][k] = meld
        self.last_discard = self.last_draw = None
        self.last_kakan = (seat, added)
        self.add(DeclareMeld(self.pos("<N>"), seat, meld))

    def ankan(self, seat: int, tile: str) -> None:
        """Declare a concealed kan of four ``tile`` from the hand."""
        kind = Tile(tile).kind
        ids = tuple(sorted(i for i in self.hands[seat] if i // 4 == kind))
        if len(ids) != 4:
            raise ValueError(f"seat {seat} holds {len(ids)} of {tile}, not 4")
        for i in ids:
            self.hands[seat].remove(i)
        meld = Meld(MeldKind.ANKAN, tuple(self.tile(i) for i in ids), None, None, None, ids)
        self._declare(seat, meld)

    # -- results ----------------------------------------------------------------------
    def ron(
        self,
        seat: int,
        from_seat: int,
        *,
        fu: int,
        points: int,
        yaku: Sequence[tuple[Yaku, int]],
        deltas: Sequence[int],
        limit: Limit = Limit.NONE,
        ura: str | None = None,
    ) -> None:
        """``seat`` rons the last discard (or the tile added to a kakan: chankan)."""
        if self.last_discard is not None and self.last_discard[0] == from_seat:
            win_id = self.last_discard[1]
        elif self.last_kakan is not None and self.last_kakan[0] == from_seat:
            win_id = self.last_kakan[1]
        else:
            raise ValueError(f"seat {from_seat} has no tile for seat {seat} to ron")
        self._win(
            seat,
            from_seat,
            win_id,
            [*self.hands[seat], win_id],
            fu,
            points,
            yaku,
            deltas,
            limit,
            ura,
        )

    def tsumo(
        self,
        seat: int,
        *,
        fu: int,
        points: int,
        yaku: Sequence[tuple[Yaku, int]],
        deltas: Sequence[int],
        limit: Limit = Limit.NONE,
        ura: str | None = None,
    ) -> None:
        """``seat`` wins on the tile it just drew."""
        if self.last_draw is None or self.last_draw[0] != seat:
            raise ValueError(f"seat {seat} has not just drawn")
        win_id = self.last_draw[1]
        self._win(seat, seat, win_id, list(self.hands[seat]), fu, points, yaku, deltas, limit, ura)

    def _win(
        self,
        seat: int,
        from_seat: int,
        win_id: int,
        hand: list[int],
        fu: int,
        points: int,
        yaku: Sequence[tuple[Yaku, int]],
        deltas: Sequence[int],
        limit: Limit,
        ura: str | None,
    ) -> None:
        start = self._need_round()
        # Double ron: the first winner takes the sticks (so a second win records
        # none); both records keep the honba count, which only the first is paid.
        honba, sticks = start.honba, self.sticks
        ura_ids = tuple(self.take_id(str(t)) for t in tiles(ura)) if ura is not None else None
        hand_ids = tuple(sorted(hand))
        claims = WinClaims(
            hand=tuple(self.tile(i) for i in hand_ids),
            hand_ids=hand_ids,
            win_tile=self.tile(win_id),
            win_tile_id=win_id,
            melds=tuple(self.melds[seat]),
            han=sum(h for _, h in yaku),
            fu=fu,
            points=points,
            limit=limit,
            yaku=tuple(yaku),
            dora_indicators=tuple(self.tile(i) for i in self.indicators),
            dora_indicator_ids=tuple(self.indicators),
            ura_indicators=tuple(self.tile(i) for i in ura_ids) if ura_ids is not None else None,
            ura_indicator_ids=ura_ids,
            honba=honba,
            riichi_sticks=sticks,
            scores_before=tuple(self.scores),
            deltas=tuple(deltas),
        )
        self._settle(deltas)
        self.add(Win(self.pos("<AGARI>"), seat, from_seat, claims))

    def draw_game(
        self,
        deltas: Sequence[int],
        *,
        tenpai: Sequence[int] = (),
        reason: DrawReason = DrawReason.EXHAUSTIVE,
    ) -> None:
        """End the hand without a winner; ``tenpai`` seats show their hands."""
        start = self._need_round()
        shown = tuple(
            (s, tuple(self.tile(i) for i in sorted(self.hands[s]))) for s in sorted(tenpai)
        )
        exhaustive = reason in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)
        claims = DrawClaims(
            tenpai=tuple(sorted(tenpai)) if exhaustive else None,
            hands=shown,
            honba=start.honba,
            riichi_sticks=self.sticks,
            scores_before=tuple(self.scores),
            deltas=tuple(deltas),
        )
        self._settle(deltas, keep_sticks=True)
        self.add(RoundDraw(self.pos("<RYUUKYOKU>"), reason, claims))

    def _settle(self, deltas: Sequence[int], keep_sticks: bool = False) -> None:
        if len(deltas) != 4:
            raise ValueError("four deltas, one per seat")
        for s in range(4):
            self.scores[s] += deltas[s]
        if not keep_sticks:
            self.sticks = 0

    def _need_round(self) -> RoundStart:
        if self.round is None:
            raise ValueError("no round started")
        return self.round

    def end(self, final_scores: Sequence[int], results: Sequence[float]) -> None:
        """The game's final scores (with leftover sticks) and results (with uma)."""
        texts = tuple(f"{r:.1f}" for r in results)
        claims = EndClaims(tuple(final_scores), tuple(float(t) for t in texts), texts)
        self.add(GameEnd(self.events[-1].pos, claims), advance=False)

    def disconnect(self, seat: int) -> None:
        self.add(Presence(self.pos("<BYE>"), seat, False))

    def reconnect(self, seat: int) -> None:
        self.add(Presence(self.pos("<UN>"), seat, True))

    # -- the result ---------------------------------------------------------------------
    def build(self) -> GameLog:
        return GameLog(self.path, "tenhou-xml", tuple(self.events))
