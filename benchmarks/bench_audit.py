"""Wall time of ``mjaudit audit`` next to ``jansou-validate`` on the same files.

Both tools run as command lines, alternately, on the same inputs in the same run;
the best of N runs of each is reported with the ratio. jansou (PyPI ``jansou``, a
peer that re-scores Tenhou logs: hand value and fu only) is not a dependency:
install it to compare (``pip install jansou``).

    python benchmarks/bench_audit.py [PATH] [--runs N] [--jobs J]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tenhou-xml"


def _time(cmd: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, check=False)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    files = sorted(str(p) for p in Path(args.path).rglob("*.xml"))
    if not files:
        print(f"no .xml logs under {args.path}")
        return 2
    mine = [sys.executable, "-m", "mjaudit", "audit", "--format", "json", "-j", str(args.jobs),
            args.path]
    peer_bin = shutil.which("jansou-validate")
    peer = (
        [peer_bin, "-q", "-j", str(args.jobs), str(Path(args.path) / "**" / "*.xml")]
        if peer_bin
        else None
    )
    best_mine = best_peer = float("inf")
    for _ in range(args.runs):
        t, code = _time(mine)
        best_mine = min(best_mine, t)
        if code not in (0, 1):
            print(f"mjaudit exited {code}")
        if peer is not None:
            t, _ = _time(peer)
            best_peer = min(best_peer, t)
    print(f"{len(files)} files, best of {args.runs}, {args.jobs} worker(s)")
    print(f"mjaudit audit    {best_mine:7.2f} s  {len(files) / best_mine:7.1f} games/s")
    if peer is None:
        print("jansou-validate  not installed (pip install jansou)")
        return 0
    print(f"jansou-validate  {best_peer:7.2f} s  {len(files) / best_peer:7.1f} games/s")
    print(f"ratio mjaudit/jansou = {best_mine / best_peer:.2f} (below 1 means mjaudit is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
