"""The wall check on real logs: the corpus passes, and every kind of edit is caught."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

import pytest
from lxml import etree

from analyzer.checks.audit import resolve_rules
from analyzer.checks.audit_wall import (
    RoundWall,
    _find_mismatch,
    _verify,
    check_wall,
    game_seed_format,
    round_walls,
)
from analyzer.engine.replay import replay
from analyzer.engine.state import RoundReplay
from analyzer.engine.wall import SeedFormat, Wall
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameLog,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Finding, Severity
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile
from parsers.tenhou_xml import parse_tenhou_xml
from tests.conftest import TENHOU_XML, corpus_file, elements, rebuild

BASE64_4P = "2010030412gm-00e1-0000-4a275c59.xml"  # 6 hands, an ura, an exhaustive draw
BASE64_3P = "2014091101gm-00b9-0000-5ca6b487.xml"  # sanma with kita and a kan dora
PER_INIT_4P = "2008092000gm-0009-0000-10db094d.xml"
HEX_4P = "2009072917gm-0061-0000-85a7478c.xml"
OLD_SANMA = "2009060321gm-00b9-0000-75b25bcf.xml"

Children = list[etree._Element]


def _load(data: bytes, name: str) -> GameLog:
    return parse_tenhou_xml(data, name)


def wall_check(data: bytes, name: str = "tampered.xml") -> tuple[list[Finding], int]:
    log = _load(data, name)
    return check_wall(log, replay(log, resolve_rules(log, "auto")))


def tampered(name: str, edit: Callable[[Children], None]) -> tuple[list[Finding], int]:
    children = elements(corpus_file(name))
    edit(children)
    return wall_check(rebuild(children), name)


def _is_draw(el: etree._Element) -> bool:
    tag = str(el.tag)
    return tag[0] in "TUVW" and tag[1:].isdigit()


def _hands(children: Children) -> list[tuple[int, int]]:
    """(INIT index, index of the hand's last element) for each hand."""
    starts = [i for i, el in enumerate(children) if el.tag == "INIT"]
    ends = [i for i, el in enumerate(children) if el.tag in ("AGARI", "RYUUKYOKU")]
    out = []
    for s in starts:
        out.append((s, max(e for e in ends if e > s and all(not s < x <= e for x in starts))))
    return out


def _only(found: list[Finding]) -> Finding:
    assert len(found) == 1, [f.message for f in found]
    assert found[0].code == "wall-mismatch"
    assert found[0].severity is Severity.ERROR
    return found[0]


# -- the corpus ------------------------------------------------------------------


@pytest.mark.corpus
def test_every_seeded_round_of_the_corpus_matches_its_wall() -> None:
    if not TENHOU_XML.exists():
        pytest.skip(f"corpus not available: {TENHOU_XML} (CI has ../shared beside the repo)")
    checked: Counter[str] = Counter()
    inits = 0
    errors: list[str] = []
    seconds = 0.0
    files = sorted(TENHOU_XML.glob("*.xml"))
    for path in files:
        log = _load(path.read_bytes(), str(path))
        game = replay(log, resolve_rules(log, "auto"))
        fmt = game_seed_format(log)
        started = time.perf_counter()
        found, rounds = check_wall(log, game)
        seconds += time.perf_counter() - started
        errors += [f"{path.name}: {f.message}" for f in found]
        if fmt is not None:
            checked[fmt.value] += rounds
            inits += sum(1 for ev in log.events if isinstance(ev, RoundStart))
    print(f"wall check: {dict(checked)}; {1000 * seconds / len(files):.2f} ms a game")
    assert errors == []
    assert sum(checked.values()) == inits > 3000
    assert set(checked) == {fmt.value for fmt in SeedFormat}


def test_the_old_sanma_hand_matches_with_the_dice_after_the_shuffle() -> None:
    found, rounds = wall_check(corpus_file(OLD_SANMA).read_bytes())
    assert (found, rounds) == ([], 1)


@pytest.mark.parametrize("name", [BASE64_4P, BASE64_3P, PER_INIT_4P, HEX_4P])
def test_untouched_logs_pass(name: str) -> None:
    found, rounds = wall_check(corpus_file(name).read_bytes(), name)
    assert found == []
    assert rounds > 0


# -- tampered logs ---------------------------------------------------------------


def test_two_draws_swapped() -> None:
    def edit(children: Children) -> None:
        a, b = [el for el in children if _is_draw(el)][4:6]
        ta, tb = str(a.tag), str(b.tag)
        a.tag, b.tag = ta[0] + tb[1:], tb[0] + ta[1:]

    finding = _only(tampered(BASE64_4P, edit)[0])
    # North called before the fifth draw (log 7m #25, the wall's next tile is 3p #46).
    assert finding.message == "E1-0: draw 5 by North: log 7m #25, wall 3p #46 (yama[79])"
    assert (finding.seat, finding.round, finding.expected, finding.actual) == (3, "E1-0", 46, 25)


def test_the_init_dora_indicator_changed() -> None:
    def edit(children: Children) -> None:
        init = [el for el in children if el.tag == "INIT"][2]
        seed = init.get("seed", "").split(",")
        seed[5] = str((int(seed[5]) + 1) % 136)
        init.set("seed", ",".join(seed))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "dora indicator: log " in finding.message
    assert "(yama[5])" in finding.message


def test_a_whole_hand_deleted_fails_every_later_hand() -> None:
    removed: list[int] = []

    def edit(children: Children) -> None:
        start, end = _hands(children)[1]
        removed.append(len(_hands(children)))
        del children[start : end + 1]

    found, rounds = tampered(BASE64_4P, edit)
    assert rounds == removed[0] - 1
    assert len(found) == rounds - 1  # every hand after the first
    assert all(f.code == "wall-mismatch" for f in found)


def test_a_hand_deleted_from_a_per_init_log_leaves_the_others_intact() -> None:
    # 2008-09 logs reseed every hand (wall §4.5), so only the hand itself is gone.
    def edit(children: Children) -> None:
        start, end = _hands(children)[1]
        del children[start : end + 1]

    assert tampered(PER_INIT_4P, edit)[0] == []


@pytest.mark.parametrize("name", [BASE64_4P, HEX_4P, PER_INIT_4P])
def test_one_die_changed(name: str) -> None:
    def edit(children: Children) -> None:
        init = next(el for el in children if el.tag == "INIT")
        seed = init.get("seed", "").split(",")
        seed[4] = str((int(seed[4]) + 1) % 6)
        init.set("seed", ",".join(seed))

    finding = _only(tampered(name, edit)[0])
    assert finding.message.startswith("E1-0: dice: log ")


def test_an_ura_indicator_changed() -> None:
    def edit(children: Children) -> None:
        agari = next(el for el in children if el.get("doraHaiUra"))
        ura = agari.get("doraHaiUra", "").split(",")
        ura[0] = str((int(ura[0]) + 4) % 136)
        agari.set("doraHaiUra", ",".join(ura))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "doraHaiUra" in finding.message


def test_a_dora_hai_changed() -> None:
    def edit(children: Children) -> None:
        agari = next(el for el in children if el.tag == "AGARI")
        dora = agari.get("doraHai", "").split(",")
        dora[0] = str((int(dora[0]) + 4) % 136)
        agari.set("doraHai", ",".join(dora))

    assert "doraHai " in _only(tampered(BASE64_4P, edit)[0]).message


def test_a_starting_hand_changed() -> None:
    def edit(children: Children) -> None:
        init = next(el for el in children if el.tag == "INIT")
        hai = init.get("hai2", "").split(",")
        hai[0], hai[5] = hai[5], hai[0]
        init.set("hai2", ",".join(hai))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "starting hand of West (seat 2), tile 1" in finding.message


def test_a_kan_dora_indicator_changed() -> None:
    def edit(children: Children) -> None:
        dora = next(el for el in children if el.tag == "DORA")
        dora.set("hai", str((int(dora.get("hai", "0")) + 4) % 136))

    assert "kan dora indicator 1: log " in _only(tampered(BASE64_3P, edit)[0]).message


def test_a_rinshan_draw_changed_after_a_kita() -> None:
    def edit(children: Children) -> None:
        k = next(i for i, el in enumerate(children) if el.tag == "N")
        draw = next(el for el in children[k:] if _is_draw(el))
        tag = str(draw.tag)
        draw.tag = tag[0] + str((int(tag[1:]) + 4) % 136)

    assert "rinshan draw 1 by" in _only(tampered(BASE64_3P, edit)[0]).message


def test_an_exhaustive_draw_one_draw_short() -> None:
    def edit(children: Children) -> None:
        end = next(i for i, el in enumerate(children) if el.tag == "RYUUKYOKU")
        last = max(i for i in range(end) if _is_draw(children[i]))
        del children[last : last + 2]  # the draw and its discard

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "exhaustive draw after 69 live draws, the wall holds 70" in finding.message


# -- logs that are not checked -------------------------------------------------------


@pytest.mark.parametrize("seed", ["", "0.7652313"], ids=["empty-mjx", "float-bot-battle"])
def test_simulator_seeds_are_not_checked(seed: str) -> None:
    def edit(children: Children) -> None:
        children[0].set("seed", seed)

    assert tampered(BASE64_4P, edit) == ([], 0)


def test_a_per_init_log_without_shuffles_is_not_checked() -> None:
    def edit(children: Children) -> None:
        for el in children:
            if el.tag == "INIT":
                del el.attrib["shuffle"]

    assert tampered(PER_INIT_4P, edit) == ([], 0)


def test_a_mangled_seed_is_one_finding() -> None:
    def edit(children: Children) -> None:
        children[0].set("seed", children[0].get("seed", "")[:-4])

    found, rounds = tampered(BASE64_4P, edit)
    assert rounds == 0
    assert "cannot be read" in _only(found).message


# -- the wall as data ----------------------------------------------------------------


def test_round_walls_give_ura_for_every_hand_and_the_next_tile() -> None:
    log = _load(corpus_file(BASE64_4P).read_bytes(), BASE64_4P)
    walls: list[RoundWall] = round_walls(log, replay(log, resolve_rules(log, "auto")))
    assert len(walls) == 6
    for rw in walls:
        assert rw.mismatch is None
        assert len(rw.ura_indicators) == rw.revealed >= 1
        assert rw.ura_indicators[0] == rw.wall.yama[4]
    drawn = next(rw for rw in walls if rw.live_left == 0)
    assert drawn.next_live is None
    other = next(rw for rw in walls if rw.live_left > 0)
    assert other.next_live == other.wall.live_tile(other.live_drawn)


# -- the fast path agrees with the walk -----------------------------------------------

# 4-player base64 with an exhaustive draw; sanma with kitas, kan doras and exhaustive
# draws after rinshan draws; 4-player base64 with 7 kans and 4 such exhaustive draws;
# the hex format with 2 kans; a per-INIT log with kans and 5 exhaustive draws.
FAST_PATH_GAMES = (
    BASE64_4P,
    BASE64_3P,
    "2021041720gm-00a9-0000-f3b19e15.xml",
    "2009082713gm-00e1-0000-8820f355.xml",
    "dnovikoff-tenhou_bug6.xml",
)
TAMPERINGS = 400
E = TypeVar("E", DrawTile, Discard, DeclareMeld, DoraReveal, Win)


@dataclass
class _Hand:
    """One hand of a corpus game being tampered with, in a copy of the log's events.

    ``clean`` is the untouched hand's trace. Edits replace events in place, so the
    hand keeps its indices (``first_event``..``last_event``).
    """

    rng: random.Random
    rnd: RoundReplay
    clean: RoundWall
    events: list[Event]
    start: RoundStart

    @property
    def wall(self) -> Wall:
        return self.clean.wall

    @property
    def span(self) -> range:
        return range(self.rnd.first_event + 1, self.rnd.last_event + 1)

    def every(self, kind: type[E]) -> list[tuple[int, E]]:
        """The hand's events of exactly ``kind`` (no derived class), with their index."""
        return [(i, ev) for i in self.span if type(ev := self.events[i]) is kind]

    def pick(self, kind: type[E]) -> tuple[int, E] | None:
        found = self.every(kind)
        return self.rng.choice(found) if found else None

    def near(self) -> list[int]:
        """Ids a forged tile plausibly has: the dead wall and the head of the live wall."""
        wall = self.wall
        live = [wall.live_tile(n) for n in range(min(80, wall.live_count()))]
        return [*wall.dead_wall, *live, self.rng.randrange(136)]


def _draw_changed(h: _Hand) -> bool:
    got = h.pick(DrawTile)
    if got is None:
        return False
    i, ev = got
    h.events[i] = replace(ev, tile_id=h.rng.choice([*h.near(), None]))
    return True


def _events_swapped(h: _Hand) -> bool:
    """Two events up to 3 apart swap places: draws reorder, a rinshan draw moves."""
    first, last = h.span[0], h.span[-1]
    if last - first < 2:
        return False
    a = h.rng.randrange(first, last)
    b = min(last, a + h.rng.randrange(1, 4))
    h.events[a], h.events[b] = h.events[b], h.events[a]
    return True


def _kan_dora_changed(h: _Hand) -> bool:
    """A DORA tag's tile changes, or a run of right ones (up to a fifth) appears."""
    wall = h.wall
    got = h.pick(DoraReveal)
    if got is not None and h.rng.random() < 0.6:
        i, dora = got
        ids = [wall.dora_indicator(k) for k in range(5)] + [wall.ura_indicator(1), None]
        h.events[i] = replace(dora, tile_id=h.rng.choice([*ids, h.rng.randrange(136)]))
        return True
    # Discards before the hand's first DORA tag become the kan doras 1..k in order.
    end = got[0] if got is not None else h.span[-1]
    discards = [(i, ev) for i, ev in h.every(Discard) if i < end]
    k = h.rng.choice((1, 2, 4, 5))  # 5: one more than a hand can turn
    if len(discards) < k:
        return False
    at = h.rng.randrange(len(discards) - k + 1)
    for n, (i, ev) in enumerate(discards[at : at + k], start=1):
        h.events[i] = DoraReveal(ev.pos, ev.tile, wall.dora_indicator(n))
    return True


def _rinshan_draw_changed(h: _Hand) -> bool:
    """A draw, often the one after a kan or kita, takes a rinshan tile or a live one."""
    meld = h.pick(DeclareMeld)
    draws = [
        (i, ev)
        for i, ev in h.every(DrawTile)
        if meld is None or (i > meld[0] and ev.seat == meld[1].seat)
    ]
    if not draws:
        return False
    i, draw = draws[0] if meld is not None and h.rng.random() < 0.7 else h.rng.choice(draws)
    wall = h.wall
    ids = [wall.rinshan_tile(r) for r in range(wall.max_rinshan)]
    h.events[i] = replace(draw, tile_id=h.rng.choice([*ids, *h.near()[-20:]]))
    return True


def _meld_kind_changed(h: _Hand) -> bool:
    """A call becomes a kan (or a kan a pon): the rinshan draw is expected elsewhere."""
    got = h.pick(DeclareMeld)
    if got is None:
        return False
    i, ev = got
    h.events[i] = replace(ev, meld=replace(ev.meld, kind=h.rng.choice(list(MeldKind))))
    return True


def _kans_declared(h: _Hand) -> bool:
    """Before the hand's first call, k kans by one seat, each with its rinshan draw.

    Up to the wall's last rinshan tile the draws match; one kan more runs out of them.
    """
    melds = h.every(DeclareMeld)
    end = melds[0][0] if melds else h.span[-1]
    k = h.rng.randint(1, h.wall.max_rinshan + 1)
    if end - h.span[0] < 2 * k:
        return False
    at = h.rng.randrange(h.span[0], end - 2 * k + 1)
    seat = h.rng.randrange(h.wall.players)
    kan = Meld(MeldKind.ANKAN, (Tile(33),) * 4, tile_ids=(132, 133, 134, 135))
    for r in range(k):
        i = at + 2 * r
        h.events[i] = DeclareMeld(h.events[i].pos, seat, kan)
        tile_id = h.wall.rinshan_tile(min(r, h.wall.max_rinshan - 1))
        h.events[i + 1] = DrawTile(h.events[i + 1].pos, seat, Tile(tile_id // 4), tile_id)
    return True


def _win_indicators_changed(h: _Hand) -> bool:
    got = h.pick(Win)
    if got is None:
        return False
    i, win = got
    claims = win.claims
    wall, n = h.wall, h.rng.randrange(0, 4)
    if h.rng.random() < 0.5:
        dora = h.rng.choice([None, (), wall.dora_indicators(n), (h.rng.randrange(136),)])
        claims = replace(claims, dora_indicator_ids=dora)
    else:
        ura = h.rng.choice([None, (), wall.ura_indicators(n), claims.dora_indicator_ids])
        claims = replace(claims, ura_indicator_ids=ura)
    h.events[i] = replace(win, claims=claims)
    return True


def _dice_changed(h: _Hand) -> bool:
    dice = (h.rng.randint(1, 6), h.rng.randint(1, 6))
    h.start = replace(h.start, dice=h.rng.choice([dice, dice, None]))
    return True


def _init_dora_changed(h: _Hand) -> bool:
    wall = h.wall
    ids = [wall.dora_indicator(0), wall.dora_indicator(1), wall.ura_indicator(0), None]
    h.start = replace(h.start, dora_indicator_id=h.rng.choice([*ids, h.rng.randrange(136)]))
    return True


def _starting_hand_changed(h: _Hand) -> bool:
    if h.start.hand_ids is None:
        return False
    hands = [list(ids) for ids in h.start.hand_ids]
    seats = [seat for seat, ids in enumerate(hands[: h.wall.players]) if len(ids) > 1]
    if not seats:
        return False
    seat = h.rng.choice(seats)  # (a sanma INIT has an empty hai3)
    if h.rng.random() < 0.5:  # two tiles of a hand in the wrong order
        a, b = h.rng.sample(range(len(hands[seat])), 2)
        hands[seat][a], hands[seat][b] = hands[seat][b], hands[seat][a]
    else:
        hands[seat][h.rng.randrange(len(hands[seat]))] = h.rng.choice(h.near())
    h.start = replace(h.start, hand_ids=tuple(tuple(ids) for ids in hands))
    return True


def _live_count_changed(h: _Hand) -> bool:
    """A live draw goes unread, or the hand ends (or not) in an exhaustive draw."""
    end = h.span[-1]
    choice = h.rng.randrange(3)
    if choice == 0:
        draws = h.every(DrawTile)
        if not draws:
            return False
        i, draw = draws[-1] if h.rng.random() < 0.5 else h.rng.choice(draws)
        h.events[i] = replace(draw, tile_id=None)
    elif choice == 1:
        h.events[end] = RoundDraw(h.events[end].pos, h.rng.choice(list(DrawReason)))
    else:
        got = h.pick(Discard)
        if got is None:
            return False
        h.events[got[0]] = RoundDraw(got[1].pos, DrawReason.EXHAUSTIVE)
    return True


def _one_draw_more(h: _Hand) -> bool:
    """The hand's last event becomes one more live draw: past the end of an exhausted wall."""
    wall, end = h.wall, h.span[-1]
    n = h.clean.live_drawn + h.rng.choice((0, 0, 0, 1))  # the next live tile, or the one after
    tile_id = wall.yama[wall.first_live - n]
    seat = h.rng.randrange(wall.players)
    h.events[end] = DrawTile(h.events[end].pos, seat, Tile(tile_id // 4), tile_id)
    return True


TAMPER: dict[str, Callable[[_Hand], bool]] = {
    "draw": _draw_changed,
    "swap": _events_swapped,
    "kan-dora": _kan_dora_changed,
    "rinshan": _rinshan_draw_changed,
    "meld-kind": _meld_kind_changed,
    "kans": _kans_declared,
    "win-indicators": _win_indicators_changed,
    "dice": _dice_changed,
    "init-dora": _init_dora_changed,
    "starting-hand": _starting_hand_changed,
    "live-count": _live_count_changed,
    "draw-more": _one_draw_more,
}


def test_the_fast_path_hides_no_finding_of_a_tampered_hand() -> None:
    """``_verify`` passes a hand only when the walk finds nothing, with the same counts.

    Seeded tamperings of single hands (one or two edits each), each log replayed again
    as the audit would: where ``_find_mismatch`` reports a divergence ``_verify`` must
    return None, and where it reports none ``_verify`` must return the very same
    RoundWall, or None for a hand it leaves to the walk (one the replay could not
    finish).
    """
    games: list[tuple[GameLog, list[tuple[RoundReplay, RoundWall]]]] = []
    for name in FAST_PATH_GAMES:
        log = _load(corpus_file(name).read_bytes(), name)
        game = replay(log, resolve_rules(log, "auto"))
        hands = list(zip(game.rounds, round_walls(log, game), strict=True))
        assert hands, name
        for rnd, clean in hands:  # untouched, both pass the hand alike
            assert clean.mismatch is None
            assert _verify(rnd, clean.wall, log.events) == clean
            assert _find_mismatch(rnd, clean.wall, log, aka=True) == clean
        games.append((log, hands))

    rng = random.Random(20240611)
    mismatched = declined = 0
    caught: Counter[str] = Counter()  # edits of each kind in a hand that mismatched
    for case in range(TAMPERINGS):
        log, hands = rng.choice(games)
        # A quarter of the time a hand that ran its live wall out: only there can a
        # draw go past the live wall's end (which rinshan draws bring forward).
        exhausted = [h for h in hands if h[1].live_left == 0] if rng.random() < 0.25 else []
        rnd, clean = rng.choice(exhausted or hands)
        hand = _Hand(rng, rnd, clean, list(log.events), rnd.start)
        kinds: list[str] = []
        edits = rng.choice((1, 1, 2))
        while len(kinds) < edits:
            kind = rng.choice(list(TAMPER))
            if TAMPER[kind](hand):
                kinds.append(kind)
        assert len(hand.events) == len(log.events)
        hand.events[rnd.first_event] = hand.start
        tampered_log = replace(log, events=tuple(hand.events))
        # _verify reads the draws the replay recorded, so the tampered log is replayed.
        tampered_game = replay(tampered_log, resolve_rules(tampered_log, "auto"))
        tampered_rnd = tampered_game.rounds[rnd.index]
        assert tampered_rnd.start == hand.start
        verified = _verify(tampered_rnd, clean.wall, tampered_log.events)
        walked = _find_mismatch(tampered_rnd, clean.wall, tampered_log, rng.random() < 0.5)
        where = f"case {case}: {'+'.join(kinds)} in {tampered_log.path} {rnd.label}"
        if walked.mismatch is None:
            # A hand the replay could not finish is left to the walk, with the same
            # answer in the end (_trace); a hand it passes must be the walk's.
            assert verified is None or verified == walked, where
            declined += verified is None
        else:
            assert verified is None, f"{where}: the fast path hid {walked.mismatch.message!r}"
            assert walked.mismatch.code == "wall-mismatch"
            mismatched += 1
            caught.update(kinds)

    print(
        f"fast path: {mismatched} of {TAMPERINGS} tamperings mismatched, "
        f"{TAMPERINGS - mismatched} clean ({declined} of them left to the walk)"
    )
    # Both answers are exercised, and every kind of edit is in some mismatched hand.
    assert mismatched >= TAMPERINGS // 2
    assert TAMPERINGS - mismatched >= TAMPERINGS // 20
    assert set(caught) == set(TAMPER)
