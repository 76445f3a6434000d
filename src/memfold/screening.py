"""What memfold refuses or flags in text it is asked to keep.

- Secrets: a bullet that looks like it holds a credential (`memfold.scan.secrets`) is refused
  unless the caller says `allow_secret`; the error names the kind and a redacted preview,
  never the secret.  Text that reaches the Markdown another way (typed by hand, or kept
  with `allow_secret`) is flagged when it is indexed (`flag_secrets`: a warning with
  path:line that `memfold status` lists), and outputs show it redacted (`values.redacted`).
- Hidden text: invisible Unicode (tag characters, zero-width and bidi controls) and HTML
  comments (`memfold.scan.hidden`) are kept as written but reported, and every human-readable
  view shows them visibly with `reveal`, so an instruction cannot hide in memory a person
  reviews.
- Provenance: every retain call journals who retained its bullets ("cli:alice",
  "agent:claude", "import:locomo") before it returns; show and recall report it as `origin`
  ("markdown" for a bullet a person wrote).  A bullet may also carry `by=` by hand.
Nothing found inside retained content is ever executed or treated as an instruction.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Concatenate, ParamSpec, TypeVar

from memfold.errors import BadInput
from memfold.scan.hidden import find_hidden, reveal
from memfold.scan.secrets import find_secrets
from memfold.values import TEXT, Fact, ParsedDoc, ParseWarning

SOURCE = re.compile(r"[\w.:@/-]{1,64}")

SECRET_WARNING = "looks like a secret"  # how a secret's index warning begins
HIDDEN_WARNING = "holds hidden text"  # how a hidden-text index warning begins

__all__ = ["HIDDEN_WARNING", "SECRET_WARNING", "check_secrets", "flag_hidden", "flag_secrets",
           "hidden_note", "is_hidden_warning", "is_secret_warning", "refuse_undecodable",
           "refuses_undecodable", "reveal", "valid_source"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_S = TypeVar("_S")
_P = ParamSpec("_P")
_T = TypeVar("_T")


def refuse_undecodable(value: object, label: str) -> None:
    """Raise BadInput when `value` (text, or a list of texts) holds a lone surrogate: what
    Python makes of bytes that were not UTF-8 (a command-line argument) or of a JSON
    `\\ud800` escape.  Such text cannot be written as UTF-8, so it is refused before
    anything is stored, with where it is."""
    texts = [value] if isinstance(value, str) else value if isinstance(value, list | tuple) else []
    for number, text in enumerate(texts, 1):
        found = _SURROGATE.search(text) if isinstance(text, str) else None
        if found:
            where = f"{label} {number}" if not isinstance(value, str) else label
            raise BadInput(f"{where} is not UTF-8 text: U+{ord(found.group()):04X} (a byte that "
                           f"was not UTF-8, or a lone surrogate) at character {found.start()}")


def refuses_undecodable(method: Callable[Concatenate[_S, _P], _T],
                        ) -> Callable[Concatenate[_S, _P], _T]:
    """A method whose text arguments are checked first (`refuse_undecodable`, by parameter
    name): text that cannot be written as UTF-8 is refused before anything is stored."""
    params = list(inspect.signature(method).parameters)[1:]

    @functools.wraps(method)
    def run(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        for name, value in (*zip(params, args, strict=False), *kwargs.items()):
            refuse_undecodable(value, name)
        return method(self, *args, **kwargs)

    return run


def check_secrets(content: str, label: str, *, allow: bool) -> str | None:
    """Raise BadInput for a likely secret, or return a warning when it is allowed."""
    from memfold.scan.secrets import (
        find_secrets,  # compiling its patterns costs a short command 20 ms
    )

    found = find_secrets(content)
    if not found:
        return None
    first = found[0]
    what = f"{first.kind} ({first.preview}) at character {first.start + 1}"
    if not allow:
        raise BadInput(f"{label} looks like it holds a secret: {what}; memfold does not store "
                       "secrets — remove it, or pass --allow-secret to keep it anyway")
    return f"{label} holds what looks like a secret ({what}); kept because it was allowed"


def flag_secrets(doc: ParsedDoc, lines: Callable[[], Sequence[str]] | None = None) -> ParsedDoc:
    """`doc` with a warning for each likely secret in its facts and text chunks, at the line
    that holds it; the warning names the kind and a safe preview, never the secret.
    `lines` gives the file's lines, read only to place a secret in a text chunk whose
    blank lines were left out of its text."""
    found: list[ParseWarning] = []
    for fact in doc.facts:
        for match in find_secrets(fact.content):
            remedy = (f"remove it from {fact.path} by hand" if fact.kind == TEXT else
                      f"`memfold forget {fact.id} --purge` removes it")
            found.append(ParseWarning(
                fact.path, _line_of(fact, match.start, match.end, lines),
                f"{SECRET_WARNING} ({match.kind}, {match.preview}); it is indexed but "
                f"redacted in outputs (--show-secrets shows it); {remedy}"))
    return replace(doc, warnings=doc.warnings + tuple(found)) if found else doc


def flag_hidden(doc: ParsedDoc, lines: Callable[[], Sequence[str]] | None = None) -> ParsedDoc:
    """`doc` with a warning for each fact holding hidden text (invisible characters, HTML
    comments, …; `memfold.scan.hidden`), at the line of the first: it stays in the index,
    and every view shows it revealed, until a person removes it."""
    found: list[ParseWarning] = []
    for fact in doc.facts:
        hidden = find_hidden(fact.content)
        if hidden:
            kinds = ", ".join(sorted({h.kind for h in hidden}))
            found.append(ParseWarning(
                fact.path, _line_of(fact, hidden[0].start, hidden[0].end, lines),
                f"{HIDDEN_WARNING} ({kinds}) that viewers do not show; memfold shows it "
                f"marked (⟦…⟧); remove it from {fact.path} by hand unless you put it there"))
    return replace(doc, warnings=doc.warnings + tuple(found)) if found else doc


def is_hidden_warning(warning: ParseWarning) -> bool:
    return warning.message.startswith(HIDDEN_WARNING)


def _line_of(fact: Fact, start: int, end: int,
             lines: Callable[[], Sequence[str]] | None) -> int:
    """The file line holding `fact.content[start:end]`."""
    guess = fact.line + fact.content.count("\n", 0, start)
    if lines is None or fact.end_line - fact.line == fact.content.count("\n"):
        return guess
    first = fact.content[start:end].split("\n", 1)[0]
    text = lines()
    for number in range(fact.line, min(fact.end_line, len(text)) + 1):
        if first in text[number - 1]:
            return number
    return guess


def is_secret_warning(warning: ParseWarning) -> bool:
    return warning.message.startswith(SECRET_WARNING)


def hidden_note(content: str, label: str) -> str | None:
    """A warning naming the hidden text in `content`, or None."""
    found = find_hidden(content)
    if not found:
        return None
    kinds = ", ".join(sorted({h.kind for h in found}))
    return f"{label} holds hidden text ({kinds}); shown as {reveal(content)!r}"


def valid_source(source: str) -> str:
    text = source.strip()
    if not SOURCE.fullmatch(text):
        raise BadInput(f"--source {source!r} must be 1-64 letters, digits or . : @ / - _ "
                       "(e.g. agent:claude)")
    return text
