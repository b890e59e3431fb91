"""When each kan's dora indicator must be turned, and whether the log turned it then.

The rules decide the moment (rules-matrix §A): Tenhou turns an ankan's indicator
at once, before the replacement draw; a daiminkan's or kakan's at the kanner's
discard (before anyone can ron it) or at a following kan; never for a kakan robbed
by chankan (and a pending one from an earlier open kan then stays unturned too);
never a pending one on a rinshan win. Presets with ``immediate`` open-kan timing
(M.League, WRC) turn every kan's indicator right after its chankan window.

The clock is told about every event before it is applied (:meth:`settle`) and about
every indicator the log turns (:meth:`seen`). It compares the two and reports each
displaced indicator once: turned late, turned early, turned where none is due, or
never turned.
"""

from __future__ import annotations

from collections.abc import Callable

from mjaudit.errors import SourcePos
from mjaudit.events import Discard, DoraReveal, Event, Win
from mjaudit.melds import MeldKind
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile

__all__ = ["KanDoraClock", "Report"]

# code, message, where, expected, actual
Report = Callable[[str, str, SourcePos, object, object], None]


class KanDoraClock:
    """The indicators in force, and the ones the rules still owe."""

    __slots__ = (
        "dora",
        "dora_ids",
        "early",
        "gap",
        "kan_window",
        "missing",
        "pending",
        "pending_seat",
    )

    def __init__(self, first: Tile, first_id: int | None) -> None:
        self.dora: list[Tile | None] = [first]  # None: due, but the log has not turned it
        self.dora_ids: list[int | None] = [first_id]
        self.pending = 0  # open-kan indicators waiting for the kanner's discard
        self.pending_seat: int | None = None
        self.kan_window: tuple[int, MeldKind, int] | None = None  # seat, kind, flushed
        self.gap: list[DoraReveal] = []  # indicators the log turned since the last event
        self.missing: list[tuple[int, SourcePos]] = []  # slots due but not yet turned
        self.early: list[DoraReveal] = []  # turned before they were due (reported)

    @property
    def busy(self) -> bool:
        """Whether anything is owed or unmatched (most events need no settling)."""
        return self.kan_window is not None or bool(self.pending) or bool(self.gap)

    def kan(self, seat: int, kind: MeldKind) -> None:
        """A kan was declared: any open-kan indicator still pending is turned with it."""
        self.kan_window = (seat, kind, self.pending)
        self.pending = 0

    def seen(self, reveal: DoraReveal) -> None:
        self.gap.append(reveal)

    def settle(self, event: Event, rules: Ruleset, report: Report) -> None:
        """Match the indicators the rules require right before ``event`` with the log's."""
        expected = 0
        if self.kan_window is not None:
            seat, kind, flushed = self.kan_window
            self.kan_window = None
            if isinstance(event, Win) and kind in (MeldKind.KAKAN, MeldKind.ANKAN):
                # Chankan: the robbed kan turns no indicator, and a pending one
                # from an earlier open kan stays unturned (rules-matrix §A). A win
                # right after an ankan is Thirteen Orphans robbing it: the same.
                self.pending = 0
            else:
                expected += flushed
                timing = (
                    rules.ankan_dora_timing
                    if kind is MeldKind.ANKAN
                    else rules.open_kan_dora_timing
                )
                if timing == "immediate":
                    expected += 1
                else:
                    self.pending += 1
                    self.pending_seat = seat
        if isinstance(event, Discard) and self.pending and event.seat == self.pending_seat:
            # Tenhou: an open kan's indicator is turned at the kanner's discard,
            # before anyone can ron it (so a ron on that discard counts it).
            expected += self.pending
            self.pending = 0
        gap = self.gap
        if not expected and not gap:
            return
        self.gap = []
        pos = event.pos
        for k in range(max(expected, len(gap))):
            if k < expected and k < len(gap):
                self._add(gap[k])
            elif k < expected:
                if self.early:
                    self._add(self.early.pop(0))
                else:
                    self.dora.append(None)
                    self.dora_ids.append(None)
                    self.missing.append((len(self.dora) - 1, pos))
            else:
                self._unexpected(gap[k], pos, report)

    def _unexpected(self, extra: DoraReveal, pos: SourcePos, report: Report) -> None:
        if self.missing:
            slot, due = self.missing.pop(0)
            self.dora[slot] = extra.indicator
            self.dora_ids[slot] = extra.tile_id
            report(
                "dora-timing",
                f"kan dora indicator {extra.indicator} was due before {due.where} but the log "
                f"turns it before {pos.where}",
                extra.pos,
                due.where,
                pos.where,
            )
        else:
            self.early.append(extra)
            report(
                "dora-timing",
                f"the log turns kan dora indicator {extra.indicator} before {pos.where}, where "
                "no indicator is due",
                extra.pos,
                None,
                str(extra.indicator),
            )

    def _add(self, reveal: DoraReveal) -> None:
        self.dora.append(reveal.indicator)
        self.dora_ids.append(reveal.tile_id)

    def close(self, pos: SourcePos, report: Report) -> None:
        """The hand is over: report indicators turned after the end and those never turned."""
        for extra in self.gap:
            report(
                "dora-timing",
                f"the log turns kan dora indicator {extra.indicator} after the hand ended",
                extra.pos,
                None,
                str(extra.indicator),
            )
        self.gap = []
        for slot, due in self.missing:
            report(
                "dora-timing",
                f"kan dora indicator #{slot + 1} was due before {due.where} but the log never "
                "turns it",
                pos,
                due.where,
                None,
            )
        self.missing = []
