"""A fact read by a language's table: the Reading (judge.reading) of a fact written in a
language the judge knows through a `Lexicon` (judge.lexicon) — Vietnamese today
(judge.words_vi).  The rules (judge.rules) weigh these Readings as they weigh English ones.

The text is folded first (no diacritics, lower case), so every pattern sees "da chuyen"
for "đã chuyển"; words are the folded syllables that are not function words, plus the
English stem of each phrase the lexicon names a concept ("cơ sở dữ liệu": database), so a
Vietnamese fact and an English one can share a topic.  Pure functions; no text errors.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memfold.lifecycle.judge import quantities as q
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.lexicon import Lexicon
from memfold.lifecycle.judge.reading import Change, Reading, Stems
from memfold.names import entity_key, fold

_EMPTY: Stems = frozenset()
_TOKEN = re.compile(r"[#\w][\w.+#-]*[\w+#]|[#\w]")
_DATES = re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b(?:thang|nam|quy|ngay|tuan)\s+\d+\b"
                    r"|\(\s*[^()]*\d[^()]*\)")


def _fold(lex: Lexicon, content: str) -> str:
    """Folded content; a function word capitalised inside the text is part of a name
    ("phố Hàng Bè"): it stays in capitals, so no pattern and no stop list takes it."""
    content = re.sub(r"@(?=\w)", "", content).strip().rstrip(".!")
    text = fold(content)
    if len(text) == len(content):  # one character for one: the offsets hold
        for m in list(re.finditer(r"\w+", content))[1:]:
            if m.group()[0].isupper() and text[m.start(): m.end()] in lex.stop:
                text = text[: m.start()] + text[m.start(): m.end()].upper() + text[m.end():]
    return re.sub(r"(?<=\d),(?=\d)", ".", text)  # "7,5 triệu": a decimal comma


def _stems(lex: Lexicon, text: str, drop: Stems) -> Stems:
    """Content stems: not function words (unless capitalised inside a name, "phố Hàng Bè"),
    not `drop` (the entity names) — and the concepts the lexicon finds in the text."""
    words = {w.stem(t.lower()) for t in _TOKEN.findall(text) if t not in lex.stop}
    words |= {w.stem(concept) for pattern, concept in lex.concepts if pattern.search(text)}
    return frozenset(words - drop)


def _names(entities: tuple[str, ...]) -> Stems:
    parts = {part for e in entities for part in (entity_key(e), *re.split(r"[-_.\s]+", fold(e)))
             if part}
    return frozenset(parts | {w.stem(part) for part in parts})


def _clip(lex: Lexicon, text: str) -> str:
    return lex.clip.split(f"{text} ", maxsplit=1)[0].strip(" .")


def _subject(lex: Lexicon, clause: str) -> tuple[str, str]:
    """(subject, rest): the subject runs to the first marker word after its first word."""
    words = clause.split()
    for i, word in enumerate(words[1:], 1):
        if word in lex.markers:
            return " ".join(words[:i]), " ".join(words[i:])
    return clause, ""


def _slot(lex: Lexicon, clause: str, names: Stems) -> tuple[Stems, str | None, Stems]:
    """(attribute, relation, value) a clause states, or empty parts."""
    for pattern, relation in lex.relations:
        if m := pattern.search(clause):
            attr = _stems(lex, _subject(lex, clause[: m.start()])[0], names)
            return attr, relation, _stems(lex, _clip(lex, m.group("val")), names)
    if not (m := lex.copula.match(clause)):
        if m := lex.where.search(clause):
            attr = _stems(lex, _subject(lex, clause[: m.start()])[0], names)
            return attr, "location", _stems(lex, _clip(lex, m.group("val")), names)
        return _EMPTY, None, _EMPTY
    attr, val = _stems(lex, m.group("subj"), names), _clip(lex, m.group("val"))
    value = _stems(lex, val, names)
    subject = m.group("subj").strip()
    if known := next((r for pattern, r in lex.attr_relations if pattern.match(subject)), None):
        return _EMPTY, known, value  # "quản lý trực tiếp của Phương là ...": his manager
    if attr & {"ten"}:
        return attr, "name", value
    if attr:
        return attr, "attr", value
    kind = next((k for pattern, k in lex.classes if pattern.search(val)), None)
    return _EMPTY, kind, value


def _changes(lex: Lexicon, clause: str, names: Stems) -> list[Change]:
    subject = _stems(lex, _subject(lex, clause)[0], names)
    for pattern, verb in lex.changes:
        if m := pattern.search(clause):
            found = m.groupdict()
            old = _stems(lex, _clip(lex, found.get("old") or ""), names)
            if verb == "rename" and not old:  # "X đổi tên thành Y": X is the name left
                old = _stems(lex, _subject(lex, clause[: m.start()])[0], names)
            obj = _stems(lex, found.get("obj") or "", names) or subject
            return [Change(verb, old, _stems(lex, _clip(lex, found["new"]), names), obj)]
    return []


def _ended(lex: Lexicon, clause: str, names: Stems) -> Stems | None:
    for pattern in lex.ends:
        if m := pattern.search(clause):
            what = _stems(lex, _clip(lex, m.group("what")), names)
            return what or _stems(lex, _subject(lex, clause[: m.start()])[0], names)
    return None


def _numbers(lex: Lexicon, text: str, versions: frozenset[tuple[str, str]]
             ) -> tuple[tuple[str, Stems], ...]:
    """Quantities with their unit: the word after the number ("25 triệu"), else the word
    before it ("lớp 1", "kết thúc bằng 4471"); dates and versions are not quantities."""
    tokens = _TOKEN.findall(_DATES.sub(" ", text))
    numbered = {number for _, number in versions}
    out: list[tuple[str, Stems]] = []
    for i, token in enumerate(tokens):
        if not w.is_number(token) or token in numbered:
            continue
        after = [t for t in tokens[i + 1: i + 2] if t not in lex.stop and not w.is_number(t)]
        before = [t for t in tokens[max(0, i - 2): i] if t not in lex.stop][-1:]
        out.append((token, frozenset(w.stem(t) for t in (after or before))))
    return tuple(out)


def _guard(lex: Lexicon, text: str, names: Stems, ends: bool, moves: bool) -> str | None:
    if (m := lex.kin.match(text)) and m.group("who") in names:
        return "third-party"
    if (m := lex.reported.match(text)) and m.group("who") not in names:
        return "third-party"
    for guard, pattern in lex.guards:
        if pattern.search(text) and not (guard == "restated" and moves):
            return guard
    if ends or (lex.this_week.search(text) and not moves):
        return "temporary"
    return None


def read_table(kind: str, content: str, entities: tuple[str, ...], ends: bool,
               lex: Lexicon) -> Reading:
    """Read one fact with a language's lexicon (cached)."""
    return _read(kind, content, entities, ends, lex)


def forget() -> None:
    _read.cache_clear()


@lru_cache(maxsize=4096)
def _read(kind: str, content: str, entities: tuple[str, ...], ends: bool,
          lex: Lexicon) -> Reading:
    text = _fold(lex, content)
    own = tuple(e for e in entities if f"@{fold(e)}" not in fold(content))
    names = _names(own)
    clauses = [lex.fronted.sub("", c) for c in lex.clause_split.split(text) if c.strip()]
    first = clauses[0] if clauses else ""
    subject_text, predicate_text = _subject(lex, first)
    attr, relation, value = _EMPTY, None, _EMPTY
    for clause in clauses:
        attr, relation, value = _slot(lex, clause, names)
        if relation:
            break
    changes = tuple(c for clause in clauses for c in _changes(lex, clause, names))
    ended = tuple(e for c in clauses if (e := _ended(lex, c, names)) is not None)
    versions = q.versions(content)
    positive, negative = lex.positive.search(text), lex.negative.search(text)
    subject = {t for t in subject_text.split()}
    about = [e for e in entities if _names((e,)) & subject]
    return Reading(
        kind=kind, text=content, words=_stems(lex, text, names),
        subject=_stems(lex, subject_text, names),
        predicate=_stems(lex, " ".join([predicate_text, *clauses[1:]]), names),
        attr=attr, relation=relation, value=value, verb="",
        head=min(attr) if attr else "", changes=changes, ends=ended,
        numbers=_numbers(lex, text, versions), versions=versions,
        families=q.families(content),
        polarity=-1 if negative else 1 if positive else 0,
        changed_mind=bool(lex.changed_mind.search(text)),
        guard=_guard(lex, text, names, ends, bool(changes or ended)),
        additive=bool(lex.additive.search(lex.not_additive.sub(" ", text))),
        about=frozenset(entity_key(e) for e in (about or own[:1] or entities[:1])),
        now=bool(lex.now.search(text)), reversal=bool(lex.reversal.search(text)),
        parted=bool(lex.parted.search(text)),
    )
