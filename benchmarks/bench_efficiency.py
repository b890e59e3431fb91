"""What the hand-efficiency tracker adds to an audit of the Tenhou corpus.

    python benchmarks/bench_efficiency.py [--repeat R] [--games N] [CORPUS_DIR]

The logs are parsed once, outside the timings. Then, R times each (CPU time):

- audit: ``audit_log`` alone;
- one seat: ``audit_log`` with an :class:`EfficiencyTracker` for seat 0, as a report
  from one player's seat runs it;
- every seat: the same with a tracker for every seat.

The tracker keeps what it works out per hand key, and those tables outlive a run: the
first run of each is printed beside the best, as a process that reports a folder meets
new hands all along.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.review.efficiency import EfficiencyTracker
from mjaudit.events import GameLog
from mjaudit.rules import Ruleset
from parsers import load

Logs = list[tuple[GameLog, Ruleset]]


def _runs(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(first, best) CPU seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return times[0], min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tenhou-xml"
    parser.add_argument("corpus", nargs="?", default=str(default))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=0, help="the first N games only")
    args = parser.parse_args()
    paths = sorted(Path(args.corpus).glob("*.xml"))
    if args.games:
        paths = paths[: args.games]
    if not paths:
        print(f"no logs in {args.corpus}")
        return 2
    logs: Logs = []
    for p in paths:
        log = load(str(p))
        logs.append((log, resolve_rules(log, "auto")))
    counted: dict[str, tuple[int, int]] = {}

    def audit() -> None:
        for log, rules in logs:
            audit_log(log, rules)

    def tracked(name: str, seats: list[int] | None) -> Callable[[], None]:
        def run() -> None:
            turns = notes = 0
            for log, rules in logs:
                tracker = EfficiencyTracker(seats)
                audit_log(log, rules, observers=[tracker])
                turns += len(tracker.turns)
                notes += tracker.notes
            counted[name] = (turns, notes)

        return run

    audit()  # warm the hand-analysis tables the audit itself fills
    a_first, a_best = _runs(audit, args.repeat)
    print(f"{len(logs)} games, {args.repeat} runs each (CPU seconds: first, best)")
    print(f"audit                  {a_first:7.2f} {a_best:7.2f}")
    for name, seats in (("one seat", [0]), ("every seat", None)):
        first, best = _runs(tracked(name, seats), args.repeat)
        turns, notes = counted[name]
        per_turn = (best - a_best) / turns * 1e6 if turns else 0.0
        print(
            f"audit + {name:<14} {first:7.2f} {best:7.2f}   x{best / a_best:5.1f} the audit; "
            f"{turns} turns, {notes} notes, {per_turn:.0f} us a turn"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
