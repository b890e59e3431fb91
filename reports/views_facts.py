"""Facts about one game, collected once for the game page and the player statistics.

The audit's one replay, watched by the furiten tracker and the board recorder
(which reads the tracker's timeline), the audit's findings and what it derived for
every win, and the final scores. Views are built from these facts, never from a
replay or a scoring of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analyzer.checks.audit import FileAudit, audit_log
from analyzer.checks.audit_wins import WinCheck
from analyzer.engine.replay import ReplayObserver, RoundState, seats_away
from analyzer.engine.state import GameReplay
from analyzer.hands.final import FinalResult
from analyzer.review.efficiency import EfficiencyTracker, SeatTurn
from analyzer.review.furiten import FuritenTracker
from mjaudit.events import GameLog, seat_name
from mjaudit.findings import Finding
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile
from reports.i18n import gettext as _
from reports.safe_text import bidi_shown
from reports.views_board import BoardRecorder, RoundBoard, SeatState, tokens

__all__ = ["GameFacts", "ScoredWin", "collect_game"]


# A win as the audit scored it and settled it (the report shows the audit's record).
ScoredWin = WinCheck


@dataclass(frozen=True, slots=True)
class GameFacts:
    log: GameLog
    rules: Ruleset
    names: tuple[str, ...]
    audit: FileAudit
    game: GameReplay
    findings: tuple[Finding, ...]
    boards: tuple[RoundBoard, ...]
    wins: tuple[tuple[ScoredWin, ...], ...]
    final: FinalResult | None
    final_scores: tuple[int, ...] | None
    results: tuple[float, ...] | None
    furiten_known: bool
    # The seat the game is reviewed from (``report --seat``/``--player`` on one game)
    # and that seat's turns as the efficiency tracker recorded them during the audit's
    # replay, by (round, event index); None and empty otherwise.
    seat: int | None = None
    turns: Mapping[tuple[int, int], SeatTurn] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.rules.players

    def placements(self) -> tuple[int, ...] | None:
        """1-based placement per seat: by final score, ties to the seat nearer the
        first dealer (Tenhou's rule)."""
        if self.final_scores is None:
            return None
        first = self.log.start.first_dealer
        n = self.players
        order = sorted(
            range(n),
            key=lambda s: (-self.final_scores[s], (s - first) % n),  # type: ignore[index]
        )
        places = [0] * n
        for rank, s in enumerate(order):
            places[s] = rank + 1
        return tuple(places)


class _TimelineStates:
    """Seat states from the furiten tracker's timeline. The tracker watches the replay
    just before the board recorder, so its last entry is the state at this step; the
    same tuple is returned while that entry stands (the recorder compares nothing then)."""

    def __init__(self, tracker: FuritenTracker, players: int) -> None:
        self.tracker = tracker
        self.players = players
        self._entry: object = None
        self._states: tuple[SeatState, ...] = tuple(SeatState("", "") for _ in range(players))

    def __call__(self, round_no: int, index: int, state: RoundState) -> tuple[SeatState, ...]:
        timeline = self.tracker.timeline.get(round_no)
        if not timeline:
            return self._states
        entry = timeline[-1]
        if entry is self._entry:
            return self._states
        self._entry = entry
        views = entry[1]
        out = []
        for s in range(self.players):
            v = views[s]
            waits = tokens([Tile(k) for k in sorted(v.waits)]) if v.tenpai else ""
            cause = _furiten_cause(v.cause) if v.furiten else ""
            out.append(SeatState(waits, cause))
        self._states = tuple(out)
        return self._states


def _furiten_cause(cause: str | None) -> str:
    """Why a seat is furiten (the tracker's cause), in the pages' language."""
    return {
        "discard": _("discard"),
        "temporary": _("temporary"),
        "riichi": _("riichi"),
    }.get(cause or "", _("furiten"))


def _names(log: GameLog) -> tuple[str, ...]:
    # Shown on every page: a name's bidirectional controls are shown, not obeyed.
    return tuple(bidi_shown(seat_name(log.start.players, s)) for s in range(4))


def collect_game(log: GameLog, rules: Ruleset, seat: int | None = None) -> GameFacts:
    """The facts of one game; with ``seat``, also that seat's turns (shanten, ukeire,
    a note on each discard another discard beat), for a review from its seat."""
    names = _names(log)
    tracker = FuritenTracker(rules, log.path, review=True)
    # The tracker goes first: the recorder reads its timeline at the same step. All
    # watch the audit's own replay; the wins are shown as the audit scored them.
    recorder = BoardRecorder(names, _TimelineStates(tracker, rules.players))
    observers: list[ReplayObserver] = [recorder]
    efficiency = EfficiencyTracker([seat]) if seat is not None else None
    if efficiency is not None:
        efficiency.away = seats_away(log.events)
        observers.append(efficiency)
    audit = audit_log(log, rules, keep_replay=True, tracker=tracker, observers=observers)
    game = audit.replay
    assert game is not None  # keep_replay
    findings = audit.findings
    wins = audit.derived_wins
    final: FinalResult | None = audit.derived_final
    claims = game.end.claims if game.end is not None else None
    final_scores: Sequence[int] | None = claims.final_scores if claims is not None else None
    results: Sequence[float] | None = claims.results if claims is not None else None
    if final_scores is None and final is not None:
        final_scores = final.final_scores
    if results is None and final is not None:
        results = final.results
    return GameFacts(
        log=log,
        rules=rules,
        names=names,
        audit=audit,
        game=game,
        findings=findings,
        boards=recorder.rounds,
        wins=wins,
        final=final,
        final_scores=tuple(final_scores[: rules.players]) if final_scores is not None else None,
        results=tuple(results[: rules.players]) if results is not None else None,
        furiten_known=True,
        seat=seat,
        turns=efficiency.turns if efficiency is not None else {},
    )
