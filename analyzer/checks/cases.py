"""Conformance cases: each win the audit derived, as a self-contained JSON document.

A case holds what a scorer needs to score the win (the tiles, the melds with their
kind and caller, the situation, the rules that change a hand's value) and the
result twice: as the log recorded it and as the audit recomputed it. The schema is
``mjaudit.cases/1`` (docs/cases.md). Nothing here replays or scores: a case is read
off the audit's own :class:`~analyzer.checks.audit_wins.WinCheck` records.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.checks.audit_wins import WinCheck
from analyzer.checks.case_results import result_doc, yaku_entry, yaku_name
from mjaudit.events import Limit, WinClaims
from mjaudit.findings import JsonValue
from mjaudit.melds import Meld
from mjaudit.rules import Ruleset
from mjaudit.tiles import to_mpsz
from mjaudit.yaku import Yaku

if TYPE_CHECKING:  # the audit itself is not needed to read or score a case
    from analyzer.checks.audit import FileAudit

__all__ = [
    "CASE_SCHEMA",
    "SCORING_RULES",
    "WINDS",
    "cases_of",
    "meld_doc",
    "result_doc",
    "rules_doc",
    "yaku_name",
]

CASE_SCHEMA = "mjaudit.cases/1"
WINDS = "ESWN"
Doc = dict[str, JsonValue]

# result_doc and yaku_name are analyzer.checks.case_results' (a case's result needs
# nothing of the audit); they are still importable from here.

# The Ruleset fields that change what a win is worth or who pays what for it: a
# case carries every one of them, so it scores the same under any reader.
SCORING_RULES: tuple[str, ...] = (
    "players",
    "aka",
    "ura_dora",
    "kiriage",
    "kazoe_yakuman",
    "double_yakuman_patterns",
    "composite_yakuman",
    "double_wind_pair_fu",
    "rinshan_tsumo_fu",
    "kuitan",
    "ippatsu",
    "renhou",
    "kita_rinshan",
    "honba_ron",
    "honba_tsumo_each",
    "tsumo_son",
    "double_ron_honba_each",
    "pao_yakuman",
    "pao_scope",
    "pao_pays_honba",
)

_BONUS = {Yaku.DORA: "dora", Yaku.AKA_DORA: "aka", Yaku.URA_DORA: "ura"}


def rules_doc(rules: Ruleset) -> Doc:
    """The rules of a case: the ruleset's name and every field in SCORING_RULES."""
    doc: Doc = {"name": rules.name}
    for key in SCORING_RULES:
        value = getattr(rules, key)
        doc[key] = sorted(value) if isinstance(value, frozenset) else value
    return doc


def meld_doc(meld: Meld) -> Doc:
    """A meld: its kind, tiles (mpsz), the called tile and the seat it came from."""
    doc: Doc = {"kind": meld.kind.value, "tiles": to_mpsz(meld.tiles)}
    if meld.called is not None:
        doc["called"] = str(meld.called)
    if meld.from_seat is not None:
        doc["from_seat"] = meld.from_seat
    if meld.added is not None:
        doc["added"] = str(meld.added)
    return doc


def recorded_doc(c: WinClaims, band: Limit | None = None) -> Doc:
    """The result as the log records it; what the format does not record is left out.

    Dora, red fives and ura are listed as yaku in most logs: they are counted into
    ``dora``, ``aka`` and ``ura`` here, as in a recomputed result (a Tenhou log
    counts kita into its dora, and names no kita of its own). ``band`` is the limit
    the log's limit code stands for, where the audit found the code right: a Tenhou
    log writes a kiriage mangan's code as 0 (no limit), from han and fu before the
    rounding up.
    """
    doc: Doc = {}
    if c.han is not None:
        doc["han"] = c.han
    if c.fu is not None:
        doc["fu"] = c.fu
    if c.yaku is not None or c.yakuman is not None:
        entries: list[JsonValue] = []
        bonus = {"dora": 0, "aka": 0, "ura": 0}
        for y, han in c.yaku or ():
            if y in _BONUS:
                bonus[_BONUS[y]] += han
            else:
                entries.append(yaku_entry(y, han))
        for y in c.yakuman or ():
            entries.append(yaku_entry(y, 13, 1))
        doc["yaku"] = entries
        if c.yakuman is None:
            doc.update(bonus)
    if c.limit is not None:
        doc["limit"] = (band or c.limit).name.lower()
    if c.points is not None:
        doc["points"] = c.points
    if c.deltas is not None:
        doc["deltas"] = list(c.deltas)
    if c.pao_seat is not None:
        doc["pao_seat"] = c.pao_seat
    return doc


@dataclass(frozen=True, slots=True)
class _Game:
    audit: FileAudit
    rules: Doc
    fmt: str


def cases_of(audit: FileAudit, rules: Ruleset, sources: dict[int, str]) -> Iterator[Doc]:
    """One case per win of an audit made with ``keep_replay`` (a win the audit could
    not score is left out: it has no expected result). ``sources`` maps an event
    index to its position in the file (``element 412 <AGARI>``)."""
    game = _Game(audit, rules_doc(rules), audit.format or "")
    by_event: dict[int, list[str]] = {}
    for f in audit.findings:
        if f.event is not None and f.severity.value in ("error", "warning"):
            by_event.setdefault(f.event, []).append(f.code)
    rounds = audit.replay.rounds if audit.replay is not None else []
    for rnd, checks in zip(rounds, audit.derived_wins, strict=False):
        for k, check in enumerate(checks):
            if check.result is None:
                continue
            # Only the first winner of a round (the one nearest the discarder) takes
            # the honba and sticks (analyzer.checks.audit_wins.check_wins).
            found = by_event.get(check.record.event_index, [])
            yield _case(game, check, rnd.label, k == 0, found, sources)


def _case(
    game: _Game,
    check: WinCheck,
    label: str,
    takes_counters: bool,
    findings: list[str],
    sources: dict[int, str],
) -> Doc:
    rec = check.record
    ctx = rec.context
    result = check.result
    assert result is not None
    audit = game.audit
    claims = rec.event.claims
    situation: Doc = {
        "seat": rec.seat,
        "from_seat": rec.from_seat,
        "dealer": rec.dealer,
        "tsumo": rec.tsumo,
        "seat_wind": WINDS[ctx.seat_wind],
        "round_wind": WINDS[ctx.round_wind],
        "riichi": ctx.riichi,
        "double_riichi": ctx.double_riichi,
        "ippatsu": ctx.ippatsu,
        "rinshan": ctx.rinshan,
        "chankan": ctx.chankan,
        "haitei": ctx.haitei,
        "houtei": ctx.houtei,
        "tenhou": ctx.tenhou,
        "chiihou": ctx.chiihou,
        "renhou": ctx.renhou,
        "dora_indicators": [str(t) for t in ctx.dora_indicators],
        "ura_indicators": [str(t) for t in ctx.ura_indicators],
        "kita": ctx.kita,
        "honba": rec.honba,
        "riichi_sticks": rec.riichi_sticks,
        "takes_counters": takes_counters,
    }
    riichi = ctx.riichi or ctx.double_riichi
    if riichi and claims.ura_indicators is None and not ctx.ura_indicators and result.ura:
        # The log shows no ura indicators (an mjai dialect): the audit read the ura
        # han back from the log's own numbers, and the case gives them as such.
        situation["ura_indicators"] = None
        situation["ura_han"] = result.ura
    return {
        "schema": CASE_SCHEMA,
        "id": f"{audit.game_id or audit.path}/{label}/{rec.seat}",
        "source": {
            "path": audit.path,
            "format": game.fmt,
            "game_id": audit.game_id,
            "round": label,
            "where": sources.get(rec.event_index),
        },
        "rules": game.rules,
        "hand": {
            "concealed": to_mpsz(rec.concealed),
            "win_tile": str(rec.win_tile),
            "melds": [meld_doc(m) for m in rec.melds],
            **_last_kan(rec.melds, rec.last_kan),
        },
        "situation": situation,
        "expected": result_doc(result, check.deltas, check.pao),
        "recorded": recorded_doc(claims, result.limit if claims.limit == check.limit else None),
        "findings": sorted(findings),
    }


def _last_kan(melds: tuple[Meld, ...], last_kan: Meld | None) -> Doc:
    """``last_kan``: the index in ``melds`` of the kan declared last (a kakan keeps its
    pon's place in the list), which four-kong liability reads; left out without kans."""
    if last_kan is None or last_kan not in melds:
        return {}
    return {"last_kan": melds.index(last_kan)}
