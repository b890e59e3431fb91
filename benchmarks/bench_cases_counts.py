"""Instructions of ``score --batch`` next to the ``mahjong`` package, on the same cases.

    python benchmarks/bench_cases_counts.py [CASES.jsonl]

Timings on a shared machine move by a fifth from one run to the next; instruction
counts do not. Each side runs once, in its own process under valgrind's cachegrind
(``--cache-sim=no``), doing what bench_cases.py times: mjaudit through
``reports.cases.score_batch``, the package through the adapter of
docs/examples/mahjong_adapter.py, each decoding every JSON line, scoring it and
writing an answer line. The same process that only imports what it needs is
counted too and taken off, so what is left is the work on the cases. Prints the
instructions of each side, per case, and their ratio (the package's over mjaudit's:
how many times fewer instructions mjaudit runs).

Without CASES, the cases of the Tenhou corpus (../shared/corpus/tenhou-xml) are
exported first. The project is byte-compiled first and ``PYTHONHASHSEED`` is fixed,
so two runs of the same code give the same counts (within a few thousand). Needs
valgrind (Debian ``valgrind``) and the ``mahjong`` package (a dev dependency).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from peer_common import CORPUS, ROOT, compile_project

ADAPTER = ROOT / "docs" / "examples" / "mahjong_adapter.py"
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
_RUNS = ("mjaudit imports", "mjaudit", "mahjong imports", "mahjong")


def _child(run: str, path: str) -> None:
    """One of _RUNS, in this process (what cachegrind counts)."""
    if run.startswith("mjaudit"):
        from reports.cases import score_batch

        if run == "mjaudit":
            summary = score_batch(path, io.StringIO())
            assert not summary.problems, summary.problems[:3]
        return
    spec = importlib.util.spec_from_file_location("mahjong_adapter", ADAPTER)
    assert spec is not None and spec.loader is not None
    adapter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(adapter)
    if run == "mahjong":
        out = io.StringIO()
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                out.write(json.dumps(adapter.answer(json.loads(line))) + "\n")


def _count(run: str, path: str) -> int:
    """The instructions of ``run`` over ``path``, counted by cachegrind."""
    # The interpreter itself, not a launcher script that valgrind would follow instead.
    python = os.path.realpath(sys.executable)
    cmd = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        python,
        __file__,
        "--child",
        run,
        path,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    match = _REFS.search(proc.stderr)
    if proc.returncode or match is None:
        raise SystemExit(f"{run}: no count in valgrind's output:\n{proc.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="?", default=None)
    ap.add_argument("--child", nargs=2, metavar=("RUN", "CASES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(*args.child)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind not installed (apt-get install valgrind)")
        return 2
    compile_project()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.cases
        if path is None:
            from reports.cases import export_cases

            path = str(Path(tmp) / "cases.jsonl")
            with open(path, "w", encoding="utf-8") as out:
                export_cases([str(CORPUS)], out)
        with open(path, encoding="utf-8") as stream:
            n = sum(1 for line in stream if line.strip())
        if not n:
            print(f"no cases in {path} (is the corpus at {CORPUS}?)")
            return 2
        counts = {run: _count(run, path) for run in _RUNS}
    ours = counts["mjaudit"] - counts["mjaudit imports"]
    theirs = counts["mahjong"] - counts["mahjong imports"]
    print(f"cases: {n}")
    for name, total, imports, net in (
        ("mjaudit score --batch", counts["mjaudit"], counts["mjaudit imports"], ours),
        ("mahjong + adapter", counts["mahjong"], counts["mahjong imports"], theirs),
    ):
        print(
            f"{name:22} {total:>15,} instructions, {imports:>13,} of them imports: "
            f"{net:>15,} on the cases, {net // n:>9,} a case"
        )
    print(f"ratio mahjong/mjaudit (instructions on the cases): {theirs / ours:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
