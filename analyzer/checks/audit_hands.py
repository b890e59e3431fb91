"""One record per hand: the log's claims beside what the audit derived.

The store's ``hands`` table (and any output that lists hands) reads these records
instead of walking the events again. The claims come from the hand's own events
(recorded by the replay in ``RoundReplay.other_events``, so a hand the log broke
keeps its claims); the derived values from the checks: each win's recomputed
result and the settlement the checks compared with the log's deltas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from analyzer.checks.audit_wins import WinCheck
from analyzer.engine.state import GameReplay
from mjaudit.events import DrawReason, Event, RiichiAccepted, RoundDraw, Win

__all__ = ["HandAudit", "WinFacts", "hand_audits"]


@dataclass(frozen=True, slots=True)
class WinFacts:
    """One win: as the log records it, and as the audit recomputed it (None where
    the hand is no scorable win, or the log broke the hand before it)."""

    seat: int
    from_seat: int
    han: int | None
    fu: int | None
    points: int | None
    derived_han: int | None = None
    derived_fu: int | None = None
    derived_points: int | None = None

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass(frozen=True, slots=True)
class HandAudit:
    """One hand: its start, the riichi sticks paid, its result and score changes.

    ``deltas`` are the log's (wins and draw added up; None when it records none),
    ``derived_deltas`` the settlement the audit computed for the same results (None
    where it computed none for one of them).
    """

    label: str
    dealer: int
    scores_before: tuple[int, ...]
    riichi: tuple[int, ...]
    result: str | None
    deltas: tuple[int, ...] | None
    derived_deltas: tuple[int, ...] | None
    wins: tuple[WinFacts, ...]


def hand_audits(
    game: GameReplay,
    events: Sequence[Event],
    settled: Mapping[int, tuple[int, ...]],
    checked: Sequence[Sequence[WinCheck]],
) -> tuple[HandAudit, ...]:
    """The records of every hand of ``game``; ``checked`` are the wins' checks by round."""
    players = game.players
    out: list[HandAudit] = []
    for k, rnd in enumerate(game.rounds):
        derived = {c.record.event_index: c for c in checked[k]} if k < len(checked) else {}
        riichi: list[int] = []
        wins: list[WinFacts] = []
        results: list[int] = []
        draw: str | None = None
        for i in rnd.other_events:
            ev = events[i]
            if isinstance(ev, RiichiAccepted):
                riichi.append(ev.seat)
            elif isinstance(ev, Win):
                c = ev.claims
                check = derived.get(i)
                got = check.result if check is not None else None
                wins.append(
                    WinFacts(
                        ev.seat, ev.from_seat, c.han, c.fu, c.points,
                        *((got.han, got.fu, got.total) if got is not None else ()),
                    )
                )  # fmt: skip
                results.append(i)
            elif isinstance(ev, RoundDraw):
                # A server's penalty ends the hand without a draw of the rules.
                draw = "penalty" if ev.reason is DrawReason.PENALTY else "draw"
                results.append(i)
        claimed = [0] * players
        any_claim = False
        for i in results:
            ev = events[i]
            assert isinstance(ev, Win | RoundDraw)
            deltas = ev.claims.deltas
            if deltas is not None:
                any_claim = True
                for s in range(players):
                    claimed[s] += deltas[s] if s < len(deltas) else 0
        derived_deltas: list[int] | None = [0] * players
        for i in results:
            got_deltas = settled.get(i)
            if got_deltas is None or derived_deltas is None:
                derived_deltas = None
                continue
            for s in range(players):
                derived_deltas[s] += got_deltas[s] if s < len(got_deltas) else 0
        start = rnd.start
        out.append(
            HandAudit(
                start.label,
                start.dealer,
                tuple(start.scores[:players]),
                tuple(riichi),
                "win" if wins else draw,
                tuple(claimed) if any_claim else None,
                tuple(derived_deltas) if derived_deltas is not None and results else None,
                tuple(wins),
            )
        )
    return tuple(out)
