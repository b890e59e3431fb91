"""Comparing a scorer's answers with the cases' results, field by field.

An answer (docs/cases.md) gives what its scorer computes, in the same keys as a
case's ``expected``; what it leaves out is not compared. Each field that differs is
one :class:`Disagreement` of a kind (``han``, ``fu``, ``yaku``, ...). A yakuman
hand's han and fu are not compared (logs and scorers write them differently; its
yaku, multiple, points and payments say what it is worth), as the audit does not.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mjaudit.findings import JsonValue

__all__ = [
    "KINDS",
    "Comparison",
    "Disagreement",
    "answer_problem",
    "compare",
    "compare_all",
    "example",
]

Doc = Mapping[str, JsonValue]

# Every kind of disagreement, in the order reports list them.
KINDS: tuple[str, ...] = (
    "missing",
    "not-a-win",
    "yaku",
    "yakuman",
    "han",
    "fu",
    "dora",
    "limit",
    "points",
    "payments",
    "deltas",
    "pao",
)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One field of one case where the answer differs from the reference."""

    case_id: str
    kind: str
    expected: JsonValue
    actual: JsonValue
    # The size of the case's hand (melds, han): the smallest is a kind's example.
    weight: tuple[int, int] = (0, 0)


@dataclass(slots=True)
class Comparison:
    """All the disagreements of a check, and how many cases and answers it compared."""

    cases: int = 0
    answered: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    def by_kind(self) -> dict[str, list[Disagreement]]:
        """The disagreements grouped by kind, kinds in KINDS order."""
        groups: dict[str, list[Disagreement]] = {}
        for d in self.disagreements:
            groups.setdefault(d.kind, []).append(d)
        return {k: groups[k] for k in KINDS if k in groups}

    @property
    def cases_disagreeing(self) -> int:
        return len({d.case_id for d in self.disagreements})


# -- an answer's types ----------------------------------------------------------------
#
# A value of the wrong JSON type is not compared: Python holds true == 1 and
# 1500.0 == 1500, and a string is not a list of yaku (docs/cases.md, "A result").

_INTEGERS = ("han", "fu", "dora", "aka", "ura", "kita", "yakuman", "points")
_SHOWN = 60  # characters of a wrong value a message shows


def _shown(value: JsonValue) -> str:
    text = json.dumps(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _is_int(value: JsonValue) -> bool:
    return type(value) is int  # not a bool, not a float


def _not_int(where: str, value: JsonValue) -> str | None:
    return None if _is_int(value) else f"{where}: expected an integer, not {_shown(value)}"


def _yaku_problem(value: JsonValue) -> str | None:
    if not isinstance(value, list):
        return f'result.yaku: expected a list of {{"name", "han"}}, not {_shown(value)}'
    for k, entry in enumerate(value):
        where = f"result.yaku[{k}]"
        if not isinstance(entry, dict):
            return f'{where}: expected {{"name", "han"}}, not {_shown(entry)}'
        if not isinstance(entry.get("name"), str):
            return f"{where}.name: expected a string, not {_shown(entry.get('name'))}"
        if "han" not in entry:
            return f"{where}.han: missing"
        wrong = _not_int(f"{where}.han", entry["han"])
        if wrong is None and "yakuman" in entry:
            wrong = _not_int(f"{where}.yakuman", entry["yakuman"])
        if wrong is not None:
            return wrong
    return None


def answer_problem(result: Doc) -> str | None:
    """What is wrong with the types of an answer's ``result`` (``result.han: expected
    an integer, not true``), or None. Only the keys it gives are looked at, and only
    those the check compares (``fu_parts`` is informative)."""
    for key in _INTEGERS:
        if key in result and not _is_int(result[key]):
            return _not_int(f"result.{key}", result[key])
    if "yaku" in result:
        wrong = _yaku_problem(result["yaku"])
        if wrong is not None:
            return wrong
    if "limit" in result and not isinstance(result["limit"], str):
        return f"result.limit: expected a string, not {_shown(result['limit'])}"
    payments = result.get("payments", {})
    if not isinstance(payments, dict):
        return f"result.payments: expected an object, not {_shown(payments)}"
    for payer, paid in payments.items():
        if not _is_int(paid):
            return _not_int(f"result.payments.{payer}", paid)
    deltas = result.get("deltas", [0, 0, 0, 0])
    if not (isinstance(deltas, list) and len(deltas) == 4 and all(map(_is_int, deltas))):
        return f"result.deltas: expected a list of 4 integers, not {_shown(deltas)}"
    pao = result.get("pao_seat")
    if pao is not None and not _is_int(pao):
        return f"result.pao_seat: expected an integer or null, not {_shown(pao)}"
    return None


# -- the comparison -------------------------------------------------------------------


def _yaku_key(entry: JsonValue) -> str:
    """A yaku entry as the check counts it: name and han, or name for a yakuman."""
    if not isinstance(entry, dict):
        return repr(entry)
    name = entry.get("name")
    if entry.get("yakuman"):
        return f"{name} (yakuman)"
    return f"{name} {entry.get('han')}"


def _yaku(value: JsonValue) -> list[str]:
    return sorted(_yaku_key(e) for e in value) if isinstance(value, list) else []


def _is_yakuman(doc: Doc) -> bool:
    mult = doc.get("yakuman")
    if isinstance(mult, int) and mult > 0:
        return True
    yaku = doc.get("yaku")
    return isinstance(yaku, list) and any(isinstance(e, dict) and e.get("yakuman") for e in yaku)


def _dora(doc: Doc, fold_kita: bool) -> dict[str, JsonValue]:
    out = {k: doc[k] for k in ("dora", "aka", "ura", "kita") if k in doc}
    if fold_kita and "kita" in out:
        kita, dora = out.pop("kita"), out.get("dora")
        if isinstance(kita, int) and isinstance(dora, int):
            out["dora"] = dora + kita
    return out


def compare(
    case_id: str, reference: Doc, answer: Doc, weight: tuple[int, int] = (0, 0)
) -> list[Disagreement]:
    """The fields where ``answer`` (a result, or ``{"error": code}``) differs from
    ``reference`` (a case's ``expected`` or ``recorded``)."""
    out: list[Disagreement] = []

    def differ(kind: str, expected: JsonValue, actual: JsonValue) -> None:
        out.append(Disagreement(case_id, kind, expected, actual, weight))

    if "error" in answer and "han" not in answer:
        differ("not-a-win", _summary(reference), answer.get("error"))
        return out
    yakuman = _is_yakuman(reference)
    if "yaku" in reference and "yaku" in answer:
        want, have = _yaku(reference["yaku"]), _yaku(answer["yaku"])
        if want != have:
            extra = sorted((Counter(have) - Counter(want)).elements())
            missing = sorted((Counter(want) - Counter(have)).elements())
            differ("yaku", missing, extra)
    mult = reference.get("yakuman")
    if yakuman and "yakuman" in answer and mult is not None and mult != answer["yakuman"]:
        differ("yakuman", mult, answer["yakuman"])
    if not yakuman:
        for key in ("han", "fu"):
            if key in reference and key in answer and reference[key] != answer[key]:
                differ(key, reference[key], answer[key])
        # A side that names no kita counts them into its dora (as a Tenhou log does):
        # the other side's are then counted in too.
        want_d = _dora(reference, "kita" not in answer)
        have_d = _dora(answer, "kita" not in reference)
        common = sorted(set(want_d) & set(have_d))
        if any(want_d[k] != have_d[k] for k in common):
            differ("dora", {k: want_d[k] for k in common}, {k: have_d[k] for k in common})
    for key, kind in (
        ("limit", "limit"),
        ("points", "points"),
        ("payments", "payments"),
        ("deltas", "deltas"),
    ):
        if key in reference and key in answer and reference[key] != answer[key]:
            differ(kind, reference[key], answer[key])
    if "pao_seat" in answer and reference.get("pao_seat") != answer["pao_seat"]:
        differ("pao", reference.get("pao_seat"), answer["pao_seat"])
    return out


def _summary(doc: Doc) -> str:
    if _is_yakuman(doc):
        return f"yakuman, {doc.get('points')} points"
    return f"{doc.get('han')} han {doc.get('fu')} fu, {doc.get('points')} points"


def compare_all(
    cases: Iterable[tuple[str, Doc, tuple[int, int]]],
    answers: Mapping[str, Doc],
) -> Comparison:
    """Every case against its answer: (id, reference, weight) for each case, answers
    by id. A case with no answer is a ``missing`` disagreement."""
    result = Comparison()
    for case_id, reference, weight in cases:
        result.cases += 1
        answer = answers.get(case_id)
        if answer is None:
            result.disagreements.append(
                Disagreement(case_id, "missing", _summary(reference), None, weight)
            )
            continue
        result.answered += 1
        result.disagreements.extend(compare(case_id, reference, answer, weight))
    return result


def example(group: Sequence[Disagreement]) -> Disagreement:
    """A kind's minimal example: the disagreement on the smallest hand (fewest melds,
    then fewest han), the first such in the file."""
    return min(group, key=lambda d: d.weight)
