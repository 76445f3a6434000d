"""The geometry of the web view's charts, drawn by the templates as inline SVG.

Pure functions from `memfold.views` values to coordinates: a stacked bar chart of facts per
day, a line plot of an opinion's confidence, and a left-to-right graph of supersede chains.
No chart library and nothing fetched: the templates turn these numbers into `<rect>`,
`<circle>` and `<path>` elements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from memfold.values import Hit
from memfold.views import TYPED_KINDS, Chains, Edge, OpinionHistory, TimelineDay

MAX_FILLED_DAYS = 180  # a longer span shows only the days that have facts


@dataclass(frozen=True)
class Bar:
    kind: str
    count: int
    y: float
    height: float


@dataclass(frozen=True)
class BarGroup:
    day: date
    total: int
    x: float
    width: float
    bars: tuple[Bar, ...]
    label: str | None  # an axis label, on some groups only


@dataclass(frozen=True)
class BarChart:
    width: float
    height: float
    base: float  # the y of the zero line
    groups: tuple[BarGroup, ...]
    ticks: tuple[tuple[float, int], ...]  # (y, count)


def bar_chart(days: Sequence[TimelineDay], *, width: float = 1000.0,
              plot_height: float = 160.0) -> BarChart:
    """One group per day from the first day with facts to the last (only the days with
    facts when that span is long), each a stack of bars by kind; about `width` wide."""
    by_day = {d.day: d for d in days}
    if not days:
        return BarChart(320.0, plot_height + 40, plot_height + 10, (), ())
    first, last = days[0].day, days[-1].day
    span = (last - first).days + 1
    axis = ([first + timedelta(days=i) for i in range(span)] if span <= MAX_FILLED_DAYS
            else [d.day for d in days])
    slot = max(8.0, min(28.0, (width - 40) / len(axis)))
    top = max(d.total for d in days)
    left, base = 34.0, plot_height + 10
    scale = plot_height / top
    every = max(1, len(axis) // 10)  # about ten labels, whatever the span
    groups = []
    for i, day in enumerate(axis):
        found = by_day.get(day)
        counts = found.counts if found else {}
        bars, y = [], base
        for kind in TYPED_KINDS:
            if counts.get(kind):
                height = counts[kind] * scale
                y -= height
                bars.append(Bar(kind, counts[kind], round(y, 2), round(height, 2)))
        groups.append(BarGroup(day, found.total if found else 0, round(left + i * slot, 2),
                               round(slot * 0.75, 2),
                               tuple(bars), day.strftime("%b %d") if i % every == 0 else None))
    ticks = tuple((round(base - n * scale, 2), n) for n in _tick_values(top))
    return BarChart(max(320.0, left + len(axis) * slot + 8), base + 30, base, tuple(groups),
                    ticks)


def _tick_values(top: int) -> list[int]:
    step = max(1, -(-top // 4))
    return list(range(0, top + 1, step))


@dataclass(frozen=True)
class PlotPoint:
    x: float
    y: float
    c: float
    on: str
    seq: int  # the journal event's seq; 0 for the written confidence


@dataclass(frozen=True)
class LinePlot:
    width: float
    height: float
    start: PlotPoint | None  # the confidence the opinion was written with
    points: tuple[PlotPoint, ...]  # one per confidence event
    line: str  # the polyline's points
    grid: tuple[tuple[float, str], ...]  # (y, label)


def confidence_plot(history: OpinionHistory, *, width: float = 360.0,
                    height: float = 150.0) -> LinePlot:
    """The opinion's confidence over its events, evenly spaced left to right, starting at
    the confidence it was written with; y runs from 0 (bottom) to 1 (top)."""
    left, top, bottom = 34.0, 10.0, height - 22
    span = bottom - top
    slots = len(history.steps) + 1
    step = (width - left - 14) / max(1, slots - 1)

    def y_of(c: float) -> float:
        return round(bottom - min(1.0, max(0.0, c)) * span, 2)

    written = history.written if history.written is not None else (
        history.steps[0].before if history.steps else None)
    day = history.opinion.fact.day
    start = (PlotPoint(left, y_of(written), written, day.isoformat() if day else "-", 0)
             if written is not None else None)
    points = tuple(PlotPoint(round(left + (i + 1) * step, 2), y_of(s.after), s.after, s.on,
                             s.seq)
                   for i, s in enumerate(history.steps) if s.after is not None)
    line = " ".join(f"{p.x},{p.y}" for p in ((start,) if start else ()) + points)
    grid = tuple((y_of(c), f"{c:.2f}") for c in (0.0, 0.25, 0.5, 0.75, 1.0))
    return LinePlot(width, height, start, points, line, grid)


@dataclass(frozen=True)
class Node:
    hit: Hit
    x: float
    y: float


@dataclass(frozen=True)
class Arrow:
    edge: Edge
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Graph:
    width: float
    height: float
    nodes: tuple[Node, ...]
    arrows: tuple[Arrow, ...]
    box_width: float
    box_height: float


def chain_graph(chains: Chains, *, box_width: float = 190.0, box_height: float = 46.0,
                column: float = 340.0, row: float = 66.0) -> Graph:
    """Older facts left, the facts that replaced them right: each fact's column is the
    length of the longest chain of replacements leading to it; linked groups stack."""
    hits = {h.fact.id: h for h in chains.facts}
    edges = [e for e in chains.edges if e.old in hits and e.new in hits]
    depth = {fact_id: 0 for fact_id in hits}
    for _ in range(len(hits)):  # longest path from a root; chains are acyclic by design
        changed = False
        for e in edges:
            if depth[e.new] < depth[e.old] + 1 <= len(hits):
                depth[e.new], changed = depth[e.old] + 1, True
        if not changed:
            break
    groups: dict[str, list[str]] = {}
    for fact_id in hits:
        groups.setdefault(_group(fact_id, edges), []).append(fact_id)
    place: dict[str, tuple[float, float]] = {}
    order: list[str] = []
    top_row = 0
    for name in sorted(groups):
        members = sorted(groups[name], key=lambda i: (depth[i], hits[i].fact.day or date.min, i))
        rows: Counter[int] = Counter()
        for fact_id in members:
            col = depth[fact_id]
            place[fact_id] = (10 + col * column, 10 + (top_row + rows[col]) * row)
            rows[col] += 1
        order += members
        top_row += max(rows.values())
    nodes = tuple(Node(hits[i], *place[i]) for i in order)
    arrows = tuple(Arrow(e, place[e.old][0] + box_width, place[e.old][1] + box_height / 2,
                         place[e.new][0], place[e.new][1] + box_height / 2) for e in edges)
    width = max((x for x, _ in place.values()), default=0) + box_width + 20
    height = max((y for _, y in place.values()), default=0) + box_height + 20
    return Graph(width, height, nodes, arrows, box_width, box_height)


def _group(fact_id: str, edges: Sequence[Edge]) -> str:
    """The smallest id linked to this fact, directly or not: its group's name."""
    linked, frontier = {fact_id}, [fact_id]
    while frontier:
        current = frontier.pop()
        for e in edges:
            for a, b in ((e.old, e.new), (e.new, e.old)):
                if a == current and b not in linked:
                    linked.add(b)
                    frontier.append(b)
    return min(linked)
