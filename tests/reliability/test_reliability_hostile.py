"""F1, F2, S1: hostile files, names and queries (docs/reliability.md).

- Hostile files in the workspace — invalid UTF-8, NUL bytes, a 10 MB line, a binary file, a
  large file, symlinks pointing outside (a day file, a directory, an entity page, the
  journal) — each gives a warning with path:line or a clear error, and nothing else changes:
  the good facts beside them are indexed, nothing outside the workspace is read into it or
  written.
- Entity names with path separators, `..`, Windows device names, leading dots, encoded and
  look-alike dots, very long names: `reflect.page_slug` never makes a path outside
  bank/entities, and a reflect run over such names writes nothing outside bank/.  Control: a
  naive `bank/entities/<name>.md` join escapes.
- Query strings full of FTS5 syntax: recall answers or says the query is empty (BadInput),
  never an FTS5 error.  Control: the raw strings handed to FTS5 MATCH fail on most of them.
- Hypothesis property tests on the bullet parser, the document parser, the SPEC/time parser,
  the query parser and page_slug: no exception but the documented one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import time
import unicodedata
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memfold.errors import BadInput, MemfoldError
from memfold.index.sqlite.fts import expression as fts_expression
from memfold.journal.log import JOURNAL_NAME
from memfold.memory import Memory
from memfold.recall.query import plan_query
from memfold.reflect.plan import WINDOWS_RESERVED, page_slug
from memfold.retain import validate_bullet
from memfold.times.parse import TimeSpecError, parse_spec
from memfold.workspace.format import FactSyntaxError, parse_bullet, parse_document

NOW = "2025-12-01T12:00:00+00:00"
TODAY = date(2025, 12, 1)


@pytest.fixture(autouse=True)
def _lexical_recall(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the store and the full-text path; vectors are out of scope
    (and a 10 MB line would be handed whole to the tokenizer: docs/reliability.md)."""
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "lexical")


def tree_hashes(root: Path) -> dict[str, str]:
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


# -- hostile files -------------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside the workspace with Markdown that must never be read or written."""
    out = tmp_path / "outside"
    (out / "dir").mkdir(parents=True)
    (out / "secret.md").write_text("# s\n\n## Retain\n- W @Peter: outside secret ^outsid01\n")
    (out / "dir" / "a.md").write_text("# a\n\n## Retain\n- W @Peter: outside dir ^outsid02\n")
    (out / "Peter.md").write_text("# Peter\n\nOutside page text, confidential.\n")
    (out / "journal.jsonl").write_text("")
    return out


def test_hostile_files_warn_and_affect_nothing_else(workspace: Path, outside: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    day = workspace / "memory" / "2025-01-02.md"
    day.write_bytes(b"# 2025-01-02\n\n## Retain\n- W @Peter: good fact ^good0001\n"
                    b"- W @Peter: bad \xff\xfe bytes ^bad00001\n"
                    b"- W @Peter: a nul \x00 inside ^nul00001\n"
                    b"- W @Peter: after the damage ^good0002\n")
    (workspace / "bank" / "huge-line.md").write_bytes(b"# Huge\n\n" + b"y" * 10_000_000 + b"\n")
    (workspace / "bank" / "long.md").write_bytes(
        b"# Long\n\n" + b"".join(b"Line %d of a long page about copper.\n" % n
                                 for n in range(100_000)))
    (workspace / "bank" / "blob.md").write_bytes(os.urandom(200_000))
    (workspace / "bank" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(5000))
    os.symlink(outside / "secret.md", workspace / "memory" / "2025-01-01.md")
    os.symlink(outside / "dir", workspace / "bank" / "linked")
    os.symlink(outside / "Peter.md", workspace / "bank" / "entities" / "Peter.md")
    before_outside = tree_hashes(outside)

    started = time.perf_counter()
    with Memory.open(workspace, now=NOW) as memory:
        report = memory.refresh()
        seconds = time.perf_counter() - started
        warnings = [str(w) for w in memory.warnings()]
        assert "memory/2025-01-02.md:5: invalid UTF-8 replaced with U+FFFD" in warnings
        assert "memory/2025-01-02.md:6: NUL bytes removed" in warnings
        assert any(w.startswith("bank/blob.md:") for w in warnings)
        assert ("bank/huge-line.md:3: a line of 10,000,000 characters: indexed whole, and "
                "recall returns it whole; split it into shorter lines") in warnings
        assert report.skipped and "bank/entities/Peter.md" in report.skipped
        assert all(re.match(r"[\w./-]+\.md:\d+: ", w) for w in warnings)  # path:line
        for fact_id in ("good0001", "bad00001", "nul00001", "good0002"):
            assert memory.get(fact_id, use=False).fact.path == "memory/2025-01-02.md"
        assert "bank/image.png" not in report.added
        for path in ("memory/2025-01-01.md", "bank/linked/a.md", "bank/entities/Peter.md"):
            assert path not in report.added  # symlinks are not followed
        assert all("outside" not in h.fact.content for h in memory.recall("outside").hits)
        assert all("confidential" not in h.fact.content for h in memory.recall("Peter").hits)
        assert memory.recall("copper").hits  # the long page is searchable

        with pytest.raises(MemfoldError, match="symbolic links"):
            memory.retain("W @Peter: into the symlinked day", date="2025-01-01")
        memory.retain([f"W @Peter: Peter fact {n} for his page" for n in range(3)],
                      date="2025-11-30")
        memory.reflect(since="30d")  # the entity page is a symlink: never written through
    os.unlink(workspace / JOURNAL_NAME)
    os.symlink(outside / "journal.jsonl", workspace / JOURNAL_NAME)
    with Memory.open(workspace, now=NOW) as memory, pytest.raises(MemfoldError):
        memory.note("good0001", "through the link", rev=0)
    assert tree_hashes(outside) == before_outside
    assert (workspace / "bank" / "entities" / "Peter.md").is_symlink()
    with capsys.disabled():
        print(f"\nF1 hostile files: 10 MB line + 100k-line page + 200 KB binary indexed in "
              f"{seconds:.1f}s; warnings={len(warnings)} (path:line); symlinks followed=0; "
              f"outside files changed=0")
    # A bound on hanging (I9), not a speed target: a few seconds on an idle machine, and the
    # figure above is the measurement; 120 s leaves room for a loaded one.
    assert seconds < 120


# -- entity names --------------------------------------------------------------------------------


def hostile_names() -> list[str]:
    """At least 200 names a page path must survive."""
    base = [
        "..", ".", "...", "....", "../..", "../../etc/passwd", "a/../../b", "a/b", "/abs",
        "/etc/passwd", "a\\b", "..\\..\\windows", "C:\\Windows", "C:", "c:foo", "\\\\server\\share",
        "\\\\?\\C:\\x", "//server/share", "~", "~root", "$HOME", "%2e%2e%2f", "%2e%2e/%2e%2e",
        "%252e%252e%252f", "..%2f..%2f", "\u2024\u2024/x", "\uff0e\uff0e\uff0fx", "\u2025/x",
        "..\u2215..", "a\u2044b", ".\u200b.", ".hidden", ".git", ".memory", ".ssh/id_rsa",
        "CON", "con", "Con.txt", "PRN", "AUX", "NUL", "nul.md", "COM1", "com9.tar.gz",
        "LPT1", "lpt9", "CONIN$", "name.", "name ", " name", "name...", "-rf", "--help",
        "a\x00b", "\x00", "a\nb", "a\rb", "tab\there", "\x1b[31mred", "\u202eevil", "😀",
        "😀😀😀", "日本語", "Ä", "A\u0308", "ﬁle", "x" * 300, "é" * 200, "a/" * 50,
        "../" * 40, ". .", ".. ..", ".\t.", "", " ", "*", "?", "<>", "|", '"quoted"', "'",
        "a:b", "a;b", "$(rm -rf ~)", "`id`", "name.md", "name.md.md", "index.sqlite",
        "journal.jsonl", "memory.md", "../memory.md", "../../memory/2025-01-01",
    ]
    names = list(base)
    for stem in ("..", "CON", ".hidden", "a/b", "nul"):
        for suffix in ("", ".md", "/", "\\", " ", ".", "..", "/x", "\\x", "%00"):
            names.append(stem + suffix)
            names.append(suffix + stem)
    for name in list(names[:60]):
        names.append(unicodedata.normalize("NFD", name.upper()))
    return list(dict.fromkeys(names))


def inside(directory: Path, candidate: Path) -> bool:
    real = os.path.realpath(directory)
    return os.path.realpath(candidate).startswith(real + os.sep)


def test_page_slug_never_leaves_bank_entities(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    entities = tmp_path / "ws" / "bank" / "entities"
    entities.mkdir(parents=True)
    names = hostile_names()
    assert len(names) >= 200
    escapes, naive_escapes, slugs = [], [], {}
    for name in names:
        slug = page_slug(name)
        slugs[name] = slug
        path = entities / f"{slug}.md"
        bad = ("/" in slug or "\\" in slug or "\x00" in slug or not slug
               or slug.startswith(".") or slug.partition(".")[0].casefold() in WINDOWS_RESERVED
               or len(slug) > 100 or not inside(entities, path))
        if bad:
            escapes.append((name, slug))
        try:
            if not inside(entities, entities / f"{name}.md"):  # the control: a naive join
                naive_escapes.append(name)
        except ValueError:  # an embedded NUL: the naive path cannot even be used
            naive_escapes.append(name)
    with capsys.disabled():
        print(f"\nS1 names: {len(names)} hostile names -> 0/{len(names)} slugs escape or are "
              f"unsafe ({len(escapes)}); naive join escapes for {len(naive_escapes)} "
              f"(control); distinct slugs {len(set(slugs.values()))}")
    assert escapes == []
    assert len(naive_escapes) >= 10  # the control sees the danger


def test_reflect_over_hostile_names_writes_only_inside_bank(workspace: Path, tmp_path: Path,
                                                            outside: Path) -> None:
    names = hostile_names()
    safe_mentions = [n for n in names if re.fullmatch(r"[\w.\-]+", n) and any(
        ch.isalnum() for ch in n)]
    bullets = [f"W @{n}: hostile entity {i} lives somewhere" for i, n in
               enumerate(safe_mentions[:40])]
    for i, name in enumerate(names[:80]):  # aliases and titles from front matter
        title = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        title = title.replace("\r", "\\r").replace("\t", "\\t").replace("\x00", "\\0")
        title = title.replace("\x1b", "\\e")
        (workspace / "bank" / "entities" / f"E{i}.md").write_text(
            f'---\ntitle: "{title}"\naliases: ["{title}", "x{i}"]\n---\n# E{i}\n',
            encoding="utf-8", errors="surrogatepass")
    before_outside = tree_hashes(outside)
    parent_before = sorted(p.name for p in tmp_path.iterdir())
    with Memory.open(workspace, now=NOW) as memory:
        for bullet in bullets:
            with contextlib.suppress(BadInput):
                memory.retain(bullet, date="2025-11-30")
        for name in names:
            with contextlib.suppress(BadInput):
                memory.about(name)
        plan = memory.reflect(since="30d")
    written = [p.path for p in plan.pages]
    assert written, "reflect wrote no page: the test would prove nothing"
    for rel in written:
        assert rel.startswith("bank/") and inside(workspace / "bank", workspace / rel), rel
        assert not Path(rel).name.startswith(".")
    assert tree_hashes(outside) == before_outside
    assert sorted(p.name for p in tmp_path.iterdir()) == parent_before
    for path in workspace.rglob("*"):
        assert inside(workspace, path) or path.is_symlink()


# -- FTS5 syntax in queries ----------------------------------------------------------------------

FTS_QUERIES = [
    '"', '""', '"unterminated', "a AND", "AND", "OR", "NOT", "NOT harbor", "harbor NOT",
    "NEAR(harbor copper, 2)", "NEAR(", "harbor*", "*", "**", "^harbor", "body:harbor",
    "names:Peter", "facts_fts:harbor", "{body names}: harbor", "- harbor", "harbor -copper",
    "(harbor OR copper", ")", "harbor)", "+harbor", "'", "'; DROP TABLE facts; --",
    "harbor\x00copper", "\x00", "\u202eharbor", "harbor\U000e0041", "rank MATCH 'x'",
    "a:b:c", "[harbor]", "%", "_", "\\", "AND OR NOT", "harbor AND OR NOT copper",
    "harbor " * 500, "😀 harbor", "\ud800harbor", "col:", ":", "\"harbor\" \"", "NEAR",
    "harbor NEAR/2 copper", "bm25(facts_fts)", "harbor\" OR \"1\"=\"1",
]


def test_fts_syntax_in_queries_never_errors(workspace: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.retain(["W @Peter: harbor copper lantern", "O @Peter: likes the harbor"],
                      date="2025-11-30")
        errors, answered = [], 0
        for query in FTS_QUERIES:
            try:
                memory.recall(query, k=5)
                memory.about(query) if query.strip().lstrip("@") else None
                answered += 1
            except BadInput:
                if query.strip():
                    errors.append((query[:40], "BadInput"))
            except Exception as exc:  # noqa: BLE001 - the finding
                errors.append((query[:40], f"{type(exc).__name__}: {exc}"))
        raw_failures = 0
        for query in FTS_QUERIES:  # the control: the raw string as an FTS5 expression
            try:
                memory.index_backend.db.execute(
                    "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?", (query,)).fetchall()
            except (sqlite3.Error, UnicodeEncodeError):
                raw_failures += 1
    with capsys.disabled():
        print(f"\nF2 queries: {len(FTS_QUERIES)} FTS5-syntax queries, errors={len(errors)}; "
              f"control raw MATCH fails on {raw_failures}/{len(FTS_QUERIES)}")
    assert errors == []
    assert raw_failures > len(FTS_QUERIES) // 2


# -- property tests ------------------------------------------------------------------------------

HOSTILE = st.text(st.sampled_from(list('-*+:@^()[]{}"\'`\\/.,=~#|<>!?$%&_ \t\r\n\x00\x1b')
                                  + list("WBOSwbos0123456789cinutl") + ["\u202e", "\u200b",
                                  "\ufeff", "é", "ß", "😀", "\U000e0041", "\ud800", "…"]),
                  max_size=80)
TEXT = st.one_of(HOSTILE, st.text(max_size=80))


@settings(max_examples=300)
@given(TEXT)
def test_bullet_parser_raises_only_fact_syntax_error(text: str) -> None:
    try:
        bullet = parse_bullet(text)
    except FactSyntaxError:
        return
    assert bullet.content and "\n" not in bullet.kind


@settings(max_examples=300)
@given(TEXT)
def test_bullet_validation_raises_only_bad_input(text: str) -> None:
    try:
        validate_bullet(text)
    except BadInput:
        return


@settings(max_examples=150)
@given(st.binary(max_size=400) | TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_document_parser_never_raises(data: bytes) -> None:
    for path in ("memory/2025-11-27.md", "bank/entities/X.md", "memory.md"):
        doc = parse_document(path, data)
        lines = data.count(b"\n") + 1
        assert all(1 <= w.line <= lines + 1 for w in doc.warnings)


@settings(max_examples=300)
@given(TEXT)
def test_time_spec_parser_raises_only_time_spec_error(text: str) -> None:
    try:
        parse_spec(text, today=TODAY)
    except TimeSpecError:
        return


@pytest.fixture(scope="module")
def fts_table() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, names, "
               "tokenize = 'porter unicode61 remove_diacritics 2')")
    db.execute("INSERT INTO t VALUES ('harbor copper', 'peter')")
    return db


@settings(max_examples=300)
@given(TEXT)
def test_query_parser_never_raises_and_its_fts_expression_runs(
        fts_table: sqlite3.Connection, text: str) -> None:
    plan = plan_query(text, today=TODAY)
    terms = plan.search_terms()
    if terms is not None:
        fts_table.execute("SELECT rowid FROM t WHERE t MATCH ?",
                          (fts_expression(terms),)).fetchall()


@settings(max_examples=300)
@given(TEXT)
def test_page_slug_is_always_a_safe_file_name(text: str) -> None:
    slug = page_slug(text)
    assert slug and len(slug) <= 100
    assert not slug.startswith(".") and "/" not in slug and "\\" not in slug
    assert "\x00" not in slug and ".." not in slug
    assert slug.partition(".")[0].casefold() not in WINDOWS_RESERVED
