"""Containers: the same corpus logs as a folder, a zip, a tar.gz, phoenix-logs
databases of each era and a houou-logs database audit to the same totals."""

from __future__ import annotations

import bz2
import gzip
import io
import os
import sqlite3
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from analyzer.checks.audit import FileAudit
from analyzer.runs.batch import BatchOptions, audit_many
from parsers import load
from parsers.containers import Locator, Selection, decompress, iter_locators, read_locator
from reports.audit_output import totals

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tenhou-xml"
SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def corpus_logs(n: int = 12) -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available: {CORPUS} (CI has ../shared beside the repo)")
    return sorted(CORPUS.glob("*.xml"))[:n]


def audits(paths: list[str], selection: Selection | None = None) -> list[FileAudit]:
    opts = BatchOptions(selection=selection or Selection())
    return [o.audit for o in audit_many(paths, opts, progress=False) if o.audit is not None]


# ---- building the containers ---------------------------------------------------


def make_zip(logs: list[Path], out: Path) -> Path:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in logs:
            # a gzip'd member, as the downloaders save .mjlog files, and a plain one
            if p.name < logs[len(logs) // 2].name:
                zf.writestr(f"mjlog/{p.stem}.mjlog", gzip.compress(p.read_bytes()))
            else:
                zf.writestr(f"xml/{p.name}", p.read_bytes())
        zf.writestr("README.txt", "not a log")
    return out


def make_tar(logs: list[Path], out: Path) -> Path:
    with tarfile.open(out, "w:gz") as tf:
        for p in logs:
            data = p.read_bytes()
            info = tarfile.TarInfo(f"logs/{p.name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return out


def _hint(p: Path) -> tuple[int, bool]:
    h = load(str(p)).start.rules_hint
    return h.players, not h.hanchan


PHOENIX_2023 = """CREATE TABLE logs(log_id text primary key, date text, is_tonpusen int,
    is_sanma int, is_processed int, was_error int, log_content text)"""
PHOENIX_2017 = """CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int,
    is_processed int, was_error int, log_content text, log_hash text)"""
HOUOU = """CREATE TABLE logs(id TEXT PRIMARY KEY, date TEXT NOT NULL,
    num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)),
    is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)),
    is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)),
    was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)), log BLOB) WITHOUT ROWID"""


def make_phoenix(logs: list[Path], out: Path, era: str) -> Path:
    """A phoenix-logs database: bz2 content until 2023, gzip after; is_hirosima
    (and a log_hash column) before 2020. Unprocessed and failed rows are included."""
    pack: Callable[[bytes], bytes] = gzip.compress if era == "gzip" else bz2.compress
    conn = sqlite3.connect(out)
    conn.execute(PHOENIX_2017 if era == "2017" else PHOENIX_2023)
    conn.execute("CREATE TABLE last_downloads(name text, date int)")
    for p in logs:
        players, tonpu = _hint(p)
        content = pack(p.read_bytes())
        if era == "2017":
            row: tuple[object, ...] = (p.stem, int(tonpu), int(players == 3), 1, 0, content, "x")
        else:
            row = (p.stem, "2009-01-01 00:00", int(tonpu), int(players == 3), 1, 0, content)
        conn.execute(f"INSERT INTO logs VALUES ({', '.join('?' * 7)})", row)
    blank = ("pending", 0, 0, 0, 0, "", None) if era == "2017" else (
        "pending", None, 0, 0, 0, 0, "",
    )  # fmt: skip
    conn.execute("INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?, ?)", blank)
    conn.commit()
    conn.close()
    return out


def make_houou(logs: list[Path], out: Path) -> Path:
    conn = sqlite3.connect(out)
    conn.execute(HOUOU)
    conn.execute("CREATE TABLE last_fetch_time(id INTEGER PRIMARY KEY, time INTEGER)")
    for p in logs:
        players, tonpu = _hint(p)
        conn.execute(
            "INSERT INTO logs VALUES (?, ?, ?, ?, 1, 0, ?)",
            (p.stem, "2009-01-01T00:00:00", players, int(tonpu), gzip.compress(p.read_bytes())),
        )
    conn.execute("INSERT INTO logs VALUES ('failed', '2009', 4, 0, 1, 1, NULL)")
    conn.commit()
    conn.close()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    logs = corpus_logs()
    d = tmp_path_factory.mktemp("containers")
    folder = d / "folder" / "nested"
    folder.mkdir(parents=True)
    for p in logs:
        (folder / p.name).write_bytes(p.read_bytes())
    return {
        "folder": d / "folder",
        "zip": make_zip(logs, d / "logs.zip"),
        "tar.gz": make_tar(logs, d / "logs.tar.gz"),
        "phoenix-bz2": make_phoenix(logs, d / "2019.db", "bz2"),
        "phoenix-gzip": make_phoenix(logs, d / "2024.db", "gzip"),
        "phoenix-2017": make_phoenix(logs, d / "es4p.db", "2017"),
        "houou-logs": make_houou(logs, d / "houou.db"),
    }


CONTAINERS = ["zip", "tar.gz", "phoenix-bz2", "phoenix-gzip", "phoenix-2017", "houou-logs"]


@pytest.mark.parametrize("kind", CONTAINERS)
def test_container_audits_to_the_folder_totals(built: dict[str, Path], kind: str) -> None:
    before = sorted(os.listdir(built[kind].parent))
    expected = totals(audits([str(built["folder"])]))
    got = audits([str(built[kind])])
    assert totals(got) == expected
    assert all(r.error is None for r in got)
    # read in place: nothing was unpacked beside the container
    assert sorted(os.listdir(built[kind].parent)) == before


@pytest.mark.parametrize("kind", ["folder", *CONTAINERS])
@pytest.mark.parametrize(
    "selection",
    [Selection(players=4), Selection(players=3), Selection(length="hanchan"),
     Selection(players=4, length="tonpu")],
    ids=["4p", "3p", "hanchan", "4p-tonpu"],
)  # fmt: skip
def test_selection_picks_the_same_games_everywhere(
    built: dict[str, Path], kind: str, selection: Selection
) -> None:
    logs = corpus_logs()
    wanted = 0
    for p in logs:
        players, tonpu = _hint(p)
        ok = selection.players in (None, players)
        ok = ok and selection.length in (None, "tonpu" if tonpu else "hanchan")
        wanted += ok
    got = audits([str(built[kind])], selection)
    assert len(got) == wanted > 0


def test_database_rows_are_named_by_log_id(built: dict[str, Path]) -> None:
    locs = list(iter_locators([str(built["houou-logs"])]))
    assert [loc.kind for loc in locs] == ["sqlite"] * len(corpus_logs())
    first = corpus_logs()[0]
    assert locs[0].name == f"{built['houou-logs']}#{first.stem}"
    assert read_locator(locs[0]) == first.read_bytes()


def test_zip_members_keep_their_names_and_skip_non_logs(built: dict[str, Path]) -> None:
    names = [loc.member for loc in iter_locators([str(built["zip"])])]
    assert len(names) == len(corpus_logs())
    assert "README.txt" not in names
    assert any(n.endswith(".mjlog") for n in names)


def test_cheap_keys_need_no_read_and_change_with_the_file(tmp_path: Path) -> None:
    log = tmp_path / "a.xml"
    log.write_bytes((SAMPLES / "clean_game.xml").read_bytes())
    (key,) = [loc.key for loc in iter_locators([str(tmp_path)])]
    os.utime(log, ns=(1, 1))
    (changed,) = [loc.key for loc in iter_locators([str(tmp_path)])]
    assert key != changed and changed.endswith(":1")


def test_want_sees_tar_members_before_they_are_read(built: dict[str, Path]) -> None:
    seen: list[Locator] = []

    def want(loc: Locator) -> bool:
        seen.append(loc)
        return False

    assert list(iter_locators([str(built["tar.gz"])], want=want)) == []
    assert len(seen) == len(corpus_logs()) and all(loc.data is None for loc in seen)


def test_broken_containers_are_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 this is no zip")
    (tmp_path / "bad.tar.gz").write_bytes(gzip.compress(b"no tar here"))
    got = audits([str(tmp_path / "bad.zip"), str(tmp_path / "bad.tar.gz")])
    assert len(got) == 2
    assert all(r.error is not None and "unreadable" in r.error for r in got)


def test_decompress_sniffs_the_magic_bytes() -> None:
    raw = b"<mjloggm/>"
    assert decompress(gzip.compress(raw), "x") == raw
    assert decompress(bz2.compress(raw), "x") == raw
    assert decompress(raw, "x") == raw


def test_sample_logs_in_a_zip_audit_like_the_files(tmp_path: Path) -> None:
    files = sorted(SAMPLES.glob("*.xml"))
    with zipfile.ZipFile(tmp_path / "s.zip", "w") as zf:
        for p in files:
            zf.write(p, p.name)
    assert totals(audits([str(tmp_path / "s.zip")])) == totals(audits([str(p) for p in files]))
