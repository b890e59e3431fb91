"""Player statistics across games: one row per seat and game, then totals by player name.

:func:`seat_games` reads one game's facts (the audit's records: its replay, its
findings, what it derived for each win) into small picklable :class:`SeatGame` rows,
one per seat; nothing here replays or scores a hand. :func:`select_rows` keeps the
rows of a date range and a rules preset or room; :func:`totals_by_player` adds the
rows up by player name.

Every statistic has one definition, in :data:`DEFINITIONS`, shown on hover in the
players page and listed in docs/statistics.md. In short:

- a *round* is one hand played to its end, abortive draws included;
- a player's games are counted once per game; every per-round number counts seats,
  so a name seated twice in one game (``NoName``, ``AI``) plays each round twice;
- a double (or triple) ron is one win for each winner and one deal-in round for
  the discarder; each winner's hand value counts once in the deal-in points;
- a double riichi is a riichi; a concealed kan and kita are not calls;
- hand values are the log's points without honba and riichi sticks (recomputed
  where the log does not say).
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from analyzer.engine.state import RoundReplay
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DrawReason,
    GameLog,
    RiichiAccepted,
    RoundDraw,
    Win,
    WinClaims,
)
from mjaudit.findings import Severity
from mjaudit.melds import MeldKind
from mjaudit.yaku import BONUS_YAKU
from reports.i18n import yaku_name
from reports.views_facts import GameFacts

__all__ = [
    "DEFINITIONS",
    "PlayerTotals",
    "SeatGame",
    "WinFact",
    "game_date",
    "lobby_names",
    "seat_games",
    "select_rows",
    "totals_by_player",
]

FURITEN_NOTES = frozenset({"ron-while-furiten", "riichi-while-furiten", "discard-into-furiten"})
MISSED_WINS = frozenset({"missed-ron", "missed-tsumo"})

DEFINITIONS: dict[str, str] = {
    "games": "Games in which the player took a seat, each game once however many seats the "
    "name took.",
    "rounds": "Rounds played to their end, abortive draws included, in every seat the player took.",
    "average placement": "Mean final placement; ties go to the seat nearer the first dealer.",
    "first place rate": "Games finished first / placed seats.",
    "last place rate": "Games finished last (fourth, or third at a three-player table) / "
    "placed seats.",
    "placement": "Games finished in each place, and their share of all placed seats.",
    "rank trend": "Placements in game order (by date where the logs give one), the mean of "
    "the first and of the last ten, and the dan and rating the logs record at the first "
    "and the last game.",
    "win rate": "Rounds the player won / rounds. Each winner of a double ron wins once.",
    "tsumo rate": "Wins by tsumo / wins.",
    "deal-in rate": "Rounds in which the player's discard (or robbed kan) was won on / rounds. "
    "A double ron is one deal-in round.",
    "riichi rate": "Rounds in which the player's riichi was accepted / rounds. "
    "Double riichi counts.",
    "riichi win rate": "Riichi rounds the player won / riichi rounds.",
    "deal-in after riichi": "Riichi rounds in which the player dealt in after the riichi / "
    "riichi rounds.",
    "first riichi": "Riichi rounds in which no other player was in riichi yet / riichi rounds.",
    "chasing riichi": "Riichi rounds in which another player was already in riichi / "
    "riichi rounds.",
    "dama wins": "Wins with a concealed hand and no riichi / wins.",
    "open-hand rate": "Rounds in which the player made at least one chi, pon or open kan / "
    "rounds. Concealed kans and kita are not calls.",
    "open-hand win rate": "Open-hand rounds the player won / open-hand rounds.",
    "average winning turn": "Mean turn of the player's wins: the player's own discards in the "
    "round before the win, plus one.",
    "average win": "Mean value of the player's winning hands: the log's points, without honba "
    "and riichi sticks.",
    "average deal-in": "Mean value of the hands the player dealt into, each winner of a double "
    "ron counted once, without honba and riichi sticks.",
    "tenpai at draw": "Exhaustive draws at which the player was tenpai / exhaustive draws, as "
    "the log declares and the audit checked (nagashi mangan and abortive draws left out).",
    "furiten": "Furiten findings for the player (ron while furiten, riichi while furiten, "
    "discards into furiten) / rounds. Needs the furiten tracker.",
    "missed wins": "Wins the player could have taken and did not (missed ron, missed tsumo) "
    "/ rounds. Needs the furiten tracker.",
    "yaku": "Wins with each yaku / wins: the share of the player's wins that had it (dora not "
    "counted; a win has several yaku, so the shares add up to more than 100%).",
    "han": "The han of each win; yakuman hands in their own column.",
    "fu": "The fu of each win that is not a yakuman.",
    "points": "Points after uma and oka at the end of each game, added up in game order.",
}


@dataclass(frozen=True, slots=True)
class WinFact:
    """One win of one seat: its value as the log gives it and how it was made."""

    points: int
    han: int
    fu: int
    yakuman: bool
    tsumo: bool
    yaku: tuple[str, ...]  # each yaku once, dora not included
    riichi: bool = False
    open: bool = False
    turn: int = 0  # the winner's discards in the round before the win, plus one


@dataclass(frozen=True, slots=True)
class SeatGame:
    """One seat's facts in one game, and what the index needs of the game.

    Small and picklable: strings, numbers and tuples of them, so that worker
    processes can hand them to the process that adds them up.
    """

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
    # -- riichi, open hands and draws
    riichi_first: int = 0
    riichi_wins: int = 0
    riichi_deal_ins: int = 0
    open_wins: int = 0
    draws: int = 0  # exhaustive draws the seat played
    draws_tenpai: int | None = 0  # None: the log does not say who was tenpai
    # -- the game, for filters and the index (the same in every seat's row)
    source: str = ""
    date: str | None = None  # YYYY-MM-DD, from the game's id (game_date)
    rules: str = ""  # the rules preset the game was audited under
    room: str = ""  # the lobby or room as the log names it (``houou``, ``jade``)
    category: str = ""  # Mahjong Soul's kind of room (``ranked``, ``friendly``, ``ai``)
    room_text: str = ""  # the room as the report words it
    game_errors: int = 0
    game_warnings: int = 0
    game_notes: int = 0
    # -- the seat's rank as the log records it at this game
    dan: str | None = None
    rate: float | None = None


_TENHOU_ID = re.compile(r"(?<![0-9])(\d{4})(\d{2})(\d{2})(\d{2})gm-")
_MAHJONGSOUL_UUID = re.compile(r"^(\d{2})(\d{2})(\d{2})-[0-9a-f]{8}-")


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return None


def game_date(game_id: str) -> str | None:
    """The date a game was played, ``YYYY-MM-DD``, from its id, or None.

    A Tenhou id (an mjlog's name, a Tenhou JSON's ``ref``, an mjai log's ``log=``)
    starts with ``yyyymmddhh`` followed by ``gm-``; a Mahjong Soul record's uuid
    starts with its start date ``yymmdd``. Other ids carry no date.
    """
    m = _TENHOU_ID.search(game_id)
    if m is not None:
        return _iso(int(m[1]), int(m[2]), int(m[3]))
    m = _MAHJONGSOUL_UUID.match(game_id)
    if m is not None:
        return _iso(2000 + int(m[1]), int(m[2]), int(m[3]))
    return None


def _win_fact(facts: GameFacts, r: int, k: int, riichi: bool, turn: int) -> WinFact:
    w = facts.wins[r][k]
    claims = w.record.event.claims
    result = w.result
    points = claims.points if claims.points is not None else (result.total if result else 0)
    if result is not None:
        yakuman = bool(result.yakuman)
        han, fu = result.han, result.fu
        labels = [yaku_name(y.yaku) for y in result.yaku if y.yaku not in BONUS_YAKU]
    else:
        yakuman = bool(claims.yakuman)
        han, fu = claims.han or 0, claims.fu or 0
        labels = _claimed_labels(claims)
    return WinFact(
        points=points,
        han=han,
        fu=fu,
        yakuman=yakuman,
        tsumo=w.record.tsumo,
        yaku=tuple(dict.fromkeys(labels)),
        riichi=riichi,
        open=any(m.is_open for m in w.record.melds),
        turn=turn,
    )


@dataclass(slots=True)
class _SeatCounts:
    wins: list[WinFact] = field(default_factory=list)
    deal_in_rounds: int = 0
    deal_in_points: list[int] = field(default_factory=list)
    riichi_rounds: int = 0
    riichi_first: int = 0
    riichi_wins: int = 0
    riichi_deal_ins: int = 0
    call_rounds: int = 0
    open_wins: int = 0
    draws: int = 0
    draws_tenpai: int | None = 0


_OPEN_CALLS = (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)


def _claimed_labels(claims: WinClaims) -> list[str]:
    """The yaku a win's log lists, by name, dora left out."""
    labels = [yaku_name(y) for y, _ in (claims.yaku or ()) if y not in BONUS_YAKU]
    return labels + [yaku_name(y) for y in (claims.yakuman or ())]


def _claimed_win(ev: Win, riichi: bool, open_hand: bool, turn: int) -> WinFact:
    """A win of a hand the replay could not follow, as the log records it."""
    claims = ev.claims
    labels = _claimed_labels(claims)
    return WinFact(
        points=claims.points or 0,
        han=claims.han or 0,
        fu=claims.fu or 0,
        yakuman=bool(claims.yakuman),
        tsumo=ev.tsumo,
        yaku=tuple(dict.fromkeys(labels)),
        riichi=riichi,
        open=open_hand,
        turn=turn,
    )


def _broken_round(
    facts: GameFacts, rnd: RoundReplay
) -> tuple[list[int], list[int], list[tuple[int, int, WinFact]]]:
    """The riichi, the callers and the wins (seat, from seat, win) of a hand the log
    made impossible to replay, read off its own events (as the store's hands rows
    are): the replay's records of it stop where it broke."""
    events = facts.log.events
    riichi: list[int] = []
    callers: list[int] = []
    wins: list[tuple[int, int, WinFact]] = []
    for i in rnd.other_events:
        ev = events[i]
        if isinstance(ev, RiichiAccepted) and ev.seat not in riichi:
            riichi.append(ev.seat)
        elif isinstance(ev, DeclareMeld) and ev.meld.kind in _OPEN_CALLS:
            if ev.seat not in callers:
                callers.append(ev.seat)
        elif isinstance(ev, Win):
            turn = 1 + sum(
                1
                for e in events[rnd.first_event : i]
                if isinstance(e, Discard) and e.seat == ev.seat
            )
            fact = _claimed_win(ev, ev.seat in riichi, ev.seat in callers, turn)
            wins.append((ev.seat, ev.from_seat, fact))
    return riichi, callers, wins


def _count_rounds(facts: GameFacts) -> tuple[list[_SeatCounts], int]:
    """Each seat's counts, read from what the audit's replay recorded of each hand,
    and the number of rounds played to their end."""
    players = facts.players
    counts = [_SeatCounts() for _ in range(players)]
    played = 0
    hands = facts.audit.hands
    for r, rnd in enumerate(facts.game.rounds):
        # A hand the log stops in (a server stopped the game) has no result: no round
        # played (statistics.md), as the audit's record of the hand says.
        if r < len(hands) and hands[r].result is None:
            continue
        played += 1
        if rnd.complete:
            callers = rnd.callers  # each seat once
            riichi = list(dict.fromkeys(rnd.riichi_seats))
            wins = [
                (
                    w.record.seat,
                    w.record.from_seat,
                    _win_fact(facts, r, k, w.record.seat in riichi, w.record.discards + 1),
                )
                for k, w in enumerate(facts.wins[r])
            ]
        else:
            riichi, callers, wins = _broken_round(facts, rnd)
        for n, s in enumerate(riichi):
            counts[s].riichi_rounds += 1
            if n == 0:
                counts[s].riichi_first += 1
        for s in callers:
            counts[s].call_rounds += 1
        fed: set[int] = set()
        won: set[int] = set()
        for seat, from_seat, fact in wins:
            counts[seat].wins.append(fact)
            won.add(seat)
            if from_seat != seat:
                fed.add(from_seat)
                counts[from_seat].deal_in_points.append(fact.points)
        for s in fed:
            counts[s].deal_in_rounds += 1
            if s in riichi:
                counts[s].riichi_deal_ins += 1
        for s in won:
            if s in riichi:
                counts[s].riichi_wins += 1
            if s in callers:
                counts[s].open_wins += 1
        draw = rnd.draw.event if rnd.draw is not None else None
        if draw is None and not rnd.complete:
            draw = next(
                (e for i in rnd.other_events if isinstance(e := facts.log.events[i], RoundDraw)),
                None,
            )
        if draw is not None and draw.reason is DrawReason.EXHAUSTIVE:
            tenpai = draw.claims.tenpai
            for s in range(players):
                c = counts[s]
                c.draws += 1
                if tenpai is None or c.draws_tenpai is None:
                    c.draws_tenpai = None
                elif s in tenpai:
                    c.draws_tenpai += 1
    return counts, played


def _room(log: GameLog) -> tuple[str, str, str]:
    hint = log.start.rules_hint
    return hint.room or "", hint.category or "", hint.description


def seat_games(facts: GameFacts, page: str) -> tuple[SeatGame, ...]:
    """One row per seat of one game, from the audit's records (no replay of its own)."""
    players = facts.players
    places = facts.placements()
    counts, played = _count_rounds(facts)
    severities = Counter(f.severity for f in facts.findings)
    start = facts.log.start
    room, category, room_text = _room(facts.log)
    out = []
    for s in range(players):
        c = counts[s]
        mine = [f for f in facts.findings if f.seat == s]
        info = start.players[s] if s < len(start.players) else None
        out.append(
            SeatGame(
                name=facts.names[s],
                page=page,
                game_id=start.game_id,
                seat=s,
                players=players,
                place=places[s] if places is not None else None,
                final_score=facts.final_scores[s] if facts.final_scores is not None else None,
                result=facts.results[s] if facts.results is not None else None,
                rounds=played,
                wins=tuple(c.wins),
                deal_in_rounds=c.deal_in_rounds,
                deal_in_points=tuple(c.deal_in_points),
                riichi_rounds=c.riichi_rounds,
                call_rounds=c.call_rounds,
                furiten=sum(1 for f in mine if f.code in FURITEN_NOTES)
                if facts.furiten_known
                else None,
                missed_wins=sum(1 for f in mine if f.code in MISSED_WINS)
                if facts.furiten_known
                else None,
                errors=sum(1 for f in mine if f.severity is Severity.ERROR),
                riichi_first=c.riichi_first,
                riichi_wins=c.riichi_wins,
                riichi_deal_ins=c.riichi_deal_ins,
                open_wins=c.open_wins,
                draws=c.draws,
                draws_tenpai=c.draws_tenpai,
                source=facts.log.path.replace("\\", "/").rsplit("/", 1)[-1],
                date=game_date(start.game_id),
                rules=facts.rules.name,
                room=room,
                category=category,
                room_text=room_text,
                game_errors=severities[Severity.ERROR],
                game_warnings=severities[Severity.WARNING],
                game_notes=severities[Severity.INFO],
                dan=info.dan if info is not None else None,
                rate=info.rate if info is not None else None,
            )
        )
    return tuple(out)


def _day(value: datetime.date | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime.date):
        return value.isoformat()
    return datetime.date.fromisoformat(value).isoformat()  # ValueError names a bad date


def lobby_names(row: SeatGame) -> tuple[str, ...]:
    """The names ``--lobby`` finds a game's row by: its rules preset, its room as the log
    names it and its kind of room, where known."""
    return tuple(n for n in (row.rules, row.room, row.category) if n)


def select_rows(
    rows: Iterable[SeatGame],
    *,
    since: datetime.date | str | None = None,
    until: datetime.date | str | None = None,
    rules: str | Sequence[str] | None = None,
    min_games: int = 0,
) -> tuple[SeatGame, ...]:
    """The rows of the games played from ``since`` to ``until`` (both days included)
    under ``rules``, then only the rows of the players with at least ``min_games``
    games among them.

    ``rules`` names a rules preset (``tenhou``, ``mahjongsoul-sanma``), a room as the
    log names it (``houou``, ``jade``) or a Mahjong Soul kind of room (``ranked``,
    ``friendly``, ``tournament``, ``ai``), case-insensitive; several may be given. A
    game whose id gives no date (:func:`game_date`) is kept while neither ``since``
    nor ``until`` is given, and left out as soon as one is: it cannot be shown to be
    in the range.
    """
    first, last = _day(since), _day(until)
    wanted: frozenset[str] | None = None
    if rules is not None:
        names = (rules,) if isinstance(rules, str) else tuple(rules)
        wanted = frozenset(n.casefold() for n in names)
    kept = []
    for row in rows:
        if first is not None or last is not None:
            if row.date is None:
                continue
            if first is not None and row.date < first:
                continue
            if last is not None and row.date > last:
                continue
        if wanted is not None and wanted.isdisjoint(n.casefold() for n in lobby_names(row)):
            continue
        kept.append(row)
    if min_games > 1:
        games: dict[str, set[str]] = {}
        for row in kept:
            games.setdefault(row.name, set()).add(row.page)
        kept = [row for row in kept if len(games[row.name]) >= min_games]
    return tuple(kept)


@dataclass(slots=True)
class PlayerTotals:
    """One player's rows (one per seat taken), in game order."""

    name: str
    seats: list[SeatGame] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played, each once however many seats the name took in it."""
        return len({g.page for g in self.seats})

    @property
    def rounds(self) -> int:
        return sum(g.rounds for g in self.seats)

    @property
    def wins(self) -> list[WinFact]:
        return [w for g in self.seats for w in g.wins]

    @property
    def deal_in_rounds(self) -> int:
        return sum(g.deal_in_rounds for g in self.seats)

    @property
    def deal_in_points(self) -> list[int]:
        return [p for g in self.seats for p in g.deal_in_points]

    @property
    def riichi_rounds(self) -> int:
        return sum(g.riichi_rounds for g in self.seats)

    @property
    def riichi_first(self) -> int:
        return sum(g.riichi_first for g in self.seats)

    @property
    def riichi_wins(self) -> int:
        return sum(g.riichi_wins for g in self.seats)

    @property
    def riichi_deal_ins(self) -> int:
        return sum(g.riichi_deal_ins for g in self.seats)

    @property
    def call_rounds(self) -> int:
        return sum(g.call_rounds for g in self.seats)

    @property
    def open_wins(self) -> int:
        return sum(g.open_wins for g in self.seats)

    @property
    def draws(self) -> int:
        return sum(g.draws for g in self.seats if g.draws_tenpai is not None)

    @property
    def draws_tenpai(self) -> int:
        return sum(g.draws_tenpai for g in self.seats if g.draws_tenpai is not None)

    @property
    def places(self) -> Counter[int]:
        return Counter(g.place for g in self.seats if g.place is not None)

    @property
    def furiten(self) -> int | None:
        known = [g.furiten for g in self.seats if g.furiten is not None]
        return sum(known) if known else None

    @property
    def missed_wins(self) -> int | None:
        known = [g.missed_wins for g in self.seats if g.missed_wins is not None]
        return sum(known) if known else None

    @property
    def checked_rounds(self) -> int:
        """Rounds of the games the furiten tracker watched."""
        return sum(g.rounds for g in self.seats if g.furiten is not None)

    @property
    def last_places(self) -> int:
        """Games finished last: fourth, or third at a three-player table."""
        return sum(1 for g in self.seats if g.place is not None and g.place == g.players)

    def average_place(self) -> float | None:
        placed = [g.place for g in self.seats if g.place is not None]
        return sum(placed) / len(placed) if placed else None

    def placements(self) -> list[int]:
        """Placements in game order."""
        return [g.place for g in self.seats if g.place is not None]

    def yaku(self) -> Counter[str]:
        """Wins with each yaku (each win counts a yaku once)."""
        return Counter(y for w in self.wins for y in set(w.yaku))

    def han(self) -> Counter[str]:
        return Counter("yakuman" if w.yakuman else str(w.han) for w in self.wins)

    def fu(self) -> Counter[int]:
        return Counter(w.fu for w in self.wins if not w.yakuman)


def _game_order(rows: Sequence[SeatGame]) -> list[SeatGame]:
    """Rows by date, games without one after the dated games; otherwise input order."""
    order = {id(r): k for k, r in enumerate(rows)}
    return sorted(rows, key=lambda r: (r.date is None, r.date or "", order[id(r)]))


def totals_by_player(
    seats: Sequence[SeatGame], only: str | None = None, *, min_games: int = 1
) -> tuple[PlayerTotals, ...]:
    """Totals per player name, most games first, then by name; each player's rows in
    game order. Players with fewer than ``min_games`` games are left out."""
    by_name: dict[str, PlayerTotals] = {}
    for g in _game_order(seats):
        if only is not None and g.name != only:
            continue
        by_name.setdefault(g.name, PlayerTotals(g.name)).seats.append(g)
    kept = (p for p in by_name.values() if p.games >= min_games)
    return tuple(sorted(kept, key=lambda p: (-p.games, p.name)))
