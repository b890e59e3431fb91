"""Conformance cases: ``score --batch`` against the ``mahjong`` package on the same cases.

    python benchmarks/bench_cases.py [CASES.jsonl] [--repeat R] [--processes]

Without CASES, the cases of the Tenhou corpus (../shared/corpus/tenhou-xml) are
exported first. Both sides do the same work per case: decode its JSON line, score it
and write an answer line (mjaudit through ``reports.cases.score_batch``, the package
through the adapter of docs/examples/mahjong_adapter.py), R times each, in alternating
rounds; the best pass of each is kept, and the ratio of each round is given too
(median and quartiles), which a busy machine disturbs less. In-process passes are
timed in CPU time (``time.process_time``), so that other processes sharing the
machine do not count. ``--processes`` also times the
two commands end to end, start-up included (wall-clock time), and mjaudit's with a
worker per CPU (``-j``; the package has no such mode). Then the same without
the JSON lines (each case already decoded), whose cost is the same for both. Prints
hands per second for each and the ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from peer_common import CORPUS, ROOT, compile_project, spread

from analyzer.checks.case_scoring import score_case
from analyzer.runs.pool import available_cpus
from reports.cases import export_cases, score_batch

ADAPTER = ROOT / "docs" / "examples" / "mahjong_adapter.py"


def _adapter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mahjong_adapter", ADAPTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ours(path: str) -> float:
    out = io.StringIO()
    start = time.process_time()
    summary = score_batch(path, out)
    elapsed = time.process_time() - start
    assert not summary.problems, summary.problems[:3]
    return elapsed


def _theirs(path: str, adapter: ModuleType) -> float:
    out = io.StringIO()
    start = time.process_time()
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            out.write(json.dumps(adapter.answer(json.loads(line))) + "\n")
    return time.process_time() - start


def _decoded(cases: list[Any], answer: Callable[[Any], object]) -> float:
    start = time.process_time()
    for case in cases:
        answer(case)
    return time.process_time() - start


def _rounds(
    repeat: int, ours: Callable[[], float], theirs: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Each side timed ``repeat`` times, back to back in rounds, the order changing
    each round (a busy machine then disturbs both alike)."""
    a: list[float] = []
    b: list[float] = []
    for k in range(repeat):
        if k % 2:
            b.append(theirs())
            a.append(ours())
        else:
            a.append(ours())
            b.append(theirs())
    return a, b


def _by_round(ours: list[float], theirs: list[float]) -> str:
    """The ratio of each round (their time over ours): median and quartiles."""
    ratios = sorted(t / o for o, t in zip(ours, theirs, strict=True))
    if len(ratios) < 4:
        return f"round by round {', '.join(f'{r:.2f}' for r in ratios)}"
    return f"round by round {spread(ratios, 'x')}"


def _command(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--processes", action="store_true")
    args = parser.parse_args()
    compile_project()
    tmp = tempfile.TemporaryDirectory()
    path = args.cases
    if path is None:
        path = str(Path(tmp.name) / "cases.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            summary = export_cases([str(CORPUS)], out)
        print(f"exported {summary.cases} cases from {summary.games} games of {CORPUS}")
    with open(path, encoding="utf-8") as stream:
        n = sum(1 for line in stream if line.strip())
    if not n:
        sys.exit(f"no cases in {path} (is the corpus at {CORPUS}?)")
    adapter = _adapter()
    ours, theirs = _rounds(args.repeat, lambda: _ours(path), lambda: _theirs(path, adapter))
    a, b = n / min(ours), n / min(theirs)
    print(f"cases: {n}")
    print(f"mjaudit score --batch (in process, best of {args.repeat}): {a:8.0f} hands/s")
    print(f"mahjong + adapter     (in process, best of {args.repeat}): {b:8.0f} hands/s")
    print(f"ratio mjaudit/mahjong: {a / b:.2f}x (bests); {_by_round(ours, theirs)}")
    # The same without the JSON lines, which cost both sides the same: each case
    # already decoded, read into the scorer's values, scored and made an answer.
    with open(path, encoding="utf-8") as stream:
        cases = [json.loads(line) for line in stream if line.strip()]
    ours_d, theirs_d = _rounds(
        args.repeat, lambda: _decoded(cases, score_case), lambda: _decoded(cases, adapter.answer)
    )
    print(f"mjaudit, decoded cases: {n / min(ours_d):8.0f} hands/s")
    print(f"mahjong, decoded cases: {n / min(theirs_d):8.0f} hands/s")
    print(
        f"ratio mjaudit/mahjong (decoded cases): {min(theirs_d) / min(ours_d):.2f}x (bests); "
        f"{_by_round(ours_d, theirs_d)}"
    )
    if args.processes:
        ours_cmd = [sys.executable, "-m", "mjaudit", "score", "--batch", path, "-j", "1"]
        theirs_cmd = [sys.executable, str(ADAPTER), path]
        cpus = available_cpus()
        pooled_cmd = [*ours_cmd[:-1], str(cpus)]
        c = min(_command(ours_cmd) for _ in range(args.repeat))
        d = min(_command(theirs_cmd) for _ in range(args.repeat))
        e = min(_command(pooled_cmd) for _ in range(args.repeat))
        print(f"mjaudit score --batch -j 1 (command, start-up included): {n / c:8.0f} hands/s")
        print(f"mjaudit score --batch -j {cpus} (command, wall time):       {n / e:8.0f} hands/s")
        print(f"mahjong adapter            (command, start-up included): {n / d:8.0f} hands/s")
        print(f"ratio mjaudit/mahjong (commands): -j 1 {d / c:.2f}x, -j {cpus} {d / e:.2f}x")
    tmp.cleanup()


if __name__ == "__main__":
    main()
