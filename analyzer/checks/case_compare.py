"""Comparing a scorer's answers with the cases' results, field by field.

An answer (docs/cases.md) gives what its scorer computes, in the same keys as a
case's ``expected``; what it leaves out is not compared. Each field that differs is
one :class:`Disagreement` of a kind (``han``, ``fu``, ``yaku``, ...). A yakuman
hand's han and fu are not compared (logs and scorers write them differently; its
yaku, multiple, points and payments say what it is worth), as the audit does not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mjaudit.findings import JsonValue

__all__ = ["KINDS", "Comparison", "Disagreement", "compare", "compare_all", "example"]

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
