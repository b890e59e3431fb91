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

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from analyzer.checks.audit import resolve_rules
from mjaudit.errors import MjauditError
from mjaudit.events import GameLog
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
from reports.charts import SEAT_COLOURS
from reports.i18n import current, gettext
from reports.tiles_svg import sprite
from reports.views import GameView, build_game_view
from reports.views_facts import GameFacts, collect_game
from reports.views_player import IndexView, PlayersView, build_index_view, build_players_view

__all__ = [
    "ReportResult",
    "collect_path",
    "render_game",
    "render_index",
    "render_players",
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


def _render(template: str, **context: object) -> str:
    css, script = _assets()
    html = (
        _env()
        .get_template(template)
        .render(
            css=Markup(css),
            script=Markup(script),
            sprite=sprite(),
            **context,
        )
    )
    # Blank lines left by template tags carry nothing.
    return re.sub(r"\n\s*\n+", "\n", html)


def render_game(view: GameView) -> str:
    return _render("game.html.j2", title=view.title, g=view)


def render_players(view: PlayersView) -> str:
    return _render(
        "players.html.j2", title=view.title, p=view, definitions_map=dict(view.definitions)
    )


def render_index(view: IndexView) -> str:
    return _render("index.html.j2", title=view.title, ix=view)


@dataclass(frozen=True, slots=True)
class ReportResult:
    """What was written, and the inputs that could not be read."""

    pages: tuple[str, ...]
    errors: tuple[str, ...]
    games: int


def collect_path(
    path: str, rules_spec: str = "auto", max_size: int = DEFAULT_MAX_INPUT
) -> GameFacts:
    """Load, replay and audit one log for the report (raises MjauditError).

    ``path`` is a file, ``-``, or a container that holds one log.
    """
    log = load_single(path, max_size)
    return _facts(log.path, lambda: log, rules_spec)


def _facts(name: str, load_log: Callable[[], GameLog], rules_spec: str) -> GameFacts:
    """A game's facts inside one guard: every failure is one MjauditError naming it."""
    step = "reading"
    try:
        log = load_log()
        step = "auditing"
        return collect_game(log, resolve_rules(log, rules_spec))
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


def write_report(
    paths: Sequence[str],
    out: str | Path,
    player: str | None = None,
    rules: str = "auto",
    max_input_size: int = DEFAULT_MAX_INPUT,
) -> ReportResult:
    """Write the HTML report of ``paths`` (files, folders, archives, databases) to ``out``.

    One game file gives one page at ``out``; several inputs, a folder, an archive
    or a database make ``out`` a folder with ``index.html``, a page per game and
    ``players.html`` (every player, or only ``player``). An input that cannot be
    read, parsed, audited or rendered is one line in ``errors``; every other page,
    and the index, are written all the same.
    """
    out = Path(out)
    if _single_file(paths):
        try:
            facts = collect_path(paths[0], rules, max_input_size)
            html = _game_page(paths[0], facts)
        except MjauditError as exc:
            return ReportResult((), (str(exc),), 0)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
        return ReportResult((str(out),), (), 1)
    out.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    games: list[tuple[str, GameFacts]] = []
    used: set[str] = set()
    written: list[str] = []
    for loc in iter_locators(paths, max_size=max_input_size):
        try:
            facts = _locator_facts(loc, rules, max_input_size)
            html = _game_page(loc.name, facts, index_href="index.html")
        except MjauditError as exc:
            errors.append(str(exc))
            continue
        name = _page_name(loc.name, used)
        (out / name).write_text(html, encoding="utf-8")
        written.append(str(out / name))
        games.append((name, facts))
    players_view = build_players_view(games, player)
    (out / "players.html").write_text(render_players(players_view), encoding="utf-8")
    (out / "index.html").write_text(
        render_index(build_index_view(games, errors, player)), encoding="utf-8"
    )
    written += [str(out / "players.html"), str(out / "index.html")]
    return ReportResult(tuple(written), tuple(errors), len(games))


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
