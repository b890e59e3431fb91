"""Size and build time of the players page and the index over a folder of logs.

    python benchmarks/bench_players.py [FOLDER] [--repeat N] [-o DIR]

Audits every log of FOLDER (../shared/corpus/tenhou-xml by default) once into the
per-seat rows (reports.stats.seat_games), then builds and renders the players page
of every player and the index from the rows N times. Prints the games, seats and
players, the pickled size of the rows (what worker processes hand on), the size of
both pages (raw and gzipped) and the best and median time of building and rendering
them; the audit itself is timed once, apart.
"""

from __future__ import annotations

import argparse
import gzip
import pickle
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.checks.audit import resolve_rules  # noqa: E402
from parsers.containers import iter_locators, read_locator  # noqa: E402
from parsers.sources import load_bytes  # noqa: E402
from reports.html import render_index, render_players  # noqa: E402
from reports.stats import SeatGame, seat_games  # noqa: E402
from reports.views_facts import collect_game  # noqa: E402
from reports.views_player import build_index_view, build_players_view  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml"


def rows_of_folder(folder: Path) -> list[SeatGame]:
    rows: list[SeatGame] = []
    for k, loc in enumerate(iter_locators([str(folder)])):
        log = load_bytes(read_locator(loc), loc.name)
        rows.extend(seat_games(collect_game(log, resolve_rules(log, "auto")), f"g{k}.html"))
    return rows


def _size(text: str) -> str:
    data = text.encode("utf-8")
    packed = len(gzip.compress(data, mtime=0))
    return f"{len(data):,} bytes ({len(data) / 2**20:.2f} MiB), {packed:,} gzipped"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("-o", "--output", default=None, help="also write both pages here")
    args = parser.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no corpus at {folder}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    rows = rows_of_folder(folder)
    audit = time.perf_counter() - t0
    times = []
    players = index = ""
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        players = render_players(build_players_view(rows=rows))
        index = render_index(build_index_view((), [], rows=rows))
        times.append(time.perf_counter() - t0)
    games = len({r.page for r in rows})
    names = len({r.name for r in rows})
    print(f"games:     {games}, {len(rows)} seats, {names} players ({audit:.1f} s to audit)")
    print(f"rows:      {len(pickle.dumps(rows)):,} bytes pickled")
    print(f"players:   {_size(players)}")
    print(f"index:     {_size(index)}")
    print(f"build:     best {min(times):.3f} s, median {statistics.median(times):.3f} s")
    if args.output:
        out = Path(args.output)
        out.mkdir(parents=True, exist_ok=True)
        (out / "players.html").write_text(players, encoding="utf-8")
        (out / "index.html").write_text(index, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
