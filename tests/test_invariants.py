"""After every step of the product's own replay, the incremental state agrees with a
recount from scratch: over every game of the corpus, through ``audit_log`` with an
observer (the same loop the audit and the report use)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.engine.replay import RoundState
from mjaudit.events import DrawTile, Event
from mjaudit.melds import MeldKind
from parsers import load
from tests.conftest import CORPUS, SAMPLES


class _Invariants:
    """A replay observer that recounts the state after each step."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.steps = 0
        self.total = 0  # scores plus the sticks on the table, at the round's start
        self.draws = 0
        self.wall = 0

    def start_round(self, state: RoundState) -> None:
        self.total = sum(state.scores) + 1000 * state.sticks
        self.draws = 0
        self.wall = state.live_remaining

    def step(self, index: int, event: Event, state: RoundState) -> None:
        self.steps += 1
        for seat in range(self.players):
            sets = [m for m in state.melds[seat] if m.kind is not MeldKind.KITA]
            assert state.nsets[seat] == len(sets)
            size = len(state.hands[seat]) + 3 * len(sets)
            assert size in (13, 14), (index, seat, size)
            assert state.kita[seat] == sum(m.kind is MeldKind.KITA for m in state.melds[seat])
        # Every physical tile in play is accounted for exactly once.
        if state.ids is not None:
            in_hands = [i for h in state.ids for i in h]
            in_melds = [i for ms in state.melds for m in ms for i in (m.tile_ids or ())]
            counted = Counter(in_hands + in_melds)
            assert all(n == 1 for n in counted.values()), index
            assert set(counted) <= state.seen
        kinds = Counter(t.kind for h in state.hands for t in h)
        kinds.update(t.kind for ms in state.melds for m in ms for t in m.tiles)
        assert max(kinds.values()) <= 4, index
        assert len(state.dora) >= 1
        # Riichi sticks move points to the table, never out of the game.
        assert sum(state.scores) + 1000 * state.sticks == self.total, index
        # Every draw, replacement draws included, takes one tile from the live wall.
        if type(event) is DrawTile:
            self.draws += 1
        assert state.live_remaining == self.wall - self.draws >= 0, index

    def end_round(self, state: RoundState) -> None:
        pass


def _check(path: Path) -> int:
    log = load(str(path))
    rules = resolve_rules(log, "auto")
    watch = _Invariants(rules.players)
    audit_log(log, rules, observers=[watch])
    return watch.steps


def _logs(folder: Path) -> list[Path]:
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".xml", ".json", ".jsonl", ".txt") and p.name[0] != "."
    )


@pytest.mark.corpus
def test_every_corpus_game() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available at {CORPUS}")
    steps = games = 0
    for folder in ("tenhou-xml", "tenhou-json", "mjai", "mahjongsoul"):
        for path in _logs(CORPUS / folder):
            steps += _check(path)
            games += 1
    assert games == 332 + 58 + 42 + 35
    assert steps > 200_000


def test_sample_logs() -> None:
    for name in ("clean_game.xml", "kans.xml"):
        assert _check(SAMPLES / name) > 50
