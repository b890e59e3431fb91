"""``mjaudit cases`` and ``score --batch``: conformance cases written, scored and checked.

``export_cases`` writes one case per win the audit derived (analyzer.checks.cases),
``score_batch`` answers a case file with mjaudit's own scorer
(analyzer.checks.case_scoring), ``check_answers`` compares a scorer's answers with
the cases (analyzer.checks.case_compare) and the ``render_*`` functions write the
result as text, JSON or JUnit. A case or answer file is read line by line, each line
bounded (MAX_LINE), gzip and bz2 undone, a device or a FIFO refused; a bad line of it
is one message naming the file and the line (past MAX_LISTED of them, a count); the
other lines are still used.
"""

from __future__ import annotations

import bz2
import gzip
import json
import os
import re
import sys
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from json.scanner import make_scanner
from typing import IO, Protocol, cast

from analyzer.checks.case_compare import (
    KINDS,
    Comparison,
    Disagreement,
    answer_problem,
    compare_all,
    example,
)
from analyzer.checks.case_scoring import CaseError, answer_line
from analyzer.checks.cases import CASE_SCHEMA, yaku_name
from mjaudit.errors import MjauditError, did_you_mean
from mjaudit.events import Limit
from mjaudit.findings import JsonValue
from mjaudit.yaku import Yaku
from reports.safe_text import json_safe, one_line, printable, xml_attr, xml_text

# The audit, the parsers and the containers are imported by export_cases alone (and
# parsers.sources when a case or answer file is opened): score --batch and cases check
# start without them, and their workers never import them.

__all__ = [
    "CHECK_SCHEMA",
    "CasesInputError",
    "CheckResult",
    "ExportSummary",
    "check_answers",
    "export_cases",
    "parse_filter",
    "render_check_json",
    "render_check_junit",
    "render_check_text",
    "score_batch",
]

CHECK_SCHEMA = "mjaudit.cases-check/1"
Doc = dict[str, JsonValue]
CaseFilter = Callable[[Doc], bool]


class CasesInputError(MjauditError):
    """A case or answer file that cannot be read at all (missing, a folder, ...)."""


# -- reading JSON lines --------------------------------------------------------------


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


# json.loads takes NaN and Infinity, and an integer of more than Python's limit of
# digits escapes it as a plain ValueError: each is a bad line here, named.
# The decoder's own scanner (C), called directly. (typeshed has make_scanner take a
# make_scanner: what it takes is the decoder whose settings it reads.)
_scan = make_scanner(json.JSONDecoder(parse_constant=_not_a_number))  # type: ignore[arg-type]
# JSON's whitespace, as json.decoder skips it (a match always: it may be empty).
_space = cast(Callable[[str, int], re.Match[str]], re.compile(r"[ \t\n\r]*").match)


def _decode(text: str) -> JsonValue:
    """The JSON value of ``text``, as ``JSONDecoder.decode`` reads it (the same value,
    the same errors), its scanner called directly: two Python calls fewer a line."""
    try:
        value, end = _scan(text, _space(text, 0).end())
    except StopIteration as err:
        raise json.JSONDecodeError("Expecting value", text, err.value) from None
    end = _space(text, end).end()
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return cast(JsonValue, value)


# -- a case line, its rules decoded once ------------------------------------------
#
# The cases of a file share a few rules objects, the same text line after line: a
# quarter of each line's decoding. A case line is decoded with the text of a rules
# object met before replaced by a stand-in, and the value decoded from that text put
# back. The stand-in is ``NaN``, which no line may hold (_not_a_number), decoded by a
# scanner of its own into _STAND_IN and counted. The value is put back only when the
# replaced text followed ``"rules":`` (so it stood where a value does), the line so
# changed decoded, exactly one stand-in was decoded and it is the line's own ``rules``:
# then the line, with that text in place, decodes to the same document (a JSON value
# ends where its text ends, whatever follows it). Otherwise the line is decoded whole
# (_decode), for its document or for its error as said of the line itself.

_RULES_AT = cast(
    Callable[[str], "re.Match[str] | None"],
    re.compile(r'"rules"[ \t\n\r]*:[ \t\n\r]*').search,
)
_RULES_KEY = '"rules": '  # _RULES_AT's most usual match
_STAND_IN_TEXT = "NaN"
_STAND_IN: JsonValue = cast(JsonValue, object())  # what _stand_in decodes NaN into


class _StandIns(threading.local):
    """The stand-ins decoded in the line being read, one list a thread (a count
    shared by two threads reading at once could pass a line it should not)."""

    def __init__(self) -> None:
        self.found: list[str] = []


_stand_ins = _StandIns()
# The rules objects met: their text and value, the latest first; at most _RULES_KEPT.
_RULES_MET: list[tuple[str, JsonValue]] = []
_RULES_KEPT = 8


def _stand_in(name: str) -> JsonValue:
    if name != _STAND_IN_TEXT:
        _not_a_number(name)
    _stand_ins.found.append(name)
    return _STAND_IN


_scan_spliced = make_scanner(json.JSONDecoder(parse_constant=_stand_in))  # type: ignore[arg-type]


def _decode_case(text: str) -> JsonValue:
    """The JSON value of the case line ``text``: what _decode gives (the same value, the
    same errors), a rules object met on an earlier line not decoded again."""
    at = text.find(_RULES_KEY) + len(_RULES_KEY)  # as a case is written: at once
    if at < len(_RULES_KEY):
        found = _RULES_AT(text)
        if found is None:
            return _decode(text)
        at = found.end()
    for known, value in _RULES_MET:
        if text.startswith(known, at):
            spliced = _spliced(f"{text[:at]}{_STAND_IN_TEXT}{text[at + len(known) :]}")
            if spliced is not None:
                spliced["rules"] = value
                return spliced
            break
    doc = _decode(text)
    if type(doc) is dict and type(doc.get("rules")) is dict:
        _learn_rules(text, at, doc)
    return doc


def _spliced(text: str) -> dict[str, JsonValue] | None:
    """The document of a line whose rules were replaced by the stand-in, if its
    ``rules`` is that stand-in and the only one; None otherwise."""
    found = _stand_ins.found
    found.clear()
    try:
        value, end = _scan_spliced(text, _space(text, 0).end())
    except (StopIteration, ValueError, RecursionError):
        return None
    if _space(text, end).end() != len(text) or len(found) != 1:
        return None
    if type(value) is not dict or value.get("rules") is not _STAND_IN:
        return None
    return cast(dict[str, JsonValue], value)


def _learn_rules(text: str, at: int, doc: dict[str, JsonValue]) -> None:
    """Keep the text at ``at`` if it is that of the line's rules (the first
    ``"rules":`` of a line may be another's)."""
    try:
        value, end = _scan(text, at)
    except (StopIteration, ValueError, RecursionError):
        return
    known = text[at:end]
    if value != doc["rules"] or any(known == k for k, _ in _RULES_MET):
        return
    _RULES_MET.insert(0, (known, doc["rules"]))
    del _RULES_MET[_RULES_KEPT:]


def _too_long(exc: ValueError) -> str:
    if "integer string conversion" in str(exc):
        return f"a number of more than {sys.get_int_max_str_digits()} digits"
    return str(exc)


#: The longest line of a case or answer file: a case is about 2 KB (2.5 KB the longest
#: of the Tenhou corpus), so a line of more than this is not one and is refused, not
#: decoded.
MAX_LINE = 1 << 20

#: The most of one overlong line passed over before the file is given up.
MAX_SKIPPED = 64 << 20

#: Bad lines of one file said one by one; those past them are counted on one line.
MAX_LISTED = 20


class _Problems(Protocol):
    """Where bad lines go: a list, or a file's :class:`_BadLines`."""

    def append(self, message: str, /) -> None: ...


@dataclass(slots=True)
class _BadLines:
    """The bad lines of one file, into ``out``: the first MAX_LISTED said, the rest
    counted, so that a file that is not cases at all is not a message a line (nor a
    list that grows with it)."""

    name: str
    out: list[str]
    said: int = 0
    more: int = 0

    def append(self, message: str, /) -> None:
        if self.said < MAX_LISTED:
            self.out.append(message)
            self.said += 1
        else:
            self.more += 1

    def last(self, message: str) -> None:
        """A line said whatever the count: the file is read no further."""
        self.close()
        self.out.append(message)

    def close(self) -> None:
        if self.more:
            self.out.append(
                f"{self.name}: {self.more} more bad line{'s' if self.more != 1 else ''}, "
                f"not listed (the first {MAX_LISTED} are)"
            )
            self.more = 0


def _open_stream(name: str) -> IO[bytes]:
    """A case or answer file (``-``: stdin) open for reading, gzip and bz2 undone as
    the audit undoes them. A device, a FIFO or a folder named is refused by its type
    (parsers.sources.regular_file_problem): ``/dev/zero`` was read without end. An
    archive is refused: the cases are its members."""
    from parsers.sources import ZIP_MAGIC, regular_file_problem

    if name == "-":
        raw: IO[bytes] = sys.stdin.buffer
    else:
        try:
            problem = regular_file_problem(os.stat(name).st_mode)
            if problem is not None:
                raise CasesInputError(f"{name}: {problem}")
            raw = open(name, "rb")  # noqa: SIM115 (closed by _raw_lines)
        except OSError as exc:
            raise CasesInputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    peek = getattr(raw, "peek", None)
    head = peek(4)[:4] if peek is not None else b""
    if head.startswith(ZIP_MAGIC):
        raise CasesInputError(
            f"{name}: a zip archive, not JSON lines: give the case or answer file itself "
            "(plain, gzip or bz2)"
        )
    if head.startswith(b"\x1f\x8b"):
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
    if head.startswith(b"BZh"):
        return cast(IO[bytes], bz2.BZ2File(raw, mode="rb"))
    return raw


def _raw_lines(name: str, cut: list[str]) -> Iterator[tuple[int, bytes]]:
    """Each non-blank line of ``name`` (``-``: stdin; plain, gzip or bz2) with its
    number, undecoded, read as it comes (a file of any length, in bounded memory); a
    line longer than MAX_LINE is given cut at MAX_LINE + 1 bytes, for
    :func:`_decoded` to refuse, and the rest of it is passed over. CasesInputError
    for a file that cannot be read, raised at once; a file that can be read no
    further after some lines (a compressed file cut short) ends there, with the
    message for it in ``cut``."""
    stream = _open_stream(name)
    return _lines_of(name, stream, cut)


def _skip_line(name: str, number: int, stream: IO[bytes]) -> None:
    """Pass over the rest of a line longer than MAX_LINE; one of more than
    MAX_SKIPPED bytes (an endless stream with no line end) ends the reading."""
    skipped = 0
    while skipped <= MAX_SKIPPED:
        rest = stream.readline(MAX_LINE)
        if not rest or rest.endswith(b"\n"):
            return
        skipped += len(rest)
    raise CasesInputError(
        f"{name} (line {number}): longer than {MAX_SKIPPED >> 20} MiB with no line end: "
        "not JSON lines; read no further"
    )


def _lines_of(name: str, stream: IO[bytes], cut: list[str]) -> Iterator[tuple[int, bytes]]:
    number = 0
    try:
        while True:
            raw = stream.readline(MAX_LINE + 1)
            if not raw:
                return
            number += 1
            nul = raw.find(b"\x00") if number == 1 else -1
            if nul >= 0:
                # JSON text holds no NUL byte (RFC 8259): on the first line, a file that
                # is not text (a program, a tar, UTF-16), refused whole; further on,
                # that line's problem (a file cut short ends in zeros).
                raise CasesInputError(
                    f"{name} (line 1): not text (a NUL byte at column {nul + 1}): cases "
                    "and answers are JSON lines in UTF-8"
                )
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                _skip_line(name, number, stream)
            if raw.strip():
                yield number, raw
    except (OSError, EOFError, zlib.error) as exc:  # a compressed file cut short
        said = f"{name} (line {number + 1}): cannot read: {exc}"
        if not number:
            raise CasesInputError(said) from None
        # The lines before are kept, as those of a plain file cut mid-line are.
        cut.append(f"{said}; the lines before it were read, the rest of the file was not")
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _decoded(
    name: str,
    lines: Iterable[tuple[int, bytes]],
    problems: _Problems,
    decode: Callable[[str], JsonValue] = _decode,
) -> Iterator[tuple[int, JsonValue]]:
    """The JSON value of each line with its number (``decode`` of its text); a line
    that is not JSON is a problem ``name (line N): ...`` and skipped."""
    for number, raw in lines:
        if len(raw) > MAX_LINE:
            problems.append(
                f"{name} (line {number}): longer than {MAX_LINE >> 20} MiB, the most a case "
                "or answer line may be"
            )
            continue
        try:
            yield number, decode(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
        except UnicodeDecodeError:
            problems.append(f"{name} (line {number}): not UTF-8 text")
        except json.JSONDecodeError as exc:
            nul = raw.find(b"\x00")  # a file cut short by a crash ends in zeros
            what = (
                f"not text: a NUL byte at column {nul + 1}"
                if nul >= 0
                else f"not JSON: {exc.msg} at column {exc.colno}"
            )
            problems.append(f"{name} (line {number}): {what}")
        except RecursionError:
            problems.append(f"{name} (line {number}): not JSON: nested too deeply")
        except ValueError as exc:  # NaN or Infinity, or an integer too long to read
            problems.append(f"{name} (line {number}): not JSON: {_too_long(exc)}")


def _json_lines(name: str, problems: _BadLines) -> Iterator[tuple[int, JsonValue]]:
    """The JSON value of each non-blank line of ``name`` (``-``: stdin) with its
    number; a line that is not JSON is a problem ``name (line N): ...`` and skipped,
    as is the end of a file cut short, once its lines are read."""
    cut: list[str] = []
    yield from _decoded(name, _raw_lines(name, cut), problems)
    for message in cut:
        problems.last(message)


# -- export -------------------------------------------------------------------------


_FILTER = re.compile(r"\s*(yaku|limit|han|rules)\s*(>=|<=|=|>|<)\s*(\S.*?)\s*")
_OPS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda a, b: a == b,
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
}


# A yaku's label (``seat wind E``) to its schema name (``seat_wind_east``).
_YAKU_BY_LABEL = {y.label: yaku_name(y) for y in Yaku}
# The names a result's yaku list can hold (dora, red fives and ura are counted apart)
# and its limits: a filter naming anything else would keep no case, so it is refused.
_YAKU_NAMES = frozenset(
    yaku_name(y) for y in Yaku if y not in (Yaku.DORA, Yaku.AKA_DORA, Yaku.URA_DORA)
)
_LIMIT_NAMES = frozenset(limit.name.lower() for limit in Limit)


def _unknown(what: str, name: str, known: Iterable[str]) -> str:
    return f"no {what} is called {name!r}{did_you_mean(name, list(known))}"


def parse_filter(spec: str) -> CaseFilter:
    """``yaku=pinfu``, ``limit=mangan``, ``han>=5``, ``rules=tenhou-sanma``: a test on a
    case's expected result or its rules' name; ValueError for anything else."""
    m = _FILTER.fullmatch(spec)
    if m is None:
        raise ValueError(
            f"--filter {spec!r}: expected yaku=NAME, limit=NAME, han=N (or >=, <=, >, <) "
            "or rules=NAME"
        )
    key, op, value = m[1], m[2], m[3]
    if key == "han":
        if not value.isdigit():
            raise ValueError(f"--filter {spec!r}: han is compared with a number")
        want, test = int(value), _OPS[op]
        return lambda case: test(_expected(case).get("han"), want)  # type: ignore[arg-type]
    if op != "=":
        raise ValueError(f"--filter {spec!r}: {key} is compared with =")
    if key == "yaku":
        name = _YAKU_BY_LABEL.get(value, value.lower().replace(" ", "_"))
        if name in ("dora", "aka_dora", "ura_dora"):
            raise ValueError(
                f"--filter {spec!r}: no yaku is called {name!r}: dora, red fives and ura "
                "are counted apart, not listed as yaku"
            )
        if name not in _YAKU_NAMES:
            raise ValueError(f"--filter {spec!r}: {_unknown('yaku', name, _YAKU_NAMES)}")
        return lambda case: any(
            isinstance(y, dict) and y.get("name") == name for y in _list(_expected(case), "yaku")
        )
    if key == "limit":
        limit = value.lower()
        if limit not in _LIMIT_NAMES:
            raise ValueError(f"--filter {spec!r}: {_unknown('limit', limit, _LIMIT_NAMES)}")
        return lambda case: _expected(case).get("limit") == limit
    return lambda case: _object(case, "rules").get("name") == value


def _object(doc: Mapping[str, JsonValue], key: str) -> dict[str, JsonValue]:
    value = doc.get(key)
    return value if isinstance(value, dict) else {}


def _list(doc: Mapping[str, JsonValue], key: str) -> list[JsonValue]:
    value = doc.get(key)
    return value if isinstance(value, list) else []


def _expected(case: Doc) -> dict[str, JsonValue]:
    return _object(case, "expected")


def _situation_key(case: Doc) -> str:
    """What makes two cases the same scoring situation: the hand, the situation and
    the rules (not where they come from, nor what the log said of them)."""
    return json.dumps([case["hand"], case["situation"], case["rules"]], sort_keys=True)


@dataclass(slots=True)
class ExportSummary:
    """What an export read and wrote; ``failed`` holds one message per unreadable input."""

    games: int = 0
    cases: int = 0
    filtered: int = 0
    duplicates: int = 0
    failed: list[str] = field(default_factory=list)


def export_cases(
    paths: Iterable[str],
    out: Writer,
    filters: Sequence[CaseFilter] = (),
    dedupe: bool = False,
    rules: str = "auto",
    max_input_size: int = 64 * 1024 * 1024,  # parsers.sources.DEFAULT_MAX_INPUT
    target: str | None = None,
) -> ExportSummary:
    """Audit every log under ``paths`` and write one case per win to ``out`` (which
    becomes the file ``target``, if given: left out of the folders read, as ``out``)."""
    from analyzer.checks.audit import audit_log, resolve_rules
    from analyzer.checks.cases import cases_of
    from mjaudit.events import Win
    from parsers.containers import failure, file_ids, iter_locators, read_locator
    from parsers.sources import load_bytes

    summary = ExportSummary()
    seen_situations: set[str] = set()
    seen_ids: dict[str, int] = {}
    # The cases file may sit in a folder it reads: it is not one of its inputs.
    own = file_ids([target], streams=[out])
    for loc in iter_locators(paths, max_size=max_input_size, leave_out=own):
        if loc.error:
            summary.failed.append(loc.error)
            continue
        step = "reading"
        try:
            data = read_locator(loc, max_input_size)
            step = "parsing"
            log = load_bytes(data, loc.name)
            del data
            step = "auditing"
            ruleset = resolve_rules(log, rules)
            audit = audit_log(log, ruleset, keep_replay=True, review=False)
            sources = {k: ev.pos.where for k, ev in enumerate(log.events) if isinstance(ev, Win)}
            found = list(cases_of(audit, ruleset, sources))
        except Exception as exc:  # one input's failure, named; the others go on
            summary.failed.append(failure(loc.name, step, exc))
            continue
        summary.games += 1
        for case in found:
            if not all(keep(case) for keep in filters):
                summary.filtered += 1
                continue
            if dedupe:
                key = _situation_key(case)
                if key in seen_situations:
                    summary.duplicates += 1
                    continue
                seen_situations.add(key)
            case_id = str(case["id"])
            n = seen_ids.get(case_id, 0) + 1
            seen_ids[case_id] = n
            if n > 1:  # the same game read twice (a log and its conversion)
                case["id"] = f"{case_id}#{n}"
            out.write(json_safe(json.dumps(case, ensure_ascii=False)) + "\n")
            summary.cases += 1
    return summary


# -- score --batch ------------------------------------------------------------------


@dataclass(slots=True)
class BatchSummary:
    scored: int = 0
    not_wins: int = 0
    problems: list[str] = field(default_factory=list)


# Cases per task of a worker process, and how many tasks a pool must have to pay.
CHUNK = 256
POOL_THRESHOLD = 8


@dataclass(slots=True)
class _Scored:
    """The answers to a chunk of cases, as text, and what went wrong on its lines."""

    text: str
    scored: int
    not_wins: int
    problems: list[str]


def score_lines(name: str, lines: Sequence[tuple[int, bytes]]) -> _Scored:
    """Score the cases on ``lines`` of file ``name``: one answer line each."""
    problems: list[str] = []
    answers: list[str] = []
    scored = not_wins = 0
    for number, doc in _decoded(name, lines, problems, _decode_case):
        try:
            answer, win = answer_line(doc)
        except CaseError as exc:
            problems.append(f"{name} (line {number}): {exc}")
            continue
        except Exception as exc:  # a bug: this line's problem, named, not the run's
            said = one_line(str(exc))
            problems.append(
                f"{name} (line {number}): internal error while scoring: "
                f"{type(exc).__name__}: {said}"
            )
            continue
        if not win:
            not_wins += 1
        scored += 1
        answers.append(answer)
    return _Scored(json_safe("".join(answers)), scored, not_wins, problems)


class Writer(Protocol):
    """Where answers go: a text stream, or anything with its ``write``."""

    def write(self, text: str, /) -> object: ...


def score_batch(name: str, out: Writer, jobs: int = 1) -> BatchSummary:
    """Score every case of file ``name`` (``-``: stdin; plain, gzip or bz2), one answer
    line each, in the order of the file; ``jobs`` worker processes (0: one per CPU for
    a file of more than POOL_THRESHOLD chunks, else none). CasesInputError for a file
    that cannot be read at all."""
    summary = BatchSummary()
    cut: list[str] = []
    chunks = _chunks(_raw_lines(name, cut))
    first = list(islice(chunks, POOL_THRESHOLD + 1))
    if jobs == 0:
        from analyzer.runs.pool import available_cpus

        jobs = available_cpus() if len(first) > POOL_THRESHOLD else 1
    every = chain(first, chunks)
    done = (score_lines(name, c) for c in every) if jobs <= 1 else _in_workers(name, every, jobs)
    bad = _BadLines(name, summary.problems)
    for part in done:
        out.write(part.text)
        summary.scored += part.scored
        summary.not_wins += part.not_wins
        for problem in part.problems:
            bad.append(problem)
    for message in cut:  # a file cut short: its lines before the cut are scored
        bad.last(message)
    bad.close()
    return summary


def _chunks(lines: Iterator[tuple[int, bytes]]) -> Iterator[list[tuple[int, bytes]]]:
    while chunk := list(islice(lines, CHUNK)):
        yield chunk


def _in_workers(
    name: str, chunks: Iterator[list[tuple[int, bytes]]], jobs: int
) -> Iterator[_Scored]:
    """Chunks scored by a pool of ``jobs`` workers, a few per worker in flight, in order.
    Should the pool break (a worker killed), what it held is scored here."""
    from collections import deque
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from analyzer.runs.pool import process_pool

    pool = process_pool(jobs)()
    pending: deque[tuple[list[tuple[int, bytes]], Future[_Scored]]] = deque()
    try:
        while True:
            while len(pending) < 2 * jobs and (chunk := next(chunks, None)) is not None:
                pending.append((chunk, pool.submit(score_lines, name, chunk)))
            if not pending:
                return
            chunk, future = pending.popleft()
            try:
                yield future.result()
            except BrokenProcessPool:
                yield score_lines(name, chunk)
                for chunk, _ in pending:
                    yield score_lines(name, chunk)
                pending.clear()
                for chunk in chunks:
                    yield score_lines(name, chunk)
                return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# -- cases check --------------------------------------------------------------------


@dataclass(slots=True)
class CheckResult:
    """A check's comparison, the reference it compared with, and the bad lines."""

    comparison: Comparison
    against: str
    problems: list[str] = field(default_factory=list)


def _weight(case: Mapping[str, JsonValue], reference: Mapping[str, JsonValue]) -> tuple[int, int]:
    melds = len(_list(_object(case, "hand"), "melds"))
    han = reference.get("han")
    return melds, han if isinstance(han, int) else 0


def check_answers(cases_path: str, answers_path: str, against: str = "expected") -> CheckResult:
    """Compare the answers with the cases' ``expected`` (or ``recorded``) results.

    Each file is plain, gzip or bz2; CasesInputError for one that cannot be read at
    all."""
    said: list[str] = []
    problems = _BadLines(cases_path, said)
    cases: list[tuple[str, Mapping[str, JsonValue], tuple[int, int]]] = []
    ids: set[str] = set()
    swapped = False
    for number, doc in _json_lines(cases_path, problems):
        where = f"{cases_path} (line {number})"
        if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
            problems.append(f"{where}: a case is a JSON object with a string id")
            continue
        case_id = str(doc["id"])
        reference = doc.get(against)
        if not isinstance(reference, dict):
            if "hand" not in doc and ("result" in doc or "error" in doc):
                # Said once, not once a line: the two files are given the wrong way round.
                problems.last(
                    f"{where}: an answer, not a case: the cases come first "
                    "(cases check CASES ANSWERS); neither file was read further"
                )
                swapped = True
                break
            problems.append(f"{where}: case {case_id} has no {against} object")
            continue
        if case_id in ids:
            problems.append(f"{where}: a second case with the id {case_id}")
            continue
        if doc.get("schema", CASE_SCHEMA) != CASE_SCHEMA:
            problems.append(f"{where}: schema {doc.get('schema')}, this reads {CASE_SCHEMA}")
            continue
        ids.add(case_id)
        cases.append((case_id, reference, _weight(doc, reference)))
    problems.close()
    problems = _BadLines(answers_path, said)
    answers: dict[str, Doc] = {}
    malformed: set[str] = set()
    for number, doc in () if swapped else _json_lines(answers_path, problems):
        where = f"{answers_path} (line {number})"
        if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
            problems.append(f"{where}: an answer is a JSON object with a string id")
            continue
        case_id = str(doc["id"])
        result = doc.get("result")
        if isinstance(result, dict):
            answer = result
        elif isinstance(doc.get("error"), str):
            answer = {"error": doc["error"]}
        elif "hand" in doc and "situation" in doc and "error" not in doc:
            problems.last(
                f"{where}: a case, not an answer: answers are what a scorer writes for the "
                f"cases (mjaudit score --batch {cases_path} writes mjaudit's); the rest of "
                "this file was not read"
            )
            break
        else:
            problems.append(f"{where}: answer {case_id} has neither a result object nor an error")
            continue
        if case_id not in ids:
            problems.append(f"{where}: no case has the id {case_id}")
            continue
        if case_id in answers or case_id in malformed:
            problems.append(f"{where}: a second answer for {case_id}")
            continue
        wrong = answer_problem(answer)
        if wrong is not None:  # not compared: a true is not a 1, nor "riichi" a list
            problems.append(f"{where}: answer {case_id}: {wrong}")
            malformed.add(case_id)
            continue
        answers[case_id] = answer
    problems.close()
    return CheckResult(compare_all(cases, answers), against, said)


def _value(value: JsonValue) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _line(d: Disagreement) -> str:
    if d.kind == "yaku":
        return f"{d.case_id}: the answer lacks {_value(d.expected)}, has {_value(d.actual)} more"
    if d.kind == "missing":
        return f"{d.case_id}: no answer (expected {d.expected})"
    return f"{d.case_id}: expected {_value(d.expected)}, answer {_value(d.actual)}"


def _cases(n: int) -> str:
    return f"{n} case{'s' if n != 1 else ''}"


def render_check_text(check: CheckResult, every: bool = False) -> str:
    """A head line, then each kind of disagreement with its count and its minimal
    example (``every``: every disagreement)."""
    c = check.comparison
    head = (
        f"{_cases(c.cases)}, {c.answered} answered, {len(c.disagreements)} disagreement"
        f"{'s' if len(c.disagreements) != 1 else ''} in {_cases(c.cases_disagreeing)} "
        f"(against {check.against})"
    )
    lines = [head]
    for kind, group in c.by_kind().items():
        lines.append(f"{kind}: {_cases(len(group))}")
        if every:
            lines.extend(f"  {_line(d)}" for d in group)
        else:
            lines.append(f"  e.g. {_line(example(group))}")
    return printable("\n".join(map(one_line, lines)))


def _doc(d: Disagreement) -> Doc:
    return {"id": d.case_id, "expected": d.expected, "actual": d.actual}


def render_check_json(check: CheckResult) -> str:
    """``mjaudit.cases-check/1``: counts, each kind with its example and cases, and
    the bad lines."""
    c = check.comparison
    kinds: Doc = {}
    for kind, group in c.by_kind().items():
        kinds[kind] = {
            "count": len(group),
            "example": _doc(example(group)),
            "disagreements": [_doc(d) for d in group],
        }
    doc: Doc = {
        "schema": CHECK_SCHEMA,
        "against": check.against,
        "cases": c.cases,
        "answered": c.answered,
        "disagreements": len(c.disagreements),
        "cases_disagreeing": c.cases_disagreeing,
        "kinds": kinds,
        "bad_lines": list(check.problems),
    }
    return json_safe(json.dumps(doc, ensure_ascii=False, indent=2))


def render_check_junit(check: CheckResult) -> str:
    """One test case per kind of comparison; a kind with disagreements fails, listing
    them; bad lines are one error test case."""
    groups = check.comparison.by_kind()
    out: list[str] = []
    for kind in KINDS:
        head = f'  <testcase classname="mjaudit.cases" name={xml_attr(kind)}>'
        group = groups.get(kind)
        if not group:
            out.append(f"{head}</testcase>")
            continue
        message = xml_attr(f"{_cases(len(group))}; e.g. {_line(example(group))}")
        text = xml_text("\n".join(_line(d) for d in group))
        out.append(
            f'{head}\n    <failure message={message} type="mjaudit">{text}</failure>\n  </testcase>'
        )
    errors = 0
    if check.problems:
        errors = 1
        message = xml_attr(f"{len(check.problems)} bad lines")
        text = xml_text("\n".join(check.problems))
        out.append(
            '  <testcase classname="mjaudit.cases" name="input">\n'
            f"    <error message={message}>{text}</error>\n  </testcase>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuite name="mjaudit cases check" tests="{len(out)}" failures="{len(groups)}" '
        f'errors="{errors}">\n' + "\n".join(out) + "\n</testsuite>"
    )
