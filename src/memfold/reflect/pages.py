"""Reflect's entity pages: bank/entities/<Slug>.md gets a generated summary of the entity's
active facts by kind, newest first (PER_KIND of each at most), each line citing its source and
the hash of the text cited.  A page is planned for every entity the window's facts name, and
for every entity page citing text that changed since it was written.  A name whose page would
leave bank/entities never becomes a path (`text.page_slug`, `Pages.inside`).
"""

from __future__ import annotations

from memfold.index.base import Candidate
from memfold.lifecycle.ledger import content_sha
from memfold.names import entity_key
from memfold.reflect.draft import Draft, newest_first
from memfold.reflect.text import page_slug
from memfold.workspace.format import SUMMARY, replace_region, summary_line

PER_KIND = 25  # facts per kind on an entity page
KIND_TITLES = (("world", "World"), ("experience", "Experience"), ("opinion", "Opinions"),
               ("observation", "Observations"))


def entity_pages(draft: Draft, recent: list[Candidate]) -> None:
    """Stage the summary of every entity the window names or whose page went stale."""
    keys = {entity_key(e) for c in recent for e in c.fact.entities}
    keys |= _stale_entities(draft)
    for key in sorted(k for k in keys if k):
        _entity_page(draft, key)


def _stale_entities(draft: Draft) -> set[str]:
    stale_pages = {page for page, _line, _src, _sl, sha, content
                   in draft.backend.citations() if content is None
                   or content_sha(content) != sha}
    keys: set[str] = set()
    for page in stale_pages:
        if page.startswith("bank/entities/"):
            keys.add(entity_key(page.rsplit("/", 1)[-1].removesuffix(".md")))
    return keys


def _entity_page(draft: Draft, key: str) -> None:
    info = draft.backend.entity(key)
    if info is None:
        return
    page = info.page or f"bank/entities/{page_slug(info.name)}.md"
    if not draft.pages.inside("bank/entities", page):
        return  # a name that would leave bank/entities never becomes a path
    facts = [c for c in draft.linked([key]) if c.fact.path != page
             and not draft.is_secret(c.fact.content)]
    body = ["## Summary (generated)"]
    for kind, title in KIND_TITLES:
        of_kind = sorted((c for c in facts if c.fact.kind == kind), key=newest_first)
        if of_kind:
            body += ["", f"### {title}"]
            body += [summary_line(c.fact, page, draft.confidence_now(c),
                                  content_sha(c.fact.content)) for c in of_kind[:PER_KIND]]
    text = draft.page_text(page) or f"# {info.name}\n"
    draft.stage(page, replace_region(text, SUMMARY, body))
