"""After every step of a replay, the incremental state agrees with a recount from scratch."""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.checks.audit import resolve_rules
from analyzer.engine.replay import round_steps
from mjaudit.events import RoundStart
from mjaudit.melds import MeldKind
from parsers import load
from tests.conftest import SAMPLES, corpus_file

GAMES = [
    "2010112714gm-00a9-0000-d497e395.xml",  # kakan with a turned indicator
    "2009060321gm-00b9-0000-75b25bcf.xml",  # sanma with kita
    "2014050315gm-0041-0000-7ddece8e.xml",  # ankan
]


def _check_every_step(path: str) -> int:
    log = load(path)
    rules = resolve_rules(log, "auto")
    n_rounds = sum(1 for e in log.events if isinstance(e, RoundStart))
    steps = 0
    for r in range(n_rounds):
        for _, _, st in round_steps(log, rules, r):
            steps += 1
            for seat in range(rules.players):
                sets = [m for m in st.melds[seat] if m.kind is not MeldKind.KITA]
                assert st.nsets[seat] == len(sets)
                size = len(st.hands[seat]) + 3 * len(sets)
                assert size in (13, 14), (seat, size)
                assert st.kita[seat] == sum(m.kind is MeldKind.KITA for m in st.melds[seat])
            # Every physical tile in play is accounted for exactly once.
            if st.ids is not None:
                in_hands = [i for h in st.ids for i in h]
                in_melds = [i for ms in st.melds for m in ms for i in (m.tile_ids or ())]
                counted = Counter(in_hands + in_melds)
                assert all(n == 1 for n in counted.values())
                assert set(counted) <= st.seen
            kinds = Counter(t.kind for h in st.hands for t in h)
            kinds.update(t.kind for ms in st.melds for m in ms for t in m.tiles)
            assert max(kinds.values()) <= 4
            assert len(st.dora) >= 1
            assert st.live_remaining >= 0
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_corpus_games(name: str) -> None:
    assert _check_every_step(str(corpus_file(name))) > 40


def test_sample_logs() -> None:
    for name in ("clean_game.xml", "kans.xml"):
        assert _check_every_step(str(SAMPLES / name)) > 50
