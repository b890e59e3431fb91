"""Seeded mutation fuzzing of logs: the mutations, the corpus and one case's outcome.

Shared by the fuzz test (tests/test_fuzz.py, a bounded number of cases) and the
long run (benchmarks/fuzz.py). A case is (source log, seed): the seed picks one
mutation and everything it does, so any case can be replayed from its name.

A case passes when the library either reads the mutated log and audits it, or
refuses it with the project's own error (:class:`mjaudit.errors.MjauditError`);
any other exception is an internal error, the bug the fuzzer hunts.
"""

from __future__ import annotations

import random
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

__all__ = [
    "MUTATIONS",
    "Case",
    "Outcome",
    "Result",
    "corpus_sources",
    "cases",
    "format_of",
    "mutate",
    "run_case",
]

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "sample_logs"

# Values out of range for any number of a log: negative, huge, not a number,
# digits that str.isdigit() accepts and int() does not (or does: fullwidth).
ODD_NUMBERS = (
    "-1",
    "-4096",
    "136",
    "4096",
    "65536",
    "2147483648",
    "99999999999999999999",
    "9" * 4301,
    "",
    "x",
    "1.5",
    "1e9",
    "\u2074",  # superscript four
    "\uff14",  # fullwidth four
    "\u0664",  # Arabic-Indic four
    " 4",
    "4_0",
    "0x10",
    "NaN",
)
_XML_ELEMENT = re.compile(rb"<[^<>]*>")
_XML_ATTR = re.compile(rb'([A-Za-z0-9_]+)="([^"]*)"')
_JSON_NUMBER = re.compile(rb"-?[0-9]+")
_JSON_STRING = re.compile(rb'"[^"\\\n]{0,12}"')


class Outcome(Enum):
    """What the library made of one mutated log."""

    UNREADABLE = "unreadable"  # refused with a clean MjauditError
    CLEAN = "clean"  # audited, no error finding
    FINDINGS = "findings"  # audited, at least one error finding
    INTERNAL = "internal"  # any other exception: a bug


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzz case: a source log, the mutated bytes and how they were made."""

    source: Path
    fmt: str
    seed: int
    mutation: str
    data: bytes

    @property
    def name(self) -> str:
        return f"{self.fmt}:{self.source.name}:{self.seed}:{self.mutation}"


@dataclass(frozen=True, slots=True)
class Result:
    case: Case
    outcome: Outcome
    detail: str = ""


# -- mutations -------------------------------------------------------------------
Mutation = Callable[[bytes, random.Random, str], bytes]


def _units(data: bytes, fmt: str) -> list[tuple[int, int]]:
    """Spans of the log's units: XML elements, JSON lines (mjai) or JSON numbers."""
    if fmt == "tenhou-xml":
        return [m.span() for m in _XML_ELEMENT.finditer(data)]
    if fmt == "mjai":
        spans, start = [], 0
        for line in data.split(b"\n"):
            spans.append((start, start + len(line)))
            start += len(line) + 1
        return [s for s in spans if s[1] > s[0]]
    # Tenhou JSON: the items of its arrays are numbers and strings.
    found = [m.span() for m in _JSON_NUMBER.finditer(data)]
    found += [m.span() for m in _JSON_STRING.finditer(data)]
    return sorted(found)


def _byte_flip(data: bytes, rng: random.Random, fmt: str) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if out:
            k = rng.randrange(len(out))
            out[k] ^= 1 << rng.randrange(8)
    return bytes(out)


def _byte_set(data: bytes, rng: random.Random, fmt: str) -> bytes:
    out = bytearray(data)
    if out:
        out[rng.randrange(len(out))] = rng.choice(b'\x00"<>{}[],:0123456789-\xff\x80')
    return bytes(out)


def _truncate(data: bytes, rng: random.Random, fmt: str) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _delete_unit(data: bytes, rng: random.Random, fmt: str) -> bytes:
    units = _units(data, fmt)
    if not units:
        return data
    a, b = rng.choice(units)
    return data[:a] + data[b:]


def _duplicate_unit(data: bytes, rng: random.Random, fmt: str) -> bytes:
    units = _units(data, fmt)
    if not units:
        return data
    a, b = rng.choice(units)
    sep = b"\n" if fmt == "mjai" else b"," if fmt == "tenhou-json" else b""
    return data[:b] + sep + data[a:b] + data[b:]


def _swap_units(data: bytes, rng: random.Random, fmt: str) -> bytes:
    units = _units(data, fmt)
    if len(units) < 2:
        return data
    i = rng.randrange(len(units) - 1)
    j = i + 1 if rng.random() < 0.7 else rng.randrange(i + 1, len(units))
    (a, b), (c, d) = units[i], units[j]
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:]


def _odd_value(data: bytes, rng: random.Random, fmt: str) -> bytes:
    """One value out of range: an attribute (XML) or a number (JSON) made odd."""
    value = rng.choice(ODD_NUMBERS).encode()
    if fmt == "tenhou-xml":
        attrs = list(_XML_ATTR.finditer(data))
        if attrs:
            m = rng.choice(attrs)
            old = m.group(2).split(b",")
            if rng.random() < 0.5 and len(old) > 1:
                old[rng.randrange(len(old))] = value
                value = b",".join(old)
            elif rng.random() < 0.3:
                value = b""  # an attribute present but empty
            return data[: m.start(2)] + value + data[m.end(2) :]
        return data
    numbers = [m.span() for m in _JSON_NUMBER.finditer(data)]
    if not numbers:
        return data
    a, b = rng.choice(numbers)
    if not value.lstrip(b"-").isdigit() or value.startswith(b"0x"):
        value = b'"' + value + b'"'  # still JSON: a string where a number was
    return data[:a] + value + data[b:]


def _odd_tag(data: bytes, rng: random.Random, fmt: str) -> bytes:
    """XML: a draw or discard tag with an odd number; JSON: a value of another type."""
    if fmt == "tenhou-xml":
        tags = [m for m in re.finditer(rb"<([TUVWDEFG])([0-9]+)/>", data)]
        if not tags:
            return data
        m = rng.choice(tags)
        number = rng.choice(("\u2074", "\uff14", "136", "999999999", "0" * 5000, "-1", "1a"))
        return data[: m.start(2)] + number.encode() + data[m.end(2) :]
    units = _units(data, fmt) if fmt == "tenhou-json" else [
        m.span() for m in re.finditer(rb'"[a-z_]+":\s*("[^"]*"|-?[0-9]+|\[[^\[\]]*\])', data)
    ]
    if not units:
        return data
    a, b = rng.choice(units)
    if fmt == "mjai":
        colon = data.index(b":", a) + 1
        a = colon
    other = rng.choice((b"null", b"true", b"[]", b"{}", b'"?"', b"[[[1]]]", b"-1", b"1e400"))
    return data[:a] + other + data[b:]


def _deep_nesting(data: bytes, rng: random.Random, fmt: str) -> bytes:
    """A value replaced by very deeply nested arrays (JSON) or elements (XML)."""
    depth = rng.choice((50, 1000, 100_000))
    if fmt == "tenhou-xml":
        units = _units(data, fmt)
        if not units:
            return data
        a, _ = rng.choice(units[1:] or units)
        return data[:a] + b"<N>" * depth + b"</N>" * depth + data[a:]
    numbers = [m.span() for m in _JSON_NUMBER.finditer(data)]
    if not numbers:
        return data
    a, b = rng.choice(numbers)
    return data[:a] + b"[" * depth + b"]" * depth + data[b:]


MUTATIONS: dict[str, Mutation] = {
    "byte-flip": _byte_flip,
    "byte-set": _byte_set,
    "truncate": _truncate,
    "delete": _delete_unit,
    "duplicate": _duplicate_unit,
    "swap": _swap_units,
    "odd-value": _odd_value,
    "odd-tag": _odd_tag,
    "deep": _deep_nesting,
}
# How often each is picked: the structure-aware ones find the most.
_WEIGHTS = {
    "byte-flip": 2,
    "byte-set": 1,
    "truncate": 1,
    "delete": 3,
    "duplicate": 2,
    "swap": 3,
    "odd-value": 5,
    "odd-tag": 2,
    "deep": 1,
}


def mutate(data: bytes, fmt: str, seed: int) -> tuple[str, bytes]:
    """The mutation ``seed`` picks and the bytes it makes of ``data``."""
    rng = random.Random(seed)
    names = list(_WEIGHTS)
    name = rng.choices(names, [_WEIGHTS[n] for n in names])[0]
    out = MUTATIONS[name](data, rng, fmt)
    if rng.random() < 0.15:  # now and then a second mutation on top
        second = rng.choices(names, [_WEIGHTS[n] for n in names])[0]
        out = MUTATIONS[second](out, rng, fmt)
        name = f"{name}+{second}"
    return name, out


# -- sources ---------------------------------------------------------------------
def format_of(path: Path) -> str:
    """The format of a source log, from where it lives and its suffix."""
    if path.suffix == ".xml":
        return "tenhou-xml"
    if path.suffix == ".jsonl":
        return "mjai"
    return "tenhou-json"


# The corpus folders of logs mjaudit reads (Mahjong Soul's own records it does not).
_CORPUS_FOLDERS = ("tenhou-xml", "tenhou-json", "mahjongsoul/tenhou-json", "mjai")


def corpus_sources() -> dict[str, list[Path]]:
    """Source logs by format: the corpus (when present) and the project's samples."""
    found: dict[str, list[Path]] = {"tenhou-xml": [], "tenhou-json": [], "mjai": []}
    for path in sorted(SAMPLES.glob("*.xml")):
        found["tenhou-xml"].append(path)
    for folder in _CORPUS_FOLDERS:
        if (CORPUS / folder).is_dir():
            for path in sorted((CORPUS / folder).rglob("*")):
                if path.is_file() and path.suffix in (".xml", ".json", ".jsonl"):
                    found[format_of(path)].append(path)
    return found


def cases(count: int, seed: int, formats: tuple[str, ...] | None = None) -> Iterator[Case]:
    """``count`` cases, spread evenly over the formats that have sources."""
    sources = corpus_sources()
    fmts = [f for f in (formats or tuple(sources)) if sources.get(f)]
    if not fmts:
        return
    rng = random.Random(seed)
    cache: dict[Path, bytes] = {}
    for k in range(count):
        fmt = fmts[k % len(fmts)]
        source = rng.choice(sources[fmt])
        data = cache.get(source)
        if data is None:
            data = cache[source] = source.read_bytes()
        case_seed = rng.randrange(2**32)
        name, out = mutate(data, fmt, case_seed)
        yield Case(source, fmt, case_seed, name, out)


# -- one case --------------------------------------------------------------------
def run_case(case: Case, render: bool = True) -> Result:
    """Load, audit, render and convert one mutated log in this process."""
    from analyzer.audit import audit_log, resolve_rules
    from mjaudit.errors import MjauditError
    from mjaudit.events import RoundStart
    from parsers import load_bytes
    from parsers.convert import convert_log
    from reports.replay_text import render_round
    from reports.wall_text import render_round_wall

    path = f"fuzz/{case.source.name}"
    try:
        try:
            log = load_bytes(case.data, path)
            rules = resolve_rules(log, "auto")
        except MjauditError as exc:
            text = str(exc)
            if "\n" in text or "internal error" in text:
                return Result(case, Outcome.INTERNAL, f"not one clean line: {text!r}")
            return Result(case, Outcome.UNREADABLE, text)
        audit = audit_log(log, rules)
        if audit.error is not None:
            return Result(case, Outcome.INTERNAL, f"audit error: {audit.error}")
        if render:
            rounds = sum(1 for ev in log.events if isinstance(ev, RoundStart))
            for round_no in {0, rounds - 1} if rounds else set():
                render_round(log, rules, round_no, round_no % 4)
                render_round_wall(log, rules, round_no)
            for to in ("mjai", "tenhou-json", "tenhou-xml"):
                try:
                    convert_log(log, to)
                except MjauditError:
                    pass
    except Exception:  # noqa: BLE001 - the very thing the fuzzer looks for
        return Result(case, Outcome.INTERNAL, traceback.format_exc(limit=-6))
    errors = [f for f in audit.findings if f.severity.value == "error"]
    return Result(case, Outcome.FINDINGS if errors else Outcome.CLEAN)
