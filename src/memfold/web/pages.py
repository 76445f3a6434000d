"""The web view's pages (GET): each reads through `Memory` in the app's worker thread and
renders one template.  A library error is shown on the page as the CLI prints it
(`memfold: error: ...`), with the HTTP status of its class (400, 404, 409 or 500)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memfold.errors import BadInput, MemfoldError
from memfold.memory import Memory
from memfold.values import KIND_LETTERS
from memfold.web import charts
from memfold.web.common import failure, render, worker

RECALL_MODES = ("", "lexical", "semantic", "hybrid")
K_CHOICES = (10, 25, 50, 100)
DEFAULT_SINCE = "90d"


async def load(request: Request, read: Callable[[Memory], Any]) -> tuple[Any, str | None, int]:
    """(what `read` returned, None, 200), or (None, the CLI's error line, its status)."""
    try:
        return await worker(request)(read), None, 200
    except MemfoldError as exc:
        status, message = failure(exc)
        return None, message, status


async def home(request: Request) -> Response:
    return RedirectResponse(f"{request.scope.get('root_path', '')}/search", status_code=303)


@dataclass(frozen=True)
class SearchForm:
    q: str
    mode: str
    since: str
    until: str
    kinds: tuple[str, ...]
    include_all: bool
    k: int


def _search_form(request: Request) -> SearchForm:
    q = request.query_params
    kinds = tuple(k for k in q.getlist("kind") if k in KIND_LETTERS)
    k = int(q["k"]) if q.get("k", "").isdigit() and int(q["k"]) in K_CHOICES else 25
    return SearchForm(q=q.get("q", ""), mode=q.get("mode", "") if q.get("mode") in RECALL_MODES
                      else "", since=q.get("since", "").strip(),
                      until=q.get("until", "").strip(), kinds=kinds,
                      include_all=q.get("all") == "1", k=k)


async def search(request: Request) -> Response:
    """Recall with its options; each hit with kind, status, confidence, why, citation."""
    form = _search_form(request)
    if not form.q.strip():
        return render(request, "search.html", form=form, result=None, modes=RECALL_MODES,
                      k_choices=K_CHOICES)
    result, error, status = await load(request, lambda m: m.recall(
        form.q, k=form.k, since=form.since or None, until=form.until or None,
        kinds=form.kinds or None, include_all=form.include_all, mode=form.mode or None))
    return render(request, "search.html", status=status, form=form, result=result,
                  error=error, modes=RECALL_MODES, k_choices=K_CHOICES)


async def source_file(request: Request) -> Response:
    """A workspace file, numbered; a citation's #L<n> anchor scrolls to and marks its line."""
    path = request.query_params.get("path", "")
    source, error, status = await load(request, lambda m: m.views.source(path))
    return render(request, "file.html", status=status, path=path, source=source, error=error)


async def timeline(request: Request) -> Response:
    """Facts per day by kind (a stacked bar chart) and one day's log with its bullets."""
    q = request.query_params
    since, until = q.get("since", DEFAULT_SINCE).strip(), q.get("until", "").strip()

    def read(m: Memory) -> dict[str, Any]:
        found = m.views.timeline(since=since or DEFAULT_SINCE, until=until or None)
        chosen = next((d for d in found.days if d.day.isoformat() == q.get("day")),
                      found.days[-1] if found.days else None)
        log = None
        if chosen is not None:
            try:
                log = m.views.source(m.workspace.daily_path(chosen.day))
            except BadInput:
                log = None  # facts dated that day live in another file
        return {"timeline": found, "chosen": chosen, "log": log,
                "chart": charts.bar_chart(found.days)}

    data, error, status = await load(request, read)
    return render(request, "timeline.html", status=status, since=since, until=until,
                  error=error, **(data or {"timeline": None, "chosen": None, "log": None,
                                           "chart": None}))


async def entity(request: Request) -> Response:
    """An entity's facts newest first, its page, its opinions and its supersede chains;
    without a name, the entities facts mention."""
    name = request.query_params.get("name", "").strip()
    if not name:
        names, error, status = await load(request, lambda m: m.views.entities())
        return render(request, "entities.html", status=status, names=names or [], error=error)

    def read(m: Memory) -> dict[str, Any]:
        about = m.about(name, k=500, include_all=True)
        page = m.views.source(about.page) if about.page else None
        chains = m.views.chains([h.fact.id for h in about.hits])
        return {"about": about, "page": page, "graph": charts.chain_graph(chains),
                "opinions": [h for h in about.hits if h.fact.kind == "opinion"]}

    data, error, status = await load(request, read)
    return render(request, "entity.html", status=status, name=name, error=error,
                  **(data or {"about": None, "page": None, "graph": None, "opinions": []}))


async def opinions(request: Request) -> Response:
    """Each opinion's confidence over time, with the evidence for and against each step."""
    about = request.query_params.get("entity", "").strip()
    found, error, status = await load(request, lambda m: m.views.opinions(entity=about or None))
    plots = [(h, charts.confidence_plot(h)) for h in found or []]
    return render(request, "opinions.html", status=status, entity=about, plots=plots,
                  error=error)


async def lifecycle(request: Request) -> Response:
    """Superseded, merged, expired, archived and soon-to-fade facts, with the actions."""
    lists, error, status = await load(request, lambda m: m.views.lifecycle())
    return render(request, "lifecycle.html", status=status, lists=lists, error=error)


async def fact(request: Request) -> Response:
    """One fact: provenance, status, note (with its revision), history and lineage, and
    the forms that act on it."""
    fact_id = request.path_params["fact_id"]

    def read(m: Memory) -> dict[str, Any]:
        hit = m.get(fact_id, use=False)  # a person looking is not an agent using it
        return {"hit": hit, "events": m.history(fact_id), "trace": m.trace(fact_id)}

    data, error, status = await load(request, read)
    return render(request, "fact.html", status=status, fact_id=fact_id, error=error,
                  **(data or {"hit": None, "events": [], "trace": None}))


async def health(request: Request) -> Response:
    """Index freshness, warnings with path:line, integrity problems, reflect's stale pages
    and the diff a reflect run would write."""
    def read(m: Memory) -> dict[str, Any]:
        report = m.status()  # first: anything else syncs, and freshness would read clean
        plan = m.reflect(dry_run=True)
        return {"report": report, "warnings": m.warnings(), "journal": m.views.journal_check(),
                "plan": plan, "diff": plan.diff()}

    data, error, status = await load(request, read)
    return render(request, "health.html", status=status, error=error,
                  **(data or {"report": None, "warnings": [], "journal": None, "plan": None,
                              "diff": ""}))
