"""Player statistics across games: facts per seat and game, then totals by player name.

Every statistic has one definition, in :data:`DEFINITIONS`, shown on hover in the
player page and listed in docs/statistics.md. In short:

- a *round* is one hand played to its end, abortive draws included;
- a double (or triple) ron is one win for each winner and one deal-in round for
  the discarder; each winner's hand value counts once in the deal-in points;
- a double riichi is a riichi; a concealed kan and kita are not calls;
- hand values are the log's points without honba and riichi sticks (recomputed
  where the log does not say).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mjaudit.events import DeclareMeld
from mjaudit.melds import MeldKind
from mjaudit.yaku import BONUS_YAKU
from reports.views_facts import GameFacts

__all__ = ["DEFINITIONS", "PlayerTotals", "SeatGame", "WinFact", "seat_games", "totals_by_player"]

FURITEN_NOTES = frozenset({"ron-while-furiten", "riichi-while-furiten", "discard-into-furiten"})
MISSED_WINS = frozenset({"missed-ron", "missed-tsumo"})

DEFINITIONS: dict[str, str] = {
    "games": "Games in which the player took a seat.",
    "rounds": "Rounds played to their end, abortive draws included.",
    "average placement": "Mean final placement; ties go to the seat nearer the first dealer.",
    "placement": "Games finished in each place, and their share of all games.",
    "win rate": "Rounds the player won / rounds. Each winner of a double ron wins once.",
    "tsumo rate": "Wins by tsumo / wins.",
    "deal-in rate": "Rounds in which the player's discard (or robbed kan) was won on / rounds. "
    "A double ron is one deal-in round.",
    "riichi rate": "Rounds in which the player's riichi was accepted / rounds. "
    "Double riichi counts.",
    "call rate": "Rounds in which the player made at least one chi, pon or open kan / rounds. "
    "Concealed kans and kita are not calls.",
    "average win": "Mean value of the player's winning hands: the log's points, without honba "
    "and riichi sticks.",
    "average deal-in": "Mean value of the hands the player dealt into, each winner of a double "
    "ron counted once, without honba and riichi sticks.",
    "furiten": "Furiten findings for the player: ron while furiten, riichi while furiten, "
    "discards into furiten. Needs the furiten tracker.",
    "missed wins": "Wins the player could have taken and did not (missed ron, missed tsumo). "
    "Needs the furiten tracker.",
    "yaku": "How often each yaku appears in the player's wins (dora not counted).",
    "han": "The han of each win; yakuman hands in their own column.",
    "fu": "The fu of each win that is not a yakuman.",
    "points": "Points after uma and oka at the end of each game, added up in input order.",
}


@dataclass(frozen=True, slots=True)
class WinFact:
    points: int
    han: int
    fu: int
    yakuman: bool
    tsumo: bool
    yaku: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatGame:
    """One player's facts in one game."""

    name: str
    page: str
    game_id: str
    seat: int
    players: int
    place: int | None
    final_score: int | None
    result: float | None
    rounds: int
    wins: tuple[WinFact, ...]
    deal_in_rounds: int
    deal_in_points: tuple[int, ...]
    riichi_rounds: int
    call_rounds: int
    furiten: int | None
    missed_wins: int | None
    errors: int


def _win_fact(facts: GameFacts, r: int, k: int) -> WinFact:
    w = facts.wins[r][k]
    claims = w.record.event.claims
    result = w.result
    points = claims.points if claims.points is not None else (result.total if result else 0)
    if result is not None:
        yakuman = bool(result.yakuman)
        han, fu = result.han, result.fu
        yaku = tuple(y.yaku.label for y in result.yaku)
    else:
        yakuman = bool(claims.yakuman)
        han, fu = claims.han or 0, claims.fu or 0
        yaku = tuple(y.label for y, _ in (claims.yaku or ()) if y not in BONUS_YAKU) + tuple(
            y.label for y in (claims.yakuman or ())
        )
    return WinFact(points, han, fu, yakuman, w.record.tsumo, yaku)


def seat_games(facts: GameFacts, page: str) -> tuple[SeatGame, ...]:
    players = facts.players
    game = facts.game
    events = facts.log.events
    places = facts.placements()
    wins: dict[int, list[WinFact]] = {s: [] for s in range(players)}
    deal_in_rounds = Counter[int]()
    deal_in_points: dict[int, list[int]] = {s: [] for s in range(players)}
    riichi = Counter[int]()
    calls = Counter[int]()
    for r, rnd in enumerate(game.rounds):
        fed: set[int] = set()
        for k, w in enumerate(facts.wins[r]):
            fact = _win_fact(facts, r, k)
            rec = w.record
            wins[rec.seat].append(fact)
            if not rec.tsumo:
                fed.add(rec.from_seat)
                deal_in_points[rec.from_seat].append(fact.points)
        for s in fed:
            deal_in_rounds[s] += 1
        for s in set(rnd.riichi_seats):
            riichi[s] += 1
        last = rnd.last_event if rnd.last_event >= 0 else len(events) - 1
        callers = {
            ev.seat
            for ev in events[rnd.first_event : last + 1]
            if isinstance(ev, DeclareMeld)
            and ev.meld.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
        }
        for s in callers:
            calls[s] += 1
    out = []
    for s in range(players):
        mine = [f for f in facts.findings if f.seat == s]
        out.append(
            SeatGame(
                name=facts.names[s],
                page=page,
                game_id=facts.log.start.game_id,
                seat=s,
                players=players,
                place=places[s] if places is not None else None,
                final_score=facts.final_scores[s] if facts.final_scores is not None else None,
                result=facts.results[s] if facts.results is not None else None,
                rounds=len(game.rounds),
                wins=tuple(wins[s]),
                deal_in_rounds=deal_in_rounds[s],
                deal_in_points=tuple(deal_in_points[s]),
                riichi_rounds=riichi[s],
                call_rounds=calls[s],
                furiten=sum(1 for f in mine if f.code in FURITEN_NOTES)
                if facts.furiten_known
                else None,
                missed_wins=sum(1 for f in mine if f.code in MISSED_WINS)
                if facts.furiten_known
                else None,
                errors=sum(1 for f in mine if f.severity.value == "error"),
            )
        )
    return tuple(out)


@dataclass(slots=True)
class PlayerTotals:
    name: str
    games: list[SeatGame] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return sum(g.rounds for g in self.games)

    @property
    def wins(self) -> list[WinFact]:
        return [w for g in self.games for w in g.wins]

    @property
    def deal_in_rounds(self) -> int:
        return sum(g.deal_in_rounds for g in self.games)

    @property
    def deal_in_points(self) -> list[int]:
        return [p for g in self.games for p in g.deal_in_points]

    @property
    def riichi_rounds(self) -> int:
        return sum(g.riichi_rounds for g in self.games)

    @property
    def call_rounds(self) -> int:
        return sum(g.call_rounds for g in self.games)

    @property
    def places(self) -> Counter[int]:
        return Counter(g.place for g in self.games if g.place is not None)

    @property
    def furiten(self) -> int | None:
        known = [g.furiten for g in self.games if g.furiten is not None]
        return sum(known) if known else None

    @property
    def missed_wins(self) -> int | None:
        known = [g.missed_wins for g in self.games if g.missed_wins is not None]
        return sum(known) if known else None

    def average_place(self) -> float | None:
        placed = [g.place for g in self.games if g.place is not None]
        return sum(placed) / len(placed) if placed else None

    def yaku(self) -> Counter[str]:
        return Counter(y for w in self.wins for y in w.yaku)

    def han(self) -> Counter[str]:
        return Counter("yakuman" if w.yakuman else str(w.han) for w in self.wins)

    def fu(self) -> Counter[int]:
        return Counter(w.fu for w in self.wins if not w.yakuman)


def totals_by_player(
    seats: Sequence[SeatGame], only: str | None = None
) -> tuple[PlayerTotals, ...]:
    """Totals per player name, most games first, then by name."""
    by_name: dict[str, PlayerTotals] = {}
    for g in seats:
        if only is not None and g.name != only:
            continue
        by_name.setdefault(g.name, PlayerTotals(g.name)).games.append(g)
    return tuple(sorted(by_name.values(), key=lambda p: (-len(p.games), p.name)))
