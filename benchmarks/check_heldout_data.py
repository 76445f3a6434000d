"""Check the shape of the blind held-out truth-question and contradiction files.

Standard library only: `python3 benchmarks/check_heldout_data.py` checks
benchmarks/data/truthqa-heldout.jsonl and benchmarks/data/contradictions-heldout.jsonl
(JSON per line, unique ids, ordered dates, bullet syntax, answer substrings present in
the facts written by the question's time, one label per category) and prints their counts;
exit status 1 when a check fails. It reads the rows: run it while writing the files, never
while tuning memfold.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
BULLET = re.compile(
    r"^(?P<kind>[WBOS])(?:\((?P<params>[^)]*)\))?(?P<ents>(?: @[\w.\-]+)+): (?P<content>\S.*)$"
)
TRUE_CATEGORIES = {
    "change-verb-long-object", "replacement", "location-move", "employer-role-change",
    "implicit-conflict", "preference-reversal", "numeric-update", "version-upgrade",
    "status-change", "negation-of-state", "relationship-change", "rename", "passive-fronted",
    "alias", "mention-in-content",
}
FALSE_CATEGORIES = {
    "different-slot", "multi-valued", "temporary-visit", "experience-old", "different-entity",
    "refinement", "moved-something-else", "negated-change", "hypothetical-plan", "third-party",
    "rename-other-slot", "is-chain", "suggestion", "question", "restatement", "shared-org",
}
ERRORS: list[str] = []


def fail(where: str, message: str) -> None:
    ERRORS.append(f"{where}: {message}")


Row = dict[str, Any]


def rows(path: Path) -> list[Row]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            fail(f"{path.name}:{number}", f"not JSON ({exc})")
    return out


def bullet(where: str, text: str) -> tuple[set[str], dt.date | None]:
    """Check one bullet's syntax; return its entities (normalised) and its until= date."""
    match = BULLET.match(text)
    if not match:
        fail(where, f"not a Retain bullet: {text!r}")
        return set(), None
    until = None
    for param in filter(None, (match["params"] or "").split(",")):
        key, _, value = param.strip().partition("=")
        if key == "c" and not 0 <= float(value) <= 1:
            fail(where, f"confidence out of range: {value}")
        elif key == "until":
            until = dt.date.fromisoformat(value)
        elif key not in {"c", "i"}:
            fail(where, f"unexpected param {key!r}")
    names = re.findall(r"@([\w.\-]+)", match["ents"] + " " + match["content"])
    return {re.sub(r"[-_. ]", "", n.rstrip(".-").lower()) for n in names}, until


def check_truthqa(path: Path) -> list[Row]:
    data = rows(path)
    ids = [r.get("id") for r in data]
    if len(set(ids)) != len(ids):
        fail(path.name, "duplicate ids")
    for r in data:
        rid = r.get("id", "?")
        if not re.fullmatch(r"th-\d{3}", rid) or r.get("lang") not in {"en", "vi"}:
            fail(rid, "bad id or lang")
        if r.get("kind") not in {"change", "non-change", "mixed"} or not r.get("note"):
            fail(rid, "bad kind or missing note")
        facts = [(dt.date.fromisoformat(f["date"]), f["bullet"]) for f in r["facts"]]
        if [d for d, _ in facts] != sorted(d for d, _ in facts):
            fail(rid, "facts not in date order")
        untils = {b: bullet(rid, b)[1] for _, b in facts}
        for q in r["questions"]:
            check_question(rid, q, facts, untils)
    return data


def check_question(
    rid: str, q: Row, facts: list[tuple[dt.date, str]], untils: dict[str, dt.date | None]
) -> None:
    now = dt.datetime.fromisoformat(q["now"])
    written = [b for d, b in facts if d <= now.date()]
    if not q["q"] or not q["current"]:
        fail(rid, "question without text or current answer")
    for sub in q["current"]:
        holders = [b for b in written if sub in b]
        if not holders:
            fail(rid, f"current {sub!r} is in no fact written by {q['now']}")
        for b in holders:
            until = untils[b]
            if until is not None and until < now.date():
                fail(rid, f"current {sub!r} is in a fact that expired {until}")
            if any(s in b for s in q["stale"]):
                fail(rid, f"a current fact also holds a stale substring: {b!r}")
    for sub in q["stale"]:
        if not any(sub in b for _, b in facts):
            fail(rid, f"stale {sub!r} is in no fact")


def check_contradictions(path: Path) -> list[Row]:
    data = rows(path)
    ids = [r.get("id") for r in data]
    if len(set(ids)) != len(ids):
        fail(path.name, "duplicate ids")
    keys = {"id", "old", "new", "old_date", "new_date", "supersedes", "category", "why"}
    for r in data:
        rid = r.get("id", "?")
        if set(r) != keys or not re.fullmatch(r"h\d{3}", rid):
            fail(rid, f"bad keys or id: {sorted(r)}")
            continue
        if not dt.date.fromisoformat(r["old_date"]) < dt.date.fromisoformat(r["new_date"]):
            fail(rid, "old_date is not before new_date")
        old_ents, _ = bullet(rid, r["old"])
        new_ents, _ = bullet(rid, r["new"])
        cat = r["category"]
        expected = cat in TRUE_CATEGORIES
        if cat not in TRUE_CATEGORIES | FALSE_CATEGORIES or r["supersedes"] is not expected:
            fail(rid, f"category {cat!r} with supersedes={r['supersedes']!r}")
        shared = bool(old_ents & new_ents)
        if cat == "different-entity" and shared:
            fail(rid, "different-entity pair shares an entity")
        if cat not in {"different-entity", "shared-org"} and not shared:
            fail(rid, "the two facts share no entity")
    return data


def main() -> int:
    truth = DATA / "truthqa-heldout.jsonl"
    pairs = DATA / "contradictions-heldout.jsonl"
    if truth.exists():
        data = check_truthqa(truth)
        kinds = Counter((r["lang"], r["kind"]) for r in data)
        questions = Counter((r["lang"], r["kind"]) for r in data for _ in r["questions"])
        print(f"{truth.name}: {len(data)} timelines, {sum(questions.values())} questions")
        for key in sorted(kinds):
            counts = f"{kinds[key]:>3} timelines {questions[key]:>3} questions"
            print(f"  {key[0]} {key[1]:<10} {counts}")
    if pairs.exists():
        data = check_contradictions(pairs)
        cats = Counter(r["category"] for r in data)
        true = sum(r["supersedes"] for r in data)
        print(f"{pairs.name}: {len(data)} pairs, {true} true ({100 * true / len(data):.1f}%)")
        for cat in sorted(cats, key=lambda c: (c not in TRUE_CATEGORIES, c)):
            print(f"  {cat:<24} {cats[cat]:>3} {cat in TRUE_CATEGORIES}")
    for error in ERRORS:
        print(error, file=sys.stderr)
    return 1 if ERRORS else 0


if __name__ == "__main__":
    sys.exit(main())
