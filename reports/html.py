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

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from analyzer.audit import resolve_rules
from mjaudit.errors import MjauditError
from mjaudit.rules import RulesError
from parsers import iter_inputs, load
from reports.charts import SEAT_COLOURS
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


def collect_path(path: str, rules_spec: str = "auto") -> GameFacts:
    """Load, replay and audit one file for the report (raises MjauditError)."""
    log = load(path)
    try:
        rules = resolve_rules(log, rules_spec)
    except RulesError as exc:
        raise MjauditError(f"{path}: {exc}") from None
    return collect_game(log, rules)


def _page_name(path: str, used: set[str]) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(path).name).strip("._") or "game"
    name = f"{stem}.html"
    k = 2
    while name in used or name in ("index.html", "players.html"):
        name = f"{stem}-{k}.html"
        k += 1
    used.add(name)
    return name


def write_report(
    paths: Sequence[str],
    out: str | Path,
    player: str | None = None,
    rules: str = "auto",
) -> ReportResult:
    """Write the HTML report of ``paths`` (files or folders) to ``out``.

    One game file gives one page at ``out``; several files, or a folder, make
    ``out`` a folder with ``index.html``, a page per game and ``players.html``
    (every player, or only ``player``).
    """
    files = list(iter_inputs(paths))
    single = len(files) == 1 and not any(Path(p).is_dir() for p in paths)
    errors: list[str] = []
    out = Path(out)
    if single:
        try:
            facts = collect_path(files[0], rules)
        except MjauditError as exc:
            return ReportResult((), (str(exc),), 0)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render_game(build_game_view(facts)), encoding="utf-8")
        return ReportResult((str(out),), (), 1)
    out.mkdir(parents=True, exist_ok=True)
    games: list[tuple[str, GameFacts]] = []
    used: set[str] = set()
    written: list[str] = []
    for path in files:
        try:
            facts = collect_path(path, rules)
        except MjauditError as exc:
            errors.append(str(exc))
            continue
        name = _page_name(path, used)
        (out / name).write_text(
            render_game(build_game_view(facts, index_href="index.html")), encoding="utf-8"
        )
        written.append(str(out / name))
        games.append((name, facts))
    players_view = build_players_view(games, player)
    (out / "players.html").write_text(render_players(players_view), encoding="utf-8")
    (out / "index.html").write_text(
        render_index(build_index_view(games, errors, player)), encoding="utf-8"
    )
    written += [str(out / "players.html"), str(out / "index.html")]
    return ReportResult(tuple(written), tuple(errors), len(games))


def render_game_file(path: str, rules: str = "auto") -> str:
    """The game page of one file as a string (tests, benchmarks)."""
    return render_game(build_game_view(collect_path(path, rules)))


def iter_facts(paths: Iterable[str], rules: str = "auto") -> Iterable[GameFacts]:
    for path in iter_inputs(paths):
        yield collect_path(path, rules)
