"""Rounds per second of the audit in each input format, and on twin files.

For every corpus format under ../shared/corpus (Tenhou XML, Tenhou JSON, mjai,
Mahjong Soul), the files are read and audited in this process (``load`` then
``audit_log``: parse, replay, every check), best of N runs, CPU time. Then the
same games in two formats (the twin files: mjlog2json and mjx JSON whose mjlog
is under tenhou-xml/, and the mjai conversions of mjlogs there) are timed side
by side, alternating, and the ratio of their rounds/s is printed: 1.0 means a
format costs what XML costs per round.

    python benchmarks/bench_formats.py [--runs N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.checks.audit import audit_log, resolve_rules  # noqa: E402
from parsers import load  # noqa: E402
from tests.test_twins import MJAI_TWIN_DIR, MJAI_TWINS  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
FORMATS = {
    "tenhou-xml": ("*.xml",),
    "tenhou-json": ("*.json", "*.jsonl"),
    "mjai": ("*.jsonl", "*.json"),
    "mahjongsoul": ("*.json", "*.txt"),
}


def _files(folder: Path, patterns: Sequence[str]) -> list[Path]:
    found = {p for pattern in patterns for p in folder.rglob(pattern)}
    return sorted(p for p in found if p.is_file() and not p.name.endswith(".md"))


def _audit_all(files: Sequence[Path]) -> int:
    """Read and audit each file; the number of rounds audited."""
    rounds = 0
    for path in files:
        try:
            log = load(str(path))
        except Exception:
            continue
        rounds += audit_log(log, resolve_rules(log, "auto")).rounds
    return rounds


def _best(run: Callable[[], int], runs: int) -> tuple[float, int]:
    best, rounds = float("inf"), 0
    for _ in range(runs):
        start = time.process_time()
        rounds = run()
        best = min(best, time.process_time() - start)
    return best, rounds


def _twins() -> dict[str, list[tuple[Path, Path]]]:
    """(twin, mjlog) pairs by the twin's format."""
    xml = CORPUS / "tenhou-xml"
    pairs: dict[str, list[tuple[Path, Path]]] = {"tenhou-json": [], "mjai": []}
    for p in _files(CORPUS / "tenhou-json", FORMATS["tenhou-json"]):
        twin = xml / (p.stem + ".xml")
        if twin.exists():
            pairs["tenhou-json"].append((p, twin))
    for stem, mjlog in MJAI_TWINS.items():
        p, twin = MJAI_TWIN_DIR / f"{stem}.jsonl", xml / f"{mjlog}.xml"
        if p.exists() and twin.exists():
            pairs["mjai"].append((p, twin))
    return pairs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}")
        return 2
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)  # as the command line does
    print(f"each format, in process (read + audit), best of {args.runs}, CPU time")
    for name, patterns in FORMATS.items():
        files = _files(CORPUS / name, patterns)
        seconds, rounds = _best(partial(_audit_all, files), args.runs)
        print(f"  {name:<12} {len(files):4} files {rounds:5} rounds {seconds:6.2f} s "
              f"{rounds / seconds:8.0f} rounds/s")  # fmt: skip
    print(f"twin files: the same games in two formats, alternating, {args.runs} rounds")
    for name, pairs in _twins().items():
        if not pairs:
            continue
        mine = [p for p, _ in pairs]
        xml = [x for _, x in pairs]
        ratios: list[float] = []
        for run in range(args.runs):
            order = (mine, xml) if run % 2 == 0 else (xml, mine)
            took: dict[int, tuple[float, int]] = {}
            for files in order:
                start = time.process_time()
                rounds = _audit_all(files)
                took[id(files)] = (time.process_time() - start, rounds)
            (t_mine, r_mine), (t_xml, r_xml) = took[id(mine)], took[id(xml)]
            ratios.append((r_mine / t_mine) / (r_xml / t_xml))
        print(f"  {name:<12} {len(pairs):3} games: rounds/s vs the XML twins "
              f"median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
