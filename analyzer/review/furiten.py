"""Furiten and play review: every seat's waits and furiten state, step by step.

:class:`FuritenTracker` follows a replay (it is a :class:`~analyzer.engine.replay.ReplayObserver`)
and keeps, for every seat, its waits and whether it may ron (rules-matrix §F):

- discard furiten: a wait in the seat's own pond, discards called away included;
- temporary furiten: the seat let a winning tile go by (a yaku-less one too, and the
  tile added to a kan that it could have robbed). ``rules.temp_furiten_lifted_by``
  says what ends it: the seat's own next discard (Tenhou), its next draw, or its next
  draw or call;
- riichi furiten: a winning tile let go by after riichi; it lasts until the hand ends.

A wait whose four copies are all the seat's own tiles is no wait (Tenhou: such a hand
is not tenpai at a draw), so it neither makes the seat tenpai nor furiten.

From this it reports ``ron-while-furiten`` (an error: the log shows a win the rules
forbid) and, with ``review=True``, info notes on the play: ``missed-ron``,
``missed-tsumo``, ``riichi-while-furiten`` and ``discard-into-furiten``. The waits and
furiten state are kept as data in :attr:`FuritenTracker.timeline` for the reports.

Waits only change when the seat's own hand changes, so they are computed once per
discard or kan, and not at all for a discard of the tile just drawn; they come from
per-suit tables: each seat keeps its hand as an :class:`analyzer.hands.hand.KeyedHand`,
which a discard updates in the parts it changed. A discard is only offered to the
seats that wait on its kind (a per-kind count of waiting seats answers "nobody" at
once), a view is only rebuilt when what it is made of changed, and the timeline gets
an entry only when a view changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import assert_never

from analyzer.engine.replay import RoundState, replay, seats_away
from analyzer.engine.round_state import counts34
from analyzer.engine.state import GameReplay
from analyzer.hands.hand import NO_WAITS, KeyedHand, is_kokushi, waits
from analyzer.hands.scoring import NotAWin, score
from analyzer.review.review_waits import kinds_text, less_held
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
from mjaudit.hands import HandResult, WinContext
from mjaudit.melds import Meld, MeldKind
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["FuritenTracker", "SeatView", "review_log"]


@quick_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's furiten picture after an event."""

    tenpai: bool
    waits: frozenset[int]
    furiten: bool
    cause: str | None  # "discard" | "temporary" | "riichi" | None
    since_event: int | None


# Events after a discard that do not end its offer: the rons on it, a kan indicator
# turned before them, the riichi stick paid when nobody rons.
_KEEP_OFFER = (Win, DoraReveal, RiichiAccepted)

_NOT_TENPAI = SeatView(False, NO_WAITS, False, None, None)


@dataclass(slots=True)
class _Seat:
    """What the tracker keeps for one seat during a hand."""

    # The concealed tiles but the one drawn this turn: the tiles the waits are taken
    # of. Kept in step at each discard.
    hand: KeyedHand
    waits: frozenset[int] = NO_WAITS
    pond: set[int] = field(default_factory=set)
    temporary: tuple[int, Tile] | None = None  # (event passed, tile)
    riichi: tuple[int, Tile] | None = None
    since: int | None = None
    drawn: int | None = None  # kind drawn this turn, while the hand is otherwise unchanged
    view: SeatView = _NOT_TENPAI


@quick_init
@dataclass(frozen=True, slots=True)
class _Chance:
    """A seat that could have won on an offered tile, as things stood then."""

    seat: int
    concealed: tuple[Tile, ...]  # with the winning tile
    melds: tuple[Meld, ...]
    context: WinContext
    view: SeatView
    waits: frozenset[int]
    riichi: bool


@dataclass(slots=True)
class _Offer:
    """A discard (or a tile added to a kan) the other seats may ron."""

    index: int
    from_seat: int
    tile: Tile
    chankan: bool
    chances: dict[int, _Chance]
    winners: list[int] = field(default_factory=list)


class FuritenTracker:
    """Follows a replay; implements :class:`analyzer.engine.replay.ReplayObserver`."""

    def __init__(self, rules: Ruleset, path: str, review: bool = True) -> None:
        self.rules = rules
        self.path = path
        self.review = review
        self.findings: list[Finding] = []
        self.timeline: dict[int, list[tuple[int, tuple[SeatView, ...]]]] = {}
        self.counts: Counter[str] = Counter()
        # The seats disconnected at each event (analyzer.engine.replay.seats_away): the
        # server plays for them, so their play gets no review note.
        self.away: tuple[frozenset[int], ...] = ()
        self._seats: list[_Seat] = []
        self._waiting = [0] * 34  # seats whose waits hold each kind
        self._views_now: list[SeatView] = []  # seat.view of every seat, for the timeline
        lift = rules.temp_furiten_lifted_by
        self._lift_on_discard = lift == "discard"
        self._lift_on_call = lift == "draw-or-call"
        self._players = rules.players
        self._label = ""
        self._round = 0
        self._offer: _Offer | None = None
        self._tsumo: _Chance | None = None
        self._tsumo_index = -1
        self._unsettled = False  # a tsumo chance or an offer waits for the next event
        self._changed = False

    # -- the observer protocol ---------------------------------------------------------
    def start_round(self, state: RoundState) -> None:
        self._players = state.players
        self._label = state.start.label
        self._round = state.record.index
        self._offer = None
        self._tsumo = None
        self._unsettled = False
        self._waiting = [0] * 34
        self._views_now = [_NOT_TENPAI] * self._players
        if not state.record.complete:
            # The log broke this hand at its deal (a tile twice, a fifth of a kind):
            # the replay goes no further in it, and its hands are no hands to read.
            self._seats = [_Seat(KeyedHand()) for _ in range(self._players)]
            self.timeline[self._round] = [(state.record.first_event, self._views())]
            self._changed = False
            return
        self._seats = [_Seat(_keyed(state.hands[s])) for s in range(self._players)]
        for s, seat in enumerate(self._seats):
            found = seat.hand.waits()
            # A new seat is not tenpai (_NOT_TENPAI); only waits can change that.
            if found and self._set_waits(s, found, state):
                self._refresh(s, state.record.first_event)
        self.timeline[self._round] = [(state.record.first_event, self._views())]
        self._changed = False

    def step(self, index: int, event: Event, state: RoundState) -> None:
        if self._unsettled:
            self._settle(index, event)
        # Draws and discards, nearly every event, by exact type first (each is taken
        # here, without a further call); then every other kind is named, and mypy
        # checks that none is left out: a new kind of event must be thought about here.
        if type(event) is DrawTile:
            seat = self._seats[event.seat]
            if seat.temporary is not None and not self._lift_on_discard:
                seat.temporary = None
                self._refresh(event.seat, index)
            drawn = seat.drawn = event.tile.kind
            if drawn in seat.waits:
                self._tsumo = self._chance(state, event.seat, event.tile, True, False)
                self._tsumo_index = index
                self._unsettled = True
        elif type(event) is Discard:
            s = event.seat
            seat = self._seats[s]
            kind = event.tile.kind
            seat.pond.add(kind)
            took = seat.drawn
            seat.drawn = None
            changed = False
            if took != kind:  # else the tiles left are the ones the waits were taken of
                found = seat.hand.turn(took, kind)
                changed = found is not seat.waits and self._set_waits(s, found, state)
            # Most discards change nothing the view is made of and judge nothing.
            if changed or kind in seat.waits or seat.temporary is not None or state.declaring == s:
                self._judge_discard(index, event, state)
            if self._waiting[kind]:  # else nobody can ron it: no offer (see _make_offer)
                self._make_offer(index, s, event.tile, False, state)
        else:
            match event:
                case DeclareMeld():
                    self._on_meld(index, event, state)
                case Win():
                    self._on_win(index, event, state)
                case RiichiDeclared() | RiichiAccepted():
                    pass  # read off the replay's state (declaring, riichi) where it matters
                case DoraReveal() | RoundDraw():
                    pass  # they settle a pending chance (above) and change no seat's view
                case GameStart() | RoundStart() | GameEnd() | Presence():
                    pass  # the replay does not step them
                case DrawTile() | Discard():
                    raise TypeError(f"a subclass of an event: {type(event).__name__}")
                case _:
                    assert_never(event)
        if self._changed:  # some seat's view changed
            self._changed = False
            self.timeline[self._round].append((index, self._views()))

    def end_round(self, state: RoundState) -> None:
        if self._tsumo is not None:
            self._settle_tsumo(None)
        if self._offer is not None:
            self._settle_offer(self._offer, None, state.record.last_event)

    def _settle(self, index: int, event: Event) -> None:
        """Settle the tsumo chance or the offer that ``event`` ends."""
        if self._tsumo is not None and not isinstance(event, DoraReveal):
            self._settle_tsumo(event)
        offer = self._offer
        if offer is not None and not isinstance(event, _KEEP_OFFER):
            self._settle_offer(offer, event, index)
        self._unsettled = self._tsumo is not None or self._offer is not None

    # -- state -----------------------------------------------------------------------
    def _views(self) -> tuple[SeatView, ...]:
        return tuple(self._views_now)

    def _set_waits(self, s: int, found: frozenset[int], state: RoundState) -> bool:
        """Give seat ``s`` the waits ``found`` in its concealed tiles; True if they changed."""
        seat = self._seats[s]
        old = seat.waits
        new = less_held(found, state.hands[s], state.melds[s])
        if new is old or new == old:
            return False
        waiting = self._waiting
        for k in old:
            waiting[k] -= 1
        for k in new:
            waiting[k] += 1
        seat.waits = new
        return True

    def _refresh(self, s: int, at: int) -> SeatView:
        """Rebuild seat ``s``'s view; a furiten that starts now is dated ``at``."""
        seat = self._seats[s]
        w = seat.waits
        if w and not w.isdisjoint(seat.pond):
            cause: str | None = "discard"
        elif seat.riichi is not None:
            cause = "riichi"
        elif seat.temporary is not None:
            cause = "temporary"
        else:
            cause = None
        if cause is None:
            seat.since = None
        elif seat.since is None:
            seat.since = at
        old = seat.view
        if (
            old.cause == cause
            and old.since_event == seat.since
            and (old.waits is w or old.waits == w)
        ):
            return old
        seat.view = view = SeatView(bool(w), w, cause is not None, cause, seat.since)
        self._views_now[s] = view
        self._changed = True
        return view

    def _reason(self, s: int, view: SeatView) -> str:
        """Why seat ``s`` is furiten, in words."""
        seat = self._seats[s]
        if view.cause == "discard":
            own = view.waits & seat.pond
            return f"{kinds_text(own)} in own discards"
        passed = seat.riichi if view.cause == "riichi" else seat.temporary
        if passed is None:
            return view.cause or "not furiten"
        at, tile = passed
        after = " after riichi" if view.cause == "riichi" else ""
        return f"passed {tile} at event {at}{after}"

    def _context(self, state: RoundState, s: int, tsumo: bool, chankan: bool) -> WinContext:
        """The situation of a win by seat ``s`` that could happen now."""
        dealer = state.start.dealer
        last = state.live_remaining == 0
        replacement = after_kita = False
        if tsumo and state.last_draw is not None:
            replacement = state.draw_source is not None
            after_kita = state.draw_source is MeldKind.KITA
        first = not state.discarded_once[s] and state.calls_made == 0
        riichi = state.riichi[s]
        double = riichi and state.double_riichi[s]
        return WinContext(
            tsumo=tsumo,
            riichi=riichi and not double,
            double_riichi=double,
            ippatsu=state.ippatsu_before_kakan[s] if chankan else state.ippatsu[s],
            rinshan=tsumo and replacement and (self.rules.kita_rinshan or not after_kita),
            chankan=chankan,
            haitei=tsumo and last and not replacement,
            houtei=not tsumo and last and not chankan,
            tenhou=tsumo and first and s == dealer,
            chiihou=tsumo and first and s != dealer,
            renhou=not tsumo and first and s != dealer,
            seat_wind=(s - dealer) % state.players,
            round_wind=(state.start.round_index // 4) % 4,
            dora_indicators=tuple(t for t in state.dora if t is not None),
            honba=state.start.honba,
            riichi_sticks=state.sticks,
            kita=state.kita[s],
            players=state.players,
        )

    def _chance(self, state: RoundState, s: int, tile: Tile, tsumo: bool, chankan: bool) -> _Chance:
        seat = self._seats[s]
        concealed = tuple(state.hands[s]) if tsumo else (*state.hands[s], tile)
        return _Chance(
            s,
            concealed,
            tuple(state.melds[s]),
            self._context(state, s, tsumo, chankan),
            seat.view,
            seat.waits,
            state.riichi[s],
        )

    # -- events ----------------------------------------------------------------------
    def _judge_discard(self, index: int, ev: Discard, state: RoundState) -> None:
        """Rebuild the discarding seat's view and note what its discard did."""
        s = ev.seat
        seat = self._seats[s]
        was = seat.view
        if self._lift_on_discard:
            seat.temporary = None
        view = self._refresh(s, index)
        declaring = state.declaring == s
        if declaring and not view.tenpai:
            self._check_riichi_tenpai(index, ev, state)
        elif self.review and declaring and view.furiten:
            self._note_riichi(index, ev, state, view)
        elif (
            self.review
            and view.cause == "discard"
            and was.cause != "discard"
            and seat.riichi is None
        ):
            # Newly furiten by this discard; a seat already barred by riichi furiten
            # could not ron before either.
            self._note_discard(index, ev, state, view)

    def _on_meld(self, index: int, ev: DeclareMeld, state: RoundState) -> None:
        s, meld = ev.seat, ev.meld
        seat = self._seats[s]
        seat.drawn = None
        seat.hand = _keyed(state.hands[s])
        kind = meld.kind
        if kind is MeldKind.CHI or kind is MeldKind.PON:
            # The hand has 3k+2 tiles until the discard that follows; keep the waits.
            if self._lift_on_call and seat.temporary:
                seat.temporary = None
                self._refresh(s, index)
            return
        if kind is MeldKind.DAIMINKAN and self._lift_on_call:
            seat.temporary = None
        self._set_waits(s, seat.hand.waits(), state)
        self._refresh(s, index)
        if kind is MeldKind.KAKAN:
            tile = meld.added if meld.added is not None else meld.tiles[0]
            self._make_offer(index, s, tile, True, state)
        elif kind is MeldKind.ANKAN and self.rules.kokushi_robs_ankan:
            # Thirteen orphans may rob a concealed kan under these rules (rules-matrix
            # §A): only such a hand is offered the tile.
            self._make_offer(index, s, meld.tiles[0], True, state, kokushi_only=True)
        elif kind is MeldKind.KITA:
            # Ron on a kita is an open question for Tenhou (rules-matrix note 7): a
            # win on one is checked for furiten, but letting one go is not judged.
            self._offer = _Offer(index, s, meld.tiles[0], False, {})
            self._unsettled = True

    def _on_win(self, index: int, ev: Win, state: RoundState) -> None:
        s = ev.seat
        if ev.tsumo:
            self.counts["tsumo_wins_checked"] += 1
            if self._seats[s].view.furiten:
                self.counts["tsumo_while_furiten"] += 1
            return
        self.counts["rons_checked"] += 1
        offer = self._offer
        tile: Tile | None
        if offer is not None and offer.from_seat == ev.from_seat:
            offer.winners.append(s)
            chance = offer.chances.get(s)
            # Until the offer is settled no seat's view changes, so the current view
            # of a seat with no chance on it is the view it had then.
            view = chance.view if chance is not None else self._seats[s].view
            tile = offer.tile
        else:
            view = self._seats[s].view
            tile = state.last_discard.tile if state.last_discard is not None else None
        if not view.furiten:
            return
        what = f"ron {tile}" if tile is not None else "ron"
        message = (
            f"{self._label}: seat {s} rons {tile} but has been furiten since event "
            f"{view.since_event} ({self._reason(s, view)})"
        )
        expected: JsonValue = {
            "furiten": view.cause,
            "since_event": view.since_event,
            "hand": to_mpsz(state.hands[s]),
            "waits": kinds_text(view.waits),
        }
        self._add("ron-while-furiten", Severity.ERROR, message, index, s, expected, what)

    # -- offers and passes --------------------------------------------------------------
    def _make_offer(
        self,
        index: int,
        s: int,
        tile: Tile,
        chankan: bool,
        state: RoundState,
        kokushi_only: bool = False,
    ) -> None:
        chances: dict[int, _Chance] = {}
        kind = tile.kind
        for other, seat in enumerate(self._seats):
            if kind in seat.waits and other != s:
                if kokushi_only and not is_kokushi(counts34((*state.hands[other], tile))):
                    continue
                chances[other] = self._chance(state, other, tile, False, chankan)
        if chances or (chankan and not kokushi_only):
            self._offer = _Offer(index, s, tile, chankan, chances)
            self._unsettled = True
        else:
            # A discard nobody waits on settles to nothing, and a ron on it reads the
            # same seat views and tile (state.last_discard) without an offer.
            self._offer = None

    def _settle_offer(self, offer: _Offer, event: Event | None, index: int) -> None:
        """The offered tile went by: every seat that could have won on it passed it."""
        self._offer = None
        if not offer.chances:
            return
        if isinstance(event, RoundDraw) and event.reason is DrawReason.SANCHAHOU:
            return  # they all called ron; the rules abort the hand instead
        could = self._could_have_won(offer)
        for s, chance in offer.chances.items():
            if s in offer.winners or s not in could:
                continue
            seat = self._seats[s]
            passed = (offer.index, offer.tile)
            if chance.riichi:
                if seat.riichi is None:
                    seat.riichi = passed
            elif seat.temporary is None:
                seat.temporary = passed
            self._refresh(s, offer.index)
            if not self.review or chance.view.furiten:
                continue
            result = self._value(chance)
            if result is None:
                continue
            source = "kan" if offer.chankan else "discard"
            message = (
                f"{self._label}: seat {s} lets seat {offer.from_seat}'s {source} of "
                f"{offer.tile} go by (event {offer.index}), a ron worth {_worth(result)}; "
                f"hand {to_mpsz(chance.concealed[:-1])}, waits {kinds_text(chance.waits)}"
            )
            self._note("missed-ron", message, offer.index, s, chance, offer.tile, result, "pass")

    def _could_have_won(self, offer: _Offer) -> set[int]:
        """The seats that could have won on an offered tile as the hand went (rules-
        matrix §E): any, where nobody did; where somebody did, under head bump only a
        seat nearer the discarder in turn than the winner (it would have won instead),
        and with double ron a further seat where a triple ron is scored (where it
        aborts the hand or bumps heads, a third claim wins nothing)."""
        if not offer.winners:
            return set(offer.chances)
        players = self._players
        if not self.rules.double_ron:
            turn = min((w - offer.from_seat) % players for w in offer.winners)
            return {s for s in offer.chances if (s - offer.from_seat) % players < turn}
        if len(offer.winners) >= 2 and self.rules.triple_ron != "scored":
            return set()
        return set(offer.chances)

    def _settle_tsumo(self, event: Event | None) -> None:
        chance = self._tsumo
        self._tsumo = None
        assert chance is not None
        if isinstance(event, Win) and event.seat == chance.seat:
            return
        if not self.review:
            return
        result = self._value(chance)
        if result is None:
            return
        tile = _win_tile(chance)
        did = _action(event)
        message = (
            f"{self._label}: seat {chance.seat} draws {tile} (event {self._tsumo_index}) and "
            f"does not win, a tsumo worth {_worth(result)}; "
            f"hand {to_mpsz(_without(chance.concealed, tile))}, "
            f"waits {kinds_text(chance.waits)}"
        )
        self._note(
            "missed-tsumo", message, self._tsumo_index, chance.seat, chance, tile, result, did
        )

    def _value(self, chance: _Chance) -> HandResult | None:
        """What the win would have scored; None when it has no yaku."""
        try:
            return score(
                chance.concealed, _win_tile(chance), chance.melds, chance.context, self.rules
            )
        except NotAWin:
            self.counts["yakuless_passes"] += 1
            return None

    # -- riichi ------------------------------------------------------------------------
    def _check_riichi_tenpai(self, index: int, ev: Discard, state: RoundState) -> None:
        """Riichi declared while not tenpai, unless the replay already said so."""
        s = ev.seat
        if state.declaring_finding is not None or any(
            f.code == "illegal-riichi" and f.event == index for f in state.findings
        ):
            return  # the replay said so, at the discard or in its declaration's finding
        counts = [0] * 34
        for t in state.hands[s]:
            counts[t.kind] += 1
        if waits(counts):
            return  # formally tenpai (all four copies of the wait held); Tenhou allows it
        message = (
            f"{self._label}: seat {s} declares riichi discarding {ev.tile}, which leaves "
            f"{to_mpsz(state.hands[s])}: not tenpai"
        )
        self._add("illegal-riichi", Severity.ERROR, message, index, s, "tenpai", "not tenpai")

    def _note_riichi(self, index: int, ev: Discard, state: RoundState, view: SeatView) -> None:
        s = ev.seat
        hand = to_mpsz(state.hands[s])
        message = (
            f"{self._label}: seat {s} declares riichi discarding {ev.tile} while furiten "
            f"({self._reason(s, view)}); hand {hand}, waits {kinds_text(view.waits)}"
        )
        expected: JsonValue = {"hand": hand, "waits": kinds_text(view.waits)}
        self._add(
            "riichi-while-furiten", Severity.INFO, message, index, s, expected, f"riichi {ev.tile}"
        )

    def _note_discard(self, index: int, ev: Discard, state: RoundState, view: SeatView) -> None:
        s = ev.seat
        hand = to_mpsz(state.hands[s])
        message = (
            f"{self._label}: seat {s} discards {ev.tile} and is tenpai but furiten "
            f"({self._reason(s, view)}); hand {hand}, waits {kinds_text(view.waits)}"
        )
        expected: JsonValue = {"hand": hand, "waits": kinds_text(view.waits)}
        self._add(
            "discard-into-furiten", Severity.INFO, message, index, s, expected, f"discard {ev.tile}"
        )

    # -- findings ----------------------------------------------------------------------
    def _note(
        self,
        code: str,
        message: str,
        index: int,
        s: int,
        chance: _Chance,
        tile: Tile,
        result: HandResult,
        actual: str,
    ) -> None:
        expected: JsonValue = {
            "hand": to_mpsz(_without(chance.concealed, tile)),
            "waits": kinds_text(chance.waits),
            "tile": str(tile),
            "value": result.total,
            "han": result.han,
            "fu": result.fu,
            "yaku": [str(y) for y in result.yaku],
        }
        self._add(code, Severity.INFO, message, index, s, expected, actual)

    def _add(
        self,
        code: str,
        severity: Severity,
        message: str,
        index: int,
        seat: int,
        expected: JsonValue,
        actual: JsonValue,
    ) -> None:
        if severity is Severity.INFO and index < len(self.away) and seat in self.away[index]:
            self.counts["notes_while_away"] += 1
            return
        self.counts[code] += 1
        self.findings.append(
            Finding(code, severity, message, self.path, self._label, index, seat, expected, actual)
        )


def _keyed(hand: list[Tile]) -> KeyedHand:
    """``hand`` as a seat keeps it."""
    return KeyedHand([t.kind for t in hand])


def _win_tile(chance: _Chance) -> Tile:
    """The tile a chance wins on: the replay appends a drawn tile, and a ron adds it last."""
    return chance.concealed[-1]


def _without(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    out = list(tiles)
    out.remove(tile)
    return tuple(out)


def _worth(result: HandResult) -> str:
    what = f"yakuman x{result.yakuman}" if result.yakuman else f"{result.han} han {result.fu} fu"
    parts = [str(y) for y in result.yaku]
    for name, n in (("dora", result.dora), ("aka", result.aka), ("ura", result.ura)):
        if n:
            parts.append(f"{name} {n}")
    if result.kita:
        parts.append(f"kita {result.kita}")
    return f"{result.total} ({what}: {', '.join(parts)})"


def _action(event: Event | None) -> str:
    """What a seat did instead of winning on its draw."""
    match event:
        case Discard():
            return f"discard {event.tile}"
        case DeclareMeld():
            return event.meld.kind.value
        case RoundDraw():
            return event.reason.value
        case RiichiDeclared():
            return "riichi"
        case None:
            return "nothing"
        case _:
            return type(event).__name__


def review_log(
    log: GameLog, rules: Ruleset, review: bool = True
) -> tuple[GameReplay, FuritenTracker]:
    """Replay ``log`` with a :class:`FuritenTracker` following it."""
    tracker = FuritenTracker(rules, log.path, review)
    tracker.away = seats_away(log.events)
    game = replay(log, rules, observers=[tracker])
    return game, tracker
