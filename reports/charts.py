"""Charts drawn with matplotlib and inlined as SVG.

Output is deterministic: a fixed ``svg.hashsalt``, no date or creator metadata,
text kept as text (smaller and searchable), and every id prefixed with the chart's
own name so that several charts on one page never share an id.

Cheap enough to draw one per game page (benchmarks/bench_report.py, docs/scale.md):
matplotlib draws the lines, the grid (one artist) and the axes; the markers and the
texts (tick labels, the axis label, the legend) are written into the SVG here, at the
places the axes' transform gives: laying out text, and an artist per marker, were
most of what a chart cost. matplotlib is imported on the first chart (0.6 s,
which commands that draw no chart do not pay); each process draws every chart of a
size on one figure, taking the last chart's artists off its axes rather than
clearing them (:func:`prepare_charts` builds it before a folder report forks its
workers, which then share it); the margins are fixed, with room for the legend
estimated from its labels. A chart drawn on a used figure is the chart drawn on a
new one (tested).
"""

from __future__ import annotations

import io
import re
import unicodedata
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from reports.i18n import gettext as _

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["SEAT_COLOURS", "Marker", "line_chart", "prepare_charts"]

SEAT_COLOURS = ("#d04a3c", "#2f6fc0", "#2d9a5b", "#9a5bc0")
_ID = re.compile(r'(id="|url\(#|href="#)([A-Za-z_][\w.-]*)')
_DEF = re.compile(r' id="([^"]*)"')
_REF = re.compile(r'(?:url\(#|href="#)([A-Za-z_][\w.-]*)')


@dataclass(frozen=True, slots=True)
class Marker:
    """A point to mark on one line: ``kind`` is win, deal-in or riichi."""

    series: int
    x: float
    y: float
    kind: str
    label: str


_MARKERS = {
    "win": ("^", 8.0, "win"),
    "deal-in": ("v", 8.0, "deal-in"),
    "riichi": ("D", 6.0, "riichi"),
}


_FIGURES: dict[tuple[float, float], tuple[Figure, Axes]] = {}


def prepare_charts() -> None:
    """Import matplotlib and build the usual figures now (before forking workers)."""
    _figure(8.0, 3.2)


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    """This process's figure of that size, its axes cleared."""
    got = _FIGURES.get((width, height))
    if got is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(width, height))
        ax = fig.add_subplot()
        # The style is set on the figure itself, not through matplotlib's rcParams: a
        # chart changes no global state (and an rc_context per chart cost more than
        # the drawing). Ids are numbered in _svg, so no hash salt is needed either.
        for spine in ax.spines.values():
            spine.set_edgecolor("#888888")
        got = _FIGURES[width, height] = (fig, ax)
    else:
        _reset(got[1])
    return got


def _reset(ax: Axes) -> None:
    """Take the last chart's artists off the axes and let the y axis scale again.

    Cheaper than clearing the axes, which makes every tick and spine anew: what a
    chart sets (ticks, limits, grid, spines) it sets every time.
    """
    for artist in list(ax.lines):
        artist.remove()
    ax.relim()
    ax.set_autoscaley_on(True)


# Margins in inches: the y tick labels and the axis label on the left (six digits and a
# sign fit), the x tick labels below. The legend stands right of the axes.
_LEFT, _BOTTOM, _TOP, _PAD = 0.9, 0.4, 0.15, 0.15
_LEGEND_FONT = 8.5  # points
_LEGEND_EM_MAX = 22.0  # the widest legend label, in ems; longer names are cut


def _em_width(text: str) -> float:
    """A label's width in ems, estimated: a wide (East Asian) character is one em,
    any other about 0.6 (the browser draws the text with its own fonts anyway)."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text)


def _fitted(label: str) -> str:
    if _em_width(label) <= _LEGEND_EM_MAX:
        return label
    while label and _em_width(label) > _LEGEND_EM_MAX - 1:
        label = label[:-1]
    return label + "…"


def _place(fig: Figure, labels: Sequence[str], width: float, height: float) -> None:
    """Fixed margins and room for the legend, instead of a tight layout.

    A tight layout measures every text of the chart in a drawing pass of its own,
    a quarter of the chart's cost; the margins it finds vary only with the legend's
    widest label, which is estimated here.
    """
    em = _LEGEND_FONT / 72.0
    # Handle (2 em), the gap to the text (0.8 em), the pads round the legend (about 1.3 em).
    legend = (max((_em_width(t) for t in labels), default=0.0) + 4.1) * em
    right = min(max(legend + _PAD, 0.9), width / 2)
    fig.subplots_adjust(
        left=_LEFT / width,
        right=1 - right / width,
        bottom=_BOTTOM / height,
        top=1 - _TOP / height,
    )


def _svg(fig: Figure, name: str, label: str) -> Markup:
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    buf = io.StringIO()
    FigureCanvasSVG(fig)
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.S)
    text = re.sub(r' xmlns(:\w+)?="[^"]*"', "", text)
    text = text.replace("xlink:href=", "href=")
    used = set(_REF.findall(text))
    # Ids nobody refers to are dropped (smaller pages); the rest are numbered in order
    # of appearance under the chart's name (matplotlib's own are hashes, which vary
    # from process to process without a fixed salt).
    text = _DEF.sub(lambda m: m.group(0) if m.group(1) in used else "", text)
    numbers: dict[str, int] = {}
    text = _ID.sub(
        lambda m: f"{m.group(1)}{name}-{numbers.setdefault(m.group(2), len(numbers))}", text
    )
    # Scale with the page: drop the fixed size, keep the viewBox.
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", text, count=1)
    text = text.replace("<svg", f'<svg class="chart" role="img" aria-label="{escape(label)}"', 1)
    return Markup(text.strip())


def line_chart(
    name: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    markers: Sequence[Marker] = (),
    ylabel: str = "",
    colours: Sequence[str] = SEAT_COLOURS,
    width: float = 8.0,
    height: float = 3.2,
    zero_line: bool = False,
    label: str | None = None,
) -> Markup:
    """One line per series over ``labels`` (the x ticks), with optional markers.

    matplotlib draws the data (lines, markers, grid, axes); the texts (tick labels,
    the axis label, the legend) are written into the SVG here, at the places the
    axes' transform gives. Laying out text is most of what matplotlib would spend on
    a chart (docs/scale.md), and the browser draws the text with its own fonts anyway.
    ``name`` prefixes the chart's ids; ``label`` is what it is called for a screen
    reader (``name`` when not given).
    """
    # Text stays text in the SVG (the browser picks the font), so glyphs missing
    # from matplotlib's own font only affect its layout estimate: not worth a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fig, ax = _figure(width, height)
        xs = list(range(len(labels)))
        for k, (title, ys) in enumerate(series):
            ax.plot(
                xs[: len(ys)],
                list(ys),
                color=colours[k % len(colours)],
                linewidth=1.8,
                label=title,
            )
        ax.set_xlim(-0.3, max(len(labels) - 0.7, 0.7))
        ax.relim()
        ax.autoscale_view(scalex=False)
        low, high = ax.get_ylim()
        # A locator of its own: the axis's is the fixed, empty one the last chart set.
        from matplotlib.ticker import AutoLocator

        yticks = [v for v in AutoLocator().tick_values(low, high) if low <= v <= high]
        # The grid: one artist, its segments parted by NaN (an axhline each costs more).
        left, right = ax.get_xlim()
        nan = float("nan")
        grid_x = [x for _ in yticks for x in (left, right, nan)]
        grid_y = [y for v in yticks for y in (v, v, nan)]
        ax.plot(grid_x, grid_y, color="#dddddd", linewidth=0.6, zorder=0, label="_nolegend_")
        if zero_line:
            ax.plot([left, right], [0, 0], color="#999999", linewidth=0.8, label="_nolegend_")
        ax.set_xlim(left, right)
        ax.set_ylim(low, high)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
        kinds = [k for k in ("win", "deal-in", "riichi") if any(m.kind == k for m in markers)]
        shown = [_fitted(t) for t, _ in series] + [_kind_name(k) for k in kinds]
        _place(fig, shown, width, height)
        svg = str(_svg(fig, name, name if label is None else label))
        to_svg = _svg_coordinates(fig, ax)
        step = max(1, -(-len(labels) // 12))
        texts = [
            _text(*to_svg(x, low), labels[x], "middle", dy=11) for x in xs[::step]
        ] + [_text(*to_svg(xs[0] - 0.3 if xs else -0.3, v), _number(v), "end", dx=-4, dy=3)
             for v in yticks]  # fmt: skip
        if ylabel:
            x0, y0 = to_svg(-0.3, (low + high) / 2)
            texts.append(
                f'<text x="{x0 - 44:.1f}" y="{y0:.1f}" text-anchor="middle" '
                f'transform="rotate(-90 {x0 - 44:.1f} {y0:.1f})">{escape(ylabel)}</text>'
            )
        box = ax.get_position()  # the axes, in fractions of the figure
        corner = (box.x1 * width * 72.0, (1 - box.y1) * height * 72.0)
        texts += _legend(corner, series, kinds, colours)
        dots = "".join(_marker(*to_svg(m.x, m.y), m, colours) for m in markers)
    style = 'font-family="sans-serif" font-size="9" fill="#444444"'
    return Markup(svg.replace("</svg>", f"<g>{dots}</g><g {style}>{''.join(texts)}</g></svg>", 1))


def _marker(x: float, y: float, m: Marker, colours: Sequence[str]) -> str:
    """One marker, its tooltip its label: a triangle up (win) or down (deal-in), a
    diamond (riichi), drawn here like the texts (an artist each would cost more)."""
    r = _MARKERS[m.kind][1] / 2
    if m.kind == "win":
        d = f"M{x:.1f} {y - r:.1f}L{x + r:.1f} {y + r * 0.8:.1f}L{x - r:.1f} {y + r * 0.8:.1f}Z"
    elif m.kind == "deal-in":
        d = f"M{x:.1f} {y + r:.1f}L{x + r:.1f} {y - r * 0.8:.1f}L{x - r:.1f} {y - r * 0.8:.1f}Z"
    else:
        d = f"M{x:.1f} {y - r:.1f}L{x + r:.1f} {y:.1f}L{x:.1f} {y + r:.1f}L{x - r:.1f} {y:.1f}Z"
    colour = colours[m.series % len(colours)]
    return (
        f'<path d="{d}" fill="{colour}" stroke="#222222" stroke-width="0.6">'
        f"<title>{escape(m.label)}</title></path>"
    )


def _svg_coordinates(fig: Figure, ax: Axes) -> Callable[[float, float], tuple[float, float]]:
    """Data (x, y) to the SVG's own units (points from the top left)."""
    scale = 72.0 / fig.dpi
    height = fig.get_figheight() * 72.0
    transform = ax.transData.transform

    def to_svg(x: float, y: float) -> tuple[float, float]:
        px, py = transform((x, y))
        return float(px) * scale, height - float(py) * scale

    return to_svg


def _text(x: float, y: float, text: str, anchor: str, dx: float = 0, dy: float = 0) -> str:
    return f'<text x="{x + dx:.1f}" y="{y + dy:.1f}" text-anchor="{anchor}">{escape(text)}</text>'


def _number(v: float) -> str:
    return f"{v:,.0f}".replace(",", "") if float(v).is_integer() else f"{v:g}"


def _legend(
    at: tuple[float, float],
    series: Sequence[tuple[str, Sequence[float]]],
    kinds: Sequence[str],
    colours: Sequence[str],
) -> list[str]:
    """The legend right of the axes: a line (or a marker's shape) and a name per row."""
    x, y = at[0] + 12, at[1] + 8
    rows: list[str] = []
    row = _LEGEND_FONT * 1.4
    for k, (title, _ys) in enumerate(series):
        colour = colours[k % len(colours)]
        rows.append(
            f'<line x1="{x:.1f}" y1="{y - 3:.1f}" x2="{x + 16:.1f}" y2="{y - 3:.1f}" '
            f'stroke="{colour}" stroke-width="1.8"/>'
        )
        rows.append(_text(x + 22, y, _fitted(title), "start"))
        y += row
    for kind in kinds:
        rows.append(
            f'<text x="{x + 8:.1f}" y="{y:.1f}" text-anchor="middle">{_GLYPHS[kind]}</text>'
        )
        rows.append(_text(x + 22, y, _kind_name(kind), "start"))
        y += row
    return rows


_GLYPHS = {"win": "▲", "deal-in": "▼", "riichi": "◆"}


def _kind_name(kind: str) -> str:
    """A marker's kind in the legend, in the pages' language."""
    return {"win": _("win"), "deal-in": _("deal-in"), "riichi": _("riichi")}[kind]
