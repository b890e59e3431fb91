"""Wall integrity: every tile that enters play against the wall rebuilt from the seed.

(Mahjong Soul records carry their walls: :mod:`analyzer.checks.audit_wall_ms`.)

For each hand of a Tenhou XML log that carries a seed, the wall is rebuilt
(:mod:`analyzer.engine.wall`, ../shared/reference/tenhou-wall.md, cited as "wall §n") and
the log is walked tag by tag: the dice, the INIT dora indicator, the starting hands,
every live draw, every rinshan draw (after a kan or a kita), every DORA tag, every
``doraHai`` and ``doraHaiUra``, and the number of live draws at an exhaustive draw.
The first divergence in a hand is one ``wall-mismatch`` finding; the next hand is
checked afresh (in the SHA formats a deleted hand makes every later hand fail,
wall §4.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.checks.audit_common import error
from analyzer.checks.audit_wall_ms import check_ms_walls
from analyzer.engine.state import GameReplay, RoundReplay
from analyzer.engine.wall import SeedFormat, Wall, WallSeedError, seed_format, walls_for_game
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Finding, JsonValue, Severity
from mjaudit.frozen import quick_init
from mjaudit.melds import MeldKind
from mjaudit.tiles import Tile

__all__ = ["RoundWall", "check_wall", "game_seed_format", "round_walls"]

WINDS = ("East", "South", "West", "North")
# wall §1.7: a kan of any kind or a sanma North extraction makes that seat's next
# draw a rinshan draw (never "a DORA tag, then a draw": wall §4.8).
_RINSHAN_CALLS = frozenset({MeldKind.ANKAN, MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.KITA})
_EXHAUSTIVE = frozenset({DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN})
# The same as a tuple: a plain Enum hashes in Python, and identity is all it takes.
_RINSHAN_KINDS = tuple(_RINSHAN_CALLS)
# The event classes the wall check reads (Discard is passed over), and the others.
_WALL_KINDS = (DrawTile, Discard, DeclareMeld, DoraReveal, Win, RoundDraw)
_OTHER_KINDS = frozenset({GameStart, RoundStart, RiichiDeclared, RiichiAccepted, GameEnd, Presence})


@quick_init
@dataclass(frozen=True, slots=True)
class RoundWall:
    """One hand's rebuilt wall and how far the log used it.

    ``live_drawn``, ``rinshan_drawn`` and ``revealed`` (indicators turned, the INIT
    one included) count what the log did up to its end or up to ``mismatch``.
    """

    round_index: int
    label: str
    wall: Wall
    live_drawn: int
    rinshan_drawn: int
    revealed: int
    mismatch: Finding | None = None

    @property
    def dora_indicators(self) -> tuple[int, ...]:
        return self.wall.dora_indicators(self.revealed)

    @property
    def ura_indicators(self) -> tuple[int, ...]:
        """The ura under every turned indicator, for any winner (wall §1.7)."""
        return self.wall.ura_indicators(self.revealed)

    @property
    def live_left(self) -> int:
        return self.wall.live_count(self.rinshan_drawn) - self.live_drawn

    @property
    def next_live(self) -> int | None:
        """The tile the next live draw would have taken, None if the wall ran out."""
        return self.wall.live_tile(self.live_drawn) if self.live_left > 0 else None


def game_seed_format(log: GameLog) -> SeedFormat | None:
    """The seed format of a Tenhou XML log, None when it cannot be checked (§1.1)."""
    if log.format != "tenhou-xml":
        return None
    fmt = seed_format(log.start.seed)
    if fmt is not None and fmt.hashed:
        return fmt
    if any(
        isinstance(ev, RoundStart) and seed_format(ev.shuffle) is SeedFormat.PER_INIT
        for ev in log.events
    ):
        return SeedFormat.PER_INIT
    return None


def check_wall(log: GameLog, game: GameReplay) -> tuple[list[Finding], int]:
    """Wall findings of a game and the number of hands checked against a wall.

    A Mahjong Soul record commits to each hand's wall itself
    (:mod:`analyzer.checks.audit_wall_ms`); a Tenhou XML log's walls are rebuilt from its seed.
    """
    if log.format == "mahjongsoul":
        return check_ms_walls(log, game)
    try:
        walls = round_walls(log, game)
    except WallSeedError as exc:
        finding = Finding(
            "wall-mismatch",
            Severity.ERROR,
            f"the log's wall seed cannot be read: {exc}",
            log.path,
            None,
            game.rounds[0].first_event if game.rounds else 0,
        )
        return [finding], 0
    return [w.mismatch for w in walls if w.mismatch is not None], len(walls)


def round_walls(log: GameLog, game: GameReplay) -> list[RoundWall]:
    """Every hand's rebuilt wall, traced through the log; [] for a log without a seed."""
    if game_seed_format(log) is None:
        return []
    starts = [rnd.start for rnd in game.rounds]
    walls = walls_for_game(
        log.start.seed,
        [s.shuffle for s in starts],
        game.players,
        [s.dealer for s in starts],
    )
    aka = log.start.rules_hint.aka is not False
    return [_trace(rnd, wall, log, aka) for rnd, wall in zip(game.rounds, walls, strict=True)]


def _tile(tile_id: int, aka: bool) -> str:
    return f"{Tile(tile_id // 4, aka and tile_id in (16, 52, 88))} #{tile_id}"


def _ids(ids: Sequence[int], aka: bool) -> str:
    return " ".join(_tile(i, aka) for i in ids) or "none"


def _trace(rnd: RoundReplay, wall: Wall, log: GameLog, aka: bool) -> RoundWall:
    """The hand traced through its wall; the first divergence becomes its finding.

    Nearly every hand matches its wall, so :func:`_verify` first checks the hand in
    bulk; only a hand it does not pass (or cannot judge) is walked event by event
    by :func:`_find_mismatch`, which words the finding.
    """
    verified = _verify(rnd, wall, log.events)
    if verified is not None:
        return verified
    return _find_mismatch(rnd, wall, log, aka)


def _verify(rnd: RoundReplay, wall: Wall, events: Sequence[Event]) -> RoundWall | None:
    """The hand's RoundWall if it matches its wall at every point, else None.

    The same checks as :func:`_find_mismatch`, without the words, and without reading
    every event again: the draws come from what the replay recorded (the ids drawn,
    in order, and which of them were replacement draws), compared with the wall in
    bulk, and only the few events that are neither draws nor discards are read. None
    means "not verified": a divergence, a hand the replay could not finish or whose
    draws were not all given by id, or an event of a class derived from one the check
    reads. Each is left to the walk.
    """
    start = rnd.start
    players = wall.players
    if start.dice is not None and (start.dice[0] - 1, start.dice[1] - 1) != wall.dice:
        return None
    if start.dora_indicator_id is not None and start.dora_indicator_id != wall.dora_indicator(0):
        return None
    for ids, dealt in zip((start.hand_ids or ())[:players], wall.hands, strict=False):
        if ids != dealt:
            return None
    first, last = rnd.first_event, rnd.last_event
    if last >= len(events) or first < -1:
        return None  # the walk reads these events by index; let it (and fail as it did)
    if not rnd.complete or not rnd.all_drawn_ids:
        return None
    drawn = rnd.drawn_ids
    replaced = rnd.replacement_draws
    # wall §1.7: the r-th replacement draw takes the r-th rinshan tile.
    rinshan = len(replaced)
    if rinshan > wall.max_rinshan:
        return None
    for r, at in enumerate(replaced):
        if at >= len(drawn) or drawn[at] != wall.rinshan_tile(r):
            return None
    if replaced:
        taken = set(replaced)
        live_ids = tuple(t for k, t in enumerate(drawn) if k not in taken)
        last_live = max((k for k in range(len(drawn)) if k not in taken), default=-1)
        before = sum(1 for at in replaced if at < last_live)
    else:
        live_ids = tuple(drawn)
        before = 0
    # wall §1.6: live draw n takes yama[first_live - n], and after r rinshan draws
    # the last live tile is yama[14 + r]: live draw n, made after r of them, needs
    # n < live_count(0) - r. Both grow as the hand goes on, so the last one decides.
    live = len(live_ids)
    if live and live - 1 + before >= wall.live_count(0):
        return None
    if live_ids != wall.yama[wall.first_live :: -1][:live]:
        return None
    revealed = 1
    for index in rnd.other_events:
        ev = events[index]
        # type() is X (not isinstance): a derived class falls to the last branch.
        if type(ev) is DeclareMeld:
            continue  # its replacement draw is among those the replay recorded
        if type(ev) is DoraReveal:
            tile_id = ev.tile_id
            if tile_id is None:
                continue
            if revealed > 4 or tile_id != wall.dora_indicator(revealed):
                return None
            revealed += 1
        elif type(ev) is Win:
            claims = ev.claims
            if (
                claims.dora_indicator_ids is not None
                and claims.dora_indicator_ids != wall.dora_indicators(revealed)
            ) or (
                claims.ura_indicator_ids is not None
                and claims.ura_indicator_ids != wall.ura_indicators(revealed)
            ):
                return None
        elif type(ev) is RoundDraw:
            if ev.reason in _EXHAUSTIVE and live != wall.live_count(rinshan):
                return None
        elif type(ev) not in _OTHER_KINDS and isinstance(ev, _WALL_KINDS):
            return None
    return RoundWall(rnd.index, rnd.label, wall, live, rinshan, revealed)


def _find_mismatch(rnd: RoundReplay, wall: Wall, log: GameLog, aka: bool) -> RoundWall:
    """The event-by-event walk: the first divergence, worded, as the hand's finding."""
    start = rnd.start
    path = log.path
    players = wall.players
    live = rinshan = 0
    revealed = 1
    pending = [False] * 4

    def done(
        message: str, event: int, seat: int | None, expected: JsonValue, actual: JsonValue
    ) -> RoundWall:
        finding = error(rnd, path, "wall-mismatch", message, event, seat, expected, actual)
        return RoundWall(rnd.index, rnd.label, wall, live, rinshan, revealed, finding)

    def wind(seat: int) -> str:
        return WINDS[(seat - start.dealer) % players]

    first = rnd.first_event
    # wall §1.5: INIT seed[3..4] are the 0-based dice; RoundStart carries them + 1.
    if start.dice is not None:
        dice = (start.dice[0] - 1, start.dice[1] - 1)
        if dice != wall.dice:
            return done(
                f"dice: log {dice[0] + 1},{dice[1] + 1}, "
                f"wall {wall.dice[0] + 1},{wall.dice[1] + 1}",
                first,
                None,
                wall.dice,
                dice,
            )
    if start.dora_indicator_id is not None and start.dora_indicator_id != wall.dora_indicator(0):
        expected = wall.dora_indicator(0)
        return done(
            f"dora indicator: log {_tile(start.dora_indicator_id, aka)}, "
            f"wall {_tile(expected, aka)} (yama[{wall.dora_position(0)}])",
            first,
            None,
            expected,
            start.dora_indicator_id,
        )
    for seat, ids in enumerate((start.hand_ids or ())[:players]):
        dealt = wall.hand(seat)
        if ids != dealt:
            n = next((i for i, (a, b) in enumerate(zip(ids, dealt, strict=False)) if a != b), 0)
            got = _tile(ids[n], aka) if n < len(ids) else "nothing"
            return done(
                f"starting hand of {wind(seat)} (seat {seat}), tile {n + 1}: "
                f"log {got}, wall {_tile(dealt[n], aka)}",
                first,
                seat,
                dealt,
                ids,
            )
    events = log.events
    yama = wall.yama
    first_live = wall.first_live
    for index in range(first + 1, rnd.last_event + 1):
        ev = events[index]
        # Draws first: this loop sees every event of the corpus, and only five kinds
        # matter to the wall.
        if isinstance(ev, DrawTile):
            seat = ev.seat
            if ev.tile_id is None:
                continue
            if pending[seat]:
                pending[seat] = False
                if rinshan >= wall.max_rinshan:
                    return done(
                        f"rinshan draw {rinshan + 1} by {wind(seat)}: "
                        f"log {_tile(ev.tile_id, aka)}, the wall has "
                        f"{wall.max_rinshan} rinshan tiles",
                        index,
                        seat,
                        None,
                        ev.tile_id,
                    )
                expected = wall.rinshan_tile(rinshan)
                if ev.tile_id != expected:
                    return done(
                        f"rinshan draw {rinshan + 1} by {wind(seat)}: "
                        f"log {_tile(ev.tile_id, aka)}, wall {_tile(expected, aka)} "
                        f"(yama[{wall.rinshan_position(rinshan)}])",
                        index,
                        seat,
                        expected,
                        ev.tile_id,
                    )
                rinshan += 1
                continue
            # wall §1.6: after r rinshan draws the last live tile is yama[14 + r].
            position = first_live - live
            if position < 14 + rinshan:
                return done(
                    f"draw {live + 1} by {wind(seat)}: log {_tile(ev.tile_id, aka)}, "
                    f"but the live wall ends after {wall.live_count(rinshan)} draws",
                    index,
                    seat,
                    None,
                    ev.tile_id,
                )
            expected = yama[position]
            if ev.tile_id != expected:
                return done(
                    f"draw {live + 1} by {wind(seat)}: log {_tile(ev.tile_id, aka)}, "
                    f"wall {_tile(expected, aka)} (yama[{position}])",
                    index,
                    seat,
                    expected,
                    ev.tile_id,
                )
            live += 1
        elif isinstance(ev, Discard):
            continue
        elif isinstance(ev, DeclareMeld):
            if ev.meld.kind in _RINSHAN_CALLS:
                pending[ev.seat] = True
        elif isinstance(ev, DoraReveal):
            if ev.tile_id is None:
                continue
            if revealed > 4:
                return done(
                    f"kan dora indicator {revealed}: log {_tile(ev.tile_id, aka)}, "
                    "but a hand has at most 4 kan doras",
                    index,
                    None,
                    None,
                    ev.tile_id,
                )
            expected = wall.dora_indicator(revealed)
            if ev.tile_id != expected:
                return done(
                    f"kan dora indicator {revealed}: log {_tile(ev.tile_id, aka)}, "
                    f"wall {_tile(expected, aka)} (yama[{wall.dora_position(revealed)}])",
                    index,
                    None,
                    expected,
                    ev.tile_id,
                )
            revealed += 1
        elif isinstance(ev, Win):
            # wall §1.7: doraHai lists the indicators turned so far, doraHaiUra the
            # ura under each of them.
            claims = ev.claims
            want = wall.dora_indicators(revealed)
            if claims.dora_indicator_ids is not None and claims.dora_indicator_ids != want:
                return done(
                    f"win by {wind(ev.seat)}: doraHai {_ids(claims.dora_indicator_ids, aka)}, "
                    f"wall {_ids(want, aka)}",
                    index,
                    ev.seat,
                    list(want),
                    list(claims.dora_indicator_ids),
                )
            ura = wall.ura_indicators(revealed)
            if claims.ura_indicator_ids is not None and claims.ura_indicator_ids != ura:
                return done(
                    f"win by {wind(ev.seat)}: doraHaiUra "
                    f"{_ids(claims.ura_indicator_ids, aka)}, wall {_ids(ura, aka)}",
                    index,
                    ev.seat,
                    list(ura),
                    list(claims.ura_indicator_ids),
                )
        elif (
            isinstance(ev, RoundDraw)
            and ev.reason in _EXHAUSTIVE
            and live != wall.live_count(rinshan)
        ):
            return done(
                f"exhaustive draw after {live} live draws, the wall holds "
                f"{wall.live_count(rinshan)} ({rinshan} rinshan draws)",
                index,
                None,
                wall.live_count(rinshan),
                live,
            )
    return RoundWall(rnd.index, rnd.label, wall, live, rinshan, revealed)
