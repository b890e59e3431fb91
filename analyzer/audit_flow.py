"""Checks of the game's course: every hand has a result, riichi declarations come in
order, and the game goes on until the rules end it.

A hand the log left without a result, a riichi out of place or a game that stops
early is damage to the log that the recomputation of each result cannot see: these
read the log's events in order (and, for the game's end, the score chain's state
after the last hand).
"""

from __future__ import annotations

from analyzer.audit_scores import ChainState
from analyzer.state import GameReplay, RoundReplay
from mjaudit.events import (
    Discard,
    DrawTile,
    Event,
    GameLog,
    Presence,
    RiichiDeclared,
    RoundDraw,
    RulesHint,
    Win,
    round_label,
)
from mjaudit.findings import Finding, Severity
from mjaudit.rules import Ruleset

__all__ = ["check_game_end", "check_results", "check_riichi_order"]

_END_NAMES = {"tenhou-xml": "owari", "tenhou-json": "sc", "mjai": "end_game"}


def check_results(log: GameLog, game: GameReplay) -> tuple[list[Finding], int]:
    """Every hand that the log ends (another hand or the game's end follows) has a
    win or a draw; the last hand of a log that simply stops is the game end's concern.
    """
    out: list[Finding] = []
    events = log.events
    checked = 0
    for k, rnd in enumerate(game.rounds):
        last = rnd.last_event
        ended = k + 1 < len(game.rounds) or (
            game.end is not None and rnd.first_event < game.end_index <= last
        )
        if not ended:
            continue
        checked += 1
        # The replay lists every event of the hand that is not a draw or a discard.
        if any(isinstance(events[i], Win | RoundDraw) for i in rnd.other_events):
            continue
        nxt = game.rounds[k + 1].label if k + 1 < len(game.rounds) else "the game's end"
        out.append(
            Finding(
                "round-without-result",
                Severity.ERROR,
                f"{rnd.label}: the hand has no result: no win and no draw before {nxt}",
                log.path,
                rnd.label,
                last,
                None,
            )
        )
    return out, checked


def check_riichi_order(log: GameLog, game: GameReplay) -> tuple[list[Finding], int]:
    """A riichi is declared right after the declarer's own draw and right before its
    discard, once a hand (a riichi accepted with no declaration stops the replay).

    One finding per hand at most, and none in a hand the replay could not follow,
    which already has its ``inconsistent-log`` finding.
    """
    out: list[Finding] = []
    checked = 0
    events = log.events
    for rnd in game.rounds:
        if not rnd.complete:
            continue
        problem = None
        declared: set[int] = set()
        for i in rnd.other_events:
            ev = events[i]
            if not isinstance(ev, RiichiDeclared):
                continue
            checked += 1
            seat = ev.seat
            before = _neighbour(events, i, -1, rnd.first_event)
            after = _neighbour(events, i, 1, rnd.last_event)
            if seat in declared:
                problem = (i, seat, f"seat {seat} declares riichi a second time in the hand")
            elif isinstance(after, RiichiDeclared) and after.seat == seat:
                problem = (i, seat, f"seat {seat} declares riichi twice in a row")
            elif not (isinstance(before, DrawTile) and before.seat == seat):
                problem = (
                    i,
                    seat,
                    f"seat {seat} declares riichi without having just drawn (the event "
                    f"before is {_describe(before)})",
                )
            elif not (isinstance(after, Discard) and after.seat == seat):
                problem = (
                    i,
                    seat,
                    f"seat {seat} declares riichi but does not discard next (the next "
                    f"event is {_describe(after)})",
                )
            declared.add(seat)
            if problem is not None:
                break
        if problem is not None:
            i, seat, message = problem
            out.append(_error(rnd, log.path, "inconsistent-log", message, i, seat))
    return out, checked


def _neighbour(events: tuple[Event, ...], i: int, step: int, limit: int) -> Event | None:
    """The next event from ``i`` in direction ``step`` that is not a (dis)connection."""
    k = i + step
    while (k <= limit) if step > 0 else (k >= limit):
        if not isinstance(events[k], Presence):
            return events[k]
        k += step
    return None


_EVENT_WORDS = {
    "RoundStart": "the deal",
    "DrawTile": "a draw",
    "Discard": "a discard",
    "DeclareMeld": "a call",
    "DoraReveal": "a dora indicator",
    "RiichiDeclared": "a riichi",
    "RiichiAccepted": "a riichi accepted",
    "Win": "a win",
    "RoundDraw": "the hand's draw",
}


def _describe(ev: Event | None) -> str:
    if ev is None:
        return "none"
    seat = getattr(ev, "seat", None)
    who = f" by seat {seat}" if isinstance(seat, int) else ""
    what = _EVENT_WORDS.get(type(ev).__name__, type(ev).__name__)
    return f"{what}{who} at {ev.pos.where}"


def _error(
    rnd: RoundReplay, path: str, code: str, message: str, event: int, seat: int | None
) -> Finding:
    return Finding(code, Severity.ERROR, f"{rnd.label}: {message}", path, rnd.label, event, seat)


def check_game_end(
    log: GameLog, game: GameReplay, state: ChainState | None, rules: Ruleset
) -> tuple[list[Finding], int]:
    """A game whose log stops before the game's end: no final result where the format
    records one, or a result recorded before the rules end the game.

    The rules (Tenhou, rules-matrix §E): a game ends when a player goes below zero
    (tobi) or after the last hand of its length (East 4, or South 4 in a hanchan;
    East 3 / South 3 with three players) once some player has the return points
    (30000, sanma 40000), else it goes on into the next wind, sudden death, up to its
    fourth hand (West 4 in the corpus: 3 games). A dealer who keeps the seat in the
    last hand may end the game only as the sole top player with the return points
    (agari-yame or tenpai-yame: 28 corpus games end so; a 2010 game plays on after
    such a dealer-tenpai draw, which this check, about games that stop too early,
    allows).
    All 332 Tenhou XML games and every complete game of the other formats end so.
    Where the log does not say the lobby's rules (special lobbies, other sites, mjai),
    only the bound every length shares is held: no game ends before the last hand of
    the East round unless a player is below zero.
    """
    last = game.rounds[-1] if game.rounds else None
    if log.errors or last is None:
        return [], 0  # the log's own error line says it broke off (audit._unfinished)
    if game.end is None:
        name = _END_NAMES.get(log.format, "final result")
        return [
            _game_error(
                log,
                last,
                f"the log stops at {last.label} without the game's result (no {name}): "
                "the game is cut short",
                len(log.events) - 1,
            )
        ], 1
    claims = game.end.claims
    if claims.final_scores is None and claims.results is None:
        return [], 0  # an excerpt: the format records no result here
    if state is None:
        return [], 0  # the last hand has no result to go on from (its own finding)
    hint = log.start.rules_hint
    players = rules.players
    cur = last.start.round_index
    # The scores after the last hand as the chain has them and, where the last
    # result has a finding of its own (a wrong payment), as the log's final scores
    # have them: the game may end by either reading, so one wrong number is not a
    # second finding here.
    readings = [state.scores[:players]]
    if state.alt is not None:
        readings.append(state.alt[:players])
    if claims.final_scores is not None and state.cause is not None:
        readings.append(list(claims.final_scores[:players]))
    whys = [_goes_on(hint, state, cur, scores, rules) for scores in readings]
    if None in whys:
        return [], 1
    return [
        _game_error(
            log,
            last,
            f"the log records the game's result after {last.label}, but the game goes on: "
            f"{whys[0]}",
            game.end_index,
        )
    ], 1


def _goes_on(
    hint: RulesHint, state: ChainState, cur: int, scores: list[int], rules: Ruleset
) -> str | None:
    """Why the game goes on after hand ``cur`` with ``scores`` (None: it may end)."""
    players = rules.players
    if rules.tobi and min(scores) < 0:
        return None
    east_last = 3 if players == 4 else 2
    why = None
    if hint.hanchan is None:
        if cur < east_last:
            why = (
                f"the log does not reach {round_label(east_last, 0)[:2]}, and no player is below 0"
            )
    else:
        final = east_last + (4 if hint.hanchan else 0)
        # Private lobbies (a lobby number other than 0) may set their own end rules.
        tenhou = (
            hint.source.startswith("tenhou")
            and not hint.special_lobby
            and dict(hint.extras).get("lobby", "0") in ("0", "")
            and rules.name in ("tenhou", "tenhou-sanma")
        )
        if not tenhou:
            if cur < final:
                why = (
                    f"the last hand of the game is {round_label(final, 0)[:2]}, "
                    "and no player is below 0"
                )
        else:
            why = _tenhou_goes_on(state, cur, final, scores, rules)
    return why


def _tenhou_goes_on(
    state: ChainState, cur: int, final: int, scores: list[int], rules: Ruleset
) -> str | None:
    """Why a Tenhou game goes on after hand ``cur`` (None: it ends there)."""
    nxt = state.round_index
    top = max(scores)
    enough = top >= rules.return_points
    if cur < final:
        return f"the last hand is {round_label(final, 0)[:2]}, and no player is below 0"
    if cur >= final + 4:
        return None  # the last hand of the extra wind
    if nxt == cur:  # the dealer keeps the seat
        dealer = state.dealer
        sole_top = dealer < len(scores) and scores[dealer] == top and scores.count(top) == 1
        if sole_top and enough:
            return None
        return "the dealer keeps the seat and is not the sole top player with " + str(
            rules.return_points
        )
    if enough:
        return None
    return (
        f"no player has {rules.return_points} after {round_label(cur, 0)[:2]}, so the game "
        f"goes on into {round_label(nxt, 0)[:2]}"
    )


def _game_error(log: GameLog, last: RoundReplay, message: str, event: int) -> Finding:
    return Finding("game-incomplete", Severity.ERROR, message, log.path, last.label, event, None)
