"""The live state of one hand while the replay applies its events.

It keeps every player's concealed hand, melds and pond, riichi and ippatsu state,
the first go-around, the live-wall count and (through :class:`KanDoraClock`) the
kan dora, and checks each event against them. Problems that make the hand
impossible raise :class:`ReplayError`; rule breaches that leave the hand playable
(a forbidden call, an illegal riichi, a wrong indicator) become findings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import assert_never

from analyzer.engine.kan_dora import KanDoraClock
from analyzer.engine.state import DrawRecord, PondTile, RoundReplay, WinRecord
from analyzer.hands.hand import waits
from mjaudit.errors import ReplayError, SourcePos
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Finding, Severity
from mjaudit.hands import WinContext
from mjaudit.melds import Meld, MeldKind, shape_problem
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["RIICHI_LOCKED", "RoundState", "counts34"]

# How the findings of a riichi hand the log changes end (a discard from the hand, a
# call, an okuri-kan): what the log shows of the hand later follows from them.
RIICHI_LOCKED = "a riichi hand may not change"


class RoundState:
    """The live state of one hand while its events are applied."""

    __slots__ = (
        "abort_at",
        "abort_due",
        "abort_grace",
        "abort_left",
        "called_discards",
        "calls_made",
        "clock",
        "declared_discard",
        "declaring",
        "declaring_finding",
        "discard_indexes",
        "discarded_once",
        "double_riichi",
        "draw_source",
        "drawn_ids",
        "ended",
        "event_index",
        "findings",
        "first_discards",
        "hands",
        "ids",
        "ippatsu",
        "ippatsu_before_kakan",
        "kans_by_seat",
        "kind_counts",
        "kita",
        "last_discard",
        "last_draw",
        "last_kakan",
        "last_kans",
        "live_remaining",
        "melds",
        "next_drawer",
        "nsets",
        "players",
        "pond_events",
        "record",
        "replacement_cause",
        "replacement_due",
        "riichi",
        "riichi_discards",
        "rules",
        "scores",
        "seen",
        "start",
        "sticks",
        "swap_ban",
        "turn_seat",
        "ura_always_recorded",
    )

    def __init__(self, start: RoundStart, rules: Ruleset, players: int, index: int) -> None:
        self.start = start
        self.rules = rules
        self.players = players
        self.record = RoundReplay(index=0, start=start, first_event=index)
        self.hands: list[list[Tile]] = [list(h) for h in start.hands]
        self.ids: list[list[int]] | None = (
            [list(h) for h in start.hand_ids] if start.hand_ids is not None else None
        )
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.nsets = [0] * 4  # melds that stand for a set (all but kita)
        # Each seat's pond, kept as its discard events and their event indexes (read as
        # PondTile values through pond()): a discard costs two appends and no new object.
        self.pond_events: list[list[Discard]] = [[] for _ in range(4)]
        self.discard_indexes: list[list[int]] = [[] for _ in range(4)]
        self.riichi_discards: set[int] = set()  # event indexes of riichi declarations
        self.called_discards: set[int] = set()  # event indexes of discards called away
        self.riichi = [False] * 4
        self.double_riichi = [False] * 4
        self.ippatsu = [False] * 4
        self.declaring: int | None = None
        self.declared_discard: int | None = None  # the declaring seat's riichi discard
        # Where in findings the declaration's illegal-riichi is (None: it had none): a
        # declaring discard that leaves the hand not tenpai adds to it.
        self.declaring_finding: int | None = None
        # The win or draw that ended the hand: None while it goes on.
        self.ended: Win | RoundDraw | None = None
        # An abortive draw the rules make due (four winds, four riichi, four kans):
        # its kind, why and where, the events still allowed before it (a kan's
        # replacement draw and discard) and whether the next seat's draw came (libriichi
        # writes the draw after it).
        self.abort_due: DrawReason | None = None
        self.abort_at = ""
        self.abort_left = 0
        self.abort_grace = True
        self.discarded_once = [False] * 4
        self.first_discards: list[Tile | None] = [None] * 4
        self.calls_made = 0
        self.kans_by_seat = [0] * 4
        self.kita = [0] * 4
        self.last_kans: list[Meld | None] = [None] * 4
        self.live_remaining = (108 if players == 3 else 136) - 14 - 13 * players
        self.replacement_due: int | None = None
        self.replacement_cause: MeldKind | None = None
        self.last_draw: DrawTile | None = None
        # What the last draw replaced: None for a live draw, else the kan or kita.
        self.draw_source: MeldKind | None = None
        self.last_discard: Discard | None = None
        self.last_kakan: tuple[int, Meld] | None = None
        self.turn_seat: int | None = None
        self.scores = list(start.scores)
        self.sticks = start.riichi_sticks
        self.seen: set[int] = set()
        # Tiles in play by kind, kept once the log stops giving ids (see check_start).
        self.kind_counts: list[int] | None = None
        self.swap_ban: tuple[int, frozenset[int]] | None = None
        self.next_drawer = start.dealer  # whose live draw comes next
        self.ippatsu_before_kakan = [False] * 4
        # Tenhou logs show ura indicators for every riichi winner, so a missing
        # one is a finding; mjai dialects may not record them at all.
        self.ura_always_recorded = True
        self.clock = KanDoraClock(start.dora_indicator, start.dora_indicator_id)
        self.findings = self.record.findings
        self.drawn_ids = self.record.drawn_ids
        self.event_index = index

    def check_start(self) -> None:
        """The tiles dealt and the first indicator, each in play once; else ReplayError.

        A log without tile ids cannot show a tile twice, but it can show a fifth tile
        of a kind: its tiles are counted by kind instead, here and as they come.
        """
        start = self.start
        for seat, hand in enumerate(start.hands):
            if seat < self.players and len(hand) != 13:
                raise ReplayError(f"seat {seat} is dealt {len(hand)} tiles, expected 13")
            if seat >= self.players and hand:
                raise ReplayError(
                    f"seat {seat} is dealt {len(hand)} tiles in a {self.players}-player game"
                )
        if not 0 <= start.dealer < self.players:
            raise ReplayError(f"seat {start.dealer} deals in a {self.players}-player game")
        ids = [i for h in start.hand_ids for i in h] if start.hand_ids is not None else []
        if start.dora_indicator_id is not None:
            ids.append(start.dora_indicator_id)
        self.seen.update(ids)
        if len(self.seen) != len(ids):  # a tile twice: name the first one seen again
            self.seen.clear()
            for i in ids:
                self.see(i)
        if start.hand_ids is None:
            self.kind_counts = [0] * 34
            for t in (*(t for h in start.hands for t in h), start.dora_indicator):
                self.count_in(t)

    def count_in(self, tile: Tile) -> None:
        """Count a tile that comes into play without an id; a fifth of a kind is a ReplayError."""
        counts = self.kind_counts
        if counts is None:  # ids so far (they allow at most four a kind), none from now
            counts = self.kind_counts = [0] * 34
            for i in self.seen:
                counts[i // 4] += 1
        k = tile.kind
        counts[k] += 1
        if counts[k] > 4:
            raise ReplayError(f"{counts[k]} tiles of {Tile(k)} come into play; there are only four")

    # -- helpers ---------------------------------------------------------------
    def see(self, tile_id: int | None) -> None:
        if tile_id is None:
            return
        seen = self.seen
        size = len(seen)
        seen.add(tile_id)
        if len(seen) == size:
            raise ReplayError(f"tile id {tile_id} comes into play twice")

    def finding(
        self,
        code: str,
        message: str,
        pos: SourcePos,
        seat: int | None = None,
        expected: object = None,
        actual: object = None,
    ) -> None:
        self.findings.append(
            Finding(
                code,
                Severity.ERROR,
                f"{self.start.label}: {message}",
                pos.path,
                self.start.label,
                self.event_index,
                seat,
                expected,  # type: ignore[arg-type]
                actual,  # type: ignore[arg-type]
            )
        )

    def check_seat(self, seat: int) -> None:
        """A seat that does not play in this game makes the hand impossible.

        (Draws, discards and calls need no check: such a seat holds no tile.)
        """
        if not 0 <= seat < self.players:
            raise ReplayError(f"seat {seat} plays in a {self.players}-player game")

    def hand_text(self, seat: int) -> str:
        return to_mpsz(self.hands[seat])

    def pond(self, seat: int) -> tuple[PondTile, ...]:
        """Seat ``seat``'s discards so far, in order, with their marks."""
        riichi = self.riichi_discards
        called = self.called_discards
        return tuple(
            PondTile(ev.tile, ev.tsumogiri, index in riichi, index in called, index)
            for ev, index in zip(self.pond_events[seat], self.discard_indexes[seat], strict=True)
        )

    def take(self, seat: int, tile: Tile, tile_id: int | None, what: str) -> None:
        """Remove one tile from a concealed hand, by physical id when known."""
        hand = self.hands[seat]
        if self.ids is not None and tile_id is not None:
            ids = self.ids[seat]
            try:
                k = ids.index(tile_id)
            except ValueError:
                raise ReplayError(
                    f"seat {seat} {what} {tile} (id {tile_id}) but holds {to_mpsz(hand)}"
                ) from None
            ids.pop(k)
            hand.pop(k)
            return
        try:
            hand.remove(tile)
        except ValueError:
            raise ReplayError(f"seat {seat} {what} {tile} but holds {to_mpsz(hand)}") from None
        if self.ids is not None:
            self.ids = None  # the log stopped giving ids; fall back to tiles

    def take_all(self, seat: int, group: list[tuple[Tile, int | None]], what: str) -> None:
        """Remove the tiles of a call or a kan; where one is not held, the message
        shows the hand as it was before any of them was taken."""
        before = list(self.hands[seat])  # (the text only where it is needed)
        try:
            for tile, tile_id in group:
                self.take(seat, tile, tile_id, what)
        except ReplayError:
            tiles = to_mpsz(t for t, _ in group)
            ids = [str(i) for _, i in group if i is not None]
            if ids:
                tiles += f" (ids {', '.join(ids)})"
            raise ReplayError(f"seat {seat} {what} {tiles} but holds {to_mpsz(before)}") from None

    def give(self, seat: int, tile: Tile, tile_id: int | None) -> None:
        self.hands[seat].append(tile)
        if self.ids is not None:
            if tile_id is None:
                self.ids = None
            else:
                self.ids[seat].append(tile_id)

    def break_first_turn(self) -> None:
        self.calls_made += 1
        for s in range(4):
            self.ippatsu[s] = False

    # -- dora timing -----------------------------------------------------------
    @property
    def dora(self) -> list[Tile | None]:
        """The indicators in force (None: due by the rules, not turned by the log)."""
        return self.clock.dora

    @property
    def dora_ids(self) -> list[int | None]:
        return self.clock.dora_ids

    def report(
        self, code: str, message: str, pos: SourcePos, expected: object, actual: object
    ) -> None:
        self.finding(code, message, pos, None, expected, actual)

    def before(self, event: Event) -> None:
        """Settle the indicators the rules require right before ``event``."""
        self.clock.settle(event, self.rules, self.report)

    # -- events ----------------------------------------------------------------
    def on_draw(self, ev: DrawTile) -> None:
        # The most frequent event with on_discard: the checks of see(), give() and
        # take() are written out here rather than called.
        seat = ev.seat
        hand = self.hands[seat]
        if len(hand) + 3 * self.nsets[seat] != 13:
            raise ReplayError(
                f"seat {seat} draws {ev.tile} holding {len(hand)} tiles "
                f"and {self.nsets[seat]} melds"
            )
        due = self.replacement_due
        if due is None:
            if seat != self.next_drawer:
                who = (
                    "the dealer"
                    if not self.discarded_once[seat] and self.next_drawer == self.start.dealer
                    else f"seat {self.next_drawer}"
                )
                raise ReplayError(f"seat {seat} draws out of turn: {who} draws next")
            source = None
        else:
            if due != seat:
                raise ReplayError(f"seat {seat} draws while seat {due} owes a replacement draw")
            source = self.replacement_cause
            self.replacement_due = None
            self.replacement_cause = None
            self.record.replacement_draws.append(len(self.drawn_ids))
        self.live_remaining -= 1
        if self.live_remaining < 0:
            raise ReplayError(f"seat {seat} draws {ev.tile} from an empty wall")
        tile, tile_id = ev.tile, ev.tile_id
        ids = self.ids
        if tile_id is not None:
            seen = self.seen
            size = len(seen)
            seen.add(tile_id)
            if len(seen) == size:
                raise ReplayError(f"tile id {tile_id} comes into play twice")
            if ids is not None:
                ids[seat].append(tile_id)
            self.drawn_ids.append(tile_id)
        else:
            self.record.all_drawn_ids = False
            if ids is not None:
                self.ids = None  # the log stopped giving ids; fall back to tiles
            self.count_in(tile)
        hand.append(tile)
        self.last_draw = ev
        self.draw_source = source
        self.last_discard = None
        self.last_kakan = None
        self.turn_seat = seat

    def on_discard(self, ev: Discard, index: int) -> None:
        seat = ev.seat
        hand = self.hands[seat]
        tile, tile_id = ev.tile, ev.tile_id
        if len(hand) + 3 * self.nsets[seat] != 14:
            raise ReplayError(f"seat {seat} discards {tile} out of turn")
        if self.swap_ban is not None:
            banned_seat, kinds = self.swap_ban
            self.swap_ban = None
            if banned_seat == seat and tile.kind in kinds:
                self.finding(
                    "illegal-call",
                    f"seat {seat} discards {tile} right after calling for it (kuikae, "
                    "a swap call, is forbidden)",
                    ev.pos,
                    seat,
                )
        if self.riichi[seat]:
            self.check_riichi_discard(seat, ev)
        ids = self.ids
        if ids is not None and tile_id is not None:
            own = ids[seat]
            if own[-1] == tile_id:  # tsumogiri: the drawn tile is the last one
                k = len(own) - 1
            else:
                try:
                    k = own.index(tile_id)
                except ValueError:
                    raise ReplayError(
                        f"seat {seat} discards {tile} (id {tile_id}) but holds {to_mpsz(hand)}"
                    ) from None
            del own[k]
            del hand[k]
        elif ids is None and hand[-1] is tile:
            # Without ids, tsumogiri (the drawn tile, last): taken from the end, not
            # looked for (the same tiles remain; a hand's order means nothing).
            del hand[-1]
        else:
            self.take(seat, tile, tile_id, "discards")
        is_riichi = self.declaring == seat
        if is_riichi and self.declared_discard is not None:
            # A declaration whose discard came and went without the riichi being
            # accepted (no stick paid: a Mahjong Soul flag on a discard that is no
            # riichi, say) lapses there, and this is a plain discard, not one more
            # riichi declaration for each discard after it. The declaration's own
            # problems were said where it was made; a stick the log did pay without
            # it is the chain's to find.
            self.declaring = None
            self.declared_discard = None
            is_riichi = False
        if is_riichi:
            self.declared_discard = index
            self.riichi_discards.add(index)
            if not waits(counts34(hand)):
                self.noten_riichi(seat, tile, ev.pos)
        elif self.ippatsu[seat]:
            self.ippatsu[seat] = False
        self.pond_events[seat].append(ev)
        self.discard_indexes[seat].append(index)
        if not self.discarded_once[seat]:
            self.first_discards[seat] = tile
            self.discarded_once[seat] = True
            if is_riichi:
                self.double_riichi[seat] = self.calls_made == 0
            if tile.is_wind and self.players == 4 and all(self.discarded_once):
                first = self.first_discards
                if self.calls_made == 0 and all(
                    t is not None and t.kind == tile.kind for t in first
                ):
                    self.due_abort(
                        DrawReason.SUUFON_RENDA, f"the four first discards are {tile}", ev.pos, 0
                    )
        elif is_riichi:
            self.double_riichi[seat] = False
        self.next_drawer = (seat + 1) % self.players
        self.last_discard = ev
        self.last_draw = None
        self.last_kakan = None

    def on_riichi(self, ev: RiichiDeclared) -> None:
        seat = ev.seat
        self.check_seat(seat)
        if self.riichi[seat]:
            raise ReplayError(f"seat {seat} declares riichi twice")
        self.declaring = seat
        rules = self.rules
        problems = []
        if any(m.is_open for m in self.melds[seat]):
            problems.append("with an open hand")
        if rules.riichi_min_points is not None and self.scores[seat] < rules.riichi_min_points:
            problems.append(f"with {self.scores[seat]} points (at least {rules.riichi_min_points})")
        if (
            rules.riichi_min_live_tiles is not None
            and self.live_remaining < rules.riichi_min_live_tiles
        ):
            problems.append(
                f"with {self.live_remaining} tile{'' if self.live_remaining == 1 else 's'} "
                "left in the wall "
                f"(at least {rules.riichi_min_live_tiles})"
            )
        self.declaring_finding = None
        if problems:
            # One declaration, one finding, however many things are wrong with it.
            self.declaring_finding = len(self.findings)
            self.finding(
                "illegal-riichi",
                f"seat {seat} declares riichi {' and '.join(problems)}",
                ev.pos,
                seat,
            )

    def noten_riichi(self, seat: int, tile: Tile, pos: SourcePos) -> None:
        """The declaring discard of ``tile`` leaves ``seat`` not tenpai: an
        ``illegal-riichi``, or part of the one its declaration already has."""
        left = to_mpsz(self.hands[seat])
        k = self.declaring_finding
        if k is None:
            self.finding(
                "illegal-riichi",
                f"seat {seat} declares riichi discarding {tile}, which leaves {left}: not tenpai",
                pos,
                seat,
            )
            return
        said = self.findings[k]
        self.findings[k] = replace(
            said, message=f"{said.message}; its discard {tile} leaves {left}: not tenpai"
        )

    def on_riichi_accepted(self, ev: RiichiAccepted) -> None:
        seat = ev.seat
        if self.declaring != seat:
            raise ReplayError(f"riichi of seat {seat} accepted without a declaration")
        self.declaring = None
        self.declared_discard = None
        self.riichi[seat] = True
        self.ippatsu[seat] = self.rules.ippatsu
        self.scores[seat] -= 1000
        self.sticks += 1
        self.record.riichi_seats.append(seat)
        self.record.riichi_claims.append((self.event_index, seat, ev.scores, ev.deltas))
        if sum(self.riichi) == self.players:  # three players: three riichi (rules-matrix §E)
            self.due_abort(DrawReason.SUUCHA_RIICHI, "the fourth riichi", ev.pos, 0)

    def on_meld(self, ev: DeclareMeld) -> None:
        seat, meld = ev.seat, ev.meld
        kind = meld.kind
        ids = meld.tile_ids
        problem = shape_problem(kind, meld.tiles)
        if problem is not None:
            raise ReplayError(f"seat {seat} declares {meld}: {problem}")
        if self.riichi[seat]:
            self.check_riichi_meld(seat, meld, ev.pos)
        # A call takes a discard into a hand of 13; a kan of one's own or a kita is
        # declared on one's turn, holding 14 (a kan counting as three).
        size = len(self.hands[seat]) + 3 * self.nsets[seat]
        want = 13 if kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN) else 14
        if size != want:
            raise ReplayError(
                f"seat {seat} declares {meld} holding {len(self.hands[seat])} tiles and "
                f"{self.nsets[seat]} melds"
            )
        if kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN):
            if self.last_discard is None:
                raise ReplayError(f"seat {seat} calls {meld} with no discard to call")
            discard = self.last_discard
            d_seat, d_tile, d_id = discard.seat, discard.tile, discard.tile_id
            if d_seat == seat:
                raise ReplayError(f"seat {seat} calls {meld} off its own discard")
            if meld.from_seat != d_seat:
                raise ReplayError(
                    f"seat {seat} calls {meld} from seat {meld.from_seat}, "
                    f"but seat {d_seat} discarded last"
                )
            if meld.called != d_tile or (
                meld.called_id is not None and d_id is not None and meld.called_id != d_id
            ):
                raise ReplayError(f"seat {seat} calls {meld.called} but the discard was {d_tile}")
            self.check_call(seat, meld, d_seat, ev.pos)
            self.called_discards.add(self.discard_indexes[d_seat][-1])
            if ids is not None and meld.called_id is not None:
                rest: list[tuple[Tile, int | None]] = [
                    (t, i) for t, i in zip(meld.tiles, ids, strict=True) if i != meld.called_id
                ]
            else:
                own = list(meld.tiles)
                own.remove(d_tile)
                rest = [(t, None) for t in own]
            self.take_all(seat, rest, f"calls {kind.value} with")
            self.melds[seat].append(meld)
            self.nsets[seat] += 1
            self.break_first_turn()
            self.last_discard = None
            self.turn_seat = seat
            if seat not in self.record.callers:
                self.record.callers.append(seat)
            if kind is MeldKind.DAIMINKAN:
                self.kan_declared(seat, meld, ev.pos)
        elif kind is MeldKind.KAKAN:
            melds = self.melds[seat]
            k = next(
                (
                    k
                    for k, old in enumerate(melds)
                    if old.kind is MeldKind.PON and old.kind34 == meld.kind34
                ),
                -1,
            )
            if k < 0:
                raise ReplayError(f"seat {seat} adds {meld.added} to a pon it does not have")
            assert meld.added is not None
            self.take(seat, meld.added, meld.added_id, "adds to a kan")
            melds[k] = meld
            # Tenhou cancels ippatsu for a kakan only after the chankan window, so
            # a robber keeps theirs (rules-matrix §D ippatsu row).
            self.ippatsu_before_kakan = list(self.ippatsu)
            self.break_first_turn()
            self.last_kakan = (seat, meld)
            self.kan_declared(seat, meld, ev.pos)
        elif kind is MeldKind.ANKAN:
            own_ids: list[int | None] = list(ids) if ids is not None else [None] * 4
            self.take_all(
                seat, list(zip(meld.tiles, own_ids, strict=True)), "declares a concealed kan with"
            )
            self.melds[seat].append(meld)
            self.nsets[seat] += 1
            self.break_first_turn()
            self.kan_declared(seat, meld, ev.pos)
            # A ron on it is judged at the win (kokushi_robs_ankan): kept like a kakan.
            self.last_kakan = (seat, meld)
        elif kind is MeldKind.KITA:
            if self.players != 3:
                raise ReplayError(f"seat {seat} declares kita in a four-player game")
            tile = meld.tiles[0]
            self.take(seat, tile, ids[0] if ids is not None else None, "declares kita with")
            self.melds[seat].append(meld)
            self.kita[seat] += 1
            # Tenhou 3p: a kita breaks ippatsu and the first go-around (rules-matrix §D).
            self.break_first_turn()
            self.replacement_due = seat
            self.replacement_cause = kind
            self.last_kakan = (seat, meld)
        else:
            assert_never(kind)
        self.last_draw = None

    def due_abort(self, reason: DrawReason, why: str, pos: SourcePos, left: int) -> None:
        """An abortive draw the rules have becomes due: the hand ends there unless a
        win comes first (rules-matrix §E), after ``left`` more events (a kan's
        replacement draw and discard)."""
        if reason.value in self.rules.abortive_draws and self.abort_due is None:
            self.abort_due = reason
            self.abort_at = f"{why} at {pos.where}"
            self.abort_left = left

    def check_abort(self, ev: Event) -> None:
        """An event while an abortive draw is due: a win or the draw itself ends the
        hand; anything else plays on past it (one ``draw-mismatch`` for the hand)."""
        if isinstance(ev, Win | RoundDraw | DoraReveal | RiichiDeclared | RiichiAccepted):
            return
        if self.abort_left:
            self.abort_left -= 1
            return
        if self.abort_grace and isinstance(ev, DrawTile):
            self.abort_grace = False  # libriichi writes the draw after the next seat's draw
            return
        assert self.abort_due is not None
        self.finding(
            "draw-mismatch",
            f"these rules end the hand in a {self.abort_due.value} draw after "
            f"{self.abort_at}, but the log plays on",
            ev.pos,
        )
        self.abort_due = None

    def check_riichi_discard(self, seat: int, ev: Discard) -> None:
        """A seat in riichi discards the tile it drew: its hand may not change
        (rules-matrix §F)."""
        drawn = self.last_draw
        if drawn is None or drawn.seat != seat:
            return  # after a call, which is its own finding
        if ev.tile_id is not None and drawn.tile_id is not None:
            same = ev.tile_id == drawn.tile_id
            held = self.ids is not None and ev.tile_id in self.ids[seat]
        else:
            same = ev.tile == drawn.tile
            held = ev.tile in self.hands[seat]
        if not same and held:  # a tile not held is the replay's to name, and only that
            self.finding(
                "illegal-riichi",
                f"seat {seat} is in riichi and discards {ev.tile} from its hand, not the "
                f"{drawn.tile} it drew: {RIICHI_LOCKED}",
                ev.pos,
                seat,
            )

    def check_riichi_meld(self, seat: int, meld: Meld, pos: SourcePos) -> None:
        """A seat in riichi calls nothing; it may declare a concealed kan of the tile it
        drew that leaves its waits as they were, and (three players) a kita of the North
        it drew (rules-matrix §F "Ankan after riichi": okuri-kan and a changed wait
        forbidden; seed 004: "after riichi only a freshly drawn North can go")."""
        kind = meld.kind
        if kind is MeldKind.KITA:
            drawn = self.last_draw
            if drawn is not None and drawn.seat == seat and drawn.tile.kind != meld.tiles[0].kind:
                # A North from the hand while the drawn tile stays: the hand changes.
                self.finding(
                    "illegal-call",
                    f"seat {seat} is in riichi and sets aside a North from its hand, not "
                    f"the {drawn.tile} it drew: {RIICHI_LOCKED}",
                    pos,
                    seat,
                )
            return
        if kind is not MeldKind.ANKAN:
            self.finding(
                "illegal-call",
                f"seat {seat} is in riichi and calls {meld}: {RIICHI_LOCKED}",
                pos,
                seat,
            )
            return
        drawn = self.last_draw
        hand = self.hands[seat]
        k = meld.tiles[0].kind
        if drawn is None or drawn.seat != seat or sum(1 for t in hand if t.kind == k) < 4:
            return  # not on its own draw, or tiles it does not hold: the replay says so
        if drawn.tile.kind != k:
            self.finding(
                "illegal-call",
                f"seat {seat} is in riichi and declares {meld} without the {drawn.tile} it "
                f"drew (okuri-kan): {RIICHI_LOCKED}",
                pos,
                seat,
            )
            return
        before = waits(counts34(hand, drawn.tile))
        rest = counts34(hand)
        rest[k] -= 4
        after = waits(rest)
        if after != before:
            self.finding(
                "illegal-call",
                f"seat {seat} is in riichi and declares {meld}, which changes its waits "
                f"from {_kinds(before)} to {_kinds(after)}",
                pos,
                seat,
            )

    def check_call(self, seat: int, meld: Meld, from_seat: int, pos: SourcePos) -> None:
        """Calls the rules forbid; the game can still be replayed, so these are findings."""
        if meld.kind is MeldKind.CHI and not self.rules.chi_allowed:
            self.finding(
                "illegal-call",
                f"seat {seat} calls chi, which these rules do not allow",
                pos,
                seat,
            )
        elif meld.kind is MeldKind.CHI and from_seat != (seat - 1) % self.players:
            # The seat before in turn order (three players: seat 2 before seat 0).
            self.finding(
                "illegal-call",
                f"seat {seat} calls chi on seat {from_seat}'s discard; chi is only allowed "
                "from the player on the left",
                pos,
                seat,
            )
        if self.live_remaining == 0:
            self.finding(
                "illegal-call",
                f"seat {seat} calls {meld.kind.value} on the last discard of the hand, "
                "which may only be won on",
                pos,
                seat,
            )
        if self.rules.kuikae_forbidden and meld.kind in (MeldKind.CHI, MeldKind.PON):
            self.swap_ban = (seat, _swap_kinds(meld))

    def kan_declared(self, seat: int, meld: Meld, pos: SourcePos) -> None:
        kind = meld.kind
        if sum(self.kans_by_seat) == 4:
            raise ReplayError(
                f"seat {seat} declares a fifth kan ({meld}): the dead wall holds four "
                "replacement tiles"
            )
        self.last_kans[seat] = meld
        if kind is not MeldKind.DAIMINKAN and self.live_remaining == 0:
            self.finding(
                "illegal-call",
                f"seat {seat} declares a {kind.value} after the last tile was drawn",
                pos,
                seat,
            )
        self.kans_by_seat[seat] += 1
        if sum(self.kans_by_seat) == 4 and sum(1 for k in self.kans_by_seat if k) > 1:
            # The hand ends once the discard after the replacement draw passes.
            self.due_abort(DrawReason.SUUKAIKAN, "the fourth kan, by two players or more", pos, 2)
        self.replacement_due = seat
        self.replacement_cause = kind
        if self.rules.kan_dora:
            self.clock.kan(seat, kind)

    def on_dora(self, ev: DoraReveal) -> None:
        if ev.tile_id is None:
            self.count_in(ev.indicator)
        else:
            self.see(ev.tile_id)
        self.clock.seen(ev)

    def on_win(self, ev: Win, index: int) -> WinRecord:
        seat, from_seat = ev.seat, ev.from_seat
        self.check_seat(seat)
        self.check_seat(from_seat)
        ended = self.ended
        if ended is not None and (
            ev.tsumo or not isinstance(ended, Win) or ended.tsumo or ended.from_seat != from_seat
        ):
            # Only more rons of the same tile (a double or triple ron) follow a win.
            raise ReplayError(f"seat {seat} wins after the hand ended ({self.end_text()})")
        self.ended = ev
        claims = ev.claims
        chankan = False
        if ev.tsumo:
            if self.last_draw is None or self.last_draw.seat != seat:
                raise ReplayError(f"seat {seat} wins by tsumo without having just drawn")
            win_tile = self.last_draw.tile
            replacement = self.draw_source is not None
            after_kita = self.draw_source is MeldKind.KITA
            concealed = tuple(self.hands[seat])
        else:
            if self.last_discard is not None and self.last_discard.seat == from_seat:
                win_tile = self.last_discard.tile
                if (
                    self.riichi[from_seat]
                    and self.discard_indexes[from_seat][-1] in self.riichi_discards
                ):
                    self.unaccept(from_seat, ev)
            elif self.last_kakan is not None and self.last_kakan[0] == from_seat:
                added = self.last_kakan[1]
                assert added.tiles
                win_tile = added.added if added.added is not None else added.tiles[0]
                chankan = added.kind is MeldKind.KAKAN
                if added.kind is MeldKind.ANKAN:
                    self.check_ankan_rob(seat, from_seat, win_tile, ev)
            else:
                raise ReplayError(f"seat {seat} rons seat {from_seat}, who has no tile to ron")
            replacement = after_kita = False
            concealed = (*self.hands[seat], win_tile)
        # Tile.__hash__ is kind * 2 + red, one number per tile value: sorted hashes
        # compare the two hands as multisets.
        if claims.hand is not None and sorted(map(hash, claims.hand)) != sorted(
            map(hash, concealed)
        ):
            raise ReplayError(
                f"the log shows seat {seat}'s winning hand as {to_mpsz(claims.hand)}, "
                f"the replay has {to_mpsz(concealed)}"
            )
        if claims.melds is not None and list(claims.melds) != self.melds[seat]:
            have = Counter((m.kind, m.tiles) for m in self.melds[seat])
            shown = Counter((m.kind, m.tiles) for m in claims.melds)
            if have != shown:
                raise ReplayError(
                    f"the log shows seat {seat}'s melds as "
                    f"{' '.join(map(str, claims.melds))}, the replay has "
                    f"{' '.join(map(str, self.melds[seat]))}"
                )
        self.check_indicators(ev)
        dealer = self.start.dealer
        no_calls = self.calls_made == 0
        first = not self.discarded_once[seat] and no_calls
        last = self.live_remaining == 0
        ura: tuple[Tile, ...] = ()
        if claims.ura_indicators is not None and (self.riichi[seat]):
            # Only the ura under the indicators in force count, and under no kan ura
            # only the first one (a log that shows more is an ura-indicator-mismatch).
            ura = claims.ura_indicators[: self.ura_due()]
        dora = tuple(
            t if t is not None else self.claimed_indicator(ev, k) for k, t in enumerate(self.dora)
        )
        # A riichi declared with an open hand (an illegal-riichi where it was made)
        # scores nothing: an open hand has no riichi, ippatsu or ura dora.
        riichi = self.riichi[seat] and not any(m.is_open for m in self.melds[seat])
        ippatsu = self.ippatsu_before_kakan[seat] if chankan else self.ippatsu[seat]
        ctx = WinContext(
            tsumo=ev.tsumo,
            riichi=riichi and not self.double_riichi[seat],
            double_riichi=self.double_riichi[seat] and riichi,
            ippatsu=ippatsu and riichi,
            rinshan=ev.tsumo and replacement and (self.rules.kita_rinshan or not after_kita),
            chankan=chankan,
            haitei=ev.tsumo and last and not replacement,
            houtei=not ev.tsumo and last and not chankan,
            tenhou=ev.tsumo and first and seat == dealer,
            chiihou=ev.tsumo and first and seat != dealer,
            renhou=not ev.tsumo and first and seat != dealer,
            # Three-player games have no North seat: winds go round mod 3.
            seat_wind=(seat - dealer) % self.players,
            round_wind=(self.start.round_index // 4) % 4,
            dora_indicators=tuple(t for t in dora if t is not None),
            ura_indicators=ura,
            honba=self.start.honba,
            riichi_sticks=self.sticks,
            kita=self.kita[seat],
            players=self.players,
        )
        rec = WinRecord(
            event_index=index,
            event=ev,
            seat=seat,
            from_seat=from_seat,
            concealed=concealed,
            win_tile=win_tile,
            melds=tuple(self.melds[seat]),
            context=ctx,
            dora_indicators=tuple(self.dora),
            dealer=dealer,
            scores_before=tuple(self.scores),
            riichi_sticks=self.sticks,
            honba=self.start.honba,
            kita=self.kita[seat],
            last_kan=self.last_kans[seat],
            concealed_ids=tuple(sorted(self.ids[seat])) if self.ids is not None else None,
            discards=len(self.discard_indexes[seat]),
        )
        self.record.wins.append(rec)
        return rec

    def check_ankan_rob(self, seat: int, from_seat: int, tile: Tile, ev: Win) -> None:
        """A ron on a concealed kan: only Thirteen Orphans may rob one, and only where
        the rules allow it (``kokushi_robs_ankan``: Mahjong Soul, WRC). Else the win is
        an ``illegal-call`` finding; the hand is still scored as the log has it.
        """
        kinds = {t.kind for t in self.hands[seat]} | {tile.kind}
        kokushi = len(self.hands[seat]) == 13 and kinds == _ORPHANS
        if kokushi and self.rules.kokushi_robs_ankan:
            return
        why = (
            "these rules do not let Thirteen Orphans rob a concealed kan"
            if kokushi
            else "only Thirteen Orphans may rob a concealed kan"
        )
        self.finding(
            "illegal-call",
            f"seat {seat} rons {tile} from seat {from_seat}'s concealed kan: {why}",
            ev.pos,
            seat,
        )

    def ura_due(self) -> int:
        """How many ura indicators a riichi win turns: one under each dora indicator
        in force, or only the first where the rules have no kan ura."""
        return len(self.dora) if self.rules.kan_ura else 1

    def claimed_indicator(self, ev: Win, k: int) -> Tile | None:
        shown = ev.claims.dora_indicators
        return shown[k] if shown is not None and k < len(shown) else None

    def check_indicators(self, ev: Win) -> None:
        claims = ev.claims
        seat = ev.seat
        if claims.dora_indicators is not None:
            shown = claims.dora_indicators
            shown_ids = claims.dora_indicator_ids
            derived = self.dora
            same = len(shown) == len(derived) and all(
                d is None or d == s for d, s in zip(derived, shown, strict=False)
            )
            if same and shown_ids is not None:
                same = all(
                    d is None or d == s for d, s in zip(self.dora_ids, shown_ids, strict=False)
                )
            if not same:
                exp = [str(t) if t is not None else "?" for t in derived]
                act = [str(t) for t in shown]
                if exp == act and shown_ids is not None:
                    # The same tiles, other copies of them: the ids tell them apart
                    # ("3s #82, but 3s #83", not "3s, but 3s").
                    exp = [
                        t if i is None else f"{t} #{i}"
                        for t, i in zip(exp, self.dora_ids, strict=False)
                    ]
                    act = [f"{t} #{i}" for t, i in zip(act, shown_ids, strict=False)]
                self.finding(
                    "dora-indicator-mismatch",
                    f"seat {seat}'s win shows dora indicators {' '.join(act)}, "
                    f"but the indicators in force are {' '.join(exp)}",
                    ev.pos,
                    seat,
                    exp,
                    act,
                )
        ura = claims.ura_indicators
        if not self.rules.ura_dora:
            return
        if self.riichi[seat]:
            want = self.ura_due()
            if ura is None and not self.ura_always_recorded:
                return  # some mjai dialects carry no ura indicators at all
            if ura is None or len(ura) != want:
                self.finding(
                    "ura-indicator-mismatch",
                    f"riichi winner seat {seat} shows {0 if ura is None else len(ura)} ura "
                    f"indicators, but {want} {'are' if want != 1 else 'is'} due"
                    + (
                        f" ({len(self.dora)} dora indicators in force, and these rules have "
                        "no kan ura)"
                        if want != len(self.dora)
                        else f" ({want} dora indicator{'s' if want != 1 else ''} in force)"
                    ),
                    ev.pos,
                    seat,
                    want,
                    0 if ura is None else len(ura),
                )
        elif ura:
            self.finding(
                "ura-indicator-mismatch",
                f"seat {seat} did not declare riichi, but the win shows ura indicators "
                f"{to_mpsz(ura, sort=False)}",
                ev.pos,
                seat,
                0,
                len(ura),
            )

    def unaccept(self, seat: int, ev: Win) -> None:
        """A ron of the tile that declared ``seat``'s riichi, which the log accepted
        before it: a riichi is accepted once its discard passes (rules-matrix §F), so
        this one never was; the hand goes on without it (no stick, no riichi)."""
        self.finding(
            "inconsistent-log",
            f"seat {ev.seat} rons the tile that declared seat {seat}'s riichi, which the "
            "log accepted before the ron: a riichi is accepted once its discard passes; "
            "replayed without it",
            ev.pos,
            seat,
        )
        self.riichi[seat] = self.double_riichi[seat] = self.ippatsu[seat] = False
        self.scores[seat] += 1000
        self.sticks -= 1
        self.record.riichi_seats.remove(seat)
        claims = self.record.riichi_claims
        claims.pop(max(k for k, claim in enumerate(claims) if claim[1] == seat))

    def end_text(self) -> str:
        """How the hand ended, for a message about what the log plays after it."""
        ended = self.ended
        if isinstance(ended, Win):
            how = "tsumo" if ended.tsumo else f"ron off seat {ended.from_seat}"
            return f"seat {ended.seat}'s {how} at {ended.pos.where}"
        if ended is not None and ended.reason is DrawReason.PENALTY:
            return f"the penalty at {ended.pos.where}"
        if ended is not None:
            return f"the {ended.reason.value} draw at {ended.pos.where}"
        return "it goes on"

    def on_draw_end(self, ev: RoundDraw, index: int) -> DrawRecord:
        if self.ended is not None:
            raise ReplayError(f"a {ev.reason.value} draw after the hand ended ({self.end_text()})")
        self.ended = ev
        # Every seat holds 13 tiles (a kan counting as three) when a hand ends in a
        # draw; an abortive draw may come on one's own turn, holding 14: nine
        # terminals is declared so, and libriichi writes four riichi after the next
        # seat's draw. (A draw of the wrong kind is then audit_draws's to name.) A
        # server's penalty may end the hand at any moment of play.
        for seat in range(self.players if ev.reason is not DrawReason.PENALTY else 0):
            size = len(self.hands[seat]) + 3 * self.nsets[seat]
            if size != 13 and not (size == 14 and ev.reason.abortive):
                raise ReplayError(
                    f"seat {seat} holds {len(self.hands[seat])} tiles and {self.nsets[seat]} "
                    f"melds at the {ev.reason.value} draw"
                )
        rec = DrawRecord(
            event_index=index,
            event=ev,
            concealed=tuple(tuple(h) for h in self.hands),
            melds=tuple(tuple(m) for m in self.melds),
            ponds=tuple(self.pond(s) for s in range(4)),
            riichi=tuple(self.riichi),
            live_remaining=self.live_remaining,
            kans_by_seat=tuple(self.kans_by_seat),
            dealer=self.start.dealer,
            scores_before=tuple(self.scores),
            riichi_sticks=self.sticks,
            honba=self.start.honba,
            first_discards=tuple(self.first_discards),
            calls_made=self.calls_made,
            concealed_ids=(
                tuple(tuple(sorted(h)) for h in self.ids) if self.ids is not None else None
            ),
        )
        self.record.draw = rec
        return rec


_ORPHANS = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})


def _kinds(kinds: frozenset[int]) -> str:
    return to_mpsz(Tile(k) for k in sorted(kinds)) if kinds else "nothing"


def counts34(tiles: list[Tile] | tuple[Tile, ...], skip: Tile | None = None) -> list[int]:
    """Counts per tile kind, leaving out one copy of ``skip``."""
    counts = [0] * 34
    for t in tiles:
        counts[t.kind] += 1
    if skip is not None:
        counts[skip.kind] -= 1
    return counts


def _swap_kinds(meld: Meld) -> frozenset[int]:
    """Kinds the caller may not discard right after this call (kuikae).

    The called kind itself, and for a chi that used the called tile as an end of the
    run, the kind at the other side (called 3m in 345m: 6m is banned too).
    """
    assert meld.called is not None
    called = meld.called.kind
    banned = {called}
    if meld.kind is MeldKind.CHI:
        low = min(t.kind for t in meld.tiles)
        if called == low and called % 9 <= 5:
            banned.add(called + 3)
        elif called == low + 2 and called % 9 >= 3:
            banned.add(called - 3)
    return frozenset(banned)
