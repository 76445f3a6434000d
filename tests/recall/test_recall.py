"""Recall at the library level: `Memory.recall`, `about`, `get`, `plan_query`.

Every recall in this file goes through `ask`, which checks each returned citation against
the file's current line.  "Now" is fixed (see recall_corpus), so every relative time is
reproducible.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memfold.errors import BadInput, SourceChanged, UnknownId
from memfold.index.sqlite.fts import expression as fts_expression
from memfold.memory import Memory
from memfold.recall.query import MAX_QUERY_CHARS, plan_query
from memfold.values import KINDS, Interval, RecallResult, estimate_tokens, render_hit
from recall_corpus import FILES, NOW, PETER_FACTS, build, check_sources, file_lines

TODAY = date(2025, 12, 3)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Memory]]:
    """A read-only corpus shared by the tests that only query it."""
    root = tmp_path_factory.mktemp("corpus") / "ws"
    Memory.init(root)
    build(root)
    with Memory.open(root, now=NOW) as memory:
        yield root, memory


@pytest.fixture
def fresh(workspace: Path) -> Iterator[tuple[Path, Memory]]:
    """A corpus of its own, for tests that edit files."""
    build(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        yield workspace, memory


def ask(pair: tuple[Path, Memory], query: str, **kwargs: Any) -> RecallResult:
    root, memory = pair
    result = memory.recall(query, **kwargs)
    check_sources(root, result.hits)
    check_sources(root, result.to_dict()["results"])
    return result


def ids(result: RecallResult) -> list[str]:
    return [h.fact.id for h in result.hits]


def in_window(hit_day: date | None, valid: Interval | None, window: Interval) -> bool:
    start = window.start or date.min
    end = window.end or date.max
    if hit_day is not None and start <= hit_day <= end:
        return True
    return bool(valid and valid.end and valid.end >= start
                and (valid.start or hit_day or date.min) <= end)


# -- lexical ------------------------------------------------------------------------------------


def test_plain_words_find_the_fact_first_and_the_chunk_after(corpus: Any) -> None:
    result = ask(corpus, "Baileys crash")
    assert ids(result)[0] == "baileys1"
    sources = [h.fact.source for h in result.hits]
    # the narrative paragraph, cited at its chunk's first line (the heading above it)
    assert "memory/2025-11-27.md#L1" in sources
    assert sources.index("memory/2025-11-27.md#L1") > 0


def test_a_plain_english_question_drops_stop_words(corpus: Any) -> None:
    plan = plan_query("How did we fix the Baileys crash?", today=TODAY)
    assert plan.terms == ("fix", "baileys", "crash")
    assert ids(ask(corpus, "How did we fix the Baileys crash?"))[0] == "baileys1"


def test_terms_are_or_ed_so_one_unknown_word_does_not_empty_the_result(corpus: Any) -> None:
    assert "baileys1" in ids(ask(corpus, "Baileys xylophone"))
    assert ask(corpus, "xylophone quasar").hits == ()


def test_a_quoted_phrase_is_matched_as_a_phrase(corpus: Any) -> None:
    loose = ids(ask(corpus, "concise replies"))
    assert {"concise1", "replies1"} <= set(loose)
    phrase = ids(ask(corpus, '"concise replies"'))
    assert phrase == ["concise1"]  # "Replies that are ... not concise" is not the phrase
    assert plan_query('"concise replies" now', today=TODAY).phrases == ("concise replies",)


def test_stemming_matches_word_forms(corpus: Any) -> None:
    assert "baileys1" in ids(ask(corpus, "crashes fixing"))


def test_a_fenced_line_is_text_not_a_fact(corpus: Any) -> None:
    result = ask(corpus, "quarantined zebra")
    assert [h.fact.kind for h in result.hits] == ["text"]
    assert result.hits[0].fact.source == "memory/2025-11-28.md#L1"  # heading + fence
    assert "quarantined zebra" in result.hits[0].fact.content


def test_a_query_of_only_stop_words_still_searches(corpus: Any) -> None:
    result = ask(corpus, "AND")
    assert plan_query("AND", today=TODAY).terms == ("and",)
    assert "syntax01" in ids(result)


# -- FTS5 syntax is plain text ------------------------------------------------------------------

FTS_SYNTAX = [
    '"', '""', '"""', "AND", "OR", "NOT", "AND OR NOT", "NEAR(", "NEAR(a b, 2)", "*", "**",
    "-x", "a:b", "body:crash", "names:Peter", "'); DROP TABLE facts;--", "()", "(", ")", "{",
    "}", "[", "^", "^vienna01", '"concise replies', 'concise "replies', 'a "b', '"a" "b',
    "Baileys*", "Bail*", "-crash", "+crash", "crash AND", "OR crash", "NOT crash",
    "crash NEAR(", "\\", "\\\"", "'", "`", "%", "_", "?", "!", "#", ";", "--", "/*", "*/",
    "@", "@@", "@-", "a@b.c", "\x00", "crash\x00baileys", "NEAR/3", "col : term", ":",
    "\"NEAR(\" OR", "x OR", "{body names}: crash", "- W @Peter: fake bullet",
]


@pytest.mark.parametrize("query", FTS_SYNTAX)
def test_fts_syntax_in_a_query_is_plain_text(corpus: Any, query: str) -> None:
    result = ask(corpus, query)  # no error, and every citation is right
    assert isinstance(result, RecallResult)
    json.dumps(result.to_dict(), ensure_ascii=False)


@pytest.mark.parametrize(("query", "expected"), [
    ("NEAR(", "syntax01"),
    ("AND OR NOT", "syntax01"),
    ("'); DROP TABLE facts;--", "syntax01"),
    ("body:crash", "baileys1"),  # not the column filter `body : crash`... but the words
    ("-crash", "baileys1"),  # not NOT
    ("NOT crash", "baileys1"),
    ("Baileys*", "baileys1"),
    ('"concise replies', "concise1"),  # an unbalanced quote: the words still count
    ("crash\x00baileys", "baileys1"),
])
def test_operators_are_searched_as_words(corpus: Any, query: str, expected: str) -> None:
    assert expected in ids(ask(corpus, query))


def test_an_asterisk_is_not_a_prefix_operator(corpus: Any) -> None:
    assert "baileys1" not in ids(ask(corpus, "Bail*"))


def test_a_column_filter_does_not_restrict_to_that_column(corpus: Any) -> None:
    # `names:Peter` would search only the names column; as words it also finds the page text
    result = ask(corpus, "names:Peter")
    assert "bank/entities/Peter.md#L4" in [h.fact.source for h in result.hits]


def test_sql_in_a_query_leaves_the_index_intact(corpus: Any) -> None:
    corpus[1].index()  # the shared corpus is synced whichever test runs first
    before = corpus[1].status().facts_by_kind
    assert before
    ask(corpus, "'); DROP TABLE facts;--")
    ask(corpus, '" OR 1=1; DELETE FROM facts; --')
    assert corpus[1].status().facts_by_kind == before
    assert ids(ask(corpus, "Vienna")) == ["vienna01"]


@pytest.mark.parametrize("query", ['"', '""', "*", "()", "{", "^", "@", "‍", "·"])
def test_a_query_with_nothing_to_search_finds_nothing(corpus: Any, query: str) -> None:
    # not every fact in memory "in range"
    assert ask(corpus, query).hits == ()


def test_an_emoji_query_finds_only_the_facts_holding_it(corpus: Any) -> None:
    assert ids(ask(corpus, "🍣")) == ["sushi001"]


def test_a_contentless_query_with_filters_lists_the_newest_in_range(corpus: Any) -> None:
    result = ask(corpus, "*", kinds="B", since="2025-11-01")
    assert ids(result) == ["deploy01", "zurich01", "baileys1", "relaylog", "danang01"]


# -- scripts, diacritics, size ------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("ha noi", {"hanoi001", "hanoicap"}),
    ("Ha Noi", {"hanoi001", "hanoicap"}),
    ("HA NOI", {"hanoi001", "hanoicap"}),
    ("Hà Nội", {"hanoi001", "hanoicap"}),
    ("hà nội", {"hanoi001", "hanoicap"}),
    ("HÀ NỘI", {"hanoi001", "hanoicap"}),
    (unicodedata.normalize("NFD", "Hà Nội"), {"hanoi001", "hanoicap"}),
    ("da nang", {"danang01"}),
    ("Đà Nẵng", {"danang01"}),
    ("đà nẵng", {"danang01"}),
    ("DA NANG", {"danang01"}),
    ("Hạ Long", {"halong01"}),  # accents in the query, none in the text
    ("ho hoan kiem", {"hoankiem"}),  # decomposed (NFD) accents in the file
    ("Hồ Hoàn Kiếm", {"hoankiem"}),
])
def test_vietnamese_is_diacritic_insensitive(corpus: Any, query: str,
                                             expected: set[str]) -> None:
    found = ids(ask(corpus, query))
    assert expected <= set(found[: len(expected)]), found


def test_a_vietnamese_entity_is_named_without_accents(corpus: Any) -> None:
    result = ask(corpus, "ha noi")
    assert result.entities == ("ha-noi",)
    assert ids(result)[0] == "hanoicap"  # linked to @Hà-Nội, so boosted
    assert "entity @Hà-Nội" in result.hits[0].why


@pytest.mark.parametrize(("query", "expected"), [
    ("東京", "tokyo001"),
    ("sushi 🎉", "sushi001"),
    ("🍣 sushi", "sushi001"),
    ("القاهرة", "cairo001"),
    ("Zürich", "zurich01"),
    ("zurich", "zurich01"),
    ("ZÜRICH", "zurich01"),
])
def test_other_scripts_and_emoji(corpus: Any, query: str, expected: str) -> None:
    assert ids(ask(corpus, query))[0] == expected


@pytest.mark.parametrize("query", [
    "x" * 100_000,
    "Baileys crash " * 8_000,
    "🍣" * 100_000,
    "東京" * 50_000,
    "a" + "\u0301" * 100_000,
    "\u200d" * 100_000,
    '"' * 100_000,
    "(" * 50_000 + "crash",
    "@Peter " * 15_000,
    "around Nov 27 " * 8_000,
    "\U0001F469\u200D\U0001F4BB " * 10_000,
    "\ud800 crash \udcff",
    '"\udcffcrash"',
    "ي" * 100_000,
])
def test_huge_or_exotic_queries_work(corpus: Any, query: str) -> None:
    # over MAX_QUERY_CHARS a query is refused, its length named and its text not echoed
    # (issue 16); the longest one allowed of each kind still works
    if len(query) > MAX_QUERY_CHARS:
        with pytest.raises(BadInput, match=f"the limit is {MAX_QUERY_CHARS:,} ") as refused:
            ask(corpus, query)
        assert len(str(refused.value)) < 200
        query = query[:MAX_QUERY_CHARS]
    result = ask(corpus, query)
    assert result.query == query
    assert len(result.hits) <= 25


def test_a_long_question_keeps_its_first_words(corpus: Any) -> None:
    query = ("Baileys crash " + "filler " * 20_000)[:MAX_QUERY_CHARS]
    assert ids(ask(corpus, query))[0] == "baileys1"


# -- entities -----------------------------------------------------------------------------------


def test_a_mention_boosts_linked_facts_above_the_rest(corpus: Any) -> None:
    result = ask(corpus, "@Peter")
    assert result.entities == ("peter",)
    linked = [bool({"peter"} & {e.casefold() for e in h.fact.entities}) or
              h.fact.path == "bank/entities/Peter.md" for h in result.hits]
    assert all(linked)
    assert set(ids(result)) >= PETER_FACTS


def test_a_known_name_without_at_is_an_entity(corpus: Any) -> None:
    result = ask(corpus, "Peter coffee")
    assert result.entities == ("peter",)
    assert ids(result)[0] == "coffee01"
    assert "entity @Peter" in result.hits[0].why


@pytest.mark.parametrize("query", ["where does Pete live", "where does peter steinberger live",
                                   "where does PETER live", "where does @pete live"])
def test_an_alias_names_the_entity(corpus: Any, query: str) -> None:
    result = ask(corpus, query)
    assert result.entities == ("peter",)
    assert ids(result)[0] == "vienna01"


def test_an_entity_boost_beats_an_equal_word_match(corpus: Any) -> None:
    # "Lives" matches Kenji's and Anna's facts too; Peter's wins through the link
    top = ask(corpus, "Where does Peter live?").hits
    assert top[0].fact.id == "vienna01"
    assert top[0].score > max(h.score for h in top if h.fact.id in {"tokyo001", "hanoi001"})


@pytest.mark.parametrize("names", [["Peter"], ["pete"], ["@Peter"], ["Peter Steinberger"]])
def test_the_entity_filter_keeps_only_linked_facts(corpus: Any, names: list[str]) -> None:
    result = ask(corpus, "lives", entities=names)
    assert ids(result) == ["vienna01"]


def test_two_entity_filters_mean_either(corpus: Any) -> None:
    assert set(ids(ask(corpus, "lives", entities=["Peter", "Kenji"]))) == {"vienna01",
                                                                            "tokyo001"}


def test_an_unknown_entity_filter_finds_nothing(corpus: Any) -> None:
    assert ask(corpus, "lives", entities=["Nobody"]).hits == ()


@pytest.mark.parametrize("query", ["tell me about Pete", "Tell me about @Peter!",
                                   "what do you know about peter steinberger?", "who is Peter",
                                   "who's pete", "tell me everything about Peter"])
def test_tell_me_about_lists_the_entity_newest_first(corpus: Any, query: str) -> None:
    result = ask(corpus, query)
    assert result.entities == ("peter",)
    assert set(ids(result)) == PETER_FACTS | {result.hits[-1].fact.id}
    assert result.hits[-1].fact.path == "bank/entities/Peter.md"  # undated: last
    days = [h.fact.day for h in result.hits if h.fact.day]
    assert days == sorted(days, reverse=True)
    assert ids(result)[0] == "zurich01"


@pytest.mark.parametrize("name", ["Peter", "peter", "@PETER", "Pete", "peter steinberger",
                                  " Peter "])
def test_about(corpus: Any, name: str) -> None:
    result = corpus[1].about(name)
    assert result.key == "peter" and result.name == "Peter"
    assert result.page == "bank/entities/Peter.md"
    assert result.aliases == ("Pete", "Peter Steinberger")
    check_sources(corpus[0], result.hits)
    assert {h.fact.id for h in result.hits} >= PETER_FACTS
    days = [h.fact.day or date.min for h in result.hits]
    assert days == sorted(days, reverse=True)
    data = result.to_dict()
    assert data["found"] is True and data["entity"] == "Peter"
    assert [r["id"] for r in data["results"]] == [h.fact.id for h in result.hits]


def test_about_an_entity_without_a_page(corpus: Any) -> None:
    result = corpus[1].about("ha noi")
    assert result.key == "ha-noi" and result.page is None
    assert [h.fact.id for h in result.hits] == ["hanoicap"]


def test_about_honours_k(corpus: Any) -> None:
    assert [h.fact.id for h in corpus[1].about("Peter", k=2).hits] == ["zurich01",
                                                                        "marrak01"]


def test_about_someone_unknown(corpus: Any) -> None:
    result = corpus[1].about("Nobody")
    assert result.key is None and result.hits == () and result.page is None
    assert result.to_dict()["found"] is False


@pytest.mark.parametrize("name", ["", "   ", "@", " @ "])
def test_about_without_a_name_is_bad_input(corpus: Any, name: str) -> None:
    with pytest.raises(BadInput):
        corpus[1].about(name)


# -- time ---------------------------------------------------------------------------------------


def assert_all_in(result: RecallResult, window: Interval) -> None:
    assert result.window == window
    for h in result.hits:
        assert in_window(h.fact.day, h.fact.valid, window), h.fact.source


def test_around_a_date(corpus: Any) -> None:
    result = ask(corpus, "what happened around Nov 27")
    assert_all_in(result, Interval(date(2025, 11, 24), date(2025, 11, 30)))
    assert {"marrak01", "baileys1", "concise1", "relaylog", "sqlite01"} <= set(ids(result))
    assert not {"coffee01", "zurich01", "vienna01"} & set(ids(result))


@pytest.mark.parametrize("query", ["in November 2025", "what was true in Nov 2025",
                                   "during November 2025", "in 2025-11"])
def test_in_a_month_includes_facts_valid_then(corpus: Any, query: str) -> None:
    result = ask(corpus, query)
    assert_all_in(result, Interval(date(2025, 11, 1), date(2025, 11, 30)))
    found = set(ids(result))
    assert "lisbon01" in found  # written in October, valid from Nov 3
    assert {"marrak01", "hanoi001", "coffee01"} <= found
    assert not {"vienna01", "oslo0001", "zurich01", "deploy01"} & found


def test_last_week(corpus: Any) -> None:
    result = ask(corpus, "last week")
    assert_all_in(result, Interval(date(2025, 11, 24), date(2025, 11, 30)))
    assert {"hanoicap", "relaylog", "marrak01"} <= set(ids(result))


def test_since_monday_includes_what_was_still_valid(corpus: Any) -> None:
    result = ask(corpus, "since Monday")
    assert_all_in(result, Interval(date(2025, 12, 1), date(2025, 12, 3)))
    found = set(ids(result))
    assert {"zurich01", "deploy01", "marrak01"} <= found  # Marrakech: written Nov 27, valid on
    assert "baileys1" not in found


def test_yesterday(corpus: Any) -> None:
    result = ask(corpus, "what happened yesterday?")
    assert_all_in(result, Interval(date(2025, 12, 2), date(2025, 12, 2)))
    written = [h for h in result.hits if h.fact.day == date(2025, 12, 2)]
    assert len(written) == 2 and "deploy01" in ids(result)
    assert {h.fact.path for h in written} == {"memory/2025-12-02.md"}
    # besides those, only facts still valid yesterday
    assert {h.fact.id for h in result.hits if h not in written} == {"marrak01", "lisbon01"}


def test_a_time_phrase_narrows_a_word_search(corpus: Any) -> None:
    plan = plan_query("Baileys crash last week", today=TODAY)
    assert plan.terms == ("baileys", "crash")
    result = ask(corpus, "Baileys crash last week")
    assert ids(result)[0] == "baileys1"
    # beside words, a time phrase boosts rather than filters: no October fact mentions the
    # crash, so the November one still answers (events are often written down later)
    october = ask(corpus, "Baileys crash in October")
    assert ids(october)[0] == "baileys1"
    assert "written after 2025-10-01..2025-10-31" in october.hits[0].why  # November's
    # and of two facts matching the same words, the one from the asked time comes first
    peter = ask(corpus, "Peter in October")
    assert peter.hits[0].fact.day == date(2025, 10, 20)


def test_a_fact_valid_then_ranks_above_one_written_another_time(workspace: Path) -> None:
    (workspace / "memory/2025-10-05.md").write_text(
        "## Retain\n- W @Anna: Works from the Lisbon office.\n"
        "- W @Anna: Works from the Porto office (Nov 1–Dec 20, 2025).\n")
    with Memory.open(workspace, now=NOW) as memory:
        result = ask((workspace, memory), "where did Anna work in November 2025")
        assert [h.fact.line for h in result.hits] == [3, 2]


@pytest.mark.parametrize(("kwargs", "window"), [
    ({"since": "2025-12-01"}, Interval(date(2025, 12, 1), None)),
    ({"until": "2025-10-31"}, Interval(None, date(2025, 10, 31))),
    ({"since": "2025-11", "until": "2025-11"}, Interval(date(2025, 11, 1), date(2025, 11, 30))),
    ({"since": "last week", "until": "last week"},
     Interval(date(2025, 11, 24), date(2025, 11, 30))),
    ({"since": "7d"}, Interval(date(2025, 11, 26), None)),
    ({"since": "yesterday"}, Interval(date(2025, 12, 2), None)),
    ({"since": date(2025, 11, 27), "until": date(2025, 11, 27)},
     Interval(date(2025, 11, 27), date(2025, 11, 27))),
])
def test_since_and_until(corpus: Any, kwargs: dict[str, Any], window: Interval) -> None:
    result = ask(corpus, "*", **kwargs)
    assert result.hits
    assert_all_in(result, window)
    every = ask(corpus, "*", since="1900-01-01", k=1000)
    expected = {h.fact.id for h in every.hits if in_window(h.fact.day, h.fact.valid, window)}
    assert set(ids(result)) == expected


def test_since_intersects_a_time_phrase(corpus: Any) -> None:
    result = ask(corpus, "in November 2025", since="2025-11-25")
    assert result.window == Interval(date(2025, 11, 25), date(2025, 11, 30))
    assert "hanoi001" not in ids(result)


def test_now_comes_from_memfold_now(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(workspace)
    monkeypatch.setenv("MEMFOLD_NOW", "2025-11-28T08:00:00")
    with Memory.open(workspace) as memory:
        result = ask((workspace, memory), "yesterday")
        assert result.as_of.startswith("2025-11-28T08:00:00")
        assert_all_in(result, Interval(date(2025, 11, 27), date(2025, 11, 27)))
        assert "baileys1" in ids(result) and "deploy01" not in ids(result)
        # an explicit now beats the environment
        later = ask((workspace, memory), "yesterday", now=NOW)
        assert later.as_of.startswith("2025-12-03T10:00:00")
        assert "deploy01" in ids(later)


def test_as_of_is_the_moment_used(corpus: Any) -> None:
    assert ask(corpus, "crash").as_of.startswith(NOW)


# -- opinions -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "first"), [
    ("what does Peter prefer", "concise1"),
    ("What does Peter prefer?", "concise1"),
    ("what does Pete like", "coffee01"),
    ("what does Peter think about coffee", "coffee01"),
    ("Peter's preferences", "concise1"),
])
def test_opinion_questions_favour_opinions(corpus: Any, query: str, first: str) -> None:
    plan = plan_query(query, today=TODAY)
    assert plan.opinion
    result = ask(corpus, query)
    assert ids(result)[0] == first
    top = result.hits[0]
    assert top.fact.kind == "opinion" and "opinion asked" in top.why
    assert top.confidence == {"concise1": 0.95, "coffee01": 0.6}[first]
    assert result.to_dict()["results"][0]["confidence"] == top.confidence
    assert f"c={top.confidence:.2f}" in render_hit(top)
    # both of Peter's opinions come before anything else
    assert set(ids(result)[:2]) == {"concise1", "coffee01"}


def test_a_question_without_opinion_words_is_not_an_opinion_question() -> None:
    assert not plan_query("where does Peter live", today=TODAY).opinion


def test_an_opinion_beats_a_fact_worded_the_same_when_opinions_are_asked(
        workspace: Path) -> None:
    (workspace / "memory/2025-11-20.md").write_text(
        "## Retain\n- W @Peter: Likes green tea.\n- O @Peter: Likes green tea.\n")
    with Memory.open(workspace, now=NOW) as memory:
        asked = ask((workspace, memory), "what does Peter like")
        assert [h.fact.kind for h in asked.hits] == ["opinion", "world"]
        plain = ask((workspace, memory), "Peter green tea")
        assert [h.fact.kind for h in plain.hits] == ["world", "opinion"]


# -- ranking ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["W", "B", "O", "S"])
def test_a_fact_ranks_above_the_same_words_as_narrative(workspace: Path, kind: str) -> None:
    (workspace / "memory/2025-11-20.md").write_text(
        "Quokka sightings are rare on the mainland.\n\n"
        f"## Retain\n- {kind}: Quokka sightings are rare on the mainland.\n")
    with Memory.open(workspace, now=NOW) as memory:
        result = ask((workspace, memory), "quokka sightings mainland")
        assert [h.fact.source for h in result.hits] == ["memory/2025-11-20.md#L4",
                                                        "memory/2025-11-20.md#L1"]
        assert result.hits[1].fact.kind == "text"
        assert result.hits[0].score > result.hits[1].score


def test_confidence_weighs(workspace: Path) -> None:
    (workspace / "memory/2025-11-20.md").write_text(
        "## Retain\n- O(c=0.5): Wombats are underrated.\n- O: Wombats are underrated.\n"
        "- O(c=0.9): Wombats are underrated.\n")
    with Memory.open(workspace, now=NOW) as memory:
        result = ask((workspace, memory), "wombats underrated")
        assert [h.confidence for h in result.hits] == [0.9, 0.7, 0.5]
        assert result.hits[0].score > result.hits[1].score > result.hits[2].score


def test_importance_weighs(workspace: Path) -> None:
    (workspace / "memory/2025-11-20.md").write_text(
        "## Retain\n- W: Otters hold hands.\n- W(i=9): Otters hold hands.\n")
    with Memory.open(workspace, now=NOW) as memory:
        result = ask((workspace, memory), "otters")
        assert [h.fact.importance for h in result.hits] == [9, None]


def test_ties_break_by_path_then_line(workspace: Path) -> None:
    same = "- W: Pangolins eat ants.\n"
    (workspace / "memory/2025-11-27.md").write_text("## Retain\n" + same + same)
    (workspace / "bank/world.md").write_text("# World\n\n## Retain\n" + same)
    (workspace / "bank/experience.md").write_text("## Retain\n" + same)
    with Memory.open(workspace, now=NOW) as memory:
        first = ask((workspace, memory), "pangolins")
        order = [h.fact.source for h in first.hits]
        dated = [s for s in order if s.startswith("memory/")]
        undated = [s for s in order if s.startswith("bank/")]
        assert dated == ["memory/2025-11-27.md#L2", "memory/2025-11-27.md#L3"]
        assert undated == ["bank/experience.md#L2", "bank/world.md#L4"]
        score = {h.fact.source: h.score for h in first.hits}
        assert score[dated[0]] == score[dated[1]] and score[undated[0]] == score[undated[1]]
        assert [h.fact.source for h in ask((workspace, memory), "pangolins").hits] == order
        memory.index(full=True)
        assert [h.fact.source for h in ask((workspace, memory), "pangolins").hits] == order


def test_equal_scores_are_ordered_newest_first(corpus: Any) -> None:
    for query in ["*", "around Nov 27", "in November 2025", "since Monday", "@Anna"]:
        hits = ask(corpus, query, since="1900-01-01", k=100).hits
        for a, b in zip(hits, hits[1:], strict=False):
            if round(a.score, 9) == round(b.score, 9):
                key_a = (-(a.fact.day or date.min).toordinal(), a.fact.path, a.fact.line)
                key_b = (-(b.fact.day or date.min).toordinal(), b.fact.path, b.fact.line)
                assert key_a < key_b, (query, a.fact.source, b.fact.source)


def test_results_are_sorted_by_score(corpus: Any) -> None:
    for query in ["Peter", "crash", "what does Peter prefer", "around Nov 27", "ha noi"]:
        scores = [h.score for h in ask(corpus, query).hits]
        assert scores == sorted(scores, reverse=True), query


def test_why_says_what_matched(corpus: Any) -> None:
    why = {h.fact.id: h.why for h in ask(corpus, "Baileys crash").hits}
    assert why["baileys1"].startswith("words baileys, crash")
    entity = ask(corpus, "Peter coffee").hits[0].why
    assert "words" in entity and "coffee" in entity and "entity @Peter" in entity
    assert "opinion asked" in ask(corpus, "what does Peter prefer").hits[0].why
    timed = ask(corpus, "around Nov 27").hits[0].why
    assert "2025-11-24..2025-11-30" in timed
    assert ask(corpus, "tell me about Peter").hits[0].why.startswith("about @")


def test_k_limits_the_results(corpus: Any) -> None:
    assert len(ask(corpus, "Peter", k=3).hits) == 3
    assert ids(ask(corpus, "Peter", k=3)) == ids(ask(corpus, "Peter"))[:3]
    assert len(ask(corpus, "tell me about Peter", k=2).hits) == 2


def test_a_narrow_filter_is_not_starved_by_better_matches(workspace: Path) -> None:
    lines = "".join(f"- W: Alpha report number {n}.\n" for n in range(120))
    (workspace / "memory/2025-11-20.md").write_text("## Retain\n" + lines)
    (workspace / "memory/2025-10-01.md").write_text(
        "## Retain\n- O(c=0.2) @Peter: The alpha report format is clumsy, honestly.\n")
    with Memory.open(workspace, now=NOW) as memory:
        pair = (workspace, memory)
        assert [h.fact.kind for h in ask(pair, "alpha report", kinds="O", k=1).hits] == [
            "opinion"]
        assert len(ask(pair, "alpha report", entities=["Peter"]).hits) == 1
        assert len(ask(pair, "alpha report", until="2025-10-31").hits) == 1


# -- kinds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kinds", "expected"), [
    ("O", {"opinion"}), ("o", {"opinion"}), ("W,B", {"world", "experience"}),
    (" w , b ", {"world", "experience"}), ("opinion", {"opinion"}), ("text", {"text"}),
    (["S"], {"observation"}), (["world", "O"], {"world", "opinion"}), ("TEXT,S", {"text",
                                                                              "observation"}),
])
def test_the_kind_filter(corpus: Any, kinds: Any, expected: set[str]) -> None:
    result = ask(corpus, "Peter", kinds=kinds)
    assert result.hits
    assert {h.fact.kind for h in result.hits} <= expected


# -- JSON ---------------------------------------------------------------------------------------

RESULT_KEYS = {"id", "kind", "timestamp", "entities", "content", "source", "score", "status",
               "confidence", "why"}


def test_json_shape(corpus: Any) -> None:
    data = ask(corpus, "Peter").to_dict()
    assert {"query", "as_of", "results", "index"} <= set(data)
    assert data["query"] == "Peter"
    assert data["as_of"].startswith(NOW)
    assert {"synced_files", "warnings"} <= set(data["index"])
    assert data["results"]
    for r in data["results"]:
        assert set(r) >= RESULT_KEYS
        assert r["kind"] in KINDS
        assert r["timestamp"] is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["timestamp"])
        assert re.fullmatch(r"(memory|bank)/[^#]+\.md#L[1-9]\d*|memory\.md#L[1-9]\d*",
                            r["source"])
        assert isinstance(r["entities"], list) and isinstance(r["score"], float)
        assert r["status"] == "active" and 0 < r["confidence"] <= 1
        assert isinstance(r["why"], str) and r["why"]
    by_id = {r["id"]: r for r in data["results"]}
    assert by_id["vienna01"]["timestamp"] == "2025-10-20"
    assert by_id["vienna01"]["entities"] == ["Peter"]
    assert by_id["vienna01"]["kind"] == "world"
    assert by_id["latenite"]["kind"] == "observation"
    assert by_id["zurich01"]["kind"] == "experience"
    json.dumps(data, ensure_ascii=False)


def test_validity_is_reported(corpus: Any) -> None:
    hit = next(r for r in ask(corpus, "Marrakech").to_dict()["results"] if r["id"] == "marrak01")
    assert (hit["valid_from"], hit["valid_until"]) == ("2025-11-27", "2025-12-10")


def test_sources_in_a_bom_crlf_front_matter_file(corpus: Any) -> None:
    result = ask(corpus, "Red River")
    assert result.hits[0].fact.source == "memory/2025-11-24.md#L7"
    assert ask(corpus, "relay logs").hits[0].fact.source == "memory/2025-11-24.md#L8"


def test_a_nested_bullet_cites_its_own_line(corpus: Any) -> None:
    assert ask(corpus, "state file home directory").hits[0].fact.source == \
        "memory/2025-11-28.md#L9"


def test_every_fact_in_the_corpus_is_cited_at_its_line(corpus: Any) -> None:
    root, memory = corpus
    checked = 0
    for rel in FILES:
        for number, line in enumerate(file_lines(root, rel), 1):
            m = re.search(r"\^([a-z0-9]{6,})$", line)
            if not m:
                continue
            hit = memory.get(m.group(1))
            assert hit.fact.source == f"{rel}#L{number}"
            checked += check_sources(root, [hit])
    assert checked == 23


# -- freshness: a hand edit is seen at the next recall ------------------------------------------


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_bytes().decode("utf-8")
    assert old in text
    path.write_bytes(text.replace(old, new, 1).encode("utf-8"))


def test_a_fresh_memory_sees_a_hand_edit_without_index(workspace: Path) -> None:
    build(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        assert ids(ask((workspace, memory), "Vienna")) == ["vienna01"]
    edit(workspace, "memory/2025-10-20.md", "# 2025-10-20\n",
         "# 2025-10-20\n\nA new paragraph.\n\nAnother one.\n")
    edit(workspace, "memory/2025-10-20.md", "Lives in Vienna.", "Lives in Salzburg.")
    with Memory.open(workspace, now=NOW) as memory:
        result = ask((workspace, memory), "Salzburg")
        assert ids(result) == ["vienna01"]
        assert result.hits[0].fact.source == "memory/2025-10-20.md#L8"
        assert result.to_dict()["index"]["changed"] == ["memory/2025-10-20.md"]
        assert result.to_dict()["index"]["synced_files"] == 1
        assert ask((workspace, memory), "Vienna").hits == ()


def test_a_reused_memory_sees_every_kind_of_hand_edit(fresh: tuple[Path, Memory]) -> None:
    root, memory = fresh
    assert ids(ask(fresh, "Vienna")) == ["vienna01"]
    assert ask(fresh, "Vienna").to_dict()["index"]["synced_files"] == 0

    # in place, moving the fact down two lines
    edit(root, "memory/2025-10-20.md", "## Retain\n", "Intro.\n\n## Retain\n")
    result = ask(fresh, "Vienna")
    assert result.hits[0].fact.source == "memory/2025-10-20.md#L6"
    assert result.to_dict()["index"]["changed"] == ["memory/2025-10-20.md"]

    # same size, same line: only the bytes differ
    edit(root, "memory/2025-10-20.md", "Vienna", "Viennb")
    assert ids(ask(fresh, "Viennb")) == ["vienna01"]
    assert ask(fresh, "Vienna").hits == ()

    # an editor's save: write a temporary file, rename it over the original
    path = root / "memory/2025-10-20.md"
    tmp = root / "memory/.2025-10-20.md.swp"
    tmp.write_text("# 2025-10-20\n## Retain\n- W @Peter: Lives in Graz. ^vienna01\n")
    os.replace(tmp, path)
    result = ask(fresh, "Graz")
    assert ids(result) == ["vienna01"]
    assert result.hits[0].fact.source == "memory/2025-10-20.md#L3"

    # a new file in a new directory
    (root / "memory/archive").mkdir()
    (root / "memory/archive/2024-01-01.md").write_text("## Retain\n- W: Snow in Linz.\n")
    result = ask(fresh, "Linz snow")
    assert [h.fact.source for h in result.hits] == ["memory/archive/2024-01-01.md#L2"]
    assert result.to_dict()["index"]["added"] == ["memory/archive/2024-01-01.md"]

    # a deleted file
    path.unlink()
    result = ask(fresh, "Graz")
    assert result.hits == ()
    assert result.to_dict()["index"]["removed"] == ["memory/2025-10-20.md"]

    # an entity page gains an alias
    edit(root, "bank/entities/Peter.md", "aliases: [Pete, Peter Steinberger]",
         "aliases: [Pete, Peter Steinberger, Petrus]")
    assert ask(fresh, "where is Petrus").entities == ("peter",)


def test_recall_reports_parse_warnings_of_the_files_it_synced(
        fresh: tuple[Path, Memory]) -> None:
    root, _ = fresh
    ask(fresh, "Vienna")
    edit(root, "memory/2025-12-02.md", "- W @warelay: Runs on Node 22.\n",
         "- W @warelay: Runs on Node 22.\n- X: Capybaras are calm.\n")
    data = ask(fresh, "capybaras").to_dict()
    assert data["results"][0]["kind"] == "text"
    assert data["results"][0]["source"] == "memory/2025-12-02.md#L6"
    warnings = data["index"]["warnings"]
    assert [(w["path"], w["line"]) for w in warnings] == [("memory/2025-12-02.md", 6)]
    assert data["index"]["total_warnings"] >= 1
    again = ask(fresh, "capybaras").to_dict()["index"]
    assert again["warnings"] == [] and again["total_warnings"] >= 1


def test_a_retain_is_recalled_at_once(fresh: tuple[Path, Memory]) -> None:
    _, memory = fresh
    written = memory.retain("O(c=0.8) @Peter: Enjoys long walks.", date="2025-12-03")
    result = ask(fresh, "what does Peter enjoy")
    assert ids(result)[0] == written.facts[0].id


# -- get: one fact with provenance --------------------------------------------------------------


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fact_id", ["concise1", "^concise1", " concise1 "])
def test_get_gives_provenance(corpus: Any, fact_id: str) -> None:
    root, memory = corpus
    hit = memory.get(fact_id)
    f = hit.fact
    assert (f.id, f.kind, f.path, f.line) == ("concise1", "opinion", "memory/2025-11-27.md", 8)
    assert f.entities == ("Peter",) and f.day == date(2025, 11, 27)
    assert hit.confidence == 0.95 and hit.status == "active"
    assert hit.sha256 == sha256(root / f.path)
    check_sources(root, [hit])


def test_get_a_hand_written_bullet_by_its_derived_id(corpus: Any) -> None:
    hit = next(h for h in ask(corpus, "Node 22").hits if h.fact.kind == "world")
    again = corpus[1].get(hit.fact.id)
    assert again.fact.source == "memory/2025-12-02.md#L5"
    assert not again.fact.explicit_id


def test_get_a_chunk(corpus: Any) -> None:
    chunk = ask(corpus, "Ethiopian roast").hits[0]
    assert chunk.fact.kind == "text"
    assert corpus[1].get(chunk.fact.id).fact.source == chunk.fact.source


@pytest.mark.parametrize("fact_id", ["nosuchid", "", "^", "vienna0", "VIENNA01", "a" * 10_000,
                                     "vienna01; DROP TABLE facts", "\U0001F600"])
def test_get_an_unknown_id(corpus: Any, fact_id: str) -> None:
    with pytest.raises(UnknownId) as err:
        corpus[1].get(fact_id)
    assert isinstance(err.value, BadInput)
    assert "\n" not in str(err.value)


def test_get_after_a_hand_edit_resyncs_or_strictly_refuses(fresh: tuple[Path, Memory]) -> None:
    root, memory = fresh
    path = root / "memory/2025-11-27.md"
    assert memory.get("concise1").fact.line == 8
    edit(root, "memory/2025-11-27.md", "## Retain\n", "Two more lines.\n\n## Retain\n")
    with pytest.raises(SourceChanged) as err:
        memory.get("concise1", strict=True)
    assert "memory/2025-11-27.md" in str(err.value)
    hit = memory.get("concise1")
    assert hit.fact.line == 10
    assert hit.sha256 == sha256(path)
    check_sources(root, [hit])
    assert memory.get("concise1", strict=True).fact.line == 10  # in sync again


def test_get_in_a_new_process_after_a_hand_edit(workspace: Path) -> None:
    build(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
    edit(workspace, "memory/2025-11-27.md", "## Retain\n", "More.\n\n## Retain\n")
    with Memory.open(workspace, now=NOW) as memory:
        with pytest.raises(SourceChanged):
            memory.get("baileys1", strict=True)
        assert memory.get("baileys1").fact.line == 9


def test_get_a_fact_removed_by_hand(fresh: tuple[Path, Memory]) -> None:
    root, memory = fresh
    memory.get("replies1")
    edit(root, "memory/2025-11-27.md",
         "- W: Replies that are long and not concise get ignored. ^replies1\n", "")
    with pytest.raises(UnknownId):
        memory.get("replies1")


# -- budget -------------------------------------------------------------------------------------


@pytest.mark.parametrize("budget", [1, 20, 40, 60, 100, 200, 10_000])
def test_budget_packs_whole_results_best_first(corpus: Any, budget: int) -> None:
    full = ask(corpus, "Peter")
    packed = ask(corpus, "Peter", budget=budget)
    cost = [h.tokens() for h in packed.hits]
    assert sum(cost) <= budget
    assert all(t == estimate_tokens(render_hit(h)) for h, t in zip(packed.hits, cost,
                                                                     strict=True))
    order = ids(full)
    kept = ids(packed)
    assert kept == [i for i in order if i in kept]  # best first, in the same order
    assert packed.truncated == len(order) - len(kept)
    assert packed.to_dict()["omitted_for_budget"] == packed.truncated
    # greedy: nothing left out would still have fitted where it stood
    used = 0
    for hit in full.hits:
        if hit.fact.id in kept:
            used += hit.tokens()
        else:
            assert used + hit.tokens() > budget


def test_budget_keeps_the_best_when_it_fits(corpus: Any) -> None:
    full = ask(corpus, "Peter")
    first = full.hits[0].tokens()
    assert ids(ask(corpus, "Peter", budget=first))[0] == ids(full)[0]
    assert ask(corpus, "Peter", budget=10**9).truncated == 0


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [
    {"query": ""}, {"query": "   "}, {"query": "\n\t "}, {"query": "\u3000"},
    {"kinds": "X"}, {"kinds": "W,Z"}, {"kinds": ["world", "bogus"]}, {"kinds": "WB"},
    {"since": "blah"}, {"until": "2025-13-01"}, {"since": "2025-02-30"}, {"until": "0000"},
    {"since": "2025-12-01", "until": "2025-11-01"}, {"k": 0}, {"k": -1},
    {"budget": 0}, {"budget": -5},
])
def test_bad_input(corpus: Any, kwargs: dict[str, Any]) -> None:
    query = kwargs.pop("query", "Peter")
    with pytest.raises(BadInput) as err:
        corpus[1].recall(query, **kwargs)
    assert "\n" not in str(err.value) and str(err.value)


# -- properties: nothing but BadInput, whatever the text ----------------------------------------

WIDE = st.characters(codec=None, exclude_categories=("Cs",))
ANY_CHAR = st.characters(codec=None)  # lone surrogates too: undecodable argv bytes
PIECES = st.sampled_from([
    '"', "AND", "OR", "NOT", "NEAR(", "*", "-", "^", ":", "(", ")", "{", "}", "@", "@Peter",
    "Pete", "tell me about", "who is", "what does", "prefer", "around", "Nov", "27", "27th",
    "since", "before", "until", "in", "2025-11-27", "2025-02-30", "0000", "9999-12-31",
    "last week", "past 99999999999 days", "may", "hà", "nội", "Đ", "🍣", "東京", "\x00",
    "\u200d", "\u0301", " ", "'); DROP TABLE facts;--",
])
QUERIES = st.one_of(
    st.text(WIDE),
    st.text(ANY_CHAR, max_size=30),
    st.lists(st.one_of(PIECES, st.text(WIDE, max_size=4)), max_size=12).map(" ".join),
)


@settings(max_examples=500)
@given(QUERIES)
def test_plan_query_never_raises(text: str) -> None:
    plan = plan_query(text, today=TODAY)
    assert len(plan.terms) <= 64
    terms = plan.search_terms()
    if terms is not None:
        expression = fts_expression(terms)
        # every user word is inside quotes, quotes doubled
        assert re.fullmatch(r'"(?:[^"]|"")*"(?: OR "(?:[^"]|"")*")*', expression, re.S)


@settings(max_examples=150)
@given(QUERIES, st.sampled_from([None, "7d", "last week", "2025-11"]),
       st.sampled_from([None, "O", "W,B,text"]))
def test_recall_raises_nothing_but_bad_input(corpus: Any, text: str, since: str | None,
                                             kinds: str | None) -> None:
    try:
        result = corpus[1].recall(text, since=since, kinds=kinds, k=10)
    except BadInput:
        assert not text.strip()
        return
    check_sources(corpus[0], result.hits)
    json.dumps(result.to_dict(), ensure_ascii=False)


@settings(max_examples=100)
@given(QUERIES)
def test_about_and_the_entity_filter_raise_nothing_but_bad_input(corpus: Any,
                                                                 text: str) -> None:
    with contextlib.suppress(BadInput):
        corpus[1].about(text)
    corpus[1].recall("lives", entities=[text])
