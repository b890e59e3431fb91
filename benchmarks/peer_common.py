"""What the benchmarks that run mjaudit next to a peer tool share."""

from __future__ import annotations

import compileall
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "tenhou-xml"


def compile_project() -> None:
    """Byte-compile the project, as ``pip install`` does for an installed peer.

    Otherwise a run under ``PYTHONDONTWRITEBYTECODE`` (or from a fresh checkout)
    would count the compiler too.
    """
    for package in ("mjaudit", "parsers", "analyzer", "reports"):
        compileall.compile_dir(ROOT / package, quiet=1)


def logs_under(path: str) -> list[str]:
    """The mjlog files under ``path``, as both tools are given them."""
    return sorted(str(p) for p in Path(path).rglob("*.xml"))


def spread(ratios: list[float], unit: str = "") -> str:
    """``median M (quartiles Q1-Q3)`` of the ratios of the rounds of a run."""
    q1, median, q3 = statistics.quantiles(ratios, n=4)
    return f"median {median:.2f}{unit} (quartiles {q1:.2f}-{q3:.2f})"
