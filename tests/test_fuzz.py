"""Seeded mutation fuzzing: no mutated log makes mjaudit fail in any way but its own.

A bounded number of cases per format runs in this process through the library
(parse, audit, the replay and wall views, the converters), and a few through the
command line (audit, replay, convert, report). Every case must end with the log
read and audited, or refused with a one-line :class:`MjauditError`; never another
exception, an "internal error", a traceback or an exit code outside {0, 1, 2}.
Targeted mutations (a changed claim, a deleted result, a cut game) must each give
their finding. The long run is ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from mjaudit.errors import MjauditError
from mjaudit.findings import ERROR_CODES, INFO_CODES, WARNING_CODES
from parsers import load_bytes
from reports.cli import main
from tests.fuzzing import TARGETED, Outcome, Targeted, cases, corpus_sources, run_case

SEED = 20260416
IN_PROCESS = 250  # cases per format
ON_THE_COMMAND_LINE = 3  # mutated files per format, each through four commands
SUFFIX = {"tenhou-xml": ".xml", "tenhou-json": ".json", "mjai": ".jsonl", "mahjongsoul": ".json"}
REGISTERED = ERROR_CODES | WARNING_CODES | INFO_CODES


def _formats() -> list[str]:
    return list(SUFFIX)


def _need_sources(fmt: str) -> None:
    if not corpus_sources()[fmt]:
        pytest.skip(f"no {fmt} logs to mutate (the corpus ../shared/corpus is absent)")


@pytest.mark.parametrize("fmt", _formats())
def test_mutated_logs_in_process(fmt: str) -> None:
    _need_sources(fmt)
    results = [run_case(case) for case in cases(IN_PROCESS, SEED, (fmt,))]
    assert len(results) == IN_PROCESS
    internal = [f"{r.case.name}\n{r.detail}" for r in results if r.outcome is Outcome.INTERNAL]
    assert not internal, "\n\n".join(internal[:3])
    # The run must reach past the parser, or it tests little.
    assert sum(r.outcome is not Outcome.UNREADABLE for r in results) >= IN_PROCESS // 20


@pytest.mark.parametrize("fmt", _formats())
def test_mutated_logs_on_the_command_line(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_sources(fmt)
    for case in cases(ON_THE_COMMAND_LINE, SEED + 1, (fmt,)):
        path = tmp_path / f"{case.source.stem}-{case.seed}{SUFFIX[fmt]}"
        path.write_bytes(case.data)
        for argv in (
            ["audit", "--format", "json", str(path)],
            ["replay", str(path), "--seat", "1"],
            ["convert", str(path), "--to", "mjai", "-o", str(tmp_path / "out.jsonl")],
            ["report", str(path), "-o", str(tmp_path / "out.html")],
        ):
            code = main(argv)
            out, err = capsys.readouterr()
            where = f"{case.name}: mjaudit {' '.join(argv[:1])}"
            assert code in (0, 1, 2), where
            assert "Traceback" not in out + err and "internal error" not in out + err, where
            if code == 2:
                lines = err.strip().splitlines()
                assert lines and all(line.startswith("mjaudit: ") for line in lines), where


def _targeted_cases() -> list[object]:
    return [pytest.param(t, k, id=f"{t.name}-{k}") for t in TARGETED for k in range(3)]


@pytest.mark.parametrize(("target", "k"), _targeted_cases())
def test_targeted_mutations_give_their_finding(target: Targeted, k: int) -> None:
    missing = sorted(target.needs - REGISTERED)
    if missing:
        pytest.skip(f"{target.name}: finding code {', '.join(missing)} not registered yet")
    _need_sources(target.fmt)
    rng = random.Random(f"{SEED}-{target.name}-{k}")
    sources = corpus_sources()[target.fmt]
    for _ in range(50):
        source = rng.choice(sources)
        original = source.read_bytes()
        try:
            load_bytes(original, source.name)
        except MjauditError:
            continue  # a corpus file mjaudit does not read (a dialect it refuses)
        data = target.make(original, rng)
        if data is not None:
            break
    else:
        pytest.skip(f"{target.name}: no source log has what it changes")
    log = load_bytes(data, f"{target.name}/{source.name}")
    audit = audit_log(log, resolve_rules(log, "auto"))
    codes = {f.code for f in audit.findings}
    assert codes & target.codes, f"{source.name}: {target.name} gave {sorted(codes)}"


def test_the_mutations_are_seeded() -> None:
    one = [(c.name, c.data) for c in cases(12, 7)]
    two = [(c.name, c.data) for c in cases(12, 7)]
    assert one == two and len({name for name, _ in one}) > 1
