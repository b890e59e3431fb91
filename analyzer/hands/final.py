"""The game-end result: final scores and the placement results written in ``owari``.

The rules below were fitted to the 332 real Tenhou logs of ../shared/corpus/tenhou-xml
and reproduce 331 of them; one private-lobby log (L10011) is unexplained.
Counts and the evidence are in docs/final-results.md; the corpus test in
tests/test_final.py replays all of them.

* Final scores: the leftover riichi sticks go to the top player; ties rank by seat
  order from the first dealer (332/332 games, 19 with sticks left, 6 standard-lobby
  ties).
* Results, non-top players: ``(score - return) / 1000 + uma[rank]``; the top player
  gets minus the sum of the others (that is, +oka and the rounding residue).
* Rounding, logs up to 2021-10-03 (137 dated games, 71 undated): the final *score* is
  rounded to whole thousands, half away from zero (5500 -> 6000, -16500 -> -17000),
  before the return points are taken off. For scores >= 0 this is ``floor(x + 0.5)``;
  the six games with a negative score ending in 500 (for example 2014050315gm-0041:
  -16500 -> -67.0 as 4th) show that negative scores round away from zero.
* Logs from 2022-06-01 on (116 dated games, 3 undated): exact to 0.1, no rounding.
* An undated log keeps every era still possible; a Tenhou JSON file without a log
  id in ``ref`` or a ``lobby`` key keeps both (the keys' absence dates nothing).
* A custom-rule lobby (csrule) whose uma fields are empty plays Tenhou's default uma.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from mjaudit.events import EndClaims, RulesHint
from mjaudit.rules import Ruleset

__all__ = [
    "FinalDiff",
    "FinalResult",
    "check_final",
    "compare_final",
    "csrule_sets_uma",
    "csrule_undecoded",
    "final_candidates",
    "final_result",
    "game_date",
]

Rounding = Literal["thousand", "exact"]

# Era boundaries, as Tenhou log ids' YYYYMMDDHH prefix (the tightest the corpus allows).
LAST_ROUNDED = 2021100323  # 2021100323gm-00a9-0000-d0ac1302: whole thousands
FIRST_EXACT = 2022060100  # 2022060100gm-00a9-0000-01481d95: 0.1 precision
LAST_TONPUU_5_10 = 2009073112  # 2009073112gm-0061-0000-cad1a977: tonpuu uma +10/+5/-5/-10
FIRST_TONPUU_10_20 = 2009082713  # 2009082713gm-00e1-0000-8820f355: tonpuu uma +20/+10/...

_ID = re.compile(r"^(\d{10})gm-([0-9a-fA-F]{4})-")
_GO_TYPE = re.compile(r"GO type (\d+)")


@dataclass(frozen=True, slots=True)
class FinalResult:
    """Final scores (points) and results (thousands, uma and oka included) by seat."""

    final_scores: tuple[int, ...]
    results: tuple[float, ...]
    rule: str
    assumed: bool = False


@dataclass(frozen=True, slots=True)
class FinalDiff:
    """One value of the game end that differs: a seat's final score or its result."""

    seat: int
    field: Literal["final", "result"]
    expected: float
    claimed: float | None


@dataclass(frozen=True, slots=True)
class _Formula:
    """How result points follow from final scores: return, uma, rounding, ties."""

    return_points: int
    uma: tuple[float, ...]  # by rank; the top's entry only matters when ties share uma
    rounding: Rounding
    text: str
    top_takes_rest: bool = True
    share_ties: bool = False
    assumed: bool = False


def _order(scores: Sequence[int], first_dealer: int) -> list[int]:
    n = len(scores)
    return sorted(range(n), key=lambda s: (-scores[s], (s - first_dealer) % n))


def _final_scores(
    scores: Sequence[int], sticks: int, first_dealer: int, to_top: bool
) -> tuple[int, ...]:
    finals = list(scores)
    if to_top and sticks:
        finals[_order(finals, first_dealer)[0]] += 1000 * sticks
    return tuple(finals)


def _base(score: int, formula: _Formula) -> Decimal:
    """(score - return) in thousands, rounded as the formula says."""
    if formula.rounding == "thousand":
        rounded = (abs(score) + 500) // 1000 * 1000 * (1 if score >= 0 else -1)
        return Decimal(rounded - formula.return_points) / 1000
    return Decimal(score - formula.return_points) / 1000


def _results(
    finals: Sequence[int], first_dealer: int, start: int, f: _Formula
) -> tuple[float, ...]:
    n = len(finals)
    order = _order(finals, first_dealer)
    uma = [Decimal(str(u)) for u in f.uma]
    oka = Decimal(n * (f.return_points - start)) / 1000
    values: list[Decimal] = [Decimal(0)] * n
    if f.share_ties:
        # Tied players share (average) the uma of the places they cover, and the oka
        # if first place is among them (csrule lobby: 2 ties in dnovikoff newattr2023).
        rank = 0
        while rank < n:
            group = [s for s in order if finals[s] == finals[order[rank]]]
            ranks = range(rank, rank + len(group))
            bonus = sum((uma[r] for r in ranks), Decimal(0)) + (oka if rank == 0 else 0)
            for seat in group:
                values[seat] = _base(finals[seat], f) + bonus / len(group)
            rank += len(group)
    else:
        for rank, seat in enumerate(order):
            values[seat] = _base(finals[seat], f) + uma[rank] + (oka if rank == 0 else 0)
        if f.top_takes_rest and sum(finals) == n * start:
            # The top takes what the others leave (their rounding, the oka), where the
            # points in play are the start's: a game that started with other points
            # (a Tenhou game under EMA's 30000) would hand the top the difference.
            values[order[0]] = -sum((values[s] for s in order[1:]), Decimal(0))
    return tuple(float(v.quantize(Decimal("0.1"), ROUND_HALF_UP)) for v in values)


def game_date(game_id: str) -> int | None:
    """The YYYYMMDDHH of a Tenhou log id (``2022060100gm-00a9-0000-01481d95``), else None."""
    m = _ID.match(game_id)
    return int(m.group(1)) if m else None


def _go_type(hint: RulesHint, game_id: str) -> int | None:
    m = _GO_TYPE.search(hint.description)
    if m:
        return int(m.group(1))
    idm = _ID.match(game_id)
    return int(idm.group(2), 16) if idm else None


def _roundings(
    date: int | None, has_lobby: bool, source: str = "tenhou-xml"
) -> tuple[tuple[Rounding, str, bool], ...]:
    """The rounding eras that fit the log id's date: (rounding, note, assumed)."""
    rounded: tuple[Rounding, str, bool] = ("thousand", "rounded to whole thousands", False)
    exact: tuple[Rounding, str, bool] = ("exact", "exact to 0.1", False)
    if date is not None and date <= LAST_ROUNDED:
        return (rounded,)
    if date is not None and date >= FIRST_EXACT:
        return (exact,)
    if date is not None:
        why = f"log date {date} is between the last rounded ({LAST_ROUNDED}) and first exact"
        return (
            ("exact", f"exact to 0.1 (assumed: {why} ({FIRST_EXACT}) logs)", True),
            ("thousand", f"rounded to whole thousands (assumed: {why} ({FIRST_EXACT}) logs)", True),
        )
    if not has_lobby and source == "tenhou-xml":
        # GO without `lobby`: only 2008-09-20 .. 2010-09-10 logs in the corpus (20 games).
        return (
            ("thousand", "rounded to whole thousands (assumed: undated, GO has no lobby)", True),
        )
    # A tenhou.net/6 file names neither a date nor a lobby unless its ``ref`` is a log
    # id or it carries ``lobby`` (the server converter's key): a missing key says
    # nothing about the era, so both remain possible.
    why = "undated log" if has_lobby or source == "tenhou-xml" else "no date or lobby in the file"
    return (
        ("thousand", f"rounded to whole thousands (assumed: {why})", True),
        ("exact", f"exact to 0.1 (assumed: {why})", True),
    )


def _csrule_fields(csrule: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in csrule.split(","))


# The csrule flag words of every custom-rule log decoded so far (Cherrling fabc0,
# dnovikoff newattr2023): Tenhou's standard rules of play. Another value switches on
# a custom rule (the deal passing after a dealer win or a dealer tenpai, ...) whose
# bit is not known.
_CSRULE_FLAGS = ("0FE0BF0B", "0000001F")
_CSRULE_NUMBERS = frozenset((4, 5, 6, *range(21, 36)))


def csrule_undecoded(csrule: str) -> str | None:
    """What a custom-rule string sets that is not decoded, in words, or None."""
    fields = _csrule_fields(csrule)
    flags = tuple(f.upper() for f in fields[:2])
    odd = [
        f"field {i} = {value!r}"
        for i, value in enumerate(fields)
        if i >= 2 and value and i not in _CSRULE_NUMBERS
    ]
    if flags != _CSRULE_FLAGS:
        odd.insert(0, f"flags {','.join(flags)} (decoded: {','.join(_CSRULE_FLAGS)})")
    return "; ".join(odd) or None


def csrule_sets_uma(csrule: str) -> bool:
    """Whether a custom-rule string fills any of its uma fields (21..35).

    A lobby owner who leaves them empty plays Tenhou's default uma; so does a
    chip lobby's csrule (the uma of a chip lobby, +30/+10/-10/-30, reproduces its
    results exactly, in whole points).
    """
    return any(_csrule_fields(csrule)[21:36])


def _csrule_formulas(
    csrule: str, finals: Sequence[int], start: int, rounding: Rounding
) -> _Formula:
    """Custom-rule lobby: fields 4/5 read as start/return points, 21.. as uma triples.

    Decoded from the two csrule logs (Cherrling fabc0, dnovikoff newattr2023): fields
    4, 5 and 6 are 30000 in both (which one is the return points cannot be told apart),
    and five identical ``5,-5,-15`` triples follow at 21..35: the uma of 2nd..4th
    place, the 1st getting minus their sum (+15). Tied players share the uma.
    Which of the five triples applies when they differ is not known; the index taken
    here is the number of players at or above the return points (an assumption).
    """
    parts = csrule.split(",")

    def num(i: int, default: int) -> int:
        try:
            return int(parts[i])
        except (IndexError, ValueError):
            return default

    ret = num(5, start)
    triples: list[tuple[int, int, int]] = []
    for k in range(5):
        vals = [num(21 + 3 * k + j, 0) for j in range(3)]
        triples.append((vals[0], vals[1], vals[2]))
    distinct = len(set(triples)) > 1
    idx = min(sum(1 for s in finals if s >= ret), 4) if distinct else 0
    rest = triples[idx]
    uma = (-float(sum(rest)), *map(float, rest))
    note = f"; uma set {idx} by the number of players >= return (assumed)" if distinct else ""
    return _Formula(
        ret,
        uma,
        rounding,
        f"custom-rule lobby (csrule): return {ret}, uma {'/'.join(f'{u:+g}' for u in uma)}, "
        f"ties share uma{note}",
        top_takes_rest=False,
        share_ties=True,
        assumed=distinct,
    )


def _csrule_default_formulas(
    csrule: str,
    uma: tuple[tuple[float, ...], str, bool],
    players: int,
) -> list[_Formula]:
    """A custom-rule lobby whose csrule leaves the uma empty: Tenhou's default uma.

    The rounding is not in the csrule either: whole points is Tenhou's custom-lobby
    default (a chip lobby rounds so), exact to 0.1 the other candidate (assumed).
    """
    fields = _csrule_fields(csrule)
    default_ret = 40000 if players == 3 else 30000
    try:
        ret = int(fields[5]) if len(fields) > 5 and fields[5] else default_ret
    except ValueError:
        ret = default_ret
    head = f"custom-rule lobby (csrule) without uma: Tenhou's default {uma[1]}, return {ret}"
    out = [_Formula(ret, uma[0], "thousand", f"{head}, rounded to whole thousands")]
    out.append(_Formula(ret, uma[0], "exact", f"{head}, exact to 0.1 (assumed)", assumed=True))
    return out


def _tenhou_formulas(
    finals: Sequence[int], players: int, start: int, hint: RulesHint, game_id: str
) -> list[_Formula]:
    extras = dict(hint.extras)
    date = game_date(game_id)
    gtype = _go_type(hint, game_id) or 0
    lobby = extras.get("lobby")
    if gtype & 0x800:
        # Gold/ratio lobby (type 2113, 2 undated games): 1000 start (ten=10), no uma,
        # no oka; the result is (score - start) / 1000 exactly (-300 -> -1.3).
        text = f"gold/ratio lobby (GO type {gtype}): (score - start)/1000, no uma or oka"
        return [_Formula(start, (0.0,) * players, "exact", text, assumed=date is None)]
    csrule = extras.get("csrule")
    if csrule is not None and csrule_sets_uma(csrule):
        return [_csrule_formulas(csrule, finals, start, "exact")]
    new_uma = (0.0, 10.0, -10.0, -20.0)
    old_uma = (0.0, 5.0, -5.0, -10.0)
    umas: list[tuple[tuple[float, ...], str, bool]] = [(new_uma, "uma +20/+10/-10/-20", False)]
    special = ""
    if players == 3:
        # Sanma: 35000 start, 40000 return, uma 0/-20, top +20+15 oka (4 games).
        umas = [((0.0, 0.0, -20.0), "sanma: return 40000, uma +20/0/-20, oka +15", False)]
    elif gtype & 0x200:
        # Chip lobbies (types 553, 1569; 2 undated games): uma +30/+10/-10/-30, oka +20.
        chip = f"chip lobby (GO type {gtype}): uma +30/+10/-10/-30"
        umas = [((0.0, 10.0, -10.0, -30.0), chip, False)]
    elif hint.hanchan is False and (date is None or date <= LAST_TONPUU_5_10):
        # Tonpuu logs up to 2009-07-31 (4 dated + 2 undated games): +10/+5/-5/-10.
        old = (old_uma, "uma +10/+5/-5/-10 (tonpuu, 2009-07 and before)", date is None)
        umas = [old] if date is not None else [*umas, old]
    elif hint.hanchan is False and date is not None and date < FIRST_TONPUU_10_20:
        umas = [
            (new_uma, "uma +20/+10/-10/-20 (assumed: tonpuu switch window)", True),
            (old_uma, "uma +10/+5/-5/-10 (assumed: tonpuu switch window)", True),
        ]
    if csrule is not None:
        # Tenhou's defaults where the custom rule leaves the uma empty: the GO type's
        # uma and oka, the return points of field 5. Whole points first (as the chip
        # lobbies and the ranked lobbies up to 2021 round), then exact.
        return _csrule_default_formulas(csrule, umas[0], players)
    if lobby not in (None, "0"):
        special = f"private lobby L{lobby}: ranked rules assumed, "
    elif hint.special_lobby and not gtype & 0x200:
        special = f"special lobby (GO type {gtype}): ranked rules assumed, "
    out: list[_Formula] = []
    for rounding, era, era_assumed in _roundings(date, lobby is not None, hint.source):
        for uma, uma_text, uma_assumed in umas:
            ret = 40000 if players == 3 else 30000
            oka = "" if players == 3 else f", return {ret}, oka +20"
            text = f"{special}{uma_text}{oka}, {era}"
            assumed = era_assumed or uma_assumed or bool(special)
            out.append(_Formula(ret, uma, rounding, text, assumed=assumed))
    return out


def _ruleset_uma(rules: Ruleset, finals: Sequence[int], players: int) -> tuple[int, ...]:
    """The uma by rank; with ``uma_by_floating`` it depends on how many players finish
    at or above the start points (JPML: MahjongPantheon jpmlA.php ComplexUma)."""
    if not rules.uma_by_floating:
        return rules.uma[:players]
    floating = sum(1 for score in finals[:players] if score >= rules.start_points)
    return rules.uma_by_floating[floating][:players]


def _ruleset_formula(rules: Ruleset, finals: Sequence[int], players: int) -> _Formula:
    uma = tuple(float(u) for u in _ruleset_uma(rules, finals, players))
    rounding: Rounding = "thousand" if rules.final_rounding == "thousand-half-up" else "exact"
    share = rules.uma_split_ties
    # Results count from the settlement points where the rules have them (Mahjong
    # Soul: the start, so no oka), else from the return points with the oka.
    base = rules.return_points if rules.settlement_points is None else rules.settlement_points
    counted = (
        f"return {base}"
        if rules.settlement_points is None
        else f"results from {base} (return {rules.return_points})"
    )
    assumed = " (assumed: the log does not state them)" if rules.results_assumed else ""
    return _Formula(
        base,
        uma,
        rounding,
        f"{rules.name} rules: start {rules.start_points}, {counted}, "
        f"uma {'/'.join(f'{u:+g}' for u in uma)}, "
        f"{'rounded to whole thousands' if rounding == 'thousand' else 'exact'}{assumed}",
        # Results counted from the settlement points are each seat's own (Mahjong
        # Soul: total_point = part_point_1 - start + uma in every record), not the
        # top player's rest: scores off by one payment leave the others' results right.
        top_takes_rest=rules.leftover_sticks_to_top
        and not share
        and rules.settlement_points is None,
        share_ties=share,
        assumed=rules.results_assumed,
    )


def final_candidates(
    scores: Sequence[int],
    riichi_sticks: int,
    first_dealer: int,
    players: int,
    rules: Ruleset,
    hint: RulesHint,
    game_id: str,
) -> tuple[FinalResult, ...]:
    """Every formula that fits what is known about the log, the most likely first.

    A dated Tenhou log in the ranked lobbies has exactly one; undated logs (and logs
    dated inside a switch window) have one per era that is still possible.
    """
    running = tuple(scores[:players])
    tenhou = hint.source.startswith("tenhou") and rules.tenhou_lobby_results
    to_top = rules.leftover_sticks_to_top or tenhou
    finals = _final_scores(running, riichi_sticks, first_dealer, to_top)
    total = sum(running) + 1000 * riichi_sticks
    start = total // players if total % players == 0 else rules.start_points
    if tenhou:
        formulas = _tenhou_formulas(finals, players, start, hint, game_id)
    else:
        formulas = [_ruleset_formula(rules, finals, players)]
        start = rules.start_points
    return tuple(
        FinalResult(finals, _results(finals, first_dealer, start, f), f.text, f.assumed)
        for f in formulas
    )


def final_result(
    scores: Sequence[int],
    riichi_sticks: int,
    first_dealer: int,
    players: int,
    rules: Ruleset,
    hint: RulesHint,
    game_id: str,
) -> FinalResult:
    """The final scores and results a game should end with.

    ``scores`` are the running scores after the last hand, ``riichi_sticks`` the
    sticks still on the table. ``rule`` describes the formula used; ``assumed`` is
    True when the log did not settle it (undated log, unknown lobby).
    """
    return final_candidates(scores, riichi_sticks, first_dealer, players, rules, hint, game_id)[0]


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def compare_final(claims: EndClaims, result: FinalResult) -> tuple[FinalDiff, ...]:
    """The values where the log's claims differ from ``result``.

    Results are compared at the precision of the log's text: whole numbers in
    2008-09 logs ("66"), one decimal later ("46.0"). Seats beyond the player count
    (sanma's empty 4th seat) must claim 0.
    """
    diffs: list[FinalDiff] = []
    n = len(result.final_scores)
    if claims.final_scores is not None:
        for seat, claimed in enumerate(claims.final_scores):
            want = result.final_scores[seat] if seat < n else 0
            if claimed != want:
                diffs.append(FinalDiff(seat, "final", want, claimed))
    if claims.results is not None:
        texts = claims.result_texts or tuple(repr(r) for r in claims.results)
        for seat, claimed_r in enumerate(claims.results):
            want_r = result.results[seat] if seat < n else 0.0
            places = _decimals(texts[seat]) if seat < len(texts) else 1
            quantum = Decimal(1).scaleb(-places)
            expected = Decimal(str(want_r)).quantize(quantum, ROUND_HALF_UP)
            if expected != Decimal(str(claimed_r)).quantize(quantum, ROUND_HALF_UP):
                diffs.append(FinalDiff(seat, "result", float(expected), claimed_r))
    return tuple(diffs)


def check_final(
    claims: EndClaims,
    scores: Sequence[int],
    riichi_sticks: int,
    first_dealer: int,
    players: int,
    rules: Ruleset,
    hint: RulesHint,
    game_id: str,
) -> tuple[FinalResult, tuple[FinalDiff, ...]]:
    """The first candidate formula that reproduces the claims, else the one that
    differs in the fewest values (the likeliest of those).

    Where the log leaves the era open (undated logs), the candidate that matches is
    reported with ``assumed`` set, and its rule text says so.
    """
    candidates = final_candidates(
        scores, riichi_sticks, first_dealer, players, rules, hint, game_id
    )
    judged = [(cand, compare_final(claims, cand)) for cand in candidates]
    return min(judged, key=lambda pair: len(pair[1]))
