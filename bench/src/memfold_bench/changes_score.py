"""The lifecycle of a person's year, scored against the changes its writer marked
(`memfold bench personal FILE.json --changes CHANGES.json`).

CHANGES.json lists every real replacement in the year as the writer marked it:
[{"older": KEY, "newer": KEY, "why": "..."}], the newer fact making the older one no longer
true.  After the year is retained day by day, each automatic supersede is one of:

- *as marked*: the pair the writer listed;
- *through another fact*: the older fact is one the writer marked changed, retired by
  another newer fact than the one listed (a sale that retires the car and its insurance);
- *unmarked*: the older fact is one the writer never marked changed — by the writer's list,
  a true fact retired.  A list can miss a real change, so this is an upper bound to read,
  not a verdict: `unmarked_pairs` in the JSON names each such pair, `supersede_pairs`
  every automatic supersede with its reason and which of the three it is, and
  `missed_pairs` each marked change neither superseded nor offered.

Beside them: how many marked changes ended superseded, and superseded or offered (a
conflict left active naming the pair), of all the writer marked; and how many conflicts
were offered, and how many of those of a fact the writer never marked changed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from memfold import RetainResult
from memfold.errors import BadInput
from memfold.journal.events import rule_of

from .timeline import Json, pct, share


def read_changes(path: Path, keys: set[str]) -> list[tuple[str, str]]:
    """The (older, newer) key pairs of a changes file; BadInput says what is wrong."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInput(f"{path}: cannot read a JSON list of changes ({exc})") from None
    if not isinstance(rows, list):
        raise BadInput(f"{path}: expected a JSON list of {{older, newer}} objects")
    pairs = []
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not all(isinstance(row.get(k), str)
                                                for k in ("older", "newer")):
            raise BadInput(f"{path}: change {i} needs string 'older' and 'newer' keys")
        unknown = [row[k] for k in ("older", "newer") if row[k] not in keys]
        if unknown:
            raise BadInput(f"{path}: change {i} names no fact of the year: {unknown[0]!r}")
        pairs.append((row["older"], row["newer"]))
    return pairs


def score(retained: Sequence[RetainResult], ids: Mapping[str, str],
          changes: Sequence[tuple[str, str]], facts: int) -> Json:
    """What the judge did over the replayed year, against the marked changes."""
    marked, olds = set(changes), {old for old, _ in changes}
    made: list[tuple[str, str, str]] = []
    offered: set[tuple[str, str]] = set()
    by_rule: dict[str, list[int]] = {}
    for result in retained:
        for judged in result.judged:
            pair = (ids.get(judged.id, judged.id), ids.get(judged.by, judged.by))
            if judged.superseded:
                made.append((*pair, judged.reason))
            elif pair not in offered:
                offered.add(pair)
                counts = by_rule.setdefault(rule_of(judged.judge, judged.reason), [0, 0])
                counts[0] += 1
                counts[1] += pair[0] not in olds
    retired = {old for old, _, _ in made}
    unmarked = [m for m in made if m[0] not in olds]
    return {
        "automatic_supersedes": len(made),
        "as_marked": sum((old, new) in marked for old, new, _ in made),
        "through_another_fact": sum(old in olds and (old, new) not in marked
                                    for old, new, _ in made),
        "unmarked": len(unmarked),
        "unmarked_per_1000_facts": 1000 * len(unmarked) / facts if facts else None,
        "offers": len(offered),
        "offers_of_unmarked": sum(old not in olds for old, _ in offered),
        "offers_by_rule": {rule: {"offers": n, "of_unmarked": u}
                           for rule, (n, u) in sorted(by_rule.items())},
        "changes": len(changes),
        "changes_superseded": share(sum(old in retired for old, _ in changes), len(changes)),
        "changes_superseded_or_offered": share(sum(
            old in retired or (old, new) in offered for old, new in changes), len(changes)),
        "unmarked_pairs": [{"older": o, "newer": n, "reason": r} for o, n, r in unmarked],
        "missed_pairs": [{"older": old, "newer": new} for old, new in changes
                         if old not in retired and (old, new) not in offered],
        "supersede_pairs": [{"older": o, "newer": n, "reason": r,
                             "verdict": _verdict(o, n, marked, olds)} for o, n, r in made],
    }


def _verdict(old: str, new: str, marked: set[tuple[str, str]], olds: set[str]) -> str:
    """One automatic supersede against the marked changes."""
    if (old, new) in marked:
        return "as marked"
    return "through another fact" if old in olds else "unmarked"


def lines(lifecycle: Json) -> list[str]:
    """The lifecycle figures, for the terminal."""
    c = lifecycle
    return [f"lifecycle against {c['changes']} marked changes: {c['automatic_supersedes']} "
            f"automatic supersedes ({c['as_marked']} as marked, {c['through_another_fact']} "
            f"of a marked fact through another, {c['unmarked']} of a fact not marked changed: "
            f"{c['unmarked_per_1000_facts']:.1f} per 1,000 facts); marked changes superseded "
            f"{pct(c['changes_superseded'])}%, superseded or offered "
            f"{pct(c['changes_superseded_or_offered'])}%"]
