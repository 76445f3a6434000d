"""One owner for Markdown: `memfold.workspace.format` reads and rewrites it, nothing else.

The first tests read memfold's own source (ast) and fail when a module outside
`memfold/workspace/` spells a piece of the workspace's Markdown syntax itself: reflect's
region markers or citation hashes, front matter (`---`, PyYAML), the line scanners' regexes.
The rest are round trips of the format functions that rewrite files: front matter read back
as written, a generated region replaced idempotently with everything outside it kept, a core
block rewritten and read back, lines removed from bytes with every other byte kept.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import memfold
from memfold.workspace.format import (
    begin_marker,
    core_limits,
    end_marker,
    parse_core,
    parse_document,
    read_front_matter,
    region_lines,
    remove_lines,
    replace_region,
    rewrite_block,
    split_lines,
)

PACKAGE = Path(memfold.__file__).parent
OWNER = PACKAGE / "workspace"
# the line scanners of the format package: outside it, modules call its functions instead
SCANNERS = {"HEADING", "FENCE", "BULLET", "Fences", "BLOCK_ID", "COMMENT_START", "GENERATED",
            "END_MARK", "CITED", "TASK", "closes_fence", "is_retain_heading"}
MARKUP = ("memfold:generated", "memfold:end", "<!-- h:")
# a list-bullet marker class, an ATX heading run: Markdown structure matched by hand
STRUCTURE = re.compile(r"\[-\*\+\]|\[\*\+-\]|\[\+\*-\]|#\{1,6\}|\^#")


def _outside_modules() -> list[Path]:
    found = [p for p in sorted(PACKAGE.rglob("*.py")) if OWNER not in p.parents]
    assert len(found) > 30, "memfold's modules not found"
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the Constant nodes that are docstrings (prose may name the syntax)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _strings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal in a module, f-string parts included, docstrings
    left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def _imports(path: Path) -> Iterator[tuple[int, str, str | None]]:
    """(line, module, name) of every import in a module (name None for `import x`)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                yield node.lineno, "." * node.level + (node.module or ""), alias.name


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{line}"


def test_no_module_outside_the_format_package_writes_reflect_markup() -> None:
    found = [f"{_where(p, n)}: {text!r}" for p in _outside_modules()
             for n, text in _strings(p) if any(m in text for m in MARKUP)]
    assert not found, "generated-region markers and citation hashes belong to " \
                      "workspace.format.regions:\n" + "\n".join(found)


def test_no_module_outside_the_format_package_reads_front_matter() -> None:
    found = [f"{_where(p, n)}: {module}" for p in _outside_modules()
             for n, module, _name in _imports(p) if module.split(".")[0] == "yaml"]
    found += [f"{_where(p, n)}: {text!r}" for p in _outside_modules()
              for n, text in _strings(p) if text.strip() == "---"]
    assert not found, "front matter belongs to workspace.format.frontmatter:\n" + "\n".join(found)


def test_no_module_outside_the_format_package_scans_markdown_lines() -> None:
    found = [f"{_where(p, n)}: {name}" for p in _outside_modules()
             for n, module, name in _imports(p)
             if "workspace.format" in module and name in SCANNERS]
    found += [f"{_where(p, n)}: {text!r}" for p in _outside_modules()
              for n, text in _strings(p) if STRUCTURE.search(text)]
    assert not found, "headings, fences and bullets are matched in workspace.format only; " \
                      "call its functions:\n" + "\n".join(found)


def test_the_guards_see_a_violation() -> None:
    """The checks above can fail: the format package itself trips each of them."""
    regions = OWNER / "format" / "regions.py"
    frontmatter = OWNER / "format" / "frontmatter.py"
    lines = OWNER / "format" / "lines.py"
    assert any("memfold:generated" in text for _n, text in _strings(regions))
    assert any(module == "yaml" for _n, module, _name in _imports(frontmatter))
    assert any(STRUCTURE.search(text) for _n, text in _strings(lines))


# -- round trips ------------------------------------------------------------------------------

NAMES = st.text(string.ascii_letters, min_size=1, max_size=12)
WORDS = st.text(string.ascii_letters + string.digits + " .,", min_size=1, max_size=30).filter(
    lambda s: s.strip() == s and s.strip())


@given(data=st.dictionaries(NAMES, st.one_of(st.integers(1, 10**6), WORDS,
                                             st.lists(WORDS, max_size=3)), max_size=5),
       body=st.lists(WORDS, max_size=4))
def test_front_matter_reads_back_what_was_written(data: dict[str, object],
                                                  body: list[str]) -> None:
    front = yaml.safe_dump(data, sort_keys=False).splitlines() if data else []
    text = "\n".join(["---", *front, "---", *body]) + "\n"
    start, read, problems = read_front_matter(split_lines(text))
    assert (start, read, problems) == (len(front) + 2, data, [])


@given(limits=st.dictionaries(NAMES, st.integers(1, 10**6), max_size=5))
def test_core_limits_read_back_what_was_written(limits: dict[str, int]) -> None:
    front = yaml.safe_dump({"limits": limits}, default_flow_style=True).splitlines()
    lines = ["---", *front, "---", "# Core memory"]
    assert core_limits(lines) == (len(front) + 2, limits, [])


REGION_KINDS = st.sampled_from(["summary", "facts"])
PAGE_LINES = st.lists(st.sampled_from(["# Peter", "", "Some prose.", "- W @Peter: Lives here.",
                                       "## Notes", "<!-- a comment -->"]), max_size=6)


@given(before=PAGE_LINES, after=PAGE_LINES, kind=REGION_KINDS,
       old=st.lists(WORDS, max_size=3), new=st.lists(WORDS, max_size=3))
def test_replacing_a_region_is_idempotent_and_keeps_the_rest(
        before: list[str], after: list[str], kind: str, old: list[str], new: list[str]) -> None:
    outside_before = "".join(f"{ln}\n" for ln in before)
    outside_after = "".join(f"{ln}\n" for ln in after)
    region = "".join(f"{ln}\n" for ln in [begin_marker(kind), *old, end_marker(kind)])
    page = outside_before + region + outside_after
    once = replace_region(page, kind, new)
    assert replace_region(once, kind, new) == once
    assert region_lines(once, kind) == new
    assert once.startswith(outside_before) and once.endswith(outside_after)


@given(text=st.lists(WORDS, max_size=4), other=st.lists(WORDS, max_size=3),
       crlf=st.booleans())
def test_a_rewritten_core_block_reads_back_and_the_others_stay(
        text: list[str], other: list[str], crlf: bool) -> None:
    nl = "\r\n" if crlf else "\n"
    source = nl.join(["# Core memory", "", "## Persona", "", *other, "", "## Human",
                      "old text", "", "## Project", "", "x"]) + nl
    doc = parse_core(source.encode())
    span = doc.span("Human")
    new = "\n".join(text)
    rewritten = parse_core(rewrite_block(doc, span, "Human", new))
    human, persona = rewritten.span("Human"), rewritten.span("Persona")
    assert human is not None and persona is not None
    assert rewritten.text(human)[0] == new
    assert rewritten.text(persona)[0] == "\n".join(other)
    assert [s.name for s in rewritten.spans] == ["Persona", "Human", "Project"]


@given(lines=st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")), min_size=1,
                      max_size=8), data=st.data())
def test_removed_lines_go_and_every_other_byte_stays(lines: list[bytes],
                                                     data: st.DataObject) -> None:
    drop = data.draw(st.sets(st.integers(1, len(lines))))
    edit = remove_lines(b"\n".join(lines), drop, [], "[purged]")
    assert edit.after == b"\n".join(ln for n, ln in enumerate(lines, 1) if n not in drop)
    assert edit.removed == tuple(sorted(drop)) and edit.redacted == ()


@pytest.mark.parametrize("kind", ["summary", "facts"])
def test_the_scanner_reads_the_markers_reflect_writes(kind: str) -> None:
    """The two sides of a region — the writer's markers, the document scanner's reading —
    come from one pair of constants: a summary is skipped, a facts region is read."""
    page = replace_region("# Peter\n", kind, ["## Retain", "- W @Peter: Lives in Vienna. ^abc123"])
    facts = [f for f in parse_document("bank/world.md", page).facts if f.kind != "text"]
    assert [f.id for f in facts] == ([] if kind == "summary" else ["abc123"])
