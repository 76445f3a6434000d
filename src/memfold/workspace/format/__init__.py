"""The Markdown format: every place memfold reads or rewrites a workspace file's Markdown.

Pure functions of text (no I/O, no clock); the verbs and `workspace.files` do the reading
and writing.  The contract is docs/format.md.  The modules:

    lines        decoding bytes, numbering lines; headings, code fences, bullets, comments
    bullets      a Retain bullet parsed (`parse_bullet`) and rendered (`render_bullet`)
    frontmatter  YAML front matter: found, loaded, read as entity names or core limits
    document     a whole file parsed into facts, text chunks and warnings (`parse_document`)
    regions      reflect's generated regions: markers, find and replace, the lines inside
    changes      a whole file's Retain lines and generated regions, to tell what an edit changes
    core_blocks  memory.md's core blocks: found, read, one block rewritten
    edit         a retain's append to a day's log; a purge's line removal and redaction

Import from here (`from memfold.workspace.format import parse_document`); outside the
workspace package nothing matches Markdown syntax itself (tests/workspace/test_markdown_owner.py).
"""

from __future__ import annotations

from memfold.workspace.format.bullets import (
    BLOCK_ID,
    PARAM_KEYS,
    Bullet,
    FactSyntaxError,
    bullet_line,
    clean_slug,
    derived_id,
    entity_slug,
    find_mentions,
    parse_bullet,
    render_bullet,
    valid_slug,
)
from memfold.workspace.format.changes import (
    RetainLine,
    generated_regions,
    retain_lines,
    without_lines,
)
from memfold.workspace.format.core_blocks import (
    BlockSpan,
    CoreDoc,
    is_block_title,
    parse_core,
    rewrite_block,
    structure_problem,
)
from memfold.workspace.format.document import (
    CHUNK_MAX_CHARS,
    CHUNK_MAX_LINES,
    DAILY_NAME,
    LONG_LINE,
    daily_date,
    doc_role,
    open_tasks,
    parse_document,
)
from memfold.workspace.format.edit import (
    Append,
    LineEdit,
    parse_appended,
    plan_append,
    prepare_append,
    redact_bytes,
    remove_lines,
)
from memfold.workspace.format.frontmatter import (
    DEFAULT_LIMIT,
    FRONT_MATTER_MAX,
    FrontMatterError,
    core_limits,
    entity_names,
    front_matter_end,
    load_front_matter,
    read_front_matter,
)
from memfold.workspace.format.lines import (
    BULLET,
    FENCE,
    HEADING,
    RETAIN_HEADING,
    Fences,
    decode,
    split_lines,
)
from memfold.workspace.format.regions import (
    FACTS,
    SUMMARY,
    add_to_region,
    begin_marker,
    citation,
    end_marker,
    evidence_line,
    opinion_line,
    region_lines,
    replace_region,
    summary_line,
)
from memfold.workspace.format.turns import (
    TURN_HEADER,
    cited_turn,
    is_turn,
    speaker_entity,
    turn_citation,
    turn_statement,
)

__all__ = [
    "BLOCK_ID", "BULLET", "CHUNK_MAX_CHARS", "CHUNK_MAX_LINES", "DAILY_NAME", "DEFAULT_LIMIT",
    "FACTS", "FENCE", "FRONT_MATTER_MAX", "HEADING", "LONG_LINE", "PARAM_KEYS", "RETAIN_HEADING",
    "SUMMARY", "TURN_HEADER", "Append", "BlockSpan", "Bullet", "CoreDoc", "FactSyntaxError",
    "Fences", "FrontMatterError", "LineEdit", "RetainLine", "add_to_region", "begin_marker",
    "bullet_line", "citation", "cited_turn", "clean_slug", "core_limits", "daily_date", "decode",
    "derived_id", "doc_role", "end_marker", "entity_names", "entity_slug", "evidence_line",
    "find_mentions", "front_matter_end", "generated_regions", "is_block_title", "is_turn",
    "load_front_matter", "open_tasks", "opinion_line", "parse_appended", "parse_bullet",
    "parse_core", "parse_document", "plan_append", "prepare_append", "read_front_matter",
    "redact_bytes", "region_lines", "remove_lines", "render_bullet", "replace_region",
    "retain_lines", "rewrite_block", "speaker_entity", "split_lines", "structure_problem",
    "summary_line", "turn_citation", "turn_statement", "valid_slug", "without_lines",
]
