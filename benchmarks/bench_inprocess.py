"""Read and audit some logs in one process, as a batch worker does, for counting.

Loads each file's bytes first, then parses and audits them (``load_bytes`` and
``audit_log`` with the log's own rules and the review on, as ``mjaudit audit`` does),
so that a profiler or valgrind sees the audit without the command line's reading of
folders and writing of output. Meant to be run under cachegrind for counts that a
busy machine does not move (``--cache-sim=no`` prints the instructions, "I refs"):

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        --cachegrind-out-file=/dev/null python benchmarks/bench_inprocess.py --games 40

or with ``--profile`` for cProfile's view of where the time goes (sorted by own
time; its figures for small functions include its own overhead). ``--empty`` stops
after the imports and the reading, to count what the audit itself adds. Byte-compile
the project first (bench_counts.py does) so the compiler is not counted.

    python benchmarks/bench_inprocess.py [PATH] [--games N] [--profile] [--empty]
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from peer_common import CORPUS

from analyzer.checks.audit import audit_log, resolve_rules
from parsers.sources import load_bytes


def _audit_all(datas: list[tuple[str, bytes]]) -> int:
    """Parse and audit each log; the number of findings, so the work is used.

    Garbage is collected as a batch run collects it (analyzer.runs.batch): not
    automatically, but once per 16 logs, the youngest generation only.
    """
    found = 0
    gc.freeze()
    gc.disable()
    for k, (name, data) in enumerate(datas, 1):
        log = load_bytes(data, name)
        audit = audit_log(log, resolve_rules(log, "auto"), review=True, hand_records=False)
        found += len(audit.findings)
        if k % 16 == 0:
            gc.collect(0)
    gc.enable()
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(CORPUS))
    ap.add_argument("--games", type=int, default=0, help="the first N files only (0: all)")
    ap.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    ap.add_argument("--empty", action="store_true", help="read the files, audit nothing")
    args = ap.parse_args()
    files = sorted(p for p in Path(args.path).rglob("*") if p.is_file() and p.suffix != ".md")
    if args.games:
        files = files[: args.games]
    datas = [(str(p), p.read_bytes()) for p in files]
    if args.empty:
        print(f"{len(datas)} files read")
        return 0
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        found = profiler.runcall(_audit_all, datas)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(45)
    else:
        found = _audit_all(datas)
    print(f"{len(datas)} files, {found} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
