"""``mjaudit score``: a hand's value as text or JSON (ARCHITECTURE.md §5)."""

from __future__ import annotations

import json

from mjaudit.findings import JsonValue
from mjaudit.hands import HandResult, Payments

__all__ = ["render_score_error", "render_score_json", "render_score_text", "score_document"]


def _payments(p: Payments) -> dict[str, JsonValue]:
    if p.discarder is not None:
        return {"discarder": p.discarder}
    out: dict[str, JsonValue] = {}
    if p.dealer is not None:
        out["dealer"] = p.dealer
    if p.non_dealer is not None:
        out["non_dealer"] = p.non_dealer
    return out


def score_document(
    r: HandResult, paid: Payments | None = None, received: int | None = None
) -> dict[str, JsonValue]:
    """The JSON document of ARCHITECTURE.md §5. ``paid`` are the payments with honba
    (``r.payments`` when not given) and ``received`` what the winner takes with honba
    and sticks; ``total`` stays the hand's value without either."""
    doc: dict[str, JsonValue] = {
        "han": r.han,
        "fu": r.fu,
        "yakuman": r.yakuman,
        "limit": r.limit.name.lower(),
        "yaku": [{"name": y.yaku.label, "han": y.han} for y in r.yaku],
        "dora": r.dora,
        "aka": r.aka,
        "ura": r.ura,
        "kita": r.kita,
        "fu_parts": [{"reason": p.reason, "fu": p.fu} for p in r.fu_parts],
        "total": r.total,
        "payments": _payments(paid or r.payments),
    }
    if received is not None:
        doc["received"] = received
    return doc


def render_score_json(
    r: HandResult, paid: Payments | None = None, received: int | None = None
) -> str:
    return json.dumps(score_document(r, paid, received), ensure_ascii=False)


def render_score_text(
    r: HandResult,
    paid: Payments | None = None,
    received: int | None = None,
    counters: str = "",
) -> str:
    """The text form; ``counters`` names the honba and sticks ``paid`` and ``received``
    include (``"2 honba, 1 stick"``), and adds a line with them when not empty."""
    lines: list[str] = []
    for y in r.yaku:
        lines.append(
            f"  {y.yaku.label:<22} {'yakuman' if y.yakuman else f'{y.han} han'}"
            + (f" x{y.yakuman}" if y.yakuman > 1 else "")
        )
    for name, n in (("dora", r.dora), ("aka dora", r.aka), ("ura dora", r.ura), ("kita", r.kita)):
        if n:
            lines.append(f"  {name:<22} {n} han")
    if not r.yakuman:
        lines.append("fu:")
        for p in r.fu_parts:
            lines.append(f"  {p.reason:<22} {p.fu}")
    head = f"yakuman x{r.yakuman}" if r.yakuman else f"{r.han} han {r.fu} fu"
    limit = "" if r.limit.name == "NONE" else f" ({r.limit.name.lower()})"
    first = f"{head}{limit}: {r.total} points, {_paid_text(r.payments)}"
    if counters and paid is not None and received is not None:
        first += f"\nwith {counters}: {_paid_text(paid)}, the winner receives {received}"
    return "\n".join([first, "yaku:", *lines])


def _paid_text(pay: Payments) -> str:
    if pay.discarder is not None:
        return f"ron {pay.discarder}"
    if pay.dealer is not None:
        return f"tsumo {pay.non_dealer}/{pay.dealer}"
    return f"tsumo {pay.non_dealer} all"


def render_score_error(code: str, message: str, as_json: bool) -> str:
    if as_json:
        return json.dumps({"error": code, "message": message}, ensure_ascii=False)
    return f"not a win ({code}): {message}"
