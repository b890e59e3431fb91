"""Facts about one game, collected once for the game page and the player statistics.

One replay with observers (the furiten tracker, then the board recorder, which
reads the tracker's timeline), the audit, every win re-scored and settled, and the
final scores. Views are built from these facts, never from a replay of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.audit import FileAudit, audit_log
from analyzer.audit_scores import check_chain
from analyzer.audit_wins import expected_pao
from analyzer.final import FinalResult, final_result
from analyzer.furiten import FuritenTracker
from analyzer.points import settle_win
from analyzer.replay import ReplayObserver, RoundState, replay
from analyzer.scoring import NotAWin, score
from analyzer.state import GameReplay, RoundReplay, WinRecord
from mjaudit.events import GameLog
from mjaudit.findings import Finding
from mjaudit.hands import HandResult
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile, to_mpsz
from reports.views_board import Frame, FrameRecorder, SeatState

__all__ = ["GameFacts", "ScoredWin", "collect_game"]


@dataclass(frozen=True, slots=True)
class ScoredWin:
    record: WinRecord
    result: HandResult | None
    error: str | None
    deltas: tuple[int, ...] | None
    pao: int | None


@dataclass(frozen=True, slots=True)
class GameFacts:
    log: GameLog
    rules: Ruleset
    names: tuple[str, ...]
    audit: FileAudit
    game: GameReplay
    findings: tuple[Finding, ...]
    frames: tuple[tuple[Frame, ...], ...]
    wins: tuple[tuple[ScoredWin, ...], ...]
    final: FinalResult | None
    final_scores: tuple[int, ...] | None
    results: tuple[float, ...] | None
    furiten_known: bool

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
    """Seat states from the furiten tracker's timeline: the last change at or before
    each event."""

    def __init__(self, tracker: FuritenTracker, players: int) -> None:
        self.tracker = tracker
        self.players = players

    def __call__(self, round_no: int, index: int, state: RoundState) -> tuple[SeatState, ...]:
        timeline = self.tracker.timeline.get(round_no, [])
        current = None
        for ev_index, views in timeline:
            if ev_index > index:
                break
            current = views
        if current is None:
            return tuple(SeatState("", "") for _ in range(self.players))
        out = []
        for s in range(self.players):
            v = current[s]
            waits = to_mpsz(Tile(k) for k in sorted(v.waits)) if v.tenpai else ""
            cause = (v.cause or "furiten") if v.furiten else ""
            out.append(SeatState(waits, cause))
        return tuple(out)


def _score_round(rnd: RoundReplay, rules: Ruleset) -> tuple[ScoredWin, ...]:
    out = []
    takes_sticks = True
    for rec in rnd.wins:
        try:
            result = score(rec.concealed, rec.win_tile, rec.melds, rec.context, rules)
        except NotAWin as exc:
            out.append(ScoredWin(rec, None, f"{exc.code}: {exc.message}", None, None))
            takes_sticks = False
            continue
        pao = expected_pao(rec, result, rules)
        claimed_pao = rec.event.claims.pao_seat
        deltas = settle_win(
            result,
            rec.seat,
            rec.from_seat,
            rec.dealer,
            rec.honba,
            rec.riichi_sticks,
            rules,
            pao_seat=pao if pao is not None else claimed_pao,
            players=rules.players,
            takes_honba_and_sticks=takes_sticks,
        )
        takes_sticks = False
        out.append(ScoredWin(rec, result, None, deltas, pao))
    return tuple(out)


def _names(log: GameLog) -> tuple[str, ...]:
    players = log.start.players
    return tuple(
        (players[s].name if s < len(players) and players[s].name else f"seat {s}") for s in range(4)
    )


def collect_game(log: GameLog, rules: Ruleset) -> GameFacts:
    names = _names(log)
    tracker = FuritenTracker(rules, log.path, review=True)
    # The tracker goes first: the recorder reads its timeline at the same step.
    recorder = FrameRecorder(names, _TimelineStates(tracker, rules.players))
    observers: list[ReplayObserver] = [tracker, recorder]
    game = replay(log, rules, observers)
    audit = audit_log(log, rules)
    findings: list[Finding] = list(audit.findings)
    seen = {(f.code, f.event, f.seat) for f in findings}
    findings.extend(f for f in tracker.findings if (f.code, f.event, f.seat) not in seen)
    findings.sort(key=lambda f: (-f.severity.rank, f.event if f.event is not None else -1))
    wins = tuple(_score_round(rnd, rules) for rnd in game.rounds)
    final: FinalResult | None = None
    _, chain, _ = check_chain(game, log.path)
    start = log.start
    if chain is not None:
        final = final_result(
            chain.scores,
            chain.riichi_sticks,
            start.first_dealer,
            rules.players,
            rules,
            start.rules_hint,
            start.game_id,
        )
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
        findings=tuple(findings),
        frames=tuple(tuple(r) for r in recorder.rounds),
        wins=wins,
        final=final,
        final_scores=tuple(final_scores[: rules.players]) if final_scores is not None else None,
        results=tuple(results[: rules.players]) if results is not None else None,
        furiten_known=True,
    )
