"""Size and render time of the HTML game report for the longest corpus game.

    python benchmarks/bench_report.py [FOLDER] [--repeat N]

The longest game is the Tenhou XML log with the most rounds (``<INIT`` tags, then
the most events as a tie-break) in ../shared/corpus/tenhou-xml. Prints the file,
its rounds, the page size (raw and gzipped), whether any external URL appears,
and the best and median wall time of ``collect + build + render`` over N runs.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reports.html import render_game_file  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
EXTERNAL = re.compile(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def longest(folder: Path) -> Path:
    def size(p: Path) -> tuple[int, int]:
        data = p.read_bytes()
        return data.count(b"<INIT"), data.count(b"<")

    return max(sorted(folder.glob("*.xml")), key=size)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("-o", "--output", default=None, help="also write the page here")
    args = parser.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no corpus at {folder}", file=sys.stderr)
        return 2
    path = longest(folder)
    times = []
    html = ""
    for _ in range(args.repeat):
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
    if args.output:
        Path(args.output).write_text(html, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
