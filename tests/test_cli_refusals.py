"""Options a command cannot honour are refused once, before any input is read or
written, with the option named: never a silent default, never a line per input."""

from __future__ import annotations

from pathlib import Path

import pytest

from reports.cli import main
from tests.conftest import corpus_file

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_logs" / "clean_game.xml"
SANMA = "2009060321gm-00b9-0000-75b25bcf.xml"


def test_replay_of_a_seat_a_sanma_game_has_not_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Before: exit 0, and the turns printed without the seat's draws and hands.
    log = corpus_file(SANMA)
    assert main(["replay", str(log), "--round", "E1-0", "--seat", "3"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"mjaudit: {log}: --seat 3: a 3-player game\n"
    assert main(["replay", str(log), "--round", "E1-0", "--seat", "2"]) == 0
    assert "hand" in capsys.readouterr().out


def test_report_with_rules_that_do_not_exist_says_so_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: one "no rules preset" line per input, then an empty site was written.
    site = tmp_path / "site"
    args = ["report", str(SAMPLE), str(REPO / "sample_logs" / "kans.xml"), "-o", str(site)]
    assert main([*args, "--rules", "tenhoo"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("mjaudit: --rules: no rules preset or file named 'tenhoo'")
    assert not site.exists()


def test_report_to_standard_output_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: "wrote 1 page(s) ... to -", and a file named "-" in the current folder.
    monkeypatch.chdir(tmp_path)
    assert main(["report", str(SAMPLE), "-o", "-"]) == 2
    assert capsys.readouterr().err == (
        "mjaudit: -o -: a report is written to files (a page, or a folder of pages), "
        "not to standard output\n"
    )
    assert list(tmp_path.iterdir()) == []
