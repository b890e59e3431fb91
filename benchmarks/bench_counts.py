"""Instructions and cache misses of ``mjaudit audit`` next to ``jansou-validate``.

Timings on a shared machine move by a quarter from one minute to the next; counts
do not. Each tool runs once, one process, under valgrind's cachegrind on the same
files, and the instructions it executed, its first-level data misses and its
last-level misses are reported with their ratios. The last level is simulated with
``--ll`` bytes (1 MiB by default: what one core can count on in a busy machine,
rather than the whole shared cache valgrind would otherwise assume), so the counts
show how much of a gap in time comes from work done and how much from memory
touched. A run takes about fifty times as long as the audit itself: over the whole
Tenhou corpus, about five minutes per tool.

The project is byte-compiled first (see bench_audit.py) and ``PYTHONHASHSEED`` is
fixed, so two runs of the same code give the same counts. Needs valgrind (Debian
``valgrind``) and jansou (``pip install jansou``) to compare.

    python benchmarks/bench_counts.py [PATH] [--ll BYTES]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from peer_common import CORPUS, compile_project, logs_under, peer_command

_COUNTS = {
    "instructions": re.compile(r"I\s+refs:\s+([\d,]+)"),
    "D1 misses": re.compile(r"D1\s+misses:\s+([\d,]+)"),
    "LL misses": re.compile(r"LL\s+misses:\s+([\d,]+)"),
}


def _counts(cmd: list[str], ll: int) -> dict[str, int]:
    """Run ``cmd`` under cachegrind; the summary counts it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        grind = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=yes",
            f"--LL={ll},16,64",
            f"--cachegrind-out-file={os.path.join(tmp, 'out')}",
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        proc = subprocess.run(
            grind + cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
    found = {}
    for name, pattern in _COUNTS.items():
        match = pattern.search(proc.stderr)
        if match is None:
            raise SystemExit(f"no {name} in valgrind's output:\n{proc.stderr[-2000:]}")
        found[name] = int(match.group(1).replace(",", ""))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(CORPUS))
    ap.add_argument("--ll", type=int, default=1 << 20, help="last-level cache size, bytes")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind not installed (apt-get install valgrind)")
        return 2
    compile_project()
    files = logs_under(args.path)
    if not files:
        print(f"no .xml logs under {args.path}")
        return 2
    # The interpreter itself, not a launcher script that valgrind would follow instead.
    python = os.path.realpath(sys.executable)
    audit = [python, "-m", "mjaudit", "audit", "-j", "1", "--format", "json", args.path]
    runs = {"mjaudit audit": audit}
    peer = peer_command("jansou-validate")
    if peer is not None:
        runs["jansou-validate"] = [python, *peer[1:], "-q", str(Path(args.path) / "**" / "*.xml")]
    counted = {name: _counts(cmd, args.ll) for name, cmd in runs.items()}
    print(f"{len(files)} files, one process each, last level {args.ll // 1024} KiB")
    print(f"{'':16} {'instructions':>16} {'D1 misses':>14} {'LL misses':>12}")
    for name, c in counted.items():
        print(f"{name:16} {c['instructions']:>16,} {c['D1 misses']:>14,} {c['LL misses']:>12,}")
    if len(counted) == 2:
        mine, theirs = counted["mjaudit audit"], counted["jansou-validate"]
        ratios = "  ".join(f"{k} {mine[k] / theirs[k]:.2f}" for k in _COUNTS)
        print(f"ratio mjaudit/jansou: {ratios}")
    else:
        print("jansou-validate  not installed (pip install jansou)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
