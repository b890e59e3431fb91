"""The command line's streams and signals.

Output to a stream that cannot hold every character (a Windows program's output
redirected to a file is in the system's code page, cp1252 say): names in Japanese or
with an emoji are written as ``\\uXXXX`` escapes, never a traceback. In JSON the
escapes are JSON's own, so the document reads back with the very same names.
Ctrl-C ends a run with a line that says so and exit code 130, never a traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_logs" / "clean_game.xml"
GRIN = "\U0001f600"


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    # A player named with a Japanese word and one with an emoji (outside the BMP).
    xml = SAMPLE.read_text(encoding="utf-8")
    assert 'n1="%42%65%6E"' in xml and "%E3%81%95" in xml
    path = tmp_path / "game.xml"
    path.write_text(xml.replace('n1="%42%65%6E"', 'n1="%F0%9F%98%80"'), encoding="utf-8")
    return path


def _run(encoding: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run(
        [sys.executable, "-m", "mjaudit", *args], capture_output=True, env=env, cwd=REPO
    )


@pytest.mark.parametrize("encoding", ["cp1252", "cp932", "latin-1"])
def test_text_output_in_a_narrow_code_page(log: Path, encoding: str) -> None:
    done = _run(encoding, "replay", str(log))
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode(encoding)
    assert "\\ud83d\\ude00" in text  # the emoji, as a JSON-style escape
    if encoding != "cp932":
        assert "\\u3055\\u304f\\u3089" in text  # さくら
    else:
        assert "さくら" in text  # the code page holds it


def test_json_output_reads_back_with_the_same_names(log: Path) -> None:
    named = log.with_name(f"さくら{GRIN}.xml")
    log.rename(named)
    wide = _run("utf-8", "audit", "--format", "json", str(named))
    narrow = _run("cp1252", "audit", "--format", "json", str(named))
    assert narrow.returncode == wide.returncode == 0, narrow.stderr
    assert narrow.stdout.isascii()
    doc = json.loads(narrow.stdout.decode("cp1252"))
    assert doc == json.loads(wide.stdout)
    assert doc["files"][0]["path"] == str(named)


def _interrupted(args: list[str], stdin: bytes | None = None) -> tuple[int, str]:
    """Run mjaudit, send it Ctrl-C once it is busy, and return its code and stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjaudit", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None
    if stdin is not None:
        proc.stdin.write(stdin)  # started, not ended: the run waits for the rest
        proc.stdin.flush()
    time.sleep(2.0)  # the run is busy (reading stdin, or running its query)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err.decode()


SAID = "mjaudit: interrupted; what was written above is incomplete"


def test_an_interrupted_run_says_so_and_exits_130(log: Path) -> None:
    code, err = _interrupted(["audit", str(log), "-"], stdin=b"<mjloggm")
    assert code == 130
    assert err.strip().endswith(SAID)
    assert "Traceback" not in err


def test_an_interrupted_query_says_so_and_exits_130(log: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-m", "mjaudit", "audit", "--store", str(store), str(log)],
        capture_output=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    endless = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    )
    code, err = _interrupted(["query", "--store", str(store), endless])
    assert (code, err.strip()) == (130, SAID)


def test_a_name_with_a_line_break_cannot_forge_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file name may hold a line break: in the text output it would start a line of
    # its own ("error ..."), read by a CI job that greps the output as a finding.
    from reports.cli import main

    (tmp_path / "evil\n  error   forged-finding: x.xml").write_bytes(b"x")
    assert main(["audit", str(tmp_path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert not [line for line in out if line.lstrip().startswith("error")]
    assert out[0].startswith(f"unreadable: {tmp_path}/evil   error   forged-finding: x.xml")


def test_a_player_name_with_a_line_break_stays_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reports.cli import main

    xml = SAMPLE.read_text(encoding="utf-8").replace('n1="%42%65%6E"', 'n1="%42%0A%65%6E"')
    path = tmp_path / "game.xml"
    path.write_text(xml, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("  S B en: ") for line in out), out[:6]
    assert not any(line.startswith("en") for line in out)


def test_a_case_id_with_a_line_break_stays_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reports.cli import main

    cases, answers = tmp_path / "cases.jsonl", tmp_path / "answers.jsonl"
    assert main(["cases", "export", str(SAMPLE), "-o", str(cases)]) == 0
    first = json.loads(cases.read_text(encoding="utf-8").splitlines()[0])
    first["id"] = "x\nforged: 1 case"
    cases.write_text(json.dumps(first) + "\n", encoding="utf-8")
    answers.write_text("", encoding="utf-8")
    capsys.readouterr()
    assert main(["cases", "check", str(cases), str(answers)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "  e.g. x forged: 1 case: no answer" in " ".join(out), out
    assert not any(line.startswith("forged") for line in out)


@pytest.mark.parametrize("value", ["nan", "inf", "1e400"])
def test_a_time_limit_must_be_a_number_of_seconds(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was taken, and every input then failed with an internal error.
    from reports.cli import main

    assert main(["audit", "--time-limit", value, str(SAMPLE)]) == 2
    assert "Invalid value for '--time-limit'" in capsys.readouterr().err
    assert main(["audit", "--lock-wait", value, "--store", "x", str(SAMPLE)]) == 2
    assert "Invalid value for '--lock-wait'" in capsys.readouterr().err


def test_jobs_beyond_what_the_machine_can_run_are_capped() -> None:
    # -j 100000 forked a hundred thousand workers for one log (a minute, then killed).
    from analyzer.runs.pool import available_cpus

    done = subprocess.run(
        [sys.executable, "-m", "mjaudit", "audit", "-j", "100000", str(SAMPLE)],
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    cpus = available_cpus()
    assert done.stderr.decode().strip() == (
        f"mjaudit: -j 100000: more workers than this machine can use "
        f"({cpus} CPU{'s' if cpus != 1 else ''}); {4 * cpus} workers"
    )


_FULL = Path("/dev/full")


@pytest.mark.skipif(not _FULL.exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args",
    [
        ["audit", str(SAMPLE)],
        ["audit", "--format", "json", str(SAMPLE)],
        ["replay", str(SAMPLE), "--round", "E1-0"],
        ["score", "234m567p22345678s", "--win", "8s", "--ron"],
    ],
)
def test_output_that_cannot_be_written_is_said_once_exit_2(args: list[str]) -> None:
    # A full disk ended in a traceback and exit 1, which is the code for findings.
    with _FULL.open("wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "mjaudit", *args], stdout=full, stderr=subprocess.PIPE,
            cwd=REPO,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "mjaudit: cannot write to standard output: No space left on device\n"
    )


def test_a_reader_that_goes_away_ends_a_query_with_141(tmp_path: Path) -> None:
    # It said "mjaudit: [Errno 32] Broken pipe" and exited 2, as for a damaged store.
    store = tmp_path / "store"
    assert _run("utf-8", "audit", "--store", str(store), str(SAMPLE)).returncode == 0
    query = [sys.executable, "-m", "mjaudit", "query", "--store", str(store)]
    # A query of many rows: more than a pipe holds, so the writer meets the closed end.
    sql = "SELECT * FROM range(1000000)"
    proc = subprocess.Popen([*query, sql], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"range\n"
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141
    assert proc.stderr.read() == b""


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
def test_an_undecodable_byte_of_a_name_is_shown_alike_on_stdout_and_stderr(
    tmp_path: Path,
) -> None:
    # stdout showed b\xffad.xml and stderr b\udcffad.xml: one name, two spellings.
    folder = tmp_path / "logs"
    folder.mkdir()
    name = os.fsdecode(b"b\xffad.xml")
    (folder / name).write_bytes(SAMPLE.read_bytes()[:300])  # cut short: unreadable
    done = _run("utf-8", "audit", str(folder))
    assert done.returncode == 2
    said = f"{folder}/b\\xffad.xml"
    assert said.encode() in done.stdout and said.encode() in done.stderr
    assert b"udcff" not in done.stdout + done.stderr
