"""`memfold recall`, `about` and `show` from the command line: exit codes, one-line errors,
the --json shapes, the one-line-per-result human format, and citations checked against the
files."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Cli
from memfold.recall.query import MAX_QUERY_CHARS
from memfold.values import LETTER_OF_KIND, estimate_tokens
from recall_corpus import NOW, PETER_FACTS, build, check_sources, file_lines

ENV = {"MEMFOLD_NOW": NOW}
LINE = re.compile(
    r"^\[(?P<letter>[WBOST]) (?P<when>\d{4}-\d{2}-\d{2}|-)(?: valid \S*)? c=(?P<c>\d\.\d\d)\]"
    r"(?: \[[^\]]+\])*(?P<names>(?: @\S+)*) (?P<content>.+)  (?P<source>\S+#L\d+)$"
)
RESULT_KEYS = {"id", "kind", "timestamp", "entities", "content", "source", "score", "status",
               "confidence", "why"}


@pytest.fixture
def corpus(workspace: Path) -> Path:
    return build(workspace)


def ok(run: Cli, *args: str, env: dict[str, str] | None = None) -> Any:
    result = run(*args, env=env if env is not None else ENV)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    return result


def recall_json(run: Cli, root: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok(run, "recall", *args, "--json").stdout)
    check_sources(root, data["results"])
    return data


def human_lines(run: Cli, root: Path, *args: str) -> list[re.Match[str]]:
    result = ok(run, "recall", *args)
    matches = []
    for line in result.stdout.splitlines():
        m = LINE.match(line)
        assert m, line
        matches.append(m)
    for m in matches:
        path, _, number = m["source"].rpartition("#L")
        lines = file_lines(root, path)
        first = m["content"].split(" ")[0]
        assert first in lines[int(number) - 1] or m["letter"] == "T", (m["source"], first)
    return matches


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("memfold: error: ")
    assert "Traceback" not in stderr
    return lines[0]


# -- JSON ---------------------------------------------------------------------------------------


def test_recall_json_shape(run: Cli, corpus: Path) -> None:
    data = recall_json(run, corpus, "what does Peter prefer")
    assert {"query", "as_of", "results", "index"} <= set(data)
    assert data["query"] == "what does Peter prefer"
    assert data["as_of"].startswith(NOW)
    assert {"synced_files", "warnings"} <= set(data["index"])
    assert data["index"]["synced_files"] > 0  # the first recall indexed the corpus
    top = data["results"][0]
    assert set(top) >= RESULT_KEYS
    assert top["id"] == "concise1" and top["kind"] == "opinion"
    assert top["confidence"] == 0.95 and top["timestamp"] == "2025-11-27"
    assert top["source"] == "memory/2025-11-27.md#L8" and top["entities"] == ["Peter"]
    assert top["status"] == "active" and "opinion asked" in top["why"]
    for r in data["results"]:
        assert r["kind"] in {"world", "experience", "opinion", "observation", "text"}
    again = recall_json(run, corpus, "what does Peter prefer")
    assert again["index"]["synced_files"] == 0
    assert [r["id"] for r in again["results"]] == [r["id"] for r in data["results"]]


def test_as_of_flag_beats_memfold_now(run: Cli, corpus: Path) -> None:
    data = json.loads(ok(run, "--as-of", "2025-11-28", "recall", "yesterday", "--json").stdout)
    assert data["as_of"].startswith("2025-11-28T00:00:00")
    assert data["window"] == {"start": "2025-11-27", "end": "2025-11-27"}
    assert "baileys1" in {r["id"] for r in data["results"]}
    assert "deploy01" not in {r["id"] for r in data["results"]}
    check_sources(corpus, data["results"])


def test_memfold_now_sets_relative_times(run: Cli, corpus: Path) -> None:
    data = recall_json(run, corpus, "yesterday")
    assert data["window"] == {"start": "2025-12-02", "end": "2025-12-02"}
    written = {r["id"] for r in data["results"] if r["timestamp"] == "2025-12-02"}
    assert "deploy01" in written and len(written) == 2
    others = [r for r in data["results"] if r["id"] not in written]
    assert all(r["valid_until"] and r["valid_until"] >= "2025-12-02" for r in others)


def test_json_is_utf8_not_escaped(run: Cli, corpus: Path) -> None:
    out = ok(run, "recall", "ha noi", "--json").stdout
    assert "Hà Nội" in out and "\\u" not in out


# -- human output -------------------------------------------------------------------------------


def test_one_line_per_result_ending_with_its_source(run: Cli, corpus: Path) -> None:
    lines = human_lines(run, corpus, "what does Peter prefer")
    data = recall_json(run, corpus, "what does Peter prefer")
    assert [m["source"] for m in lines] == [r["source"] for r in data["results"]]
    for m, r in zip(lines, data["results"], strict=True):
        assert m["letter"] == LETTER_OF_KIND.get(r["kind"], "T")
        assert float(m["c"]) == pytest.approx(r["confidence"], abs=0.005)
        assert m["when"] == (r["timestamp"] or "-")
        assert m["names"].split() == [f"@{n}" for n in r["entities"]]
    assert lines[0]["c"] == "0.95" and lines[0]["letter"] == "O"


def test_validity_shows_in_the_line(run: Cli, corpus: Path) -> None:
    line = ok(run, "recall", "Marrakech").stdout.splitlines()[0]
    assert line.startswith("[W 2025-11-27 valid 2025-11-27..2025-12-10 c=0.90] @Peter ")
    assert line.endswith("  memory/2025-11-27.md#L6")


def test_a_multi_line_chunk_is_one_line(run: Cli, corpus: Path) -> None:
    lines = human_lines(run, corpus, "maintainer of warelay")
    assert lines[0]["letter"] == "T"
    assert lines[0]["content"] == "# Peter Peter is the maintainer of warelay."
    assert lines[0]["source"] == "bank/entities/Peter.md#L4"


def test_no_results_says_so_on_stderr(run: Cli, corpus: Path) -> None:
    result = ok(run, "recall", "xylophone quasar")
    assert result.stdout == ""
    assert result.stderr.startswith("no results")
    data = recall_json(run, corpus, "xylophone quasar")
    assert data["results"] == []


# -- query forms through the CLI ----------------------------------------------------------------


@pytest.mark.parametrize(("args", "expected"), [
    (["Baileys crash"], "baileys1"),
    (['"concise replies"'], "concise1"),
    (["@Peter coffee"], "coffee01"),
    (["where does Pete live"], "vienna01"),
    (["ha noi"], "hanoicap"),
    (["da nang"], "danang01"),
    (["what happened around Nov 27", "--kind", "B"], "baileys1"),
    (["Lisbon in November 2025"], "lisbon01"),
    (["since Monday", "--kind", "B"], "deploy01"),  # equal scores: newest first
    (["what does Peter like"], "coffee01"),
    (["Vienna", "--entity", "pete"], "vienna01"),
    (["lives", "--entity", "Kenji"], "tokyo001"),
    (["*", "--since", "yesterday"], "deploy01"),
    (["*", "--until", "2025-10-31", "--kind", "S"], "latenite"),
    (["crash", "--since", "2025-11", "--until", "2025-11"], "baileys1"),
    (["crash", "--since", "30d"], "baileys1"),
    (["tell me about Pete"], "zurich01"),
])
def test_query_forms(run: Cli, corpus: Path, args: list[str], expected: str) -> None:
    data = recall_json(run, corpus, *args)
    assert data["results"][0]["id"] == expected
    human_lines(run, corpus, *args)


def test_kind_filter(run: Cli, corpus: Path) -> None:
    data = recall_json(run, corpus, "Peter", "--kind", "W,B")
    assert data["results"]
    assert {r["kind"] for r in data["results"]} <= {"world", "experience"}
    letters = {m["letter"] for m in human_lines(run, corpus, "Peter", "--kind", "o")}
    assert letters == {"O"}


def test_repeated_entity_flags(run: Cli, corpus: Path) -> None:
    data = recall_json(run, corpus, "lives", "--entity", "Peter", "--entity", "Kenji")
    assert {r["id"] for r in data["results"]} == {"vienna01", "tokyo001"}


def test_k(run: Cli, corpus: Path) -> None:
    assert len(recall_json(run, corpus, "Peter", "--k", "2")["results"]) == 2
    assert len(ok(run, "recall", "Peter", "--k", "2").stdout.splitlines()) == 2


FTS_SYNTAX = ['"', "AND", "NEAR(", "*", "-x", "a:b", "'); DROP TABLE facts;--", "()", "{",
              "^", '"unbalanced', 'a "b', "crash OR", "NOT", "body:crash", "--", "-",
              "\\", "🍣", "東京", "x" * MAX_QUERY_CHARS]  # longer: refused, see test_tool_budgets


@pytest.mark.parametrize("query", FTS_SYNTAX, ids=lambda q: q[:20])
def test_fts_syntax_never_fails(run: Cli, corpus: Path, query: str) -> None:
    # "--" ends the options, so "-x" and "--" are the query, not flags
    data = json.loads(ok(run, "recall", "--json", "--", query).stdout)
    check_sources(corpus, data["results"])
    assert data["query"] == query
    for line in ok(run, "recall", "--", query).stdout.splitlines():
        assert LINE.match(line), line


def test_undecodable_bytes_in_a_query(run: Cli, corpus: Path) -> None:
    # what Python makes of invalid UTF-8 on a command line (surrogate escapes)
    for query in ['"\udcffcrash"', "cr\udcffash", "\udcff"]:
        result = run("recall", query, env=ENV)
        assert result.exit_code == 0, result.stderr
        assert "internal error" not in result.stderr


# -- budget -------------------------------------------------------------------------------------


@pytest.mark.parametrize("budget", [10, 30, 60, 120])
def test_budget(run: Cli, corpus: Path, budget: int) -> None:
    full = ok(run, "recall", "Peter").stdout.splitlines()
    result = ok(run, "recall", "Peter", "--budget", str(budget))
    lines = result.stdout.splitlines()
    assert sum((len(line) + 3) // 4 for line in lines) <= budget
    assert lines == [line for line in full if line in lines]
    if lines and len(lines) < len(full):
        assert f"{len(full) - len(lines)} more results left out" in result.stderr
    # --json holds to the budget on the JSON it prints: fewer results than the text lines
    printed = ok(run, "recall", "Peter", "--budget", str(budget), "--json").stdout
    data = recall_json(run, corpus, "Peter", "--budget", str(budget))
    shown = data["results"]
    assert estimate_tokens(printed.rstrip("\n")) <= budget or not shown
    assert len(shown) <= len(lines) and data["omitted_for_budget"] == len(full) - len(shown)
    assert [h["id"] for h in shown] == [h["id"] for h in recall_json(
        run, corpus, "Peter")["results"]][:len(shown)]


# -- errors: one line, exit 2 -------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["recall", ""], ["recall", "   "], ["recall", "\t\n"],
    ["recall", "x", "--kind", "Z"], ["recall", "x", "--kind", "W,bogus"],
    ["recall", "x", "--since", "blah"], ["recall", "x", "--until", "2025-13-01"],
    ["recall", "x", "--since", "2025-02-30"], ["recall", "x", "--since", "next week"],
    ["recall", "x", "--since", "2025-12-01", "--until", "2025-11-01"],
    ["recall", "x", "--k", "0"], ["recall", "x", "--budget", "0"],
    ["recall", "x", "--budget", "-3"],
    ["--as-of", "nope", "recall", "x"], ["--as-of", "2025-13-45", "recall", "x"],
    ["about", ""], ["about", "@"],
    ["show", "nosuchid"], ["show", ""], ["show", "^"],
])
def test_bad_input_is_one_line_and_exit_2(run: Cli, corpus: Path, args: list[str]) -> None:
    result = run(*args, env=ENV)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    one_error_line(result.stderr)
    assert result.stdout == ""


@pytest.mark.parametrize("args", [
    ["recall"], ["recall", "x", "--k", "many"], ["recall", "x", "--budget", "lots"],
    ["recall", "x", "--bogus"], ["about"], ["show"],
])
def test_usage_errors_exit_2(run: Cli, corpus: Path, args: list[str]) -> None:
    result = run(*args, env=ENV)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


def test_since_error_names_the_accepted_forms(run: Cli, corpus: Path) -> None:
    line = one_error_line(run("recall", "x", "--since", "blah", env=ENV).stderr)
    assert "'blah'" in line and "30d" in line and "last week" in line


# -- freshness ----------------------------------------------------------------------------------


def test_a_hand_edit_is_seen_without_memfold_index(run: Cli, corpus: Path) -> None:
    assert [r["id"] for r in recall_json(run, corpus, "Vienna")["results"]] == ["vienna01"]
    path = corpus / "memory/2025-10-20.md"
    path.write_text(path.read_text().replace("## Retain\n", "Moved.\n\n## Retain\n")
                    .replace("Lives in Vienna.", "Lives in Innsbruck."))
    data = recall_json(run, corpus, "Innsbruck")
    assert [r["source"] for r in data["results"]] == ["memory/2025-10-20.md#L6"]
    assert data["index"]["synced_files"] == 1
    assert data["index"]["changed"] == ["memory/2025-10-20.md"]
    assert recall_json(run, corpus, "Vienna")["results"] == []
    assert human_lines(run, corpus, "Innsbruck")[0]["source"] == "memory/2025-10-20.md#L6"


def test_parse_warnings_are_reported(run: Cli, corpus: Path) -> None:
    ok(run, "index")
    path = corpus / "memory/2025-12-02.md"
    path.write_text(path.read_text() + "- Q: Not a kind at all.\n")
    data = recall_json(run, corpus, "kind at all")
    assert [(w["path"], w["line"]) for w in data["index"]["warnings"]] == [
        ("memory/2025-12-02.md", 6)]


def test_retain_then_recall(run: Cli, corpus: Path) -> None:
    out = ok(run, "retain", "O(c=0.85) @Peter: Enjoys long walks by the Danube.").stdout
    new_id, source = out.split()
    data = recall_json(run, corpus, "what does Peter enjoy")
    assert data["results"][0]["id"] == new_id and data["results"][0]["source"] == source


# -- show ---------------------------------------------------------------------------------------


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fact_id", ["concise1", "^concise1"])
def test_show_json(run: Cli, corpus: Path, fact_id: str) -> None:
    data = json.loads(ok(run, "show", fact_id, "--json").stdout)
    assert set(data) >= RESULT_KEYS
    assert data["id"] == "concise1" and data["kind"] == "opinion"
    assert (data["path"], data["line"]) == ("memory/2025-11-27.md", 8)
    assert data["source"] == "memory/2025-11-27.md#L8"
    assert data["sha256"] == sha256(corpus / "memory/2025-11-27.md")
    assert data["entities"] == ["Peter"] and data["confidence"] == 0.95
    assert data["status"] == "active" and data["timestamp"] == "2025-11-27"
    check_sources(corpus, [data])


def test_show_human(run: Cli, corpus: Path) -> None:
    out = ok(run, "show", "marrak01").stdout
    rows = dict(re.split(r"\s+", line, maxsplit=1) for line in out.splitlines())
    assert rows["id"] == "marrak01" and rows["kind"] == "world"
    assert rows["source"] == "memory/2025-11-27.md#L6"
    assert rows["entities"] == "@Peter"
    assert rows["sha256"] == sha256(corpus / "memory/2025-11-27.md")
    assert rows["valid_from"] == "2025-11-27" and rows["valid_until"] == "2025-12-10"
    assert rows["confidence"] == "0.9" and rows["status"] == "active"


def test_show_a_result_of_recall(run: Cli, corpus: Path) -> None:
    for r in recall_json(run, corpus, "Peter")["results"]:
        data = json.loads(ok(run, "show", r["id"], "--json").stdout)
        assert data["source"] == r["source"] and data["content"] == r["content"]


def test_show_after_a_hand_edit(run: Cli, corpus: Path) -> None:
    ok(run, "index")
    path = corpus / "memory/2025-11-27.md"
    path.write_text(path.read_text().replace("## Retain\n", "Extra.\n\n## Retain\n"))
    strict = run("show", "concise1", "--strict", env=ENV)
    assert strict.exit_code == 1
    line = one_error_line(strict.stderr)
    assert "memory/2025-11-27.md" in line and "changed" in line
    data = json.loads(ok(run, "show", "concise1", "--json").stdout)
    assert data["line"] == 10 and data["sha256"] == sha256(path)
    check_sources(corpus, [data])
    assert json.loads(ok(run, "show", "concise1", "--strict", "--json").stdout)["line"] == 10


# -- about --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Peter", "pete", "@Peter", "Peter Steinberger"])
def test_about_human(run: Cli, corpus: Path, name: str) -> None:
    lines = ok(run, "about", name).stdout.splitlines()
    assert lines[0] == "@Peter (also: Pete, Peter Steinberger)  page: bank/entities/Peter.md"
    hits = [LINE.match(line) for line in lines[1:]]
    assert all(hits)
    whens = [m["when"] for m in hits if m and m["when"] != "-"]
    assert whens == sorted(whens, reverse=True)
    assert hits[0] and hits[0]["source"] == "memory/2025-12-01.md#L4"


def test_about_json(run: Cli, corpus: Path) -> None:
    data = json.loads(ok(run, "about", "pete", "--json").stdout)
    assert data["found"] is True and data["entity"] == "Peter" and data["key"] == "peter"
    assert data["page"] == "bank/entities/Peter.md"
    assert data["aliases"] == ["Pete", "Peter Steinberger"]
    assert {r["id"] for r in data["results"]} >= PETER_FACTS
    check_sources(corpus, data["results"])


def test_about_someone_unknown(run: Cli, corpus: Path) -> None:
    result = ok(run, "about", "Nobody")
    assert result.stdout == "" and "no memory of 'Nobody'" in result.stderr
    data = json.loads(ok(run, "about", "Nobody", "--json").stdout)
    assert data["found"] is False and data["results"] == []


def test_about_k(run: Cli, corpus: Path) -> None:
    assert len(ok(run, "about", "Peter", "--k", "2").stdout.splitlines()) == 3
