"""Wall time of ``mjaudit audit`` next to ``jansou-validate`` on the same files.

Both tools run as command lines, alternately, on the same inputs in the same run;
the best of N runs of each is reported with the ratio, in wall time and in the CPU
time (user + system) of the process and its children, which a busy machine disturbs
less. On a shared machine a tool's best run and the other's may fall in different
minutes, so the CPU ratio of each round (the two runs back to back, the order
changing each round) is reported too: its median and quartiles.

Each PATH is timed on its own, both Tenhou corpora of ../shared by default: the mjlog
XML files and the Tenhou JSON ones (tenhou.net/6 games and hands, ``.json`` and
``.jsonl``). Both tools get the same list of files: where jansou-validate cannot read
some (a file error in its summary, or a traceback that stops its run), the files it
reads on their own; the count of each is printed.

The project's modules are byte-compiled first, as ``pip install`` does for an
installed package such as jansou; otherwise a run under ``PYTHONDONTWRITEBYTECODE``
(or from a fresh checkout) would time the compiler too. jansou (PyPI ``jansou``, a
peer that re-scores Tenhou logs: hand value and fu only) is not a dependency:
install it to compare (``pip install jansou``).

The build that runs is printed (``mjaudit --version``: compiled or pure Python).
With a compiled build (README, ``MJAUDIT_COMPILE=1``), ``--pure`` also times the
same checkout's pure sources (``run_pure.py``) in the same alternating rounds, and
reports the compiled/pure CPU ratio round by round.

    python benchmarks/bench_audit.py [PATH ...] [--runs N] [--jobs J | --defaults] [--pure]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

from peer_common import (
    CORPUS,
    JSON_CORPUS,
    TENHOU_SUFFIXES,
    compile_project,
    logs_under,
    peer_command,
    spread,
    timed,
)


def _peer_reads(peer: list[str], files: list[str]) -> list[str]:
    """The files the peer reads: all of them when it reads them together, else each
    that it reads on its own. It stops a run with a traceback at some files it cannot
    read, and counts the others as "file errors" in its summary line; a file whose
    wins it reads but disagrees with (a win it fails) is read, and kept."""

    def reads(some: list[str]) -> bool:
        out = subprocess.run([*peer, *some], capture_output=True, text=True).stdout
        return "file errors: 0" in out

    if not files or reads(files):
        return files
    return [f for f in files if reads([f])]


def _compare(
    files: list[str],
    mine: list[str],
    peer: list[str] | None,
    pure: list[str] | None,
    runs: int,
    workers: str,
) -> None:
    """Time the tools in turn on ``files`` and print the figures of one corpus."""
    pure_cpus: list[float] = []
    mine_cpus: list[float] = []
    inf = float("inf")
    mine_wall = mine_cpu = peer_wall = peer_cpu = inf
    ratios: list[float] = []
    pure_ratios: list[float] = []
    pure_peer: list[float] = []
    commands = {"mine": [*mine, *files], "peer": [*peer, *files] if peer else None}
    commands["pure"] = [*pure, *files] if pure else None
    for run in range(runs):
        cpus = {}
        order = ["mine", "peer", *(["pure"] if pure else [])]
        for tool in order[run % len(order) :] + order[: run % len(order)]:
            cmd = commands[tool]
            if cmd is None:
                continue
            wall, cpu, code = timed(cmd)
            cpus[tool] = cpu
            if tool == "pure":
                pure_cpus.append(cpu)
            elif tool == "peer":
                peer_wall, peer_cpu = min(peer_wall, wall), min(peer_cpu, cpu)
            else:
                mine_cpus.append(cpu)
                mine_wall, mine_cpu = min(mine_wall, wall), min(mine_cpu, cpu)
                if code not in (0, 1):
                    print(f"mjaudit exited {code}")
        if peer is not None:
            ratios.append(cpus["mine"] / cpus["peer"])
        if "pure" in cpus:
            pure_ratios.append(cpus["mine"] / cpus["pure"])
            if peer is not None:
                pure_peer.append(cpus["pure"] / cpus["peer"])
    n = len(files)
    print(f"{n} files, best of {runs}, {workers}")
    line = "{:<16} wall {:6.2f} s ({:6.1f} games/s)  cpu {:6.2f} s"
    print(line.format("mjaudit audit", mine_wall, n / mine_wall, mine_cpu))
    print(f"mjaudit audit    cpu median {statistics.median(mine_cpus):6.2f} s")
    if pure_cpus:
        print(
            f"pure sources     cpu median {statistics.median(pure_cpus):6.2f} s; this build's "
            f"cpu / pure round by round: median {statistics.median(pure_ratios):.2f}, "
            f"range {min(pure_ratios):.2f}-{max(pure_ratios):.2f}"
        )
    if peer is None:
        print("jansou-validate  not installed (pip install jansou)")
        return
    print(line.format("jansou-validate", peer_wall, n / peer_wall, peer_cpu))
    print(
        f"ratio mjaudit/jansou: wall {mine_wall / peer_wall:.2f}, cpu {mine_cpu / peer_cpu:.2f} "
        "(below 1 means mjaudit is faster)"
    )
    if len(ratios) >= 2:
        print(f"cpu ratio round by round: {spread(ratios)}")
    if len(pure_peer) >= 2:
        print(f"pure sources/jansou: {spread(pure_peer)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("paths", nargs="*", default=[str(CORPUS), str(JSON_CORPUS)])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for both tools")
    ap.add_argument(
        "--defaults",
        action="store_true",
        help="run each tool with its own default (mjaudit: a worker per CPU; jansou: one)",
    )
    ap.add_argument(
        "--pure",
        action="store_true",
        help="also time the pure sources of a compiled build (benchmarks/run_pure.py)",
    )
    args = ap.parse_args()
    compile_project()
    jobs = [] if args.defaults else ["-j", str(args.jobs)]
    mine = [sys.executable, "-m", "mjaudit", "audit", "--format", "json", *jobs]
    peer_run = peer_command("jansou-validate")
    peer = [*peer_run, "-q", *jobs] if peer_run else None
    build = subprocess.run(
        [sys.executable, "-m", "mjaudit", "--version"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[-1]
    print(f"mjaudit build: {build}")
    run_pure = str(Path(__file__).with_name("run_pure.py"))
    pure = [sys.executable, run_pure, *mine[3:]] if args.pure else None
    workers = "each tool's default workers" if args.defaults else f"{args.jobs} worker(s)"
    for path in args.paths:
        found = logs_under(path, TENHOU_SUFFIXES)
        files = _peer_reads(peer, found) if peer else found
        print(f"\n{path}: {len(found)} Tenhou logs", end="")
        if len(files) < len(found):
            print(f", {len(files)} of them read by jansou-validate (the same files for both)")
        else:
            print()
        if not files:
            print("nothing to compare")
            continue
        _compare(files, mine, peer, pure, args.runs, workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
