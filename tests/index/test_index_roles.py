"""The index's roles and its search value: `IndexBackend` is the union of its role protocols,
the SQLite backend implements every method of each, and a search asked for in `Terms` (words,
phrases, any or all, prefix or not) finds what those words say, whatever characters they hold.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from conftest import write
from memfold.index import base
from memfold.index.base import (
    FactReader,
    FactSearch,
    Filters,
    IndexBackend,
    IndexWriter,
    LifecycleStore,
    RecallIndex,
    ReviewStore,
    Terms,
)
from memfold.index.sqlite.backend import SqliteIndex
from memfold.index.sqlite.fts import expression
from memfold.index.sync import sync
from memfold.workspace.layout import Workspace

ROLES = (FactReader, FactSearch, LifecycleStore, ReviewStore, IndexWriter)


def _methods(protocol: type) -> set[str]:
    own = {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")}
    return own.union(*(_methods(b) for b in protocol.__bases__ if b is not object))


def test_the_backend_is_the_union_of_its_roles() -> None:
    every = [m for role in ROLES for m in _methods(role)]
    assert len(every) == len(set(every))  # each method in one role
    assert _methods(IndexBackend) == set(every)
    assert _methods(RecallIndex) == _methods(FactReader) | _methods(FactSearch)


@pytest.mark.parametrize("role", ROLES, ids=lambda r: r.__name__)
def test_sqlite_implements_each_role_with_its_parameters(role: type) -> None:
    for name in _methods(role):
        wanted = inspect.signature(getattr(role, name)).parameters
        given = inspect.signature(getattr(SqliteIndex, name)).parameters
        assert list(given) == list(wanted), name


def test_no_method_answers_with_a_bare_tuple() -> None:
    """Rows come back as named records; `dump` (rows to compare), `neighbours` (row keys),
    and `fact_texts` (what the vectors' own store reads) are the tuples left."""
    left = {"dump", "neighbours", "fact_texts"}
    hints = {name: inspect.signature(getattr(IndexBackend, name)).return_annotation
             for role in ROLES for name in _methods(role)}
    assert sorted(n for n, hint in hints.items() if "tuple[" in str(hint)) == sorted(left)
    assert base.FactDays._fields == ("first", "last")


def test_terms_render_as_quoted_fts5() -> None:
    assert expression(Terms(words=("copper", "harbour"))) == '"copper" OR "harbour"'
    assert expression(Terms(words=("copper",), phrases=("old harbour",))) == (
        '"old harbour" OR "copper"')  # phrases first, as recall always wrote them
    assert expression(Terms(words=("a", "b"), every=True)) == '"a" AND "b"'
    assert expression(Terms(words=("harb",), prefix=True)) == '"harb"*'
    assert expression(Terms(words=('say "hi"', "x\x00y"))) == '"say ""hi""" OR "x y"'
    assert expression(Terms(words=("Đà",))) == '"Dà"'  # folded as the index folds text
    assert not Terms() and expression(Terms()) == ""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SqliteIndex:
    root = tmp_path_factory.mktemp("terms") / "ws"
    write(root, "memory/2026-03-01.md", "## Retain\n"
          "- W: The copper lantern hangs by the harbour.\n"
          "- W: The copper kettle is dented.\n"
          "- W: The harbour master retired.\n"
          "- W: Harbours silt up (said NEAR the pier) - AND OR NOT.\n")
    backend = SqliteIndex(root / ".memory" / "index.sqlite")
    sync(Workspace(root), backend)
    return backend


def _found(index: SqliteIndex, terms: Terms) -> list[str]:
    return sorted(c.fact.content.split()[1] for c in index.lexical(terms, Filters(), 10))


def test_any_all_and_prefix(index: SqliteIndex) -> None:
    assert _found(index, Terms(words=("copper", "retired"))) == ["copper", "copper", "harbour"]
    assert _found(index, Terms(words=("copper", "harbour"), every=True)) == ["copper"]
    assert _found(index, Terms(words=("lant",))) == []
    assert _found(index, Terms(words=("lant",), prefix=True)) == ["copper"]
    assert _found(index, Terms(phrases=("copper kettle",))) == ["copper"]
    assert _found(index, Terms(phrases=("kettle copper",))) == []


@pytest.mark.parametrize("word", ["NEAR", "AND", "OR", "NOT", "-", '"', "*", "(said", "^x:y"])
def test_query_syntax_in_a_word_is_a_word(index: SqliteIndex, word: str) -> None:
    found = index.lexical(Terms(words=(word,)), Filters(), 10)  # never an FTS5 error
    assert all(word.strip('"*(^-').split(":")[0].casefold() in c.fact.content.casefold()
               for c in found)


def test_counts_and_rowids_by_word(index: SqliteIndex) -> None:
    assert index.word_counts(["copper", "harbour", "zebra", "copper"], 5) == {
        "copper": 2, "harbour": 3, "zebra": 0}  # stemmed: "Harbours" is a harbour
    assert index.word_counts(["harbour"], 1) == {"harbour": 2}  # counted to most + 1
    assert len(index.matching_rowids(Terms(words=("copper",)), 10)) == 2
    assert index.matching_rowids(Terms(), 10) == [] and index.lexical(Terms(), Filters(), 5) == []


def test_named_records(index: SqliteIndex, tmp_path: Path) -> None:
    days = index.fact_days()
    assert days.first is not None and days.first == days.last
    position = index.journal_position()
    assert position.offset == 0 and position.last_seq == 0
    assert [u.id for u in index.unretained_in_order()] and index.citations() == []
    lineage = index.lineage()
    assert lineage is not None and lineage.syncs >= 1
