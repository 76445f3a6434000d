"""What memfold refuses or flags in text it is asked to keep.

- Secrets: a bullet that looks like it holds a credential (`memfold.secrets`) is refused
  unless the caller says `allow_secret`; the error names the kind and a redacted preview,
  never the secret.
- Hidden text: invisible Unicode (tag characters, zero-width and bidi controls) and HTML
  comments (`memfold.hidden`) are kept as written but reported, and every human-readable
  view shows them visibly with `reveal`, so an instruction cannot hide in memory a person
  reviews.
- Provenance: every retain call journals who retained its bullets ("cli:alice",
  "agent:claude", "import:locomo") before it returns; show and recall report it as `origin`
  ("markdown" for a bullet a person wrote).  A bullet may also carry `by=` by hand.
Nothing found inside retained content is ever executed or treated as an instruction.
"""

from __future__ import annotations

import re

from .errors import BadInput
from .hidden import find_hidden, reveal
from .secrets import find_secrets

SOURCE = re.compile(r"[\w.:@/-]{1,64}")

__all__ = ["check_secrets", "hidden_note", "reveal", "valid_source"]


def check_secrets(content: str, label: str, *, allow: bool) -> str | None:
    """Raise BadInput for a likely secret, or return a warning when it is allowed."""
    found = find_secrets(content)
    if not found:
        return None
    first = found[0]
    what = f"{first.kind} ({first.preview}) at character {first.start + 1}"
    if not allow:
        raise BadInput(f"{label} looks like it holds a secret: {what}; memfold does not store "
                       "secrets — remove it, or pass --allow-secret to keep it anyway")
    return f"{label} holds what looks like a secret ({what}); kept because it was allowed"


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
