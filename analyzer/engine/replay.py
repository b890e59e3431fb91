"""The replay engine: rebuilds every hand from the events and derives the dora.

The engine owns the rules of play (:class:`analyzer.engine.round_state.RoundState`). It
derives *when* each kan indicator must be turned from the ruleset and compares
that with the log (``dora-timing``), and it checks the indicators and ura
indicators each win shows (``dora-indicator-mismatch``, ``ura-indicator-mismatch``).
A round that the log makes impossible becomes one ``inconsistent-log`` finding and
the replay moves on to the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, assert_never

from analyzer.engine.round_state import RoundState, counts34
from analyzer.engine.state import GameReplay
from mjaudit.errors import ReplayError, SourcePos
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
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
from mjaudit.rules import Ruleset

__all__ = ["ReplayObserver", "RoundState", "counts34", "replay", "seats_away"]


class ReplayObserver(Protocol):
    """Something that follows a replay step by step (the furiten tracker, a viewer).

    ``step`` is called after each event has been applied to the state, and is not
    called again for a round once the log made that round impossible to replay.
    """

    def start_round(self, state: RoundState) -> None: ...

    def step(self, index: int, event: Event, state: RoundState) -> None: ...

    def end_round(self, state: RoundState) -> None: ...


def replay(log: GameLog, rules: Ruleset, observers: Sequence[ReplayObserver] = ()) -> GameReplay:
    """Replay a whole game. Never raises for problems of the game itself."""
    game = GameReplay(log, rules)
    players = rules.players
    state: RoundState | None = None
    # The round's kan-dora clock owes nothing, so draws and discards, nearly every
    # event, can go straight to the state. Only _apply changes the clock.
    idle = True
    steps = [obs.step for obs in observers]
    # An audit has one observer (the furiten tracker): called without a loop.
    only = steps[0] if len(steps) == 1 else None
    live: RoundState | None = None  # the round's state while the log lets it be replayed
    for index, ev in enumerate(log.events):
        kind = type(ev)
        if (kind is DrawTile or kind is Discard) and idle and live is not None:
            # Nearly every event: a draw or a discard, straight to the state.
            live.event_index = index
            if live.abort_due is not None:
                live.check_abort(ev)
            try:
                if kind is DrawTile:
                    live.on_draw(ev)  # type: ignore[arg-type]
                else:
                    live.on_discard(ev, index)  # type: ignore[arg-type]
            except ReplayError as exc:
                _broken(live, ev, exc)
                live = None
                continue
            if only is not None:
                only(index, ev, live)
            else:
                for step in steps:
                    step(index, ev, live)
            continue
        if kind is RoundStart:
            assert isinstance(ev, RoundStart)
            if state is not None:
                _close(state, index - 1, ev.pos, observers)
            # mjlog's INIT oya repeats what its seed's round says from the first dealer
            # (tenhou-format.md, INIT); in mjai the dealer is its own field, and a log
            # may number the seats from its first dealer (mjaigym): its oya stands.
            dealt = (
                _dealer_of(ev, log.start.first_dealer, players, log.events, index)
                if log.format == "tenhou-xml"
                else None
            )
            live = state = RoundState(
                ev if dealt is None else replace(ev, dealer=dealt), rules, players, index
            )
            if dealt is not None:
                state.finding(
                    "inconsistent-log",
                    f"the log deals {ev.label} with seat {ev.dealer} as dealer, but seat "
                    f"{dealt} deals it (the round's dealer, and the first to draw): "
                    f"replayed with seat {dealt}",
                    ev.pos,
                    ev.dealer,
                    dealt,
                    ev.dealer,
                )
            state.ura_always_recorded = log.format != "mjai"
            state.record.index = len(game.rounds)
            game.rounds.append(state.record)
            idle = True
            # The deal is checked first: an observer reads it at start_round, and a
            # deal the log broke (record.complete False) it must not trust.
            try:
                state.check_start()
                if ev.unreadable is not None:
                    raise ReplayError(ev.unreadable)
            except ReplayError as exc:
                _broken(state, ev, exc)
                live = None
            for obs in observers:
                obs.start_round(state)
            continue
        if kind is GameEnd:
            assert isinstance(ev, GameEnd)
            game.end = ev
            game.end_index = index
            continue
        if kind is GameStart or kind is Presence:
            continue
        if state is not None and kind is not DrawTile and kind is not Discard:
            state.record.other_events.append(index)
        if live is None:
            continue
        live.event_index = index
        try:
            _apply(live, ev, index)
            # After the hand's end, every event goes through _apply, which refuses it.
            idle = not live.clock.busy and live.ended is None
        except ReplayError as exc:
            _broken(live, ev, exc)
            live = None
            continue
        if only is not None:
            only(index, ev, live)
        else:
            for step in steps:
                step(index, ev, live)
    if state is not None:
        _close(state, len(log.events) - 1, log.events[-1].pos, observers)
    return game


def seats_away(events: Sequence[Event]) -> tuple[frozenset[int], ...]:
    """The seats disconnected at each event of a log, by event index: from a Tenhou
    ``<BYE who=>`` to that seat's reconnect ``<UN>`` (``Presence``), during which the
    server plays for it, discarding what it draws (tenhou-format.md §1.4). Empty where
    the log records no disconnection."""
    if Presence not in map(type, events):  # the search runs in C
        return ()
    away: frozenset[int] = frozenset()
    out = []
    for ev in events:
        if type(ev) is Presence:
            away = away - {ev.seat} if ev.connected else away | {ev.seat}
        out.append(away)
    return tuple(out)


def _dealer_of(
    start: RoundStart, first_dealer: int, players: int, events: Sequence[Event], index: int
) -> int | None:
    """The seat that deals the hand ``start`` opens, where the log names another: the
    round's dealer (its hand number from the first dealer) when it is also the first
    to draw. None when the log's dealer stands, or when the draw does not say which
    (the round itself may be the wrong number: the chain judges that)."""
    dealt = (start.round_index % 4 + first_dealer) % players
    if start.dealer == dealt:
        return None
    nxt = events[index + 1] if index + 1 < len(events) else None
    return dealt if isinstance(nxt, DrawTile) and nxt.seat == dealt else None


def _what(ev: Event) -> str:
    """An event in a few words, for a message."""
    match ev:
        case DrawTile():
            return f"seat {ev.seat} draws"
        case Discard():
            return f"seat {ev.seat} discards {ev.tile}"
        case DeclareMeld():
            return f"seat {ev.seat} declares {ev.meld}"
        case RiichiDeclared():
            return f"seat {ev.seat} declares riichi"
        case RiichiAccepted():
            return f"seat {ev.seat}'s riichi is accepted"
        case DoraReveal():
            return f"a dora indicator ({ev.indicator}) is turned"
        case _:
            return type(ev).__name__


def _broken(state: RoundState, ev: Event, exc: ReplayError) -> None:
    """Mark the round as one the log made impossible to replay, from ``ev`` on."""
    state.record.complete = False
    state.finding(
        "inconsistent-log",
        f"the log cannot be replayed at {ev.pos.where}: {exc.message}",
        ev.pos,
        getattr(ev, "seat", None),  # the seat whose play it is, where the event has one
    )


def _close(
    state: RoundState, last: int, pos: SourcePos, observers: Sequence[ReplayObserver] = ()
) -> None:
    state.record.last_event = last
    for obs in observers:
        obs.end_round(state)
    if state.record.complete:
        state.clock.close(pos, state.report)
    state.record.dora_indicators = list(state.dora)


def _apply(state: RoundState, ev: Event, index: int) -> None:
    if state.ended is not None and not isinstance(ev, Win | RoundDraw | DoraReveal):
        # A win (a double ron's second) or a draw after the end is on_win's and
        # on_draw_end's to judge; an indicator shown with the result is the kan-dora
        # clock's; no play follows the hand's end.
        raise ReplayError(f"{_what(ev)} after the hand ended ({state.end_text()})")
    if state.abort_due is not None:
        state.check_abort(ev)
    if state.clock.busy and not isinstance(ev, DoraReveal):
        state.before(ev)
    match ev:
        case DrawTile():
            state.on_draw(ev)
        case Discard():
            state.on_discard(ev, index)
        case DeclareMeld():
            state.on_meld(ev)
        case DoraReveal():
            state.on_dora(ev)
        case RiichiDeclared():
            state.on_riichi(ev)
        case RiichiAccepted():
            state.on_riichi_accepted(ev)
        case Win():
            state.on_win(ev, index)
        case RoundDraw():
            state.on_draw_end(ev, index)
        case GameStart() | RoundStart() | GameEnd() | Presence():
            pass
        case _:
            assert_never(ev)
