"""Budgets hold for what a model receives: the recall and context tools measure their budget on
the serialized JSON they send, answer in a compact form unless `full` is asked for, and refuse an
over-long query without echoing it (issue 16, item 2).

The workspace is about thirty realistic facts over three days, a core block and open items.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli
from memfold import Memory
from memfold.agents import tools as at
from memfold.errors import BadInput
from memfold.recall.query import MAX_QUERY_CHARS

NOW = "2025-12-03T10:00:00"
FACTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("2025-12-01", (
        "W @Peter: Lives in Vienna with his partner Lena and their dog Bruno.",
        "W @Peter: Leads the Atlas project, the migration of billing to the new platform.",
        "B @Peter @Atlas: Kickoff meeting; agreed to freeze the old billing API by January 15.",
        "O(c=0.8) @Peter: Prefers written status updates over meetings.",
        "W @Anna: Is the design lead on Atlas and works from Lisbon.",
        "B @Anna: Shared the first mockups of the invoice screen; Peter asked for a dark mode.",
        "W @Atlas: The database is PostgreSQL 16 on the managed cluster in eu-central.",
        "W(until=2025-12-08) @Atlas: The staging environment is frozen for the audit.",
        "S @Peter: Tends to reply to email late in the evening.",
        "W @Kenji: Runs the data team in Tokyo; owns the billing exports.",
    )),
    ("2025-12-02", (
        "B @Peter @Atlas: Moved the Atlas deadline to February 28 after the audit findings.",
        "W @Atlas: The project deadline is February 28, 2026.",
        "B @Kenji @Atlas: Found duplicate invoices in the November export; fix is in review.",
        "O(c=0.6) @Anna: Thinks the invoice screen needs fewer columns.",
        "W @Lena: Works as a pediatrician at the General Hospital in Vienna.",
        "B @Peter: Booked flights to Lisbon for the design workshop on December 10.",
        "W @Omar: Joined as the new backend engineer on the payments team.",
        "B @Omar @Atlas: Wrote the migration plan for the ledger tables.",
        "W @Atlas: Rollback needs a snapshot taken less than an hour before the switch.",
        "O(c=0.9) @Peter: Dislikes late changes to the scope of a release.",
    )),
    ("2025-12-03", (
        "B @Peter @Atlas: Asked for a weekly written summary of the migration every Friday.",
        "W @Anna: Is on vacation from December 20 to January 5.",
        "B @Kenji: Shipped the fix for the duplicate invoices; the export is clean again.",
        "W @Atlas: The cutover is planned for the weekend of February 21.",
        "B @Omar: Load-tested the ledger migration; it takes about forty minutes.",
        "O(c=0.7) @Omar: Suggests moving the ledger tables first, before the invoices.",
        "W @Peter: His birthday is on March 3.",
        "B @Anna @Peter: Agreed to drop dark mode from the first release.",
        "W @Lisbon: The design workshop is at the office on Rua Augusta.",
        "W @Atlas: The old billing API serves about 2,000 requests a minute.",
    )),
)
OPEN_ITEMS = ("- [ ] Send Peter the migration summary on Friday",
              "- [ ] Ask Kenji for the December export schedule")
QUERY = "Peter Atlas project deadline"


def build(root: Path) -> None:
    """The workspace: the facts through retain, a core block, open items in today's log."""
    Memory.init(root)
    with Memory.open(root, now=NOW) as memory:
        for day, bullets in FACTS:
            memory.retain(list(bullets), date=day, source="test")
        memory.core_append("Human", "Peter, in Vienna; leads the Atlas migration.")
        memory.core_append("Project", "Atlas: billing migration, cutover weekend of Feb 21.")
    log = root / "memory" / "2025-12-03.md"
    log.write_text(log.read_text() + "\n" + "\n".join(OPEN_ITEMS) + "\n")


@pytest.fixture(scope="module")
def atlas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("budgets") / "ws"
    build(root)
    return root


def sent(data: object) -> int:
    """The characters a model receives: the JSON text every adapter sends."""
    return len(json.dumps(data, ensure_ascii=False))


# -- budgets count what is sent ---------------------------------------------------------------


def test_recall_budget_holds_for_the_json_sent(atlas: Path) -> None:
    with Memory.open(atlas, now=NOW) as memory:
        ranked = [h.fact.id for h in memory.recall(QUERY, k=10).hits]
        for budget in (200, 1500):
            found = at.call(memory, "recall", {"query": QUERY, "k": 10, "budget": budget})
            assert sent(found) <= budget * 4
            shown = [hit["id"] for hit in found["results"]]
            assert shown == ranked[:len(shown)]  # whole results, best first, cut at the end
            assert found["omitted_for_budget"] == len(ranked) - len(shown)
        small = at.call(memory, "recall", {"query": QUERY, "k": 10, "budget": 200})
        assert small["results"] and small["omitted_for_budget"] > 0
        full = at.call(memory, "recall", {"query": QUERY, "k": 10, "budget": 200, "full": True})
        assert sent(full) <= 200 * 4 and full["omitted_for_budget"] >= 8


def test_context_budget_holds_and_sends_one_form(atlas: Path) -> None:
    with Memory.open(atlas, now=NOW) as memory:
        for budget in (200, 1500):
            context = at.call(memory, "context", {"budget": budget})
            assert sent(context) <= budget * 4
            assert "sections" not in context and context["budget"] == budget
            assert "memory.md#L" in context["text"]  # core memory comes first, cited
        whole = at.call(memory, "context", {"budget": 1500})["text"]
        assert "Send Peter the migration summary on Friday" in whole
        assert sent(at.call(memory, "context", {"budget": 1500, "full": True})) <= 1500 * 4


# -- a compact form, the full one on request --------------------------------------------------


def test_compact_recall_is_much_smaller_and_keeps_what_a_model_needs(atlas: Path) -> None:
    with Memory.open(atlas, now=NOW) as memory:
        compact = at.call(memory, "recall", {"query": QUERY, "k": 10})
        full = at.call(memory, "recall", {"query": QUERY, "k": 10, "full": True})
    assert len(compact["results"]) == len(full["results"]) == 10
    assert sent(compact) < 0.65 * sent(full)
    assert "query" not in compact and "index" not in compact
    for small, big in zip(compact["results"], full["results"], strict=True):
        for key in ("id", "content", "source", "status", "why", "rev", "kind"):
            assert small[key] == big[key]
        assert small["date"] == big["timestamp"] and "score" not in small
    opinions = [hit for hit in compact["results"] if hit["kind"] == "opinion"]
    assert all(0 < hit["confidence"] <= 1 for hit in opinions)


def test_full_true_gives_the_full_form(atlas: Path) -> None:
    with Memory.open(atlas, now=NOW) as memory:
        memory.recall(QUERY)  # sync first, so both answers report the same index work
        assert at.call(memory, "recall", {"query": QUERY, "k": 10, "full": True}) == \
            memory.recall(QUERY, k=10).to_dict()
        assert at.call(memory, "about", {"name": "Peter", "full": True}) == \
            memory.about("Peter", k=20).to_dict()
        # a budget the full form fits in (sections and text both): the library's context
        context = at.call(memory, "context", {"budget": 20_000, "full": True})
        assert context == memory.context(budget=20_000).to_dict()
        about = at.call(memory, "about", {"name": "Peter"})
        assert about["found"] and about["results"][0]["source"].startswith("memory/")
        assert sent(about) < 0.65 * sent(memory.about("Peter", k=20).to_dict())


# -- over-long queries are refused, never echoed ----------------------------------------------


def test_an_over_long_query_is_refused_and_never_echoed(atlas: Path) -> None:
    query = "where does Peter live " * 10_000  # 220 KB
    with Memory.open(atlas, now=NOW) as memory:
        with pytest.raises(BadInput) as refused:
            at.call(memory, "recall", {"query": query})
        assert str(refused.value) == \
            f"recall: query must have at most {MAX_QUERY_CHARS} characters, not {len(query)}"
        with pytest.raises(BadInput, match=f"the limit is {MAX_QUERY_CHARS:,} "):
            memory.recall(query)
        with pytest.raises(BadInput, match="about: name must have at most"):
            at.call(memory, "about", {"name": "Peter" * 1000})
        answer = at.dispatch(memory, {"type": "tool_use", "id": "toolu_1", "name": "recall",
                                      "input": {"query": "x" * 2_000_000}})
        assert answer["is_error"] is True and len(answer["content"]) < 300
        longest = ("Peter " * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS]
        fits = at.call(memory, "recall", {"query": longest})
        assert "query" not in fits and longest not in json.dumps(fits)


def test_the_cli_refuses_an_over_long_query(atlas: Path) -> None:
    query = "Peter " * 1000  # 6,000 characters
    result = Cli(atlas)("recall", query, "--json")
    assert result.exit_code == 2
    assert f"the query is 6,000 characters; the limit is {MAX_QUERY_CHARS:,}" in result.stderr
    assert query not in result.output and "Traceback" not in result.output


def test_about_refuses_a_name_over_the_query_limit_in_the_library_too(memory: Memory) -> None:
    """The tool's schema caps `name`; the library holds every caller to the same limit,
    saying the length, never echoing the text."""
    with pytest.raises(BadInput, match=f"{MAX_QUERY_CHARS + 1:,} characters") as caught:
        memory.about("P" * (MAX_QUERY_CHARS + 1))
    assert "PPPP" not in str(caught.value)
