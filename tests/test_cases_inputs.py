"""What ``score --batch`` and ``cases check`` read: bounded, text only, typed answers.

A case or answer file is read as the audit reads a log (parsers.sources.read_input):
a device or a FIFO named is refused by its type, gzip and bz2 are undone, nothing is
held past the input limit, and a line is at most 1 MiB. A file that is not text is one
line; past 20 bad lines of a file the rest are counted. An answer value of the wrong
JSON type is a bad line, not a value Python happens to find equal (docs/cases.md).
"""

from __future__ import annotations

import bz2
import gzip
import json
import os
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from reports.cases import score_batch
from reports.cli import main
from tests.conftest import REPO, SAMPLES

Doc = dict[str, Any]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _limited(argv: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``mjaudit argv`` in a process of at most 1 GiB of address space, for 20 s: a
    reader without a bound fails here rather than taking the machine's memory."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from reports.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    with open(stdin or os.devnull, "rb") as source:
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO, stdin=source, capture_output=True, text=True, timeout=20,
        )  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A cases file of the sample games and mjaudit's answers to it."""
    folder = tmp_path_factory.mktemp("cases")
    cases, answers = folder / "cases.jsonl", folder / "answers.jsonl"
    sample = [str(SAMPLES / "clean_game.xml"), str(SAMPLES / "kans.xml")]
    assert main(["cases", "export", *sample, "-o", str(cases)]) == 0
    with open(answers, "w", encoding="utf-8") as out:
        assert not score_batch(str(cases), out).problems
    return cases, answers


def _docs(path: Path) -> list[Doc]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, docs: list[Doc]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


# -- defect 1: devices, FIFOs, endless streams, long lines -----------------------------


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["score", "--batch", "{bad}"], id="score-batch"),
        pytest.param(["cases", "check", "{bad}", "{answers}"], id="check-cases"),
        pytest.param(["cases", "check", "{cases}", "{bad}"], id="check-answers"),
    ],
)
@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_device_or_a_fifo_named_is_refused_by_its_type(
    files: tuple[Path, Path], tmp_path: Path, argv: list[str], kind: str
) -> None:
    cases, answers = files
    if kind == "device":
        bad, said = "/dev/zero", "not read: a device, not a regular file"
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        bad = str(tmp_path / "cases.fifo")
        os.mkfifo(bad)
        said = "not read: a FIFO, not a regular file (give a pipe as -, standard input)"
    names = {"bad": bad, "cases": str(cases), "answers": str(answers)}
    done = _limited([a.format(**names) for a in argv])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"mjaudit: {bad}: {said}"]


def test_an_endless_stdin_of_zeros_stops_at_its_first_line() -> None:
    # Read line by line (a cases file may be of any length), each line bounded: a
    # stream with no line end is refused at its first MAX_LINE bytes.
    done = _limited(["score", "--batch", "-"], stdin="/dev/zero")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "mjaudit: - (line 1): not text (a NUL byte at column 1): cases and answers are "
        "JSON lines in UTF-8"
    ]


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_line_of_more_than_1_mib_is_a_bad_line_and_the_others_are_read(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], tmp_path: Path, command: str
) -> None:
    cases, answers = files
    long = tmp_path / "long.jsonl"
    n = len(_docs(cases))
    text = cases if command == "score" else answers
    long.write_text(
        '{"id": "' + "x" * (2 << 20) + '"}\n' + text.read_text(encoding="utf-8"), encoding="utf-8"
    )
    said = [f"mjaudit: {long} (line 1): longer than 1 MiB, the most a case or answer line may be"]
    if command == "score":
        code, out, err = _run(capsys, "score", "--batch", str(long))
        assert len(out.splitlines()) == n
    else:
        code, out, err = _run(capsys, "cases", "check", str(cases), str(long))
        assert out.startswith(f"{n} cases, {n} answered, 0 disagreements")
    assert (code, err.splitlines()) == (2, said)


# -- defect 2: binary files, a flood of bad lines, gzip and bz2 ------------------------


@pytest.mark.parametrize(
    ("content", "said"),
    [
        pytest.param(
            b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40,
            " (line 1): not text (a NUL byte at column 8): cases and answers are JSON "
            "lines in UTF-8",
            id="program",
        ),
        pytest.param(
            "\ufeff{}\n".encode("utf-16-le"),
            " (line 1): not text (a NUL byte at column 4): cases and answers are JSON "
            "lines in UTF-8",
            id="utf-16",
        ),
        pytest.param(
            gzip.compress(b"\x7fELF\x02\x01\x01\x00" + bytes(5000)),
            " (line 1): not text (a NUL byte at column 8): cases and answers are JSON "
            "lines in UTF-8",
            id="gzipped-program",
        ),
        pytest.param(
            None,
            ": a zip archive, not JSON lines: give the case or answer file itself "
            "(plain, gzip or bz2)",
            id="zip",
        ),
    ],
)
@pytest.mark.parametrize("command", ["score", "check"])
def test_a_file_that_is_not_text_is_one_line(
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path],
    tmp_path: Path,
    content: bytes | None,
    said: str,
    command: str,
) -> None:
    bad = tmp_path / "bad.jsonl"
    if content is None:
        with zipfile.ZipFile(bad, "w") as zf:
            zf.writestr("cases.jsonl", files[0].read_text(encoding="utf-8"))
    else:
        bad.write_bytes(content)
    if command == "score":
        code, out, err = _run(capsys, "score", "--batch", str(bad))
    else:
        code, out, err = _run(capsys, "cases", "check", str(files[0]), str(bad))
    assert (code, out, err.splitlines()) == (2, "", [f"mjaudit: {bad}{said}"])


def test_past_20_bad_lines_the_rest_are_counted_and_the_good_ones_scored(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], tmp_path: Path
) -> None:
    cases, answers = files
    good = cases.read_bytes().splitlines(keepends=True)
    mixed = tmp_path / "mixed.jsonl"
    # Bytes that are not UTF-8, a line cut short by zeros, then every case.
    mixed.write_bytes(b"\xff\xfe\xfd\n" * 30 + b"\x00" * 10 + b"\n" + b"".join(good))
    code, out, err = _run(capsys, "score", "--batch", str(mixed))
    assert code == 2 and out == answers.read_text(encoding="utf-8")
    assert err.splitlines() == [
        *(f"mjaudit: {mixed} (line {n}): not UTF-8 text" for n in range(1, 21)),
        f"mjaudit: {mixed}: 11 more bad lines, not listed (the first 20 are)",
    ]
    # A NUL past the first line is that line's problem; the cases around it are read.
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(good) + b"\x00" * 100)
    code, out, err = _run(capsys, "score", "--batch", str(cut))
    assert code == 2 and out == answers.read_text(encoding="utf-8")
    assert err.splitlines() == [
        f"mjaudit: {cut} (line {len(good) + 1}): not text: a NUL byte at column 1"
    ]
    # The same cap for each file of a check, said apart.
    code, out, err = _run(capsys, "cases", "check", str(mixed), str(mixed))
    assert code == 2 and out.startswith(f"{len(good)} cases, 0 answered")
    lines = err.splitlines()
    assert len(lines) == 2 * 21 + 1
    assert lines[20] == f"mjaudit: {mixed}: 11 more bad lines, not listed (the first 20 are)"
    # The answers: the first case found in them is said after the count, and ends them.
    assert lines[41] == f"mjaudit: {mixed}: 11 more bad lines, not listed (the first 20 are)"
    assert lines[42].startswith(f"mjaudit: {mixed} (line 32): a case, not an answer: ")


def test_gzip_and_bz2_files_are_read_as_the_audit_reads_them(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], tmp_path: Path
) -> None:
    cases, answers = files
    packed_cases = tmp_path / "cases.jsonl.gz"
    packed_cases.write_bytes(gzip.compress(cases.read_bytes()))
    packed_answers = tmp_path / "answers.jsonl.bz2"
    packed_answers.write_bytes(bz2.compress(answers.read_bytes()))
    code, out, err = _run(capsys, "score", "--batch", str(packed_cases))
    assert (code, out, err) == (0, answers.read_text(encoding="utf-8"), "")
    code, out, err = _run(capsys, "cases", "check", str(packed_cases), str(packed_answers))
    n = len(_docs(cases))
    assert code == 0 and err == ""
    assert out.startswith(f"{n} cases, {n} answered, 0 disagreements")


def test_a_gzip_file_cut_short_keeps_the_lines_before_the_cut(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], tmp_path: Path
) -> None:
    cases, answers = files
    good = cases.read_bytes().splitlines(keepends=True)
    kept = 2
    assert len(good) > kept + 1
    # Two whole lines and half of the third, flushed, and no more (a download stopped).
    pack = zlib.compressobj(9, zlib.DEFLATED, 31)
    data = pack.compress(b"".join(good[:kept]) + good[kept][:40]) + pack.flush(zlib.Z_SYNC_FLUSH)
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data)
    said = (
        f"mjaudit: {cut} (line {kept + 1}): cannot read: Compressed file ended before the "
        "end-of-stream marker was reached; the lines before it were read, the rest of the "
        "file was not"
    )
    code, out, err = _run(capsys, "score", "--batch", str(cut))
    answered = answers.read_text(encoding="utf-8").splitlines(keepends=True)
    assert (code, out, err.splitlines()) == (2, "".join(answered[:kept]), [said])
    code, out, err = _run(capsys, "cases", "check", str(cut), str(answers), "--format", "json")
    assert code == 2
    doc = json.loads(out)
    assert (doc["cases"], doc["answered"], doc["disagreements"]) == (kept, kept, 0)
    assert err.splitlines()[0] == said and doc["bad_lines"][0] == said[len("mjaudit: ") :]
    # Cut before its first line ends, the file cannot be read at all: one line, no report.
    (tmp_path / "none.jsonl.gz").write_bytes(data[:30])
    code, out, err = _run(capsys, "score", "--batch", str(tmp_path / "none.jsonl.gz"))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1


# -- defect 3: an answer of the wrong type ----------------------------------------------


def _replace_yaku(value: Any) -> Any:
    def edit(result: Doc) -> None:
        result["yaku"] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        pytest.param(
            lambda r: r.update(han=True), "result.han: expected an integer, not true", id="han-bool"
        ),
        pytest.param(
            lambda r: r.update(points=float(r["points"])),
            "result.points: expected an integer, not {points}.0",
            id="points-float",
        ),
        pytest.param(
            _replace_yaku("riichi"),
            'result.yaku: expected a list of {{"name", "han"}}, not "riichi"',
            id="yaku-string",
        ),
        pytest.param(
            _replace_yaku([["riichi", 1]]),
            'result.yaku[0]: expected {{"name", "han"}}, not ["riichi", 1]',
            id="yaku-pair",
        ),
        pytest.param(
            _replace_yaku([{"name": "riichi", "han": "1"}]),
            'result.yaku[0].han: expected an integer, not "1"',
            id="yaku-han-string",
        ),
        pytest.param(
            _replace_yaku([{"name": "riichi"}]), "result.yaku[0].han: missing", id="yaku-no-han"
        ),
        pytest.param(
            lambda r: r.update(payments={"discarder": False}),
            "result.payments.discarder: expected an integer, not false",
            id="payment-bool",
        ),
        pytest.param(
            lambda r: r.update(deltas=r["deltas"][:3]),
            "result.deltas: expected a list of 4 integers, not {deltas3}",
            id="deltas-three",
        ),
        pytest.param(
            lambda r: r.update(limit=0), "result.limit: expected a string, not 0", id="limit-int"
        ),
        pytest.param(
            lambda r: r.update(pao_seat="1"),
            'result.pao_seat: expected an integer or null, not "1"',
            id="pao-string",
        ),
    ],
)
def test_an_answer_of_the_wrong_type_is_a_bad_line_and_not_compared(
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path],
    tmp_path: Path,
    edit: Any,
    said: str,
) -> None:
    cases, answers = files
    docs = _docs(answers)
    n = len(docs)
    ordinary = next(k for k, d in enumerate(docs) if not d["result"]["yakuman"])
    result = docs[ordinary]["result"]
    said = said.format(points=result["points"], deltas3=json.dumps(result["deltas"][:3]))
    edit(result)
    # A second answer whose han is wrong in value: still compared, a disagreement.
    other = next(k for k, d in enumerate(docs) if k != ordinary and not d["result"]["yakuman"])
    docs[other]["result"]["han"] += 1
    path = _write(tmp_path / "typed.jsonl", docs)
    code, out, err = _run(capsys, "cases", "check", str(cases), str(path), "--all")
    assert code == 2
    assert err.splitlines() == [
        f"mjaudit: {path} (line {ordinary + 1}): answer {docs[ordinary]['id']}: {said}"
    ]
    lines = out.splitlines()
    assert lines[0] == f"{n} cases, {n - 1} answered, 2 disagreements in 2 cases (against expected)"
    assert lines[1] == "missing: 1 case"
    assert lines[2].startswith(f"  {docs[ordinary]['id']}: no answer (expected ")
    assert lines[3] == "han: 1 case" and lines[4].startswith(f"  {docs[other]['id']}: expected ")


def test_well_typed_answers_have_no_problem() -> None:
    from analyzer.checks.case_compare import answer_problem  # here: new with this file

    assert answer_problem({}) is None
    assert answer_problem({"error": "no-yaku-win"}) is None
    assert (
        answer_problem(
            {
                "han": 26,
                "fu": 0,
                "yaku": [
                    {"name": "daisangen", "han": 13, "yakuman": 1},
                    {"name": "tsuuiisou", "han": 13, "yakuman": 1},
                ],
                "limit": "yakuman",
                "points": 64000,
                "payments": {"discarder": 64000},
                "deltas": [0, 64000, -64000, 0],
                "pao_seat": None,
                "fu_parts": "informative",
            }
        )
        is None
    )
