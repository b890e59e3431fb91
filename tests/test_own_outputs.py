"""What a command writes is not an input: a store, a cases file or an output redirected
into the folder being read is left out of that folder's logs, and a file of mjaudit's
own output read later as a log is named for what it is."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mjaudit.errors import LogFormatError
from parsers import load_bytes
from reports.cli import main
from tests.conftest import corpus_file

CLEAN = "2010112714gm-00a9-0000-d497e395.xml"


def _folder(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(corpus_file(CLEAN), games / CLEAN)
    return games


def _stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, str, str]:
    """A folder of one game audited into a store kept inside it: the folder, the store
    and what the run wrote (stdout, stderr)."""
    games = _folder(tmp_path)
    store = games / "results"
    assert main(["audit", "--store", str(store), str(games)]) == 0
    out, err = capsys.readouterr()
    return games, store, out, err


def test_a_store_inside_the_folder_it_audits_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games, store, out, err = _stored(tmp_path, capsys)
    assert "0 unreadable" in out and "catalog" not in err
    assert "audited 1 inputs" in out
    # The re-run finds the game in the store, and the store is still not an input.
    assert main(["audit", "--store", str(store), str(games)]) == 0
    second = capsys.readouterr()
    assert "catalog" not in second.err and "skipped 1 already in the store" in second.out


def test_a_store_made_in_the_folder_it_audits_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``audit --store games games``: the logs beside the store are read, its catalog not."""
    games = _folder(tmp_path)
    for _ in range(2):
        assert main(["audit", "--store", str(games), str(games)]) == 0
        out, err = capsys.readouterr()
        assert "0 unreadable" in out and err == "", err
    assert "skipped 1 already in the store" in out


def test_cases_export_into_the_folder_it_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _folder(tmp_path)
    out = games / "cases.jsonl"
    for _ in range(2):  # the second run finds the first run's file where it writes
        assert main(["cases", "export", str(games), "-o", str(out)]) == 0
        err = capsys.readouterr().err
        assert "from 1 games" in err and "mjaudit:" not in err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines and all(json.loads(line)["schema"].startswith("mjaudit.cases/") for line in lines)


def test_output_redirected_into_the_folder_it_audits(tmp_path: Path) -> None:
    games = _folder(tmp_path)
    target = games / "audit.json"
    for _ in range(2):
        with open(target, "w", encoding="utf-8") as stdout:
            done = subprocess.run(
                [sys.executable, "-m", "mjaudit", "audit", "--format", "json", str(games)],
                stdout=stdout,
                stderr=subprocess.PIPE,
                text=True,
                check=False,
            )
        assert done.returncode == 0, done.stderr
        doc = json.loads(target.read_text(encoding="utf-8"))
        assert doc["totals"]["games"] == 1 and doc["totals"]["unreadable"] == 0


def test_own_outputs_read_as_logs_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _folder(tmp_path)
    cases = tmp_path / "cases.jsonl"
    assert main(["cases", "export", str(games), "-o", str(cases)]) == 0
    answers = tmp_path / "answers.jsonl"
    with open(answers, "w", encoding="utf-8") as stream:
        stream.write(json.dumps({"id": "x/E1-0/0", "result": {"han": 1}}) + "\n")
    assert main(["audit", "--format", "json", str(games)]) == 0
    audit_json = tmp_path / "audit.json"
    audit_json.write_text(capsys.readouterr().out, encoding="utf-8")
    for name in ("cases.jsonl", "answers.jsonl", "audit.json"):
        shutil.copy(tmp_path / name, games / name)
    assert main(["audit", str(games)]) == 2
    err = capsys.readouterr().err
    errors = sorted(line for line in err.splitlines() if line.startswith("mjaudit: "))
    assert len(errors) == 3, err
    answers_error, audit_error, cases_error = errors
    assert "answers.jsonl (line 1): not a game log: a scorer's answers" in answers_error
    assert (
        "audit.json (line 1): not a game log: mjaudit's output (mjaudit.audit/1: an audit"
        in audit_error
    )
    assert "cases.jsonl (line 1): not a game log: mjaudit's output (mjaudit.cases/" in cases_error


@pytest.mark.parametrize(
    "text",
    [
        '{"schema": "mjaudit.cases/2", "id": "a"}\n',
        '{\n "schema": "mjaudit.audit/1",\n "totals": {}\n}\n',
        '{"id": "a", "error": "no-yaku-win", "message": "no yaku"}\n',
        '{"id": "a", "result": {}}\n',
    ],
)
def test_own_output_documents_are_refused_by_name(text: str) -> None:
    with pytest.raises(LogFormatError, match="not a game log") as caught:
        load_bytes(text.encode(), "x.json")
    assert "line 1" in str(caught.value)


def test_a_log_that_merely_has_such_keys_is_still_read() -> None:
    """An mjai event or a Tenhou JSON game is read as one, whatever else it holds."""
    with pytest.raises(LogFormatError) as caught:
        load_bytes(b'{"type": "start_game", "id": 0, "result": 1}\n', "x.mjson")
    assert "not a game log" not in str(caught.value)
    with pytest.raises(LogFormatError) as caught:
        load_bytes(b'{"schema": "other/1", "log": []}', "x.json")
    assert "not a game log" not in str(caught.value)


def test_a_store_below_a_folder_is_passed_over_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games, store, _, _ = _stored(tmp_path, capsys)
    assert main(["audit", str(games)]) == 0
    assert main(["cases", "export", str(games), "-o", str(tmp_path / "c.jsonl")]) == 0
    assert main(["report", str(games), "-o", str(tmp_path / "site")]) == 0
    assert "mjaudit:" not in capsys.readouterr().err
    # Named on the command line, the store is read, and its catalog says what it is.
    assert main(["audit", str(store)]) == 2
    assert "a results store's catalog (audit --store), not a database of logs" in (
        capsys.readouterr().err
    )


def test_the_store_marks_are_the_stores_own_names_and_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    from analyzer.runs.store_catalog import DB_NAME
    from analyzer.runs.store_guard import LOCK_NAME
    from parsers.walk import STORE_MARKS, STORE_TABLES, catalog_tables

    assert {DB_NAME, LOCK_NAME} == STORE_MARKS
    _, store, _, _ = _stored(tmp_path, capsys)
    assert {p.name for p in store.iterdir()} >= STORE_MARKS
    conn = sqlite3.connect(store / DB_NAME)
    try:
        assert catalog_tables(conn) >= STORE_TABLES
    finally:
        conn.close()


def test_what_is_left_out_is_matched_by_file_not_by_name(tmp_path: Path) -> None:
    """A link to the output is left out too; a file of the same name elsewhere is not."""
    from parsers.containers import iter_locators
    from parsers.walk import file_ids

    games = _folder(tmp_path)
    (games / "sub").mkdir()
    shutil.copy(games / CLEAN, games / "sub" / "out.xml")
    shutil.copy(games / CLEAN, games / "out.xml")
    (games / "link.xml").symlink_to(games / "out.xml")
    names = [
        loc.name
        for loc in iter_locators([str(games)], leave_out=file_ids([str(games / "out.xml")]))
    ]
    assert sorted(Path(n).relative_to(games).as_posix() for n in names) == [CLEAN, "sub/out.xml"]
    # Named on the command line, a file is read whatever it is.
    named = [
        loc.name
        for loc in iter_locators(
            [str(games / "out.xml")], leave_out=file_ids([str(games / "out.xml")])
        )
    ]
    assert named == [str(games / "out.xml")]


def test_a_file_or_folder_reached_twice_is_read_once(tmp_path: Path) -> None:
    from parsers.containers import iter_locators

    games = _folder(tmp_path)
    (games / "sub").mkdir()
    shutil.copy(games / CLEAN, games / "sub" / "b.xml")
    shutil.copy(games / CLEAN, tmp_path / "c.xml")  # the same game, another file: read

    def names(*paths: Path | str) -> list[str]:
        return [
            Path(loc.name).relative_to(tmp_path).as_posix()
            for loc in iter_locators(map(str, paths))
        ]

    every = [f"games/{CLEAN}", "games/sub/b.xml"]
    assert names(games) == every
    assert names(games, games, f"{games}/.") == every
    # A named file or folder is read where it is named, not in a named folder's walk.
    assert names(games, games / "sub") == [f"games/{CLEAN}", "games/sub/b.xml"]
    assert names(games / "sub" / "b.xml", games) == ["games/sub/b.xml", f"games/{CLEAN}"]
    assert names(games, tmp_path / "c.xml") == [*every, "c.xml"]


def test_stdin_named_twice_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from parsers.containers import iter_locators

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(corpus_file(CLEAN).read_bytes())))
    found = list(iter_locators(["-", "-"]))
    assert [(loc.name, loc.error, len(loc.data or b"")) for loc in found] == [
        ("-", "", corpus_file(CLEAN).stat().st_size)
    ]


def test_the_audit_counts_a_game_named_twice_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = _folder(tmp_path)
    assert main(["audit", str(games), str(games / CLEAN), str(games / CLEAN)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 games, 13 rounds")


def test_a_database_of_logs_named_like_a_catalog_is_still_read(tmp_path: Path) -> None:
    """Only a folder whose catalog has the store's tables is passed over: a database of
    logs that is named catalog.sqlite beside a writer.lock is read as any other."""
    from parsers.containers import iter_locators
    from tests.test_containers import make_houou

    folder = tmp_path / "logs" / "db"
    folder.mkdir(parents=True)
    make_houou([corpus_file(CLEAN)], folder / "catalog.sqlite")
    (folder / "writer.lock").write_bytes(b"")
    found = [loc for loc in iter_locators([str(tmp_path / "logs")]) if not loc.error]
    assert [loc.name.rsplit("#", 1)[1] for loc in found] == [Path(CLEAN).stem]
    assert sorted(p.name for p in folder.iterdir()) == ["catalog.sqlite", "writer.lock"]


def test_a_fifo_named_like_a_catalog_is_refused_not_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening a FIFO blocks until something writes to it: the check for a store must
    not open one (the walk hung here), and the FIFO is refused by its type as ever."""
    import os

    games = _folder(tmp_path)
    odd = games / "odd"
    odd.mkdir()
    os.mkfifo(odd / "catalog.sqlite")
    (odd / "writer.lock").write_bytes(b"")
    assert main(["audit", str(games)]) == 2
    out, err = capsys.readouterr()
    assert "catalog.sqlite: not read: a FIFO, not a regular file" in err
    assert "1 games, 13 rounds" in out


def test_a_folder_nested_deeper_than_pythons_recursion_is_walked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The walk lost every log not yet listed (RecursionError, as an internal error)."""
    import os
    import sys

    games = _folder(tmp_path)
    deep = games / "deep"
    deep.mkdir()
    fd = os.open(deep, os.O_RDONLY)
    try:
        for _ in range(sys.getrecursionlimit() + 100):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(corpus_file(CLEAN), "rb") as src:
            data = src.read()
        out_fd = os.open("z.xml", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out_fd, data)
        os.close(out_fd)
    finally:
        os.close(fd)
    try:
        assert main(["audit", str(games)]) == 0
        out, err = capsys.readouterr()
        assert "2 games, 26 rounds" in out, err[-500:]
    finally:  # pytest's own clean-up of tmp_path recurses, and would fail on it
        folders = [deep]
        while (folders[-1] / "d").is_dir():
            folders.append(folders[-1] / "d")
        for folder in reversed(folders):
            for child in folder.iterdir():
                if not child.is_dir():
                    child.unlink()
            folder.rmdir()


def test_a_folder_that_cannot_be_read_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder the walk cannot list was passed over without a word (its logs lost)."""
    import os

    games = _folder(tmp_path)
    private = games / "private"
    private.mkdir()
    shutil.copy(games / CLEAN, private / "hidden.xml")
    real = os.scandir

    def scandir(path: object) -> object:
        if str(path).endswith("private"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)
    assert main(["audit", str(games)]) == 2
    out, err = capsys.readouterr()
    assert f"mjaudit: {private}: cannot read the folder: Permission denied" in err
    assert "1 games, 13 rounds" in out and "1 unreadable" in out
