"""The command line equals the library: exit codes, formats, batches with bad files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from reports.cli import main
from tests.conftest import CORPUS, corpus_file

CLEAN = "2010112714gm-00a9-0000-d497e395.xml"


def _bad_files(tmp: Path) -> list[Path]:
    good = corpus_file(CLEAN).read_bytes()
    truncated = tmp / "truncated.xml"
    truncated.write_bytes(good[: len(good) // 2])
    notxml = tmp / "notes.xml"
    notxml.write_text("hello, this is not a log\n", encoding="utf-8")
    entity = tmp / "entity.xml"
    entity.write_bytes(
        b'<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><mjloggm ver="2.3">&x;</mjloggm>'
    )
    return [truncated, notxml, entity]


def test_clean_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(corpus_file(CLEAN))]) == 0
    assert "1 games" in capsys.readouterr().out


def test_bad_files_exit_2_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _bad_files(tmp_path)
    good = tmp_path / "good.xml"
    shutil.copy(corpus_file(CLEAN), good)
    code = main(["audit", "--format", "json", *map(str, bad), str(good)])
    out, err = capsys.readouterr()
    assert code == 2
    doc = json.loads(out)
    assert doc["totals"]["games"] == 1 and doc["totals"]["unreadable"] == 3
    errors = [line for line in err.splitlines() if line.startswith("mjaudit: ")]
    assert len(errors) == 3
    for path, line in zip(
        bad, sorted(errors, key=lambda s: [p.name in s for p in bad].index(True)), strict=True
    ):
        assert str(path) in line
    assert any("line 1" in e and "DOCTYPE" in e for e in errors)
    assert any("byte 0" in e for e in errors)
    assert "Traceback" not in err


def test_tampered_file_exits_1_unless_fail_on_never(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = etree.fromstring(corpus_file(CLEAN).read_bytes())
    agari = next(e for e in root if e.tag == "AGARI" and e.get("doraHaiUra"))
    del agari.attrib["doraHaiUra"]
    f = tmp_path / "tampered.xml"
    f.write_bytes(etree.tostring(root))
    assert main(["audit", str(f)]) == 1
    assert "ura-indicator-mismatch" in capsys.readouterr().out
    assert main(["audit", "--fail-on", "never", str(f)]) == 0
    capsys.readouterr()
    assert main(["audit", "--format", "junit", str(f)]) == 1
    junit = etree.fromstring(capsys.readouterr().out.encode())
    assert junit.get("failures") == "1" and junit.find("testcase/failure") is not None
    # The JUnit report fails what the exit code fails (--fail-on), no more, no less.
    assert main(["audit", "--format", "junit", "--fail-on", "never", str(f)]) == 0
    junit = etree.fromstring(capsys.readouterr().out.encode())
    assert junit.get("failures") == "0" and junit.find("testcase/failure") is None


@pytest.mark.corpus
def test_junit_fails_on_warnings_where_the_run_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A special lobby's log has a rules-assumed warning and no error: with --fail-on
    warning the run exits 1, and its test case fails."""
    path = str(corpus_file("dnovikoff-tenhou_newattr2023.xml"))
    assert main(["audit", "--format", "junit", "--fail-on", "warning", path]) == 1
    junit = etree.fromstring(capsys.readouterr().out.encode())
    failure = junit.find("testcase/failure")
    assert junit.get("failures") == "1" and failure is not None
    assert failure.get("message") == "1 findings at or above warning"
    assert main(["audit", "--format", "junit", path]) == 0
    junit = etree.fromstring(capsys.readouterr().out.encode())
    assert junit.get("failures") == "0"


def test_junit_names_each_case_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same game twice (two file names, or two formats): CI systems key a test by
    its class and name, so the second is named by its file too."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(corpus_file(CLEAN), tmp_path / folder / CLEAN)
    assert main(["audit", "--format", "junit", str(tmp_path)]) == 0
    junit = etree.fromstring(capsys.readouterr().out.encode())
    names = [case.get("name") for case in junit.iter("testcase")]
    game = CLEAN.removesuffix(".xml")
    assert names == [game, f"{game} ({tmp_path / 'b' / CLEAN})"]


def test_directories_are_walked_and_jobs_give_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    for name in (CLEAN, "2009060321gm-00b9-0000-75b25bcf.xml"):
        shutil.copy(corpus_file(name), sub / name)
    (sub / "readme.txt").write_text("not a log", encoding="utf-8")
    assert main(["audit", "--format", "json", str(tmp_path)]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["audit", "--format", "json", "-j", "2", str(tmp_path)]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two and one["totals"]["files"] == 2


def test_replay_prints_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(corpus_file(CLEAN)), "--round", "E3-0", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("E3-0") and "calls kakan" in out and "new dora indicator" in out
    assert main(["replay", str(corpus_file(CLEAN)), "--round", "N4-9"]) == 2
    assert "no round N4-9" in capsys.readouterr().err


def test_bad_rules_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--rules", "nosuch", str(corpus_file(CLEAN))]) == 2


def test_python_dash_m_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mjaudit", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "audit" in done.stdout


def test_a_reader_that_goes_away_ends_no_run_early_and_shows_no_traceback(
    tmp_path: Path,
) -> None:
    # ``mjaudit audit ... | head -1``: the text goes out game by game; once the reader
    # has gone the rest is dropped and the run still ends with its own exit code.
    folder = CORPUS / "tenhou-xml"
    if not folder.is_dir():
        pytest.skip(f"corpus not available: {folder}")
    # The corpus and a copy of it (a folder named twice is read once): the text of
    # both is more than a pipe holds.
    copy = shutil.copytree(folder, tmp_path / "copy")
    cmd = [sys.executable, "-m", "mjaudit", "audit", "-j", "1", str(folder), str(copy)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # more than a pipe's buffer is still to come
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 0  # the corpus has no error finding
    assert first.startswith(str(folder).encode())
    assert b"Traceback" not in err and b"Exception ignored" not in err, err[-2000:]


def test_score_batch_keeps_its_exit_code_when_the_reader_goes_away(tmp_path: Path) -> None:
    # ``mjaudit score --batch cases.jsonl | head -1``: click would exit 1 on the closed
    # pipe, which score --batch uses for "a case is not a win"; the cases' own code
    # stays (0: every case a win), with nothing on stderr.
    cases = tmp_path / "cases.jsonl"
    assert main(["cases", "export", str(corpus_file(CLEAN)), "-o", str(cases)]) == 0
    many = tmp_path / "many.jsonl"
    many.write_text(cases.read_text(encoding="utf-8") * 300, encoding="utf-8")
    cmd = [sys.executable, "-m", "mjaudit", "score", "--batch", str(many), "-j", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # more than a pipe's buffer is still to come
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 0
    assert first.startswith(b'{"id": ')
    assert err == b"", err[-2000:]


def test_cases_export_to_a_reader_that_goes_away(tmp_path: Path) -> None:
    # ``mjaudit cases export games/ -o - | head -1``: as audit, the rest is dropped and
    # the run ends with its own exit code (it said "cannot write: Broken pipe", exit 2).
    games = tmp_path / "games"
    games.mkdir()
    for k in range(40):  # more cases than a pipe holds
        shutil.copy(corpus_file(CLEAN), games / f"{k:02}.xml")
    cmd = [sys.executable, "-m", "mjaudit", "cases", "export", str(games), "-o", "-"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 0
    assert first.startswith(b'{"schema": "mjaudit.cases/')
    assert err.decode().splitlines() == ["360 cases from 40 games"], err[-2000:]
    # Redirected into the folder it reads, its own output is not one of its inputs.
    with open(games / "cases.jsonl", "w", encoding="utf-8") as stdout:
        done = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "360 cases from 40 games\n", done.stderr


def test_replay_says_where_a_broken_hand_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The turn-by-turn text follows the audit's replay: where the log makes the hand
    impossible, it stops with the audit's own inconsistent-log message."""
    text = corpus_file(CLEAN).read_text(encoding="utf-8")
    first_init = text.index("<INIT")
    first_draw = text.index("<T", first_init)
    end = text.index("/>", first_draw) + 2
    broken = tmp_path / "broken.xml"
    broken.write_text(text[:first_draw] + text[end:], encoding="utf-8")
    assert main(["replay", str(broken), "--round", "E1-0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("E1-0")
    assert out[-1].startswith("replay stopped: E1-0: the log cannot be replayed at element ")
    assert main(["audit", "--format", "json", str(broken)]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    message = next(f["message"] for f in found if f["code"] == "inconsistent-log")
    assert out[-1] == f"replay stopped: {message}"


def test_replay_shows_only_what_the_log_records_of_a_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A limit hand in Tenhou JSON (no fu) printed "None fu 7 han 12000", and an mjai
    # win with no value at all "None".
    game = CORPUS / "tenhou-json" / "full-game" / "2019021004gm-00a9-0000-e2f6516d.json"
    akochan = CORPUS / "mjai" / "akochan" / "akochan_haifu_log_sample.jsonl"
    if not game.exists() or not akochan.exists():
        pytest.skip(f"corpus not available at {CORPUS}")
    assert main(["replay", str(game), "--round", "E2-0"]) == 0
    out = capsys.readouterr().out
    assert "wins by tsumo: 7 han 12000" in out and "None" not in out
    assert main(["replay", str(akochan), "--round", "E1-0"]) == 0
    out = capsys.readouterr().out
    assert "wins by tsumo: no value recorded" in out and "None" not in out


@pytest.mark.parametrize("to", ["mjai", "tenhou-json"])
def test_convert_to_a_reader_that_goes_away_stops_with_141(to: str) -> None:
    """``convert -o - | true``: 141 without a word, as every command but those that
    run on (it said "-: cannot write: Broken pipe" and exited 2)."""
    cmd = [sys.executable, "-m", "mjaudit", "convert", str(corpus_file(CLEAN)), "--to", to]
    proc = subprocess.Popen([*cmd, "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # gone before the first line
    err = proc.stderr.read()
    assert (proc.wait(timeout=60), err) == (141, b"")


def test_replay_from_a_seat_shows_only_that_seats_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--seat: the others' hands are not in the view: not at the deal, nor after
    their calls (seat 2's whole hand was printed with its daiminkan)."""
    kans = Path(__file__).resolve().parents[1] / "sample_logs" / "kans.xml"
    assert main(["replay", str(kans), "--round", "E1-0", "--seat", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    dealt = [line for line in lines[2:] if line.startswith("  ") and not line[2].isspace()]
    dealt = [line for line in dealt if ": " in line and " wins " not in line]
    assert len(dealt) == 1 and dealt[0].startswith("  E ")
    calls = [line for line in lines if " calls " in line]
    assert [("   hand " in line) for line in calls] == [" E " in line[:8] for line in calls]
    assert any(" daiminkan:8888p" in line and "hand" not in line for line in calls)


def test_replay_names_the_yaku_of_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    kans = Path(__file__).resolve().parents[1] / "sample_logs" / "kans.xml"
    assert main(["replay", str(kans), "--round", "E1-0"]) == 0
    assert "        yaku riichi 1, tanyao 1\n" in capsys.readouterr().out
