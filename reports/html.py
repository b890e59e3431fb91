"""The HTML reporter: view models in, self-contained pages out.

Templates live in the data package ``reports.templates`` and are read with
importlib.resources. Autoescape is on (player names are untrusted input) and an
undefined variable is an error. Pages carry their CSS, their tile sprite, their
charts and a small script inline: they make no network request of any kind.

:func:`write_report` is what ``mjaudit report`` calls: one game file gives one
page; several files or a directory give a folder with ``index.html``, one page per
game and ``players.html``.
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup

from analyzer.checks.audit import resolve_rules
from analyzer.runs.pool import available_cpus
from mjaudit.errors import MjauditError
from mjaudit.events import GameLog
from mjaudit.findings import Finding
from mjaudit.rules import RulesError
from parsers import load_bytes
from parsers.containers import (
    DEFAULT_MAX_INPUT,
    Locator,
    container_kind,
    failure,
    iter_locators,
    load_single,
    read_locator,
)
from parsers.convert import replacing
from reports.charts import SEAT_COLOURS, prepare_charts
from reports.i18n import current, gettext, language
from reports.safe_text import bidi_shown
from reports.stats import SeatGame, lobby_names, seat_games, select_rows
from reports.tiles_svg import sprite
from reports.views import GameView, build_game_view
from reports.views_facts import GameFacts, collect_game
from reports.views_player import IndexView, PlayersView, build_index_view, build_players_view

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = [
    "GameRows",
    "OneGameOption",
    "ReportResult",
    "UnknownLobby",
    "UnknownPlayer",
    "collect_path",
    "render_game",
    "render_index",
    "render_players",
    "report_game",
    "report_games",
    "resolve_player",
    "write_report",
]


def _template_text(name: str) -> str:
    return resources.files("reports.templates").joinpath(name).read_text(encoding="utf-8")


@cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template_text),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.globals["seat_colours"] = SEAT_COLOURS
    # The message catalogue (reports/i18n.py), in the language of the pages being made.
    env.globals["_"] = gettext
    env.globals["page_language"] = current
    return env


@cache
def _assets() -> tuple[str, str]:
    return _template_text("report.css"), _template_text("report.js")


def _context(**context: object) -> dict[str, object]:
    css, script = _assets()
    return {"css": Markup(css), "script": Markup(script), "sprite": sprite(), **context}


def _render(template: str, **context: object) -> str:
    html = _env().get_template(template).render(_context(**context))
    # Blank lines left by template tags carry nothing.
    return re.sub(r"\n\s*\n+", "\n", html)


# A page is UTF-8; what it cannot hold (a lone surrogate: a file name's undecodable
# byte, or one escaped in a JSON log's player name) is written out as ``\udce9``.
_UNWRITABLE = "backslashreplace"


def _write_page(path: Path, html: str) -> None:
    """Write a page whole or not at all (parsers.convert.replacing): a full disk leaves
    the page that was there before, never half of one, and the error names the page."""
    with replacing(path) as f:
        f.write(html.encode("utf-8", _UNWRITABLE))


def _write(path: Path, template: str, **context: object) -> None:
    """Render a page straight into ``path``, piece by piece: the same text as
    :func:`_render`, without holding the whole page (a players page over thousands
    of games is tens of megabytes). Whole or not at all, as :func:`_write_page`."""
    pieces = _env().get_template(template).generate(_context(**context))
    with replacing(path) as f:
        f.writelines(line.encode("utf-8", _UNWRITABLE) for line in without_blank_lines(pieces))


def without_blank_lines(pieces: Iterable[str]) -> Iterator[str]:
    """The joined ``pieces`` with their blank lines dropped as ``_render`` drops them,
    line by line: a line that is empty or only white space goes when a newline comes
    before and after it (what the pattern newline, white space, newlines matches)."""
    rest = ""
    first = True
    for piece in pieces:
        lines = "".join((rest, piece)).split("\n")  # plain text, whatever the pieces
        rest = lines.pop()
        for line in lines:
            if first or (line and not line.isspace()):
                yield line + "\n"
            first = False
    yield rest


def render_game(view: GameView) -> str:
    return _render("game.html.j2", title=view.title, g=view)


def _players_context(view: PlayersView) -> dict[str, object]:
    return {"title": view.title, "p": view, "definitions_map": dict(view.definitions)}


def render_players(view: PlayersView) -> str:
    return _render("players.html.j2", **_players_context(view))


def render_index(view: IndexView) -> str:
    return _render("index.html.j2", title=view.title, ix=view)


@dataclass(frozen=True, slots=True)
class ReportResult:
    """What was written, the inputs that could not be read, and the worst finding.

    ``worst`` is the highest severity rank (:attr:`Severity.rank`) among the
    findings of the games reported, -1 when there were none: the command's exit
    code is decided from it as ``audit``'s is.
    """

    pages: tuple[str, ...]
    errors: tuple[str, ...]
    games: int
    worst: int = -1


class OneGameOption(MjauditError):
    """An option that reviews one game (``--seat``) given with many: refused, not
    dropped without a word."""


class UnknownPlayer(MjauditError):
    """``--player NAME`` matched no player (or several) of the games reported."""

    def __init__(self, message: str, suggestions: tuple[str, ...]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def collect_path(
    path: str,
    rules_spec: str = "auto",
    max_size: int = DEFAULT_MAX_INPUT,
    seat: int | None = None,
    player: str | None = None,
) -> GameFacts:
    """Load, replay and audit one log for the report (raises MjauditError).

    ``path`` is a file, ``-``, or a container that holds one log. With ``seat``, or
    ``player`` (a name, matched as :func:`resolve_player` does), the game is reviewed
    from that seat (:func:`reports.views_facts.collect_game`).
    """
    log = load_single(path, max_size)
    if player is not None:
        seat = _seat_of(player, log)
    return _facts(log.path, lambda: log, rules_spec, seat)


def _seat_of(player: str, log: GameLog) -> int:
    """The seat of ``player`` in ``log`` (raises :class:`UnknownPlayer`)."""
    names = [p.name for p in log.start.players[: log.start.rules_hint.players]]
    name = match_player(player, names, 1)
    seats = [s for s, n in enumerate(names) if n == name]
    if len(seats) > 1:
        raise UnknownPlayer(f"--player {player!r} sits in seats {seats}: give one with --seat", ())
    return seats[0]


def _facts(
    name: str, load_log: Callable[[], GameLog], rules_spec: str, seat: int | None = None
) -> GameFacts:
    """A game's facts inside one guard: every failure is one MjauditError naming it."""
    step = "reading"
    try:
        log = load_log()
        step = "auditing"
        rules = resolve_rules(log, rules_spec)
        if seat is not None and not 0 <= seat < rules.players:
            raise MjauditError(f"{name}: --seat {seat}: a {rules.players}-player game")
        return collect_game(log, rules, seat=seat)
    except RulesError as exc:  # a rules file's error names the file, not the log
        msg = str(exc)
        raise MjauditError(msg if msg.startswith(name) else f"{name}: {msg}") from None
    except MjauditError:
        raise
    except Exception as exc:  # a bug, or memory: this input only
        raise MjauditError(failure(name, step, exc)) from None


def _locator_facts(loc: Locator, rules_spec: str, max_size: int) -> GameFacts:
    def load_log() -> GameLog:
        data = read_locator(loc, max_size)
        try:
            return load_bytes(data, loc.name)
        except MjauditError:
            raise
        except Exception as exc:
            raise MjauditError(failure(loc.name, "parsing", exc)) from None

    return _facts(loc.name, load_log, rules_spec)


def _page_name(path: str, used: set[str]) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(path).name).strip("._") or "game"
    name = f"{stem}.html"
    k = 2
    while name in used or name in ("index.html", "players.html"):
        name = f"{stem}-{k}.html"
        k += 1
    used.add(name)
    return name


def _single_file(paths: Sequence[str]) -> bool:
    """One PATH that is one log (not a folder, an archive or a database)."""
    if len(paths) != 1:
        return False
    p = paths[0]
    return p == "-" or (not os.path.isdir(p) and container_kind(p) is None)


def _worst(findings: Iterable[Finding]) -> int:
    return max((f.severity.rank for f in findings), default=-1)


def write_report(
    paths: Sequence[str],
    out: str | Path,
    player: str | None = None,
    rules: str = "auto",
    max_input_size: int = DEFAULT_MAX_INPUT,
    *,
    jobs: int = 1,
    on_game: Callable[[], None] | None = None,
    seat: int | None = None,
    since: str | None = None,
    until: str | None = None,
    lobbies: Sequence[str] = (),
    min_games: int = 1,
) -> ReportResult:
    """Write the HTML report of ``paths`` (files, folders, archives, databases) to ``out``.

    One game file gives one page at ``out``; several inputs, a folder, an archive
    or a database make ``out`` a folder with ``index.html``, a page per game and
    ``players.html`` (every player, or only ``player``). An input that cannot be
    read, parsed, audited or rendered is one line in ``errors``; every other page,
    and the index, are written all the same.

    A folder's games are reported by ``jobs`` worker processes (0: one per CPU when
    there are more than :data:`POOL_THRESHOLD` inputs; 1: in this process). Each
    worker writes a game's page as soon as it is made and gives back only its small
    rows (:class:`GameRows`); the index and the players page are built from those,
    so memory does not grow with the games' size. ``on_game`` is called once per
    input, done or failed (progress). ``player`` is compared with the players' names
    after Unicode NFKC normalisation; a name that matches nobody raises
    :class:`UnknownPlayer` once the game pages and the index are written.

    One game is reviewed from ``seat``, or from ``player``'s seat: its page shows
    that seat's turns (shanten, ukeire, efficiency notes). A folder's statistics keep
    the games from ``since`` to ``until`` (``YYYY-MM-DD``) in ``lobbies`` (rules
    presets, rooms or kinds of room), and the players page the players with at least
    ``min_games`` of them (reports.stats.select_rows); the index lists the games
    kept; every game's page is written.
    """
    out = Path(out)
    if _single_file(paths):
        try:
            facts = collect_path(paths[0], rules, max_input_size, seat, player)
            html = _game_page(paths[0], facts)
        except UnknownPlayer:
            raise
        except MjauditError as exc:
            return ReportResult((), (str(exc),), 0)
        out.parent.mkdir(parents=True, exist_ok=True)
        _write_page(out, html)
        if on_game is not None:
            on_game()
        return ReportResult((str(out),), (), 1, _worst(facts.findings))
    if out.exists() and not out.is_dir():
        # mkdir would say only "File exists".
        raise FileExistsError(
            errno.EEXIST,
            "not a folder: a report of a folder, an archive or several inputs is a folder "
            "of pages (-o names it)",
            str(out),
        )
    if seat is not None:
        raise OneGameOption(
            f"--seat {seat} reviews one game from a seat: name one game's file (a folder, "
            "an archive or several inputs make a site, whose pages are not seen from a seat)"
        )
    out.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    seats: list[SeatGame] = []
    written: list[str] = []
    games = 0
    worst = -1
    for rows in report_games(paths, out, rules, max_input_size, jobs):
        if on_game is not None:
            on_game()
        if rows.error is not None:
            errors.append(rows.error)
            continue
        assert rows.page is not None
        written.append(str(out / rows.page))
        seats.extend(rows.seats)
        games += 1
        worst = max(worst, rows.worst)
    only: str | None = None
    unknown: UnknownPlayer | None = None
    if player is not None:
        try:
            only = resolve_player(player, seats)
        except UnknownPlayer as exc:
            unknown = exc
    kept = select_rows(seats, since=since, until=until, rules=tuple(lobbies) or None)
    index = build_index_view((), errors, only if only is not None else player, rows=kept)
    _write(out / "index.html", "index.html.j2", title=index.title, ix=index)
    if unknown is not None:
        raise unknown
    players = build_players_view(only=only, rows=kept, min_games=min_games)
    _write(out / "players.html", "players.html.j2", **_players_context(players))
    written += [str(out / "players.html"), str(out / "index.html")]
    _check_lobbies(lobbies, seats)
    return ReportResult(tuple(written), tuple(errors), games, worst)


class UnknownLobby(MjauditError):
    """``--lobby`` named no lobby of the games reported (a typo keeps no game)."""


def _check_lobbies(lobbies: Sequence[str], seats: Sequence[SeatGame]) -> None:
    """Raise :class:`UnknownLobby` when games were read but none is in any of
    ``lobbies``, naming the lobbies they are in (the pages are written first)."""
    if not lobbies or not seats:
        return
    names = {n for row in seats for n in lobby_names(row)}
    folded = {n.casefold() for n in names}
    if any(lobby.casefold() in folded for lobby in lobbies):
        return
    asked = ", ".join(repr(lobby) for lobby in lobbies)
    known = ", ".join(sorted(names, key=str.casefold))
    raise UnknownLobby(f"--lobby {asked} matches no game (these games are in: {known})")


def _game_page(name: str, facts: GameFacts, index_href: str | None = None) -> str:
    """A game's page; a failure while building or rendering it is this page's only."""
    try:
        return render_game(build_game_view(facts, index_href=index_href))
    except Exception as exc:  # a bug in a view or a template
        raise MjauditError(failure(name, "rendering", exc)) from None


def render_game_file(path: str, rules: str = "auto") -> str:
    """The game page of one file as a string (tests, benchmarks)."""
    return render_game(build_game_view(collect_path(path, rules)))


def iter_facts(paths: Iterable[str], rules: str = "auto") -> Iterator[GameFacts]:
    """The facts of every log under ``paths``; raises MjauditError at the first bad one."""
    for loc in iter_locators(paths):
        yield _locator_facts(loc, rules, DEFAULT_MAX_INPUT)


# ---- a folder report: games in worker processes, pages from small rows -----------

# Like ``audit -j 0``: a pool only when there is more than one batch of 16 inputs;
# a few games are done before the workers would have started.
POOL_THRESHOLD = 16


@dataclass(frozen=True, slots=True)
class GameRows:
    """One input's share of a folder report, as a worker gives it back.

    Its page is already on disk: what travels back is small and picklable (the
    per-seat rows of reports.stats, from which the index and the players page are
    made), never the game's facts. ``worst`` is the highest severity rank of the
    game's findings (-1: none).
    """

    name: str
    page: str | None = None
    seats: tuple[SeatGame, ...] = ()
    worst: int = -1
    error: str | None = None


@dataclass(frozen=True, slots=True)
class _Task:
    loc: Locator
    page: str
    out: str
    rules: str
    max_size: int
    lang: str  # the pages' language, which a worker started by a forkserver would not know


def report_game(task: _Task) -> GameRows:
    """One input of a folder report, read to written, in a worker or in this process.

    Every failure of the input (reading, parsing, auditing, rendering) is its
    row's ``error``; a page that cannot be written (OSError) stops the run.
    """
    name = task.loc.name
    try:
        with language(task.lang):  # the facts hold words of the page's language too
            facts = _locator_facts(task.loc, task.rules, task.max_size)
            html = _game_page(name, facts, index_href="index.html")
            try:
                seats = seat_games(facts, task.page)
            except Exception as exc:  # a bug in the statistics
                raise MjauditError(failure(name, "rendering", exc)) from None
    except MjauditError as exc:
        return GameRows(name, error=str(exc))
    _write_page(Path(task.out) / task.page, html)
    return GameRows(name, task.page, seats, _worst(facts.findings))


def report_games(
    paths: Iterable[str], out: Path, rules: str, max_size: int, jobs: int
) -> Iterator[GameRows]:
    """Report every log under ``paths`` into ``out``; rows come in input order.

    Page names are given here, in input order, before any game is reported, so
    that ``-j N`` writes the same pages under the same names as ``-j 1``.
    """
    used: set[str] = set()
    tasks: Iterator[_Task] = (
        _Task(loc, _page_name(loc.name, used), str(out), rules, max_size, current())
        for loc in iter_locators(paths, max_size=max_size)
    )
    if jobs == 0:
        first = list(islice(tasks, POOL_THRESHOLD + 1))
        jobs = available_cpus() if len(first) > POOL_THRESHOLD else 1
        tasks = chain(first, tasks)
    if jobs <= 1:
        for task in tasks:
            yield report_game(task)
        return
    yield from _in_workers(tasks, jobs, window=4 * jobs)


def _in_workers(tasks: Iterator[_Task], jobs: int, window: int) -> Iterator[GameRows]:
    """At most ``window`` games in flight in a pool of ``jobs`` workers, in input order."""
    from collections import deque
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from analyzer.runs.pool import process_pool

    # Workers forked from here share the chart machinery instead of each importing it.
    prepare_charts()
    make = process_pool(jobs)
    pool = make()
    pending: deque[tuple[_Task, Future[GameRows]]] = deque()
    try:
        while True:
            while len(pending) < window and (task := next(tasks, None)) is not None:
                pending.append((task, pool.submit(report_game, task)))
            if not pending:
                return
            task, future = pending[0]
            try:
                rows = future.result()
            except BrokenProcessPool:
                # A worker died, and every game in flight went with its pool: each is
                # reported again alone, so that only the game that kills a worker is lost.
                again = [t for t, _ in pending]
                pending.clear()
                pool.shutdown(wait=True)
                for t in again:
                    yield _alone(make, t)
                pool = make()
                continue
            except OSError:
                raise
            except Exception as exc:  # the row could not travel back: this game only
                rows = GameRows(task.loc.name, error=failure(task.loc.name, "reporting", exc))
            pending.popleft()
            yield rows
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _alone(make: Callable[[], Executor], task: _Task) -> GameRows:
    from concurrent.futures.process import BrokenProcessPool

    pool = make()
    try:
        return pool.submit(report_game, task).result()
    except BrokenProcessPool:
        name = task.loc.name
        return GameRows(name, error=f"{name}: not reported: its worker process died on it")
    finally:
        pool.shutdown(wait=True)


def _folded(name: str) -> str:
    # The pages show a name's bidirectional controls (reports.safe_text.bidi_shown).
    return unicodedata.normalize("NFKC", bidi_shown(name))


def resolve_player(player: str, seats: Sequence[SeatGame]) -> str:
    """The name of the games that ``player`` means (raises :class:`UnknownPlayer`).

    Names are compared after Unicode NFKC normalisation, so ``HATANO!`` finds
    ``HATANO！`` (a full-width exclamation mark). A name that matches nobody is
    answered with the nearest names (difflib), compared without case too.
    """
    games = len({(g.page, g.game_id) for g in seats})
    return match_player(player, sorted({g.name for g in seats}), games)


def match_player(player: str, names: Sequence[str], games: int) -> str:
    """:func:`resolve_player` over ``names``, the players of ``games`` games."""
    if player in names:
        return player
    wanted = _folded(player)
    same = sorted({n for n in names if _folded(n) == wanted})
    if len(same) == 1:
        return same[0]
    if same:
        listed = ", ".join(repr(n) for n in same)
        raise UnknownPlayer(f"--player {player!r} matches several players: {listed}", tuple(same))
    keys: dict[str, str] = {}
    for n in names:
        keys.setdefault(_folded(n).casefold(), n)
    near = difflib.get_close_matches(wanted.casefold(), list(keys), n=3, cutoff=0.6)
    suggestions = tuple(keys[k] for k in near)
    msg = f"--player {player!r}: no player of that name in {games} game{'s' * (games != 1)}"
    if suggestions:
        msg += "; nearest: " + ", ".join(repr(s) for s in suggestions)
    raise UnknownPlayer(msg, suggestions)
