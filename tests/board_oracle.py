"""What the board must show after every step, read straight from the audit's replay.

:class:`Snapshots` is a replay observer of its own, written apart from the report's
board recorder: after every event it writes down, from the audit's ``RoundState``
and the furiten tracker, each seat's hand (the tile just drawn apart until the seat
discards or calls), melds, pond, the dora indicators the log has turned so far, the
wall, the scores, the sticks, riichi, waits and furiten. Tests compare the board the
page's steps replay (in Python and in Chromium) with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.engine.replay import RoundState
from analyzer.review.furiten import FuritenTracker
from mjaudit.events import DoraReveal, Event, GameLog
from mjaudit.tiles import Tile
from reports.views_board import BoardRecorder, BoardState, RoundBoard, meld_tokens

Snapshot = dict[str, Any]


# Tiles are interned: their names are looked up rather than written each time.
_NAME = {t: str(t) for t in (*(Tile(k) for k in range(34)), Tile("0m"), Tile("0p"), Tile("0s"))}


def _sorted(tiles: Sequence[Tile]) -> list[str]:
    return [_NAME[t] for t in sorted(tiles, key=lambda t: (t.kind, not t.red))]


class Snapshots:
    """One snapshot per step of every round (step 0: the deal)."""

    def __init__(self, tracker: FuritenTracker) -> None:
        self.tracker = tracker
        self.rounds: list[list[Snapshot]] = []
        self.turned: list[str] = []

    def start_round(self, state: RoundState) -> None:
        self.rounds.append([])
        self.turned = [str(state.start.dora_indicator)]
        self._take(state)

    def step(self, index: int, event: Event, state: RoundState) -> None:
        if isinstance(event, DoraReveal):
            self.turned.append(str(event.indicator))
        self._take(state)

    def end_round(self, state: RoundState) -> None:
        pass

    def _take(self, state: RoundState) -> None:
        players = state.players
        hands, drawn = [], []
        last = state.last_draw
        for s in range(players):
            hand = list(state.hands[s])
            apart = ""
            if last is not None and last.seat == s and hand and hand[-1] == last.tile:
                apart = _NAME[hand.pop()]
            hands.append(_sorted(hand))
            drawn.append(apart)
        ponds = [
            [
                f"{_NAME[p.tile]}{'t' if p.tsumogiri else ''}{'r' if p.riichi else ''}"
                f"{'c' if p.called else ''}"
                for p in state.pond(s)
            ]
            for s in range(players)
        ]
        views = self.tracker.timeline[state.record.index][-1][1]
        self.rounds[-1].append(
            {
                "hands": hands,
                "drawn": drawn,
                "melds": [[meld_tokens(m, s) for m in state.melds[s]] for s in range(players)],
                "ponds": ponds,
                "dora": "".join(self.turned),
                "left": state.live_remaining,
                "scores": list(state.scores[:players]),
                "sticks": state.sticks,
                "riichi": [int(state.riichi[s] or state.declaring == s) for s in range(players)],
                "waits": [
                    "".join(_NAME[Tile(k)] for k in sorted(views[s].waits))
                    if views[s].tenpai
                    else ""
                    for s in range(players)
                ],
                "furiten": [
                    (views[s].cause or "furiten") if views[s].furiten else ""
                    for s in range(players)
                ],
            }
        )


def shown(board: BoardState) -> Snapshot:
    """A replayed board in the snapshots' terms."""
    return {
        "hands": [list(h) for h in board.hands],
        "drawn": list(board.drawn),
        "melds": [list(m) for m in board.melds],
        "ponds": [list(p) for p in board.ponds],
        "dora": board.dora,
        "left": board.left,
        "scores": list(board.scores),
        "sticks": board.sticks,
        "riichi": list(board.riichi),
        "waits": list(board.waits),
        "furiten": list(board.furiten),
    }


@dataclass(frozen=True, slots=True)
class Watched:
    """A game's board as the report records it, and the snapshots of the same replay."""

    boards: tuple[RoundBoard, ...]
    snapshots: list[list[Snapshot]]
    labels: tuple[str, ...]
    players: int
    dora_timing_rounds: frozenset[str]


def watch(log: GameLog) -> Watched:
    """One audit of ``log`` watched by the report's recorder and by :class:`Snapshots`."""
    rules = resolve_rules(log, "auto")
    tracker = FuritenTracker(rules, log.path, review=True)
    names = [f"p{s}" for s in range(4)]
    from reports.views_facts import _TimelineStates

    recorder = BoardRecorder(names, _TimelineStates(tracker, rules.players))
    snaps = Snapshots(tracker)
    audit = audit_log(log, rules, keep_replay=True, tracker=tracker, observers=[recorder, snaps])
    late = frozenset(f.round or "" for f in audit.findings if f.code == "dora-timing")
    assert audit.replay is not None
    labels = tuple(r.label for r in audit.replay.rounds)
    return Watched(recorder.rounds, snaps.rounds, labels, rules.players, late)


def replayed(board: RoundBoard) -> list[Snapshot]:
    """The board at every step of a round, its steps applied one by one in Python."""
    state = board.start.copy()
    out = [shown(state)]
    for step in board.steps:
        state.apply(step)
        out.append(shown(state))
    return out
