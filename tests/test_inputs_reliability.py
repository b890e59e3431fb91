"""Every input is opened, bounded and parsed in its own guard, by every command.

Broken archive members, bombs, FIFOs, damaged tar headers, duplicate names and
malformed logs each cost exactly their own input, with one line naming it and
exit 2; the good inputs beside them keep their real verdicts. Archives and
databases are made here with the standard library (and patched byte by byte).
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tarfile
import warnings
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_path
from analyzer.runs.batch import BatchOptions, audit_batch, audit_many
from reports.cli import main

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_logs"
CLEAN = (SAMPLES / "clean_game.xml").read_bytes()
KANS = (SAMPLES / "kans.xml").read_bytes()
BROKEN_DORA = (SAMPLES / "broken_dora.xml").read_bytes()
GOOD = {"clean.xml": CLEAN, "broken_dora.xml": BROKEN_DORA}
# A tile tag with a superscript digit: a parser met something it did not expect.
ODD_TILE = CLEAN.replace(b"<T6/>", "<T⁴/>".encode(), 1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def err_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


# ---- zips with members that cannot be read --------------------------------------


def _central_entry(data: bytearray, name: str) -> int:
    pos = 0
    while True:
        pos = data.index(b"PK\x01\x02", pos)
        n = int.from_bytes(data[pos + 28 : pos + 30], "little")
        if data[pos + 46 : pos + 46 + n] == name.encode():
            return pos
        pos += 4


def bad_zip(path: Path, good: dict[str, bytes]) -> Path:
    """``good`` members, then an encrypted one, one of method 99 and a broken deflate."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in good.items():
            zf.writestr(name, content)
        for name in ("encrypted.xml", "method99.xml", "deflate.xml"):
            zf.writestr(name, CLEAN)
    data = bytearray(path.read_bytes())  # patched in place below
    with zipfile.ZipFile(path) as zf:
        local = {i.filename: i.header_offset for i in zf.infolist()}
    # the encrypted flag: general purpose bit 0, in the local and the central header
    data[local["encrypted.xml"] + 6] |= 1
    data[_central_entry(data, "encrypted.xml") + 8] |= 1
    # compression method 99 (AES in WinZip's scheme), in both headers
    data[local["method99.xml"] + 8 : local["method99.xml"] + 10] = (99).to_bytes(2, "little")
    at = _central_entry(data, "method99.xml") + 10
    data[at : at + 2] = (99).to_bytes(2, "little")
    # a deflate stream that starts with an invalid block type
    off = local["deflate.xml"]
    start = off + 30 + int.from_bytes(data[off + 26 : off + 28], "little")
    start += int.from_bytes(data[off + 28 : off + 30], "little")
    data[start : start + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))
    return path


def _verdicts(
    files: list[dict[str, object]], findings: list[dict[str, object]]
) -> dict[str, object]:
    return {
        str(f["path"]).rsplit("!", 1)[-1]: (
            f["error"] is None,
            sorted(str(x["code"]) for x in findings if x["path"] == f["path"]),
        )
        for f in files
    }


def _plain_verdict(name: str, data: bytes, tmp: Path) -> tuple[bool, list[str]]:
    p = tmp / name
    p.write_bytes(data)
    audit = audit_path(str(p))
    return audit.error is None, sorted(f.code for f in audit.findings)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_unreadable_zip_members_cost_only_themselves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    z = bad_zip(tmp_path / "a.zip", GOOD)
    code, out, err = run(capsys, "audit", "--format", "json", "-j", jobs, "--batch", "16", str(z))
    assert code == 2
    doc = json.loads(out)
    verdicts = _verdicts(doc["files"], doc["findings"])
    plain = tmp_path / "plain"
    plain.mkdir()
    for name, data in GOOD.items():
        assert verdicts[name] == _plain_verdict(name, data, plain)
    assert verdicts["broken_dora.xml"] != (True, [])  # a real verdict: its findings
    lines = err_lines(err)
    assert len(lines) == 3
    by_member = {m: [x for x in lines if f"a.zip!{m}:" in x] for m in
                 ("encrypted.xml", "method99.xml", "deflate.xml")}  # fmt: skip
    assert all(len(v) == 1 for v in by_member.values()), lines
    assert "encrypted" in by_member["encrypted.xml"][0]
    assert "compression method 99" in by_member["method99.xml"][0]
    assert "broken deflate data" in by_member["deflate.xml"][0]
    assert "batch failed" not in err and "Traceback" not in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_unreadable_zip_members_with_a_store_run_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    from analyzer.runs.store import stats

    z = bad_zip(tmp_path / "a.zip", GOOD)
    store = str(tmp_path / "store")
    args = ("audit", "--store", store, "--format", "json", "-j", jobs, "--batch", "16", str(z))
    code, out, err = run(capsys, *args)
    assert code == 2 and len(err_lines(err)) == 3
    first = json.loads(out)
    assert first["run"]["status"] == {"error": 3, "ok": 2}
    # The second run skips the two stored games and reads the three bad members again
    # (an input recorded as an error is retried: its failure may have been the run's).
    code, out, err = run(capsys, *args)
    second = json.loads(out)
    assert code == 2 and len(err_lines(err)) == 3
    assert second["run"]["skipped"] == 2 and second["run"]["inputs"] == 3
    # The skipped games are in the output all the same, with their stored findings.
    assert second["totals"]["games"] == 2 and second["totals"]["unreadable"] == 3
    assert second["totals"]["findings"] == first["totals"]["findings"]
    assert second["findings"] == first["findings"] or sorted(
        (f["code"], f["round"], f["message"]) for f in second["findings"]
    ) == sorted((f["code"], f["round"], f["message"]) for f in first["findings"])
    doc = stats(store)
    assert doc["inputs"] == {"error": 3, "ok": 2} and doc["games"] == 2
    expected = sum(len(audit_path(str(p)).findings) for p in
                   (SAMPLES / "clean_game.xml", SAMPLES / "broken_dora.xml"))  # fmt: skip
    findings = doc["findings"]
    assert isinstance(findings, dict) and sum(int(str(v)) for v in findings.values()) == expected


# ---- bombs ------------------------------------------------------------------------

_MIB = 1 << 20


def gzip_bomb(path: Path, gib: int = 4) -> Path:
    """A few MB that gunzip to ``gib`` GiB: one gzip member of 1 MiB of zeros, repeated."""
    member = gzip.compress(bytes(_MIB), 9)
    path.write_bytes(member * (gib * 1024))
    return path


def zip_bomb(path: Path, gib: int = 4) -> Path:
    """A zip whose one member inflates to ``gib`` GiB of zeros (its headers say so)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(bytes(_MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(bytes(_MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    assert again == block  # after a full flush, each MiB of zeros deflates alike
    stream = block * (gib * 1024) + c.flush()
    crc, zeros = 0, bytes(_MIB)
    for _ in range(gib * 1024):
        crc = zlib.crc32(zeros, crc)
    size = gib << 30
    name = b"bomb.xml"
    extra = (1).to_bytes(2, "little") + (16).to_bytes(2, "little")
    extra += size.to_bytes(8, "little") + len(stream).to_bytes(8, "little")
    local = b"PK\x03\x04" + bytes([45, 0, 0, 0, 8, 0, 0, 0, 0, 0]) + crc.to_bytes(4, "little")
    local += b"\xff\xff\xff\xff" * 2 + len(name).to_bytes(2, "little")
    local += len(extra).to_bytes(2, "little") + name + extra
    extra_c = (1).to_bytes(2, "little") + (16).to_bytes(2, "little")
    extra_c += size.to_bytes(8, "little") + len(stream).to_bytes(8, "little")
    central = b"PK\x01\x02" + bytes([45, 3, 45, 0, 0, 0, 8, 0, 0, 0, 0, 0])
    central += crc.to_bytes(4, "little") + b"\xff\xff\xff\xff" * 2
    central += len(name).to_bytes(2, "little") + len(extra_c).to_bytes(2, "little")
    central += bytes(14) + name + extra_c  # comment, disk, attributes; local header at 0
    cd_at = len(local) + len(stream)
    end = b"PK\x05\x06" + bytes(4) + (1).to_bytes(2, "little") * 2
    end += len(central).to_bytes(4, "little") + cd_at.to_bytes(4, "little") + bytes(2)
    path.write_bytes(local + stream + central + end)
    with zipfile.ZipFile(path) as zf:  # a well-formed zip, as far as its headers go
        (info,) = zf.infolist()
        assert info.file_size == size
    return path


def _limited_run(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``mjaudit argv`` in a process limited to a 2 GiB address space."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
        "from reports.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize("kind", ["gzip", "zip"])
def test_a_bomb_is_one_line_under_a_2_gib_address_space(tmp_path: Path, kind: str) -> None:
    make = {
        "gzip": lambda: gzip_bomb(tmp_path / "b.mjlog"),
        "zip": lambda: zip_bomb(tmp_path / "b.zip"),
    }
    bomb = make[kind]()
    good = tmp_path / "good.xml"
    good.write_bytes(CLEAN)
    done = _limited_run(["audit", "-j", "1", str(bomb), str(good)])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = err_lines(done.stderr)
    assert str(bomb) in line and "larger than the 64 MiB input limit" in line
    assert "1 games" in done.stdout  # the good log beside it was audited


def test_a_bomb_in_replay_and_report_is_one_line(tmp_path: Path) -> None:
    bomb = gzip_bomb(tmp_path / "bomb.mjlog")
    html, jsonl = str(tmp_path / "r.html"), str(tmp_path / "c.jsonl")
    for argv in (["replay", str(bomb)], ["report", str(bomb), "-o", html],
                 ["convert", str(bomb), "--to", "mjai", "-o", jsonl]):  # fmt: skip
        done = _limited_run(argv)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        (line,) = err_lines(done.stderr)
        assert "input limit" in line


# ---- FIFOs, views: refused, never waited on ----------------------------------------


def _cli(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjaudit", *argv],
        cwd=REPO, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_by_its_type(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_bytes(CLEAN)
    os.mkfifo(tmp_path / "x.xml")
    done = _cli(["audit", "--time-limit", "1", "-j", "1", str(tmp_path)], timeout=30)
    assert done.returncode == 2
    (line,) = err_lines(done.stderr)
    assert "x.xml" in line and "a FIFO, not a regular file" in line
    assert line.endswith("(give a pipe as -, standard input)")
    assert "1 games" in done.stdout
    for argv in (["audit", str(tmp_path / "x.xml")], ["replay", str(tmp_path / "x.xml")]):
        done = _cli(argv, timeout=30)
        assert done.returncode == 2 and "a FIFO" in done.stderr


def _deny(monkeypatch: pytest.MonkeyPatch, names: set[str]) -> None:
    """Files of ``names`` cannot be opened, as a file of mode 000 for a user (the tests
    may run as root, whom modes do not stop)."""
    import builtins

    real_os_open, real_open = os.open, builtins.open

    def refuse(path: object) -> None:
        if isinstance(path, str | os.PathLike) and os.path.basename(os.fspath(path)) in names:
            raise PermissionError(13, "Permission denied", os.fspath(path))

    def os_open(path: str, *args: object, **kw: object) -> int:
        refuse(path)
        return real_os_open(path, *args, **kw)  # type: ignore[arg-type]

    def open_(file: object, *args: object, **kw: object) -> object:
        refuse(file)
        return real_open(file, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", open_)


def test_unreadable_files_in_a_folder_are_each_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.xml").write_bytes(CLEAN)
    (tmp_path / "unread.xml").write_bytes(CLEAN)
    (tmp_path / "2009071823gm-0041-0000-ff3a2214").write_bytes(CLEAN)  # a bare Tenhou id
    (tmp_path / "game.gz").write_bytes(gzip.compress(CLEAN))
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as zf:
        zf.writestr("a.xml", CLEAN)
    sqlite3.connect(tmp_path / "2019.db").execute(
        "CREATE TABLE logs(log_id TEXT, log_content BLOB)"
    )
    with tarfile.open(tmp_path / "games.tar", "w") as tf:
        tf.add(tmp_path / "good.xml", "good.xml")
    denied = {"unread.xml", "2009071823gm-0041-0000-ff3a2214", "game.gz", "games.zip"}
    denied |= {"2019.db", "games.tar"}
    _deny(monkeypatch, denied)
    code, out, err = run(capsys, "audit", "-j", "1", "--format", "json", str(tmp_path))
    assert code == 2
    doc = json.loads(out)
    assert {f["path"]: f["error"] for f in doc["files"]} == {
        str(tmp_path / "good.xml"): None,
        **{str(tmp_path / n): f"{tmp_path / n}: cannot read: Permission denied" for n in denied},
    }
    assert len(err_lines(err)) == len(denied)


def test_a_folder_given_to_the_library_reader_is_refused_by_its_type(tmp_path: Path) -> None:
    """``parsers.load`` on a folder: the input error, not the file object's exception."""
    from mjaudit.errors import LogFormatError
    from parsers import load

    with pytest.raises(LogFormatError, match="a folder, not a regular file"):
        load(str(tmp_path))


def test_stdin_is_still_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(CLEAN))))
    code, out, _ = run(capsys, "audit", "-")
    assert code == 0 and "1 games" in out


def test_a_database_whose_logs_is_a_view_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "endless.db"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE VIEW logs AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT i AS log_id, 'x' AS log_content FROM n"
    )
    conn.commit()
    conn.close()
    done = _cli(["audit", str(db)], timeout=30)
    assert done.returncode == 2
    (line,) = err_lines(done.stderr)
    assert "endless.db" in line and "a view, not a table" in line


# ---- damaged and ambiguous containers ----------------------------------------------


def test_a_damaged_tar_header_keeps_the_members_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tf:
        for name, content in (("a.xml", CLEAN), ("b.xml", KANS), ("c.xml", CLEAN)):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tf.addfile(info, io.BytesIO(content))
    data = bytearray(raw.getvalue())
    second = 512 + (len(CLEAN) + 511) // 512 * 512
    assert data[second : second + 5] == b"b.xml"
    data[second + 148 : second + 156] = b"0000000\x00"  # a wrong header checksum
    for suffix, pack in ((".tar", bytes), (".tar.gz", gzip.compress)):
        archive = tmp_path / f"games{suffix}"
        archive.write_bytes(pack(bytes(data)))
        code, out, err = run(capsys, "audit", "--format", "json", str(archive))
        assert code == 2
        doc = json.loads(out)
        ok = [f["path"] for f in doc["files"] if f["error"] is None]
        assert ok == [f"{archive}!a.xml"]
        (line,) = err_lines(err)
        assert f"{archive} (byte {second})" in line and "damaged tar header" in line


def test_a_compressed_tar_cut_short_is_damage_and_a_whole_one_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tf:
        ends = []
        for name, content in (("a.xml", CLEAN), ("b.xml", KANS)):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tf.addfile(info, io.BytesIO(content))
            ends.append(raw.tell())
    whole = raw.getvalue()
    # A download stopped after the first member, at a point gzip flushed: the data read
    # so far inflates cleanly, and the tar simply ends.
    pack = zlib.compressobj(9, zlib.DEFLATED, 31)
    flushed = pack.compress(whole[: ends[0]]) + pack.flush(zlib.Z_FULL_FLUSH)
    packed = gzip.compress(whole)
    cut = {"flushed.tar.gz": flushed, "no-checksum.tar.gz": packed[:-4]}
    for name, data in cut.items():
        archive = tmp_path / name
        archive.write_bytes(data)
        code, out, err = run(capsys, "audit", "--format", "json", str(archive))
        assert code == 2, name
        ok = [f["path"] for f in json.loads(out)["files"] if f["error"] is None]
        assert ok[0] == f"{archive}!a.xml"
        (line,) = err_lines(err)
        assert (
            line.startswith(f"mjaudit: {archive} (byte ") and "damaged tar: its gzip data" in line
        )
        assert line.endswith("(the file was cut short?); the members before it were read")
    # Whole archives, however compressed (and with a gzip member after the tar's), pass.
    for i, mode in enumerate(("w:gz", "w:bz2", "w:xz", "w|gz")):
        archive = tmp_path / f"whole-{i}.tar"
        with tarfile.open(str(archive), mode) as tf:  # type: ignore[call-overload]
            tf.add(SAMPLES / "clean_game.xml", "a.xml")
        code, _, err = run(capsys, "audit", str(archive))
        assert (code, err) == (0, ""), mode
    archive = tmp_path / "two-members.tgz"
    archive.write_bytes(packed + gzip.compress(b""))
    assert run(capsys, "audit", str(archive))[::2] == (0, "")


def test_a_compressed_tar_cut_before_its_first_member_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tarfile calls it an "empty file"; it is not: its data ends too soon."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:bz2") as tf:
        info = tarfile.TarInfo("a.xml")
        info.size = len(CLEAN)
        tf.addfile(info, io.BytesIO(CLEAN))
    archive = tmp_path / "cut.tar.bz2"
    archive.write_bytes(raw.getvalue()[:200])
    code, _, err = run(capsys, "audit", str(archive))
    assert code == 2
    assert err_lines(err) == [
        f"mjaudit: {archive}: unreadable tar: its data ends before its first member (cut short?)"
    ]


def test_a_tar_member_over_the_limit_is_refused_by_its_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "games.tar"
    with tarfile.open(archive, "w") as tf:
        for name, data in (("a.xml", CLEAN), ("big.xml", KANS + b" " * 4096)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    code, _, err = run(capsys, "audit", "--max-input-size", "4K", str(archive))
    assert code == 2
    (line,) = err_lines(err)
    assert "big.xml" in line and "larger than the 4 KiB input limit" in line


def _special_member(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def test_tar_links_devices_and_fifos_are_read_or_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tf:
        info = tarfile.TarInfo("games/a.xml")
        info.size = len(KANS)
        tf.addfile(info, io.BytesIO(KANS))
        for member in (
            _special_member("games/b.xml", tarfile.LNKTYPE, "games/a.xml"),  # the same file
            _special_member("games/c.xml", tarfile.SYMTYPE, "a.xml"),
            _special_member("games/d.xml", tarfile.FIFOTYPE),
            _special_member("games/e.mjlog", tarfile.CHRTYPE),
            _special_member("games/lost.xml", tarfile.LNKTYPE, "games/gone.xml"),
            _special_member("games/notes", tarfile.SYMTYPE, "a.xml"),  # no log's name
            _special_member("games/README.md", tarfile.LNKTYPE, "games/a.xml"),
        ):
            tf.addfile(member)
    for suffix, pack in ((".tar", bytes), (".tgz", gzip.compress)):
        archive = tmp_path / f"games{suffix}"
        archive.write_bytes(pack(raw.getvalue()))
        code, out, err = run(capsys, "audit", "--format", "json", str(archive))
        assert code == 2
        doc = json.loads(out)
        errors = {f["path"]: f["error"] for f in doc["files"]}
        assert set(errors) == {
            f"{archive}!games/{n}"
            for n in ["a.xml", "b.xml", "c.xml", "d.xml", "e.mjlog", "lost.xml"]
        }
        read = [f for f in doc["files"] if f["error"] is None]
        assert [f["path"] for f in read] == [f"{archive}!games/a.xml", f"{archive}!games/b.xml"]
        assert read[0]["rounds"] == read[1]["rounds"] > 0
        assert sorted(err_lines(err)) == [
            f"mjaudit: {archive}!games/c.xml: a symbolic link (to a.xml) inside the tar: not read",
            f"mjaudit: {archive}!games/d.xml: a FIFO inside the tar: not read",
            f"mjaudit: {archive}!games/e.mjlog: a character device inside the tar: not read",
            f"mjaudit: {archive}!games/lost.xml: a hard link (to games/gone.xml) inside the "
            "tar, to no member before it: not read",
        ]


def test_duplicate_zip_member_names_are_each_audited_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    z = tmp_path / "dup.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(z, "w") as zf:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        zf.writestr("x.xml", CLEAN)
        zf.writestr("x.xml", BROKEN_DORA)
        zf.writestr("x.xml", KANS)
    for jobs in ("1", "2"):
        code, out, _ = run(capsys, "audit", "--format", "json", "-j", jobs, "--batch", "1", str(z))
        doc = json.loads(out)
        names = [f["path"] for f in doc["files"]]
        assert names == [f"{z}!x.xml", f"{z}!x.xml (2)", f"{z}!x.xml (3)"]
        # each member read by its own entry: broken_dora's findings belong to (2) alone
        bad = {f["path"] for f in doc["findings"] if f["severity"] == "error"}
        assert bad == {f"{z}!x.xml (2)"} and code == 1


def test_colliding_database_ids_are_each_audited_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "dup.db"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content blob)"
    )
    # the last id is really "g1 (2)": it is not taken for the second "g1"
    rows = (("g1", CLEAN), ("g2", KANS), ("g1", BROKEN_DORA), ("g1 (2)", KANS))
    for log_id, data in rows:
        conn.execute("INSERT INTO logs VALUES (?, 1, 0, ?)", (log_id, bz2.compress(data)))
    conn.commit()
    conn.close()
    code, out, _ = run(capsys, "audit", "--format", "json", str(db))
    doc = json.loads(out)
    assert [f["path"] for f in doc["files"]] == [
        f"{db}#g1", f"{db}#g2", f"{db}#g1 (2)", f"{db}#g1 (2) (2)",
    ]  # fmt: skip
    bad = {f["path"] for f in doc["findings"] if f["severity"] == "error"}
    assert bad == {f"{db}#g1 (2)"} and code == 1


def test_a_corrupt_database_page_costs_only_what_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "hurt.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA page_size = 1024")
    conn.execute("CREATE TABLE logs(log_id text primary key, log_content blob)")
    for i in range(12):
        conn.execute("INSERT INTO logs VALUES (?, ?)", (f"g{i:02}", CLEAN))
    conn.commit()
    try:
        leaves = [p for (p,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'logs' AND pagetype = 'leaf' ORDER BY pageno"
        )]  # fmt: skip
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table to find a leaf page with")
    finally:
        conn.close()
    assert len(leaves) > 3
    data = bytearray(db.read_bytes())
    page = leaves[2] - 1  # pages count from 1
    data[page * 1024 : page * 1024 + 1024] = b"\xa5" * 1024  # the third leaf: garbage
    db.write_bytes(bytes(data))
    code, out, err = run(capsys, "audit", "--format", "json", str(db))
    assert code == 2 and "Traceback" not in err
    doc = json.loads(out)
    ok = [f["path"] for f in doc["files"] if f["error"] is None]
    assert ok and ok == [f"{db}#g{i:02}" for i in range(len(ok))]  # the rows before it
    (line,) = err_lines(err)
    assert f"{db} (after row {len(ok)}): unreadable database" in line and "malformed" in line


# ---- report, replay and convert: the same path, the same guard ---------------------


def _malformed(tmp_path: Path) -> dict[str, Path]:
    cases = {
        "truncated.xml": CLEAN[: len(CLEAN) // 2],
        "odd-tile.xml": ODD_TILE,
        "bad-gzip.mjlog": b"\x1f\x8b\x08\x00" + b"\x00" * 20,
        "three-layers.mjlog": gzip.compress(gzip.compress(gzip.compress(CLEAN))),
    }
    paths = {}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        paths[name] = tmp_path / name
    paths["bad-member.zip"] = bad_zip(tmp_path / "bad-member.zip", {})
    return paths


@pytest.mark.parametrize(
    "case", ["truncated.xml", "odd-tile.xml", "bad-gzip.mjlog", "three-layers.mjlog",
             "bad-member.zip"],
)  # fmt: skip
@pytest.mark.parametrize("command", ["audit", "report", "replay", "convert"])
def test_malformed_inputs_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: str
) -> None:
    path = str(_malformed(tmp_path)[case])
    argv = {
        "audit": ["audit", path],
        "report": ["report", path, "-o", str(tmp_path / "out")],
        "replay": ["replay", path],
        "convert": ["convert", path, "--to", "mjai", "-o", str(tmp_path / "c.jsonl")],
    }[command]
    code, _, err = run(capsys, *argv)
    assert code == 2
    lines = err_lines(err)
    assert lines and all(line.startswith("mjaudit: ") and case in line for line in lines)
    if case == "odd-tile.xml":
        assert len(lines) == 1
    if case == "three-layers.mjlog":
        assert "more than 2 layers of compression" in lines[0]
    if case == "bad-member.zip" and command in ("replay", "convert"):
        assert "holds 3 logs" in lines[0]


def test_a_folder_report_with_one_bad_log_writes_every_other_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.xml").write_bytes(CLEAN)
    (games / "b.xml").write_bytes(ODD_TILE)
    (games / "c.xml").write_bytes(KANS)
    out = tmp_path / "site"
    code, _, err = run(capsys, "report", str(games), "-o", str(out))
    assert code == 2
    (line,) = err_lines(err)
    assert "b.xml" in line
    assert sorted(p.name for p in out.iterdir()) == [
        "a.xml.html", "c.xml.html", "index.html", "players.html",
    ]  # fmt: skip
    assert "b.xml" in (out / "index.html").read_text("utf-8")


def test_report_reads_archives_and_databases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    z = tmp_path / "games.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("a.xml", CLEAN)
        zf.writestr("b.mjlog", gzip.compress(KANS))
    code, out, _ = run(capsys, "report", str(z), "-o", str(tmp_path / "site"))
    assert code == 0 and "for 2 game(s)" in out
    assert (tmp_path / "site" / "index.html").exists()


def test_an_internal_error_while_rendering_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import reports.html

    def broken(*args: object, **kw: object) -> str:
        raise ZeroDivisionError("a bug in a view")

    monkeypatch.setattr(reports.html, "build_game_view", broken)
    (tmp_path / "a.xml").write_bytes(CLEAN)
    code, _, err = run(capsys, "report", str(tmp_path / "a.xml"), "-o", str(tmp_path / "a.html"))
    assert code == 2
    assert err_lines(err) == [
        f"mjaudit: {tmp_path / 'a.xml'}: internal error while rendering: "
        "ZeroDivisionError: a bug in a view"
    ]


def test_replay_and_convert_take_a_container_that_holds_one_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    z = tmp_path / "one.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("kans.mjlog", gzip.compress(KANS))
    code, out, _ = run(capsys, "replay", str(z), "--round", "E1-0")
    assert code == 0 and out
    code, _, _ = run(capsys, "convert", str(z), "--to", "mjai", "-o", str(tmp_path / "k.jsonl"))
    assert code == 0 and (tmp_path / "k.jsonl").read_text("utf-8").startswith("{")


@pytest.mark.parametrize("layers", ["gzip-gzip", "bz2", "gzip-bz2"])
def test_two_compression_layers_are_read_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], layers: str
) -> None:
    data = {
        "gzip-gzip": gzip.compress(gzip.compress(KANS)),
        "bz2": bz2.compress(KANS),
        "gzip-bz2": gzip.compress(bz2.compress(KANS)),
    }[layers]
    path = tmp_path / "kans.mjlog"
    path.write_bytes(data)
    code, out, _ = run(capsys, "audit", "--format", "json", str(path))
    assert code == 0 and json.loads(out)["totals"]["games"] == 1
    code, _, _ = run(capsys, "report", str(path), "-o", str(tmp_path / "k.html"))
    assert code == 0 and (tmp_path / "k.html").exists()
    code, out, _ = run(capsys, "replay", str(path), "--round", "E1-0")
    assert code == 0 and out
    code, _, _ = run(capsys, "convert", str(path), "--to", "mjai", "-o", str(tmp_path / "k.jsonl"))
    assert code == 0


# ---- limits ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [("64M", 64 << 20), ("1G", 1 << 30), ("512k", 512 << 10), ("1048576", 1 << 20),
     ("64MiB", 64 << 20), ("2MB", 2 << 20)],
)  # fmt: skip
def test_sizes(text: str, size: int) -> None:
    from parsers.sources import DEFAULT_MAX_INPUT
    from reports.cli import parse_size

    assert parse_size(text) == size
    assert parse_size("64M") == DEFAULT_MAX_INPUT  # the CLI's default is the library's


@pytest.mark.parametrize("text", ["", "M", "1.5G", "-1", "0", "64X", "ten"])
def test_bad_sizes_are_usage_errors(capsys: pytest.CaptureFixture[str], text: str) -> None:
    from reports.cli import parse_size

    with pytest.raises(ValueError):
        parse_size(text)
    code, _, err = run(capsys, "audit", "--max-input-size", text, str(SAMPLES / "kans.xml"))
    assert code == 2 and "--max-input-size" in err


@pytest.mark.parametrize("command", ["audit", "report", "replay", "convert"])
def test_max_input_size_applies_to_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "kans.mjlog"
    path.write_bytes(gzip.compress(KANS))  # 3.4 KB unpacked, far less packed
    argv = {
        "audit": ["audit", str(path)],
        "report": ["report", str(path), "-o", str(tmp_path / "k.html")],
        "replay": ["replay", str(path)],
        "convert": ["convert", str(path), "--to", "mjai", "-o", str(tmp_path / "k.jsonl")],
    }[command]
    code, _, err = run(capsys, *argv, "--max-input-size", "2K")
    assert code == 2
    (line,) = err_lines(err)
    assert str(path) in line and "larger than the 2 KiB input limit" in line
    assert "(--max-input-size)" in line
    code, _, _ = run(capsys, *argv, "--max-input-size", "4K")
    assert code == 0


def test_the_time_limit_covers_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import analyzer.runs.batch

    real = analyzer.runs.batch.read_locator  # type: ignore[attr-defined]
    stop = threading.Event()

    def slow(loc: object, size: int) -> bytes:
        stop.wait(30)  # as a read from a stalled network file system would
        return real(loc, size)  # type: ignore[arg-type]

    monkeypatch.setattr(analyzer.runs.batch, "read_locator", slow)
    (tmp_path / "a.xml").write_bytes(CLEAN)
    (o,) = audit_many([str(tmp_path)], BatchOptions(time_limit=0.3), progress=False)
    assert o.status == "timeout"


# ---- output well-formed for any file name ------------------------------------------


def test_junit_and_json_are_well_formed_for_any_file_name(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    control = "a\x01b\x1b[31m.xml"
    undecodable = os.fsdecode(b"caf\xe9.xml")  # Latin-1 bytes: not UTF-8
    (folder / control).write_bytes(CLEAN)
    (folder / undecodable).write_bytes(b"<mjloggm>")  # unreadable: an error line too
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""}
    for fmt in ("junit", "json", "text"):
        done = subprocess.run(
            [sys.executable, "-m", "mjaudit", "audit", "--format", fmt, str(folder)],
            cwd=REPO, capture_output=True, env=env, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        text = done.stdout.decode("utf-8")  # strict: valid UTF-8
        if fmt == "junit":
            root = ET.fromstring(text)
            files = sorted(c.get("file", "") for c in root.iter("testcase"))
            assert files == sorted([str(folder / "a\\x01b\\x1b[31m.xml"),
                                    str(folder / "caf\\xe9.xml")])  # fmt: skip
        elif fmt == "json":
            doc = json.loads(text)
            paths = sorted(f["path"] for f in doc["files"])
            assert paths == sorted([str(folder / control), str(folder / undecodable)])
            # the undecodable name reads back as the bytes on disk
            assert os.fsencode(str(folder / undecodable)) in [os.fsencode(p) for p in paths]
        else:
            assert "caf\\xe9.xml" in text


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""}
    argv = [sys.executable, "-m", "mjaudit", *argv]
    done = subprocess.run(argv, cwd=cwd, capture_output=True, env=env, timeout=120)
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    done.stdout.decode("utf-8")  # strict: valid UTF-8
    return done


def test_every_command_writes_utf8_for_any_file_name_and_any_player_name(
    tmp_path: Path,
) -> None:
    """A file name's undecodable bytes and a lone surrogate escaped in a JSON log
    (both valid input) cannot be written as UTF-8: each command writes them out
    instead of failing (report, cases export, score --batch, cases check, replay,
    audit --store run twice; audit's own formats are the test above)."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / os.fsdecode(b"caf\xe9.xml")).write_bytes(CLEAN)
    logged = _run(["convert", str(SAMPLES / "clean_game.xml"), "--to", "tenhou-json",
                   "-o", "-"], REPO)  # fmt: skip
    doc = json.loads(logged.stdout)
    doc["name"][0] = "Aoi \ud800"
    named = folder / "named.json"
    named.write_text(json.dumps(doc), encoding="ascii")  # the surrogate as an escape
    done = _run(["report", str(folder), "-o", str(tmp_path / "site")], REPO)
    assert done.returncode == 0, done.stderr
    for page in (tmp_path / "site").iterdir():
        page.read_bytes().decode("utf-8")
    cases_path = tmp_path / "cases.jsonl"
    done = _run(["cases", "export", str(folder), "-o", str(cases_path)], REPO)
    assert done.returncode == 0, done.stderr
    cases = [json.loads(line) for line in cases_path.read_bytes().decode("utf-8").splitlines()]
    paths = {c["source"]["path"] for c in cases}
    assert os.fsencode(str(folder / os.fsdecode(b"caf\xe9.xml"))) in map(os.fsencode, paths)
    # An id as odd as a case file may hold, answered and checked.
    cases[0]["id"] = "odd \udcff id"
    cases_path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="ascii")
    done = _run(["score", "--batch", str(cases_path)], REPO)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert answers[0]["id"] == "odd \udcff id"
    answers[0]["result"]["fu"] += 10
    answers_path = tmp_path / "answers.jsonl"
    answers_path.write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="ascii")
    for fmt, shown in (("text", "odd \\xff id"), ("json", "odd \\udcff id"), ("junit", "odd")):
        done = _run(["cases", "check", str(cases_path), str(answers_path), "--all",
                     "--format", fmt], REPO)  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert shown in done.stdout.decode("utf-8")
    done = _run(["replay", str(named), "--round", "E1-0"], REPO)
    assert done.returncode == 0, done.stderr
    assert "Aoi \\ud800" in done.stdout.decode("utf-8")
    store = tmp_path / "store"
    for _ in range(2):
        done = _run(["audit", str(folder), "--store", str(store)], REPO)
        assert done.returncode == 0, done.stderr
    assert "skipped 2 already in the store" in done.stdout.decode("utf-8")


# ---- the pool --------------------------------------------------------------------


def _fails_for_poison(locators: list[object], opts: BatchOptions) -> object:
    """audit_batch, except that a batch holding ``poison.xml`` fails as a whole.

    Workers may import this module afresh (from a forkserver): ``audit_batch`` here
    is the real one, imported before any test replaced it."""
    if any("poison" in getattr(loc, "name", "") for loc in locators):
        raise RuntimeError("the batch could not be sent back")
    return audit_batch(locators, opts)  # type: ignore[arg-type]


def test_a_batch_that_fails_as_a_whole_names_its_files_and_spares_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analyzer.runs import batch

    for name in ("a.xml", "b.xml", "poison.xml", "c.xml"):
        (tmp_path / name).write_bytes(CLEAN)
    monkeypatch.setattr(batch, "audit_batch", _fails_for_poison)
    for jobs in (1, 2):
        outcomes = list(audit_many([str(tmp_path)], jobs=jobs, batch_size=4, progress=False))
        status = {Path(o.record.name).name: o.status for o in outcomes}
        # not the input's own fault, so not "error": a store tries it again next time
        assert status == {"a.xml": "ok", "b.xml": "ok", "c.xml": "ok", "poison.xml": "crashed"}
        (bad,) = [o for o in outcomes if o.status == "crashed"]
        assert bad.audit is not None and bad.audit.error is not None
        assert bad.audit.error.startswith(f"{tmp_path / 'poison.xml'}: not audited: its batch")
        assert "RuntimeError: the batch could not be sent back" in bad.audit.error


def test_the_pool_is_shut_down_when_the_run_ends(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"g{i}.xml").write_bytes(CLEAN)
    outcomes = list(audit_many([str(tmp_path)], jobs=2, batch_size=1, progress=False))
    assert [o.status for o in outcomes] == ["ok"] * 4
    assert multiprocessing.active_children() == []


def test_no_bad_file_descriptor_at_exit_with_two_workers(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"g{i}.xml").write_bytes(CLEAN)
    for _ in range(3):
        done = _cli(["audit", "-j", "2", "--batch", "1", str(tmp_path)])
        assert done.returncode == 0 and done.stderr == ""


# ---- the bounded readers themselves ----------------------------------------------


def test_decompression_stops_at_the_limit() -> None:
    from parsers.containers import decompress
    from parsers.sources import InputTooLarge

    zeros = bytes(10_000)
    for packed in (gzip.compress(zeros), bz2.compress(zeros), gzip.compress(bz2.compress(zeros))):
        assert decompress(packed, "x", 10_000) == zeros
        with pytest.raises(InputTooLarge, match="larger than the 9999 bytes input limit"):
            decompress(packed, "x", 9_999)
    # several gzip members and zero padding after them, as gzip itself reads them
    assert decompress(gzip.compress(b"ab") + gzip.compress(b"cd") + bytes(8), "x") == b"abcd"


@pytest.mark.parametrize(
    ("data", "message"),
    [(gzip.compress(CLEAN)[:-12], "broken gzip data: it ends before its end marker"),
     (bz2.compress(CLEAN)[:-12], "broken bz2 data: it ends before its end marker"),
     (gzip.compress(CLEAN) + b"junk", "broken gzip data: garbage after the last member"),
     (bz2.compress(bz2.compress(bz2.compress(CLEAN))), "more than 2 layers of compression")],
    ids=["cut-gzip", "cut-bz2", "gzip-junk", "three-bz2"],
)  # fmt: skip
def test_broken_compression_is_one_clear_error(data: bytes, message: str) -> None:
    from mjaudit.errors import LogFormatError
    from parsers.containers import decompress

    with pytest.raises(LogFormatError, match=message):
        decompress(data, "x.mjlog")


def test_stdin_over_the_limit_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(CLEAN)))
    code, _, err = run(capsys, "audit", "--max-input-size", "1K", "-")
    assert code == 2
    assert err_lines(err) == ["mjaudit: -: larger than the 1 KiB input limit (--max-input-size)"]


def test_zip_members_and_database_rows_over_the_limit_are_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    z = tmp_path / "games.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("small.xml", CLEAN)
        zf.writestr("big.xml", KANS + b" " * 8192)
    db = tmp_path / "games.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE logs(log_id text primary key, log_content blob)")
    conn.execute("INSERT INTO logs VALUES ('small', ?)", (CLEAN,))
    conn.execute("INSERT INTO logs VALUES ('big', ?)", (KANS + b" " * 8192,))
    conn.commit()
    conn.close()
    code, out, err = run(capsys, "audit", "--max-input-size", "8K", str(z), str(db))
    assert code == 2 and "2 games" in out
    lines = err_lines(err)
    assert lines == [
        f"mjaudit: {z}!big.xml: {len(KANS) + 8192} bytes, larger than the 8 KiB input limit "
        "(--max-input-size)",
        f"mjaudit: {db}#big: {len(KANS) + 8192} bytes, larger than the 8 KiB input limit "
        "(--max-input-size)",
    ]


@pytest.mark.parametrize("command", ["audit", "replay", "convert", "report"])
def test_an_internal_error_while_parsing_is_one_line_in_every_command(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    import analyzer.runs.batch
    import parsers.containers
    import reports.html

    def broken(data: bytes, name: str) -> object:
        raise ValueError("first line\nsecond line")

    for module in (analyzer.runs.batch, parsers.containers, reports.html):
        monkeypatch.setattr(module, "load_bytes", broken)
    path = tmp_path / "a.xml"
    path.write_bytes(CLEAN)
    argv = {
        "audit": ["audit", "-j", "1", str(path)],
        "report": ["report", str(path), str(path), "-o", str(tmp_path / "site")],
        "replay": ["replay", str(path)],
        "convert": ["convert", str(path), "--to", "mjai", "-o", str(tmp_path / "a.jsonl")],
    }[command]
    code, _, err = run(capsys, *argv)
    assert code == 2
    expected = f"mjaudit: {path}: internal error while parsing: ValueError: first line second line"
    assert set(err_lines(err)) == {expected}


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_a_zip_member_that_lies_about_its_size_is_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], method: int
) -> None:
    z = tmp_path / "liar.zip"
    with zipfile.ZipFile(z, "w", method) as zf:
        zf.writestr("a.mjlog", gzip.compress(CLEAN))  # a gzip'd log in a compressed member
        zf.writestr("liar.xml", bytes(8 << 20))
    data = bytearray(z.read_bytes())
    with zipfile.ZipFile(z) as zf:
        local = zf.getinfo("liar.xml").header_offset
    small = (1000).to_bytes(4, "little")
    data[local + 22 : local + 26] = small  # the uncompressed size, in both headers
    at = _central_entry(data, "liar.xml") + 24
    data[at : at + 4] = small
    z.write_bytes(bytes(data))
    code, out, err = run(capsys, "audit", "--max-input-size", "1M", str(z))
    assert code == 2 and "1 games" in out
    (line,) = err_lines(err)
    assert f"{z}!liar.xml: " in line
    # deflate stops where the header said (and its CRC check fails); bzip2 is undone
    # by a bounded decompressor, which stops at the limit
    if method == zipfile.ZIP_BZIP2:
        assert "larger than the 1 MiB input limit once decompressed" in line
    else:
        assert "CRC" in line


def test_a_named_input_that_holds_no_log_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty zip, an empty tar, a zip of a folder entry only and an empty folder
    # named on the command line were "0 games", exit 0: a job auditing the wrong
    # folder passed. Each is now one line, exit 2, and the good log beside is audited.
    from reports.cli import main

    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    with zipfile.ZipFile(tmp_path / "folder.zip", "w") as zf:
        zf.writestr("logs/", b"")
    with tarfile.open(tmp_path / "empty.tar", "w"):
        pass
    (tmp_path / "x.xml").mkdir()
    names = [str(tmp_path / n) for n in ("empty.zip", "folder.zip", "empty.tar", "x.xml")]
    good = str(SAMPLES / "clean_game.xml")
    for command in (["audit"], ["cases", "export", "-o", str(tmp_path / "c.jsonl")]):
        assert main([*command, *names, good]) == 2
        captured = capsys.readouterr()
        said = [line for line in captured.err.splitlines() if "holds no log" in line]
        assert said == [f"mjaudit: {n}: holds no log" for n in names], captured.err
        assert "1 game" in captured.out + captured.err
    # Not where the folder's logs are read where they are named, nor where a store
    # has audited them all before.
    assert main(["audit", str(SAMPLES), good]) in (0, 1)
    store = str(tmp_path / "store")
    assert main(["audit", "--store", store, good]) == 0
    assert main(["audit", "--store", store, good]) == 0
    assert "holds no log" not in capsys.readouterr().err


def test_a_zip_whose_index_is_damaged_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "missing (cut short?)" for an index that is there but damaged, nor a raw
    "[Errno 22] Invalid argument" for a member the index places wrongly."""
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w") as zf:
        for name in ("a.xml", "b.xml"):
            zf.writestr(name, CLEAN)
    data = bytearray(whole.getvalue())
    entry = data.rfind(b"PK\x01\x02")
    damaged = tmp_path / "entry.zip"
    damaged.write_bytes(data[:entry] + b"XX" + data[entry + 2 :])
    end = data.rfind(b"PK\x05\x06")
    offset = int.from_bytes(data[end + 16 : end + 20], "little") + 7
    shifted = tmp_path / "offset.zip"
    shifted.write_bytes(data[: end + 16] + offset.to_bytes(4, "little") + data[end + 20 :])
    code, _, err = run(capsys, "audit", str(damaged), str(shifted))
    assert code == 2
    lines = err_lines(err)
    assert lines[0] == (
        f"mjaudit: {damaged}: unreadable zip: its index (the central directory) is damaged: "
        "Bad magic number for central directory"
    )
    assert len(lines) == 3 and all(
        "cannot read: the zip's index does not point at this member" in line
        and line.endswith("the zip is damaged")
        for line in lines[1:]
    )
