"""Inputs small on disk made to cost a reader or a report far more than their size.

Each case is a log a few hundred kilobytes long whose cost used to grow with the
square (or more) of one of its counts: a Tenhou JSON ``connection`` list, an mjlog
element with a great many attributes, a game of many hands in its HTML page. Each
test asserts the outcome, and bounds the time generously: it fails only where the
cost has blown up (minutes), never on a slow machine.
"""

from __future__ import annotations

import io
import json
import re
import tarfile
import time
import zipfile
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import resolve_rules
from analyzer.runs import batch
from analyzer.runs.batch import BatchOptions, BatchResult, _failed, audit_many, run_batches
from mjaudit.errors import LogFormatError
from mjaudit.events import GameStart, Presence, RoundStart, Win
from mjaudit.yaku import Yaku
from parsers import load, load_bytes
from parsers.containers import Locator
from parsers.convert import convert_log
from reports.views import build_game_view
from reports.views_facts import collect_game
from tests.conftest import SAMPLES
from tests.ms_records import ms_doc

CLEAN = SAMPLES / "clean_game.xml"
# Far above what the fixed code takes (well under a second), far below what the
# quadratic code took on these inputs (minutes).
GENEROUS = 30.0


def _clean_json() -> dict[str, Any]:
    doc = json.loads(convert_log(load(str(CLEAN)), "tenhou-json"))
    assert isinstance(doc, dict)
    return doc


# -- Tenhou JSON: the connection list --------------------------------------------------
def test_a_long_connection_list_is_placed_in_one_pass() -> None:
    # Each entry was placed by scanning the kyoku's events from its start, and each
    # placed entry made the list longer: 60,000 entries (2.7 MB) took minutes.
    doc = _clean_json()
    count = 60_000
    doc["connection"] = [{"what": 0, "log": 0, "who": 1, "step": 10**9}] * count
    data = json.dumps(doc, separators=(",", ":")).encode()
    start = time.monotonic()
    log = load_bytes(data, "many.json")
    elapsed = time.monotonic() - start
    presences = [e for e in log.events if isinstance(e, Presence)]
    assert len(presences) == count
    assert elapsed < GENEROUS, f"{count} connection entries took {elapsed:.0f} s"


def test_connection_entries_keep_their_places() -> None:
    # Placed after ``step`` actions of the kyoku (after the presences already there),
    # in the order of (step, seat, what), past the end when step is too large.
    doc = _clean_json()
    doc["connection"] = [
        {"what": 1, "log": 0, "who": 2, "step": 3},
        {"what": 0, "log": 0, "who": 1, "step": 3},
        {"what": 0, "log": 0, "who": 3, "step": 0},
        {"what": 0, "log": 0, "who": 0, "step": -5},
        {"what": 0, "log": 0, "who": 1, "step": 10**6},
    ]
    log = load_bytes(json.dumps(doc).encode(), "few.json")
    events = list(log.events)
    first = next(i for i, e in enumerate(events) if isinstance(e, RoundStart))
    second = next(i for i, e in enumerate(events) if i > first and isinstance(e, RoundStart))
    kyoku = events[first:second]
    marks = [(i, e.seat, e.connected) for i, e in enumerate(kyoku) if isinstance(e, Presence)]
    # step -5 and 0: straight after the deal; step 3: after three actions.
    assert marks[:2] == [(1, 0, False), (2, 3, False)]
    assert marks[2:4] == [(6, 1, False), (7, 2, True)]
    last = marks[4]
    assert last[1:] == (1, False) and last[0] == len(kyoku) - 1
    for i, seat, _ in marks:
        assert kyoku[i].pos == kyoku[i - 1].pos, (i, seat)


# -- Tenhou XML: an element with a great many attributes -------------------------------
def _with_attributes(tag: str, count: int) -> bytes:
    text = CLEAN.read_text(encoding="utf-8")
    many = " ".join(f'a{i}="1"' for i in range(count))
    at = text.index(f"<{tag} ") if f"<{tag} " in text else text.index("<INIT ")
    opened = f"<{tag} " if f"<{tag} " in text else f"<{tag} />"
    if opened.endswith("/>"):  # a tag the sample does not have: one of its own
        return (text[:at] + f"<{tag} {many}/>" + text[at:]).encode("utf-8")
    return (text[:at] + f"<{tag} {many} " + text[at + len(opened) :]).encode("utf-8")


@pytest.mark.parametrize("tag", ["GO", "AGARI", "FOO"])
def test_an_element_with_a_great_many_attributes_is_refused_at_once(tag: str) -> None:
    # lxml looks each attribute's value up by its name: reading all of an element's
    # attributes (GO's, kept as the lobby's extras; any element's, for a message)
    # cost the square of their number: 100,000 attributes (1.2 MB) took a minute.
    data = _with_attributes(tag, 100_000)
    start = time.monotonic()
    with pytest.raises(LogFormatError) as info:
        load_bytes(data, "attrs.xml")
    elapsed = time.monotonic() - start
    message = str(info.value)
    assert "attrs.xml" in message and "\n" not in message and len(message) < 400
    if tag != "FOO":
        assert re.search(r": 1000\d\d attributes \(at most 64\)$", message), message
    assert elapsed < GENEROUS, f"{tag} with 100,000 attributes took {elapsed:.0f} s"


def test_a_real_elements_attributes_are_still_read() -> None:
    log = load_bytes(_with_attributes("GO", 20), "some.xml")
    start = log.events[0]
    assert isinstance(start, GameStart)
    assert ("a19", "1") in start.rules_hint.extras


# -- a report of a game of many hands ----------------------------------------------------
def test_the_page_of_a_game_of_many_hands_is_built_in_one_pass() -> None:
    # Each finding's hand was found by a scan over the hands, once per finding and
    # again once per hand and finding: a page cost hands x hands x findings, and a
    # game of 2,000 hands (1.4 MB of Tenhou JSON) took minutes where 1,000 took ten
    # seconds.
    doc = _clean_json()
    kyoku = doc["log"]
    doc["log"] = [kyoku[i % len(kyoku)] for i in range(1_600)]
    log = load_bytes(json.dumps(doc).encode(), "long.json")
    facts = collect_game(log, resolve_rules(log, "auto"))
    located = [f for f in facts.findings if f.event is not None]
    assert len(facts.game.rounds) == 1_600 and len(located) >= 300
    start = time.monotonic()
    view = build_game_view(facts)
    elapsed = time.monotonic() - start
    assert len(view.rounds) == 1_600
    assert sum(len(r.findings) for r in view.rounds) == len(located)
    assert any(not row.ok for row in view.rounds_table)
    assert elapsed < GENEROUS, f"the page of 1,600 hands took {elapsed:.0f} s"


# -- Mahjong Soul: keys renamed at any depth the JSON reader takes ------------------------
RAW_RECORD = "raw-records/220418-a0451071-1198-45ea-9a24-161d1004ab83.json"


@pytest.mark.parametrize("depth", [500, 800, 900, 960])
def test_a_deeply_nested_camel_case_record_is_read(depth: int) -> None:
    # The keys of a camelCase record were renamed by a recursive walk, which ran out of
    # Python's stack on a value the JSON reader had taken (900 levels): the file got
    # "internal error while parsing: RecursionError".
    doc = ms_doc(RAW_RECORD)
    doc["meta"]["deepThing"] = "@LIST@"
    doc["records"][0]["data"]["deepValue"] = "@OBJECT@"
    text = json.dumps(doc)
    text = text.replace('"@LIST@"', "[" * depth + "]" * depth)
    text = text.replace('"@OBJECT@"', '{"innerKey":' * depth + "1" + "}" * depth)
    data = text.encode()
    try:
        log = load_bytes(data, "deep.json")
    except LogFormatError as exc:  # deeper than the JSON reader takes, from here
        assert "nested too deeply" in str(exc) and depth > 800, exc
        return
    assert any(isinstance(e, RoundStart) for e in log.events)


# -- mjai: a yaku's fan that stands for countless yakuman --------------------------------
def _mjai_with_yakus(yakus: str) -> bytes:
    lines = convert_log(load(str(CLEAN)), "mjai").decode("utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"hora"' in line)
    hora = json.loads(lines[at])
    hora["yakus"] = json.loads(yakus)
    lines[at] = json.dumps(hora)
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.mark.parametrize("fan", [100 * 1_000, 100 * 10**12])
def test_a_yaku_claiming_countless_yakuman_is_refused(fan: int) -> None:
    # gimite writes a yakuman as fan 100, and each 100 was one yakuman in a list: a
    # 5 KB file with fan 1.3e9 made a list of 13 million (13 s, 1.5 GB, 31 MB of JSON
    # output), and 15 digits ran out of memory.
    data = _mjai_with_yakus(f'[["kokushimuso", {fan}]]')
    with pytest.raises(LogFormatError, match=r"more yakuman than a hand can have"):
        load_bytes(data, "many.jsonl")


def test_a_double_yakuman_fan_is_still_read() -> None:
    data = _mjai_with_yakus('[["kokushimuso", 200]]')
    log = load_bytes(data, "double.jsonl")
    wins = [e for e in log.events if isinstance(e, Win) and e.claims.yakuman]
    assert len(wins) == 1 and wins[0].claims.yakuman == (Yaku.KOKUSHI, Yaku.KOKUSHI)


# -- a tar of members each just under the size limit --------------------------------------
class _Spaces(io.RawIOBase):
    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = b" " * n
        self.left -= n
        return n


def test_tar_members_travel_in_batches_bounded_by_their_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tar members are read by the driver and sent with their batch: 16 members of a
    # batch, just under the 64 MiB limit each, were a GiB in memory at once (-j 2
    # held eight batches: 4.7 GB for a 17 MB tar.gz, and under a 5 GB cap the good
    # log after them was lost). A batch carries at most about one limit's worth.
    member = 12 << 20
    archive = tmp_path / "big.tar.gz"
    with tarfile.open(archive, "w:gz", compresslevel=1) as tf:
        for i in range(12):
            info = tarfile.TarInfo(f"m{i:02}.xml")
            info.size = member
            tf.addfile(info, io.BufferedReader(_Spaces(member)))
        tf.add(CLEAN, arcname="good.xml")
    carried: list[int] = []
    real = batch._in_process

    def watched(b: Sequence[Locator], opts: BatchOptions) -> BatchResult:
        carried.append(sum(len(loc.data or b"") for loc in b))
        return real(b, opts)

    monkeypatch.setattr(batch, "_in_process", watched)
    outcomes = list(audit_many([str(archive)], BatchOptions(max_input_size=16 << 20)))
    assert [o.status for o in outcomes].count("ok") == 1 and len(outcomes) == 13
    assert max(carried) <= (16 << 20) + member, [c >> 20 for c in carried]


def test_batches_in_flight_are_bounded_by_their_bytes() -> None:
    # The pool's window counted batches only: eight in flight for -j 2 whatever they
    # carried. Each batch here carries 40 MiB (one bytes object, shared).
    data = b" " * (40 << 20)
    batches = [[Locator("tar", "t.tar", f"m{i}.xml", f"k{i}", data=data)] for i in range(10)]
    flights: list[int] = []
    done: list[int] = []

    class Recording(Executor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
            b = args[0]
            # What the run holds: the batches sent and not yet given back, this one too.
            flights.append((len(flights) + 1 - len(done)) * len(data))
            future: Future[Any] = Future()
            future.set_result(BatchResult(tuple(_failed(loc, "error", "x") for loc in b)))
            return future

    for result in run_batches(batches, BatchOptions(), make_executor=Recording, window=8):
        done.append(len(result.outcomes))
    assert len(done) == 10
    assert max(flights) <= 256 << 20, [x >> 20 for x in flights]


def test_long_keys_are_not_kept_after_their_record() -> None:
    # The renamed keys were cached for the process (up to 4,096 of them, whatever
    # their length): twelve records with a 10 MB key each kept 280 MB after them.
    from parsers import mahjongsoul

    doc = ms_doc(RAW_RECORD)
    load_bytes(json.dumps(doc).encode(), "plain.json")  # its keys are kept now
    before = dict(mahjongsoul._SNAKE_KEYS)
    for n in range(3):
        doc["meta"][f"someKey{n}" + "Ab" * 50_000] = 1
    log = load_bytes(json.dumps(doc).encode(), "long-keys.json")
    assert any(isinstance(e, RoundStart) for e in log.events)
    assert before == mahjongsoul._SNAKE_KEYS


def test_a_hand_longer_than_any_wall_is_not_called_ambiguous() -> None:
    # 45,000 draws and discards a seat and no call: the order search gave up with
    # "too many ways to order the calls", of a hand that has none.
    doc = _clean_json()
    kyoku = doc["log"][0]
    for seat in range(4):
        kyoku[5 + 3 * seat] = [11] * 45_000 + kyoku[5 + 3 * seat]
        kyoku[6 + 3 * seat] = [60] * 45_000 + kyoku[6 + 3 * seat]
    doc["log"] = [kyoku]
    # The lists that cannot be put in order break that hand, not the file.
    log = load_bytes(json.dumps(doc).encode(), "long-hand.json")
    start = next(e for e in log.events if isinstance(e, RoundStart))
    message = start.unreadable or ""
    assert "within 200,000 steps" in message and "far longer than a wall" in message, message


# -- a zip whose directory points many members at the same data ---------------------------
def _one_member_zip(name: str) -> tuple[bytes, bytes, bytes]:
    """A zip of one member ``name`` (CLEAN's text), cut into its local part (header
    and data), its directory entry and its end record."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, CLEAN.read_bytes())
    data = out.getvalue()
    end = data.rindex(b"PK\x05\x06")
    directory_at = int.from_bytes(data[end + 16 : end + 20], "little")
    return data[:directory_at], data[directory_at:end], data[end : end + 22]


def _overlapping_zip(path: Path, copies: int) -> None:
    """A zip of ``good.xml`` whose directory lists the one member ``copies`` times,
    every entry pointing at the same compressed data, then a member of its own."""
    local, entry, end_record = _one_member_zip("good.xml")
    olocal, oentry_bytes, _ = _one_member_zip("other.xml")
    oentry = bytearray(oentry_bytes)
    oentry[42:46] = len(local).to_bytes(4, "little")  # its local header, after ours
    directory = entry * copies + bytes(oentry)
    count = copies + 1
    tail = bytearray(end_record)
    tail[8:10] = tail[10:12] = count.to_bytes(2, "little")
    tail[12:16] = len(directory).to_bytes(4, "little")
    tail[16:20] = (len(local) + len(olocal)).to_bytes(4, "little")
    path.write_bytes(local + olocal + directory + bytes(tail))


def test_members_sharing_their_data_are_read_once(tmp_path: Path) -> None:
    # A zip bomb's trick: thousands of directory entries, one compressed member. Each
    # was read in full: a 14 KB zip of 100 entries over 8 KB of data took 170 s.
    archive = tmp_path / "overlap.zip"
    _overlapping_zip(archive, 5)
    outcomes = list(audit_many([str(archive)], BatchOptions()))
    by_name = {o.record.name.rsplit("!", 1)[1]: o for o in outcomes}
    assert sorted(by_name) == [
        "good.xml", "good.xml (2)", "good.xml (3)", "good.xml (4)", "good.xml (5)", "other.xml",
    ]  # fmt: skip
    assert by_name["good.xml"].status == "ok" and by_name["other.xml"].status == "ok"
    for k in range(2, 6):
        record = by_name[f"good.xml ({k})"].record
        assert record.status == "error" and record.error is not None
        assert "shares its data with another member" in record.error, record.error
