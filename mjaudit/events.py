"""Format-neutral game events.

Parsers turn every wire format into this stream; the replay engine consumes it.
Seats are absolute (0 = first dealer) and fixed for the game. Points are plain
points (25000, not 250). What the log *claims* about a result travels untouched in
the ``claims`` of :class:`Win`, :class:`RoundDraw` and :class:`GameEnd`; every
claim is optional because formats record different things.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Protocol

from mjaudit.errors import SourcePos
from mjaudit.frozen import quick_builder, quick_init
from mjaudit.melds import Meld
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku

__all__ = [
    "DeclareMeld",
    "Discard",
    "DoraReveal",
    "DrawClaims",
    "DrawReason",
    "DrawTile",
    "EndClaims",
    "Event",
    "GameEnd",
    "GameLog",
    "GameStart",
    "Limit",
    "PlayerInfo",
    "PositionSource",
    "Presence",
    "RiichiAccepted",
    "RiichiDeclared",
    "RoundDraw",
    "RoundStart",
    "RulesHint",
    "Win",
    "WinClaims",
    "make_discard",
    "make_draw",
    "round_label",
    "seat_name",
    "with_pos",
]


class Limit(IntEnum):
    """Limit hand bands; the values match Tenhou's limit codes."""

    NONE = 0
    MANGAN = 1
    HANEMAN = 2
    BAIMAN = 3
    SANBAIMAN = 4
    YAKUMAN = 5


class DrawReason(Enum):
    EXHAUSTIVE = "exhaustive"
    NAGASHI_MANGAN = "nagashi-mangan"
    KYUUSHU = "kyuushu"
    SUUFON_RENDA = "suufon-renda"
    SUUCHA_RIICHI = "suucha-riichi"
    SUUKAIKAN = "suukaikan"
    SANCHAHOU = "sanchahou"
    # Not a draw of the rules: the server ended the hand to penalise a player's
    # invalid move (mjai.app's ``ryukyoku`` with ``reason: "error"``, a mangan chombo
    # paid by that player). Nothing of the hand is judged as a draw; its deltas are
    # judged as the penalty.
    PENALTY = "penalty"

    @property
    def abortive(self) -> bool:
        """An abortive draw of the rules (a penalty is none)."""
        return self not in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN, DrawReason.PENALTY)


def round_label(round_index: int, honba: int) -> str:
    """``E1-0`` style label: wind letter, hand number, honba."""
    return f"{'ESWN'[(round_index // 4) % 4]}{round_index % 4 + 1}-{honba}"


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as the log names them, with rank, rating and sex where it records them."""

    name: str
    dan: str | None = None
    rate: float | None = None
    sex: str | None = None


def seat_name(players: Sequence[PlayerInfo], seat: int) -> str:
    """The name a seat is shown and counted by: the player's, or ``seat N`` where the
    log gives none (every output alike: the reports, the store)."""
    name = players[seat].name if seat < len(players) else ""
    return name or f"seat {seat}"


@dataclass(frozen=True, slots=True)
class RulesHint:
    """What the log says about its rules; ``--rules auto`` turns it into a Ruleset."""

    source: str
    players: int = 4
    aka: bool | None = None
    kuitan: bool | None = None
    hanchan: bool | None = None
    fast: bool | None = None
    room: str | None = None
    special_lobby: bool = False
    description: str = ""
    extras: tuple[tuple[str, str], ...] = ()
    # The log states no lobby type (Tenhou's <GO> without ``type``): what the parser
    # assumed instead, in words. None: the log states it (or the format has none).
    assumed_type: str | None = None
    # A Mahjong Soul game, read from its own record or from converter JSON that names
    # one of its rooms: "mahjongsoul". None for every other platform.
    platform: str | None = None
    # The kind of Mahjong Soul game: "ranked", "friendly", "tournament" or "ai" (a
    # game against the built-in AI). None where the log does not say or elsewhere.
    category: str | None = None
    # The rule settings the record itself states (Mahjong Soul's ``detail_rule``),
    # sorted, keys in snake_case and values as text: (("fandian", "40000"), ...).
    stated_rules: tuple[tuple[str, str], ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class WinClaims:
    """What the log says about one win. ``None`` = the format does not record it."""

    hand: tuple[Tile, ...] | None = None
    hand_ids: tuple[int, ...] | None = None
    win_tile: Tile | None = None
    win_tile_id: int | None = None
    melds: tuple[Meld, ...] | None = None
    han: int | None = None
    fu: int | None = None
    points: int | None = None
    limit: Limit | None = None
    yaku: tuple[tuple[Yaku, int], ...] | None = None
    yakuman: tuple[Yaku, ...] | None = None
    dora_indicators: tuple[Tile, ...] | None = None
    dora_indicator_ids: tuple[int, ...] | None = None
    ura_indicators: tuple[Tile, ...] | None = None
    ura_indicator_ids: tuple[int, ...] | None = None
    honba: int | None = None
    riichi_sticks: int | None = None
    scores_before: tuple[int, ...] | None = None
    deltas: tuple[int, ...] | None = None
    pao_seat: int | None = None
    extra_deltas: tuple[int, ...] | None = None
    # The scores after this result, where the format writes them (mjai's ``scores``).
    scores_after: tuple[int, ...] | None = None
    # False where the format does not record pao at all (libriichi, convlog, akochan:
    # mjai-format.md §2.8), so that ``pao_seat`` None says nothing rather than "nobody".
    pao_recorded: bool = True
    # False where one yakuman name stands for its single and double forms alike (mjai
    # with no winning hand to tell them by: ``suanko`` for suuankou and its tanki).
    yakuman_forms: bool = True
    # The log lists the win's yaku, but in a form that cannot be read (an mjai yaku
    # name the reader does not know): what is not understood, for an ``unchecked``
    # warning. ``yaku`` and ``yakuman`` are then None (no claim); the other claims
    # stand. None: the yaku are read, or not recorded.
    yaku_unread: str | None = None


@dataclass(frozen=True, slots=True)
class DrawClaims:
    """What the log says about a hand that ended without a win. ``None``: not recorded."""

    tenpai: tuple[int, ...] | None = None
    hands: tuple[tuple[int, tuple[Tile, ...]], ...] = ()
    honba: int | None = None
    riichi_sticks: int | None = None
    scores_before: tuple[int, ...] | None = None
    deltas: tuple[int, ...] | None = None
    # The physical ids of the hands shown, by seat, where the format has them. Left
    # out of equality: two claims that show the same tiles are the same claim to the
    # formats without ids (a written and re-read log, the twins of a game).
    hand_ids: tuple[tuple[int, tuple[int, ...]], ...] = field(default=(), compare=False)
    # The scores after the draw's payments, where the format writes them (mjai).
    scores_after: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class EndClaims:
    """What the log says about the end of the game: final scores and result points."""

    final_scores: tuple[int, ...] | None = None
    results: tuple[float, ...] | None = None
    result_texts: tuple[str, ...] | None = None
    # The log records its result in a form that cannot be read (a Mahjong Soul result
    # that lists a seat twice, say): what is wrong, for an ``unchecked`` warning.
    unread: str | None = None


class PositionSource(Protocol):
    """Makes an event's SourcePos from the number a parser stored.

    A Tenhou log is nearly all draws and discards, a thousand per game. A parser may
    give each event, instead of a SourcePos of its own, one source object shared by the
    whole file and the element number; the event's ``pos`` asks the source for the
    SourcePos when something reads it (a finding, an error).
    """

    def position(self, number: int, ev: Located) -> SourcePos: ...


class Located:
    """Where an event came from, stored the same way by every kind of event.

    ``where`` is the SourcePos itself, or the file's :class:`PositionSource`, which
    makes it from ``number`` (0 when ``where`` is a SourcePos). Read it as ``pos``.
    A base without fields or slots of its own: each event class declares both as its
    first and last fields.
    """

    __slots__ = ()
    where: SourcePos | PositionSource
    number: int

    @property
    def pos(self) -> SourcePos:
        """The event's position in its file."""
        where = self.where
        if isinstance(where, SourcePos):
            return where
        return where.position(self.number, self)


@dataclass(frozen=True, slots=True)
class GameStart(Located):
    """The game begins: its id, its players, the rules hint and the first dealer."""

    where: SourcePos | PositionSource
    game_id: str
    players: tuple[PlayerInfo, ...]
    rules_hint: RulesHint
    first_dealer: int = 0
    seed: str | None = None
    number: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStart(Located):
    """A hand is dealt: round, honba, sticks, dealer, scores, indicator and hands."""

    where: SourcePos | PositionSource
    round_index: int
    honba: int
    riichi_sticks: int
    dealer: int
    scores: tuple[int, ...]
    dora_indicator: Tile
    hands: tuple[tuple[Tile, ...], ...]
    dice: tuple[int, int] | None = None
    dora_indicator_id: int | None = None
    hand_ids: tuple[tuple[int, ...], ...] | None = None
    shuffle: str | None = None
    # The wall as the record commits to it before the hand (Mahjong Soul's
    # ``paishan``: mpsz pairs, in the record's own order, as text) and the hash the
    # server published for it, (algorithm, lowercase hex): ("md5", "edfe..."). None
    # where the format carries no wall.
    wall_text: str | None = None
    wall_hash: tuple[str, str] | None = None
    number: int = 0
    # False where the format gives no scores at the hand's start and ``scores`` are
    # carried over from the last result's (mjai without ``scores``): no claim of
    # their own.
    scores_recorded: bool = True
    # Why the log's play of this hand cannot be read, where its reader could not put
    # it together (a Tenhou JSON kyoku whose take and discard lists fit no order of
    # play): the hand holds no play then, only its result as recorded, and the replay
    # calls it broken with this reason (``inconsistent-log``). None for a hand read.
    unreadable: str | None = None

    @property
    def label(self) -> str:
        return round_label(self.round_index, self.honba)


@dataclass(frozen=True, slots=True)
class DrawTile(Located):
    """Seat ``seat`` draws ``tile``."""

    where: SourcePos | PositionSource
    seat: int
    tile: Tile
    tile_id: int | None = None
    number: int = 0


@dataclass(frozen=True, slots=True)
class Discard(Located):
    """Seat ``seat`` discards ``tile``."""

    where: SourcePos | PositionSource
    seat: int
    tile: Tile
    tsumogiri: bool
    tile_id: int | None = None
    number: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class DeclareMeld(Located):
    """Any call, or a self-declared kan or kita."""

    where: SourcePos | PositionSource
    seat: int
    meld: Meld
    number: int = 0


class _DrawMaker(Protocol):
    def __call__(
        self,
        where: SourcePos | PositionSource,
        seat: int,
        tile: Tile,
        tile_id: int | None = None,
        number: int = 0,
    ) -> DrawTile: ...


class _DiscardMaker(Protocol):
    def __call__(
        self,
        where: SourcePos | PositionSource,
        seat: int,
        tile: Tile,
        tsumogiri: bool,
        tile_id: int | None = None,
        number: int = 0,
    ) -> Discard: ...


# Parsers build a draw or a discard for nearly every element of a log: these plain
# functions take the constructors' arguments and build the same frozen values in
# about a third of the time (mjaudit.frozen.quick_builder).
make_draw: _DrawMaker = quick_builder(DrawTile, "make_draw")
make_discard: _DiscardMaker = quick_builder(Discard, "make_discard")


@dataclass(frozen=True, slots=True)
class DoraReveal(Located):
    """A new dora indicator is turned (after a kan)."""

    where: SourcePos | PositionSource
    indicator: Tile
    tile_id: int | None = None
    number: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class RiichiDeclared(Located):
    """Seat ``seat`` declares riichi; its next discard is the declaration tile."""

    where: SourcePos | PositionSource
    seat: int
    number: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class RiichiAccepted(Located):
    """Seat ``seat``'s riichi stands: the stick is paid (``scores`` after it, and the
    ``deltas`` it made, if recorded)."""

    where: SourcePos | PositionSource
    seat: int
    scores: tuple[int, ...] | None = None
    number: int = 0
    deltas: tuple[int, ...] | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Win(Located):
    """Seat ``seat`` wins, off ``from_seat`` (itself for a tsumo), with what the log claims."""

    where: SourcePos | PositionSource
    seat: int
    from_seat: int
    claims: WinClaims = field(default_factory=WinClaims)
    number: int = 0

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass(frozen=True, slots=True)
class RoundDraw(Located):
    """The hand ends without a win, for ``reason``, with what the log claims."""

    where: SourcePos | PositionSource
    reason: DrawReason
    claims: DrawClaims = field(default_factory=DrawClaims)
    number: int = 0


@dataclass(frozen=True, slots=True)
class GameEnd(Located):
    """The game is over, with the final scores and results the log claims."""

    where: SourcePos | PositionSource
    claims: EndClaims = field(default_factory=EndClaims)
    number: int = 0


@dataclass(frozen=True, slots=True)
class Presence(Located):
    """A player disconnected (``connected=False``) or came back."""

    where: SourcePos | PositionSource
    seat: int
    connected: bool
    number: int = 0


Event = (
    GameStart
    | RoundStart
    | DrawTile
    | Discard
    | DeclareMeld
    | DoraReveal
    | RiichiDeclared
    | RiichiAccepted
    | Win
    | RoundDraw
    | GameEnd
    | Presence
)


def with_pos(ev: Event, pos: SourcePos) -> Event:
    """``ev`` at ``pos`` instead."""
    return replace(ev, where=pos, number=0)


@dataclass(frozen=True, slots=True)
class GameLog:
    """One parsed game: where it came from, its format and its events in order."""

    path: str
    format: str
    events: tuple[Event, ...]
    # Faults the log itself reports, such as an mjai server's ``error`` line that
    # stopped the game: (where, what). The parser keeps what came before it.
    errors: tuple[tuple[SourcePos, str], ...] = ()

    @property
    def start(self) -> GameStart:
        first = self.events[0]
        assert isinstance(first, GameStart)
        return first

    @property
    def players(self) -> int:
        return self.start.rules_hint.players
