"""A scored hand's result in the cases schema (``mjaudit.cases/1``, docs/cases.md).

:func:`result_doc` makes the ``expected`` result of a case and the ``result`` of an
answer as a document; :func:`result_text` writes the same as JSON text. Kept apart
from the export (analyzer.checks.cases) so that scoring a case needs nothing of
the audit, and so that the compiled build (setup.py) can take it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from mjaudit.events import Limit
from mjaudit.findings import JsonValue
from mjaudit.hands import FuPart, HandResult, Payments, YakuHan
from mjaudit.yaku import Yaku

__all__ = ["answer_text", "result_doc", "result_text", "yaku_entry", "yaku_name"]

Doc = dict[str, JsonValue]


def yaku_name(yaku: Yaku) -> str:
    """The schema's name of a yaku: its romaji in snake case (``seat_wind_east``)."""
    return yaku.name.lower()


def _payments(p: Payments) -> Doc:
    if p.discarder is not None:
        return {"discarder": p.discarder}
    out: Doc = {}
    if p.dealer is not None:
        out["dealer"] = p.dealer
    if p.non_dealer is not None:
        out["non_dealer"] = p.non_dealer
    return out


def result_doc(r: HandResult, deltas: Iterable[int] | None, pao: int | None) -> Doc:
    """A result in the schema: the value of the hand explained, and what each seat pays.

    ``payments`` are the hand's value by payer (no honba or sticks); ``deltas`` are
    every seat's change with honba, sticks and liability (pao) settled.
    """
    doc: Doc = {
        "han": r.han,
        "fu": r.fu,
        "fu_parts": [{"reason": p.reason, "fu": p.fu} for p in r.fu_parts],
        "yaku": [yaku_entry(y.yaku, y.han, y.yakuman) for y in r.yaku],
        "dora": r.dora,
        "aka": r.aka,
        "ura": r.ura,
        "kita": r.kita,
        "yakuman": r.yakuman,
        "limit": r.limit.name.lower(),
        "points": r.total,
        "payments": _payments(r.payments),
    }
    if deltas is not None:
        doc["deltas"] = list(deltas)
    doc["pao_seat"] = pao
    return doc


# -- the same result as JSON text -----------------------------------------------------
#
# ``score --batch`` writes a result per case; building its document and encoding it
# cost more than scoring the hand. result_text writes the same text directly: what
# json.dumps(result_doc(...), ensure_ascii=False) writes, byte for byte (a test holds
# the two together over every case of the corpus). A yaku's entry and a fu part are
# written once per distinct value and kept.

_quote = json.encoder.encode_basestring  # a JSON string, non-ASCII kept, as dumps
_ENTRY_LIMIT = 4096
# Keyed by the object's id, its text kept with the object itself (so that the id
# stays its own): the scorer hands out the same few interned entries and parts, and a
# dataclass's hash is a Python call.
_yaku_texts: dict[int, tuple[YakuHan, str]] = {}
_fu_texts: dict[int, tuple[FuPart, str]] = {}


def _yaku_text(y: YakuHan) -> str:
    kept = _yaku_texts.get(id(y))
    if kept is not None and kept[0] is y:
        return kept[1]
    text = json.dumps(yaku_entry(y.yaku, y.han, y.yakuman), ensure_ascii=False)
    if len(_yaku_texts) < _ENTRY_LIMIT:
        _yaku_texts[id(y)] = (y, text)
    return text


def _fu_text(p: FuPart) -> str:
    kept = _fu_texts.get(id(p))
    if kept is not None and kept[0] is p:
        return kept[1]
    text = f'{{"reason": {_quote(p.reason)}, "fu": {p.fu}}}'
    if len(_fu_texts) < _ENTRY_LIMIT:
        _fu_texts[id(p)] = (p, text)
    return text


def _payments_text(p: Payments) -> str:
    """_payments(p) as JSON text."""
    if p.discarder is not None:
        return f'{{"discarder": {p.discarder}}}'
    dealer = "" if p.dealer is None else f'"dealer": {p.dealer}'
    non_dealer = "" if p.non_dealer is None else f'"non_dealer": {p.non_dealer}'
    return f"{{{dealer}{', ' if dealer and non_dealer else ''}{non_dealer}}}"


# Each limit's name as a result writes it (an enum's ``name`` is a Python call).
_LIMIT_TEXT: dict[int, str] = {limit: limit.name.lower() for limit in Limit}


def result_text(r: HandResult, deltas: Iterable[int] | None, pao: int | None) -> str:
    """``result_doc(r, deltas, pao)`` as JSON text, as ``json.dumps`` writes it."""
    parts = ", ".join(map(_fu_text, r.fu_parts))
    yaku = ", ".join(map(_yaku_text, r.yaku))
    shown = "" if deltas is None else f'"deltas": [{", ".join(map(str, deltas))}], '
    return (
        f'{{"han": {r.han}, "fu": {r.fu}, "fu_parts": [{parts}], "yaku": [{yaku}], '
        f'"dora": {r.dora}, "aka": {r.aka}, "ura": {r.ura}, '
        f'"kita": {r.kita}, "yakuman": {r.yakuman}, '
        f'"limit": "{_LIMIT_TEXT[r.limit]}", "points": {r.total}, '
        f'"payments": {_payments_text(r.payments)}, {shown}'
        f'"pao_seat": {"null" if pao is None else pao}}}'
    )


def answer_text(case_id: str, r: HandResult, deltas: Iterable[int], pao: int | None) -> str:
    """An answer ``{"id", "result"}`` as JSON text, as ``json.dumps`` writes it."""
    return f'{{"id": {_quote(case_id)}, "result": {result_text(r, deltas, pao)}}}'


def yaku_entry(yaku: Yaku, han: int, yakuman: int = 0) -> Doc:
    """A yaku of a result in the schema: its name, han and yakuman multiple."""
    doc: Doc = {"name": yaku_name(yaku), "han": han}
    if yakuman:
        doc["yakuman"] = yakuman
    return doc
