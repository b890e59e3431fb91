"""Many-log throughput, the driver's memory, store re-runs and query times.

    python benchmarks/bench_batch.py [--inputs 1000,20000] [--repeat R] [--dask]
        [--data DIR] [--no-speed]

1. Games/s for ``-j 1`` and ``-j 2`` over ../shared/corpus/tenhou-xml (best of R
   fresh processes; the time includes starting the worker pool).
2. The driver's peak RSS auditing N inputs into a store, for each N of --inputs:
   corpus logs copied under new names, each with a comment appended so every copy
   is a distinct game that is really audited. Each run is a child process, so its
   ``ru_maxrss`` is the driver's alone (worker processes are its children).
3. A re-run over the same inputs with the same store (nothing to audit), against
   the first run's time.
4. ``mjaudit stats`` and a per-player group-by over the hands table of the
   largest store (best of R, at least 5), and the store's size on disk.

``--data DIR`` keeps the generated inputs in DIR (and reuses them), so another
store implementation can be measured over the same files.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.runs.batch import RunSummary, audit_many
from analyzer.runs.store import query, stats

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tenhou-xml"


def throughput(jobs: int, repeat: int, executor: str = "process") -> tuple[int, float]:
    """Best of ``repeat`` fresh driver processes (workers start cold, as from the CLI)."""
    best = float("inf")
    games = 0
    for _ in range(repeat):
        cmd = [sys.executable, __file__, "--child-speed", str(jobs), executor]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        doc = json.loads(out.strip().splitlines()[-1])
        games, best = doc["games"], min(best, doc["seconds"])
    return games, best


def child_speed(jobs: int, executor: str) -> None:
    start = time.perf_counter()
    outcomes = audit_many([str(CORPUS)], jobs=jobs, executor=executor, progress=False)
    games = sum(1 for o in outcomes if o.status == "ok")
    print(json.dumps({"games": games, "seconds": time.perf_counter() - start}))


def make_inputs(n: int, out: Path) -> None:
    logs = sorted(CORPUS.glob("*.xml"))
    for i in range(n):
        src = logs[i % len(logs)].read_bytes()
        data = src.replace(b"</mjloggm>", f"<!-- copy {i} --></mjloggm>".encode())
        sub = out / f"{i // 1000:03d}"
        sub.mkdir(exist_ok=True)
        (sub / f"copy{i:07d}.xml").write_bytes(data)


def child(inputs: str, store: str, jobs: int) -> None:
    """One driver run; prints its figures as JSON."""
    summary = RunSummary()
    for _ in audit_many([inputs], jobs=jobs, store=store, summary=summary, progress=False):
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rss_mib": rss, "seconds": summary.seconds, "audited": summary.inputs,
                      "skipped": summary.skipped}))  # fmt: skip


def run_child(inputs: Path, store: Path, jobs: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", str(inputs), str(store), str(jobs)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def timed(fn: object, repeat: int = 5) -> float:
    """Best of ``repeat`` (the machine is shared: the minimum is the least disturbed)."""
    assert callable(fn)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def disk_mib(root: Path) -> float:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", default="1000,20000")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dask", action="store_true", help="also a Dask LocalCluster run")
    ap.add_argument("--data", default=None, help="keep (and reuse) the inputs in this folder")
    ap.add_argument("--no-speed", action="store_true", help="skip the corpus throughput runs")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--child-speed", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_speed:
        child_speed(int(args.child_speed[0]), args.child_speed[1])
        return
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS}")

    if not args.no_speed:
        print("## throughput over the corpus")
        g1, t1 = throughput(1, args.repeat)
        print(f"-j 1: {g1} games in {t1:.2f} s = {g1 / t1:.1f} games/s")
        g2, t2 = throughput(args.jobs, args.repeat)
        print(f"-j {args.jobs}: {g2} games in {t2:.2f} s = {g2 / t2:.1f} games/s ({t1 / t2:.2f}x)")
    if args.dask:
        gd, td = throughput(args.jobs, 1, executor="dask")
        print(f"dask LocalCluster({args.jobs}): {gd / td:.1f} games/s (cluster start included)")

    print("\n## driver memory, store re-run, queries")
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        root = Path(tmp)
        data = Path(args.data) if args.data else root
        for n in (int(x) for x in args.inputs.split(",")):
            inputs, store = data / f"in{n}", root / f"store{n}"
            if not inputs.is_dir():
                inputs.mkdir(parents=True)
                make_inputs(n, inputs)
            first = run_child(inputs, store, args.jobs)
            again = run_child(inputs, store, args.jobs)
            print(
                f"{n} inputs: driver peak RSS {first['rss_mib']:.0f} MiB, "
                f"{first['audited'] / first['seconds']:.1f} games/s; re-run "
                f"{again['seconds']:.2f} s ({100 * again['seconds'] / first['seconds']:.2f}% "
                f"of {first['seconds']:.1f} s), {again['skipped']:.0f} skipped, "
                f"peak RSS {again['rss_mib']:.0f} MiB"
            )
            if not args.data:
                shutil.rmtree(inputs)
            last = store
        _, rows = query(last, "SELECT count(*) FROM hands")
        hand_rows = next(rows)[0]
        reps = max(5, args.repeat)
        t_stats = timed(lambda: stats(last), reps)
        sql = (
            "SELECT player, count(*), avg(delta), avg(won), avg(riichi) FROM hands "
            "GROUP BY player ORDER BY 2 DESC LIMIT 5"
        )
        t_query = timed(lambda: list(query(last, sql)[1]), reps)
        print(f"store on disk: {disk_mib(last):.1f} MiB")
        print(f"stats over {hand_rows} hand rows: {t_stats * 1000:.0f} ms")
        print(f"per-player group-by over {hand_rows} hand rows: {t_query * 1000:.0f} ms")


if __name__ == "__main__":
    main()
