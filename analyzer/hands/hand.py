"""Hand analysis on 34-kind count vectors: decompositions, waits and shanten.

Everything works on counts (a sequence of 34 ints, one per tile kind) of the
*concealed* part of a hand; called melds and concealed kans are not in the counts.
A concealed part has 3k+2 tiles when complete and 3k+1 when waiting.

Speed matters: the replay engine asks for waits after every discard of every player.
Suits are independent, so each suit's 9-count vector is looked up in tables that are
filled lazily, once per distinct vector, and shared by all suits:

- ``_SUIT_SETS[vec]``: every way to split the vector into sets (triplets/sequences);
- ``_SUIT_PAIRED[vec]``: every way to split it into sets plus one pair;
- ``_FRONTIER[vec]``: the Pareto-best (sets, partial sets, head) counts for shanten.

A group is encoded as one int: ``k`` (0..33) is a triplet of kind ``k`` and
``SEQ + k`` is the sequence starting at kind ``k``.

>>> from mjaudit.tiles import tiles
>>> def counts(text):
...     c = [0] * 34
...     for t in tiles(text):
...         c[t.kind] += 1
...     return c
>>> shanten(counts("123m456p789s1234z")), sorted(waits(counts("1112345678999m")))
(2, [0, 1, 2, 3, 4, 5, 6, 7, 8])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from operator import itemgetter, mul
from typing import Final

from mjaudit.frozen import quick_builder, quick_init

__all__ = [
    "SEQ",
    "Decomposition",
    "KeyedHand",
    "decompose",
    "draw_shanten",
    "hand_key",
    "is_chiitoitsu",
    "is_complete",
    "is_kokushi",
    "key_waits",
    "part_signature",
    "parts_waits",
    "shanten",
    "signed_waits",
    "waits",
]

SEQ: Final = 34
_POSITIONS: Final = range(9)  # the positions of a suit's counts
YAOCHU: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_YAOCHU_SET: Final = frozenset(YAOCHU)
_CACHE_LIMIT: Final = 200_000

Vec = tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Decomposition:
    """Four-sets-and-a-pair reading of a concealed part: ``pair`` kind, the kinds of
    the triplets and the start kinds of the sequences, each sorted."""

    pair: int
    triplets: tuple[int, ...]
    sequences: tuple[int, ...]

    @property
    def groups(self) -> tuple[int, ...]:
        """The groups as one sorted tuple: triplets by kind, then each sequence as
        SEQ + its start."""
        return self.triplets + tuple(SEQ + s for s in self.sequences)


# Decomposition(pair, triplets, sequences), built without the constructor's __init__
# (about half its cost; mjaudit.frozen.quick_builder).
_decomposition: Callable[[int, tuple[int, ...], tuple[int, ...]], Decomposition] = quick_builder(
    Decomposition, "_decomposition"
)


# -- per-suit tables ---------------------------------------------------------------

_SUIT_SETS: dict[Vec, tuple[tuple[int, ...], ...]] = {}
_SUIT_PAIRED: dict[Vec, tuple[tuple[int, tuple[int, ...]], ...]] = {}


def _split_sets(v: list[int], i: int, acc: list[int], out: list[tuple[int, ...]]) -> None:
    """Append to ``out`` every split of ``v[i:]`` into sets (local group codes)."""
    while i < 9 and v[i] == 0:
        i += 1
    if i == 9:
        out.append(tuple(acc))
        return
    c = v[i]
    # The lowest remaining tile is covered by a triplet at i or sequences starting
    # at i; choosing the number of triplets first makes every split unique.
    for trip in (1, 0) if c >= 3 else (0,):
        seqs = c - 3 * trip
        if seqs and (i > 6 or v[i + 1] < seqs or v[i + 2] < seqs):
            continue
        v[i] = 0
        if seqs:
            v[i + 1] -= seqs
            v[i + 2] -= seqs
        acc.extend([i] * trip + [SEQ + i] * seqs)
        _split_sets(v, i + 1, acc, out)
        del acc[len(acc) - trip - seqs :]
        v[i] = c
        if seqs:
            v[i + 1] += seqs
            v[i + 2] += seqs


def suit_sets(vec: Vec) -> tuple[tuple[int, ...], ...]:
    """All splits of a 9-count suit vector into sets, groups local to the suit."""
    found = _SUIT_SETS.get(vec)
    if found is None:
        out: list[tuple[int, ...]] = []
        if sum(vec) % 3 == 0:
            _split_sets(list(vec), 0, [], out)
        found = tuple(out)
        _SUIT_SETS[vec] = found
    return found


def suit_paired(vec: Vec) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """All splits of a suit vector into one pair (local index) plus sets."""
    found = _SUIT_PAIRED.get(vec)
    if found is None:
        out: list[tuple[int, tuple[int, ...]]] = []
        if sum(vec) % 3 == 2:
            v = list(vec)
            for i in range(9):
                if v[i] >= 2:
                    v[i] -= 2
                    out.extend((i, sets) for sets in suit_sets(tuple(v)))
                    v[i] += 2
        found = tuple(out)
        _SUIT_PAIRED[vec] = found
    return found


def _globalise(pair: int, groups: tuple[int, ...], base: int) -> Option:
    """A suit's split (pair and groups local to it) as an Option, numbered as the
    hand's kinds: the triplets and the sequences' starts apart, each sorted."""
    triplets = tuple(g + base for g in groups if g < SEQ)
    starts = tuple(g - SEQ + base for g in groups if g >= SEQ)
    return (pair + base if pair >= 0 else -1, triplets, starts)


# -- complete hands ----------------------------------------------------------------


def decompose(counts: Sequence[int]) -> tuple[Decomposition, ...]:
    """Every four-sets-and-a-pair reading of a concealed part of 3k+2 tiles.

    Seven pairs and thirteen orphans are not included (see :func:`is_chiitoitsu`,
    :func:`is_kokushi`). Not cached: over the Tenhou corpus 98% of the hands an audit
    decomposes are new, and a cache of them only spreads the heap.
    """
    return _decompose(tuple(counts))


# A part's split: its pair's kind (-1: none), its triplets' kinds and its sequences'
# start kinds, each sorted.
Option = tuple[int, tuple[int, ...], tuple[int, ...]]
_PAIR = itemgetter(0)
_TRIPLETS = itemgetter(1)
_STARTS = itemgetter(2)

# Each suit's splits (suit_paired, suit_sets) numbered as the hand's kinds, by suit
# and counts: what _decompose takes of a suit, looked up once. The parts come in the
# order of their kinds, so that joining theirs keeps the triplets and the starts
# sorted.
_SUIT_OPTIONS: Final[tuple[dict[Vec, tuple[Option, ...]], ...]] = ({}, {}, {})


def _suit_options(suit: int, vec: Vec) -> tuple[Option, ...]:
    """The splits of a suit's counts: with a pair when its tiles are 3k+2, with none
    (-1) when 3k; no split when 3k+1 or none fits."""
    table = _SUIT_OPTIONS[suit]
    found = table.get(vec)
    if found is None:
        base = 9 * suit
        r = sum(vec) % 3
        if r == 2:
            found = tuple(_globalise(p, g, base) for p, g in suit_paired(vec))
        elif r == 0:
            found = tuple(_globalise(-1, g, base) for g in suit_sets(vec))
        else:
            found = ()
        if len(table) < _CACHE_LIMIT:
            table[vec] = found
    return found


# The honours' split (a one-option tuple, as a suit's) by their seven counts; None
# where a count is not 0, 2 or 3 or two pairs are held. At most 4**7 of them.
_HONOR_OPTIONS: Final[dict[tuple[int, ...], tuple[Option, ...] | None]] = {}


def _honor_option(honors: tuple[int, ...]) -> tuple[Option, ...] | None:
    """Honours: each count 0, 3 (a triplet) or 2 (the pair, if no suit holds it)."""
    try:
        return _HONOR_OPTIONS[honors]
    except KeyError:
        pass
    found: tuple[Option, ...] | None = None
    pairs = honors.count(2)
    if honors.count(0) + pairs + honors.count(3) == 7 and pairs <= 1:
        pair = 27 + honors.index(2) if pairs else -1
        sets = tuple(27 + k for k, n in enumerate(honors) if n == 3)
        found = ((pair, sets, ()),)
    if len(honors) == 7 and max(honors, default=0) <= 4:  # what a hand can hold: kept
        _HONOR_OPTIONS[honors] = found
    return found


def _decompose(key: Vec) -> tuple[Decomposition, ...]:
    if sum(key) % 3 != 2:
        return ()
    options: list[tuple[Option, ...]] = []
    pair_seen = False
    for s, table in enumerate(_SUIT_OPTIONS):
        vec = key[9 * s : 9 * s + 9]
        found = table.get(vec)
        if found is None:
            found = _suit_options(s, vec)
        if not found:
            return ()
        if found[0][0] >= 0:
            if pair_seen:
                return ()
            pair_seen = True
        options.append(found)
    honors = _honor_option(key[27:])
    if honors is None or (honors[0][0] >= 0) + pair_seen != 1:
        return ()
    options.append(honors)
    out: list[Decomposition] = []
    for combo in product(*options):
        # The pair of the one part that has it; every part's triplets and starts, in
        # the parts' order (so sorted).
        pair = max(map(_PAIR, combo))
        triplets = sum(map(_TRIPLETS, combo), ())
        starts = sum(map(_STARTS, combo), ())
        out.append(_decomposition(pair, triplets, starts))
    return tuple(out)


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    # Seven counts of 2 and fourteen tiles: every other count is 0.
    return counts.count(2) == 7 and sum(counts) == 14


def is_kokushi(counts: Sequence[int]) -> bool:
    """All thirteen terminal and honour kinds plus a duplicate of one of them."""
    if sum(counts) != 14:
        return False
    return all(counts[k] for k in YAOCHU) and sum(counts[k] for k in YAOCHU) == 14


def _honors_ok(h: Sequence[int]) -> tuple[bool, int]:
    """(complete, residue) of the honour part: every count 0/3 plus at most one 2."""
    pairs = 0
    for c in h:
        if c == 2:
            pairs += 1
        elif c not in (0, 3):
            return False, -1
    return pairs <= 1, 2 if pairs else 0


def is_complete(counts: Sequence[int]) -> bool:
    """Whether the concealed part is a winning shape (standard, seven pairs, kokushi)."""
    total = sum(counts)
    if total % 3 != 2:
        return False
    if total == 14 and (is_chiitoitsu(counts) or is_kokushi(counts)):
        return True
    return _standard_complete(counts)


def _all_sets(v: Sequence[int]) -> bool:
    """Whether a suit's 9 counts split into sets, without listing the splits.

    The lowest tile left, at ``i``, is in triplets of ``i`` or in sequences that start
    at ``i``. Three equal sequences hold the same tiles as three triplets, so there is
    a split with ``v[i] % 3`` sequences there if there is one at all.
    """
    a, b = v[0], v[1]  # what is left at i and at i + 1
    for i in range(7):
        s = a % 3
        c = v[i + 2]
        if s:
            if b < s or c < s:
                return False
            b -= s
            c -= s
        a, b = b, c
    return a % 3 == 0 and b % 3 == 0


def _suit_complete(vec: Vec) -> tuple[bool, int]:
    """(complete, residue) of a suit: all sets (residue 0), or sets and a pair (2)."""
    r = sum(vec) % 3
    if r == 0:
        return _all_sets(vec), 0
    if r == 2:
        # Each set's positions sum to 0 mod 3 (3i, or i + i+1 + i+2), so the pair's
        # position p has 2p = sum(i * v[i]) mod 3: only every third position can hold it.
        v = list(vec)
        first = 2 * sum(map(mul, v, _POSITIONS)) % 3
        for i in range(first, 9, 3):
            if v[i] >= 2:
                v[i] -= 2
                ok = _all_sets(v)
                v[i] += 2
                if ok:
                    return True, 2
        return False, 2
    return False, 1


def _standard_complete(counts: Sequence[int]) -> bool:
    pairs = 0
    for s in range(3):
        ok, r = _suit_complete(tuple(counts[9 * s : 9 * s + 9]))
        if not ok:
            return False
        pairs += r == 2
    ok, r = _honors_ok(counts[27:34])
    return ok and pairs + (r == 2) == 1


# -- waits ------------------------------------------------------------------------


def waits(counts: Sequence[int]) -> frozenset[int]:
    """Tile kinds that complete a concealed part of 3k+1 tiles.

    A kind whose four copies are all in the hand is not a wait (there is no fifth
    tile; Tenhou: such a hand is not tenpai at an exhaustive draw). Hands that wait
    on nothing give :data:`NO_WAITS` itself. Read from the same tables as
    :func:`parts_waits`.
    """
    total = sum(counts)
    if total % 3 != 1:
        raise ValueError(f"waits() needs 3k+1 tiles, got {total}")
    if max(counts) > 4:
        # No such hand exists (a corrupt log; the replay reports it), and the part
        # keys below hold a count of up to 8 only.
        return NO_WAITS
    parts = [0, 0, 0, 0]
    for k, c in enumerate(counts):
        if c:
            parts[PART_OF[k]] += c * PART_WEIGHT[k]
    return parts_waits(parts)


def _special_waits(counts: Sequence[int]) -> set[int]:
    singles = [k for k in range(34) if counts[k] == 1]
    if sum(c == 2 for c in counts) == 6 and len(singles) == 1:
        return {singles[0]}
    if sum(counts[k] for k in YAOCHU) == 13:
        missing = [k for k in YAOCHU if not counts[k]]
        if not missing:
            return set(YAOCHU)
        if len(missing) == 1:
            return {missing[0]}
    return set()


# -- waits by hand key --------------------------------------------------------------
#
# The furiten tracker asks for a seat's waits after nearly every discard. It keeps a
# hand as its four parts (three suits, the honours), each a small int, one base-9
# digit a kind: a tile of kind k adds ``PART_WEIGHT[k]`` to part ``PART_OF[k]``, so a
# discard is an addition or two. ``hand_key`` packs the four parts in one int. Each
# distinct part is judged once, in tables filled lazily like the ones above, and only
# a part that can take the winning tile has its winning kinds worked out.
#
# The base is odd on purpose. An int hashes to itself and a dict first looks at the
# low bits of the hash. With three bits a kind (base 8), the low bits held only the
# counts of the lowest kinds: the 11,000 suit keys of a corpus run shared some 600
# first slots, up to 190 keys to a slot, and every lookup walked a chain through a
# table too large for the cache. In an odd base every count moves the low bits.
#
# Most hands wait on nothing, and a few counts summed over the parts say so: a part
# that is not complete (sets, or sets and a pair) must take the winning tile, so two
# such parts rule out the standard shape, and seven pairs and thirteen orphans need
# 13 tiles with six pairs and a single, or with no simples. A part's counts are packed
# in one int, its signature, each in a field wide enough for the sum over four parts
# (a part holds at most 63 tiles), so adding the signatures adds the counts; which
# shapes a sum may wait in is worked out once. Most hands thus cost four lookups,
# three additions and one more lookup; a caller that keeps the signatures
# (:func:`signed_waits`) looks up only the parts that changed.

_BASE: Final = 9  # a digit holds a count up to 8, more than any hand holds of a kind
KIND_WEIGHT: Final = tuple(_BASE**k for k in range(34))
PART_OF: Final = tuple(k // 9 for k in range(34))
PART_WEIGHT: Final = tuple(_BASE ** (k % 9) for k in range(34))
NO_WAITS: Final[frozenset[int]] = frozenset()
_PART_SIZE: Final = _BASE**9  # one part's keys are below this (a single-digit int)
_TRIPLE_SIZE: Final = _BASE**3
# The counts of three kinds, by their part of a key (see _decode).
_TRIPLES: Final = tuple((k % _BASE, k // _BASE % _BASE, k // _BASE**2) for k in range(_TRIPLE_SIZE))
# Signature fields: shift, and width in a comment. The ones that vary most come lowest,
# where the hash table looks first.
_SINGLES: Final = 0  # 6 bits: kinds held once
_PAIRS: Final = 6  # 6 bits: kinds held exactly twice
_TILES: Final = 12  # 8 bits
_BROKEN: Final = 20  # 3 bits: parts that are not complete
_SIMPLE_SUITS: Final = 23  # suits that hold simples
# Shapes a hand may wait in.
_STANDARD: Final = 1  # four sets and a pair: at most one part is not complete
_SPECIAL: Final = 2  # seven pairs or thirteen orphans


def _signature(size: int, complete: bool, pairs: int, singles: int, simples: int) -> int:
    """What one part (a suit's or the honours' counts) says about the waits of a hand.

    ``size`` tiles; ``complete`` if they are sets (size 3k) or sets and a pair (3k+2);
    ``pairs`` and ``singles`` kinds held exactly twice and once (seven pairs);
    ``simples`` tiles that are not terminals or honours (thirteen orphans). A part is
    complete with its pair when it is complete and its size is 3k+2.
    """
    return (
        singles << _SINGLES
        | pairs << _PAIRS
        | size << _TILES
        | (not complete) << _BROKEN
        | (simples > 0) << _SIMPLE_SUITS
    )


_SUIT_SIGNATURES: dict[int, int] = {}
_HONOR_SIGNATURES: dict[int, int] = {}
_SHAPES: dict[int, int] = {}  # by the sum of a hand's four signatures
# The signature tables by part, read by KeyedHand.turn before it calls
# part_signature() (which fills them): a lookup costs less than a call.
_SIGNATURE_TABLES: Final = (_SUIT_SIGNATURES, _SUIT_SIGNATURES, _SUIT_SIGNATURES, _HONOR_SIGNATURES)
# One int object per distinct signature (a few hundred), shared by the tables above so
# that reading them stays in the cache.
_SIGNATURES: dict[int, int] = {}
_SUIT_GROWS: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {})  # by suit
_HONOR_GROWS: dict[int, tuple[int, ...]] = {}


def _decode(key: int, n: int) -> list[int]:
    """The first ``n`` counts of a part key, three digits a lookup."""
    high, low = divmod(key, _TRIPLE_SIZE)
    top, middle = divmod(high, _TRIPLE_SIZE)
    return [*_TRIPLES[low], *_TRIPLES[middle], *_TRIPLES[top]][:n]


def _suit_part(key: int) -> int:
    """The signature of a suit's part, computed and kept in the table."""
    v = _decode(key, 9)
    size = sum(v)
    ok = _keyed_complete(key, v, size)
    signature = _signature(size, ok, v.count(2), v.count(1), size - v[0] - v[8])
    found = _SUIT_SIGNATURES[key] = _SIGNATURES.setdefault(signature, signature)
    return found


def _keyed_complete(key: int, v: list[int], size: int) -> bool:
    """:func:`_suit_complete` of the suit part ``key`` (its counts ``v``, ``size`` tiles).

    Where the suit less a pair is a part the table holds, its signature says whether
    it is all sets.
    """
    rest = size % 3
    if rest != 2:
        return rest == 0 and _all_sets(v)
    for i in range(2 * sum(map(mul, v, _POSITIONS)) % 3, 9, 3):  # see _suit_complete
        if v[i] >= 2:
            signature = _SUIT_SIGNATURES.get(key - 2 * PART_WEIGHT[i])
            if signature is None:
                v[i] -= 2
                ok = _all_sets(v)
                v[i] += 2
            else:
                ok = not (signature >> _BROKEN) & 1
            if ok:
                return True
    return False


def _honor_part(key: int) -> int:
    """The signature of the honours' part, computed and kept in the table."""
    h = _decode(key, 7)
    ok, _ = _honors_ok(h)
    signature = _signature(sum(h), ok, h.count(2), h.count(1), 0)
    found = _HONOR_SIGNATURES[key] = _SIGNATURES.setdefault(signature, signature)
    return found


def _shapes(signature: int) -> int:
    """The shapes a hand whose parts' signatures add up to ``signature`` may wait in."""
    total = (signature >> _TILES) & 255
    if total % 3 != 1:
        raise ValueError(f"waits() needs 3k+1 tiles, got {total}")
    pairs = (signature >> _PAIRS) & 63
    singles = (signature >> _SINGLES) & 63
    shapes = 0
    if (signature >> _BROKEN) & 7 <= 1:
        shapes |= _STANDARD
    if total == 13 and ((pairs == 6 and singles == 1) or signature >> _SIMPLE_SUITS == 0):
        shapes |= _SPECIAL
    _SHAPES[signature] = shapes
    return shapes


def _suit_grows(suit: int, key: int) -> tuple[int, ...]:
    """Kinds that make the suit complete when added (sets, or sets and a pair)."""
    table = _SUIT_GROWS[suit]
    found = table.get(key)
    if found is None:
        v = _decode(key, 9)
        out = []
        for i in range(9):
            if v[i] >= 4 or not (v[i] or (i > 0 and v[i - 1]) or (i < 8 and v[i + 1])):
                continue  # no fifth tile; a lone tile completes nothing
            # The suit with the tile added is often one a hand has held: its signature
            # says whether it is complete.
            signature = _SUIT_SIGNATURES.get(key + PART_WEIGHT[i])
            if signature is None:
                v[i] += 1
                complete = _suit_complete(tuple(v))[0]
                v[i] -= 1
            else:
                complete = not (signature >> _BROKEN) & 1
            if complete:
                out.append(9 * suit + i)
        found = table[key] = tuple(out)
    return found


def _honor_grows(key: int) -> tuple[int, ...]:
    found = _HONOR_GROWS.get(key)
    if found is None:
        h = _decode(key, 7)
        out = []
        for i in range(7):
            if h[i] in (1, 2):
                h[i] += 1
                if _honors_ok(h)[0]:
                    out.append(27 + i)
                h[i] -= 1
        found = _HONOR_GROWS[key] = tuple(out)
    return found


def hand_key(kinds: Iterable[int]) -> int:
    """The key of a hand given as tile kinds, in any order (see :func:`key_waits`)."""
    key = 0
    for k in kinds:
        key += KIND_WEIGHT[k]
    return key


def key_waits(key: int) -> frozenset[int]:
    """:func:`waits` of a concealed part of 3k+1 tiles given by its :func:`hand_key`.

    Hands that wait on nothing give :data:`NO_WAITS` itself.
    """
    rest, mk = divmod(key, _PART_SIZE)
    rest, pk = divmod(rest, _PART_SIZE)
    hk, sk = divmod(rest, _PART_SIZE)
    return parts_waits((mk, pk, sk, hk))


def parts_waits(parts: Sequence[int]) -> frozenset[int]:
    """:func:`waits` of a concealed part of 3k+1 tiles given as its four part keys.

    ``parts`` are the man, pin, sou and honour parts, a tile of kind ``k`` adding
    ``PART_WEIGHT[k]`` to ``parts[PART_OF[k]]``. Hands that wait on nothing give
    :data:`NO_WAITS` itself.
    """
    mk, pk, sk, hk = parts
    signatures = _SUIT_SIGNATURES
    try:
        ms, ps, ss, hs = signatures[mk], signatures[pk], signatures[sk], _HONOR_SIGNATURES[hk]
    except KeyError:  # a part not seen before
        ms, ps, ss, hs = (part_signature(i, k) for i, k in enumerate(parts))
    return signed_waits(parts, (ms, ps, ss, hs))


def part_signature(part: int, key: int) -> int:
    """The signature of one part: ``part`` 0..2 a suit, 3 the honours; ``key`` its key.

    A caller that keeps a hand's four signatures (:func:`signed_waits`) updates only
    the parts a draw or a discard changed.
    """
    found = _SIGNATURE_TABLES[part].get(key)
    if found is None:
        found = _honor_part(key) if part == 3 else _suit_part(key)
    return found


def signed_waits(parts: Sequence[int], signatures: Sequence[int]) -> frozenset[int]:
    """:func:`parts_waits` of ``parts`` whose :func:`part_signature` values are given."""
    ms, ps, ss, hs = signatures
    total = ms + ps + ss + hs
    shapes = _SHAPES.get(total)
    if shapes is None:
        shapes = _shapes(total)
    if not shapes:
        return NO_WAITS
    found = _standard_waits(parts, signatures) if shapes & _STANDARD else set()
    if shapes & _SPECIAL:
        mk, pk, sk, hk = parts
        counts = [*_decode(mk, 9), *_decode(pk, 9), *_decode(sk, 9), *_decode(hk, 7)]
        found |= _special_waits(counts)
    return frozenset(found) if found else NO_WAITS


class KeyedHand:
    """A concealed part of a hand kept as its four part keys and their signatures.

    The furiten tracker keeps one per seat: a draw and a discard change one or two
    parts by one addition each, and the waits are answered from the per-part tables
    (filled once per distinct suit), so most turns cost a handful of dict lookups.
    The tables stay inside this module.

    >>> hand = KeyedHand(k for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 4))
    >>> sorted(hand.waits())
    [4]
    >>> sorted(hand.turn(5, 4))  # draw 6m, discard 5m: waits on 6m still
    [5]
    """

    __slots__ = ("parts", "signatures")

    def __init__(self, kinds: Iterable[int] = ()) -> None:
        parts = [0, 0, 0, 0]
        for k in kinds:
            parts[PART_OF[k]] += PART_WEIGHT[k]
        self.parts = parts
        # The tables first (nearly every part is in them), each part's call only where not.
        get = _SUIT_SIGNATURES.get
        m, p, s, h = get(parts[0]), get(parts[1]), get(parts[2]), _HONOR_SIGNATURES.get(parts[3])
        if m is None or p is None or s is None or h is None:
            self.signatures = [part_signature(i, key) for i, key in enumerate(parts)]
        else:
            self.signatures = [m, p, s, h]

    def waits(self) -> frozenset[int]:
        """:func:`waits` of the part (3k+1 tiles); :data:`NO_WAITS` itself for none."""
        return signed_waits(self.parts, self.signatures)

    def turn(self, drawn: int | None, gone: int) -> frozenset[int]:
        """Add kind ``drawn`` (None after a call) and take out kind ``gone``; the waits after.

        The tables are read here before any call: nearly every part is in them, and
        nearly every hand waits on nothing.
        """
        parts, signatures, tables = self.parts, self.signatures, _SIGNATURE_TABLES
        out = PART_OF[gone]
        parts[out] -= PART_WEIGHT[gone]
        if drawn is not None:
            came = PART_OF[drawn]
            parts[came] += PART_WEIGHT[drawn]
            if came != out:
                key = parts[came]
                sig = tables[came].get(key)
                signatures[came] = part_signature(came, key) if sig is None else sig
        key = parts[out]
        sig = tables[out].get(key)
        signatures[out] = part_signature(out, key) if sig is None else sig
        ms, ps, ss, hs = signatures
        if _SHAPES.get(ms + ps + ss + hs) == 0:
            return NO_WAITS
        return signed_waits(parts, signatures)


def _standard_waits(parts: Sequence[int], signatures: Sequence[int]) -> set[int]:
    """Winning kinds of four sets and a pair, for parts of which at most one is broken.

    ``signatures`` are the four parts' own signatures, which say all this needs.
    """
    found: set[int] = set()
    broken = -1  # the part that is not complete (callers see to it that one at most is)
    pairs = 0  # the complete parts that hold a pair
    for suit, sig in enumerate(signatures):
        if (sig >> _BROKEN) & 1:
            broken = suit
        elif ((sig >> _TILES) & 255) % 3 == 2:
            pairs += 1
    if broken < 0:
        # 3k+1 = 3a + 3b + 2 + 2: two parts hold a pair each, and either may become a set.
        for suit, sig in enumerate(signatures):
            if ((sig >> _TILES) & 255) % 3 == 2:
                found.update(_grows(suit, parts[suit]))
        return found
    # The part that is not complete takes the winning tile, and the hand must end with
    # exactly one pair: its own or another part's.
    rest = ((signatures[broken] >> _TILES) & 255) % 3
    if (rest == 1 and pairs == 0) or (rest == 2 and pairs == 1):
        found.update(_grows(broken, parts[broken]))
    return found


def _grows(suit: int, key: int) -> tuple[int, ...]:
    return _honor_grows(key) if suit == 3 else _suit_grows(suit, key)


# -- shanten ----------------------------------------------------------------------

Frontier = tuple[tuple[int, int, int], ...]
_FRONTIER: dict[Vec, Frontier] = {}
_HONOR_FRONTIER: dict[Vec, Frontier] = {}


def _prune(points: set[tuple[int, int, int]]) -> Frontier:
    """Keep the (sets, partials, head) points not dominated within the same head."""
    kept = [
        p
        for p in points
        if not any(q != p and q[2] == p[2] and q[0] >= p[0] and q[1] >= p[1] for q in points)
    ]
    return tuple(sorted(kept))


def _suit_frontier(vec: Vec) -> Frontier:
    found = _FRONTIER.get(vec)
    if found is not None:
        return found
    i = 0
    while i < 9 and vec[i] == 0:
        i += 1
    if i == 9:
        found = ((0, 0, 0),)
    else:
        v = list(vec)
        points: set[tuple[int, int, int]] = set()

        def take(delta: tuple[int, int, int], *idx: int) -> None:
            for j in idx:
                v[j] -= 1
            for m, t, h in _suit_frontier(tuple(v)):
                if h + delta[2] <= 1:
                    points.add((m + delta[0], min(t + delta[1], 4), h + delta[2]))
            for j in idx:
                v[j] += 1

        take((0, 0, 0), i)  # isolated tile
        if v[i] >= 3:
            take((1, 0, 0), i, i, i)
        if v[i] >= 2:
            take((0, 1, 0), i, i)
            take((0, 0, 1), i, i)
        if i <= 6 and v[i + 1] and v[i + 2]:
            take((1, 0, 0), i, i + 1, i + 2)
        if i <= 7 and v[i + 1]:
            take((0, 1, 0), i, i + 1)
        if i <= 6 and v[i + 2]:
            take((0, 1, 0), i, i + 2)
        found = _prune(points)
    if len(_FRONTIER) > _CACHE_LIMIT:
        _FRONTIER.clear()
    _FRONTIER[vec] = found
    return found


_HONOR_ONE: Final[dict[int, Frontier]] = {
    0: ((0, 0, 0),),
    1: ((0, 0, 0),),
    2: ((0, 0, 1), (0, 1, 0)),
    3: ((0, 0, 1), (1, 0, 0)),
    4: ((0, 1, 1), (1, 0, 0)),
}


def _merge(a: Frontier, b: Frontier) -> Frontier:
    if len(a) == 1 and a[0] == (0, 0, 0):
        return b
    if len(b) == 1 and b[0] == (0, 0, 0):
        return a
    return _prune(
        {
            (m1 + m2, min(t1 + t2, 4), h1 + h2)
            for m1, t1, h1 in a
            for m2, t2, h2 in b
            if h1 + h2 <= 1
        }
    )


def _honor_frontier(h: Vec) -> Frontier:
    found = _HONOR_FRONTIER.get(h)
    if found is None:
        found = ((0, 0, 0),)
        for c in h:
            found = _merge(found, _HONOR_ONE[c])
        _HONOR_FRONTIER[h] = found
    return found


def _standard_shanten(counts: Sequence[int], total: int) -> int:
    needed = total // 3
    f = _honor_frontier(tuple(counts[27:34]))
    for s in range(3):
        f = _merge(f, _suit_frontier(tuple(counts[9 * s : 9 * s + 9])))
    best = 8
    for m, t, h in f:
        m = min(m, needed)
        t = min(t, needed - m)
        best = min(best, 2 * needed - 2 * m - t - h)
    return best


# -- shanten with a kind held four times --------------------------------------------
# A hand that holds all four copies of a kind cannot draw a fifth, so a pair of that
# kind is no partial set and a lone one no half of the head. The frontiers cannot say
# so (a part's frontier is shared by every hand that leaves the same tiles), so such a
# hand's standard shape is counted as a distance: the fewest tiles to add for each part
# to hold its share of the sets and the head, each kind at most four times in the end.
# A part that holds four of no kind gets its distances from its frontier (no target
# needs a fifth copy there: tests/test_hand_analysis.py checks the two ways agree); a
# part that does is counted kind by kind, a few hundred steps, once per distinct part.

_FAR: Final = 99  # more tiles than any hand needs: no such shape
_DISTANCES: dict[tuple[Vec, bool], tuple[int, ...]] = {}


def _part_distances(vec: Vec, honors: bool) -> tuple[int, ...]:
    """For ``m`` sets (0..4) and ``h`` pairs (0..1), at index ``2 * m + h``: the fewest
    tiles to add to the part (a suit's counts, or the honours' with ``honors``) for it
    to hold ``m`` sets and ``h`` pairs, no kind more than four times; the tiles it holds
    beyond them are left out. Kept per part, bounded like the frontiers."""
    key = (vec, honors)
    found = _DISTANCES.get(key)
    if found is None:
        found = _counted_distances(vec, honors) if 4 in vec else _frontier_distances(vec, honors)
        if len(_DISTANCES) > _CACHE_LIMIT:
            _DISTANCES.clear()
        _DISTANCES[key] = found
    return found


def _frontier_distances(vec: Vec, honors: bool) -> tuple[int, ...]:
    """:func:`_part_distances` read off the part's frontier.

    Each frontier point (sets, partial sets, head) covers the most tiles ``m`` sets and
    ``h`` pairs can: its sets first, then its partial sets (two tiles each), then one
    tile each of what is left, and the pair its head, or else one tile left over.
    """
    size = sum(vec)
    points = _honor_frontier(vec) if honors else _suit_frontier(vec)
    out = []
    for m in range(5):
        for h in range(2):
            best = 0
            for sets, partial, head in points:
                if head > h:
                    continue
                whole = min(sets, m)
                halves = min(partial, m - whole)
                rest = size - 3 * whole - 2 * halves - 2 * head
                ones = min(rest, m - whole - halves)
                covered = 3 * whole + 2 * halves + ones + 2 * head
                if h and not head and rest > ones:
                    covered += 1
                if covered > best:
                    best = covered
            out.append(3 * m + 2 * h - best)
    return tuple(out)


# The ways one kind can serve a target, by (sequences going on through it, sets taken
# so far, pairs taken so far, whether a sequence may begin at it): (tiles of the kind
# needed beyond the sequences going on, sets added, pairs added, sequences begun).
_Use = tuple[int, int, int, int]
_USES: Final[dict[tuple[int, int, int, bool], tuple[_Use, ...]]] = {
    (going, m, h, begins): tuple(
        (runs + 3 * triplet + 2 * pair, runs + triplet, pair, runs)
        for runs in range(5 if begins else 1)
        for triplet in (0, 1)
        for pair in (0, 1)
        if m + runs + triplet <= 4 and h + pair <= 1 and going + runs + 3 * triplet + 2 * pair <= 4
    )
    for going in range(5)
    for m in range(5)
    for h in range(2)
    for begins in (False, True)
}
_States = dict[tuple[int, int, int, int], int]
# The states of the count below after the first kinds of a part, by those kinds' counts:
# parts met together (a hand and its draws) share their lower kinds. A few kilobytes
# each, so fewer are kept than of the tables above.
_PREFIXES: dict[tuple[Vec, bool], _States] = {}
_PREFIX_LIMIT: Final = 2_000


def _counted_distances(vec: Vec, honors: bool) -> tuple[int, ...]:
    """:func:`_part_distances` counted kind by kind, every kind at most four times."""
    # States: (sets, pairs, sequences begun one kind back, two kinds back) -> the fewest
    # tiles added so far. A sequence begun at kind k takes one of k, k+1 and k+2.
    done = len(vec)
    while done and (vec[:done], honors) not in _PREFIXES:
        done -= 1
    states: _States = _PREFIXES[vec[:done], honors] if done else {(0, 0, 0, 0): 0}
    if len(_PREFIXES) > _PREFIX_LIMIT:
        _PREFIXES.clear()
    uses = _USES
    for k in range(done, len(vec)):
        held = vec[k]
        begins = not honors and k <= len(vec) - 3
        step: _States = {}
        for (m, h, one, two), cost in states.items():
            going = one + two
            for extra, sets, pairs, runs in uses[going, m, h, begins]:
                need = going + extra
                total = cost + need - held if need > held else cost
                state = (m + sets, h + pairs, runs, one)
                if total < step.get(state, _FAR):
                    step[state] = total
        states = step
        _PREFIXES[vec[: k + 1], honors] = states
    out = [_FAR] * 10
    for (m, h, _, _), cost in states.items():
        if cost < out[2 * m + h]:
            out[2 * m + h] = cost
    return tuple(out)


_ADDED: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}


def _add_distances(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The distances of two parts taken together (at most four sets, one pair); kept,
    as there are few distinct tables."""
    key = (a, b)
    found = _ADDED.get(key)
    if found is not None:
        return found
    out = [_FAR] * 10
    for i, x in enumerate(a):
        if x >= _FAR:
            continue
        for j, y in enumerate(b):
            m, h = (i >> 1) + (j >> 1), (i & 1) + (j & 1)
            if m <= 4 and h <= 1 and x + y < out[2 * m + h]:
                out[2 * m + h] = x + y
    found = tuple(out)
    if len(_ADDED) > _CACHE_LIMIT:
        _ADDED.clear()
    _ADDED[key] = found
    return found


def _held_four_shanten(counts: Sequence[int], total: int) -> int:
    """The standard shape's shanten, each kind at most four times: its distance less one."""
    man = _part_distances(tuple(counts[0:9]), False)
    pin = _part_distances(tuple(counts[9:18]), False)
    sou = _part_distances(tuple(counts[18:27]), False)
    honors = _part_distances(tuple(counts[27:34]), True)
    left, right = _add_distances(man, pin), _add_distances(sou, honors)
    # The sets and the pair split between the two halves: index 2 * m + h on each
    # side, adding up to 2 * sets + 1 (so exactly one side holds the pair).
    target = 2 * (total // 3) + 1
    split = range(max(0, target - 9), min(target, 9) + 1)
    return min(left[i] + right[target - i] for i in split) - 1


def shanten(counts: Sequence[int]) -> int:
    """Tiles away from tenpai: -1 complete, 0 tenpai, ... (standard, chiitoitsu, kokushi).

    Works on 3k+1 or 3k+2 concealed tiles; seven pairs and thirteen orphans are only
    considered for a fully concealed 13/14-tile part. No shape counts on a fifth copy
    of a kind the part holds all four of: ``1111m234p567s789s``, whose only wait is all
    in the hand, is one tile from tenpai, as :func:`waits` says it waits on nothing.
    """
    total = sum(counts)
    if total % 3 == 0:
        raise ValueError(f"shanten() needs 3k+1 or 3k+2 tiles, got {total}")
    # The frontiers let a kind held four times wait on a fifth copy (a pair of it as a
    # partial set, a lone one as the head): such hands are counted by distances.
    best = _held_four_shanten(counts, total) if 4 in counts else _standard_shanten(counts, total)
    if total >= 13 and best > -1:
        kinds = sum(1 for c in counts if c)
        pairs = sum(1 for c in counts if c >= 2)
        best = min(best, 6 - pairs + max(0, 7 - kinds))
        yao_kinds = sum(1 for k in YAOCHU if counts[k])
        yao_pair = any(counts[k] >= 2 for k in YAOCHU)
        best = min(best, 13 - yao_kinds - yao_pair)
    return best


def _pair_shanten(a: Frontier, b: Frontier, needed: int) -> int:
    """:func:`_standard_shanten` of two frontiers, without merging them first."""
    best = 2 * needed
    for m1, t1, h1 in a:
        for m2, t2, h2 in b:
            h = h1 + h2
            if h > 1:
                continue
            m = m1 + m2
            if m > needed:
                m = needed
            t = t1 + t2
            if t > needed - m:
                t = needed - m
            value = 2 * (needed - m) - t - h
            if value < best:
                best = value
    return best


# The draws that can change a part's frontier, by the part's counts: each distinct
# frontier the part can grow to, with the kinds (local to the part) that grow it so.
# A draw with no tile of its own suit within two of it (an honour not held) adds an
# isolated tile, which leaves the frontier as it was; a kind held four times has no
# fifth tile.
_SUIT_DRAWS: dict[Vec, tuple[tuple[Frontier, tuple[int, ...]], ...]] = {}
_HONOR_DRAWS: dict[Vec, tuple[tuple[Frontier, tuple[int, ...]], ...]] = {}


def _part_draws(vec: Vec, honors: bool) -> tuple[tuple[Frontier, tuple[int, ...]], ...]:
    table = _HONOR_DRAWS if honors else _SUIT_DRAWS
    found = table.get(vec)
    if found is None:
        grown: dict[Frontier, list[int]] = {}
        v = list(vec)
        for k in range(len(v)):
            if v[k] >= 4 or not (v[k] if honors else any(v[max(0, k - 2) : k + 3])):
                continue
            v[k] += 1
            f = _honor_frontier(tuple(v)) if honors else _suit_frontier(tuple(v))
            v[k] -= 1
            grown.setdefault(f, []).append(k)
        found = tuple((f, tuple(ks)) for f, ks in grown.items())
        if len(table) > _CACHE_LIMIT:
            table.clear()
        table[vec] = found
    return found


_MERGED: dict[tuple[Frontier, Frontier], Frontier] = {}
_PAIRED: dict[tuple[Frontier, Frontier, int], int] = {}


def _merged(a: Frontier, b: Frontier) -> Frontier:
    """:func:`_merge`, kept: the hands of one turn (each discard's) share most parts."""
    key = (a, b)
    found = _MERGED.get(key)
    if found is None:
        found = _merge(a, b)
        if len(_MERGED) > _CACHE_LIMIT:
            _MERGED.clear()
        _MERGED[key] = found
    return found


def draw_shanten(counts: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """:func:`shanten` of a concealed part of 3k+1 tiles, and for each of the 34 kinds
    the shanten of the part with one more tile of that kind.

    A kind held four times keeps the part's shanten: there is no fifth tile to draw.
    The same values as :func:`shanten`, computed together: a draw changes one part, so
    the other three parts' frontiers are merged once for all its kinds, and each
    frontier a part can grow to is paired with them once. Merges and pairings are kept
    (bounded like the frontiers): the hands a turn's discards leave share most parts.
    A part that holds four of a kind, or would after the draw, is counted as
    :func:`shanten` counts it (by distances).
    """
    total = sum(counts)
    if total % 3 != 1:
        raise ValueError(f"draw_shanten() needs 3k+1 tiles, got {total}")
    base, after = _frontier_draws(counts, total)
    four = 4 in counts
    if not four and 3 not in counts:
        return base, tuple(after)
    # A part that holds four of a kind, or will after drawing the fourth of one held
    # three times: its frontiers may count on a fifth. Each draw's shanten lies between
    # theirs (they allow more) and the part's own (the drawn tile can go again), so only
    # a draw they say improves the hand is counted again.
    if four:
        base = shanten(counts)
    grown = list(counts)
    for kind, held in enumerate(counts):
        if held >= 4 or after[kind] >= base:
            after[kind] = base
        elif four or held == 3:
            grown[kind] = held + 1
            after[kind] = shanten(grown)
            grown[kind] = held
    return base, tuple(after)


def _frontier_draws(counts: Sequence[int], total: int) -> tuple[int, list[int]]:
    """:func:`draw_shanten` by the frontiers: the values themselves where no kind is
    held four times (before the draw or after it), and no more than them elsewhere."""
    needed = (total + 1) // 3
    vecs = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    parts = (
        _suit_frontier(vecs[0]),
        _suit_frontier(vecs[1]),
        _suit_frontier(vecs[2]),
        _honor_frontier(vecs[3]),
    )
    # The merged frontier of every part but one, from merges on either side.
    left = _merged(parts[0], parts[1])
    right = _merged(parts[2], parts[3])
    others = (
        _merged(parts[1], right),
        _merged(parts[0], right),
        _merged(left, parts[3]),
        _merged(left, parts[2]),
    )
    standard = _pair_shanten(others[0], parts[0], needed)
    after = [standard] * 34
    paired = _PAIRED
    for s in range(4):
        other = others[s]
        for grown, kinds in _part_draws(vecs[s], s == 3):
            key = (other, grown, needed)
            value = paired.get(key)
            if value is None:
                value = _pair_shanten(other, grown, needed)
                if len(paired) > _CACHE_LIMIT:
                    paired.clear()
                paired[key] = value
            if value != standard:
                for k in kinds:
                    after[9 * s + k] = value
    if total != 13:
        return standard, after
    # Seven pairs and thirteen orphans (shanten() counts them for 13 and 14 tiles). A
    # draw lowers either by one at most, and never raises the standard shape's: when
    # both are above it, they change no value.
    kinds_held = pairs = yao_kinds = 0
    for c in counts:
        if c:
            kinds_held += 1
            if c >= 2:
                pairs += 1
    yao_pair = False
    for k in YAOCHU:
        if counts[k]:
            yao_kinds += 1
            if counts[k] >= 2:
                yao_pair = True
    chiitoitsu = 6 - pairs + max(0, 7 - kinds_held)
    kokushi = 13 - yao_kinds - yao_pair
    if min(chiitoitsu, kokushi) > standard:
        return standard, after
    base = min(standard, chiitoitsu, kokushi)
    for kind in range(34):
        c = counts[kind]
        if c >= 4:
            after[kind] = base
            continue
        best = min(
            after[kind],
            6 - (pairs + (c == 1)) + max(0, 7 - kinds_held - (c == 0)),
            kokushi,
        )
        if kind in _YAOCHU_SET:
            best = min(best, 13 - yao_kinds - (c == 0) - (yao_pair or c == 1))
        after[kind] = best
    return base, after
