"""`Terms` as an FTS5 expression: the one place memfold writes FTS5 query syntax.

Every word and phrase is quoted (a quote inside doubled), so what a user typed is never read
as FTS5 syntax; each is folded as the index folds text (`names.fold_for_index`: letters the
tokenizer cannot unaccent, symbols spelled as words), and joined by OR (`Terms.every`: AND).
"""

from __future__ import annotations

from memfold.index.base import Terms
from memfold.names import fold_for_index


def quote(text: str) -> str:
    """A word or phrase as one FTS5 string: matched as the tokenizer reads it."""
    # FTS5 reads its query as a C string: a NUL would end it inside the quotes
    return '"' + fold_for_index(text).replace("\x00", " ").replace('"', '""') + '"'


def expression(terms: Terms) -> str:
    """The FTS5 expression for `terms`: phrases first, then words, in the order given
    ("" for empty terms, which match nothing)."""
    star = "*" if terms.prefix else ""
    parts = [quote(p) for p in terms.phrases] + [quote(w) + star for w in terms.words]
    return (" AND " if terms.every else " OR ").join(parts)
