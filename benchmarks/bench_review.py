"""What the furiten tracker and play review add to an audit of the Tenhou corpus.

    python benchmarks/bench_review.py [--repeat R] [CORPUS_DIR]

The logs are parsed once, outside the timings. Then, R times each (best kept, CPU time):

- audit:   ``audit_log`` (replay and every check), as ``mjaudit audit --no-review`` runs;
- replay:  the bare replay;
- tracker: the replay with a :class:`FuritenTracker` following it (``review=True``).

Wired in, the tracker rides on the audit's own replay, so the audit with review costs
``audit + (tracker - replay)``; the script prints that and its ratio to the audit.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.engine.replay import replay
from analyzer.review.furiten import review_log
from mjaudit.events import GameLog
from mjaudit.rules import Ruleset
from parsers import load

Logs = list[tuple[GameLog, Ruleset]]


def _best(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tenhou-xml"
    parser.add_argument("corpus", nargs="?", default=str(default))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = sorted(Path(args.corpus).glob("*.xml"))
    if not paths:
        print(f"no logs in {args.corpus}")
        return 2
    logs: Logs = []
    for p in paths:
        log = load(str(p))
        logs.append((log, resolve_rules(log, "auto")))
    events = sum(len(log.events) for log, _ in logs)

    def audit() -> None:
        for log, rules in logs:
            audit_log(log, rules)

    def bare() -> None:
        for log, rules in logs:
            replay(log, rules)

    def tracked(review: bool) -> Callable[[], None]:
        def run() -> None:
            for log, rules in logs:
                review_log(log, rules, review)

        return run

    review_log(*logs[0])  # warm the hand-analysis tables
    t_audit = _best(audit, args.repeat)
    t_replay = _best(bare, args.repeat)
    t_track = _best(tracked(True), args.repeat)
    t_quiet = _best(tracked(False), args.repeat)
    with_review = t_audit + t_track - t_replay
    print(f"{len(logs)} games, {events} events, best of {args.repeat} (CPU seconds)")
    print(f"audit (no review)        {t_audit:7.2f}")
    print(f"replay                   {t_replay:7.2f}")
    print(f"replay + tracker         {t_track:7.2f}   review off: {t_quiet:.2f}")
    print(f"audit + review           {with_review:7.2f}")
    print(f"ratio with/without review {with_review / t_audit:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
