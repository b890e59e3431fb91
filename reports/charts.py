"""Charts drawn with matplotlib and inlined as SVG.

Output is deterministic: a fixed ``svg.hashsalt``, no date or creator metadata,
text kept as text (smaller and searchable), and every id prefixed with the chart's
own name so that several charts on one page never share an id.

Cheap enough to draw one per game page (benchmarks/bench_report.py, docs/scale.md):
matplotlib is imported on the first chart (0.6 s, which commands that draw no
chart do not pay); each process draws every chart of a size on one figure, taking
the last chart's lines and legend off its axes rather than clearing them (which
makes every tick anew) (:func:`prepare_charts` imports and builds it before a
folder report forks its workers, which then share it); and the margins are fixed,
with room for the legend estimated from its labels, instead of a tight layout,
which measured every text in a drawing pass of its own and was half of a chart's
cost. A chart drawn on a used figure is the chart drawn on a new one (tested).
"""

from __future__ import annotations

import io
import re
import unicodedata
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["SEAT_COLOURS", "Marker", "line_chart", "prepare_charts"]

SEAT_COLOURS = ("#d04a3c", "#2f6fc0", "#2d9a5b", "#9a5bc0")
_STYLE: dict[str, Any] = {
    "svg.hashsalt": "mjaudit",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9.0,
    "axes.edgecolor": "#888888",
    "axes.labelcolor": "#333333",
    "xtick.color": "#444444",
    "ytick.color": "#444444",
}
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
    "riichi": ("D", 4.5, "riichi"),
}


_FIGURES: dict[tuple[float, float], tuple[Figure, Axes]] = {}


def prepare_charts() -> None:
    """Import matplotlib and build the usual figures now (before forking workers)."""
    with _styled():
        _figure(8.0, 3.2)


def _styled() -> Any:
    import matplotlib

    return matplotlib.rc_context(rc=cast(Any, _STYLE))


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    """This process's figure of that size, its axes cleared."""
    got = _FIGURES.get((width, height))
    if got is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(width, height))
        got = _FIGURES[width, height] = (fig, fig.add_subplot())
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
    legend = ax.get_legend()
    if legend is not None:
        legend.remove()
    ax.set_ylabel("")
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


def _svg(fig: Figure, name: str) -> Markup:
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
    # Ids nobody refers to are dropped (smaller pages); the rest are namespaced.
    text = _DEF.sub(
        lambda m: m.group(0) if m.group(1) in used or m.group(1).startswith("mk") else "", text
    )
    text = _ID.sub(lambda m: f"{m.group(1)}{name}-{m.group(2)}", text)
    # Scale with the page: drop the fixed size, keep the viewBox.
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", text, count=1)
    text = text.replace("<svg", f'<svg class="chart" role="img" aria-label="{name}"', 1)
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
) -> Markup:
    """One line per series over ``labels`` (the x ticks), with optional markers."""
    # Text stays text in the SVG (the browser picks the font), so glyphs missing
    # from matplotlib's own font only affect its layout estimate: not worth a warning.
    with _styled(), warnings.catch_warnings():
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
        for k, m in enumerate(markers):
            shape, size, _ = _MARKERS[m.kind]
            (artist,) = ax.plot(
                [m.x],
                [m.y],
                marker=shape,
                markersize=size,
                linestyle="none",
                color=colours[m.series % len(colours)],
                markeredgecolor="#222222",
                markeredgewidth=0.6,
                label="_nolegend_",
            )
            artist.set_gid(f"mk{k}")
        if zero_line:
            ax.axhline(0, color="#999999", linewidth=0.8)
        step = max(1, -(-len(labels) // 12))
        ax.set_xticks(xs[::step], [labels[i] for i in xs[::step]], rotation=0)
        ax.set_xlim(-0.3, max(len(labels) - 0.7, 0.7))
        if ylabel:
            ax.set_ylabel(ylabel)
        ax.grid(True, axis="y", color="#dddddd", linewidth=0.6)
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
        handles: list[Any]
        handles, names = ax.get_legend_handles_labels()
        extra: list[Any] = [
            ax.plot([], [], marker=_MARKERS[k][0], linestyle="none", color="#777777")[0]
            for k in ("win", "deal-in", "riichi")
            if markers and any(m.kind == k for m in markers)
        ]
        extra_names = [k for k in ("win", "deal-in", "riichi") if any(m.kind == k for m in markers)]
        options: dict[str, Any] = {
            "loc": "upper left",
            "bbox_to_anchor": (1.0, 1.0),
            "frameon": False,
            "fontsize": 8.5,
        }
        shown = [_fitted(t) for t in list(names) + extra_names]
        ax.legend(list(handles) + extra, shown, **options)
        _place(fig, shown, width, height)
        svg = _svg(fig, name)
    text = str(svg)
    for k, m in enumerate(markers):
        gid = f'<g id="{name}-mk{k}">'
        text = text.replace(gid, f"{gid}<title>{escape(m.label)}</title>", 1)
    return Markup(text)
