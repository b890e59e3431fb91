"""Checks of the game's course: every hand has a result, riichi declarations come in
order, and the game goes on until the rules end it, and no further.

A hand the log left without a result, a riichi out of place, a game that stops
early or plays on is damage to the log that the recomputation of each result cannot
see: these read the log's events in order (and, for the game's end, the score
chain's state after the last hand and each hand's starting scores).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from analyzer.checks.audit_scores import ChainState
from analyzer.engine.state import GameReplay, RoundReplay
from mjaudit.events import (
    Discard,
    DrawReason,
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
from mjaudit.rules import Ruleset, one_hand_game_stated, stated_end_rules

__all__ = ["check_game_end", "check_results", "check_riichi_order", "rules_are_the_logs"]

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
            elif not (isinstance(after, Discard) and after.seat == seat) and not (
                # The server's penalty for the declarer's invalid discard (mjai.app).
                isinstance(after, RoundDraw) and after.reason is DrawReason.PENALTY
            ):
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
) -> tuple[list[Finding], int, int]:
    """The game's end against the rules: a log cut off before it (``game-incomplete``),
    and a recorded end the rules do not allow (``game-end-mismatch``): a result
    recorded before the rules end the game, or a hand played after they ended it.

    The rules are the Ruleset's (rules-matrix §E tobi and game end rows): a game ends
    when a player goes below zero (``tobi``; at zero too with ``tobi_at_zero``) or
    after the last hand of its length (East 4, or South 4 in a hanchan; East 3 /
    South 3 with three players) unless the dealer keeps the seat. With
    ``west_extension`` (Tenhou) it ends there only once some player has the return
    points (30000, sanma 40000), else it goes on into the next wind, sudden death, up
    to its fourth hand (West 4 in the corpus: 3 games). With ``agari_yame`` a dealer
    who keeps the seat in the last hand may end the game as the sole top player with
    the return points (28 corpus games end so); may, not must: a 2010 game plays on
    after such a dealer-tenpai draw. Without it (WRC, M.League, seed 004) the dealer
    plays on. All 332 Tenhou XML games and every complete game of the other formats
    end so.
    Where the log does not say the lobby's rules (special or private Tenhou lobbies,
    rules assumed for a log that states none), only the bound every length shares is
    held: no game ends before the last hand of the East round (of its length, where
    the log says it) unless a player is below zero, and a game that plays on is not
    judged.

    Returns the findings, the games whose end was judged (0 or 1) and the hands
    after which the log goes on that were judged for playing on.
    """
    last = game.rounds[-1] if game.rounds else None
    if log.errors or last is None:
        return [], 0, 0  # the log's own error line says it broke off (audit._unfinished)
    if game.end is None:
        name = _END_NAMES.get(log.format, "final result")
        return (
            [
                _game_error(
                    log,
                    last,
                    f"the log stops at {last.label} without the game's result (no {name}): "
                    "the game is cut short",
                    len(log.events) - 1,
                )
            ],
            1,
            0,
        )
    claims = game.end.claims
    if claims.final_scores is None and claims.results is None:
        return [], 0, 0  # an excerpt: the format records no result here
    if state is None:
        return [], 0, 0  # the last hand has no result to go on from (its own finding)
    hint = log.start.rules_hint
    end = _GameEnd.of(hint, rules)
    judged = end.known or end.busting_known
    out = _plays_on(log, game, end) if judged else []
    continuations = len(game.rounds) - 1 if judged else 0
    cur = last.start.round_index
    players = rules.players
    # The scores after the last hand as the chain has them and, where the last
    # result has a finding of its own (a wrong payment), as the log's final scores
    # have them: the game may end by either reading, so one wrong number is not a
    # second finding here.
    readings = [state.scores[:players]]
    if state.alt is not None:
        readings.append(state.alt[:players])
    if state.recomputed is not None:
        readings.append(state.recomputed[:players])
    # A win settled without knowing its ura han: the game may end by any of its readings.
    readings.extend(
        [a + b for a, b in zip(state.scores, off, strict=False)][:players] for off in state.maybe
    )
    if claims.final_scores is not None and state.cause is not None:
        readings.append(list(claims.final_scores[:players]))
    # The hand that would come next: the replay's, and the log's own where its tenpai
    # claim at a draw says otherwise about the dealer (that claim has its finding; the
    # game may end by either reading).
    dealer = last.start.dealer
    nexts = [state.round_index] + [
        index for index, _, _ in state.labels if index != state.round_index
    ]
    whys = [
        end.goes_on(cur, nxt, scores, dealer if nxt == cur else (dealer + 1) % players)
        for nxt in nexts
        for scores in readings
    ]
    if None not in whys:
        out.append(
            _mismatch(
                log,
                last,
                f"the log records the game's result after {last.label}, but the game goes "
                f"on: {whys[0]}",
                game.end_index,
            )
        )
    return out, 1, continuations


def rules_are_the_logs(hint: RulesHint, rules: Ruleset) -> bool:
    """Whether ``rules`` are known to be those the game was played under, beyond what
    its log states: an explicit ``--rules``, a Tenhou public lobby, or a Mahjong Soul
    room whose record states its end rules (mjaudit.rules.stated_end_rules), whatever
    else of its rules or results is assumed; not rules assumed for a log that states
    none, a special lobby, or a private one (which may set its own starting points and
    end rules)."""
    if hint.special_lobby or hint.assumed_type is not None:
        return False  # (a log without its lobby type: its length is assumed too)
    if rules.assumed:
        return stated_end_rules(hint)[0]
    lobby = dict(hint.extras).get("lobby", "0")
    return not (hint.source.startswith("tenhou") and lobby not in ("0", ""))


@dataclass(frozen=True, slots=True)
class _GameEnd:
    """The end rules that apply to one log: its last regular hand, and whether the
    Ruleset's end rules are known to be the log's (else only the East bound holds)."""

    rules: Ruleset
    final: int | None
    known: bool
    # Only the busting rule is known to be the log's (a Mahjong Soul room that states
    # can_jifei and not every other end rule): a hand played after a bust is judged.
    busting_known: bool = False

    @classmethod
    def of(cls, hint: RulesHint, rules: Ruleset) -> _GameEnd:
        known = rules_are_the_logs(hint, rules)
        busting = not known and not hint.special_lobby and stated_end_rules(hint)[1]
        hanchan = hint.hanchan if hint.hanchan is not None or not known else rules.hanchan
        if hint.assumed_type is not None:
            hanchan = None  # the length read off a lobby type the log does not state
        east_last = 3 if rules.players == 4 else 2
        final = None if hanchan is None else east_last + (4 if hanchan else 0)
        if rules.one_hand_game or one_hand_game_stated(hint):
            # A one-hand game (by the rules, or as the log states its length, as it
            # states East or South): its first hand is the last regular one.
            final = 0
        return cls(rules, final, known, busting)

    def busts(self, scores: list[int]) -> int | None:
        """The first seat whose score ends the game (tobi), if any."""
        rules = self.rules
        if not rules.tobi:
            return None
        for seat, points in enumerate(scores):
            if points < 0 or (rules.tobi_at_zero and points == 0):
                return seat
        return None

    def goes_on(self, cur: int, nxt: int, scores: list[int], dealer: int) -> str | None:
        """Why the game goes on after hand ``cur`` (None: it may end there).

        ``nxt`` is the hand that would follow (``cur`` again: the dealer keeps the
        seat), ``scores`` the scores after ``cur``.
        """
        rules = self.rules
        if self.busts(scores) is not None:
            return None
        below = "at or below 0" if rules.tobi_at_zero else "below 0"
        tail = f", and no player is {below}" if rules.tobi else " (these rules have no busting)"
        if not self.known or self.final is None:
            bound = self.final if self.final is not None else (3 if rules.players == 4 else 2)
            if cur >= bound:
                return None
            if self.final is None:
                return f"the log does not reach {round_label(bound, 0)[:2]}{tail}"
            return f"the last hand of the game is {round_label(bound, 0)[:2]}{tail}"
        final = self.final
        if cur < final:
            return f"the last hand is {round_label(final, 0)[:2]}{tail}"
        if rules.west_extension and cur >= final + 4:
            return None  # the last hand of the extra wind
        top = max(scores)
        enough = top >= rules.return_points
        if nxt == cur:  # the dealer keeps the seat
            if not rules.agari_yame:
                return "the dealer keeps the seat, and these rules have no agari-yame"
            sole_top = dealer < len(scores) and scores[dealer] == top and scores.count(top) == 1
            if sole_top and enough:
                return None
            return "the dealer keeps the seat and is not the sole top player with " + str(
                rules.return_points
            )
        if not rules.west_extension or enough:
            return None
        return (
            f"no player has {rules.return_points} after {round_label(cur, 0)[:2]}, so the "
            f"game goes on into {round_label(nxt, 0)[:2]}"
        )

    def must_end(self, cur: int, nxt: int, scores: list[int]) -> str | None:
        """Why the game ends after hand ``cur`` (None: it may go on to ``nxt``)."""
        rules = self.rules
        seat = self.busts(scores)
        if seat is not None:
            return f"seat {seat} has {scores[seat]} points (busting)"
        if not self.known:
            return None  # only the busting rule is known
        final = self.final
        if final is None or cur < final or nxt == cur:
            return None  # a dealer who keeps the seat may play on (agari-yame is a choice)
        if not rules.west_extension:
            return f"{round_label(final, 0)[:2]} is the last hand"
        if cur >= final + 4:
            return f"{round_label(final + 4, 0)[:2]} is the last hand of the extension"
        top = max(scores)
        if top >= rules.return_points:
            return (
                f"seat {scores.index(top)} has {top} (at least {rules.return_points}) "
                f"after {round_label(final, 0)[:2]}"
            )
        return None


def _plays_on(log: GameLog, game: GameReplay, end: _GameEnd) -> list[Finding]:
    """The first hand played after the rules ended the game, as the log's own
    starting scores of each hand have it (a wrong one is the chain's finding)."""
    players = end.rules.players
    rounds = game.rounds
    for before, after in pairwise(rounds):
        cur, nxt = before.start.round_index, after.start.round_index
        why = end.must_end(cur, nxt, list(after.start.scores[:players]))
        if why is not None:
            return [
                _mismatch(
                    log,
                    after,
                    f"the game ends after {before.label} ({why}), but the log plays on "
                    f"into {after.label}",
                    after.first_event,
                )
            ]
    return []


def _mismatch(log: GameLog, rnd: RoundReplay, message: str, event: int) -> Finding:
    return Finding("game-end-mismatch", Severity.ERROR, message, log.path, rnd.label, event, None)


def _game_error(log: GameLog, last: RoundReplay, message: str, event: int) -> Finding:
    return Finding("game-incomplete", Severity.ERROR, message, log.path, last.label, event, None)
