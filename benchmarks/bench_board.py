"""What the step-through board costs on the longest corpus game: bytes and time.

    python benchmarks/bench_board.py [FOLDER] [--repeat N]

The longest game is the Tenhou XML log with the most hands (then the most events)
in FOLDER (default ../shared/corpus/tenhou-xml). Prints the page's size, the bytes
of its board data (the rounds' ``<script class="frames">`` blocks) and their share
of the page, and the best time over N runs of: the audit alone (with the furiten
tracker, as the report runs it), the audit watched by the board recorder
(``collect_game``), and the page's views and rendering.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.checks.audit import audit_log, resolve_rules  # noqa: E402
from analyzer.review.furiten import FuritenTracker  # noqa: E402
from parsers import load  # noqa: E402
from reports.html import render_game  # noqa: E402
from reports.views import build_game_view  # noqa: E402
from reports.views_facts import collect_game  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
BOARD_DATA = re.compile(r'<script type="application/json" class="frames">(.*?)</script>', re.S)


def longest(folder: Path) -> Path:
    def size(p: Path) -> tuple[int, int]:
        data = p.read_bytes()
        return data.count(b"<INIT"), data.count(b"<")

    return max(sorted(folder.glob("*.xml")), key=size)


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no corpus at {folder}", file=sys.stderr)
        return 2
    path = longest(folder)
    log = load(str(path))
    rules = resolve_rules(log, "auto")

    def audit_only() -> object:
        tracker = FuritenTracker(rules, log.path, review=True)
        return audit_log(log, rules, keep_replay=True, tracker=tracker)

    audit_s = best(audit_only, args.repeat)
    collect_s = best(lambda: collect_game(log, rules), args.repeat)
    facts = collect_game(log, rules)
    view_s = best(lambda: render_game(build_game_view(facts)), args.repeat)
    page = render_game(build_game_view(facts)).encode("utf-8")
    board = sum(len(m.encode("utf-8")) for m in BOARD_DATA.findall(page.decode("utf-8")))
    print(f"game:        {path.name} ({log.events.__len__()} events)")
    print(f"page:        {len(page):,} bytes, {len(gzip.compress(page, mtime=0)):,} gzipped")
    print(f"board data:  {board:,} bytes ({100 * board / len(page):.1f}% of the page)")
    print(f"audit:       {audit_s * 1000:.1f} ms (with the furiten tracker)")
    print(
        f"+ board:     {collect_s * 1000:.1f} ms (collect_game; the board's recording "
        f"{(collect_s - audit_s) * 1000:.1f} ms)"
    )
    print(f"views+page:  {view_s * 1000:.1f} ms (build_game_view and render_game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
