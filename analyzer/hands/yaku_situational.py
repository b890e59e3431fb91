"""Yaku of the situation: how and when the hand won, not what it holds.

The replay engine decides the flags in :class:`~mjaudit.hands.WinContext` (first
go-around, ippatsu breaks, last tile, kan replacement); this module only turns them
into yaku, so a flag the engine set is trusted here.
"""

from __future__ import annotations

from functools import cache

from mjaudit.hands import WinContext, YakuHan
from mjaudit.rules import Ruleset
from mjaudit.yaku import Yaku

__all__ = ["entry", "situational_yaku", "situational_yakuman"]


@cache
def entry(yaku: Yaku, han: int, yakuman: int = 0) -> YakuHan:
    """An interned :class:`YakuHan` (the scorer builds the same few thousands of times)."""
    return YakuHan(yaku, han, yakuman)


# Each yaku as its interned entry, made once (a Yaku member's lookup and the call
# to entry cost more than a global's).
_DOUBLE_RIICHI = entry(Yaku.DOUBLE_RIICHI, 2)
_RIICHI = entry(Yaku.RIICHI, 1)
_IPPATSU = entry(Yaku.IPPATSU, 1)
_MENZEN_TSUMO = entry(Yaku.MENZEN_TSUMO, 1)
_CHANKAN = entry(Yaku.CHANKAN, 1)
_RINSHAN = entry(Yaku.RINSHAN, 1)
_HAITEI = entry(Yaku.HAITEI, 1)
_HOUTEI = entry(Yaku.HOUTEI, 1)
_RENHOU_5 = entry(Yaku.RENHOU, 5)
_TENHOU_YAKUMAN = entry(Yaku.TENHOU, 13, 1)
_CHIIHOU_YAKUMAN = entry(Yaku.CHIIHOU, 13, 1)
_RENHOU_YAKUMAN = entry(Yaku.RENHOU, 13, 1)


def situational_yaku(ctx: WinContext, rules: Ruleset, closed: bool) -> list[YakuHan]:
    """Riichi, ippatsu, menzen tsumo, last tile, kan and (cumulative) renhou yaku."""
    out: list[YakuHan] = []
    if ctx.double_riichi:
        # Tenhou id 21 replaces riichi (id 1); it is 2 han.
        out.append(_DOUBLE_RIICHI)
    elif ctx.riichi:
        out.append(_RIICHI)
    if ctx.ippatsu and rules.ippatsu and (ctx.riichi or ctx.double_riichi):
        out.append(_IPPATSU)
    if ctx.tsumo and closed:
        out.append(_MENZEN_TSUMO)
    if ctx.chankan and not ctx.tsumo:
        out.append(_CHANKAN)
    if ctx.rinshan and ctx.tsumo:
        out.append(_RINSHAN)
    # Tenhou: a rinshan win is never haitei, whatever the flag says.
    if ctx.haitei and ctx.tsumo and not ctx.rinshan:
        out.append(_HAITEI)
    if ctx.houtei and not ctx.tsumo:
        out.append(_HOUTEI)
    if ctx.renhou and not ctx.tsumo and rules.renhou == "cumulative":
        # WRC 2014 §6.5.4 lists it among the five-han yaku, "cumulative with other yaku
        # and dora": a mangan on its own. (A "mangan" renhou is a limit: scoring.score.)
        out.append(_RENHOU_5)
    return out


def situational_yakuman(ctx: WinContext, rules: Ruleset) -> list[YakuHan]:
    """Tenhou, chiihou and (where the rules make it one) renhou."""
    out: list[YakuHan] = []
    if ctx.tenhou and ctx.tsumo:
        out.append(_TENHOU_YAKUMAN)
    if ctx.chiihou and ctx.tsumo:
        out.append(_CHIIHOU_YAKUMAN)
    if ctx.renhou and not ctx.tsumo and rules.renhou == "yakuman":
        out.append(_RENHOU_YAKUMAN)
    return out
