"""Seeded mutation fuzzing of logs: the mutations, the corpus and one case's outcome.

Shared by the fuzz test (tests/test_fuzz.py, a bounded number of cases) and the
long run (benchmarks/fuzz.py). A case is (source log, seed): the seed picks one
mutation and everything it does, so any case can be replayed from its name.

A case passes when the library either reads the mutated log and audits it, or
refuses it with the project's own error (:class:`mjaudit.errors.MjauditError`);
any other exception is an internal error, the bug the fuzzer hunts.
"""

from __future__ import annotations

import contextlib
import random
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

__all__ = [
    "MUTATIONS",
    "TARGETED",
    "Case",
    "Outcome",
    "Result",
    "Targeted",
    "cases",
    "corpus_sources",
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


# The formats whose units are a JSON document's numbers and strings.
_JSON_DOCS = ("tenhou-json", "mahjongsoul")


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
    sep = b"\n" if fmt == "mjai" else b"," if fmt in _JSON_DOCS else b""
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


_MJAI_TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [*"ESWNPFC", "5mr", "5pr", "5sr"]


def _nudge(data: bytes, rng: random.Random, fmt: str) -> bytes:
    """One number or tile changed to another plausible one: the log still reads."""
    if fmt == "mjai" and rng.random() < 0.5:
        fields = re.finditer(rb'"(?:pai|actor|target)":\s*("[^"]*"|[0-9]+)', data)
        found = [m.span(1) for m in fields]
        if not found:
            return data
        a, b = rng.choice(found)
        value = f'"{rng.choice(_MJAI_TILES)}"' if data[a : a + 1] == b'"' else str(rng.randrange(4))
        return data[:a] + value.encode() + data[b:]
    numbers = [m.span() for m in _JSON_NUMBER.finditer(data)]
    if fmt == "tenhou-xml":
        numbers = [
            span
            for m in _XML_ATTR.finditer(data)
            for span in [n.span() for n in _JSON_NUMBER.finditer(data, m.start(2), m.end(2))]
        ] + [m.span(1) for m in re.finditer(rb"<[TUVWDEFG]([0-9]+)/>", data)]
    if not numbers:
        return data
    a, b = rng.choice(numbers)
    old = int(data[a:b])
    if rng.random() < 0.5:  # another number of the same log: a tile code, a score
        c, d = rng.choice(numbers)
        return data[:a] + data[c:d] + data[b:]
    new = rng.choice((old + 1, old - 1, rng.randrange(136), rng.randrange(4), rng.randrange(54)))
    return data[:a] + str(new).encode() + data[b:]


def _odd_tag(data: bytes, rng: random.Random, fmt: str) -> bytes:
    """XML: a draw or discard tag with an odd number; JSON: a value of another type."""
    if fmt == "tenhou-xml":
        tags = [m for m in re.finditer(rb"<([TUVWDEFG])([0-9]+)/>", data)]
        if not tags:
            return data
        m = rng.choice(tags)
        number = rng.choice(("\u2074", "\uff14", "136", "999999999", "0" * 5000, "-1", "1a"))
        return data[: m.start(2)] + number.encode() + data[m.end(2) :]
    units = (
        _units(data, fmt)
        if fmt in _JSON_DOCS
        else [m.span() for m in re.finditer(rb'"[a-z_]+":\s*("[^"]*"|-?[0-9]+|\[[^\[\]]*\])', data)]
    )
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
    "nudge": _nudge,
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
    "nudge": 6,
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
    if path.parent.name in ("raw-gdr", "raw-records"):
        return "mahjongsoul"
    if path.suffix == ".xml":
        return "tenhou-xml"
    if path.suffix == ".jsonl":
        return "mjai"
    return "tenhou-json"


# The corpus folders of logs mjaudit reads.
_CORPUS_FOLDERS = (
    "tenhou-xml",
    "tenhou-json",
    "mahjongsoul/tenhou-json",
    "mjai",
    "mahjongsoul/raw-gdr",
    "mahjongsoul/raw-records",
)


def corpus_sources() -> dict[str, list[Path]]:
    """Source logs by format: the corpus (when present) and the project's samples."""
    found: dict[str, list[Path]] = {
        "tenhou-xml": [],
        "tenhou-json": [],
        "mjai": [],
        "mahjongsoul": [],
    }
    for path in sorted(SAMPLES.glob("*.xml")):
        found["tenhou-xml"].append(path)
    for folder in _CORPUS_FOLDERS:
        if (CORPUS / folder).is_dir():
            for path in sorted((CORPUS / folder).rglob("*")):
                if path.is_file() and path.suffix in (".xml", ".json", ".jsonl", ".txt"):
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
def run_case(case: Case, render: bool = True, report: bool = False) -> Result:
    """Load, audit, render and convert one mutated log in this process.

    ``report`` also builds the game's HTML page (slower: the long run's ``--report``).
    """
    from analyzer.checks.audit import audit_log, resolve_rules
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
        audit = audit_log(log, rules, keep_replay=True)
        if audit.error is not None:
            return Result(case, Outcome.INTERNAL, f"audit error: {audit.error}")
        if render:
            assert audit.replay is not None  # keep_replay
            rounds = sum(1 for ev in log.events if isinstance(ev, RoundStart))
            for round_no in {0, rounds - 1} if rounds else set():
                render_round(log, rules, round_no, round_no % 4)
                render_round_wall(log, audit.replay, round_no)
            for to in ("mjai", "tenhou-json", "tenhou-xml"):
                with contextlib.suppress(MjauditError):  # a target that cannot hold it
                    convert_log(log, to)
        if report:
            from reports.html import render_game
            from reports.views import build_game_view
            from reports.views_facts import collect_game

            render_game(build_game_view(collect_game(log, rules)))
    except Exception:  # the very thing the fuzzer looks for
        return Result(case, Outcome.INTERNAL, traceback.format_exc(limit=-6))
    errors = [f for f in audit.findings if f.severity.value == "error"]
    return Result(case, Outcome.FINDINGS if errors else Outcome.CLEAN)


# -- targeted mutations: each must give one specific finding ---------------------
_ELEMENT_OF = {
    tag: re.compile(rb"<" + tag + rb" [^<>]*>") for tag in (b"AGARI", b"RYUUKYOKU", b"GO")
}


def _attr(element: bytes, name: bytes) -> re.Match[bytes] | None:
    return re.search(rb"\b" + name + rb'="([^"]*)"', element)


def _edit_attr(data: bytes, at: int, element: bytes, name: bytes, value: bytes | None) -> bytes:
    """``data`` with attribute ``name`` of the element at ``at`` set (None: removed)."""
    m = _attr(element, name)
    assert m is not None
    if value is None:
        new = element[: m.start()].rstrip(b" ") + element[m.end() :]
    else:
        new = element[: m.start(1)] + value + element[m.end(1) :]
    return data[:at] + new + data[at + len(element) :]


def _elements(data: bytes, tag: bytes, need: bytes | None = None) -> list[re.Match[bytes]]:
    found = list(_ELEMENT_OF[tag].finditer(data))
    return [m for m in found if need is None or _attr(m.group(), need) is not None]


def _numbers(text: bytes) -> list[int]:
    return [int(x) for x in text.split(b",") if x]


def _csv(values: list[int]) -> bytes:
    return ",".join(map(str, values)).encode()


def change_payment(data: bytes, rng: random.Random) -> bytes | None:
    """One seat's delta in one win's ``sc`` off by 1000."""
    wins = _elements(data, b"AGARI")
    if not wins:
        return None
    m = rng.choice(wins)
    sc = _attr(m.group(), b"sc")
    assert sc is not None
    values = _numbers(sc.group(1))
    seat = rng.choice([s for s in range(4) if values[2 * s + 1]] or [0])
    values[2 * seat + 1] += 10
    return _edit_attr(data, m.start(), m.group(), b"sc", _csv(values))


def change_yaku_han(data: bytes, rng: random.Random) -> bytes | None:
    """One yaku of one win claimed one han higher."""
    wins = _elements(data, b"AGARI", b"yaku")
    if not wins:
        return None
    m = rng.choice(wins)
    yaku = _attr(m.group(), b"yaku")
    assert yaku is not None
    values = _numbers(yaku.group(1))
    values[2 * rng.randrange(len(values) // 2) + 1] += 1
    return _edit_attr(data, m.start(), m.group(), b"yaku", _csv(values))


def delete_result(data: bytes, rng: random.Random) -> bytes | None:
    """One hand's only result element (not the game's last) deleted."""
    found = [
        m
        for m in _XML_ELEMENT.finditer(data)
        if m.group().startswith((b"<AGARI ", b"<RYUUKYOKU ")) and b"owari=" not in m.group()
    ]
    # A double ron has two results: keep to hands with one (the next element is INIT,
    # the previous is not a result).
    single = [
        m
        for k, m in enumerate(found)
        if data[m.end() :].lstrip().startswith(b"<INIT")
        and not (k and found[k - 1].end() == m.start())
    ]
    if not single:
        return None
    m = rng.choice(single)
    return data[: m.start()] + data[m.end() :]


def change_machi(data: bytes, rng: random.Random) -> bytes | None:
    """One win's ``machi`` names another tile of the winning hand."""
    wins = _elements(data, b"AGARI")
    choices = []
    for m in wins:
        hai, machi = _attr(m.group(), b"hai"), _attr(m.group(), b"machi")
        if hai is None or machi is None:
            continue
        win_kind = int(machi.group(1)) // 4
        others = [i for i in _numbers(hai.group(1)) if i // 4 != win_kind]
        if others:
            choices.append((m, others))
    if not choices:
        return None
    m, others = rng.choice(choices)
    return _edit_attr(data, m.start(), m.group(), b"machi", str(rng.choice(others)).encode())


def change_tenpai_hand(data: bytes, rng: random.Random) -> bytes | None:
    """One tile of a hand shown at an exhaustive draw changed to a tile of another kind."""
    choices = []
    for m in _elements(data, b"RYUUKYOKU"):
        if _attr(m.group(), b"type") is not None:
            continue
        for seat in range(4):
            if _attr(m.group(), f"hai{seat}".encode()) is not None:
                choices.append((m, f"hai{seat}".encode()))
    if not choices:
        return None
    m, name = rng.choice(choices)
    hai = _attr(m.group(), name)
    assert hai is not None
    ids = _numbers(hai.group(1))
    k = rng.randrange(len(ids))
    used = set(ids)
    ids[k] = next(i for i in ((ids[k] + 4 * n) % 136 for n in range(1, 34)) if i not in used)
    return _edit_attr(data, m.start(), m.group(), name, _csv(sorted(ids)))


def delete_go_type(data: bytes, rng: random.Random) -> bytes | None:
    """The lobby type of ``<GO>`` deleted."""
    found = _elements(data, b"GO", b"type")
    if not found:
        return None
    m = found[0]
    return _edit_attr(data, m.start(), m.group(), b"type", None)


def cut_json_game(data: bytes, rng: random.Random) -> bytes | None:
    """A Tenhou JSON game cut after some hands: the later hands and the final ``sc``
    (or ``final_scores``) gone."""
    import json

    doc = json.loads(data)
    if not isinstance(doc, dict) or len(doc.get("log", [])) < 2:
        return None
    doc["log"] = doc["log"][: rng.randrange(1, len(doc["log"]))]
    doc.pop("sc", None)
    doc.pop("final_scores", None)  # mjaudit's own, in a converted mjai game
    return json.dumps(doc, ensure_ascii=False).encode()


@dataclass(frozen=True, slots=True)
class Targeted:
    """A mutation that must give one of ``codes``; it runs once ``needs`` are registered."""

    name: str
    fmt: str
    make: Callable[[bytes, random.Random], bytes | None]
    codes: frozenset[str]
    needs: frozenset[str]


TARGETED = (
    Targeted("change-payment", "tenhou-xml", change_payment,
             frozenset({"payment-mismatch"}), frozenset({"payment-mismatch"})),
    Targeted("change-yaku-han", "tenhou-xml", change_yaku_han,
             frozenset({"yaku-mismatch", "han-mismatch"}), frozenset({"yaku-mismatch"})),
    Targeted("delete-result", "tenhou-xml", delete_result,
             frozenset({"round-without-result"}), frozenset({"round-without-result"})),
    # game-incomplete is registered already (mjai logs that say they broke); the check
    # of a game cut short comes with the hand-without-result check.
    Targeted("cut-json-game", "tenhou-json", cut_json_game, frozenset({"game-incomplete"}),
             frozenset({"game-incomplete", "round-without-result"})),
    Targeted("change-machi", "tenhou-xml", change_machi,
             frozenset({"win-tile-mismatch"}), frozenset({"win-tile-mismatch"})),
    Targeted("change-tenpai-hand", "tenhou-xml", change_tenpai_hand,
             frozenset({"tenpai-hand-mismatch"}), frozenset({"tenpai-hand-mismatch"})),
    Targeted("delete-go-type", "tenhou-xml", delete_go_type,
             frozenset({"lobby-type-missing"}), frozenset({"lobby-type-missing"})),
)  # fmt: skip
