"""Folder reports against the audit of the same files; the longest game's page.

    python benchmarks/bench_report.py [FOLDER] [--times 10] [-j 1] [--skip-10x]
    python benchmarks/bench_report.py [FOLDER] --page [--repeat N]

The folder run times ``mjaudit report FOLDER -o TMP -j J`` and ``mjaudit audit
FOLDER -j J`` (each a process of its own, output thrown away) and reads each
one's peak resident memory from ``resource.getrusage(RUSAGE_CHILDREN)``: the
largest single process among the command and its workers; it prints the CPU time
of the command and its workers too (steadier than wall time on a busy machine).
It does the same over a folder that holds the logs ``--times`` times under
distinct names (symbolic links, ``00-name.xml``, ``01-name.xml``, ...), to show
whether the report's memory stays flat as the number of games grows. Each figure
is measured in a fresh intermediate process, so that one run's peak is not
carried into the next.

``--page`` measures the longest game instead (the Tenhou XML log with the most
rounds): its page size, raw and gzipped, whether any external URL appears, and
the best and median time of ``collect + build + render`` over N runs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
EXTERNAL = re.compile(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def longest(folder: Path) -> Path:
    def size(p: Path) -> tuple[int, int]:
        data = p.read_bytes()
        return data.count(b"<INIT"), data.count(b"<")

    return max(sorted(folder.glob("*.xml")), key=size)


def page(folder: Path, repeat: int, output: str | None) -> None:
    from reports.html import render_game_file

    path = longest(folder)
    times = []
    html = ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        html = render_game_file(str(path))
        times.append(time.perf_counter() - t0)
    data = html.encode("utf-8")
    rounds = path.read_bytes().count(b"<INIT")
    print(f"game:      {path.name} ({rounds} rounds)")
    print(
        f"size:      {len(data):,} bytes ({len(data) / 2**20:.2f} MiB), "
        f"{len(gzip.compress(data, mtime=0)):,} gzipped"
    )
    print(f"external:  {'yes' if EXTERNAL.search(html) else 'none'}")
    print(
        f"render:    best {min(times):.3f} s, median {statistics.median(times):.3f} s "
        f"over {len(times)} runs"
    )
    if output:
        Path(output).write_text(html, encoding="utf-8")


def measure(argv: list[str]) -> dict[str, float]:
    """Run ``mjaudit ARGV`` in a fresh process that reports its child's time and peak."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
        "s = time.perf_counter() - t\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "cpu = u.ru_utime + u.ru_stime\n"
        "print(json.dumps({'seconds': s, 'cpu': cpu, 'mib': u.ru_maxrss / 1024, 'rc': rc}))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", probe, sys.executable, "-m", "mjaudit", *argv]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def repeated(folder: Path, times: int, into: Path) -> int:
    """``into`` holds every log of ``folder`` ``times`` times, under distinct names."""
    logs = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".xml")
    for k in range(times):
        for p in logs:
            (into / f"{k:02d}-{p.name}").symlink_to(p.resolve())
    return len(logs) * times


def compare(folder: Path, games: int, jobs: int, work: Path) -> None:
    site = work / "site"
    audit = measure(["audit", "-j", str(jobs), str(folder)])
    report = measure(["report", str(folder), "-o", str(site), "-j", str(jobs)])
    shutil.rmtree(site, ignore_errors=True)
    ratio = report["seconds"] / max(audit["seconds"], 1e-9)
    cpu_ratio = report["cpu"] / max(audit["cpu"], 1e-9)
    print(
        f"{games:5d} games  audit  {audit['seconds']:7.1f} s ({audit['cpu']:.1f} s CPU) "
        f"{audit['mib']:5.0f} MiB  report {report['seconds']:7.1f} s ({report['cpu']:.1f} s "
        f"CPU) {report['mib']:5.0f} MiB  ({ratio:.1f}x the audit's time, {cpu_ratio:.1f}x its "
        f"CPU; exit {report['rc']:.0f})",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--times", type=int, default=10, help="copies for the large run")
    parser.add_argument("--skip-10x", action="store_true", help="only the folder as it is")
    parser.add_argument("--page", action="store_true", help="the longest game's page")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("-o", "--output", default=None, help="with --page: write it here")
    args = parser.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no corpus at {folder}", file=sys.stderr)
        return 2
    if args.page:
        page(folder, args.repeat, args.output)
        return 0
    games = sum(1 for p in folder.iterdir() if p.is_file() and p.suffix == ".xml")
    print(f"folder: {folder}, -j {args.jobs}, peak = largest single process (RUSAGE_CHILDREN)")
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        work = Path(tmp)
        compare(folder, games, args.jobs, work)
        if not args.skip_10x:
            big = work / "repeated"
            big.mkdir()
            compare(big, repeated(folder, args.times, big), args.jobs, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
