"""The web view's writes (POST): restore, supersede, note, use and forget.

Each calls the `Memory` method the CLI command calls, with the CLI's defaults (reasons
"restored by hand", "superseded by hand"), so the journal gets the same events; success
leaves the CLI's message for the next page and redirects (303) to it; a refusal shows the
CLI's error line with its status — a stale note says `stale (current revision N)` (409).
Every form passes `gate.check_write` (same origin, CSRF token) before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memfold import names
from memfold.errors import BadInput, MemfoldError, StaleRevision
from memfold.memory import Memory
from memfold.web.common import failure, render, worker
from memfold.web.gate import MAX_FORM_BYTES, Refused, check_write, parse_form

if TYPE_CHECKING:
    from memfold.forget import PurgePlan

Form = dict[str, str]


async def _checked_form(request: Request) -> Form:
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_FORM_BYTES:  # before reading the body
        raise Refused(413, f"refused: the form is over {MAX_FORM_BYTES // 1024} KiB")
    form = parse_form(await request.body())
    check_write(request.state.session, form, request.headers)
    return form


def _next(request: Request, form: Form) -> str:
    """Where to go after the action: a path on this app only."""
    root = request.scope.get("root_path", "")
    target = form.get("next", "")
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return f"{root}/lifecycle"


async def _act(request: Request, run: Callable[[Memory, Form], str | PurgePlan]) -> Response:
    try:
        form = await _checked_form(request)
    except Refused as exc:
        return render(request, "error.html", status=exc.status, error=str(exc))
    try:
        outcome = await worker(request)(lambda m: run(m, form))
    except StaleRevision as exc:
        return render(request, "error.html", status=409, back=_next(request, form),
                      error=f"stale (current revision {exc.current})",
                      detail="The fact changed since this page was loaded; nothing was "
                             "written. Reload it to see the current note and revision.")
    except MemfoldError as exc:
        status, message = failure(exc)
        return render(request, "error.html", status=status, error=message,
                      back=_next(request, form))
    if not isinstance(outcome, str):  # a purge to confirm: every place it would change
        return render(request, "purge.html", plan=outcome, back=_next(request, form))
    request.state.session.flash.append(("ok", outcome))
    return RedirectResponse(_next(request, form), status_code=303)


async def restore(request: Request) -> Response:
    def run(m: Memory, form: Form) -> str:
        m.restore(form.get("id", ""), reason=form.get("reason") or "restored by hand")
        return f"{form.get('id', '')} restored"
    return await _act(request, run)


async def supersede(request: Request) -> Response:
    def run(m: Memory, form: Form) -> str:
        old, new = form.get("old", "").strip(), form.get("new", "").strip()
        changed = m.supersede(old, new, reason=form.get("reason") or "superseded by hand")
        return (f"{old} superseded by {new}" if changed else
                f"{old} was already superseded by {new}")
    return await _act(request, run)


async def note(request: Request) -> Response:
    def run(m: Memory, form: Form) -> str:
        given = form.get("rev", "").strip()  # a number as the CLI reads --rev, else refused
        rev: int | str = int(given) if re.fullmatch(r"-?[0-9]{1,18}", given) else given
        new_rev = m.note(form.get("id", ""), form.get("text", ""), rev=rev)  # type: ignore[arg-type]
        return f"applied (revision {new_rev})"
    return await _act(request, run)


async def use(request: Request) -> Response:
    def run(m: Memory, form: Form) -> str:
        m.use(form.get("id", ""))
        return f"{form.get('id', '')} used: its decay restarts from today"
    return await _act(request, run)


async def forget(request: Request) -> Response:
    """Archive; or with purge, first a page listing every place a purge would change and
    asking for the fact's id, then the purge."""
    def run(m: Memory, form: Form) -> str | PurgePlan:
        fact_id = names.fact_id(form.get("id", ""))
        if form.get("purge") != "1":
            m.forget(fact_id)
            return f"{fact_id} archived (still findable with --all; --purge removes it)"
        if "confirm" not in form:
            return m.purge(fact_id, dry_run=True)
        if names.fact_id(form["confirm"]) != fact_id:
            raise BadInput(f"type the fact's id ({fact_id}) to confirm the purge; "
                           "nothing was removed")
        plan = m.purge(fact_id)
        return (f"purged {plan.id} from {', '.join(plan.files)} "
                f"({len(plan.places)} places)")
    return await _act(request, run)
