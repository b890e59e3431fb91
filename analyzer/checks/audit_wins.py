"""Checks of wins: re-score every hand from the replayed state and settle it.

The log's claims (yaku, han, fu, points, limit, yakuman, pao, each seat's delta)
are compared with the recomputation; every difference is one finding with the
expected (recomputed) and actual (logged) value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from analyzer.checks.audit_common import error
from analyzer.engine.state import RoundReplay, WinRecord
from analyzer.hands.points import settle_win, with_ura_han
from analyzer.hands.scoring import NotAWin, score
from mjaudit.events import DeclareMeld, Discard, DrawTile, Event, Limit, Win
from mjaudit.findings import Finding, JsonValue
from mjaudit.hands import HandResult
from mjaudit.melds import MeldKind
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile
from mjaudit.yaku import SINGLE_FORM, Yaku

__all__ = [
    "WinCheck",
    "check_win_tiles",
    "check_wins",
    "expected_pao",
    "settled_liable",
    "tenhou_yaku",
]


@dataclass(frozen=True, slots=True)
class WinCheck:
    """What the audit derived for one win: the recomputed result (None with the
    reason in ``error`` when the hand is not a scorable win), the settlement it
    compared with the log's deltas, and the liable player it expected."""

    record: WinRecord
    result: HandResult | None
    error: str | None
    deltas: tuple[int, ...] | None
    pao: int | None
    # The limit band as the log writes it for this result (a Tenhou kiriage mangan
    # is written 0), which the limit check compared.
    limit: Limit | None = None


_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)


def tenhou_yaku(result: HandResult, ura_listed: bool) -> Counter[tuple[Yaku, int]]:
    """The yaku as a Tenhou log lists them: dora (with kita folded in) and aka only when
    non-zero, ura always for a riichi winner (tenhou-format.md §1.10, rules-matrix §G)."""
    listed: Counter[tuple[Yaku, int]] = Counter(
        (y.yaku, y.han) for y in result.yaku if not y.yakuman
    )
    if result.dora + result.kita:
        listed[(Yaku.DORA, result.dora + result.kita)] += 1
    if result.aka:
        listed[(Yaku.AKA_DORA, result.aka)] += 1
    if ura_listed:
        listed[(Yaku.URA_DORA, result.ura)] += 1
    return listed


def expected_pao(rec: WinRecord, result: HandResult, rules: Ruleset) -> int | None:
    """The liable seat: who fed the last dragon (daisangen) or wind (daisuushii) set.

    Tenhou: the liability falls on the player whose discard completed the third
    dragon set or the fourth wind set by pon or open kan (rules-matrix §E pao row).
    """
    yakuman = {y.yaku for y in result.yaku if y.yakuman}
    for name, yaku, kinds, need in (
        ("daisangen", Yaku.DAISANGEN, _DRAGONS, 3),
        ("daisuushii", Yaku.DAISUUSHII, _WINDS, 4),
    ):
        if name not in rules.pao_yakuman or yaku not in yakuman:
            continue
        count = 0
        for m in rec.melds:
            if m.kind is MeldKind.KITA or m.kind34 not in kinds:
                continue
            count += 1
            if (
                count == need
                and m.kind in (MeldKind.PON, MeldKind.DAIMINKAN, MeldKind.KAKAN)
                and m.from_seat is not None
                and m.from_seat != rec.seat
            ):
                return m.from_seat
    if "suukantsu" in rules.pao_yakuman and Yaku.SUUKANTSU in yakuman:
        return _suukantsu_pao(rec)
    return None


def _suukantsu_pao(rec: WinRecord) -> int | None:
    """Four-kong liability: the seat whose discard was called for the fourth kan, when
    that kan is a daiminkan (M.League: riichi.wiki M.League page, "Notable rule
    variations"; JPML: Pantheon jpmlA.php; WRC 2025 §9.1.1 through seed 004). A fourth
    kan added to a pon or made concealed gives no liability.
    """
    fourth = rec.last_kan
    if (
        fourth is not None
        and fourth.kind is MeldKind.DAIMINKAN
        and fourth.from_seat is not None
        and fourth.from_seat != rec.seat
    ):
        return fourth.from_seat
    return None


def _multiple_ron(rnd: RoundReplay, rules: Ruleset, path: str) -> list[Finding]:
    """More than one ron on one tile where the rules do not score it: with head-bump
    (``triple_ron = "atamahane"``, or ``double_ron`` off) only the winner nearest the
    discarder wins; with ``triple_ron = "abortive"`` three rons are an abortive draw
    (rules-matrix §E double and triple ron rows). One ``illegal-call`` finding, on the
    first win the rules do not allow; the wins are still scored as the log has them.
    """
    rons = [rec for rec in rnd.wins if not rec.tsumo]
    n = len(rons)
    if n < 2:
        return []
    allowed = 1  # the winner head-bump lets win
    if n >= 3 and rules.triple_ron == "abortive":
        why = "these rules make a triple ron an abortive draw, with no winner"
        rec = rons[0]
        allowed = 0
    elif rules.triple_ron == "atamahane" or (n == 2 and not rules.double_ron):
        why = "these rules let only the winner nearest the discarder win (head-bump)"
        # The first win not allowed: the second nearest, whichever order the log
        # lists the wins in.
        players = rules.players
        rec = sorted(rons, key=lambda r: (r.seat - r.from_seat) % players)[1]
    else:
        return []
    message = f"{n} players ron seat {rec.from_seat}'s tile: {why}"
    return [error(rnd, path, "illegal-call", message, rec.event_index, rec.seat, allowed, n)]


def _fmt(items: Counter[tuple[Yaku, int]]) -> list[str]:
    return sorted(f"{y.label} {h}" for (y, h), n in items.items() for _ in range(n))


def check_wins(
    rnd: RoundReplay,
    rules: Ruleset,
    path: str,
    players: int,
    settled: dict[int, tuple[int, ...]] | None = None,
    ura_recorded: bool = True,
    derived: list[WinCheck] | None = None,
    unsure: dict[int, tuple[tuple[int, ...], ...]] | None = None,
    yakuman_fu: bool = True,
) -> tuple[list[Finding], int, int]:
    """Findings for the wins of one round, hands scored, and seat deltas compared.

    ``derived``, when given, receives each win's :class:`WinCheck`: what the checks
    compared the log with (the report shows it; nothing scores a win twice).

    ``ura_recorded`` is False for formats that may leave out a riichi winner's ura
    indicators (some mjai dialects): the ura han are then read back from the log's
    own numbers (the smallest count that makes them agree) rather than assumed 0.
    Where the win records none of them (akochan's ``{actor, target}``), it is settled
    with no ura, and ``unsure``, when given, receives by the win's event index the
    settlements with one ura han or more: the scores the log shows later choose.
    ``yakuman_fu``: whether the fu a yakuman win records are the hand's own (an mjlog's
    ``ten``), and so compared; a format whose producers may write anything there for a
    yakuman (none documented) leaves them be.
    """
    out: list[Finding] = _multiple_ron(rnd, rules, path)
    scored = compared = 0
    takes_sticks = True
    for rec in rnd.wins:
        try:
            result = score(rec.concealed, rec.win_tile, rec.melds, rec.context, rules)
        except NotAWin as exc:
            message = f"seat {rec.seat} wins, but {exc.message}"
            out.append(error(rnd, path, exc.code, message, rec.event_index, rec.seat))
            takes_sticks = False
            if derived is not None:
                derived.append(WinCheck(rec, None, f"{exc.code}: {exc.message}", None, None))
            continue
        scored += 1
        ctx = rec.context
        blind = False  # the ura han are unknown and nothing recorded tells them
        if (
            not ura_recorded
            and rec.event.claims.ura_indicators is None
            and (ctx.riichi or ctx.double_riichi)
            and not result.yakuman
        ):
            result = _fit_unknown_ura(result, rec, rules, takes_sticks)
            claims = rec.event.claims
            blind = claims.han is None and claims.points is None and claims.deltas is None
        out.extend(_compare_value(rnd, rec, result, rules, path, yakuman_fu))
        pao = expected_pao(rec, result, rules)
        claims = rec.event.claims
        if claims.pao_recorded and claims.pao_seat != pao:
            why = (
                f"the calls make {_who(pao)} liable"
                if rules.pao_yakuman
                else "but these rules have no liability"
            )
            out.append(
                _err(
                    rnd,
                    rec,
                    path,
                    "pao-mismatch",
                    f"log names {_who(claims.pao_seat)} liable (pao), {why}",
                    pao,
                    claims.pao_seat,
                )
            )
        liable = settled_liable(pao, claims.pao_seat, rules)
        deltas = settle_record(result, rec, rules, liable, takes_sticks)
        if blind and unsure is not None:
            others: list[tuple[int, ...]] = []
            for ura in range(1, 13):
                cand = with_ura_han(result, ura, ctx, rules)
                alt = tuple(settle_record(cand, rec, rules, liable, takes_sticks))
                if alt != tuple(deltas) and alt not in others:
                    others.append(alt)
            unsure[rec.event_index] = tuple(others)
        # Tenhou: only the winner nearest the discarder takes honba and sticks.
        takes_sticks = False
        if settled is not None:
            settled[rec.event_index] = deltas
        if derived is not None:
            derived.append(
                WinCheck(rec, result, None, tuple(deltas), pao, _tenhou_limit(result, rules))
            )
        if claims.deltas is not None:
            for s in range(4):
                compared += 1
                if claims.deltas[s] != deltas[s]:
                    out.append(
                        error(
                            rnd,
                            path,
                            "payment-mismatch",
                            f"seat {rec.seat}'s win: seat {s} {claims.deltas[s]:+d} in the "
                            f"log, recomputed {deltas[s]:+d}",
                            rec.event_index,
                            s,
                            deltas[s],
                            claims.deltas[s],
                        )
                    )
    return out, scored, compared


def check_win_tiles(
    rnd: RoundReplay, events: tuple[Event, ...], path: str
) -> tuple[list[Finding], int]:
    """The winning tile each win claims (Tenhou ``machi``, mjai ``pai``) against the tile
    the replay shows winning: the drawn tile of a tsumo, the discard (or the tile added
    to a robbed kan) of a ron. Physical ids are compared where both sides have them."""
    out: list[Finding] = []
    checked = 0
    for rec in rnd.wins:
        claims = rec.event.claims
        replay_id = _winning_id(rec, events)
        out.extend(_hand_ids(rnd, rec, replay_id, path))
        if claims.win_tile is None:
            continue
        checked += 1
        same = claims.win_tile == rec.win_tile and (
            claims.win_tile_id is None or replay_id is None or claims.win_tile_id == replay_id
        )
        if same:
            continue
        shown = _tile_text(claims.win_tile, claims.win_tile_id)
        want = _tile_text(rec.win_tile, replay_id)
        how = "draws" if rec.tsumo else "takes"
        out.append(
            error(
                rnd,
                path,
                "win-tile-mismatch",
                f"the log names {shown} as seat {rec.seat}'s winning tile, but the seat "
                f"{how} {want} to win",
                rec.event_index,
                rec.seat,
                want,
                shown,
            )
        )
    return out, checked


def _hand_ids(rnd: RoundReplay, rec: WinRecord, won_id: int | None, path: str) -> list[Finding]:
    """The physical ids of the winning hand the log shows (Tenhou ``hai``) against the
    replay's; the tiles themselves the replay has compared already."""
    shown = rec.event.claims.hand_ids
    if shown is None:
        return []
    held = list(rec.concealed_ids) if rec.concealed_ids is not None else None
    if held is None or (not rec.tsumo and won_id is None):
        return []
    if not rec.tsumo:
        assert won_id is not None
        held = sorted([*held, won_id])
    if sorted(shown) == held:
        return []
    return [
        error(
            rnd,
            path,
            "inconsistent-log",
            f"the log shows seat {rec.seat}'s winning hand with tile ids {sorted(shown)}, "
            f"the replay has ids {held}",
            rec.event_index,
            rec.seat,
            held,
            sorted(shown),
        )
    ]


def _tile_text(tile: Tile, tile_id: int | None) -> str:
    return f"{tile} (id {tile_id})" if tile_id is not None else str(tile)


def _winning_id(rec: WinRecord, events: tuple[Event, ...]) -> int | None:
    """The physical id of the winning tile, from the last draw, discard or added kan
    tile before the win (a double ron's first win in between is skipped)."""
    for k in range(rec.event_index - 1, -1, -1):
        ev = events[k]
        if isinstance(ev, Win):
            continue
        if isinstance(ev, DrawTile):
            return ev.tile_id if rec.tsumo and ev.seat == rec.seat else None
        if isinstance(ev, Discard):
            return ev.tile_id if not rec.tsumo and ev.seat == rec.from_seat else None
        if isinstance(ev, DeclareMeld):
            return ev.meld.added_id if not rec.tsumo else None
        return None
    return None


def settle_record(
    result: HandResult,
    rec: WinRecord,
    rules: Ruleset,
    pao_seat: int | None,
    takes_honba_and_sticks: bool = True,
) -> tuple[int, ...]:
    """:func:`analyzer.hands.points.settle_win` of the win ``rec`` scored as ``result``."""
    return settle_win(
        result,
        rec.seat,
        rec.from_seat,
        rec.dealer,
        rec.honba,
        rec.riichi_sticks,
        rules,
        pao_seat=pao_seat,
        players=rules.players,
        takes_honba_and_sticks=takes_honba_and_sticks,
    )


def _fit_unknown_ura(
    result: HandResult, rec: WinRecord, rules: Ruleset, takes_sticks: bool
) -> HandResult:
    """The result with the fewest ura han that reproduce the log's han, points or deltas."""
    claims = rec.event.claims
    for ura in range(0, 13):
        cand = with_ura_han(result, ura, rec.context, rules) if ura else result
        if claims.han is not None:
            if cand.han == claims.han:
                return cand
            continue
        if claims.points is not None:
            if cand.total == claims.points:
                return cand
            continue
        if claims.deltas is not None:
            deltas = settle_record(cand, rec, rules, claims.pao_seat, takes_sticks)
            if tuple(deltas) == tuple(claims.deltas):
                return cand
            continue
        return result
    return result


def _err(
    rnd: RoundReplay,
    rec: WinRecord,
    path: str,
    code: str,
    message: str,
    expected: JsonValue = None,
    actual: JsonValue = None,
) -> Finding:
    return error(
        rnd, path, code, f"seat {rec.seat}: {message}", rec.event_index, rec.seat, expected, actual
    )


def _tenhou_limit(result: HandResult, rules: Ruleset) -> Limit:
    """The limit code a Tenhou log writes for this result."""
    if (
        rules.kiriage
        and result.limit is Limit.MANGAN
        and not result.yakuman
        and result.han < 5
        and result.fu * 2 ** (result.han + 2) == 1920
    ):
        # Tenhou writes the limit code of a kiriage mangan as 0, from han and fu
        # before the rounding (dnovikoff-tenhou_chip.xml E1-0: ten="30,12000,0").
        return Limit.NONE
    return result.limit


def _compare_value(
    rnd: RoundReplay,
    rec: WinRecord,
    result: HandResult,
    rules: Ruleset,
    path: str,
    yakuman_fu: bool = True,
) -> list[Finding]:
    """Yaku, han, fu, points and limit: the log's claims against the recomputation."""
    out: list[Finding] = []
    claims = rec.event.claims

    def diff(code: str, what: str, expected: int, actual: int | None, why: str = "") -> None:
        if actual is not None and expected != actual:
            message = f"log says {actual} {what}, recomputed {expected} {what}"
            out.append(
                _err(rnd, rec, path, code, message + (f" ({why})" if why else ""), expected, actual)
            )

    if result.yakuman:
        want = Counter(y.yaku for y in result.yaku if y.yakuman)
        if not claims.yakuman_forms:  # the log's one name for both forms
            want = Counter(SINGLE_FORM.get(y, y) for y in want.elements())
        recomputed = sorted(y.label for y in want)
        if claims.yakuman is not None and Counter(claims.yakuman) != want:
            listed = sorted(y.label for y in claims.yakuman)
            out.append(
                _err(
                    rnd,
                    rec,
                    path,
                    "yaku-mismatch",
                    f"log lists yakuman {', '.join(listed)}, recomputed {', '.join(recomputed)}",
                    recomputed,
                    listed,
                )
            )
        elif claims.yakuman is None and claims.yaku is not None:
            out.append(
                _err(
                    rnd,
                    rec,
                    path,
                    "yaku-mismatch",
                    f"log lists ordinary yaku, recomputed yakuman {', '.join(recomputed)}",
                    recomputed,
                    _fmt(Counter(claims.yaku)),
                )
            )
    else:
        han_done = False
        if claims.yaku is not None:
            have = Counter(claims.yaku)
            want_y = tenhou_yaku(result, rec.context.riichi or rec.context.double_riichi)
            # Both hold positive counts only, so plain dict equality (in C) is Counter
            # equality: the same (yaku, han) multiset, the usual case, ends here.
            if dict.__eq__(have, want_y):
                pass
            elif Counter(y for y, _ in have.elements()) != Counter(y for y, _ in want_y.elements()):
                # Different yaku: the han total differs as a consequence and is not
                # reported again.
                extra = ", ".join(_fmt(have - want_y)) or "nothing more"
                missing = ", ".join(_fmt(want_y - have)) or "nothing"
                message = f"log lists {extra} where recomputation has {missing}"
                out.append(_err(rnd, rec, path, "yaku-mismatch", message, _fmt(want_y), _fmt(have)))
                han_done = True
            else:  # the same yaku with other han
                want_han = {y: h for (y, h) in want_y}
                wrong = ", ".join(
                    f"{y.label} {h} han (recomputed {want_han.get(y, 0)})"
                    for (y, h) in sorted(have - want_y)
                )
                # The total the list makes, not the log's own total (a format that
                # gives both, Tenhou JSON and mjai, may have only the list wrong).
                total = sum(h for _, h in have.elements())
                message = f"log gives {wrong}: {total} han in all, recomputed {result.han}"
                out.append(_err(rnd, rec, path, "han-mismatch", message, result.han, total))
                han_done = True
        elif claims.yakuman is not None:
            listed = sorted(y.label for y in claims.yakuman)
            message = f"log lists yakuman {', '.join(listed)}, recomputed {result.han} han"
            out.append(_err(rnd, rec, path, "yaku-mismatch", message, result.han, listed))
            han_done = True
        if not han_done:
            diff("han-mismatch", "han", result.han, claims.han)
    # A yakuman win's fu are the hand's all the same: Tenhou writes them in ``ten``
    # (tenhou-format.md §1.10, rules-matrix §G: ``40,32000,5``, kokushi 0); no other
    # format documents what it writes there for a yakuman.
    fu_claimed = claims.fu is not None and (yakuman_fu or not result.yakuman)
    if fu_claimed and result.fu != claims.fu:  # spell out the parts only then
        diff(
            "fu-mismatch",
            "fu",
            result.fu,
            claims.fu,
            ", ".join(f"{p.reason} {p.fu}" for p in result.fu_parts),
        )
    diff("points-mismatch", "points", result.total, claims.points)
    want_limit = _tenhou_limit(result, rules)
    if claims.limit is not None and claims.limit != want_limit:
        out.append(
            _err(
                rnd,
                rec,
                path,
                "limit-mismatch",
                f"log says {_limit(claims.limit)}, recomputed {_limit(want_limit)}",
                want_limit.name.lower(),
                claims.limit.name.lower(),
            )
        )
    return out


def _limit(limit: Limit) -> str:
    return "no limit" if limit is Limit.NONE else limit.name.lower()


def settled_liable(pao: int | None, named: int | None, rules: Ruleset) -> int | None:
    """The liable seat a win is settled with: the one the calls make (``pao``); where
    they make none, the one the log names (its payments then follow the
    pao-mismatch), unless the rules have no liability at all."""
    return pao if pao is not None or not rules.pao_yakuman else named


def _who(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"
