"""View models of the player page and the index page of a multi-game report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from mjaudit.findings import Severity
from reports.charts import line_chart
from reports.stats import DEFINITIONS, PlayerTotals, SeatGame, seat_games, totals_by_player
from reports.views_facts import GameFacts

__all__ = [
    "Bar",
    "GameRow",
    "IndexView",
    "PlayerSection",
    "PlayersView",
    "Stat",
    "build_index_view",
    "build_players_view",
]


@dataclass(frozen=True, slots=True)
class Stat:
    key: str
    value: str
    count: str
    definition: str


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    count: int
    share: str
    width: str  # percent of the longest bar


@dataclass(frozen=True, slots=True)
class GameRow:
    href: str
    game_id: str
    place: str
    final_score: str
    result: str
    wins: int
    deal_ins: int
    errors: int


@dataclass(frozen=True, slots=True)
class PlayerSection:
    name: str
    anchor: str
    stats: tuple[Stat, ...]
    placements: tuple[Bar, ...]
    han: tuple[Bar, ...]
    fu: tuple[Bar, ...]
    yaku: tuple[Bar, ...]
    chart: Markup | None
    games: tuple[GameRow, ...]


@dataclass(frozen=True, slots=True)
class PlayersView:
    title: str
    only: str | None
    players: tuple[PlayerSection, ...]
    definitions: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class IndexRow:
    href: str
    source: str
    game_id: str
    players: tuple[tuple[str, str], ...]
    rounds: int
    errors: int
    warnings: int
    infos: int


@dataclass(frozen=True, slots=True)
class IndexView:
    title: str
    games: tuple[IndexRow, ...]
    unreadable: tuple[str, ...]
    only: str | None


def _rate(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "—"


def _mean(values: Sequence[int]) -> str:
    return f"{sum(values) / len(values):.0f}" if values else "—"


def _bars(
    counts: Counter[str] | dict[str, int], order: Sequence[str] | None = None
) -> tuple[Bar, ...]:
    keys = list(order) if order is not None else sorted(counts, key=lambda k: (-counts[k], k))
    total = sum(counts.values())
    top = max(counts.values(), default=0)
    out = []
    for k in keys:
        n = counts.get(k, 0)
        out.append(
            Bar(
                k,
                n,
                _rate(n, total),
                f"{100 * n / top:.0f}%" if top else "0%",
            )
        )
    return tuple(out)


def _stats(p: PlayerTotals) -> tuple[Stat, ...]:
    rounds = p.rounds
    wins = p.wins
    nwins = len(wins)
    tsumo = sum(1 for w in wins if w.tsumo)
    avg = p.average_place()
    furiten, missed = p.furiten, p.missed_wins
    d = DEFINITIONS
    return (
        Stat("games", str(len(p.games)), "", d["games"]),
        Stat("rounds", str(rounds), "", d["rounds"]),
        Stat(
            "average placement",
            f"{avg:.2f}" if avg is not None else "—",
            f"{sum(p.places.values())} placed",
            d["average placement"],
        ),
        Stat("win rate", _rate(nwins, rounds), f"{nwins} / {rounds}", d["win rate"]),
        Stat("tsumo rate", _rate(tsumo, nwins), f"{tsumo} / {nwins}", d["tsumo rate"]),
        Stat(
            "deal-in rate",
            _rate(p.deal_in_rounds, rounds),
            f"{p.deal_in_rounds} / {rounds}",
            d["deal-in rate"],
        ),
        Stat(
            "riichi rate",
            _rate(p.riichi_rounds, rounds),
            f"{p.riichi_rounds} / {rounds}",
            d["riichi rate"],
        ),
        Stat(
            "call rate",
            _rate(p.call_rounds, rounds),
            f"{p.call_rounds} / {rounds}",
            d["call rate"],
        ),
        Stat("average win", _mean([w.points for w in wins]), f"{nwins} wins", d["average win"]),
        Stat(
            "average deal-in",
            _mean(p.deal_in_points),
            f"{len(p.deal_in_points)} hands",
            d["average deal-in"],
        ),
        Stat(
            "furiten",
            str(furiten) if furiten is not None else "—",
            "" if furiten is not None else "not checked",
            d["furiten"],
        ),
        Stat(
            "missed wins",
            str(missed) if missed is not None else "—",
            "" if missed is not None else "not checked",
            d["missed wins"],
        ),
    )


def _anchor(k: int) -> str:
    return f"p{k}"


def _section(k: int, p: PlayerTotals) -> PlayerSection:
    seats = max((g.players for g in p.games), default=4)
    places = {str(i): p.places.get(i, 0) for i in range(1, seats + 1)}
    han = p.han()
    han_order = sorted((h for h in han if h != "yakuman"), key=int) + (
        ["yakuman"] if "yakuman" in han else []
    )
    fu = p.fu()
    fu_counts = {str(f): n for f, n in fu.items()}
    cumulative: list[float] = []
    total = 0.0
    for g in p.games:
        total += g.result or 0.0
        cumulative.append(round(total, 1))
    chart = (
        line_chart(
            f"points-{_anchor(k)}",
            ["start", *[str(i + 1) for i in range(len(p.games))]],
            [(p.name, [0.0, *cumulative])],
            ylabel="points (uma)",
            width=7.0,
            height=2.6,
            zero_line=True,
        )
        if p.games
        else None
    )
    games = tuple(
        GameRow(
            href=g.page,
            game_id=g.game_id or g.page,
            place=str(g.place) if g.place is not None else "?",
            final_score=str(g.final_score) if g.final_score is not None else "?",
            result=f"{g.result:+.1f}" if g.result is not None else "",
            wins=len(g.wins),
            deal_ins=g.deal_in_rounds,
            errors=g.errors,
        )
        for g in p.games
    )
    return PlayerSection(
        name=p.name,
        anchor=_anchor(k),
        stats=_stats(p),
        placements=_bars(places, list(places)),
        han=_bars({h: han[h] for h in han_order}, han_order),
        fu=_bars(fu_counts, [str(f) for f in sorted(fu)]),
        yaku=_bars(dict(p.yaku())),
        chart=chart,
        games=games,
    )


def build_players_view(
    games: Sequence[tuple[str, GameFacts]], only: str | None = None
) -> PlayersView:
    seats: list[SeatGame] = []
    for page, facts in games:
        seats.extend(seat_games(facts, page))
    totals = totals_by_player(seats, only)
    title = f"Player report: {only}" if only is not None else "Player report"
    return PlayersView(
        title=title,
        only=only,
        players=tuple(_section(k, p) for k, p in enumerate(totals)),
        definitions=tuple(DEFINITIONS.items()),
    )


def build_index_view(
    games: Sequence[tuple[str, GameFacts]], unreadable: Sequence[str], only: str | None = None
) -> IndexView:
    rows = []
    for page, facts in games:
        places = facts.placements()
        players = tuple(
            (facts.names[s], str(places[s]) if places is not None else "?")
            for s in range(facts.players)
        )
        sev = Counter(f.severity for f in facts.findings)
        rows.append(
            IndexRow(
                href=page,
                source=facts.log.path.rsplit("/", 1)[-1],
                game_id=facts.log.start.game_id,
                players=players,
                rounds=len(facts.game.rounds),
                errors=sev[Severity.ERROR],
                warnings=sev[Severity.WARNING],
                infos=sev[Severity.INFO],
            )
        )
    return IndexView(
        title=f"mjaudit report: {len(rows)} game{'s' if len(rows) != 1 else ''}",
        games=tuple(rows),
        unreadable=tuple(unreadable),
        only=only,
    )
