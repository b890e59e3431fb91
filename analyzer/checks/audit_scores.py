"""The score chain: each hand's scores, honba and sticks follow from the last hand.

The chain is built from what the log itself says happened (its recorded deltas),
so one wrong number gives one finding where it is wrong, not a cascade: a
tampered delta is a ``payment-mismatch`` of its hand (see the win and draw
checks), while a hand whose starting scores do not follow from the hand before is
a ``score-chain-mismatch`` here.

After a break the chain resynchronises with the log: it goes on from the scores
the log shows, and keeps the scores it had computed as a second track. A later
value of the log that matches that second track (the break was one wrong number
in the log, such as a tampered INIT) switches back without a new finding, so one
wrong number is one chain finding at most. A break right after a hand whose result
already had a finding (a wrong payment, a wrong tenpai set) names that finding as
its cause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analyzer.checks.audit_common import error
from analyzer.checks.audit_draws import is_tenpai
from analyzer.engine.state import GameReplay, RoundReplay
from mjaudit.events import DrawReason, RoundDraw, Win
from mjaudit.findings import Finding, JsonValue

__all__ = ["ChainState", "check_chain"]

Link = tuple[Finding, Finding]  # (a finding, the earlier finding it follows from)


@dataclass(slots=True)
class ChainState:
    """Where the chain stands after the last hand checked.

    ``alt`` is the chain's own scores where the log broke it and the chain went on
    from the log's; ``cause`` the finding of the last hand's result, if it had one;
    ``labels`` every (round, honba, sticks) the next hand may start with (two where
    the log's tenpai claim and the replayed hands disagree on the dealer);
    ``recomputed`` the scores had the last hand been settled as recomputed, where its
    recorded deltas differ from that (their own ``payment-mismatch``), else None;
    ``maybe`` what ``scores`` may still be off by, where a win was settled without
    knowing its ura han (see :class:`_Tracks`). ``label_free``: the last hand ended in
    a server's penalty (mjai.app's error draw), after which no reference says whether
    the dealer keeps the seat or what happens to the honba and the sticks, so the next
    hand's round, honba and sticks are taken as the log starts it (``labels`` hold both
    dealer readings, for the game's end).
    """

    scores: list[int]
    riichi_sticks: int
    honba: int
    round_index: int
    dealer: int
    alt: list[int] | None = None
    cause: Finding | None = None
    labels: tuple[tuple[int, int, int], ...] = field(default=())
    recomputed: list[int] | None = None
    maybe: tuple[tuple[int, ...], ...] = ()
    label_free: bool = False


def _points(scores: list[int], players: int) -> JsonValue:
    return list(scores[:players])


class _Tracks:
    """The chain's scores and, after a break, the other reading of them.

    ``maybe`` are the amounts the scores may be off by where a win was settled
    without knowing its ura han (a log that records neither them nor the win's
    value): the next scores the log shows that fit one of them settle it.
    """

    def __init__(
        self,
        basis: list[int],
        alt: list[int] | None,
        players: int,
        maybe: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        self.basis = basis
        self.alt = alt
        self.players = players
        self.maybe = maybe

    def agrees(self, shown: list[int]) -> bool:
        """Whether the log's ``shown`` scores fit; a fit with the other track switches."""
        n = self.players
        maybe, self.maybe = self.maybe, ()
        if shown[:n] == self.basis[:n]:
            return True
        for off in maybe:
            if all(shown[s] == self.basis[s] + off[s] for s in range(n)):
                self.basis = [b + o for b, o in zip(self.basis, off, strict=True)]
                return True
        if self.alt is not None and shown[:n] == self.alt[:n]:
            self.basis, self.alt = self.alt, self.basis
            return True
        return False

    def unsure(self, offs: list[tuple[int, ...]]) -> None:
        """One more result whose settlement may be off by any of ``offs``."""
        was = self.maybe
        both = [
            *was,
            *offs,
            *(tuple(a + b for a, b in zip(x, y, strict=True)) for x in was for y in offs),
        ]
        self.maybe = tuple(dict.fromkeys(o for o in both if any(o)))[:_MAYBE]

    def resync(self, shown: list[int]) -> None:
        """Go on from the log's scores, keeping the chain's own as the other track."""
        self.alt = self.basis
        self.basis = list(shown)
        self.maybe = ()

    def add(self, seat: int, points: int) -> None:
        self.basis[seat] += points
        if self.alt is not None:
            self.alt[seat] += points


# The most readings of unknown ura kept at once (two riichi winners of one discard:
# 12 x 12 and their sums).
_MAYBE = 256


def check_chain(
    game: GameReplay,
    path: str,
    settled: dict[int, tuple[int, ...]] | None = None,
    causes: Mapping[int, Finding] | None = None,
    links: list[Link] | None = None,
    start_points: int | None = None,
    at_results: Mapping[int, Sequence[Finding]] | None = None,
    label_breaks: dict[int, Finding] | None = None,
    whole_game: bool = False,
    unsure: Mapping[int, Sequence[tuple[int, ...]]] | None = None,
) -> tuple[list[Finding], ChainState | None, int]:
    """Findings of the chain, the state after the last hand, and the values compared.

    ``causes`` maps a result's event index to the first finding made about that
    result; a chain finding that follows from it is added to ``links``. A game that
    starts with its first hand (East 1, no honba, no sticks) starts every player at
    ``start_points`` (the rules'; None: not judged). ``at_results`` are the findings
    already made at each result (by event index): where a hand starts with other honba
    or sticks than the chain's, its payments found wrong follow from that; its finding
    is kept in ``label_breaks`` by the hand's first event, for the game's end to name.
    ``whole_game``: the format records a game from its first hand (an mjlog, a Mahjong
    Soul record), which is East 1 with no honba and no sticks. ``unsure``: the other
    settlements of wins settled without knowing their ura han (by event index), any
    of which the scores the log shows next may follow.
    """
    out: list[Finding] = []
    players = game.players
    state: ChainState | None = None
    compared = 0
    causes = causes or {}

    def follows(found: Finding, cause: Finding | None) -> None:
        out.append(found)
        if cause is not None and links is not None:
            links.append((found, cause))

    def empty_seat(rnd: RoundReplay, scores: Sequence[int] | None, at: int, what: str) -> None:
        """A three-player log states 0 for the empty fourth seat wherever it lists four
        scores (tenhou-format.md §1.5 `ten="350,350,350,0"`, §1.10 "4th pair 0,0"), as
        its deltas and final scores are judged to."""
        nonlocal compared
        if players == 4 or scores is None or len(scores) < 4:
            return
        compared += 1
        if scores[3] != 0:
            out.append(
                error(
                    rnd,
                    path,
                    "score-chain-mismatch",
                    f"{what} shows the empty fourth seat of a three-player game with "
                    f"{scores[3]} points, not 0",
                    at,
                    None,
                    0,
                    scores[3],
                )
            )

    def shown(
        rnd: RoundReplay,
        tracks: _Tracks,
        when: str,
        scores: Sequence[int],
        at: int,
        cause: Finding | None,
    ) -> None:
        """Scores a result shows ``when`` ("before", "after") its settlement, against
        the chain; the chain goes on from them."""
        seen = list(scores)
        if not tracks.agrees(seen):
            follows(
                error(
                    rnd,
                    path,
                    "score-chain-mismatch",
                    f"the result shows scores {when} settlement {seen[:players]}, the chain "
                    f"gives {tracks.basis[:players]}",
                    at,
                    None,
                    _points(tracks.basis, players),
                    seen[:players],
                ),
                cause,
            )
            tracks.resync(seen)

    for rnd in game.rounds:
        start = rnd.start
        idx = rnd.first_event
        tracks = _Tracks(list(start.scores), None, players)
        if start.scores_recorded:
            empty_seat(rnd, start.scores, idx, "the hand's start")
        if (
            state is None
            and rnd is game.rounds[0]
            and start_points is not None
            and start.scores_recorded
            and (start.round_index, start.honba, start.riichi_sticks) == (0, 0, 0)
        ):
            compared += players
            dealt = [start_points] * players
            if list(start.scores[:players]) != dealt:
                out.append(
                    error(
                        rnd,
                        path,
                        "score-chain-mismatch",
                        f"the game starts with scores {list(start.scores[:players])}, but the "
                        f"rules start every player at {start_points}",
                        idx,
                        None,
                        dealt,
                        list(start.scores[:players]),
                    )
                )
                tracks = _Tracks(list(start.scores), dealt + [0] * (4 - players), players)
        # A hand that starts with another round, honba or sticks than the chain's
        # (one wrong number in its start): what follows from that number names it.
        label_break: Finding | None = None
        wanted: tuple[int, int, int] | None = None
        first = (0, 0, 0)
        if state is not None or (whole_game and rnd is game.rounds[0]):
            have = (start.round_index, start.honba, start.riichi_sticks)
            compared += 1
            free = state is not None and state.label_free
            if not free and have not in (state.labels if state is not None else (first,)):
                want = state.labels[0] if state is not None else first
                said = (
                    f"the hand after the last one should be {_label(*want)} with {want[2]} sticks"
                    if state is not None
                    else f"the game's first hand should be {_label(*want)} with no sticks"
                )
                label_break = error(
                    rnd,
                    path,
                    "score-chain-mismatch",
                    f"{said}, the log starts {_label(*have)} with {have[2]} sticks",
                    idx,
                    None,
                    [want[0], want[1], want[2]],
                    [have[0], have[1], have[2]],
                )
                follows(label_break, state.cause if state is not None else None)
                wanted = want
                if label_breaks is not None:
                    label_breaks[idx] = label_break
                if (want[1], want[2]) != (have[1], have[2]) and at_results and links is not None:
                    # Paid with the start's honba or sticks, where the chain's differ.
                    for win in rnd.wins:
                        links.extend(
                            (f, label_break)
                            for f in at_results.get(win.event_index, ())
                            if f.code == "payment-mismatch"
                        )
        if state is not None:
            chain = _Tracks(list(state.scores), state.alt, players, state.maybe)
            if not start.scores_recorded:
                # Carried over from the last result's scores, compared there: both
                # readings go on, for the hand's own claims to choose.
                tracks = chain
            elif chain.agrees(list(start.scores)):
                compared += players
                tracks = _Tracks(chain.basis, None, players)
            else:
                compared += players
                follows(
                    error(
                        rnd,
                        path,
                        "score-chain-mismatch",
                        f"the hand starts with scores {list(start.scores[:players])}, but the "
                        f"last hand ended with {chain.basis[:players]}",
                        idx,
                        None,
                        _points(chain.basis, players),
                        _points(list(start.scores), players),
                    ),
                    state.cause,
                )
                tracks = _Tracks(list(start.scores), chain.basis, players)
        sticks = start.riichi_sticks
        for i, seat, claimed, stick in rnd.riichi_claims:
            tracks.add(seat, -1000)
            sticks += 1
            if stick is not None:
                compared += players
                paid = [-1000 if s == seat else 0 for s in range(players)]
                if list(stick[:players]) != paid:
                    out.append(
                        error(
                            rnd,
                            path,
                            "score-chain-mismatch",
                            f"seat {seat}'s riichi stick: the log's deltas are "
                            f"{list(stick[:players])}, a stick is {paid}",
                            i,
                            seat,
                            paid,
                            list(stick[:players]),
                        )
                    )
            if claimed is not None:
                compared += players
                empty_seat(rnd, claimed, i, f"seat {seat}'s riichi stick")
                if not tracks.agrees(list(claimed)):
                    out.append(
                        error(
                            rnd,
                            path,
                            "score-chain-mismatch",
                            f"after seat {seat}'s riichi stick the log shows scores "
                            f"{list(claimed[:players])}, the chain gives "
                            f"{tracks.basis[:players]}",
                            i,
                            seat,
                            _points(tracks.basis, players),
                            list(claimed[:players]),
                        )
                    )
                    tracks.resync(list(claimed))
        results: list[tuple[int, Win | RoundDraw]] = [(w.event_index, w.event) for w in rnd.wins]
        if rnd.draw is not None:
            results.append((rnd.draw.event_index, rnd.draw.event))
        if not results:
            state = None  # the hand broke off; the next hand starts a new chain
            continue
        won = False
        # A hand the log made impossible to replay: what the chain finds after it
        # (its result was settled from a broken replay) follows from that.
        cause: Finding | None = (
            None
            if rnd.complete
            else next((f for f in rnd.findings if f.code == "inconsistent-log"), None)
        )
        fix = [0] * 4  # recomputed minus recorded deltas of this hand's results
        for i, ev in results:
            claims = ev.claims
            if claims.scores_before is not None:
                # A double ron's second result starts where the first left off: a
                # wrong first payment is the cause of a break here.
                compared += players
                empty_seat(rnd, claims.scores_before, i, "the result before settlement")
                shown(rnd, tracks, "before", claims.scores_before, i, cause)
            cause = cause or causes.get(i)
            if claims.honba is not None and (claims.honba, claims.riichi_sticks) != (
                start.honba,
                sticks,
            ):
                follows(
                    error(
                        rnd,
                        path,
                        "score-chain-mismatch",
                        f"the result records {claims.honba} honba and {claims.riichi_sticks} "
                        f"sticks, the hand has {start.honba} honba and {sticks} sticks",
                        i,
                        None,
                        [start.honba, sticks],
                        [claims.honba, claims.riichi_sticks],
                    ),
                    label_break,
                )
            # A format without deltas (akochan's mjai) is followed with the
            # recomputed settlement: reconstructed, not invented.
            deltas = claims.deltas
            if deltas is None and settled is not None:
                deltas = settled.get(i)
                others = unsure.get(i) if unsure is not None else None
                if deltas is not None and others:
                    base = deltas
                    tracks.unsure([tuple(o[s] - base[s] for s in range(len(base))) for o in others])
            if deltas is not None:
                for s in range(4):
                    tracks.add(s, deltas[s])
                own = settled.get(i) if settled is not None else None
                if own is not None:
                    for s in range(4):
                        fix[s] += own[s] - deltas[s]
            if claims.scores_after is not None:
                compared += players
                empty_seat(rnd, claims.scores_after, i, "the result after settlement")
                shown(rnd, tracks, "after", claims.scores_after, i, cause)
            if isinstance(ev, Win):
                won = True
                # Tenhou: the winner nearest the discarder takes all the sticks, so
                # a second ron on the same discard records none (tenhou-format.md §1.10).
                sticks = 0
        dealer = start.dealer
        penalty = not won and rnd.draw is not None and rnd.draw.event.reason is DrawReason.PENALTY
        if won:
            sticks = 0
            dealer_won = any(w.seat == dealer for w in rnd.wins)
            honba = start.honba + 1 if dealer_won else 0
            stays: tuple[bool, ...] = (dealer_won,)
        else:
            assert rnd.draw is not None
            dealer_won = False
            honba = start.honba + 1
            stays = _dealer_stays(rnd, players)
        index = start.round_index
        labels = tuple(
            (index if renchan else _next_round(index, players), honba, sticks) for renchan in stays
        )
        if wanted is not None:
            # The hand's start broke the chain: the next hand may follow the chain's
            # reading of it as well as the log's, without a second finding.
            w_index, w_honba = wanted[0], wanted[1]
            w_next = w_honba + 1 if not won or dealer_won else 0
            # The sticks left on the table: none after a win; after a draw, the
            # chain's at the start and those the hand's riichi added.
            w_sticks = 0 if won else sticks - start.riichi_sticks + wanted[2]
            more = tuple(
                (w_index if renchan else _next_round(w_index, players), w_next, w_sticks)
                for renchan in stays
            )
            labels += tuple(label for label in more if label not in labels)
        renchan = stays[0]
        next_dealer = dealer if renchan else (dealer + 1) % players
        recomputed = [tracks.basis[s] + fix[s] for s in range(4)] if any(fix) else None
        state = ChainState(
            tracks.basis,
            sticks,
            honba,
            labels[0][0],
            next_dealer,
            tracks.alt,
            cause,
            labels,
            recomputed,
            tracks.maybe,
            penalty,
        )
    return out, state, compared


def _dealer_stays(rnd: RoundReplay, players: int) -> tuple[bool, ...]:
    """Whether the dealer keeps the seat after the hand's draw: the replay's answer
    first, and the log's own where its tenpai claim says otherwise.

    Tenhou: the dealer keeps the seat after an abortive draw, and after an exhaustive
    draw only when tenpai. A log whose tenpai claim disagrees with the replayed hands
    (a converter's wrong tenpai set) has its own finding at the draw; the next hand
    may follow either reading without a second one.
    """
    assert rnd.draw is not None
    rec = rnd.draw
    draw = rec.event
    if draw.reason.abortive:
        return (True,)
    if draw.reason is DrawReason.PENALTY:
        # mjai.app goes on with the next hand (mjai-format.md §6.2); whether the dealer
        # keeps the seat there, no reference says: either reading.
        return (True, False)
    dealer = rnd.start.dealer
    replayed = is_tenpai(rec.concealed[dealer], [t for m in rec.melds[dealer] for t in m.tiles])
    claimed = draw.claims.tenpai
    if claimed is None or (dealer in claimed) == replayed:
        return (replayed,)
    return (replayed, dealer in claimed)


def _next_round(round_index: int, players: int) -> int:
    """The round after a dealer change; three-player games have no fourth hand per wind."""
    if round_index % 4 + 1 >= players:
        return (round_index // 4 + 1) * 4
    return round_index + 1


def _label(round_index: int, honba: int, sticks: int) -> str:
    del sticks
    return f"{'ESWN'[(round_index // 4) % 4]}{round_index % 4 + 1}-{honba}"
