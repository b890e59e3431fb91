"""Player statistics: recounted from the parsed events for real players, yaku shares
of wins, one game per name however many seats it took, the filters, and the players
page's table (sorted and searched in Chromium).

The recount reads the logs' own events (parsers.load) and counts with nothing from
reports.stats; the statistics under test come from the audit's records
(collect_game, seat_games).
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from mjaudit.errors import MjauditError
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DrawReason,
    GameEnd,
    GameLog,
    RiichiAccepted,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import MeldKind
from mjaudit.yaku import BONUS_YAKU
from parsers import load
from reports.html import render_index, render_players, write_report
from reports.stats import (
    DEFINITIONS,
    SeatGame,
    WinFact,
    game_date,
    seat_games,
    select_rows,
    totals_by_player,
)
from reports.views_facts import collect_game
from reports.views_player import build_index_view, build_players_view
from tests.chromium import DevTools
from tests.conftest import CORPUS, TENHOU_XML, corpus_logs

ROOT = Path(__file__).resolve().parents[1]
# Three players of the corpus: two with a dozen dated Tenhou games each, one whose ten
# games come from a bot's fixtures (no date in their names).
PLAYERS = ("Recaltq", "mato0603", "Xenia")
SEATED_TWICE = "MahjongRepository-tenhou-python-bot_fixture-22.xml"  # NoName in three seats


def _corpus_logs() -> list[GameLog]:
    if not TENHOU_XML.is_dir():
        pytest.skip(f"corpus not available: {TENHOU_XML} (CI has ../shared beside the repo)")
    return [load(str(p)) for p in sorted(TENHOU_XML.glob("*.xml"))]


@pytest.fixture(scope="module")
def player_logs() -> dict[str, list[GameLog]]:
    logs = _corpus_logs()
    return {
        name: [log for log in logs if name in [p.name for p in log.start.players]]
        for name in PLAYERS
    }


@pytest.fixture(scope="module")
def player_rows(player_logs: dict[str, list[GameLog]]) -> list[SeatGame]:
    seen: dict[str, GameLog] = {}
    for logs in player_logs.values():
        for log in logs:
            seen.setdefault(log.path, log)
    rows: list[SeatGame] = []
    for path, log in seen.items():
        rows.extend(seat_games(collect_game(log, resolve_rules(log, "auto")), Path(path).name))
    return rows


# -- the recount: straight from the events -------------------------------------------
@dataclass
class Recount:
    games: int = 0
    rounds: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_in_rounds: int = 0
    deal_in_points: list[int] = field(default_factory=list)
    riichi: int = 0
    riichi_first: int = 0
    riichi_wins: int = 0
    riichi_deal_ins: int = 0
    open_rounds: int = 0
    open_wins: int = 0
    dama_wins: int = 0
    turns: list[int] = field(default_factory=list)
    win_points: list[int] = field(default_factory=list)
    draws: int = 0
    draws_tenpai: int = 0
    places: Counter[int] = field(default_factory=Counter)
    yaku: Counter[str] = field(default_factory=Counter)


def _rounds(log: GameLog) -> Iterator[list[object]]:
    """Each round's events, from its RoundStart to the event before the next one."""
    current: list[object] | None = None
    for ev in log.events:
        if isinstance(ev, RoundStart):
            if current is not None:
                yield current
            current = []
        if current is not None and not isinstance(ev, GameEnd):
            current.append(ev)
    if current is not None:
        yield current


def _places(log: GameLog) -> list[int]:
    end = next(ev for ev in log.events if isinstance(ev, GameEnd))
    scores = end.claims.final_scores
    assert scores is not None
    n = sum(1 for p in log.start.players if p.name)
    first = log.start.first_dealer
    order = sorted(range(n), key=lambda s: (-scores[s], (s - first) % n))
    return [order.index(s) + 1 for s in range(n)]


def recount(name: str, logs: list[GameLog]) -> Recount:
    c = Recount(games=len(logs))
    for log in logs:
        seats = [s for s, p in enumerate(log.start.players) if p.name == name]
        places = _places(log)
        for s in seats:
            c.places[places[s]] += 1
        for events in _rounds(log):
            for s in seats:
                c.rounds += 1
                riichi = [ev.seat for ev in events if isinstance(ev, RiichiAccepted)]
                opened = any(
                    isinstance(ev, DeclareMeld)
                    and ev.seat == s
                    and ev.meld.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
                    for ev in events
                )
                wins = [ev for ev in events if isinstance(ev, Win)]
                mine = [w for w in wins if w.seat == s]
                fed = [w for w in wins if w.from_seat == s and w.seat != s]
                c.riichi += s in riichi
                c.riichi_first += bool(riichi) and riichi[0] == s
                c.riichi_wins += s in riichi and bool(mine)
                c.riichi_deal_ins += s in riichi and bool(fed)
                c.open_rounds += opened
                c.open_wins += opened and bool(mine)
                c.deal_in_rounds += bool(fed)
                c.deal_in_points += [w.claims.points or 0 for w in fed]
                for w in mine:
                    c.wins += 1
                    c.tsumo += w.from_seat == s
                    c.dama_wins += s not in riichi and not opened
                    c.win_points.append(w.claims.points or 0)
                    at = events.index(w)
                    c.turns.append(
                        1 + sum(isinstance(e, Discard) and e.seat == s for e in events[:at])
                    )
                    labels = {y.label for y, _ in w.claims.yaku or () if y not in BONUS_YAKU}
                    labels |= {y.label for y in w.claims.yakuman or ()}
                    c.yaku.update(labels)
                for ev in events:
                    if isinstance(ev, RoundDraw) and ev.reason is DrawReason.EXHAUSTIVE:
                        c.draws += 1
                        c.draws_tenpai += s in (ev.claims.tenpai or ())
    return c


@pytest.mark.corpus
@pytest.mark.parametrize("name", PLAYERS)
def test_statistics_recount_from_the_events(
    name: str, player_logs: dict[str, list[GameLog]], player_rows: list[SeatGame]
) -> None:
    want = recount(name, player_logs[name])
    assert want.games >= 10 and want.wins > 0 and want.riichi > 0  # a real sample
    (p,) = totals_by_player(player_rows, name)
    wins = p.wins
    got = Recount(
        games=p.games,
        rounds=p.rounds,
        wins=len(wins),
        tsumo=sum(w.tsumo for w in wins),
        deal_in_rounds=p.deal_in_rounds,
        deal_in_points=p.deal_in_points,
        riichi=p.riichi_rounds,
        riichi_first=p.riichi_first,
        riichi_wins=p.riichi_wins,
        riichi_deal_ins=p.riichi_deal_ins,
        open_rounds=p.call_rounds,
        open_wins=p.open_wins,
        dama_wins=sum(not w.riichi and not w.open for w in wins),
        turns=[w.turn for w in wins],
        win_points=[w.points for w in wins],
        draws=p.draws,
        draws_tenpai=p.draws_tenpai,
        places=p.places,
        yaku=p.yaku(),
    )
    # Lists compared as multisets: the rows are in date order, the recount in file order.
    for attr in ("deal_in_points", "turns", "win_points"):
        assert sorted(getattr(got, attr)) == sorted(getattr(want, attr)), attr
        setattr(got, attr, [])
        setattr(want, attr, [])
    assert got == want

    # The page shows these counts over these denominators.
    view = build_players_view(rows=player_rows, only=name)
    (section,) = view.players
    stats = {s.key: (s.value, s.count) for s in section.stats}
    assert stats["riichi win rate"] == (
        f"{100 * want.riichi_wins / want.riichi:.1f}%",
        f"{want.riichi_wins} / {want.riichi}",
    )
    assert stats["tenpai at draw"][1] == f"{want.draws_tenpai} / {want.draws}"
    assert stats["open-hand win rate"][1] == f"{want.open_wins} / {want.open_rounds}"
    assert stats["games"] == (str(want.games), "")
    placed = sum(want.places.values())
    assert stats["last place rate"][1] == f"{want.places[4]} / {placed}"  # 4-player games


@pytest.mark.corpus
def test_the_replay_records_callers_and_each_winners_discards() -> None:
    # What the statistics read (RoundReplay.callers, WinRecord.discards) is what a plain
    # walk of each hand's events finds, in every format of the corpus.
    checked = broken = 0
    for path in corpus_logs():
        try:
            log = load(str(path))
            rules = resolve_rules(log, "auto")
        except MjauditError:
            continue  # the corpus's deliberately broken files
        game = audit_log(log, rules, keep_replay=True).replay
        assert game is not None
        for rnd, events in zip(game.rounds, _rounds(log), strict=True):
            callers: list[int] = []
            for ev in events:
                if (
                    isinstance(ev, DeclareMeld)
                    and ev.meld.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
                    and ev.seat not in callers
                ):
                    callers.append(ev.seat)
            if not rnd.complete:
                # The calls the replay took, before the log broke the hand: no later one.
                assert rnd.callers == callers[: len(rnd.callers)], (path.name, rnd.label)
                broken += rnd.callers != callers
                continue
            assert rnd.callers == callers, (path.name, rnd.label)
            for w in rnd.wins:
                at = events.index(w.event)
                mine = sum(isinstance(e, Discard) and e.seat == w.seat for e in events[:at])
                assert w.discards == mine, (path.name, rnd.label, w.seat)
                checked += 1
    assert checked > 3000 and broken >= 1  # a broken hand whose later calls go uncounted


@pytest.mark.corpus
def test_yaku_shares_are_of_wins_on_the_page(player_rows: list[SeatGame]) -> None:
    (p,) = totals_by_player(player_rows, "Recaltq")
    wins = len(p.wins)
    view = build_players_view(rows=player_rows, only="Recaltq")
    bars = {b.label: b for b in view.players[0].yaku}
    riichi = sum("riichi" in w.yaku for w in p.wins)
    assert bars["riichi"].count == riichi
    assert bars["riichi"].share == f"{100 * riichi / wins:.1f}%"
    # A win has more than one yaku: shares of wins add up to more than 100%.
    assert sum(b.count for b in bars.values()) > wins


def _row(name: str, page: str, **kw: object) -> SeatGame:
    base = SeatGame(
        name=name,
        page=page,
        game_id=page,
        seat=0,
        players=4,
        place=1,
        final_score=30000,
        result=20.0,
        rounds=8,
        wins=(),
        deal_in_rounds=0,
        deal_in_points=(),
        riichi_rounds=0,
        call_rounds=0,
        furiten=0,
        missed_wins=0,
        errors=0,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def test_yaku_share_counts_a_yaku_once_per_win() -> None:
    wins = (
        WinFact(1000, 1, 30, False, False, ("riichi", "tanyao")),
        WinFact(2000, 2, 30, False, True, ("riichi",)),
        WinFact(3900, 3, 30, False, False, ("yakuhai: haku", "tanyao")),
        WinFact(8000, 5, 30, False, False, ("honitsu",)),
    )
    view = build_players_view(rows=[_row("Aoi", "g1.html", wins=wins)])
    shares = {b.label: (b.count, b.share) for b in view.players[0].yaku}
    assert shares == {
        "riichi": (2, "50.0%"),
        "tanyao": (2, "50.0%"),
        "yakuhai: haku": (1, "25.0%"),
        "honitsu": (1, "25.0%"),
    }


def test_a_name_seated_twice_counts_one_game() -> None:
    rows = [
        _row("NoName", "g1.html", seat=0, place=1, riichi_rounds=2),
        _row("NoName", "g1.html", seat=2, place=3, riichi_rounds=1),
        _row("Ben", "g1.html", seat=1, place=2),
        _row("NoName", "g2.html", seat=3, place=4),
    ]
    (p,) = totals_by_player(rows, "NoName")
    assert p.games == 2
    assert p.rounds == 3 * 8  # every seat plays every round
    assert p.riichi_rounds == 3
    assert p.places == Counter({1: 1, 3: 1, 4: 1})
    view = build_players_view(rows=rows, only="NoName")
    stats = {s.key: (s.value, s.count) for s in view.players[0].stats}
    assert stats["games"] == ("2", "in 3 seats")
    assert stats["riichi rate"] == ("12.5%", "3 / 24")


@pytest.mark.corpus
def test_a_name_seated_twice_in_a_real_game_counts_one_game() -> None:
    path = TENHOU_XML / SEATED_TWICE
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    seats = [s for s, p in enumerate(log.start.players) if p.name == "NoName"]
    assert len(seats) == 3
    rows = seat_games(collect_game(log, resolve_rules(log, "auto")), "g.html")
    (p,) = totals_by_player(rows, "NoName")
    assert p.games == 1
    assert len(p.seats) == 3
    rounds = sum(isinstance(ev, RoundStart) for ev in log.events)
    assert p.rounds == 3 * rounds


# -- dates and filters ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_id", "date"),
    [
        pytest.param("2009060321gm-00b9-0000-75b25bcf", "2009-06-03", id="tenhou-id"),
        pytest.param("230921-0a39a19b-4820-4b40-9fda-dd5481d023e4", "2023-09-21", id="ms-uuid"),
        pytest.param("akochan_haifu_log_sample", None, id="mjai-no-date"),
        pytest.param("2009139921gm-00b9-0000-75b25bcf", None, id="not-a-day"),
    ],
)
def test_game_date_from_the_id(game_id: str, date: str | None) -> None:
    assert game_date(game_id) == date


def test_select_rows_by_date_rules_and_games() -> None:
    rows = [
        _row("Aoi", "a.html", date="2022-05-31", rules="tenhou", room="houou"),
        _row("Aoi", "b.html", date="2022-06-01", rules="tenhou", room="tokujou"),
        _row("Ben", "b.html", date="2022-06-01", rules="tenhou", room="tokujou", seat=1),
        _row("Aoi", "c.html", date="2022-06-02", rules="mahjongsoul", room="jade"),
        _row("Cy", "e.html", date="2022-06-03", rules="mahjongsoul", category="friendly"),
        _row("Aoi", "d.html", date=None, rules="tenhou", room="ippan"),
    ]

    def pages(**kw: object) -> list[tuple[str, str]]:
        return [(r.name, r.page) for r in select_rows(rows, **kw)]  # type: ignore[arg-type]

    assert pages() == [(r.name, r.page) for r in rows]
    assert pages(since="2022-06-01") == [
        ("Aoi", "b.html"),
        ("Ben", "b.html"),
        ("Aoi", "c.html"),
        ("Cy", "e.html"),
    ]
    assert pages(until="2022-06-01") == [("Aoi", "a.html"), ("Aoi", "b.html"), ("Ben", "b.html")]
    assert pages(since="2022-06-01", until="2022-06-01") == [
        ("Aoi", "b.html"),
        ("Ben", "b.html"),
    ]
    assert pages(rules="Mahjongsoul") == [("Aoi", "c.html"), ("Cy", "e.html")]
    assert pages(rules="friendly") == [("Cy", "e.html")]
    assert pages(rules="HOUOU") == [("Aoi", "a.html")]
    assert pages(rules=("jade", "ippan")) == [("Aoi", "c.html"), ("Aoi", "d.html")]
    assert pages(min_games=2) == [("Aoi", p) for p in ("a.html", "b.html", "c.html", "d.html")]
    # min_games counts the games left after the other filters.
    assert pages(rules="tokujou", min_games=2) == []
    with pytest.raises(ValueError):
        select_rows(rows, since="June")


def test_min_games_leaves_players_off_the_page() -> None:
    rows = [_row("Aoi", "a.html"), _row("Aoi", "b.html"), _row("Ben", "a.html", seat=1)]
    view = build_players_view(rows=rows, min_games=2)
    assert [name for name, _, _ in view.table] == ["Aoi"]
    assert "with 2 games or more" in render_players(view)


def test_rows_are_small_picklable_values(player_rows: list[SeatGame]) -> None:
    assert pickle.loads(pickle.dumps(player_rows)) == player_rows
    per_game = len(pickle.dumps(player_rows)) / len({r.page for r in player_rows})
    assert per_game < 4096, per_game


# -- the pages -----------------------------------------------------------------------
def test_index_and_players_page_from_rows_equal_the_ones_from_games(tmp_path: Path) -> None:
    from reports.views_facts import GameFacts

    pairs: list[tuple[str, GameFacts]] = []
    for p in sorted((ROOT / "sample_logs").glob("*.xml")):
        log = load(str(p))
        pairs.append((p.name + ".html", collect_game(log, resolve_rules(log, "auto"))))
    rows = [r for page, facts in pairs for r in seat_games(facts, page)]
    assert build_index_view(pairs, ["bad.xml: x"]) == build_index_view(
        (), ["bad.xml: x"], rows=rows
    )
    assert build_players_view(pairs) == build_players_view(rows=rows)


def test_index_lists_date_room_results_and_findings(tmp_path: Path) -> None:
    write_report([str(ROOT / "sample_logs")], tmp_path / "out")
    html = (tmp_path / "out" / "index.html").read_text("utf-8")
    row = re.search(r'<tr><td><a href="broken_dora\.xml\.html">.*?</tr>', html)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0))
    log = load(str(ROOT / "sample_logs" / "broken_dora.xml"))
    assert log.start.rules_hint.description in cells[2]
    names = [p.name for p in log.start.players]
    assert all(n in cells[3] for n in names)
    assert re.search(r"1\. \S+ \d+ \([+-]\d+\.\d\)", cells[3])
    assert '<span class="bad-mark">' in cells[5]  # the broken dora is an error


def test_players_page_has_a_table_row_per_player() -> None:
    rows = [_row(n, "a.html", seat=s) for s, n in enumerate(("Aoi", "Ben", "<b>Cy</b>"))]
    html = render_players(build_players_view(rows=rows))
    body = html.split('<table class="overview" id="overview">', 1)[1].split("</table>", 1)[0]
    assert len(re.findall(r"<tr><td><a href=\"#p\d+\">", body)) == 3
    assert "&lt;b&gt;Cy&lt;/b&gt;" in body and "<b>Cy</b>" not in html
    assert render_index(build_index_view((), [], rows=rows)).count("<b>Cy</b>") == 0


def test_statistics_and_their_documentation_stay_in_step() -> None:
    doc = (ROOT / "docs" / "statistics.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| ([a-z -]+) \| (.+) \|$", doc, re.M))
    rows.pop("statistic", None)
    assert rows == DEFINITIONS


# -- the players table in a real browser ---------------------------------------------
def test_players_table_sorts_and_searches_in_chromium(browser: DevTools, tmp_path: Path) -> None:
    tools = browser
    evil = "<img src=x onerror=alert(1)>"
    rows = [
        *[_row("Aoi", f"a{k}.html", place=2) for k in range(3)],
        _row("Ben", "a0.html", seat=1, place=1, wins=(WinFact(8000, 3, 30, False, True, ()),)),
        *[_row(evil, f"a{k}.html", seat=2, place=4) for k in range(2)],
        _row("Benedikt", "a9.html", seat=3, place=3, result=None, final_score=None),
    ]
    page = tmp_path / "players.html"
    page.write_text(render_players(build_players_view(rows=rows)), encoding="utf-8")
    tools.events.clear()
    tools.call("Page.navigate", url=page.as_uri())
    tools.wait_for("Page.loadEventFired")

    def names() -> list[str]:
        found: list[str] = tools.evaluate(
            "[...document.querySelectorAll('#overview tbody tr')]"
            ".filter(r => !r.hidden).map(r => r.cells[0].textContent)"
        )
        return found

    def click(heading: str) -> None:
        tools.evaluate(
            "[...document.querySelectorAll('#overview th')]"
            f".find(th => th.textContent === {heading!r}).click()"
        )

    assert names() == ["Aoi", evil, "Ben", "Benedikt"]  # most games first
    click("Avg place")  # first click: the largest first
    assert names() == [evil, "Benedikt", "Aoi", "Ben"]
    click("Avg place")
    assert names() == ["Ben", "Aoi", "Benedikt", evil]
    click("Points")  # a player with no results stays last either way
    assert names()[-1] == "Benedikt"
    click("Points")
    assert names()[-1] == "Benedikt"
    click("Player")  # names A to Z (punctuation first)
    assert names() == [evil, "Aoi", "Ben", "Benedikt"]
    click("Player")
    assert names() == ["Benedikt", "Ben", "Aoi", evil]

    tools.evaluate("document.getElementById('find').focus()")
    tools.call("Input.insertText", text="BEN")
    assert names() == ["Benedikt", "Ben"]  # in the order sorted last
    tools.call("Input.insertText", text="E")
    assert names() == ["Benedikt"]
    # Full-width letters find their ASCII forms; an empty box shows every row.
    tools.evaluate("document.getElementById('find').value = ''")
    tools.call("Input.insertText", text="ｂｅｎｅ")
    assert names() == ["Benedikt"]
    tools.evaluate("document.getElementById('find').value = ''")
    tools.call("Input.insertText", text=" ")
    assert len(names()) == 4

    tools.drain()
    assert not [e for e in tools.events if e.get("method") == "Runtime.exceptionThrown"]
    assert not [e for e in tools.events if e.get("method") == "Page.javascriptDialogOpening"]
    requested = [
        e["params"]["request"]["url"]
        for e in tools.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert requested == [page.as_uri()]


# -- hands and games the log does not play to their end ---------------------------------

_MJAI = CORPUS / "mjai"


def _seats(relative: str) -> tuple[SeatGame, ...]:
    path = _MJAI / relative
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    log = load(str(path))
    return seat_games(collect_game(log, resolve_rules(log, "auto")), "page.html")


@pytest.mark.corpus
@pytest.mark.parametrize("kind", ["kan4", "nm", "reach4", "ron3"])
def test_a_game_cut_short_has_no_place_nor_points(kind: str) -> None:
    """The log stops in the game's third hand with no end (game-incomplete): no final
    score, place or uma is made up for it (the last scores with the stick to the top
    were shown, and counted in every player's placements)."""
    seats = _seats(
        f"converted-from-tenhou/gimite-tenhouarchive-partial/tenhou_upd-aft-{kind}.jsonl"
    )
    assert [(s.place, s.final_score, s.result) for s in seats] == [(None, None, None)] * 4


@pytest.mark.corpus
def test_a_hand_the_log_stops_in_is_no_round_played() -> None:
    """The server stopped the game in its fourth hand (E3-1, after a riichi): three
    hands were played to their end; the fourth's riichi and calls are not counted."""
    path = _MJAI / "gimite-server" / "mjai-manue-go_selfmatch_2026-06-19-030401.jsonl"
    seats = _seats(str(path.relative_to(_MJAI)))
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    ended = sum(1 for e in lines if e["type"] in ("hora", "ryukyoku"))
    assert ended == 3
    assert {s.rounds for s in seats} == {ended}
    riichi = Counter(e["actor"] for e in lines if e["type"] == "reach_accepted")
    last_start = max(k for k, e in enumerate(lines) if e["type"] == "start_kyoku")
    after = Counter(e["actor"] for e in lines[last_start:] if e["type"] == "reach_accepted")
    assert [s.riichi_rounds for s in seats] == [riichi[s] - after[s] for s in range(4)]


@pytest.mark.corpus
def test_the_results_of_hands_the_replay_cannot_follow_are_the_logs() -> None:
    """mjaigym's sample: E2-0 to E4-0 cannot be replayed (draws out of turn), yet the
    log records each result; the players' wins, deal-ins and riichi are the log's."""
    path = _MJAI / "mjaigym-server" / "mjaigymml_sample.jsonl"
    seats = _seats(str(path.relative_to(_MJAI)))
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    wins = Counter(e["actor"] for e in lines if e["type"] == "hora")
    fed = Counter(e["target"] for e in lines if e["type"] == "hora" and e["target"] != e["actor"])
    riichi = Counter(e["actor"] for e in lines if e["type"] == "reach_accepted")
    assert [len(s.wins) for s in seats] == [wins[s] for s in range(4)]
    assert [s.deal_in_rounds for s in seats] == [fed[s] for s in range(4)]
    assert [s.riichi_rounds for s in seats] == [riichi[s] for s in range(4)]


def test_points_that_add_up_to_zero_show_no_minus_sign() -> None:
    # -0.1 - 0.2 + 0.3 is a hair below zero in floating point: no "-0.0".
    rows = [
        _row("Aoi", "g1.html", result=-0.1),
        _row("Aoi", "g2.html", result=-0.2),
        _row("Aoi", "g3.html", result=0.3),
    ]
    view = build_players_view(rows=rows)
    ((name, _, cells),) = view.table
    assert name == "Aoi"
    assert (cells[-1].text, cells[-1].title) == ("+0.0", "3 games with results")
