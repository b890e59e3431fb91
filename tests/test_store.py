"""The results store: re-runs skip what is done; stats, query and merge."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest

from analyzer.runs import store as store_mod
from analyzer.runs import store_catalog
from analyzer.runs.batch import Shard
from analyzer.runs.store import Store, query, stats, stats_text
from reports.cli import main
from tests.conftest import run_store

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "tenhou-xml"
SAMPLES = REPO / "sample_logs"


run = run_store


def test_a_rerun_audits_nothing(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    first = run([str(logs)], st, jobs=2, batch_size=2)
    n = len(os.listdir(logs))
    assert first.inputs == n and first.skipped == 0
    again = run([str(logs)], st, jobs=2)
    assert again.inputs == 0 and again.skipped == n
    assert stats(st)["games"] == n


def test_a_changed_file_is_audited_again_and_a_moved_one_is_known(
    logs: Path, tmp_path: Path
) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    first = sorted(logs.iterdir())[0]
    os.utime(first, ns=(10**18, 10**18))  # touched: the cheap key changes, the content not
    shutil.copy(first, logs / "copy-of-first.xml")
    again = run([str(logs)], st)
    assert again.by_status == {"known": 2}
    data = first.read_bytes().replace(b"</mjloggm>", b"<!-- edited --></mjloggm>")
    first.write_bytes(data)
    third = run([str(logs)], st)
    assert third.by_status == {"ok": 1}
    assert stats(st)["games"] == len(os.listdir(logs))  # the copy is the same game


def test_tables_hold_games_hands_and_findings(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    _, rows = query(st, "SELECT count(*), sum(rounds), sum(wins) FROM games")
    (games, rounds, wins) = next(rows)
    assert games == len(os.listdir(logs))
    _, rows = query(st, "SELECT count(DISTINCT game || '/' || hand), sum(won) FROM hands")
    hands, won = next(rows)
    assert hands == rounds
    assert int(str(won)) >= int(str(wins))  # a double ron has two winners
    # the deltas of every hand add up to nothing but the riichi sticks that moved
    _, rows = query(
        st, "SELECT count(*) FROM (SELECT sum(delta) s FROM hands GROUP BY game, hand) "
        "WHERE s % 1000 != 0",
    )  # fmt: skip
    assert next(rows) == (0,)
    # beside the claims, what the audit derived: the same where it found nothing wrong
    _, rows = query(
        st, "SELECT count(*), count(derived_points), "
        "count(*) FILTER (WHERE derived_points != points OR derived_han != han "
        "OR derived_fu != fu OR derived_delta != delta) FROM hands h WHERE won = 1 AND NOT "
        "EXISTS (SELECT 1 FROM findings f WHERE f.game = h.game AND f.severity = 'error')",
    )  # fmt: skip
    clean_wins, derived, differing = next(rows)
    assert clean_wins and derived == clean_wins and differing == 0


def test_the_store_is_readable_while_a_writer_holds_a_transaction(
    logs: Path, tmp_path: Path
) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    writer = sqlite3.connect(st / store_mod.DB_NAME, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM parts")
    writer.execute("DELETE FROM inputs")
    try:
        assert stats(st)["games"] == len(os.listdir(logs))  # sees the last commit
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_shards_merge_into_the_whole(logs: Path, tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run([str(logs)], whole)
    shards = [tmp_path / f"shard-{k}" for k in range(3)]
    for k, d in enumerate(shards):
        run([str(logs)], d, shard=Shard(k, 3))
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, shards), "--into", str(merged)]) == 0
    assert stats(merged) == stats(whole)
    # merging again adds nothing
    assert main(["merge", str(shards[0]), "--into", str(merged)]) == 0
    assert stats(merged) == stats(whole)


def test_cli_store_stats_and_query(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    st = str(tmp_path / "store")
    assert main(["audit", "--store", st, "--format", "json", str(logs)]) == 0
    run_doc = json.loads(capsys.readouterr().out)
    assert run_doc["schema"] == "mjaudit.audit/1"
    assert run_doc["run"]["status"] == {"ok": len(os.listdir(logs))}
    assert main(["audit", "--store", st, str(logs)]) == 0
    again = capsys.readouterr().out
    assert f"skipped {len(os.listdir(logs))}" in again
    # The skipped games are reported as a plain run reports them.
    assert main(["audit", str(logs)]) == 0
    plain = capsys.readouterr().out
    assert again.splitlines()[:-1] == plain.splitlines()
    assert main(["stats", "--store", st, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == len(os.listdir(logs))
    assert main(["stats", "--store", st]) == 0
    assert "games" in capsys.readouterr().out
    assert (
        main(["query", "--store", st, "SELECT count(*) AS n FROM inputs", "--format", "csv"]) == 0
    )
    assert capsys.readouterr().out == f"n\n{len(os.listdir(logs))}\n"
    assert main(["query", "--store", st, "DELETE FROM games"]) == 2  # read-only
    assert "read-only" in capsys.readouterr().err
    assert main(["query", "--store", st, "COPY games TO 'x.csv'"]) == 2
    assert "read-only" in capsys.readouterr().err
    assert main(["stats", "--store", str(tmp_path / "nothing")]) == 2


def test_failed_inputs_are_recorded_and_listed(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLES / "clean_game.xml", logs / "a.xml")
    (logs / "b.xml").write_bytes(b"<mjloggm><nonsense")
    st = tmp_path / "store"
    assert run([str(logs)], st).by_status == {"ok": 1, "error": 1}
    failed = stats(st)["failed"]
    assert isinstance(failed, list) and len(failed) == 1


def test_zip_members_are_skipped_on_a_rerun(tmp_path: Path) -> None:
    z = tmp_path / "s.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(SAMPLES.glob("*.xml")):
            zf.write(p, p.name)
    st = tmp_path / "store"
    assert run([str(z)], st).inputs == 3
    assert run([str(z)], st).skipped == 3


def test_a_new_audit_version_reaudits_and_replaces(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    monkeypatch.setattr(store_catalog, "AUDIT_VERSION", "next")
    again = run([str(logs)], st)  # one process: the patched version is the one used
    assert again.by_status == {"ok": len(os.listdir(logs))}
    _, rows = query(st, "SELECT DISTINCT audit_version FROM games")
    assert list(rows) == [("next",)]
    _, keys = query(st, "SELECT key FROM inputs")
    with Store(st) as s:
        assert all(s.seen(str(k)) for (k,) in keys)


def test_inputs_left_out_by_a_selection_are_audited_later(logs: Path, tmp_path: Path) -> None:
    from analyzer.runs.batch import BatchOptions
    from parsers.containers import Selection

    st = tmp_path / "store"
    first = run([str(logs)], st, opts=BatchOptions(selection=Selection(length="hanchan")))
    left_out = first.by_status.get("filtered", 0)
    again = run([str(logs)], st)
    assert again.inputs == left_out
    assert again.skipped == first.by_status.get("ok", 0)


def test_store_runs_follow_the_same_exit_rule_and_no_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An info-only log: notes never fail a run, with or without --store; and
    --no-review leaves the notes out of a store run as it does of a plain one."""
    from tests.conftest import CORPUS

    log = CORPUS / "mahjongsoul" / "tenhou-json" / "LiYounian_url_encode_replace.json"
    if not log.exists():
        pytest.skip(f"corpus not available: {log}")
    d = tmp_path / "logs"
    d.mkdir()
    shutil.copy(log, d / log.name)
    assert main(["audit", "--fail-on", "warning", str(d)]) == 0
    assert "1 notes" in capsys.readouterr().out
    st = tmp_path / "store"
    assert main(["audit", "--store", str(st), "--fail-on", "warning", str(d)]) == 0
    assert "0 errors, 0 warnings, 1 notes" in capsys.readouterr().out
    quiet = tmp_path / "quiet"
    assert main(["audit", "--store", str(quiet), "--no-review", str(d)]) == 0
    assert "0 errors, 0 warnings, 0 notes" in capsys.readouterr().out
    assert stats(quiet)["findings"] == {"error": 0, "warning": 0, "info": 0}


def test_a_rerun_reports_stored_findings_with_their_source_and_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A payment moved between two seats: its findings and the chain breaks that name
    it as their cause come back from the store exactly as a plain run prints them."""
    from tests.conftest import corpus_file

    text = corpus_file("2010112714gm-00a9-0000-d497e395.xml").read_text(encoding="utf-8")
    at = text.index("<AGARI")
    start = text.index(' sc="', at) + 5
    end = text.index('"', start)
    sc = [int(x) for x in text[start:end].split(",")]
    sc[1] += 10  # one seat paid 1,000 more
    sc[3] -= 10  # and another 1,000 less: the table still adds up
    d = tmp_path / "logs"
    d.mkdir()
    (d / "moved.xml").write_text(
        text[:start] + ",".join(map(str, sc)) + text[end:], encoding="utf-8"
    )
    assert main(["audit", "--format", "json", str(d)]) == 1
    plain = json.loads(capsys.readouterr().out)
    assert any("cause" in f for f in plain["findings"])
    st = str(tmp_path / "store")
    assert main(["audit", "--store", st, "--format", "json", str(d)]) == 1
    first = json.loads(capsys.readouterr().out)
    assert main(["audit", "--store", st, "--format", "json", str(d)]) == 1
    again = json.loads(capsys.readouterr().out)
    assert again["run"]["skipped"] == 1
    for doc in (first, again):
        assert doc["findings"] == plain["findings"]


def test_query_json_writes_every_column_type_as_json(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # DuckDB hands back decimals (any literal like 1.5), dates, blobs, intervals and
    # UUIDs, which json.dumps refused with a traceback; a non-finite double came out
    # as Infinity, which no JSON reader takes.
    st = str(tmp_path / "store")
    assert main(["audit", "--store", st, str(logs)]) == 0
    sql = (
        "SELECT han * 1.5 AS d, DATE '2020-01-02' AS day, TIMESTAMP '2020-01-02 03:04:05' "
        "AS at, '\\x00\\xff'::BLOB AS b, INTERVAL 90 MINUTE AS i, "
        "'5f3c6fb2-0d1e-4d27-9d36-8ad1b3b0c6e1'::UUID AS u, 'inf'::DOUBLE AS x, "
        "[1.5, 2] AS l, {'a': DATE '2020-01-02'} AS s "
        "FROM hands WHERE han = 2 LIMIT 1"
    )
    capsys.readouterr()
    assert main(["query", "--store", st, sql, "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(c))
    assert row == {
        "d": 3.0,
        "day": "2020-01-02",
        "at": "2020-01-02T03:04:05",
        "b": "00ff",
        "i": 5400.0,
        "u": "5f3c6fb2-0d1e-4d27-9d36-8ad1b3b0c6e1",
        "x": None,
        "l": [1.5, 2.0],
        "s": {"a": "2020-01-02"},
    }


def test_stats_lists_a_failed_input_on_one_line(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "b\n  error   forged.xml").write_bytes(b"<mjloggm><nonsense")
    st = tmp_path / "store"
    run([str(logs)], st)
    text = stats_text(stats(st))
    assert not any(line.startswith("  error   forged") for line in text.splitlines()), text
    assert text.splitlines()[-1].startswith(f"  error: {logs}/b   error   forged.xml: ")


def test_a_known_content_under_another_name_is_reported_as_without_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A log whose content the store held under another name was left out of the
    # output ("0 games ... 0 errors") and the run exited 0, where a run without the
    # store gives its error and exit 1; once stored, it was shown under the first name.
    first = tmp_path / "broken_dora.xml"
    copy = tmp_path / "copy" / "again.xml"
    copy.parent.mkdir()
    shutil.copy(SAMPLES / "broken_dora.xml", first)
    shutil.copy(SAMPLES / "broken_dora.xml", copy)
    store = str(tmp_path / "store")
    assert main(["audit", "--format", "json", str(copy)]) == 1
    plain = json.loads(capsys.readouterr().out)
    assert main(["audit", "--store", store, str(first)]) == 1
    capsys.readouterr()
    for _ in range(2):  # known, then skipped as already in the store
        assert main(["audit", "--format", "json", "--store", store, str(copy)]) == 1
        doc = json.loads(capsys.readouterr().out)
        assert [f["path"] for f in doc["findings"]] == [str(copy)] * len(plain["findings"])
        assert [f["code"] for f in doc["findings"]] == [f["code"] for f in plain["findings"]]


def test_a_delta_the_log_does_not_record_is_null(tmp_path: Path) -> None:
    # akochan's mjai records no deltas: the store wrote 0 for every seat (a winner's
    # +11700 summed as 0), beside the derived delta.
    from tests.conftest import CORPUS

    log = CORPUS / "mjai" / "akochan" / "akochan_haifu_log_sample.jsonl"
    if not log.exists():
        pytest.skip(f"corpus not available: {log}")
    store = tmp_path / "store"
    run_store([str(log)], store)
    _, rows = query(
        str(store), "SELECT count(*), count(delta), count(derived_delta) FROM hands WHERE won = 1"
    )
    ((wins, recorded, derived),) = rows
    assert isinstance(wins, int) and wins > 0 and recorded == 0 and derived == wins


def test_an_unnamed_seat_has_the_reports_name_in_the_store(tmp_path: Path) -> None:
    # akochan's mjai names no player: the store's player was '' for every seat of
    # every game (one "player"), the reports' "seat 0" .. "seat 3".
    from analyzer.checks.audit import resolve_rules
    from parsers import load
    from reports.views_facts import collect_game
    from tests.conftest import CORPUS

    log_path = CORPUS / "mjai" / "akochan" / "akochan_haifu_log_sample.jsonl"
    if not log_path.exists():
        pytest.skip(f"corpus not available: {log_path}")
    store = tmp_path / "store"
    run_store([str(log_path)], store)
    _, rows = query(str(store), "SELECT DISTINCT seat, player FROM hands ORDER BY seat")
    log = load(str(log_path))
    facts = collect_game(log, resolve_rules(log, "auto"))
    assert list(rows) == [(s, facts.names[s]) for s in range(4)]
    assert [facts.names[s] for s in range(4)] == ["seat 0", "seat 1", "seat 2", "seat 3"]


@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_query_text_writes_a_blob_in_hex(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    # TSV and CSV wrote Python's b'\x00\xff' for a blob; the JSON lines give 00ff.
    st = str(tmp_path / "store")
    assert main(["audit", "--store", st, str(logs)]) == 0
    capsys.readouterr()
    sql = "SELECT '\\x00\\xff'::BLOB AS b, 1 AS n"
    assert main(["query", "--store", st, sql, "--format", fmt]) == 0
    sep = "\t" if fmt == "tsv" else ","
    assert capsys.readouterr().out == f"b{sep}n\n00ff{sep}1\n"
