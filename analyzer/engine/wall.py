"""Rebuild Tenhou walls from the seed the log carries.

Everything here follows ../shared/reference/tenhou-wall.md (cited as "wall §n"):
the seed formats (§1.1), MT19937 seeded with ``init_by_array`` (§1.2), 288 outputs
hashed in nine SHA-512 blocks per hand (§1.3), the modulo Fisher-Yates shuffle
(§1.4), the dice (§1.5), the two dead-wall layouts (§1.6) and the deal (§1.7).

The module is pure and uses the standard library only. The generator is written
out in :class:`MT19937`; for speed the 288 outputs of a hand are taken from
:class:`random.Random` after its state has been set to ours (wall §4.3: never seed
``random`` with an integer, set the state), and a test checks both agree.

>>> wall = next(walls_for_game(None, ["mt19937ar,0,0,0,0,0,0,0,1"], 4))
>>> len(wall.yama), wall.dealer, len(wall.hand(0))
(136, 0, 13)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import add, itemgetter, mod

from mjaudit.frozen import quick_init

__all__ = [
    "MT19937",
    "DeadWallLayout",
    "SeedFormat",
    "Wall",
    "WallSeedError",
    "build_wall",
    "dice_words",
    "hand_words",
    "init_by_array",
    "layout_for",
    "parse_key",
    "seed_format",
    "walls_for_game",
]

_MASK = 0xFFFFFFFF
_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF

WORDS_PER_HAND = 288  # wall §1.3: each hand uses up exactly 288 outputs
_RND_WORDS = 144  # nine SHA-512 digests = 576 bytes = 144 words
_SANMA_GONE = range(4, 32)  # wall §1.4: sanma has no 2m..8m (ids 4..31)


def dice_words(fmt: SeedFormat, players: int) -> tuple[int, int]:
    """Which ``rnd`` words are the dice (wall §1.5).

    ``rnd[135], rnd[136]`` in every format with 4 players and in base64 sanma. The one
    old per-INIT sanma hand of the corpus (2009060321gm-00b9-0000-75b25bcf) rolls
    with ``rnd[107], rnd[108]``: the two words right after the N - 1 = 107 words of
    the shuffle, as 135 and 136 are for 136 tiles. The raw per-INIT generator simply
    goes on after the shuffle; the SHA formats read fixed slots of the 144 words.
    """
    if fmt is SeedFormat.PER_INIT and players == 3:
        return (107, 108)
    return (135, 136)


class WallSeedError(ValueError):
    """A seed that names a Tenhou format but cannot be read as one."""


class SeedFormat(Enum):
    """The three seed formats of wall §1.1; the value is the prefix in the log."""

    BASE64 = "mt19937ar-sha512-n288-base64"
    HEX = "mt19937ar-sha512-n288"
    PER_INIT = "mt19937ar"

    @property
    def hashed(self) -> bool:
        """The SHA formats draw from one stream per game; per-INIT seeds are raw."""
        return self is not SeedFormat.PER_INIT

    @property
    def modern(self) -> bool:
        """Base64 logs use the modern dead-wall layout, the 2008-09 formats the old one."""
        return self is SeedFormat.BASE64


# -- MT19937 (wall §1.2) ------------------------------------------------------


def _init_genrand(seed: int) -> list[int]:
    mt = [0] * _N
    mt[0] = seed & _MASK
    for i in range(1, _N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
    return mt


def init_by_array(key: Sequence[int]) -> list[int]:
    """The 624-word state of mt19937ar's ``init_by_array`` (wall §1.2, §4.2)."""
    if not key:
        raise WallSeedError("an MT19937 key needs at least one word")
    mt = _init_genrand(19650218)
    i, j = 1, 0
    length = len(key)
    for _ in range(max(_N, length)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _MASK
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = _UPPER  # "MSB is 1; assuring non-zero initial array"
    return mt


class MT19937:
    """The 32-bit Mersenne Twister, written out (the reference for the fast path)."""

    __slots__ = ("_index", "_state")

    def __init__(self, key: Sequence[int]) -> None:
        self._state = init_by_array(key)
        self._index = _N

    def _twist(self) -> None:
        mt = self._state
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._index = 0

    def next_u32(self) -> int:
        """``genrand_int32``: the next tempered output."""
        if self._index >= _N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y


class _FastMT:
    """The same stream from :class:`random.Random`, whose core is mt19937ar.

    ``getrandbits(32 * n)`` fills the result with n consecutive outputs, the first
    one least significant, so its little-endian bytes are the buffer of wall §1.3.
    """

    __slots__ = ("_rng",)

    def __init__(self, key: Sequence[int]) -> None:
        if key and key[-1]:
            # random.seed(int) runs the same init_by_array in C over the integer's
            # 32-bit words, least significant first, but drops zero words at the top
            # (wall §4.3): only a key whose last word is non-zero may take this path.
            number = int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little")
            self._rng = random.Random(number)
        else:
            self._rng = random.Random()
            self._rng.setstate((3, (*init_by_array(key), _N), None))

    def block(self, words: int) -> bytes:
        return self._rng.getrandbits(32 * words).to_bytes(4 * words, "little")


# -- seeds (wall §1.1) --------------------------------------------------------


def seed_format(seed: str | None) -> SeedFormat | None:
    """The format a seed text names, or None (no seed, simulator output: wall §1.1)."""
    if not seed:
        return None
    prefix = seed.split(",", 1)[0].strip()
    for fmt in SeedFormat:
        if prefix == fmt.value:
            return fmt
    return None


def parse_key(seed: str) -> tuple[SeedFormat, tuple[int, ...]]:
    """The MT19937 key words of a seed text (wall §1.1, §4.12)."""
    fmt = seed_format(seed)
    if fmt is None:
        raise WallSeedError(f"not a Tenhou seed: {seed[:40]!r}")
    body = seed.split(",", 1)[1] if "," in seed else ""
    if fmt is SeedFormat.BASE64:
        # Strict: the default decoder skips stray characters (wall §4.12).
        try:
            raw = base64.b64decode(body.strip(), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise WallSeedError(f"base64 seed does not decode: {exc}") from None
        if len(raw) != 4 * _N:
            raise WallSeedError(f"base64 seed has {len(raw)} bytes, expected {4 * _N}")
        return fmt, struct.unpack(f"<{_N}I", raw)
    words = []
    for text in body.split(","):
        # tenhouviewer cuts a ".suffix" from each word (wall §1.1); none seen.
        word = text.strip().split(".", 1)[0]
        try:
            value = int(word, 16)
        except ValueError:
            raise WallSeedError(f"{fmt.value} seed word {text!r} is not hex") from None
        if not 0 <= value <= _MASK:
            raise WallSeedError(f"{fmt.value} seed word {text!r} is not 32 bits")
        words.append(value)
    # The reference gives 8 words for per-INIT seeds; 2009-07 logs (2009071823gm-0041,
    # dnovikoff bug7) carry 32, used the same way (raw outputs, no SHA).
    expected = (8, 32) if fmt is SeedFormat.PER_INIT else (32,)
    if len(words) not in expected:
        wanted = " or ".join(str(n) for n in expected)
        raise WallSeedError(f"{fmt.value} seed has {len(words)} words, expected {wanted}")
    return fmt, tuple(words)


# -- one hand (wall §1.3 - §1.7) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class DeadWallLayout:
    """Where indicators and rinshan tiles sit (wall §1.6): yama indices from the bottom."""

    dora0: int
    ura0: int
    rinshan: tuple[int, ...]

    def dora(self, k: int) -> int:
        return self.dora0 + 2 * k

    def ura(self, k: int) -> int:
        return self.ura0 + 2 * k


# wall §1.6. The old server labelled the top and bottom tile of each dead-wall stack
# the other way round; modern sanma keeps 8 rinshan slots below the indicators.
_LAYOUTS = {
    (True, 4): DeadWallLayout(5, 4, (1, 0, 3, 2)),
    (True, 3): DeadWallLayout(9, 8, (1, 0, 3, 2, 5, 4, 7, 6)),
    (False, 4): DeadWallLayout(4, 5, (0, 1, 2, 3)),
    # One old sanma hand seen: dora yama[8], rinshan 0, 1; the rest by analogy.
    (False, 3): DeadWallLayout(8, 9, (0, 1, 2, 3, 4, 5, 6, 7)),
}


def layout_for(fmt: SeedFormat, players: int) -> DeadWallLayout:
    return _LAYOUTS[fmt.modern, players]


# Built once: the sorted ids (wall §1.4), copied for each shuffle.
_SORTED_IDS = {
    4: tuple(range(136)),
    3: tuple(i for i in range(136) if i not in _SANMA_GONE),
}
# The moduli of the shuffle, N - i for i = 0 .. N-2 (wall §1.4).
_MODULI = {size: range(size, 1, -1) for size in (136, 108)}
_POSITIONS = {size: range(size - 1) for size in (136, 108)}


def _sorted_ids(players: int) -> list[int]:
    return list(_SORTED_IDS[3 if players == 3 else 4])


_WORDS = struct.Struct(f"<{_RND_WORDS}I")
_BLOCKS = range(0, 1152, 128)
_sha512 = hashlib.sha512


def hand_words(buffer: bytes) -> tuple[int, ...]:
    """``rnd[0..143]`` from one hand's 1,152-byte buffer: 9 x SHA-512 (wall §1.3)."""
    # Plain byte slices: copying 128 bytes costs less than a memoryview slice, which
    # OpenSSL's hash then reads through the buffer protocol (measured: 11 us a hand
    # against 14).
    return _WORDS.unpack(b"".join([_sha512(buffer[i : i + 128]).digest() for i in _BLOCKS]))


def _deal_order(size: int, players: int, turn: int) -> list[int]:
    """The yama indices of a seat's 13 starting tiles in dealt order (wall §1.7)."""
    top = size - 1
    out: list[int] = []
    for block in range(3):
        start = top - 4 * (block * players + turn)
        out += range(start, start - 4, -1)
    out.append(top - 12 * players - turn)
    return out


# Precomputed: one getter per (size, players, turn) picks a starting hand out of the yama.
_DEALS: dict[tuple[int, int, int], Callable[[Sequence[int]], tuple[int, ...]]] = {
    (len(ids), players, turn): itemgetter(*_deal_order(len(ids), players, turn))
    for players, ids in _SORTED_IDS.items()
    for turn in range(players)
}
# The same getters by (size, players, dealer), for seats 0, 1, ... in order.
_SEAT_DEALS = {
    (size, players, dealer): tuple(
        _DEALS[size, players, (seat - dealer) % players] for seat in range(players)
    )
    for size, players, _ in _DEALS
    for dealer in range(players)
}


@quick_init
@dataclass(frozen=True, slots=True)
class Wall:
    """One hand's wall: ``yama[0..N-1]`` as shuffled, and how it is used.

    Dealing and live draws take from the top (``yama[N-1]`` downwards); indicators and
    rinshan tiles come from the bottom (wall §1.6). ``dice`` are 0-based, as INIT
    ``seed[3..4]`` (wall §4.13).
    """

    format: SeedFormat
    players: int
    dealer: int
    yama: tuple[int, ...]
    dice: tuple[int, int]
    layout: DeadWallLayout

    @property
    def size(self) -> int:
        return len(self.yama)

    @property
    def first_live(self) -> int:
        """The yama index of the first live draw: 83 (4 players) or 68 (sanma)."""
        return self.size - 1 - 13 * self.players

    def hand(self, seat: int) -> tuple[int, ...]:
        """Seat's 13 starting tiles in dealt order, as INIT ``haiN`` lists them (§1.7)."""
        turn = (seat - self.dealer) % self.players
        yama = self.yama
        deal = _DEALS.get((len(yama), self.players, turn))
        if deal is not None:
            return deal(yama)
        top = self.size - 1
        out: list[int] = []
        for block in range(3):
            start = top - 4 * (block * self.players + turn)
            out += yama[start - 3 : start + 1][::-1]
        out.append(yama[top - 12 * self.players - turn])
        return tuple(out)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Starting hands by seat (absolute seats 0..players-1)."""
        deals = _SEAT_DEALS.get((len(self.yama), self.players, self.dealer))
        if deals is not None:
            yama = self.yama
            return tuple([deal(yama) for deal in deals])
        return tuple(self.hand(s) for s in range(self.players))

    def live_count(self, rinshan_draws: int = 0) -> int:
        """Live draws before an exhaustive draw: 70 - r or 55 - r (wall §1.6)."""
        return self.first_live - 14 - rinshan_draws + 1

    def live_position(self, n: int) -> int:
        """The yama index of live draw n (0-based, counted over all seats)."""
        return self.first_live - n

    def live_tile(self, n: int) -> int:
        return self.yama[self.first_live - n]

    @property
    def live(self) -> tuple[int, ...]:
        """Every tile that can be a live draw, in order, if no rinshan draw happens."""
        return tuple(self.yama[self.first_live - n] for n in range(self.live_count()))

    @property
    def dead_wall(self) -> tuple[int, ...]:
        """``yama[0..13]``, the 14 tiles below the live wall at the start of the hand."""
        return self.yama[:14]

    def dora_position(self, k: int) -> int:
        return self.layout.dora(k)

    def ura_position(self, k: int) -> int:
        return self.layout.ura(k)

    def rinshan_position(self, r: int) -> int:
        return self.layout.rinshan[r]

    def dora_indicator(self, k: int) -> int:
        """Indicator k: 0 is the INIT dora, 1..4 the kan doras."""
        return self.yama[self.layout.dora(k)]

    def ura_indicator(self, k: int) -> int:
        return self.yama[self.layout.ura(k)]

    def dora_indicators(self, count: int) -> tuple[int, ...]:
        return tuple(self.dora_indicator(k) for k in range(count))

    def ura_indicators(self, count: int) -> tuple[int, ...]:
        return tuple(self.ura_indicator(k) for k in range(count))

    def rinshan_tile(self, r: int) -> int:
        return self.yama[self.layout.rinshan[r]]

    @property
    def max_rinshan(self) -> int:
        return len(self.layout.rinshan)


def build_wall(rnd: Sequence[int], fmt: SeedFormat, players: int, dealer: int = 0) -> Wall:
    """Shuffle (wall §1.4) and roll the dice (§1.5) from one hand's words."""
    yama = _sorted_ids(players)
    size = len(yama)
    # j = i + rnd[i] % (N - i): plain modulo, the bias is part of it (§1.4). The
    # targets come from map() in C; only the swaps are left to this loop.
    for i, j in enumerate(map(add, _POSITIONS[size], map(mod, rnd, _MODULI[size]))):
        yama[i], yama[j] = yama[j], yama[i]
    d0, d1 = dice_words(fmt, players)
    return Wall(
        fmt, players, dealer, tuple(yama), (rnd[d0] % 6, rnd[d1] % 6), layout_for(fmt, players)
    )


def walls_for_game(
    seed: str | None,
    shuffles: Sequence[str | None],
    players: int,
    dealers: Sequence[int] | None = None,
) -> Iterator[Wall]:
    """The wall of every hand, in INIT order (wall §1.8).

    ``seed`` is the SHUFFLE seed text, ``shuffles`` the ``shuffle=`` of each INIT
    (one entry per hand; it also says how many hands there are) and ``dealers`` the
    INIT ``oya`` of each hand (wall §4.7). A game without a Tenhou seed yields
    nothing; a per-INIT hand without ``shuffle=`` stops the iteration with an error.
    """
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, got {players}")
    fmt = seed_format(seed)
    if fmt is not None and fmt.hashed:
        assert seed is not None
        _, key = parse_key(seed)
        mt = _FastMT(key)  # one stream per game, never reseeded (§1.3, §4.5)
        for k in range(len(shuffles)):
            dealer = dealers[k] if dealers is not None else 0
            rnd = hand_words(mt.block(WORDS_PER_HAND))
            yield build_wall(rnd, fmt, players, dealer)
        return
    if not any(seed_format(s) is SeedFormat.PER_INIT for s in shuffles):
        return
    for k, shuffle in enumerate(shuffles):
        if shuffle is None or seed_format(shuffle) is not SeedFormat.PER_INIT:
            raise WallSeedError(f"hand {k + 1} has no mt19937ar shuffle= seed")
        _, key = parse_key(shuffle)
        # A fresh generator per hand, and its raw outputs are rnd: no SHA (§1.3).
        raw = _FastMT(key).block(_RND_WORDS)
        rnd = struct.unpack(f"<{_RND_WORDS}I", raw)
        yield build_wall(rnd, SeedFormat.PER_INIT, players, dealers[k] if dealers else 0)
