"""Auditing many logs: batches through a bounded window of worker processes.

The worker side is :func:`audit_batch`, a pure function of a list of locators: it
reads each input itself, hashes it, audits it, and turns every problem with one
input into that input's outcome (an error, a timeout), so a batch always ends.
Spark, Ray or Dask call the same function (docs/scale.md).

The driver side, :func:`run_batches`, keeps at most ``window`` batches in flight
(``Executor.map`` would read every input up front, and memory would grow with the
input count) and yields results in input order, so ``-j N`` prints exactly what
``-j 1`` prints. When a worker dies, the pool is rebuilt and the batches that were
in flight are re-run one at a time; a batch that kills its worker alone is split
until the single log that does it is found and reported as ``crashed``. A batch
that fails as a whole in any other way is split the same way, so only the input
to blame is reported (by name), and the others keep their verdicts.
"""

from __future__ import annotations

import gc
import hashlib
import signal
import sys
import threading
import time
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from itertools import chain, islice
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from analyzer.runs.pool import available_cpus, process_pool
from analyzer.runs.store_catalog import InputRecord, StoreError, game_rows, known_content
from mjaudit.errors import MjauditError
from mjaudit.events import GameLog
from mjaudit.findings import JsonValue
from mjaudit.rules import RulesError
from parsers.containers import (
    DEFAULT_MAX_INPUT,
    FileId,
    Locator,
    Selection,
    failure,
    file_ids,
    iter_locators,
    read_locator,
)
from parsers.sources import load_bytes

# A run without --store needs only the catalog's records (above); the store itself and
# the worker pools are imported where they are used, to keep start-up short.
if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from analyzer.runs.store import Store

__all__ = [
    "BatchOptions",
    "BatchResult",
    "Outcome",
    "RunSummary",
    "Shard",
    "audit_batch",
    "audit_many",
    "available_cpus",
    "process_pool",
    "run_batches",
]

Probe = Callable[[str, bytes], None]


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """What every worker needs to know; picklable, so it travels with each batch.

    ``probe`` is called with each input's name and bytes just before it is audited
    (tests use it to make a log raise, hang or kill its worker). ``max_input_size``
    bounds each input's bytes once decompressed (``--max-input-size``).
    """

    rules: str = "auto"
    selection: Selection = field(default_factory=Selection)
    time_limit: float | None = None
    store: str | None = None
    part_dir: str | None = None
    probe: Probe | None = None
    max_input_size: int = DEFAULT_MAX_INPUT
    # Review notes (missed wins, furiten discards): ``--no-review`` leaves them out
    # of every output, the store's findings table included.
    review: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """One input's fate: ok, error, timeout, crashed, filtered (not selected) or
    known (its content is already in the store)."""

    record: InputRecord
    audit: FileAudit | None = None

    @property
    def status(self) -> str:
        return self.record.status


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What one batch gives back: an outcome per input, and its part files."""

    outcomes: tuple[Outcome, ...]
    parts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Shard:
    """Input K of every N (``--shard K/N``, K from 0), chosen by a hash of its name."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            k, n = (int(x) for x in text.split("/"))
        except ValueError:
            raise ValueError(f"a shard is K/N, such as 0/4, not {text!r}") from None
        if n < 1 or not 0 <= k < n:
            raise ValueError(f"shard {text}: K must be from 0 to N-1")
        return cls(k, n)

    def holds(self, loc: Locator) -> bool:
        return zlib.crc32(loc.name.encode("utf-8", "surrogateescape")) % self.count == self.index


# ---- the worker side ------------------------------------------------------------


class _TimeLimit(BaseException):
    """Raised by the alarm; a BaseException so no ``except Exception`` swallows it."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _TimeLimit


def _limited(seconds: float | None) -> AbstractContextManager[None]:
    # signal.setitimer works only in a process's main thread (not in a Dask
    # worker's task threads); there the limit is not enforced.
    if seconds is None or threading.current_thread() is not threading.main_thread():
        return nullcontext()
    return _Alarm(seconds)


class _Alarm:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __enter__(self) -> None:
        self.old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)


def _record(
    loc: Locator, status: str, sha: str | None = None, error: str | None = None
) -> InputRecord:
    return InputRecord(loc.key, loc.name, sha, status, error, None)


def _failed(loc: Locator, status: str, error: str) -> Outcome:
    return Outcome(_record(loc, status, error=error), FileAudit(loc.name, error=error))


def _audit_one(loc: Locator, opts: BatchOptions) -> Outcome:
    """One input, start to end, inside its own guard and its own time limit.

    Reading and decompressing count against the time limit too; whatever goes
    wrong (a broken archive member, running out of memory, a bug) is this input's
    outcome and no other's. The store's "already known?" question is asked
    outside the guard: a store that fails is the run's problem, not the input's.
    """
    started = time.monotonic()
    try:
        with _limited(opts.time_limit):
            data = read_locator(loc, opts.max_input_size)
    except _TimeLimit:
        return _timed_out(loc, opts)
    except MjauditError as exc:
        return _failed(loc, "error", str(exc))
    except Exception as exc:  # read_locator names its failures; this is a bug, or memory
        return _failed(loc, "error", failure(loc.name, "reading", exc))
    sha: str | None = None
    if opts.store is not None:
        # The content's hash keys the store's tables; a run without a store has no
        # use for it (over the Tenhou corpus it cost about 1 % of the run).
        sha = hashlib.sha256(data).hexdigest()
        if known_content(opts.store, sha):
            return Outcome(_record(loc, "known", sha))
    left = None if opts.time_limit is None else opts.time_limit - (time.monotonic() - started)
    log: GameLog | None = None
    step = "parsing"
    try:
        with _limited(None if left is None else max(left, 0.001)):
            if opts.probe is not None:
                opts.probe(loc.name, data)
            log = load_bytes(data, loc.name)
            del data
            if not opts.selection.accepts(log.start.rules_hint):
                return Outcome(_record(loc, "filtered", sha))
            step = "auditing"
            # The per-hand records are for the store's rows only.
            audit = audit_log(
                log,
                resolve_rules(log, opts.rules),
                review=opts.review,
                hand_records=opts.store is not None,
            )
    except _TimeLimit:
        return _timed_out(loc, opts)
    except RulesError as exc:
        fmt, gid = (log.format, log.start.game_id) if log is not None else (None, None)
        audit = FileAudit(loc.name, fmt, gid, error=str(exc))
        return Outcome(_record(loc, "error", sha, str(exc)), audit)
    except MjauditError as exc:
        return Outcome(_record(loc, "error", sha, str(exc)), FileAudit(loc.name, error=str(exc)))
    except Exception as exc:  # a bug, or memory: one log must not stop the batch
        msg = failure(loc.name, step, exc)
        return Outcome(_record(loc, "error", sha, msg), FileAudit(loc.name, error=msg))
    rows = game_rows(log, audit, sha) if sha is not None else None
    # The store's rows are made from the per-hand records; a batch's outputs read the
    # findings and counts only, so the records go here and a run's memory does not
    # grow with them.
    audit = replace(audit, hands=())
    return Outcome(InputRecord(loc.key, loc.name, sha, "ok", None, rows), audit)


def _timed_out(loc: Locator, opts: BatchOptions) -> Outcome:
    msg = f"{loc.name}: not audited: took longer than the {opts.time_limit:g} s limit"
    return _failed(loc, "timeout", msg)


@contextmanager
def _collecting_by_batch() -> Iterator[None]:
    """Switch automatic garbage collection off; batches collect when they end.

    An audit holds about a thousand events per game until the game is done, and it
    frees all it makes by reference counting: it makes no reference cycles (a test
    in tests/test_batch.py checks this over real logs). Automatic collection would
    only walk those live objects again and again, touching memory that is otherwise
    left alone. Each batch ends with a collection of the youngest generation, which
    with automatic collection off holds everything made since the last one, so an
    unforeseen cycle is still freed. Workers forked meanwhile inherit the setting.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _collect_garbage() -> None:
    """Collect what the last batch left, where automatic collection is off."""
    if not gc.isenabled():
        gc.collect(0)


def audit_batch(locators: Sequence[Locator], opts: BatchOptions) -> BatchResult:
    """Audit a batch in this process. With ``opts.part_dir``, rows go to a part file."""
    outcomes = tuple(_audit_one(loc, opts) for loc in locators)
    _collect_garbage()
    if opts.part_dir is None:
        return BatchResult(outcomes)
    from analyzer.runs.store import write_part

    digest = hashlib.sha256("\n".join(loc.key or loc.name for loc in locators).encode())
    part = Path(opts.part_dir) / f"part-{digest.hexdigest()[:24]}.json"
    part.parent.mkdir(parents=True, exist_ok=True)
    write_part(part, [o.record for o in outcomes])
    slim = tuple(
        Outcome(InputRecord(r.key, r.name, r.sha256, r.status, r.error, None), o.audit)
        for o in outcomes
        for r in (o.record,)
    )
    return BatchResult(slim, (str(part),))


# ---- the driver side ------------------------------------------------------------


def _worker_killed(exc: BaseException) -> bool:
    """Dask's KilledWorker (a task that took down its worker every time it ran)."""
    return type(exc).__name__ == "KilledWorker"


class _Pool:
    """An executor that can be rebuilt after a worker died."""

    def __init__(self, make: Callable[[], Executor]) -> None:
        self.make = make
        self.executor = make()

    def rebuild(self) -> None:
        """A fresh local pool after a worker died (a Dask cluster heals itself)."""
        from concurrent.futures import ProcessPoolExecutor

        if isinstance(self.executor, ProcessPoolExecutor):
            self.close(finished=True)
            self.executor = self.make()

    def close(self, finished: bool) -> None:
        """Shut the pool down. After a run that ``finished``, wait for the workers to
        exit: leaving them to the interpreter's exit races with its clean-up (a
        "Bad file descriptor" traceback now and then). After an interruption, cancel
        what is queued and do not wait for what runs."""
        from concurrent.futures import ProcessPoolExecutor

        if finished:
            self.executor.shutdown(wait=True)
        elif isinstance(self.executor, ProcessPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
        else:  # Dask's executor has no cancel_futures
            self.executor.shutdown(wait=False)


def run_batches(
    batches: Iterable[Sequence[Locator]],
    opts: BatchOptions,
    make_executor: Callable[[], Executor] | None = None,
    window: int = 8,
) -> Iterator[BatchResult]:
    """Audit batches, at most ``window`` in flight, yielding results in input order.

    Without an executor, batches run in this process (``-j 1``).
    """
    with _collecting_by_batch():
        yield from _run_batches(batches, opts, make_executor, window)


def _run_batches(
    batches: Iterable[Sequence[Locator]],
    opts: BatchOptions,
    make_executor: Callable[[], Executor] | None,
    window: int,
) -> Iterator[BatchResult]:
    if make_executor is None:
        for b in batches:
            yield _in_process(b, opts)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = _Pool(make_executor)
    pending: dict[int, tuple[Sequence[Locator], Future[BatchResult]]] = {}
    ready: dict[int, BatchResult] = {}
    source = enumerate(batches)
    # The bytes of the batches sent and not yet given back are bounded as well as
    # their number (one batch goes whatever it carries): tar members travel in them.
    carried: dict[int, int] = {}
    budget = 4 * opts.max_input_size
    held: tuple[int, Sequence[Locator]] | None = None
    next_out = 0
    exhausted = False
    finished = False
    try:
        while True:
            while not exhausted and len(pending) + len(ready) < window:
                if held is None:
                    held = next(source, None)
                    if held is None:
                        exhausted = True
                        break
                seq, b = held
                size = _carried(b)
                if carried and sum(carried.values()) + size > budget:
                    break
                held = None
                carried[seq] = size
                pending[seq] = (b, pool.executor.submit(audit_batch, b, opts))
            if next_out in ready:
                carried.pop(next_out, None)
                yield ready.pop(next_out)
                next_out += 1
                continue
            if not pending:
                finished = True
                return
            wait([f for _, f in pending.values()], return_when=FIRST_COMPLETED)
            _collect(pool, pending, ready, opts)
            _collect_garbage()
    finally:
        pool.close(finished)


def _died(exc: BaseException) -> bool:
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, BrokenProcessPool) or _worker_killed(exc)


def _collect(
    pool: _Pool,
    pending: dict[int, tuple[Sequence[Locator], Future[BatchResult]]],
    ready: dict[int, BatchResult],
    opts: BatchOptions,
) -> None:
    from concurrent.futures import wait

    suspects: list[tuple[int, Sequence[Locator]]] = []
    died = False

    def take(seq: int, b: Sequence[Locator], f: Future[BatchResult]) -> None:
        nonlocal died
        try:
            ready[seq] = f.result()
        except StoreError:
            raise  # the store cannot be written (a full disk): the run's end, said once
        except Exception as exc:
            # A worker that died, or a batch that failed as a whole: each is run
            # again alone, split until the input to blame is found.
            if _died(exc):
                died = True
                suspects.append((seq, b))
            elif len(b) == 1:
                ready[seq] = BatchResult((_batch_failed(b[0], exc),))
            else:
                suspects.append((seq, b))

    for seq, (b, f) in list(pending.items()):
        if f.done():
            del pending[seq]
            take(seq, b, f)
    if not suspects:
        return
    if died:
        # A broken local pool fails every future; a Dask scheduler may blame tasks
        # that merely waited on the dead worker. So let everything in flight end,
        # then run each suspect batch alone, where blame is certain.
        wait([f for _, f in pending.values()])
        for seq, (b, f) in list(pending.items()):
            del pending[seq]
            take(seq, b, f)
        pool.rebuild()
    for seq, b in sorted(suspects, key=lambda s: s[0]):
        ready[seq] = _isolate(pool, b, opts, guilty=False)


def _isolate(pool: _Pool, b: Sequence[Locator], opts: BatchOptions, guilty: bool) -> BatchResult:
    """Run a batch alone; if it kills its worker, split it down to the culprit."""
    if guilty:
        if len(b) == 1:
            msg = f"{b[0].name}: not audited: its worker process died while auditing it"
            return BatchResult((_failed(b[0], "crashed", msg),))
        mid = len(b) // 2
        left = _isolate(pool, b[:mid], opts, guilty=False)
        right = _isolate(pool, b[mid:], opts, guilty=False)
        return BatchResult(left.outcomes + right.outcomes, left.parts + right.parts)
    try:
        return pool.executor.submit(audit_batch, b, opts).result()
    except StoreError:
        raise
    except Exception as exc:
        if _died(exc):
            pool.rebuild()
            return _isolate(pool, b, opts, guilty=True)
        if len(b) == 1:
            return BatchResult((_batch_failed(b[0], exc),))
        mid = len(b) // 2
        left = _isolate(pool, b[:mid], opts, guilty=False)
        right = _isolate(pool, b[mid:], opts, guilty=False)
        return BatchResult(left.outcomes + right.outcomes, left.parts + right.parts)


def _in_process(b: Sequence[Locator], opts: BatchOptions) -> BatchResult:
    """A batch in this process; one that fails as a whole is split to find the input."""
    try:
        return audit_batch(b, opts)
    except StoreError:
        raise  # not this batch's inputs: the store's (a full disk)
    except Exception as exc:
        if len(b) == 1:
            return BatchResult((_batch_failed(b[0], exc),))
        left, right = _in_process(b[: len(b) // 2], opts), _in_process(b[len(b) // 2 :], opts)
        return BatchResult(left.outcomes + right.outcomes, left.parts + right.parts)


def _batch_failed(loc: Locator, exc: BaseException) -> Outcome:
    """An input whose batch failed as a whole even when it ran alone.

    Its status is ``crashed``, not ``error``: the failure was not found in the
    input itself, so a store tries it again on the next run.
    """
    said = " ".join(str(exc).splitlines())
    msg = f"{loc.name}: not audited: its batch failed: {type(exc).__name__}: {said}"
    return _failed(loc, "crashed", msg)


def _carried(b: Sequence[Locator]) -> int:
    """The bytes a batch carries: tar members and standard input, read by the driver."""
    return sum(len(loc.data) for loc in b if loc.data is not None)


def _chunks(items: Iterable[Locator], size: int, max_bytes: int) -> Iterator[list[Locator]]:
    """Batches of ``size`` inputs, cut short where they carry ``max_bytes``: sixteen
    tar members just under the size limit are not a GiB in one batch."""
    chunk: list[Locator] = []
    carried = 0
    for loc in items:
        chunk.append(loc)
        carried += len(loc.data) if loc.data is not None else 0
        if len(chunk) >= size or carried >= max_bytes:
            yield chunk
            chunk, carried = [], 0
    if chunk:
        yield chunk


# ---- one run: enumerate, skip, audit, store ------------------------------------


@dataclass(slots=True)
class RunSummary:
    """Counts of one run, kept as it goes (the results themselves are not kept)."""

    inputs: int = 0
    skipped: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    findings: dict[str, int] = field(default_factory=lambda: {"error": 0, "warning": 0, "info": 0})
    seconds: float = 0.0
    # The inputs skipped because the store holds them: their stored audits are part
    # of the run's output and verdict.
    skipped_keys: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "schema": "mjaudit.run/1",
            "inputs": self.inputs,
            "skipped": self.skipped,
            "status": dict(sorted(self.by_status.items())),
            "findings": dict(self.findings),
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        status = ", ".join(f"{n} {s}" for s, n in sorted(self.by_status.items())) or "none"
        f = self.findings
        return (
            f"audited {self.inputs} inputs ({status}), skipped {self.skipped} already in "
            f"the store, in {self.seconds:.1f} s: {f['error']} errors, {f['warning']} "
            f"warnings, {f['info']} notes"
        )

    def add(self, o: Outcome) -> None:
        self.inputs += 1
        self.by_status[o.status] = self.by_status.get(o.status, 0) + 1
        if o.audit is not None:
            for f in o.audit.findings:
                self.findings[f.severity.value] += 1


class _Progress:
    """``1234 inputs, 56.7/s`` redrawn on stderr, at most ten times a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.count = 0
        self.start = self.last = time.monotonic()

    def update(self, n: int) -> None:
        self.count += n
        now = time.monotonic()
        if now - self.last >= 0.1:
            self.last = now
            rate = self.count / max(now - self.start, 1e-9)
            self.stream.write(f"\rmjaudit: {self.count} inputs, {rate:.1f}/s ")
            self.stream.flush()

    def close(self) -> None:
        self.last = 0.0
        self.update(0)
        self.stream.write("\n")
        self.stream.flush()


def audit_many(
    paths: Iterable[str],
    opts: BatchOptions = BatchOptions(),
    *,
    jobs: int = 1,
    batch_size: int = 16,
    shard: Shard | None = None,
    store: str | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    make_executor: Callable[[], Executor] | None = None,
    window: int | None = None,
    progress: bool | None = None,
    summary: RunSummary | None = None,
    lock_wait: float | None = None,
    leave_out: Collection[FileId] = frozenset(),
) -> Iterator[Outcome]:
    """Audit every log under ``paths``; outcomes come in input order.

    With ``store``, inputs the store already holds are skipped (they are counted
    in ``summary.skipped``) and each batch is recorded as it finishes. Without
    ``make_executor``, ``jobs > 1`` uses a local process pool (``jobs == 0``: one
    worker per CPU when there is more than one batch, else this process), and ``executor``
    ``dask`` a Dask cluster at ``scheduler`` (an address, a scheduler file, or
    ``local`` for a LocalCluster of ``jobs`` workers). ``lock_wait`` bounds the wait
    for another writer's lock on the store (``analyzer.runs.store_guard``).
    Folders are walked without the store's own folder, nor what is in ``leave_out``
    (``parsers.containers.file_ids``: the command's output, when it is a file).
    """
    if jobs == 0 and (executor == "dask" or make_executor is not None):
        jobs = available_cpus()
    if executor == "dask" and make_executor is None:
        from analyzer.runs.dask_exec import dask_executor

        with dask_executor(scheduler or "local", jobs) as (make, threads):
            yield from audit_many(
                paths, opts, jobs=threads, batch_size=batch_size, shard=shard, store=store,
                make_executor=make, window=window, progress=progress, summary=summary,
                lock_wait=lock_wait, leave_out=leave_out,
            )  # fmt: skip
        return
    summary = summary if summary is not None else RunSummary()
    started = time.monotonic()
    writer: Store | None = None
    if store is not None:
        from analyzer.runs.store import Store

        writer = Store(store) if lock_wait is None else Store(store, lock_wait=lock_wait)
        # Made by now: a store kept in the folder it audits is not one of its inputs.
        leave_out = file_ids([store]) | set(leave_out)

    def want(loc: Locator) -> bool:
        if shard is not None and not shard.holds(loc):
            return False
        if writer is not None and writer.seen(loc.key):
            summary.skipped += 1
            summary.skipped_keys.append(loc.key)
            return False
        return True

    batches: Iterator[list[Locator]] = _chunks(
        iter_locators(paths, opts.selection, want, opts.max_input_size, leave_out),
        batch_size,
        opts.max_input_size,
    )
    if jobs == 0:
        # Automatic: a pool of one worker per CPU, but only when there is more than
        # one batch to share out; a few files are done before a pool would start.
        first = list(islice(batches, 2))
        jobs = available_cpus() if len(first) > 1 else 1
        batches = chain(first, batches)
    if make_executor is None and jobs > 1:
        make_executor = process_pool(jobs)
    opts = _with_store(opts, writer, make_executor)
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(sys.stderr) if show else None
    try:
        results = run_batches(batches, opts, make_executor, window or 4 * max(jobs, 1))
        for result in results:
            if writer is not None:
                for part in result.parts:
                    writer.ingest_part(part)
                if not result.parts:
                    writer.add([o.record for o in result.outcomes])
            if bar is not None:
                bar.update(len(result.outcomes))
            for o in result.outcomes:
                summary.add(o)
                yield o
    finally:
        summary.seconds = time.monotonic() - started
        if bar is not None:
            bar.close()
        if writer is not None:
            failed = sum(summary.by_status.get(s, 0) for s in ("error", "timeout", "crashed"))
            try:
                writer.record_run(time.strftime("%Y-%m-%dT%H:%M:%S"), summary.inputs,
                                  summary.skipped, failed)  # fmt: skip
            finally:
                writer.close()


def _with_store(
    opts: BatchOptions, writer: Store | None, make_executor: Callable[[], Executor] | None
) -> BatchOptions:
    if writer is None:
        return opts
    from dataclasses import replace

    root = str(writer.root.resolve())
    # Workers write their own part files beside the store, in a folder of this run's.
    part_dir = str(writer.run_dir) if make_executor is not None else None
    return replace(opts, store=root, part_dir=part_dir)
