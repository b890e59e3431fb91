"""Scoring throughput: mjaudit's scorer against the ``mahjong`` package on the same hands.

    python benchmarks/bench_score.py [N] [--repeat R]

Both scorers get the seeded hands of the differential test (tests/scoring_generator.py)
under Tenhou rules and score every hand R times; the first of mjaudit's passes starts
with empty tables, so the "cold" figure includes filling them. Prints hands per
second for each and the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.hands.hand import shanten, waits
from analyzer.hands.scoring import NotAWin, score
from tests.scoring_generator import GeneratedWin, generate_wins
from tests.test_scoring_differential import TENHOU, _library


def _ours(wins: list[GeneratedWin]) -> float:
    rejected = 0
    start = time.perf_counter()
    for w in wins:
        try:
            score(w.concealed, w.win_tile, w.melds, w.ctx, TENHOU)
        except NotAWin:
            rejected += 1
    return time.perf_counter() - start


def _analysis(wins: list[GeneratedWin]) -> float:
    """Waits and shanten of every 13-tile hand left by discarding each concealed tile."""
    hands: list[list[int]] = []
    for w in wins:
        counts = [0] * 34
        for t in w.concealed:
            counts[t.kind] += 1
        for k in {t.kind for t in w.concealed}:
            counts[k] -= 1
            hands.append(counts[:])
            counts[k] += 1
    start = time.perf_counter()
    for c in hands:
        waits(c)
        shanten(c)
    return len(hands) / (time.perf_counter() - start)


def _theirs(wins: list[GeneratedWin]) -> float:
    start = time.perf_counter()
    for w in wins:
        _library(w)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("n", nargs="?", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    wins = generate_wins(args.n, seed=7)
    cold = _ours(wins)
    ours = min([cold] + [_ours(wins) for _ in range(args.repeat - 1)])
    theirs = min(_theirs(wins) for _ in range(args.repeat))
    n = len(wins)
    print(f"hands: {n}")
    print(f"mjaudit (cold tables): {n / cold:10.0f} hands/s")
    print(f"mjaudit (best of {args.repeat}):  {n / ours:10.0f} hands/s")
    print(f"mahjong (best of {args.repeat}):  {n / theirs:10.0f} hands/s")
    print(f"waits+shanten: {_analysis(wins):10.0f} hands/s (13-tile hands after each discard)")
    print(f"ratio mjaudit/mahjong: {theirs / ours:.1f}x (cold: {theirs / cold:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
