"""Hand efficiency: shanten and ukeire against a brute-force count, the discard notes on
hands made for them, and the tracker over corpus games through the audit's replay."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.engine.replay import RoundState
from analyzer.hands.hand import draw_shanten, is_complete
from analyzer.review.efficiency import (
    EfficiencyTracker,
    SeatTurn,
    efficiency_note,
    hand_efficiency,
    turn_efficiency,
)
from mjaudit.events import DeclareMeld, Discard, DoraReveal, DrawTile, Event, RoundStart, Win
from mjaudit.melds import MeldKind
from parsers import load
from tests.conftest import CORPUS
from tests.scoring_helpers import counts

# -- brute force ------------------------------------------------------------------------
#
# Shanten is the fewest tiles a hand must swap to be complete, less one: the complete
# hands (four sets and a pair less one set per meld, seven different pairs, thirteen
# orphans) that share the most tiles with the hand give it. Its tiles are covered by the
# target's groups part by part: the lowest tile left is dropped or goes into a group
# (a triplet, a pair, a sequence that holds it) with any of that group's other tiles
# the part still has, and every way is tried. A target group never needs a tile of a
# kind the hand holds four of: there is no fifth (docs/efficiency.md).

YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
MOST_SETS = 4


def _cover(vec: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """The most tiles of one part (a suit's or the honours' counts) that ``s`` set
    groups and ``h`` pair groups can cover, at index ``2 * s + h``."""
    return _cover_rest(vec, honours, tuple(k for k, c in enumerate(vec) if c == 4))


@cache
def _cover_rest(vec: tuple[int, ...], honours: bool, full: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`_cover` of what is left of a part; ``full``: the kinds the whole part
    holds four of, of which a group may add no tile."""
    i = next((i for i, c in enumerate(vec) if c), None)
    if i is None:
        return (0,) * (2 * MOST_SETS + 2)
    c = vec[i]
    ways: list[tuple[tuple[int, ...], int, int, int]] = []  # (rest, sets, pairs, covered)

    def less(*kinds: int) -> tuple[int, ...]:
        v = list(vec)
        for k in kinds:
            v[k] -= 1
        return tuple(v)

    ways.append((less(i), 0, 0, 0))  # the tile is swapped away
    for t in range(3 if i in full else 1, min(3, c) + 1):
        ways.append((less(*[i] * t), 1, 0, t))  # in a triplet of its kind
    for t in range(2 if i in full else 1, min(2, c) + 1):
        ways.append((less(*[i] * t), 0, 1, t))  # in the pair
    if not honours:
        for start in (i - 2, i - 1, i):
            if not 0 <= start <= 6:
                continue
            higher = [k for k in range(start, start + 3) if k > i and vec[k]]
            for mask in range(1 << len(higher)):
                taken = [k for b, k in enumerate(higher) if mask >> b & 1]
                added = [k for k in range(start, start + 3) if k != i and k not in taken]
                if not any(k in full for k in added):
                    ways.append((less(i, *taken), 1, 0, 1 + len(taken)))
    best = [0] * (2 * MOST_SETS + 2)
    for rest, sets, pairs, covered in ways:
        sub = _cover_rest(rest, honours, full)
        for s in range(sets, MOST_SETS + 1):
            for h in range(pairs, 2):
                value = covered + sub[2 * (s - sets) + (h - pairs)]
                best[2 * s + h] = max(best[2 * s + h], value)
    return tuple(best)


def _join(a: tuple[int, ...], b: tuple[int, ...], sets: int) -> tuple[int, ...]:
    """The cover table of two parts together, up to ``sets`` sets."""
    return tuple(
        max(
            a[2 * (s - s2) + (h - h2)] + b[2 * s2 + h2]
            for s2 in range(s + 1)
            for h2 in range(h + 1)
        )
        for s in range(sets + 1)
        for h in range(2)
    )


def _parts(c: list[int]) -> list[tuple[int, ...]]:
    return [_cover(tuple(c[9 * p : 9 * p + 9]), p == 3) for p in range(4)]


def _special_cover(c: list[int]) -> int:
    """The most tiles seven different pairs or thirteen orphans share with ``c``."""
    pairs = sum(sorted((min(n, 2) for n in c), reverse=True)[:7])
    orphans = sum(1 for k in YAOCHU if c[k])
    return max(pairs, *(orphans + (c[double] >= 2) for double in YAOCHU))


def _standard_cover(c: list[int]) -> int:
    """The most tiles a hand of sets and a pair (as many sets as ``c`` needs) shares."""
    sets = sum(c) // 3
    a, b, h, d = _parts(c)
    return _join(_join(_join(a, b, sets), h, sets), d, sets)[2 * sets + 1]


def brute_shanten(c: list[int]) -> int:
    total = sum(c)
    sets = total // 3  # the sets a complete hand of this size needs
    covered = _standard_cover(c)
    if total >= 13:
        covered = max(covered, _special_cover(c))
    return 3 * sets + 1 - covered


def brute_ukeire(c: list[int]) -> tuple[int, ...]:
    """The kinds whose draw lowers the brute-force shanten (a draw changes one part:
    the other three are joined once for all its kinds)."""
    now = brute_shanten(c)
    total = sum(c) + 1
    sets = total // 3
    parts = _parts(c)
    found = []
    for p in range(4):
        rest = [t for q, t in enumerate(parts) if q != p]
        others = _join(_join(rest[0], rest[1], sets), rest[2], sets)
        for k in range(9 * p, min(9 * p + 9, 34)):
            if c[k] >= 4:
                continue
            c[k] += 1
            grown = _cover(tuple(c[9 * p : 9 * p + 9]), p == 3)
            covered = _join(others, grown, sets)[2 * sets + 1]
            if total >= 13:
                covered = max(covered, _special_cover(c))
            c[k] -= 1
            if 3 * sets + 1 - covered < now:
                found.append(k)
    return tuple(found)


# -- random hands -------------------------------------------------------------------------

WALL = [k for k in range(34) for _ in range(4)]


def _from(kinds: list[int]) -> list[int]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


def _uniform(rng: random.Random, size: int) -> list[int]:
    return _from(rng.sample(WALL, size))


def _one_suit(rng: random.Random, size: int) -> list[int]:
    """Most tiles of one suit: the hands with the most ways to read them."""
    suit = rng.randrange(3)
    pool = [k for k in WALL if k // 9 == suit]
    pool += rng.sample([k for k in WALL if k // 9 != suit], 8)
    return _from(rng.sample(pool, size))


def _pairs(rng: random.Random, size: int) -> list[int]:
    """Seven pairs, some broken: near chiitoitsu."""
    kinds = rng.sample(range(34), 7)
    tiles = [k for k in kinds for _ in range(2)]
    for _ in range(rng.randrange(4)):
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    c = _from(tiles[:size])
    return c if max(c) <= 4 else _uniform(rng, size)


def _orphans(rng: random.Random, size: int) -> list[int]:
    """Terminals and honours, a few others: near kokushi."""
    tiles = [*YAOCHU, rng.choice(YAOCHU)]
    for _ in range(rng.randrange(5)):
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    return _from(rng.sample(tiles, size))


def _ready(rng: random.Random, size: int) -> list[int]:
    """A complete hand of ``size // 3`` sets and a pair, a tile or two swapped."""
    while True:
        tiles = []
        for _ in range(size // 3):
            k = rng.randrange(34)
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6:
                tiles += [k, k + 1, k + 2]
            else:
                tiles += [k, k, k]
        p = rng.randrange(34)
        tiles += [p, p]
        for _ in range(rng.randrange(3)):
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        c = _from(tiles)
        if size % 3 == 1:
            c[rng.choice([k for k in range(34) if c[k]])] -= 1
        if max(c) <= 4:
            return c


SHAPES: list[Callable[[random.Random, int], list[int]]] = [
    _uniform,
    _uniform,
    _one_suit,
    _ready,
    _pairs,
    _orphans,
]


def _seen(rng: random.Random, c: list[int]) -> list[int]:
    """The hand plus tiles of the rest of the wall in sight (ponds, melds, indicators)."""
    rest = Counter(WALL)
    rest.subtract(Counter({k: n for k, n in enumerate(c)}))
    pool = [k for k, n in rest.items() for _ in range(n)]
    seen = list(c)
    for k in rng.sample(pool, rng.randrange(0, 60)):
        seen[k] += 1
    return seen


def _hands(seed: int, number: int, sizes: tuple[int, ...]) -> list[list[int]]:
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < number:
        size = rng.choice(sizes)
        shape = rng.choice(SHAPES) if size >= 13 else rng.choice([_uniform, _one_suit, _ready])
        if shape in (_pairs, _orphans) and size < 13:
            continue
        out.append(shape(rng, size))
    return out


def test_the_brute_force_knows_its_hands() -> None:
    assert brute_shanten(counts("123m456p789s11122z")) == -1
    assert brute_shanten(counts("123m456p789s1112z")) == 0
    assert brute_shanten(counts("1122m3344p5566s7z")) == 0
    assert brute_shanten(counts("19m19p19s1234567z")) == 0
    assert brute_shanten(counts("13579m2468p1357s")) == 4
    assert brute_shanten(counts("2m")) == 0
    assert brute_ukeire(counts("23m456p789s11z")) == (0, 3)


def test_shanten_and_ukeire_agree_with_brute_force_on_waiting_hands() -> None:
    # 7,000 hands of 3k+1 tiles: 13 concealed, or 10, 7, 4, 1 beside one to four melds.
    rng = random.Random(7)
    hands = _hands(1, 7000, (13, 13, 13, 10, 7, 4, 1))
    shapes = Counter(brute_shanten(c) for c in hands)
    for c in hands:
        seen = _seen(rng, c)
        found = hand_efficiency(c, seen)
        expected = brute_ukeire(c)
        assert found.shanten == brute_shanten(c), c
        assert found.ukeire.kinds == expected, c
        assert found.ukeire.unseen == tuple(max(0, 4 - seen[k]) for k in expected), c
    # The hands reach from tenpai to far off, and for some seven pairs or thirteen
    # orphans are nearer than any four sets and a pair.
    assert {0, 1, 2, 3, 4} <= set(shapes)
    assert sum(1 for c in hands if sum(c) == 13 and brute_shanten(c) == 0) > 300
    special = [c for c in hands if sum(c) == 13 and _special_cover(c) > _standard_cover(c)]
    assert len(special) > 300


def test_draw_shanten_gives_each_draw_its_shanten() -> None:
    for c in _hands(2, 600, (13, 10, 4)):
        base, after = draw_shanten(c)
        assert base == brute_shanten(c)
        for k in range(34):
            if c[k] < 4:
                c[k] += 1
                assert after[k] == brute_shanten(c), (c, k)
                c[k] -= 1
            else:
                assert after[k] == base


def test_every_discard_agrees_with_brute_force() -> None:
    # 3,000 hands of 3k+2 tiles: the turn's shanten and every discard's shanten; the
    # ukeire of every discard on one hand in six.
    rng = random.Random(9)
    hands = _hands(3, 3000, (14, 14, 14, 11, 8, 5, 2))
    for n, c in enumerate(hands):
        seen = _seen(rng, c)
        turn = turn_efficiency(c, seen)
        assert turn.shanten == brute_shanten(c), c
        assert (turn.shanten == -1) == is_complete(c), c
        assert [o.kind for o in turn.options] == [k for k in range(34) if c[k]]
        for option in turn.options:
            c[option.kind] -= 1
            assert option.shanten == brute_shanten(c), (c, option.kind)
            if n % 6 == 0:
                assert option.ukeire.kinds == brute_ukeire(c), (c, option.kind)
            c[option.kind] += 1
        if turn.shanten >= 0:
            assert turn.shanten == min(o.shanten for o in turn.options)


# -- the note ---------------------------------------------------------------------------


def _turn(hand: str, seen: str = "") -> tuple[list[int], list[int]]:
    c = counts(hand)
    extra = counts(seen) if seen else [0] * 34
    return c, [a + b for a, b in zip(c, extra, strict=True)]


def test_a_discard_that_breaks_tenpai_is_noted() -> None:
    c, seen = _turn("234m456p789s1122z5z")
    two_m, white = 1, 31
    note = efficiency_note(turn_efficiency(c, seen), two_m)
    assert note is not None
    assert (note.shanten, note.better, note.better_shanten) == (1, (white,), 0)
    assert note.text == (
        "discarding 2m leaves 1-shanten with 11 tiles that improve it; 5z leaves tenpai with 4"
    )
    assert efficiency_note(turn_efficiency(c, seen), white) is None


def test_the_same_shanten_with_fewer_tiles_is_noted() -> None:
    # 1-shanten whichever of 13p57p9s goes; two kanchan take more tiles than one.
    c, seen = _turn("123m456m789m13p57p9s")
    turn = turn_efficiency(c, seen)
    one_p, five_p, nine_s = 9, 13, 26
    assert {o.shanten for o in turn.options if o.kind >= one_p} == {1}
    note = efficiency_note(turn, five_p)
    assert note is not None
    assert note.shanten == note.better_shanten == 1
    assert note.better_ukeire > note.ukeire
    assert note.better == (nine_s,)
    assert efficiency_note(turn, nine_s) is None
    assert efficiency_note(turn, one_p) is not None


def test_tied_discards_get_no_note_and_are_all_named() -> None:
    # Four sets and two honours: either honour goes, a tanki on the other, 3 tiles each.
    c, seen = _turn("123m456p789s234s1z2z")
    turn = turn_efficiency(c, seen)
    east, south, two_s = 27, 28, 19
    assert efficiency_note(turn, east) is None
    assert efficiency_note(turn, south) is None
    assert [o.kind for o in turn.best] == [east, south]
    assert [o.ukeire.total for o in turn.best] == [3, 3]
    note = efficiency_note(turn, two_s)
    assert note is not None and note.better == (east, south)
    assert note.text.endswith("1z or 2z leave tenpai with 3")


def test_more_means_strictly_more_unseen_tiles() -> None:
    # Two 2z more in sight: a tanki on 1z waits on 3 tiles, one on 2z on 1.
    c, seen = _turn("123m456p789s234s1z2z", seen="22z")
    turn = turn_efficiency(c, seen)
    east, south = 27, 28
    note = efficiency_note(turn, east)
    assert note is not None and note.better == (south,)
    assert (note.shanten, note.ukeire, note.better_shanten, note.better_ukeire) == (0, 1, 0, 3)
    assert efficiency_note(turn, south) is None


def test_ukeire_counts_what_the_seat_can_see() -> None:
    c, seen = _turn("23m456p789s11z", seen="1m1m4m4m4m4m")
    found = hand_efficiency(c, seen)
    assert found.shanten == 0
    assert (found.ukeire.kinds, found.ukeire.unseen) == ((0, 3), (2, 0))
    assert str(found.ukeire) == "1m 4m: 2"


def test_a_hand_waiting_only_on_a_fifth_tile_is_one_from_tenpai() -> None:
    # Its one wait, 1m, is all in the hand: not tenpai. Any other tile drawn, a 1m let
    # go, waits on that tile; a kind held four times is never ukeire.
    c = counts("1111m234p567s789s")
    found = hand_efficiency(c, c)
    assert found.shanten == 1
    assert found.ukeire.kinds == tuple(range(1, 34))
    assert found.ukeire.unseen == tuple(4 - c[k] for k in range(1, 34))


# -- the tracker over corpus games ---------------------------------------------------------


class _Sight:
    """A replay observer that counts the tiles in sight from the events themselves."""

    def __init__(self, seats: set[int]) -> None:
        self.seats = seats
        self.public = [0] * 34
        self.round = -1
        self.at_turn: dict[tuple[int, int], list[int]] = {}
        self.tsumo: set[tuple[int, int]] = set()
        self.last_draw = -1

    def start_round(self, state: RoundState) -> None:
        self.round = state.record.index
        self.public = [0] * 34
        start: RoundStart = state.start
        self.public[start.dora_indicator.kind] += 1

    def step(self, index: int, event: Event, state: RoundState) -> None:
        if isinstance(event, Discard):
            self.public[event.tile.kind] += 1
        elif isinstance(event, DoraReveal):
            self.public[event.indicator.kind] += 1
        elif isinstance(event, DeclareMeld):
            meld = event.meld
            shown = list(meld.tiles)
            if meld.kind is MeldKind.KAKAN:
                shown = [meld.added if meld.added is not None else meld.tiles[0]]
            elif meld.called is not None and meld.kind is not MeldKind.ANKAN:
                shown.remove(meld.called)  # already in sight, in the pond
            for t in shown:
                self.public[t.kind] += 1
        if isinstance(event, Win) and event.tsumo:
            self.tsumo.add((self.round, self.last_draw))
        seat = None
        if isinstance(event, DrawTile):
            self.last_draw = index
            seat = event.seat
        elif isinstance(event, DeclareMeld) and event.meld.kind in (MeldKind.CHI, MeldKind.PON):
            seat = event.seat
        if seat in self.seats:  # an own turn: the hand and what is in sight
            seen = list(self.public)
            for t in state.hands[seat]:
                seen[t.kind] += 1
            self.at_turn[(self.round, index)] = seen

    def end_round(self, state: RoundState) -> None:
        pass


GAMES = [
    "tenhou-xml/2009071823gm-0041-0000-ff3a2214.xml",  # an ankan
    "tenhou-xml/2021041720gm-00a9-0000-f3b19e15.xml",  # seven kans, 39 calls
    "tenhou-xml/2014091101gm-00b9-0000-5ca6b487.xml",  # sanma, 24 kita
    "mahjongsoul/tenhou-json/kbkn3_2025_1_1_Jade_Room_South.json",  # no tile ids
    "mjai/convlog/mjaigym_sample.jsonl",
]


def _game(name: str) -> Path:
    """A game of the corpus; the test skips, visibly, where it is absent."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path} (CI has ../shared beside the repo)")
    return path


def _check_turn(turn: SeatTurn, seen: list[int]) -> None:
    c = counts(turn.hand)
    assert sum(c) % 3 == 2
    assert turn.turn.shanten == brute_shanten(c)
    assert (turn.shanten == -1) == is_complete(c), turn
    assert turn.live_remaining >= 0
    for option in turn.turn.options:
        u = option.ukeire
        assert list(u.kinds) == sorted(set(u.kinds))
        assert all(0 <= n <= 4 for n in u.unseen), turn
        assert u.unseen == tuple(max(0, 4 - seen[k]) for k in u.kinds), turn
        assert option.shanten >= max(turn.shanten, 0)
    if turn.riichi:
        assert turn.note is None
        assert len(turn.turn.options) == 1
    if turn.discard_index is None:
        return
    assert turn.discarded is not None and turn.kept is not None
    assert turn.kept.kind == turn.discarded.kind
    if not turn.riichi:
        assert (turn.note is None) == (turn.kept in turn.turn.best), turn
    if turn.note is not None:
        better = turn.turn.best[0]
        assert turn.note.better_shanten < turn.kept.shanten or (
            turn.note.better_shanten == turn.kept.shanten
            and better.ukeire.total > turn.kept.ukeire.total
        )


@pytest.mark.parametrize("name", GAMES)
def test_the_tracker_follows_the_audits_replay(name: str) -> None:
    log = load(str(_game(name)))
    rules = resolve_rules(log, "auto")
    seats = set(range(rules.players))
    sight = _Sight(seats)
    tracker = EfficiencyTracker()
    audit_log(log, rules, observers=[sight, tracker])
    # Every own turn (a draw, a chi or pon) is recorded, and nothing else.
    assert set(tracker.turns) == set(sight.at_turn)
    for key, turn in tracker.turns.items():
        assert key == (turn.round_no, turn.event_index)
        _check_turn(turn, sight.at_turn[key])
        if turn.discard_index is not None:
            assert tracker.discards[(turn.round_no, turn.discard_index)] is turn
            assert tracker.at(turn.round_no, turn.discard_index) is turn
    # A tsumo win is a complete hand; the wall runs down as the draws come.
    for key in sight.tsumo:
        assert tracker.turns[key].shanten == -1
    assert tracker.notes == sum(t.note is not None for t in tracker.turns.values()) > 0
    by_round: dict[int, list[SeatTurn]] = {}
    for turn in tracker.turns.values():
        by_round.setdefault(turn.round_no, []).append(turn)
    for turns in by_round.values():
        walls = [t.live_remaining for t in sorted(turns, key=lambda t: t.event_index)]
        assert walls == sorted(walls, reverse=True)


def test_one_seat_is_followed_alone() -> None:
    log = load(str(_game(GAMES[0])))
    rules = resolve_rules(log, "auto")
    every, one = EfficiencyTracker(), EfficiencyTracker([2])
    audit_log(log, rules, observers=[every, one])
    assert one.turns == {k: t for k, t in every.turns.items() if t.seat == 2}
    assert one.turns


@pytest.mark.corpus
def test_three_players_wait_for_no_2m_to_8m() -> None:
    """Sanma has no 2m to 8m: a lone 1m or 9m waits for no such tile. This turn (hand
    19m346p23668s1356z, 3z discarded) counted 2m, 3m, 7m and 8m as four unseen each:
    1m kept 82 and 3z 89, "3z best". Without them 1m keeps 74 and 3z 73: a note."""
    from reports.views_facts import collect_game

    path = CORPUS / "tenhou-xml" / "2009060321gm-00b9-0000-75b25bcf.xml"
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    turn = collect_game(log, resolve_rules(log, "auto"), seat=2).turns[(0, 8)]
    assert turn.turn is not None
    for option in turn.turn.options:
        assert not set(option.ukeire.kinds) & set(range(1, 8))  # 2m..8m
    kept = {o.kind: sum(o.ukeire.unseen) for o in turn.turn.options}
    assert (kept[0], kept[29]) == (74, 73)  # 1m, 3z
    assert turn.note is not None and turn.note.better == (0,)
