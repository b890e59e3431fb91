"""Helpers that let scoring tests speak mahjong.

>>> score("234m567p22345678s", win="8s", ron=True, riichi=True).han
3
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.hands.hand import shanten as _shanten
from analyzer.hands.hand import waits as _waits
from analyzer.hands.scoring import score as _score
from mjaudit.hands import HandResult, WinContext
from mjaudit.melds import Meld, MeldKind
from mjaudit.rules import Ruleset, preset
from mjaudit.tiles import Tile, tiles

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}


def counts(text: str) -> list[int]:
    out = [0] * 34
    for t in tiles(text):
        out[t.kind] += 1
    return out


def shanten(text: str) -> int:
    return _shanten(counts(text))


def waits(text: str) -> str:
    """The waits of a hand, written in mpsz (``"36m"``)."""
    found = sorted(_waits(counts(text)))
    from mjaudit.tiles import to_mpsz

    return to_mpsz(Tile(k) for k in found)


def meld(spec: str) -> Meld:
    """``"chi:234m"``, ``"pon:777p"``, ``"daiminkan:5555z"``, ``"kakan:2222p"``,
    ``"ankan:1111s"``, ``"kita:4z"``."""
    kind_name, _, text = spec.partition(":")
    kind = MeldKind(kind_name)
    group = tiles(text)
    match kind:
        case MeldKind.ANKAN | MeldKind.KITA:
            return Meld(kind, group)
        case MeldKind.KAKAN:
            return Meld(kind, group, called=group[0], from_seat=0, added=group[-1])
        case _:
            return Meld(kind, group, called=group[0], from_seat=0)


def context(
    *,
    ron: bool = False,
    tsumo: bool = False,
    riichi: bool = False,
    double_riichi: bool = False,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    renhou: bool = False,
    seat: str = "S",
    round: str = "E",
    dora: Sequence[str] = (),
    ura: Sequence[str] = (),
    kita: int = 0,
    players: int = 4,
) -> WinContext:
    if ron == tsumo:
        raise ValueError("say ron=True or tsumo=True")
    return WinContext(
        tsumo=tsumo,
        riichi=riichi,
        double_riichi=double_riichi,
        ippatsu=ippatsu,
        rinshan=rinshan,
        chankan=chankan,
        haitei=haitei,
        houtei=houtei,
        tenhou=tenhou,
        chiihou=chiihou,
        renhou=renhou,
        seat_wind=WINDS[seat],
        round_wind=WINDS[round],
        dora_indicators=tuple(Tile(d) for d in dora),
        ura_indicators=tuple(Tile(u) for u in ura),
        kita=kita,
        players=players,
    )


def score(
    hand: str,
    win: str,
    *,
    melds: Sequence[str] = (),
    rules: str | Ruleset = "tenhou",
    **situation: object,
) -> HandResult:
    """Score ``hand`` (concealed tiles including the winning tile) won on ``win``."""
    ruleset = preset(rules) if isinstance(rules, str) else rules
    ctx = context(**situation)  # type: ignore[arg-type]
    return _score(tiles(hand), Tile(win), tuple(meld(m) for m in melds), ctx, ruleset)


def yaku_names(result: HandResult) -> list[str]:
    return sorted(y.yaku.name.lower() for y in result.yaku)
