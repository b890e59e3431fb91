"""A long seeded mutation-fuzz run over logs of every format, in this process.

Each case mutates one corpus log (or a sample log) and loads, audits, renders and
converts it (tests/fuzzing.py). The run prints how many cases of each format ended
how: unreadable with a clean error, audited clean, audited with findings, or an
internal error (any exception that is not the project's own, or a case over the
time bound). It exits 1 on any internal error and prints those cases, each with the
name that replays it (``--only FORMAT:FILE:SEED``).

    python benchmarks/fuzz.py --cases 10000 --seed 1 [--format mjai] [--time-limit 20] [--report]
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from types import FrameType

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.fuzzing import Case, Outcome, Result, cases, corpus_sources, mutate, run_case  # noqa: E402


class _Overtime(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Overtime


def _run_bounded(case: Case, limit: float, report: bool = False) -> Result:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return run_case(case, report=report)
    except _Overtime:
        return Result(case, Outcome.INTERNAL, f"took longer than {limit:g} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _only(name: str) -> Case:
    fmt, file_name, seed = name.split(":")[:3]
    source = next(p for p in corpus_sources()[fmt] if p.name == file_name)
    mutation, data = mutate(source.read_bytes(), fmt, int(seed))
    return Case(source, fmt, int(seed), mutation, data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--format",
        dest="fmt",
        action="append",
        default=None,
        choices=["tenhou-xml", "tenhou-json", "mjai"],
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="Bound on one case (an internal error when exceeded).",
    )
    parser.add_argument(
        "--only",
        default=None,
        metavar="FORMAT:FILE:SEED",
        help="Replay one case by its name and print its outcome.",
    )
    parser.add_argument(
        "--report", action="store_true", help="Also build each readable game's HTML page (slower)."
    )
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        help="Folder to write the mutated bytes of each internal error to.",
    )
    args = parser.parse_args()  # fmt: skip

    if args.only:
        result = _run_bounded(_only(args.only), args.time_limit, args.report)
        print(result.outcome.value, result.detail)
        return 1 if result.outcome is Outcome.INTERNAL else 0
    counts: Counter[tuple[str, str]] = Counter()
    failures: list[Result] = []
    start = time.perf_counter()
    fmts = tuple(args.fmt) if args.fmt else None
    for k, case in enumerate(cases(args.cases, args.seed, fmts), 1):
        result = _run_bounded(case, args.time_limit, args.report)
        counts[(case.fmt, result.outcome.value)] += 1
        if result.outcome is Outcome.INTERNAL:
            failures.append(result)
            print(f"INTERNAL {case.name}\n{result.detail}", file=sys.stderr)
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / case.name.replace(":", "_").replace("/", "_")).write_bytes(case.data)
        if k % 500 == 0:
            print(f"... {k} cases, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    elapsed = time.perf_counter() - start
    outcomes = [o.value for o in Outcome]
    fmt_names = sorted({f for f, _ in counts})
    print(f"{'format':<12}" + "".join(f"{o:>12}" for o in outcomes) + f"{'total':>12}")
    for fmt in fmt_names:
        row = [counts[(fmt, o)] for o in outcomes]
        print(f"{fmt:<12}" + "".join(f"{n:>12}" for n in row) + f"{sum(row):>12}")
    totals = [sum(counts[(f, o)] for f in fmt_names) for o in outcomes]
    print(f"{'all':<12}" + "".join(f"{n:>12}" for n in totals) + f"{sum(totals):>12}")
    print(f"seed {args.seed}, {sum(totals)} cases in {elapsed:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
