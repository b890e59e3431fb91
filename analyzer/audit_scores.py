"""The score chain: each hand's scores, honba and sticks follow from the last hand.

The chain is built from what the log itself says happened (its recorded deltas),
so one wrong number gives one finding where it is wrong, not a cascade: a
tampered delta is a ``payment-mismatch`` of its hand (see the win and draw
checks), while a hand whose starting scores do not follow from the hand before is
a ``score-chain-mismatch`` here.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.audit_common import error
from analyzer.audit_draws import is_tenpai
from analyzer.state import GameReplay
from mjaudit.events import RoundDraw, Win
from mjaudit.findings import Finding, JsonValue

__all__ = ["ChainState", "check_chain"]


@dataclass(slots=True)
class ChainState:
    """Where the chain stands after the last hand checked."""

    scores: list[int]
    riichi_sticks: int
    honba: int
    round_index: int
    dealer: int


def _points(scores: list[int], players: int) -> JsonValue:
    return list(scores[:players])


def check_chain(
    game: GameReplay, path: str, settled: dict[int, tuple[int, ...]] | None = None
) -> tuple[list[Finding], ChainState | None, int]:
    """Findings of the chain, the state after the last hand, and the values compared."""
    out: list[Finding] = []
    players = game.players
    state: ChainState | None = None
    compared = 0
    for rnd in game.rounds:
        start = rnd.start
        idx = rnd.first_event
        basis = list(start.scores)
        if state is not None:
            want = (state.round_index, state.honba, state.riichi_sticks)
            have = (start.round_index, start.honba, start.riichi_sticks)
            compared += 1
            if have != want:
                out.append(
                    error(
                        rnd,
                        path,
                        "score-chain-mismatch",
                        f"the hand after the last one should be {_label(*want)} with "
                        f"{want[2]} sticks, the log starts {_label(*have)} with {have[2]} sticks",
                        idx,
                        None,
                        [want[0], want[1], want[2]],
                        [have[0], have[1], have[2]],
                    )
                )
            compared += players
            if basis[:players] != state.scores[:players]:
                out.append(
                    error(
                        rnd,
                        path,
                        "score-chain-mismatch",
                        f"the hand starts with scores {basis[:players]}, but the last hand "
                        f"ended with {state.scores[:players]}",
                        idx,
                        None,
                        _points(state.scores, players),
                        _points(basis, players),
                    )
                )
                basis = list(state.scores)  # follow the log's own results
        sticks = start.riichi_sticks
        for i, seat, claimed in rnd.riichi_claims:
            basis[seat] -= 1000
            sticks += 1
            if claimed is not None:
                compared += players
                if list(claimed[:players]) != basis[:players]:
                    out.append(
                        error(
                            rnd,
                            path,
                            "score-chain-mismatch",
                            f"after seat {seat}'s riichi stick the log shows scores "
                            f"{list(claimed[:players])}, the chain gives {basis[:players]}",
                            i,
                            seat,
                            _points(basis, players),
                            list(claimed[:players]),
                        )
                    )
        results: list[tuple[int, Win | RoundDraw]] = [(w.event_index, w.event) for w in rnd.wins]
        if rnd.draw is not None:
            results.append((rnd.draw.event_index, rnd.draw.event))
        if not results:
            state = None  # the hand broke off; the next hand starts a new chain
            continue
        won = False
        for i, ev in results:
            claims = ev.claims
            if claims.scores_before is not None:
                compared += players
                if list(claims.scores_before[:players]) != basis[:players]:
                    out.append(
                        error(
                            rnd,
                            path,
                            "score-chain-mismatch",
                            f"the result shows scores before settlement "
                            f"{list(claims.scores_before[:players])}, the chain gives "
                            f"{basis[:players]}",
                            i,
                            None,
                            _points(basis, players),
                            list(claims.scores_before[:players]),
                        )
                    )
            if claims.honba is not None and (claims.honba, claims.riichi_sticks) != (
                start.honba,
                sticks,
            ):
                out.append(
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
                    )
                )
            # A format without deltas (akochan's mjai) is followed with the
            # recomputed settlement: reconstructed, not invented.
            deltas = claims.deltas
            if deltas is None and settled is not None:
                deltas = settled.get(i)
            if deltas is not None:
                for s in range(4):
                    basis[s] += deltas[s]
            if isinstance(ev, Win):
                won = True
                # Tenhou: the winner nearest the discarder takes all the sticks, so
                # a second ron on the same discard records none (tenhou-format.md §1.10).
                sticks = 0
        dealer = start.dealer
        if won:
            sticks = 0
            dealer_won = any(w.seat == dealer for w in rnd.wins)
            renchan = dealer_won
            honba = start.honba + 1 if dealer_won else 0
        else:
            assert rnd.draw is not None
            draw = rnd.draw.event
            honba = start.honba + 1
            if draw.reason.abortive:
                renchan = True
            else:
                # Tenhou: the dealer keeps the seat after a draw only when tenpai.
                tenpai = draw.claims.tenpai
                if tenpai is None:  # the format does not say (Tenhou JSON nagashi)
                    rec = rnd.draw
                    tenpai = tuple(
                        s
                        for s in range(players)
                        if is_tenpai(rec.concealed[s], [t for m in rec.melds[s] for t in m.tiles])
                    )
                renchan = dealer in tenpai
        next_index = start.round_index if renchan else _next_round(start.round_index, players)
        next_dealer = dealer if renchan else (dealer + 1) % players
        state = ChainState(basis, sticks, honba, next_index, next_dealer)
    return out, state, compared


def _next_round(round_index: int, players: int) -> int:
    """The round after a dealer change; three-player games have no fourth hand per wind."""
    if round_index % 4 + 1 >= players:
        return (round_index // 4 + 1) * 4
    return round_index + 1


def _label(round_index: int, honba: int, sticks: int) -> str:
    del sticks
    return f"{'ESWN'[(round_index // 4) % 4]}{round_index % 4 + 1}-{honba}"
