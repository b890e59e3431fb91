"""View models of the players page and the index page of a multi-game report.

Both are built from :class:`reports.stats.SeatGame` rows only (one per seat and
game), so that a folder's games can be read in worker processes and only their rows
added up here. The players page leads with one table of every player (sorted and
searched by the page's own script); each player's detail below it is compact: no
chart library, one small inline SVG of the placements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from reports.i18n import column_head, rank_name, statistic
from reports.i18n import gettext as _
from reports.stats import (
    DEFINITIONS,
    PlayerTotals,
    SeatGame,
    seat_games,
    totals_by_player,
)
from reports.views_facts import GameFacts

__all__ = [
    "Bar",
    "Cell",
    "GameLink",
    "IndexRow",
    "IndexView",
    "PlayerSection",
    "PlayersView",
    "Stat",
    "build_index_view",
    "build_players_view",
    "rows_of",
]


@dataclass(frozen=True, slots=True)
class Stat:
    key: str  # reports.stats.DEFINITIONS's key
    value: str
    count: str
    definition: str
    name: str = ""  # the key in the pages' language ("" until _named gives it)


@dataclass(frozen=True, slots=True)
class Bar:
    """A count and its share (placements, yaku)."""

    label: str
    count: int
    share: str


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the players table: what it shows (the page sorts by its number)
    and the count behind it (its hover text)."""

    text: str
    title: str


@dataclass(frozen=True, slots=True)
class GameLink:
    href: str
    label: str  # the placement, or ? when the game has none
    title: str  # date, game id, final score and points


@dataclass(frozen=True, slots=True)
class PlayerSection:
    name: str
    anchor: str
    stats: tuple[Stat, ...]
    placements: tuple[Bar, ...]
    yaku: tuple[Bar, ...]
    han: str
    fu: str
    trend: str
    trend_chart: Markup | None
    games: tuple[GameLink, ...]


@dataclass(frozen=True, slots=True)
class PlayersView:
    title: str
    only: str | None
    columns: tuple[tuple[str, str], ...]  # heading, definition
    table: tuple[tuple[str, str, tuple[Cell, ...]], ...]  # name, anchor, cells
    players: tuple[PlayerSection, ...]
    definitions: tuple[tuple[str, str], ...]
    min_games: int


@dataclass(frozen=True, slots=True)
class IndexRow:
    href: str
    source: str
    game_id: str
    date: str
    room: str
    players: tuple[tuple[str, str, str, str], ...]  # name, place, final score, points
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


def rows_of(games: Sequence[tuple[str, GameFacts]]) -> list[SeatGame]:
    """The rows of ``(page, facts)`` pairs, in order."""
    return [row for page, facts in games for row in seat_games(facts, page)]


def _rate(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "—"


def _mean(values: Sequence[int]) -> str:
    return f"{sum(values) / len(values):.0f}" if values else "—"


def _bars(
    counts: Counter[str] | dict[str, int],
    order: Sequence[str] | None = None,
    of: int | None = None,
) -> tuple[Bar, ...]:
    """A count and a share per key; the share is of ``of`` (the sum of the counts by
    default)."""
    keys = list(order) if order is not None else sorted(counts, key=lambda k: (-counts[k], k))
    total = sum(counts.values()) if of is None else of
    return tuple(Bar(k, counts.get(k, 0), _rate(counts.get(k, 0), total)) for k in keys)


def _ratio(key: str, n: int, d: int) -> Stat:
    return Stat(key, _rate(n, d), f"{n} / {d}", DEFINITIONS[key])


def _stats(p: PlayerTotals) -> tuple[Stat, ...]:
    rounds = p.rounds
    wins = p.wins
    nwins = len(wins)
    tsumo = sum(1 for w in wins if w.tsumo)
    dama = sum(1 for w in wins if not w.riichi and not w.open)
    avg = p.average_place()
    placed = sum(p.places.values())
    riichi = p.riichi_rounds
    checked = p.checked_rounds
    furiten, missed = p.furiten, p.missed_wins
    seats = len(p.seats)
    d = DEFINITIONS
    return (
        Stat(
            "games",
            str(p.games),
            _("in {n} seats").format(n=seats) if seats != p.games else "",
            d["games"],
        ),
        Stat("rounds", str(rounds), "", d["rounds"]),
        Stat(
            "average placement",
            f"{avg:.2f}" if avg is not None else "—",
            _("{n} placed").format(n=placed),
            d["average placement"],
        ),
        _ratio("first place rate", p.places.get(1, 0), placed),
        _ratio("last place rate", p.last_places, placed),
        _ratio("win rate", nwins, rounds),
        _ratio("tsumo rate", tsumo, nwins),
        _ratio("deal-in rate", p.deal_in_rounds, rounds),
        _ratio("riichi rate", riichi, rounds),
        _ratio("riichi win rate", p.riichi_wins, riichi),
        _ratio("deal-in after riichi", p.riichi_deal_ins, riichi),
        _ratio("first riichi", p.riichi_first, riichi),
        _ratio("chasing riichi", riichi - p.riichi_first, riichi),
        _ratio("dama wins", dama, nwins),
        _ratio("open-hand rate", p.call_rounds, rounds),
        _ratio("open-hand win rate", p.open_wins, p.call_rounds),
        Stat(
            "average winning turn",
            f"{sum(w.turn for w in wins) / nwins:.1f}" if nwins else "—",
            _("{n} wins").format(n=nwins),
            d["average winning turn"],
        ),
        Stat(
            "average win",
            _mean([w.points for w in wins]),
            _("{n} wins").format(n=nwins),
            d["average win"],
        ),
        Stat(
            "average deal-in",
            _mean(p.deal_in_points),
            _("{n} hands").format(n=len(p.deal_in_points)),
            d["average deal-in"],
        ),
        _ratio("tenpai at draw", p.draws_tenpai, p.draws),
        _ratio("furiten", furiten, checked)
        if furiten is not None
        else Stat("furiten", "—", _("not checked"), d["furiten"]),
        _ratio("missed wins", missed, checked)
        if missed is not None
        else Stat("missed wins", "—", _("not checked"), d["missed wins"]),
    )


def _named(stats: Sequence[Stat]) -> tuple[Stat, ...]:
    """Each statistic with its name and definition in the pages' language."""
    out = []
    for s in stats:
        name, definition = statistic(s.key, s.definition)
        out.append(Stat(s.key, s.value, s.count, definition, name))
    return tuple(out)


# The overview table: heading, the statistic whose definition it shows, and which
# of a player's Stats fills it (the value shown, the count as its hover text).
_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Games", "games"),
    ("Rounds", "rounds"),
    ("Avg place", "average placement"),
    ("1st", "first place rate"),
    ("Last", "last place rate"),
    ("Win", "win rate"),
    ("Deal-in", "deal-in rate"),
    ("Riichi", "riichi rate"),
    ("Riichi win", "riichi win rate"),
    ("Open", "open-hand rate"),
    ("Dama wins", "dama wins"),
    ("Avg turn", "average winning turn"),
    ("Avg win", "average win"),
    ("Tenpai at draw", "tenpai at draw"),
)


def _table_cells(p: PlayerTotals, stats: tuple[Stat, ...]) -> tuple[Cell, ...]:
    by_key = {s.key: s for s in stats}
    cells = []
    for _head, key in _COLUMNS:
        s = by_key[key]
        cells.append(Cell(s.value, s.count))
    # Results have one decimal; their float sum can land a hair below zero ("-0.0").
    total = round(sum(g.result for g in p.seats if g.result is not None), 1) + 0.0
    scored = sum(1 for g in p.seats if g.result is not None)
    cells.append(
        Cell(
            f"{total:+.1f}" if scored else "—",
            _("{n} games with results").format(n=scored),
        )
    )
    return tuple(cells)


def _ordinals() -> dict[int, str]:
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")}


def _anchor(k: int) -> str:
    return f"p{k}"


def _trend_chart(places: Sequence[int], seats: int) -> Markup | None:
    """The placements as a small line, first place at the top (numbers only inside)."""
    if len(places) < 2:
        return None
    width, height, pad = 240, 48, 4
    step = (width - 2 * pad) / (len(places) - 1)
    span = max(seats - 1, 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (p - 1) * (height - 2 * pad) / span:.1f}"
        for i, p in enumerate(places)
    )
    return Markup(
        f'<svg class="trend" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{_("placements in game order")}">'
        f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="1.5"/>'
        "</svg>"
    )


def _trend(p: PlayerTotals) -> str:
    places = p.placements()
    parts = []
    if len(places) > 10:
        first, last = places[:10], places[-10:]
        parts.append(
            _("first 10: {first}, last 10: {last}").format(
                first=f"{sum(first) / 10:.2f}", last=f"{sum(last) / 10:.2f}"
            )
        )
    ranked = [g for g in p.seats if g.dan or g.rate is not None]
    if ranked:
        a, b = ranked[0], ranked[-1]

        def rank(g: SeatGame) -> str:
            # Mahjong Soul records rank points, Tenhou a rating.
            rate = ""
            if g.rate is not None:
                ms = g.rules.startswith("mahjongsoul")
                rate = f"{g.rate:.0f} pt" if ms else f"R{g.rate:.0f}"
            return " ".join(x for x in (rank_name(g.dan) if g.dan else "", rate) if x)

        parts.append(rank(a) if a is b or rank(a) == rank(b) else f"{rank(a)} → {rank(b)}")
    return " · ".join(parts)


def _section(k: int, p: PlayerTotals, stats: tuple[Stat, ...]) -> PlayerSection:
    seats = max((g.players for g in p.seats), default=4)
    ordinals = _ordinals()
    places = {ordinals[i]: p.places.get(i, 0) for i in range(1, seats + 1)}
    han = p.han()
    han_order = sorted((h for h in han if h != "yakuman"), key=int) + (
        ["yakuman"] if "yakuman" in han else []
    )
    fu = p.fu()
    games = tuple(
        GameLink(
            href=g.page,
            label=str(g.place) if g.place is not None else "?",
            title=" · ".join(
                x
                for x in (
                    g.date or "",
                    g.game_id or g.page,
                    str(g.final_score) if g.final_score is not None else "",
                    f"{g.result:+.1f}" if g.result is not None else "",
                )
                if x
            ),
        )
        for g in p.seats
    )
    return PlayerSection(
        name=p.name,
        anchor=_anchor(k),
        stats=stats,
        placements=_bars(places, list(places)),
        yaku=_bars(dict(p.yaku()), of=len(p.wins)),
        han=", ".join(f"{_('yakuman') if h == 'yakuman' else h}: {han[h]}" for h in han_order),
        fu=", ".join(f"{f}: {fu[f]}" for f in sorted(fu)),
        trend=_trend(p),
        trend_chart=_trend_chart(p.placements(), seats),
        games=games,
    )


def build_players_view(
    games: Sequence[tuple[str, GameFacts]] = (),
    only: str | None = None,
    *,
    rows: Sequence[SeatGame] | None = None,
    min_games: int = 1,
) -> PlayersView:
    """The players page of ``games`` (``(page, facts)`` pairs), or of ``rows`` already
    made by :func:`reports.stats.seat_games` (filtered by
    :func:`reports.stats.select_rows`, say). Players with fewer than ``min_games``
    games are left off."""
    seats = list(rows) if rows is not None else rows_of(games)
    totals = totals_by_player(seats, only, min_games=min_games)
    title = _("Player report: {name}").format(name=only) if only is not None else _("Player report")
    table = []
    sections = []
    for k, p in enumerate(totals):
        stats = _named(_stats(p))
        table.append((p.name, _anchor(k), _table_cells(p, stats)))
        sections.append(_section(k, p, stats))
    columns = (
        *((column_head(head), statistic(key, DEFINITIONS[key])[1]) for head, key in _COLUMNS),
        (column_head("Points"), statistic("points", DEFINITIONS["points"])[1]),
    )
    return PlayersView(
        title=title,
        only=only,
        columns=columns,
        table=tuple(table),
        players=tuple(sections),
        definitions=tuple(statistic(k, v) for k, v in DEFINITIONS.items()),
        min_games=min_games,
    )


def build_index_view(
    games: Sequence[tuple[str, GameFacts]],
    unreadable: Sequence[str],
    only: str | None = None,
    *,
    rows: Sequence[SeatGame] | None = None,
) -> IndexView:
    """The index of ``games`` (or of their ``rows``): a line per game, in input order."""
    seats = list(rows) if rows is not None else rows_of(games)
    by_page: dict[str, list[SeatGame]] = {}
    for row in seats:
        by_page.setdefault(row.page, []).append(row)
    out = []
    for page, rs in by_page.items():
        rs.sort(key=lambda r: r.seat)
        g = rs[0]
        out.append(
            IndexRow(
                href=page,
                source=g.source,
                game_id=g.game_id,
                date=g.date or "",
                room=g.room_text,
                players=tuple(
                    (
                        r.name,
                        str(r.place) if r.place is not None else "?",
                        str(r.final_score) if r.final_score is not None else "",
                        f"{r.result:+.1f}" if r.result is not None else "",
                    )
                    for r in rs
                ),
                rounds=g.rounds,
                errors=g.game_errors,
                warnings=g.game_warnings,
                infos=g.game_notes,
            )
        )
    return IndexView(
        title=(
            _("mjaudit report: {n} game") if len(out) == 1 else _("mjaudit report: {n} games")
        ).format(n=len(out)),
        games=tuple(out),
        unreadable=tuple(unreadable),
        only=only,
    )
