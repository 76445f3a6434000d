"""Value types shared by the parser, the index and the facade: frozen, plain data, by family.

- `memfold.values.facts`: a `Fact` (a Retain bullet or a piece of text, cited as
  `path#Lline`), its validity `Interval`, `ParseWarning`, a file's `ParsedDoc` and
  `Citation`s, the `FileStamp` the index keeps, the kinds and their letters;
- `memfold.values.reports`: what a sync did (`SyncReport`), how the files differ from the
  index (`Freshness`), a workspace's status (`StatusReport`);
- `memfold.values.results`: the verbs' answers (`RetainResult` and `Judgement`,
  `RecallResult` and `Hit`, `AboutResult`), a hit's one-line form, and `redacted`, the one
  place outputs hide likely secrets.

Every name is importable from here, as `memfold.values.X`, as it was when they were one
module.
"""

from __future__ import annotations

from memfold.values.facts import (
    KIND_LETTERS,
    KINDS,
    LETTER_OF_KIND,
    TEXT,
    Citation,
    Fact,
    FileStamp,
    Interval,
    ParsedDoc,
    ParseWarning,
    citation,
    day_of,
    fact_dict,
    interval_of,
    made_fact,
    stated_confidence,
    warning_dict,
    warnings_of,
)
from memfold.values.reports import Freshness, StatusReport, SyncReport
from memfold.values.results import (
    LEFT_OUT_STATUSES,
    AboutResult,
    Hit,
    Judgement,
    RecallResult,
    RetainResult,
    hidden_kinds,
    redacted,
    render_hit,
    reveal,
)
from memfold.values.tokens import estimate_tokens

__all__ = [
    "KINDS",
    "KIND_LETTERS",
    "LEFT_OUT_STATUSES",
    "LETTER_OF_KIND",
    "TEXT",
    "AboutResult",
    "Citation",
    "Fact",
    "FileStamp",
    "Freshness",
    "Hit",
    "Interval",
    "Judgement",
    "ParseWarning",
    "ParsedDoc",
    "RecallResult",
    "RetainResult",
    "StatusReport",
    "SyncReport",
    "citation",
    "day_of",
    "estimate_tokens",
    "fact_dict",
    "hidden_kinds",
    "interval_of",
    "made_fact",
    "redacted",
    "render_hit",
    "reveal",
    "stated_confidence",
    "warning_dict",
    "warnings_of",
]
