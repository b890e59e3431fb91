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


def score_document(r: HandResult) -> dict[str, JsonValue]:
    return {
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
        "payments": _payments(r.payments),
    }


def render_score_json(r: HandResult) -> str:
    return json.dumps(score_document(r), ensure_ascii=False)


def render_score_text(r: HandResult) -> str:
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
    pay = r.payments
    if pay.discarder is not None:
        paid = f"ron {pay.discarder}"
    elif pay.dealer is not None:
        paid = f"tsumo {pay.non_dealer}/{pay.dealer}"
    else:
        paid = f"tsumo {pay.non_dealer} all"
    return "\n".join([f"{head}{limit}: {r.total} points, {paid}", "yaku:", *lines])


def render_score_error(code: str, message: str, as_json: bool) -> str:
    if as_json:
        return json.dumps({"error": code, "message": message}, ensure_ascii=False)
    return f"not a win ({code}): {message}"
