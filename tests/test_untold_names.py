"""Logs whose names do not say what they are: found by their first bytes.

Tenhou serves a log as gzip'd mjlog XML, and it is often kept under its bare id
(``club-2019-01-01-table-1``), as ``x.gz`` or ``x.log``. A folder walk, a
zip and a tar list such a file when its first bytes are a log's (or compressed data
that starts as one), and leave out what is not (a read-me, an index page, a program's
log). A broken gzip with nothing inside to tell is listed, and refused with its
problem, rather than passed over.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest

from mjaudit.errors import LogFormatError
from mjaudit.events import RoundStart
from parsers.containers import iter_locators
from parsers.convert import convert_log
from parsers.sources import load_bytes, looks_like_log
from reports.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


@pytest.fixture()
def xml() -> bytes:
    return (SAMPLES / "clean_game.xml").read_bytes()


def _audit(capsys: pytest.CaptureFixture[str], *paths: str) -> tuple[int, dict[str, object]]:
    code = main(["audit", "--format", "json", *paths])
    return code, json.loads(capsys.readouterr().out)


def _files(doc: dict[str, object]) -> dict[str, object]:
    files = doc["files"]
    assert isinstance(files, list)
    return {Path(f["path"].split("!")[-1]).name: f for f in files}


def test_a_folder_of_logs_under_untold_names_is_audited(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "club-2019-01-01-table-1").write_bytes(gzip.compress(xml))
    (tmp_path / "game.gz").write_bytes(gzip.compress(xml))
    (tmp_path / "game2.bz2").write_bytes(bz2.compress(xml))
    (tmp_path / "plain").write_bytes(xml)
    (tmp_path / "game.log").write_bytes(xml)
    # Not logs: left out without a word.
    (tmp_path / "README").write_text("the games of our club\n", encoding="utf-8")
    (tmp_path / "index.html.gz").write_bytes(gzip.compress(b"<html><body>list</body></html>"))
    (tmp_path / "notes.gz").write_bytes(gzip.compress(b"some notes\n"))
    (tmp_path / "run.log").write_text("2026-12-05 12:00 started\n", encoding="utf-8")
    (tmp_path / "empty").write_bytes(b"")
    code, doc = _audit(capsys, str(tmp_path))
    assert code == 0
    files = _files(doc)
    assert set(files) == {
        "club-2019-01-01-table-1", "game.gz", "game2.bz2", "plain", "game.log",
    }  # fmt: skip
    assert all(f["error"] is None for f in files.values())  # type: ignore[index]


def test_a_broken_gzip_in_a_folder_is_named_not_passed_over(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.xml").write_bytes(xml)
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    code, doc = _audit(capsys, str(tmp_path))
    assert code == 2
    files = _files(doc)
    assert set(files) == {"good.xml", "bad.gz"}
    assert "broken gzip data" in str(files["bad.gz"]["error"])  # type: ignore[index]
    assert files["good.xml"]["error"] is None  # type: ignore[index]


def test_untold_members_of_a_zip_and_a_tar_are_read(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    mjai = convert_log(load_bytes(xml, "clean_game.xml"), "mjai")
    zpath = tmp_path / "games.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("logs/club-2019-01-01-table-1", gzip.compress(xml))
        zf.writestr("logs/game.log", mjai)
        zf.writestr("logs/README", "not a log")
    tpath = tmp_path / "games.tar.gz"
    with tarfile.open(tpath, "w:gz") as tf:
        for name, data in (("g1", xml), ("g2.gz", gzip.compress(xml)), ("LICENSE", b"MIT\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    names = sorted(loc.name for loc in iter_locators([str(zpath), str(tpath)]))
    assert [n.split("!")[1] for n in names] == [
        "g1", "g2.gz", "logs/club-2019-01-01-table-1", "logs/game.log",
    ]  # fmt: skip
    code, doc = _audit(capsys, str(zpath), str(tpath))
    assert code == 0
    assert len(_files(doc)) == 4


def test_logs_named_as_bz2_are_read_in_a_folder_a_zip_and_a_tar(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    log = load_bytes(xml, "clean_game.xml")
    files = {
        "a.xml.bz2": bz2.compress(xml),
        "b.mjlog.bz2": bz2.compress(gzip.compress(xml)),
        "c.json.bz2": bz2.compress(convert_log(log, "tenhou-json")),
        "d.jsonl.bz2": bz2.compress(convert_log(log, "mjai")),
        "e.xml.gz": gzip.compress(xml),
    }
    folder = tmp_path / "games"
    folder.mkdir()
    zpath, tpath = tmp_path / "games.zip", tmp_path / "games.tar.gz"
    with zipfile.ZipFile(zpath, "w") as zf, tarfile.open(tpath, "w:gz") as tf:
        for name, data in files.items():
            (folder / name).write_bytes(data)
            zf.writestr(name, data)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    for path in (folder, zpath, tpath):
        code, doc = _audit(capsys, str(path))
        assert code == 0, path
        found = _files(doc)
        assert sorted(found) == sorted(files), path
        # (the Tenhou JSON names its game itself)
        ids = {str(f["game_id"]).split("!")[-1] for f in found.values()}  # type: ignore[index]
        assert ids == {"a", "b", "clean_game", "d", "e"}


@pytest.mark.parametrize(
    ("head", "log"),
    [
        (b'<?xml version="1.0"?>\n<mjloggm ver="2.3"><SHUFFLE', True),
        (b"\xef\xbb\xbf <mjloggm ver=", True),
        (b'{"title":["",""],"name":["a"],"rule":{},"log":[', True),
        (b'{"type":"start_game","names":["a","b","c","d"]}\n', True),
        (b'{"head":{"uuid":"x"},"data":""}', True),
        (b"<html><head>", False),
        (b'{"name": "my-package", "version": "1.0"}', False),
        (b"started the server\n", False),
        (b"", False),
    ],
)
def test_looks_like_log(head: bytes, log: bool) -> None:
    assert looks_like_log(head) is log
    assert looks_like_log(gzip.compress(head)) is log
    assert looks_like_log(gzip.compress(gzip.compress(head))) is log
    text = head.decode("utf-8")
    assert looks_like_log(text.encode("utf-16")) is log
    assert looks_like_log(gzip.compress(text.encode("utf-32"))) is log


def test_compressed_data_cut_short_is_still_judged_by_its_start(xml: bytes) -> None:
    # The walk reads only a file's first bytes: a prefix of a gzip'd log.
    assert looks_like_log(gzip.compress(xml)[:200])
    assert looks_like_log(bz2.compress(xml)[:600])
    # Nothing can be read out of it: listed, for the reader to say why.
    assert looks_like_log(b"\x1f\x8b\x08\x00garbage")


def test_an_archive_inside_an_archive_is_named_not_passed_over(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("game.xml", xml)
    zpath = tmp_path / "all.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("2019.zip", inner.getvalue())
        zf.writestr("game.xml", xml)
    tpath = tmp_path / "all.tar"
    with tarfile.open(tpath, "w") as tf:
        for name, data in (("2020.tar.gz", b"\x1f\x8b\x08\x00"), ("game.xml", xml)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    code, doc = _audit(capsys, str(zpath), str(tpath))
    assert code == 2
    errors = {f["path"]: f["error"] for f in doc["files"]}  # type: ignore[attr-defined]
    nested = "not read: an archive inside an archive (unpack the outer one first)"
    assert errors == {
        f"{zpath}!2019.zip": f"{zpath}!2019.zip: {nested}",
        f"{zpath}!game.xml": None,
        f"{tpath}!2020.tar.gz": f"{tpath}!2020.tar.gz: {nested}",
        f"{tpath}!game.xml": None,
    }


def test_a_database_inside_an_archive_is_named_not_passed_over(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    """A phoenix-logs database kept in a zip or a tar was left out without a word."""
    db = b"SQLite format 3\x00" + b"\x00" * 100
    zpath = tmp_path / "backup.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("2019.db", db)
        zf.writestr("game.xml", xml)
    tpath = tmp_path / "backup.tar"
    with tarfile.open(tpath, "w") as tf:
        for name, data in (("logs.sqlite", db), ("game.xml", xml)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    code, doc = _audit(capsys, str(zpath), str(tpath))
    assert code == 2
    errors = {f["path"]: f["error"] for f in doc["files"]}  # type: ignore[attr-defined]
    why = "not read: a database inside an archive (unpack the archive first)"
    assert errors == {
        f"{zpath}!2019.db": f"{zpath}!2019.db: {why}",
        f"{zpath}!game.xml": None,
        f"{tpath}!logs.sqlite": f"{tpath}!logs.sqlite: {why}",
        f"{tpath}!game.xml": None,
    }


# macOS keeps a file's metadata beside it as ``._NAME`` (AppleDouble) where the file
# system cannot hold it, and a zip made with its Finder holds them in ``__MACOSX/``.
APPLE_DOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02"


def test_macos_metadata_is_no_log_and_no_error(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "game.xml").write_bytes(xml)
    (tmp_path / "._game.xml").write_bytes(APPLE_DOUBLE)
    zpath = tmp_path / "mac.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("games/game.xml", xml)
        zf.writestr("__MACOSX/games/._game.xml", APPLE_DOUBLE)
        zf.writestr("__MACOSX/games/._old.zip", APPLE_DOUBLE)  # not an archive inside
    tpath = tmp_path / "mac.tar"
    with tarfile.open(tpath, "w") as tf:
        members = (
            ("./._game.xml", APPLE_DOUBLE),
            ("./._old.tar.gz", APPLE_DOUBLE),
            ("./._notes", APPLE_DOUBLE),
            ("./game.xml", xml),
        )
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    code, doc = _audit(capsys, str(tmp_path))
    assert code == 0
    paths = sorted(f["path"] for f in doc["files"])  # type: ignore[attr-defined]
    assert paths == [str(tmp_path / "game.xml"), f"{tpath}!./game.xml", f"{zpath}!games/game.xml"]
    # A file of that name that is a log is read; named, metadata says what it is.
    (tmp_path / "._game.xml").write_bytes(xml)
    assert len(list(iter_locators([str(tmp_path)]))) == 4
    (tmp_path / "._game.xml").write_bytes(APPLE_DOUBLE)
    assert main(["audit", str(tmp_path / "._game.xml")]) == 2
    assert "macOS metadata (AppleDouble)" in capsys.readouterr().err


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_log_saved_as_utf16_or_utf32_with_its_mark_is_read(
    tmp_path: Path, xml: bytes, codec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Windows editors save "Unicode" text as UTF-16 with a byte order mark.
    log = load_bytes(xml, "clean_game.xml")
    bom = {"utf-16-be": "\ufeff"}.get(codec, "")
    texts = {
        "game.xml": xml.decode("utf-8"),
        "declared.xml": f'<?xml version="1.0" encoding="{codec.upper()}"?>' + xml.decode("utf-8"),
        "game.json": convert_log(log, "tenhou-json").decode("utf-8"),
        "game.jsonl": convert_log(log, "mjai").decode("utf-8"),
    }
    for name, text in texts.items():
        (tmp_path / name).write_bytes((bom + text).encode(codec))
    code, doc = _audit(capsys, str(tmp_path))
    assert code == 0, doc
    assert {f["path"]: f["error"] for f in doc["files"]} == {  # type: ignore[attr-defined]
        str(tmp_path / name): None for name in texts
    }
    rounds = sum(isinstance(e, RoundStart) for e in log.events)
    assert doc["totals"]["rounds"] == len(texts) * rounds  # type: ignore[index]


def test_broken_utf16_is_named(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00\x00\xd8")  # a lone surrogate
    with pytest.raises(LogFormatError, match="not UTF-16 text"):
        load_bytes(path.read_bytes(), str(path))


def test_a_web_address_is_said_to_be_one(capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://tenhou.net/0/?log=2019010100gm-00a9-0000-aaaaaaaa&tw=0"
    assert main(["audit", url]) == 2
    assert (
        f"{url}: cannot read: No such file or directory (a web address: mjaudit reads "
        "files and does not download; save the log first)" in capsys.readouterr().err
    )


def test_a_zip_cut_short_says_so(tmp_path: Path, xml: bytes) -> None:
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w") as zf:
        zf.writestr("a.xml", xml)
        zf.writestr("b.xml", xml)
    cut = tmp_path / "games.zip"
    cut.write_bytes(whole.getvalue()[: len(whole.getvalue()) // 2])
    (loc,) = iter_locators([str(cut)])
    assert loc.error == (
        f"{cut}: unreadable zip: it starts as a zip, but the index a zip ends with is "
        "missing (the file was cut short?)"
    )


def test_an_archive_where_a_log_was_expected_says_what_it_is(tmp_path: Path, xml: bytes) -> None:
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w") as zf:
        zf.writestr("a.xml", xml)
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w") as tf:
        info = tarfile.TarInfo("a.xml")
        info.size = len(xml)
        tf.addfile(info, io.BytesIO(xml))
    said = {
        "-": "archives and databases are read from files, not from standard input",
        "game.xml": "give the file a",
    }
    for data, what, suffix in ((whole.getvalue(), "a zip archive", ".zip"),
                               (tar.getvalue(), "a tar archive", ".tar")):  # fmt: skip
        with pytest.raises(LogFormatError) as err:
            load_bytes(data, "-")
        assert str(err.value) == f"- (byte 0): {what}, not a log: {said['-']}"
        with pytest.raises(LogFormatError) as err:
            load_bytes(data, "game.xml")
        assert str(err.value) == (
            f"game.xml (byte 0): {what}, not a log: {said['game.xml']} {suffix} name "
            "to have it read as one"
        )


def test_a_file_with_a_containers_name_that_is_none_is_named_in_a_walk(
    tmp_path: Path, xml: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "good.xml").write_bytes(xml)
    (folder / "empty.zip").write_bytes(b"")  # a download that failed
    (folder / "games.zip").write_bytes(b"<html><body>404 Not Found</body></html>\n")
    (folder / "2019.db").write_bytes(b"garbage\n")
    (folder / "log_saved_as.zip").write_bytes(xml)  # a log under a wrong name: read
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w") as zf:
        zf.writestr("a.xml", xml)
    (folder / "sfx.zip").write_bytes(b"MZ" + bytes(100) + whole.getvalue())  # self-extracting
    said = {
        "2019.db": "unreadable database: its first bytes are neither an SQLite database's "
        "nor a log's",
        "empty.zip": "unreadable zip: an empty file, not a zip archive",
        "games.zip": "unreadable zip: a web page, not a zip archive (a download that failed?)",
    }
    code, doc = _audit(capsys, str(folder))
    assert code == 2
    files = doc["files"]
    assert isinstance(files, list)
    assert {f["path"]: f["error"] for f in files} == {
        **{str(folder / n): f"{folder / n}: {line}" for n, line in said.items()},
        str(folder / "good.xml"): None,
        str(folder / "log_saved_as.zip"): None,
        f"{folder / 'sfx.zip'}!a.xml": None,
    }
    for name, line in said.items():  # named alone: the same line
        assert main(["audit", str(folder / name)]) == 2
        assert capsys.readouterr().err.strip() == f"mjaudit: {folder / name}: {line}"
