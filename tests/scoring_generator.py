"""A seeded generator of varied, legal winning hands, for differential tests and benchmarks.

Each :class:`GeneratedWin` holds our inputs (tiles, melds, :class:`WinContext`) and
the physical Tenhou ids (kind·4 + copy; a red five is copy 0) that another scorer
needs. Hands are built group by group under the four-copies limit, then some groups
become calls (chi, pon, daiminkan, kakan, ankan), one concealed tile is the winning
tile, and situation flags are drawn only where they are legal (riichi closed, rinshan
after a kan on a tsumo, chankan on a ron of a tile nobody else holds, ...).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from mjaudit.hands import WinContext
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile

__all__ = ["GeneratedWin", "generate_sanma_wins", "generate_wins"]

_FIVES = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class GeneratedWin:
    concealed: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...]
    ctx: WinContext
    concealed_ids: tuple[int, ...]
    win_id: int
    meld_ids: tuple[tuple[int, ...], ...]
    dora_ids: tuple[int, ...]
    ura_ids: tuple[int, ...]

    def describe(self) -> str:
        from mjaudit.tiles import to_mpsz

        melds = " ".join(str(m) for m in self.melds)
        return f"{to_mpsz(self.concealed)} win {self.win_tile} {melds} {self.ctx}"


class _Ids:
    """Hands out physical ids per kind: red fives take copy 0, the rest copies 1..3."""

    def __init__(self) -> None:
        self.used: dict[int, set[int]] = {}

    def take(self, tile: Tile) -> int:
        used = self.used.setdefault(tile.kind, set())
        copies = [0] if tile.red else ([1, 2, 3] if tile.kind in _FIVES else [0, 1, 2, 3])
        for c in copies:
            if c not in used:
                used.add(c)
                return tile.kind * 4 + c
        raise ValueError(f"no copy left of {tile}")


def _template(rng: random.Random) -> list[list[int]]:
    """Groups aimed at the rarer sequence yaku: sanshoku, ittsu, peikou, outside hands."""
    match rng.randrange(5):
        case 0:  # sanshoku
            n = rng.randrange(7)
            return [[n, n + 1, n + 2], [n + 9, n + 10, n + 11], [n + 18, n + 19, n + 20]]
        case 1:  # ittsu
            b = 9 * rng.randrange(3)
            return [[b, b + 1, b + 2], [b + 3, b + 4, b + 5], [b + 6, b + 7, b + 8]]
        case 2:  # ryanpeikou / iipeikou
            a, b = rng.randrange(27), rng.randrange(27)
            a, b = a - max(0, a % 9 - 6), b - max(0, b % 9 - 6)
            return [[a, a + 1, a + 2]] * 2 + [[b, b + 1, b + 2]] * 2
        case 3:  # chanta / junchan: sequences at the edges
            return [[e, e + 1, e + 2] for e in rng.sample([0, 6, 9, 15, 18, 24], 3)]
        case _:  # sanshoku doukou
            n = rng.randrange(9)
            return [[n] * 3, [n + 9] * 3, [n + 18] * 3]


def _groups(rng: random.Random) -> tuple[list[list[int]], int] | None:
    """Four groups (kind lists) and a pair kind under the four-copies limit."""
    left = [4] * 34
    groups: list[list[int]] = []
    # Bias towards fewer suits now and then so flushes and honour hands appear.
    pool = list(range(34))
    if rng.random() < 0.25:
        suit = rng.randrange(3)
        pool = list(range(9 * suit, 9 * suit + 9)) + (list(range(27, 34)) * (rng.random() < 0.5))
    if rng.random() < 0.2:
        for g in _template(rng):
            for x in g:
                left[x] -= 1
            groups.append(g)
    p_seq = rng.choice([0.3, 0.6, 0.9])
    while len(groups) < 4:
        for _attempt in range(20):
            k = rng.choice(pool)
            seq = k < 27 and k % 9 <= 6 and rng.random() < p_seq
            g = [k, k + 1, k + 2] if seq else [k, k, k]
            if all(left[x] >= g.count(x) for x in set(g)):
                for x in g:
                    left[x] -= 1
                groups.append(g)
                break
        else:
            return None
    pairs = [k for k in pool if left[k] >= 2]
    if not pairs:
        return None
    return groups, rng.choice(pairs)


def _redden(kinds: list[int], rng: random.Random, reds: set[int]) -> list[Tile]:
    out: list[Tile] = []
    for k in kinds:
        red = k in _FIVES and k not in reds and rng.random() < 0.5
        if red:
            reds.add(k)
        out.append(Tile(k, red))
    return out


def _one(rng: random.Random) -> GeneratedWin | None:
    reds: set[int] = set()
    ids = _Ids()
    melds: list[Meld] = []
    meld_ids: list[tuple[int, ...]] = []
    concealed: list[Tile] = []
    shape = rng.random()
    if shape < 0.06:
        kinds = rng.sample(range(34), 7)
        concealed = _redden(sorted(kinds * 2), rng, reds)
    elif shape < 0.075:
        yao = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        concealed = [Tile(k) for k in [*yao, rng.choice(yao)]]
    elif shape < 0.085:
        b = 9 * rng.randrange(3)
        kinds = [b + i for i in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [b + rng.randrange(9)]
        concealed = _redden(sorted(kinds), rng, reds)
    else:
        made = _groups(rng)
        if made is None:
            return None
        groups, pair = made
        called_from = rng.randrange(1, 4)
        calls = rng.choice([0.0, 0.5, 1.0])
        for g in groups:
            roll = rng.random() / calls if calls else 1.0
            tiles = _redden(g, rng, reds)
            if g[0] != g[1] and roll < 0.25:
                melds.append(Meld(MeldKind.CHI, tuple(tiles), tiles[0], called_from))
                meld_ids.append(tuple(ids.take(t) for t in tiles))
                continue
            if g[0] == g[1] and roll < 0.45:
                fourth = sum(x == g[0] for gg in groups for x in gg) + 2 * (pair == g[0]) < 4
                if roll < 0.2 or not fourth:
                    melds.append(Meld(MeldKind.PON, tuple(tiles), tiles[0], called_from))
                else:
                    tiles = tiles + _redden([g[0]], rng, reds)
                    kind = rng.choice([MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.ANKAN])
                    called = None if kind is MeldKind.ANKAN else tiles[0]
                    frm = None if kind is MeldKind.ANKAN else called_from
                    added = tiles[-1] if kind is MeldKind.KAKAN else None
                    melds.append(Meld(kind, tuple(tiles), called, frm, added))
                meld_ids.append(tuple(ids.take(t) for t in tiles))
                continue
            concealed.extend(tiles)
        concealed.extend(_redden([pair, pair], rng, reds))
    concealed_ids = [ids.take(t) for t in concealed]
    win_index = rng.randrange(len(concealed))
    win_tile = concealed[win_index]
    opened = any(m.is_open for m in melds)
    has_kan = any(m.is_kan for m in melds)
    tsumo = rng.random() < 0.45
    riichi = not opened and rng.random() < 0.5
    double = riichi and rng.random() < 0.1
    ippatsu = riichi and rng.random() < 0.2
    rinshan = tsumo and has_kan and rng.random() < 0.3
    haitei = tsumo and not rinshan and rng.random() < 0.05
    houtei = not tsumo and rng.random() < 0.05
    # Chankan: the robbed kakan holds the other three copies, so the winner holds one.
    only_copy = sum(t.kind == win_tile.kind for t in concealed) == 1 and not any(
        t.kind == win_tile.kind for m in melds for t in m.tiles
    )
    chankan = not tsumo and not houtei and only_copy and rng.random() < 0.3
    seat = rng.randrange(4)
    first_turn = tsumo and not melds and not riichi and rng.random() < 0.03
    dora_n = rng.randint(1, 5)
    dora_tiles = [Tile(rng.randrange(34)) for _ in range(dora_n)]
    ura_tiles = [Tile(rng.randrange(34)) for _ in range(dora_n)] if riichi else []
    try:
        dora_ids = tuple(ids.take(t) for t in dora_tiles)
        ura_ids = tuple(ids.take(t) for t in ura_tiles)
    except ValueError:
        return None
    ctx = WinContext(
        tsumo=tsumo,
        riichi=riichi and not double,
        double_riichi=double,
        ippatsu=ippatsu,
        rinshan=rinshan,
        chankan=chankan,
        haitei=haitei,
        houtei=houtei,
        tenhou=first_turn and seat == 0,
        chiihou=first_turn and seat != 0,
        seat_wind=seat,
        round_wind=rng.randrange(4),
        dora_indicators=tuple(dora_tiles),
        ura_indicators=tuple(ura_tiles),
    )
    return GeneratedWin(
        tuple(concealed),
        win_tile,
        tuple(melds),
        ctx,
        tuple(concealed_ids),
        concealed_ids[win_index],
        tuple(meld_ids),
        dora_ids,
        ura_ids,
    )


def generate_wins(n: int, seed: int = 2024) -> list[GeneratedWin]:
    """``n`` legal winning hands (some without a yaku), reproducible from ``seed``."""
    rng = random.Random(seed)
    out: list[GeneratedWin] = []
    while len(out) < n:
        try:
            win = _one(rng)
        except ValueError:  # four plain fives: one of them would have to be red
            continue
        if win is not None:
            out.append(win)
    return out


_SANMA_GONE = frozenset(range(1, 8))  # 2m..8m are not in the three-player set


def generate_sanma_wins(n: int, seed: int = 2025) -> list[GeneratedWin]:
    """``n`` three-player wins: no 2m-8m, no chi, seats E/S/W, East or South round,
    up to two extracted Norths (kita melds), indicators from the 108-tile set."""
    rng = random.Random(seed)
    kinds = [k for k in range(34) if k not in _SANMA_GONE]
    out: list[GeneratedWin] = []
    while len(out) < n:
        try:
            win = _one(rng)
        except ValueError:
            continue
        if win is None or any(m.kind is MeldKind.CHI for m in win.melds):
            continue
        held = [*win.concealed, *(t for m in win.melds for t in m.tiles)]
        if any(t.kind in _SANMA_GONE for t in held):
            continue
        norths = sum(t.kind == 30 for t in held)
        kita = rng.randint(0, min(2, 4 - norths))
        dora = tuple(Tile(rng.choice(kinds)) for _ in win.ctx.dora_indicators)
        ura = tuple(Tile(rng.choice(kinds)) for _ in win.ctx.ura_indicators)
        ctx = replace(
            win.ctx,
            players=3,
            seat_wind=win.ctx.seat_wind % 3,
            round_wind=win.ctx.round_wind % 2,
            tenhou=win.ctx.tenhou and not kita,
            chiihou=win.ctx.chiihou and not kita,
            dora_indicators=dora,
            ura_indicators=ura,
        )
        if (ctx.tenhou and ctx.seat_wind != 0) or (ctx.chiihou and ctx.seat_wind == 0):
            ctx = replace(ctx, tenhou=False, chiihou=False)
        kita_melds = tuple(Meld(MeldKind.KITA, (Tile("4z"),)) for _ in range(kita))
        out.append(
            replace(
                win,
                melds=win.melds + kita_melds,
                ctx=ctx,
                dora_ids=tuple(t.kind * 4 + 1 for t in dora),
                ura_ids=tuple(t.kind * 4 + 1 for t in ura),
            )
        )
    return out
