"""What the benchmarks that run mjaudit next to a peer tool share."""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
JSON_CORPUS = ROOT.parent / "shared" / "corpus" / "tenhou-json"
# The files of a Tenhou log in either format (mjlog XML, tenhou.net/6 JSON, and JSON
# lines of one hand each).
TENHOU_SUFFIXES = (".xml", ".json", ".jsonl")


def compile_project() -> None:
    """Byte-compile the project, as ``pip install`` does for an installed peer.

    Otherwise a run under ``PYTHONDONTWRITEBYTECODE`` (or from a fresh checkout)
    would count the compiler too.
    """
    for package in ("mjaudit", "parsers", "analyzer", "reports"):
        compileall.compile_dir(ROOT / package, quiet=1)


def logs_under(path: str, suffixes: tuple[str, ...] = (".xml",)) -> list[str]:
    """The logs under ``path`` (the mjlog files unless ``suffixes`` says otherwise), as
    both tools are given them."""
    return sorted(str(p) for p in Path(path).rglob("*") if p.suffix in suffixes and p.is_file())


def spread(ratios: list[float], unit: str = "") -> str:
    """``median M (quartiles Q1-Q3)`` of the ratios of the rounds of a run."""
    q1, median, q3 = statistics.quantiles(ratios, n=4)
    return f"median {median:.2f}{unit} (quartiles {q1:.2f}-{q3:.2f})"


def peer_command(script: str) -> list[str] | None:
    """How to run a peer's console script as mjaudit is run: this interpreter and the
    script installed beside it, or None when the peer is not installed here.

    Not the first ``script`` on PATH: that may be a launcher (pyenv's shims are bash
    scripts that start pyenv before Python), whose own CPU time, 0.04-0.05 s a run
    measured here, would be counted as the peer's.
    """
    peer = Path(sys.executable).with_name(script)
    return [sys.executable, str(peer)] if peer.is_file() else None


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, children included) and exit code of
    a command, its output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)
