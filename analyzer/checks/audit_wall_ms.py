"""Wall integrity for Mahjong Soul: each hand against the wall its record commits to.

Every RecordNewRound carries the hand's wall (``paishan``, mpsz pairs, "0m" the red
five) and the hash Mahjong Soul published for it before the hand (``md5`` in the
older records, ``sha256`` in the newer ones). The parser hands both over on
:class:`~mjaudit.events.RoundStart` (``wall_text``, ``wall_hash``). The positions
below were settled by the records of ../shared/corpus/mahjongsoul (docs/wall.md,
"Mahjong Soul", gives the counts):

- two layouts: the whole wall (136 tiles, 108 in sanma), dealt from the front in
  blocks of 4 per seat from the dealer (three rounds), then 1 each, then the
  dealer's 14th; or the wall after the deal (83 = 136 - 53, 68 = 108 - 40);
- live draws go on from the front, in order;
- replacement draws (after a kan or a kita) take the last tile, then the one
  before it, ...; each shortens the live wall by one (69 - r live draws in
  4-player, 54 - r in sanma, r replacement draws);
- dora indicator k (0 the first) is the (5 + 2k)-th tile from the end in
  4-player, the (9 + 2k)-th in sanma, its ura the tile before it (one further from
  the end).

For each hand with a wall the check runs in the order a reader would: the committed
hash against the wall text, the wall as a full tile set, the starting hands (as
multisets, per seat; the whole-wall layout only), then the hand event by event:
every live draw, every replacement draw, every DoraReveal, each win's dora and ura
indicators, and the number of live draws at an exhaustive draw. The first
divergence is the hand's one ``wall-mismatch``; the next hand is checked afresh.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from analyzer.checks.audit_common import error
from analyzer.engine.state import GameReplay, RoundReplay
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameLog,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Finding, JsonValue
from mjaudit.melds import MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = [
    "MsRoundWall",
    "MsWall",
    "check_ms_walls",
    "expected_reds",
    "ms_round_walls",
    "read_wall",
]

WINDS = ("East", "South", "West", "North")
# A kan of any kind or a kita makes that seat's next draw a replacement draw.
_REPLACED_BY = frozenset({MeldKind.ANKAN, MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.KITA})
_EXHAUSTIVE = frozenset({DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN})
# Per player count: (whole wall, tiles dealt, replacement tiles, first indicator
# counted from the end). Sanma keeps 8 replacement tiles (4 kans and 4 kita), so
# its indicators start further in.
_SHAPES = {4: (136, 53, 4, 5), 3: (108, 40, 8, 9)}
_DEAD = 14  # tiles the live wall never reaches before a replacement draw


def expected_reds(players: int, stated: Sequence[tuple[str, str]], aka: bool | None) -> int | None:
    """How many red fives the game's tile set holds; None where the record does not say.

    The record's ``detail_rule.dora_count`` where it states one (friendly and
    tournament rooms); else none for a game without red fives; else, for a game
    with them (every ranked room), Mahjong Soul's standard set: 0m 0p 0s
    (4-player), 0p 0s (sanma). A room whose rules leave the count out (protobuf
    drops a 0) is not guessed at: its fives are counted with the plain ones.
    """
    for key, value in stated:
        if key == "dora_count" and value.isdigit():
            return int(value)
    if aka is None:
        return None
    return (3 if players == 4 else 2) if aka else 0


@dataclass(frozen=True, slots=True)
class MsWall:
    """One hand's wall as the record gives it, with the positions named.

    ``full``: the whole wall, deal included; else the wall after the deal. Indexes
    are into ``tiles`` (the record's order, 0 = the first pair of ``paishan``).
    """

    tiles: tuple[Tile, ...]
    players: int
    dealer: int
    full: bool

    @property
    def size(self) -> int:
        return len(self.tiles)

    @property
    def first_live(self) -> int:
        return _SHAPES[self.players][1] if self.full else 0

    @property
    def max_replacements(self) -> int:
        return _SHAPES[self.players][2]

    def deal_positions(self, seat: int) -> tuple[int, ...]:
        """Where the seat's starting tiles lie in a whole wall (the dealer's 14 included)."""
        n = self.players
        turn = (seat - self.dealer) % n
        blocks = [4 * (n * r + turn) + k for r in range(3) for k in range(4)]
        blocks.append(12 * n + turn)
        if turn == 0:
            blocks.append(13 * n)
        return tuple(blocks)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        return tuple(self.tiles[p] for p in self.deal_positions(seat))

    def live_position(self, n: int) -> int:
        return self.first_live + n

    def live_count(self, replaced: int) -> int:
        """Live draws before an exhaustive draw, after ``replaced`` replacement draws."""
        return self.size - self.first_live - _DEAD - replaced

    def replacement_position(self, r: int) -> int:
        return self.size - 1 - r

    def dora_position(self, k: int) -> int:
        return self.size - _SHAPES[self.players][3] - 2 * k

    def ura_position(self, k: int) -> int:
        return self.dora_position(k) - 1

    def dora_indicators(self, count: int) -> tuple[Tile, ...]:
        return tuple(self.tiles[self.dora_position(k)] for k in range(count))

    def ura_indicators(self, count: int) -> tuple[Tile, ...]:
        return tuple(self.tiles[self.ura_position(k)] for k in range(count))


class WallTextError(ValueError):
    """The record's wall text is not a wall (odd length, a pair that is no tile)."""


# The 37 tiles by their mpsz pair: a wall is read by lookup, 136 pairs a hand.
_BY_PAIR = {f"{n}{suit}": Tile(f"{n}{suit}") for suit in "mps" for n in range(10)} | {
    f"{n}z": Tile(f"{n}z") for n in range(1, 8)
}
_PAIR_OF = {tile: pair for pair, tile in _BY_PAIR.items()}


def _pairs(text: str) -> list[str]:
    return [text[k : k + 2] for k in range(0, len(text), 2)]


@cache
def _standard_set(players: int, reds: int) -> dict[str, int] | None:
    """The full tile set by mpsz pair: one red five a suit (no manzu 2-8 in sanma).

    None for a red count that is not one a suit (the slow check judges those).
    """
    suits = "mps" if players == 4 else "ps"
    if reds not in (0, len(suits)):
        return None
    out: Counter[str] = Counter()
    for suit in "mps":
        for n in range(1, 10):
            if suit == "m" and players == 3 and 2 <= n <= 8:
                continue
            out[f"{n}{suit}"] = 4
        if reds and suit in suits:
            out[f"5{suit}"] -= 1
            out[f"0{suit}"] = 1
    for n in range(1, 8):
        out[f"{n}z"] = 4
    return dict(out)


def read_wall(text: str) -> tuple[Tile, ...]:
    """The tiles of a ``paishan`` string, in its order."""
    return _read_pairs(text, _pairs(text))


def _read_pairs(text: str, pairs: list[str]) -> tuple[Tile, ...]:
    if len(text) % 2:
        raise WallTextError(f"{len(text)} characters, not mpsz pairs")
    try:
        return tuple(map(_BY_PAIR.__getitem__, pairs))
    except KeyError:
        bad = next(k for k, pair in enumerate(pairs) if pair not in _BY_PAIR)
        raise WallTextError(f"pair {bad} {pairs[bad]!r} is not a tile") from None


@dataclass(frozen=True, slots=True)
class MsRoundWall:
    """One hand's wall and how far the record used it, up to its end or ``mismatch``.

    ``wall`` is None when the wall text could not be read as a wall (the mismatch
    says why). ``hash_ok``: the committed hash matches the text; None when the
    record states no hash.
    """

    round_index: int
    label: str
    wall: MsWall | None
    hash_algorithm: str | None
    hash_stated: str | None
    hash_computed: str | None
    live_drawn: int = 0
    replaced: int = 0
    revealed: int = 1
    mismatch: Finding | None = None

    @property
    def hash_ok(self) -> bool | None:
        if self.hash_stated is None:
            return None
        return self.hash_stated == self.hash_computed

    @property
    def live_left(self) -> int:
        return 0 if self.wall is None else self.wall.live_count(self.replaced) - self.live_drawn


def check_ms_walls(log: GameLog, game: GameReplay) -> tuple[list[Finding], int]:
    """Wall findings of a Mahjong Soul game and the number of hands checked."""
    walls = ms_round_walls(log, game)
    return [w.mismatch for w in walls if w.mismatch is not None], len(walls)


def ms_round_walls(log: GameLog, game: GameReplay) -> list[MsRoundWall]:
    """Every hand that carries a wall, traced through the record."""
    if log.format != "mahjongsoul":
        return []
    hint = log.start.rules_hint
    reds = expected_reds(game.players, hint.stated_rules, hint.aka)
    return [
        _Trace(rnd, log, game.players, reds).run()
        for rnd in game.rounds
        if rnd.start.wall_text is not None
    ]


def _hash(algorithm: str, text: str) -> str | None:
    if algorithm not in ("md5", "sha256"):
        return None
    return hashlib.new(algorithm, text.encode("utf-8")).hexdigest()


def _names(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles) or "none"


class _Trace:
    """The check of one hand: each step in turn; the first divergence ends it.

    The steps before the hand's events (hash, wall text, tile set, deal, first
    indicator) run in :meth:`run`; the events are checked in bulk by :meth:`verify`
    and, where it does not pass the hand, walked by :meth:`walk`, which words the
    finding.
    """

    def __init__(self, rnd: RoundReplay, log: GameLog, players: int, reds: int | None) -> None:
        self.rnd = rnd
        self.log = log
        self.players = players
        self.reds = reds
        self.start: RoundStart = rnd.start
        self.wall: MsWall | None = None
        self.algorithm: str | None = None
        self.stated: str | None = None
        self.computed: str | None = None
        self.pairs: list[str] = []
        self.live = 0
        self.replaced = 0
        self.revealed = 1

    def result(self, mismatch: Finding | None = None) -> MsRoundWall:
        return MsRoundWall(
            self.rnd.index,
            self.rnd.label,
            self.wall,
            self.algorithm,
            self.stated,
            self.computed,
            self.live,
            self.replaced,
            self.revealed,
            mismatch,
        )

    def fail(
        self,
        message: str,
        event: int,
        seat: int | None = None,
        expected: JsonValue = None,
        actual: JsonValue = None,
    ) -> MsRoundWall:
        finding = error(
            self.rnd, self.log.path, "wall-mismatch", message, event, seat, expected, actual
        )
        return self.result(finding)

    def who(self, seat: int) -> str:
        return f"{WINDS[(seat - self.start.dealer) % self.players]} (seat {seat})"

    def at(self, index: int) -> str:
        return self.log.events[index].pos.where if index >= 0 else "the hand's start"

    def run(self) -> MsRoundWall:
        text = self.start.wall_text or ""
        first = self.rnd.first_event
        # The wall is read before the hash is judged, so that ``replay --wall`` can
        # show a wall whose hash does not match; the hash finding comes first.
        self.pairs = _pairs(text)
        unusable: tuple[str, JsonValue, JsonValue] | None = None
        whole, dealt, _, _ = _SHAPES[self.players]
        try:
            tiles = _read_pairs(text, self.pairs)
        except WallTextError as exc:
            unusable = (f"the record's wall cannot be read: {exc}", None, None)
        else:
            if len(tiles) in (whole, whole - dealt):
                self.wall = MsWall(tiles, self.players, self.start.dealer, len(tiles) == whole)
            else:
                unusable = (
                    f"the wall has {len(tiles)} tiles; a {self.players}-player wall has "
                    f"{whole}, or {whole - dealt} after the deal",
                    whole,
                    len(tiles),
                )
        if self.start.wall_hash is not None:
            self.algorithm, self.stated = self.start.wall_hash
            self.computed = _hash(self.algorithm, text)
            if self.computed is None:
                return self.fail(
                    f"the wall's hash is stated as {self.algorithm}, which mjaudit cannot compute",
                    first,
                )
            if self.computed != self.stated:
                return self.fail(
                    f"the wall does not match the {self.algorithm} committed before the "
                    f"hand: committed {self.stated}, the record's paishan hashes to "
                    f"{self.computed}",
                    first,
                    None,
                    self.stated,
                    self.computed,
                )
        if unusable is not None or self.wall is None:
            message, expected, actual = unusable or ("the record's wall is empty", None, None)
            return self.fail(message, first, None, expected, actual)
        events = self.log.events
        last = min(self.rnd.last_event, len(events) - 1)
        # The dealer's 14th tile: a draw of the dealer's before anything else the
        # hand does (the parser makes it from the end of the dealer's tiles list).
        deal_draw = -1
        for index in range(first + 1, last + 1):
            ev = events[index]
            if isinstance(ev, DoraReveal):
                continue
            if isinstance(ev, DrawTile) and ev.seat == self.start.dealer:
                deal_draw = index
            break
        found = self.check_set(deal_draw)
        if found is not None:
            return found
        found = self.check_deal(deal_draw)
        if found is not None:
            return found
        want = self.wall.tiles[self.wall.dora_position(0)]
        if self.start.dora_indicator != want:
            return self.fail(
                f"dora indicator at {self.at(first)}: record {self.start.dora_indicator}, "
                f"wall {want} (paishan[{self.wall.dora_position(0)}])",
                first,
                None,
                str(want),
                str(self.start.dora_indicator),
            )
        return self.verify(first, last, deal_draw) or self.walk(first, last, deal_draw)

    def starting_hands(self, deal_draw: int) -> list[list[Tile]]:
        hands = [list(h) for h in self.start.hands[: self.players]]
        if deal_draw >= 0:
            ev = self.log.events[deal_draw]
            assert isinstance(ev, DrawTile)
            hands[ev.seat].append(ev.tile)
        return hands

    def check_set(self, deal_draw: int) -> MsRoundWall | None:
        """The wall (with the starting hands, after the deal) is one full tile set."""
        wall = self.wall
        assert wall is not None
        # Counted by mpsz pair: strings hash in C, and the standard set is one compare.
        counts = Counter(self.pairs)
        what = "the wall is"
        if not wall.full:
            dealt: Counter[Tile] = Counter()
            for hand in self.starting_hands(deal_draw):
                dealt.update(hand)
            for tile, n in dealt.items():
                counts[_PAIR_OF[tile]] += n
            what = "the wall and the starting hands are"
        if self.reds is not None and dict(counts) == _standard_set(self.players, self.reds):
            return None
        kinds: Counter[int] = Counter()
        for pair, n in counts.items():
            kinds[_BY_PAIR[pair].kind] += n
        sanma = self.players == 3
        off: list[str] = []
        for kind in range(34):
            want = 0 if sanma and 1 <= kind <= 7 else 4
            if kinds[kind] != want:
                off.append(f"{kinds[kind]} of {Tile(kind)} (not {want})")
        reds = sum(n for pair, n in counts.items() if pair[0] == "0")
        if self.reds is not None and reds != self.reds:
            off.append(f"{reds} red fives (the game has {self.reds})")
        if not off:
            return None  # red fives spread otherwise (dora_count 4), or not stated
        return self.fail(
            f"{what} not a full {self.players}-player tile set: {', '.join(off)}",
            self.rnd.first_event,
            None,
            None,
            to_mpsz(_BY_PAIR[pair] for pair in sorted(counts.elements())),
        )

    def check_deal(self, deal_draw: int) -> MsRoundWall | None:
        """Each seat's starting hand is the tiles the whole wall deals it (as a multiset)."""
        wall = self.wall
        assert wall is not None
        if not wall.full:
            return None  # the deal is not in the wall; the tile set covered the hands
        for seat, hand in enumerate(self.starting_hands(deal_draw)):
            dealt = wall.hand(seat)
            if len(hand) != len(dealt) and seat == self.start.dealer:
                # The record gave the dealer 13 tiles: the 14th is the first draw.
                dealt = dealt[:-1]
            got, want = Counter(hand), Counter(dealt)
            if dict(got) == dict(want):
                continue
            extra, missing = got - want, want - got
            return self.fail(
                f"starting hand of {self.who(seat)}: the record deals "
                f"{_names(sorted(extra.elements()))} where the wall deals "
                f"{_names(sorted(missing.elements()))} "
                f"(paishan[{', '.join(map(str, wall.deal_positions(seat)))}])",
                self.rnd.first_event,
                seat,
                to_mpsz(dealt),
                to_mpsz(hand),
            )
        return None

    def verify(self, first: int, last: int, deal_draw: int) -> MsRoundWall | None:
        """The hand's result if it matches its wall at every point, else None.

        The same checks as :meth:`walk`, in bulk and without words, for a hand with
        no replacement draw (most 4-player hands): the live draws are compared with
        the front of the wall in one step, and only the few events that are
        neither draws nor discards are read. None means "walk it": a divergence, a
        kan or kita, or an event the bulk check does not know.
        """
        wall = self.wall
        assert wall is not None
        events = self.log.events
        revealed = 1
        exhaustive = False
        for index in self.rnd.other_events:
            ev = events[index]
            # type() is X (not isinstance): a derived class falls to the walk.
            kind = type(ev)
            if kind is DeclareMeld:
                assert isinstance(ev, DeclareMeld)
                if ev.meld.kind in _REPLACED_BY:
                    return None
            elif kind is DoraReveal:
                assert isinstance(ev, DoraReveal)
                if revealed > 4 or ev.indicator != wall.tiles[wall.dora_position(revealed)]:
                    return None
                revealed += 1
            elif kind is Win:
                assert isinstance(ev, Win)
                claims = ev.claims
                if (
                    claims.dora_indicators is not None
                    and claims.dora_indicators != wall.dora_indicators(revealed)
                ) or (
                    claims.ura_indicators is not None
                    and claims.ura_indicators != wall.ura_indicators(revealed)
                ):
                    return None
            elif kind is RoundDraw:
                assert isinstance(ev, RoundDraw)
                exhaustive = exhaustive or ev.reason in _EXHAUSTIVE
            elif kind is not RiichiDeclared and kind is not RiichiAccepted:
                return None
        drawn = [ev.tile for ev in events[first + 1 : last + 1] if type(ev) is DrawTile]
        if deal_draw >= 0:
            del drawn[0]  # the dealer's 14th: the hand's first draw (see run)
        live = len(drawn)
        start = wall.first_live
        if live > wall.live_count(0) or (exhaustive and live != wall.live_count(0)):
            return None
        if tuple(drawn) != wall.tiles[start : start + live]:
            return None
        self.live, self.revealed = live, revealed
        return self.result()

    def walk(self, first: int, last: int, deal_draw: int) -> MsRoundWall:
        """The hand event by event; ``live`` is kept in a local (the loop sees every event)."""
        wall = self.wall
        assert wall is not None
        events: Sequence[Event] = self.log.events
        tiles = wall.tiles
        first_live = wall.first_live
        limit = wall.live_count(0)
        pending = [False] * 4
        live = 0
        for index in range(first + 1, last + 1):
            ev = events[index]
            if isinstance(ev, DrawTile):
                if index == deal_draw:
                    continue
                seat = ev.seat
                if pending[seat]:
                    pending[seat] = False
                    found = self.replacement(ev, index)
                    if found is not None:
                        self.live = live
                        return found
                    continue
                # Each replacement draw shortens the live wall by one.
                if live >= limit - self.replaced:
                    self.live = live
                    return self.fail(
                        f"draw {live + 1} by {self.who(seat)} at {self.at(index)}: "
                        f"record {ev.tile}, but the live wall ends after "
                        f"{limit - self.replaced} draws ({self.replaced} replacement draws)",
                        index,
                        seat,
                        None,
                        str(ev.tile),
                    )
                want = tiles[first_live + live]
                if ev.tile is not want and ev.tile != want:
                    self.live = live
                    return self.fail(
                        f"draw {live + 1} by {self.who(seat)} at {self.at(index)}: "
                        f"record {ev.tile}, wall {want} (paishan[{first_live + live}])",
                        index,
                        seat,
                        str(want),
                        str(ev.tile),
                    )
                live += 1
            elif isinstance(ev, Discard):
                continue
            elif isinstance(ev, DeclareMeld):
                if ev.meld.kind in _REPLACED_BY:
                    pending[ev.seat] = True
            elif isinstance(ev, DoraReveal):
                found = self.reveal(ev, index)
                if found is not None:
                    self.live = live
                    return found
            elif isinstance(ev, Win):
                found = self.win(ev, index)
                if found is not None:
                    self.live = live
                    return found
            elif isinstance(ev, RoundDraw) and ev.reason in _EXHAUSTIVE:
                holds = limit - self.replaced
                if live != holds:
                    self.live = live
                    return self.fail(
                        f"exhaustive draw at {self.at(index)}: after {live} live draws, "
                        f"the wall holds {holds} ({self.replaced} replacement draws)",
                        index,
                        None,
                        holds,
                        live,
                    )
        self.live = live
        return self.result()

    def replacement(self, ev: DrawTile, index: int) -> MsRoundWall | None:
        wall = self.wall
        assert wall is not None
        r = self.replaced
        if r >= wall.max_replacements:
            return self.fail(
                f"replacement draw {r + 1} by {self.who(ev.seat)} at {self.at(index)}: "
                f"record {ev.tile}, but the wall has {wall.max_replacements} replacement tiles",
                index,
                ev.seat,
                None,
                str(ev.tile),
            )
        position = wall.replacement_position(r)
        want = wall.tiles[position]
        if ev.tile != want:
            return self.fail(
                f"replacement draw {r + 1} by {self.who(ev.seat)} at {self.at(index)}: "
                f"record {ev.tile}, wall {want} (paishan[{position}])",
                index,
                ev.seat,
                str(want),
                str(ev.tile),
            )
        self.replaced += 1
        return None

    def reveal(self, ev: DoraReveal, index: int) -> MsRoundWall | None:
        wall = self.wall
        assert wall is not None
        k = self.revealed
        if k > 4:
            return self.fail(
                f"kan dora indicator {k} at {self.at(index)}: record {ev.indicator}, "
                "but a hand has at most 4 kan doras",
                index,
                None,
                None,
                str(ev.indicator),
            )
        position = wall.dora_position(k)
        want = wall.tiles[position]
        if ev.indicator != want:
            return self.fail(
                f"kan dora indicator {k} at {self.at(index)}: record {ev.indicator}, "
                f"wall {want} (paishan[{position}])",
                index,
                None,
                str(want),
                str(ev.indicator),
            )
        self.revealed += 1
        return None

    def win(self, ev: Win, index: int) -> MsRoundWall | None:
        wall = self.wall
        assert wall is not None
        claims = ev.claims
        for what, got, want in (
            ("dora indicators", claims.dora_indicators, wall.dora_indicators(self.revealed)),
            ("ura indicators", claims.ura_indicators, wall.ura_indicators(self.revealed)),
        ):
            if got is not None and got != want:
                return self.fail(
                    f"win by {self.who(ev.seat)} at {self.at(index)}: {what} "
                    f"record {_names(got)}, wall {_names(want)}",
                    index,
                    ev.seat,
                    [str(t) for t in want],
                    [str(t) for t in got],
                )
        return None
