"""The replay's records: what each round looked like and what happened in it.

These are the facts the audit, the review and the reports read. The engine that
fills them is in :mod:`analyzer.engine.replay`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from mjaudit.events import GameEnd, GameLog, RoundDraw, RoundStart, Win
from mjaudit.findings import Finding
from mjaudit.frozen import quick_init
from mjaudit.hands import WinContext
from mjaudit.melds import Meld
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile

__all__ = ["DrawRecord", "GameReplay", "PondTile", "RoundReplay", "WinRecord"]


@dataclass(slots=True)
class PondTile:
    """One discard in a seat's pond, with its marks (tsumogiri, riichi, called)."""

    tile: Tile
    tsumogiri: bool
    riichi: bool = False
    called: bool = False
    event_index: int = -1


@quick_init
@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win as the replay saw it, ready to be scored."""

    event_index: int
    event: Win
    seat: int
    from_seat: int
    concealed: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...]
    context: WinContext
    dora_indicators: tuple[Tile | None, ...]
    dealer: int
    scores_before: tuple[int, ...]
    riichi_sticks: int
    honba: int
    kita: int = 0
    # The winner's last kan, as declared (a kakan adds to an older pon, so the meld
    # list's order is not the order of the kans): the four-kong liability reads it.
    last_kan: Meld | None = None
    # The physical ids of the winner's concealed tiles before the win (a tsumo's drawn
    # tile included, a ron's won tile not), sorted; None where the log gives no ids.
    concealed_ids: tuple[int, ...] | None = None
    # How many tiles the winner had discarded in the hand before winning (the win
    # comes on the winner's turn number ``discards + 1``).
    discards: int = 0

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """A drawn hand with the state the draw type must be checked against."""

    event_index: int
    event: RoundDraw
    concealed: tuple[tuple[Tile, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    ponds: tuple[tuple[PondTile, ...], ...]
    riichi: tuple[bool, ...]
    live_remaining: int
    kans_by_seat: tuple[int, ...]
    dealer: int
    scores_before: tuple[int, ...]
    riichi_sticks: int
    honba: int
    first_discards: tuple[Tile | None, ...]
    calls_made: int
    # Each seat's concealed physical ids, sorted; None where the log gives no ids.
    concealed_ids: tuple[tuple[int, ...], ...] | None = None


@dataclass(slots=True)
class RoundReplay:
    """What the replay of one hand recorded: its wins or draw, indicators and findings."""

    index: int
    start: RoundStart
    first_event: int
    last_event: int = -1
    wins: list[WinRecord] = field(default_factory=list)
    draw: DrawRecord | None = None
    dora_indicators: list[Tile | None] = field(default_factory=list)
    riichi_seats: list[int] = field(default_factory=list)
    # The seats that called a discard (chi, pon or open kan) in the hand, in order.
    callers: list[int] = field(default_factory=list)
    # (event index, seat, the scores after the stick, the deltas of the stick) as the
    # log records them (None: not recorded).
    riichi_claims: list[tuple[int, int, tuple[int, ...] | None, tuple[int, ...] | None]] = field(
        default_factory=list
    )
    findings: list[Finding] = field(default_factory=list)
    complete: bool = True
    # What the wall check reads instead of walking every event again: the ids of the
    # tiles drawn, in order (all_drawn_ids: every draw had one), the places in that
    # list of the replacement draws, and the indexes of the events that are neither a
    # draw nor a discard.
    drawn_ids: list[int] = field(default_factory=list)
    all_drawn_ids: bool = True
    replacement_draws: list[int] = field(default_factory=list)
    other_events: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.start.label


@dataclass(slots=True)
class GameReplay:
    """What the replay of one game recorded, hand by hand."""

    log: GameLog
    rules: Ruleset
    rounds: list[RoundReplay] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    end: GameEnd | None = None
    end_index: int = -1

    @property
    def players(self) -> int:
        return self.rules.players

    def round_index_at(self, event: int) -> int | None:
        """The index of the last hand that starts at or before event ``event`` (the
        hand it belongs to, or the last one for an event after every hand)."""
        k = bisect_right([r.first_event for r in self.rounds], event) - 1
        return k if k >= 0 else None
