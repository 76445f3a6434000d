"""`memfold bench locomo`: how much of LoCoMo's evidence memfold's recall puts in the top k.

LoCoMo is the long-term conversational memory benchmark of Maharana et al., "Evaluating Very
Long-Term Conversational Memory of LLM Agents" (ACL 2024), published by snap-research under
CC BY-NC 4.0 (attribution, non-commercial use only).  The data is read from the path given on
the command line and never copied into this repository; the results file holds figures only.

This module owns the harness.  Each conversation (a LoCoMo sample) becomes a workspace in a
temporary directory, written directly as Markdown:

    memory/2023-05-08.md      one daily log per session date ("1:56 pm on 8 May, 2023"); two
                              sessions on one day share the file, in session order
    - B @Caroline: text       one Retain bullet per dialog turn, the speaker as an entity
                              (spaces become '-'), an image's caption appended as
                              " [image: caption]"

The line each turn lands on is remembered, so a cited source (`path#Lline`) maps back to the
turn's `dia_id`.  After a full index build, every question that names evidence is asked with
`Memory.recall(question, k=K, include_all=True, now=<the day after the last session>)`.

Beside memfold runs the plain baseline the literature reports: BM25 over the same turns — an
FTS5 table (`unicode61 remove_diacritics 2`) of `Speaker: text` per turn, queried with every
word of the question quoted and OR-ed, `ORDER BY rank LIMIT k`.  No stemming, no stop words,
no entities, no time.

`--mode` chooses memfold's recall mode: lexical (the default here, as before), semantic or
hybrid (they need the embed extra: `pip install 'memfold[embed]'`), or `all` to run the three
side by side.  Vectors are built once per conversation after the index and timed apart
(`embed_seconds`, with the embedder's identity in the results).

Recall@k is the share of a question's evidence turns among the top k results, averaged over
the questions of a category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop,
5 adversarial) and over all.  Evidence ids are read with `D:?(\\d+):0*(\\d+)`, which also
reads the malformed strings LoCoMo has ("D8:6; D9:17", "D:11:26", "D30:05"); questions
without evidence are skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from memfold.memory import Memory
from memfold.recall.ranking import TUNABLE, tuned

from .index_bench import environment, output_options, save_result
from .locomo_loco import (
    HOW_DEFAULTS,
    HOW_FITTED,
    Setting,
    held_out,
    loco_lines,
    mean_over,
    parse_tune,
)
from .timeline import check_modes, mode_option, modes_for

Json = dict[str, Any]
K = 10
CUTOFFS = (5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop",
              5: "adversarial"}
SYSTEMS = ("memfold", "bm25")
LAYOUTS = ("bullets", "narrative")
ANCHORS: dict[str, Json] = {
    "bm25_turns_r10": {"value": 0.54, "what": "BM25 over dialog turns, R@10, full LoCoMo set"},
    "dragon_r10": {"value": 0.662, "what": "DRAGON retriever over dialog turns, R@10 "
                                           "(Maharana et al. 2024, Table 3)"},
}
CITATION = ("Maharana et al., \"Evaluating Very Long-Term Conversational Memory of LLM "
            "Agents\", ACL 2024; data CC BY-NC 4.0 (snap-research/LoCoMo)")
SESSION = re.compile(r"session_(\d+)")
DATE_TIME = re.compile(r"(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$")
EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
WORD = re.compile(r"\w+")
SLUG_BREAKS = re.compile(r"[^\w.\-]+")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MONTHS = {name: n for n, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), 1)}
Ranker = Callable[[str], list[str]]  # a question -> dia_ids, best first


# -- reading LoCoMo ----------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str  # one line: whitespace collapsed, the image caption appended


@dataclass(frozen=True)
class Session:
    number: int
    day: date
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]
    skipped: int  # questions without evidence

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]

    @property
    def now(self) -> datetime:
        """Noon UTC on the day after the last session."""
        last = max(s.day for s in self.sessions) + timedelta(days=1)
        return datetime(last.year, last.month, last.day, 12, tzinfo=UTC)


def session_day(text: str) -> date:
    """"1:56 pm on 8 May, 2023" -> 2023-05-08."""
    m = DATE_TIME.search(text.strip())
    month = MONTHS.get(m.group(2).casefold()) if m else None
    if m is None or month is None:
        raise click.ClickException(f"cannot read the session date {text!r}")
    return date(int(m.group(3)), month, int(m.group(1)))


def one_line(text: str) -> str:
    return " ".join(CONTROL.sub(" ", text).split())


def read_turn(raw: Json) -> Turn:
    text = one_line(str(raw.get("text", "")))
    if caption := one_line(str(raw.get("blip_caption") or "")):
        text = f"{text} [image: {caption}]".strip()
    return Turn(str(raw["dia_id"]), str(raw["speaker"]), text)


def read_sessions(conversation: Json) -> tuple[Session, ...]:
    """The `session_<N>` lists that exist, in session order (date keys alone are ignored)."""
    numbers = sorted(int(m.group(1)) for key in conversation
                     if (m := SESSION.fullmatch(key)) and isinstance(conversation[key], list))
    return tuple(Session(n, session_day(conversation[f"session_{n}_date_time"]),
                         tuple(read_turn(t) for t in conversation[f"session_{n}"]))
                 for n in numbers)


def parse_evidence(items: Iterable[object]) -> frozenset[str]:
    """Evidence dia_ids, normalised to `D<session>:<turn>`, malformed strings included."""
    return frozenset(f"D{s}:{t}" for item in items for s, t in EVIDENCE.findall(str(item)))


def read_sample(sample: Json) -> Conversation:
    questions, skipped = [], 0
    for qa in sample.get("qa", []):
        evidence = parse_evidence(qa.get("evidence") or [])
        if evidence:
            questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
        else:
            skipped += 1
    return Conversation(str(sample["sample_id"]), read_sessions(sample["conversation"]),
                        tuple(questions), skipped)


def load(path: Path) -> list[Conversation]:
    try:
        samples = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"cannot read LoCoMo data from {path}: {exc}") from None
    return [read_sample(s) for s in samples]


# -- the workspace -------------------------------------------------------------------------


def speaker_slug(name: str) -> str:
    """A speaker's name as an entity slug: runs of spaces (and other breaks) become '-'."""
    return SLUG_BREAKS.sub("-", name.strip()).strip("-.") or "speaker"


def bullet(turn: Turn) -> str:
    return f"- B @{speaker_slug(turn.speaker)}: {turn.text}"


def daily_sessions(conv: Conversation) -> dict[str, list[Session]]:
    """Sessions by daily log path, sessions of one day in session order."""
    logs: dict[str, list[Session]] = defaultdict(list)
    for session in conv.sessions:
        logs[f"memory/{session.day.isoformat()}.md"].append(session)
    return logs


def write_workspace(root: Path, conv: Conversation, layout: str = "bullets") -> dict[str, str]:
    """Write the conversation as daily logs; returns each turn's source -> dia_id.

    `bullets`: a Retain bullet per turn.  `narrative`: prose, a `## Session N` heading per
    session and each turn a paragraph `Speaker: text` under it, no Retain section.  The
    heading's line maps to the turn below it too: a text chunk starts at its heading."""
    Memory.init(root)
    sources: dict[str, str] = {}
    for rel, sessions in daily_sessions(conv).items():
        lines = [f"# {rel[7:17]}"]
        for session in sessions:
            if layout == "narrative":
                lines += ["", f"## Session {session.number}"]
                if session.turns:
                    sources[f"{rel}#L{len(lines)}"] = session.turns[0].dia_id
            elif len(lines) == 1:
                lines += ["", "## Retain"]
            for turn in session.turns:
                if layout == "narrative":
                    lines += ["", f"{turn.speaker}: {turn.text}"]
                else:
                    lines.append(bullet(turn))
                sources[f"{rel}#L{len(lines)}"] = turn.dia_id
        (root / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sources


# -- the two systems -----------------------------------------------------------------------


def memfold_ranker(memory: Memory, sources: dict[str, str], now: datetime, k: int,
                   mode: str = "lexical", rerank: bool = False) -> Ranker:
    def rank(question: str) -> list[str]:
        result = memory.recall(question, k=k, include_all=True, now=now, mode=mode,
                               rerank=rerank)
        return [sources[h.fact.source] for h in result.hits if h.fact.source in sources]
    return rank


def bm25_table(turns: Sequence[Turn]) -> sqlite3.Connection:
    """An in-memory FTS5 table of `Speaker: text` per turn: the plain baseline."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE turns USING fts5("
               "body, dia_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO turns (body, dia_id) VALUES (?, ?)",
                   [(f"{t.speaker}: {t.text}", t.dia_id) for t in turns])
    return db


def bm25_query(question: str) -> str | None:
    words = dict.fromkeys(w.casefold() for w in WORD.findall(question))
    return " OR ".join(f'"{w}"' for w in words) or None


def bm25_ranker(db: sqlite3.Connection, k: int) -> Ranker:
    def rank(question: str) -> list[str]:
        fts = bm25_query(question)
        if fts is None:
            return []
        rows = db.execute("SELECT dia_id FROM turns WHERE turns MATCH ? ORDER BY rank LIMIT ?",
                          (fts, k))
        return [row[0] for row in rows]
    return rank


# -- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One question's ranked dia_ids from each system."""

    sample_id: str
    category: int
    evidence: frozenset[str]
    ranked: dict[str, list[str]]


def recall_at(ranked: Sequence[str], evidence: frozenset[str], cutoff: int) -> float:
    return len(evidence.intersection(ranked[:cutoff])) / len(evidence)


def ask(conv: Conversation, rankers: dict[str, Ranker]) -> list[Outcome]:
    return [Outcome(conv.sample_id, q.category, q.evidence,
                    {name: rank(q.text) for name, rank in rankers.items()})
            for q in conv.questions]


def systems_for(modes: Sequence[str]) -> tuple[str, ...]:
    """Result keys: "memfold" for one mode, the modes' names for several, then "bm25"."""
    return ("memfold", "bm25") if len(modes) == 1 else (*modes, "bm25")


def build_vectors(ws: Path, memory: Memory) -> Json:
    """Embed every fact of the workspace; how long it took and with which model."""
    from memfold.recall.modes import open_semantic

    started = time.perf_counter()
    semantic = open_semantic(ws / ".memory")
    loaded = time.perf_counter() - started
    embedded = semantic.update(memory.index_backend)
    seconds = time.perf_counter() - started - loaded
    memory.set_embedder(semantic.embedder)
    return {"embedded": embedded, "embed_seconds": seconds, "load_seconds": loaded,
            "identity": semantic.embedder.identity.to_dict()}


def run_conversation(conv: Conversation, k: int, workdir: Path,
                     modes: Sequence[str] = ("lexical",), grid: Sequence[Setting] = ({},),
                     layout: str = "bullets", rerank: bool = False,
                     ) -> tuple[list[list[Outcome]], float, Json]:
    """Build the workspace and index (and vectors, for semantic modes), ask every question
    under every setting of `grid` (BM25, which has none, once); returns the outcomes per
    setting, index seconds and what embedding took."""
    ws = workdir / conv.sample_id
    sources = write_workspace(ws, conv, layout)
    started = time.perf_counter()
    with Memory.open(ws) as memory:
        memory.index(full=True)
        built = time.perf_counter() - started
        vectors = build_vectors(ws, memory) if set(modes) - {"lexical"} else {}
        names = systems_for(modes)
        db = bm25_table(conv.turns)
        try:
            baseline = ask(conv, {"bm25": bm25_ranker(db, k)})
        finally:
            db.close()
        runs = []
        for setting in grid:
            rankers = {name: memfold_ranker(memory, sources, conv.now, k, mode, rerank)
                       for name, mode in zip(names, modes, strict=False)}
            with tuned(setting):
                found = ask(conv, rankers)
            runs.append([Outcome(o.sample_id, o.category, o.evidence, {**o.ranked, **b.ranked})
                         for o, b in zip(found, baseline, strict=True)])
        return runs, built, vectors


def cutoffs_for(k: int) -> list[int]:
    return sorted({c for c in (*CUTOFFS, k) if c <= k})


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def figures(outcomes: Sequence[Outcome], cutoffs: Sequence[int]) -> Json:
    """Per system: mean recall@cutoff over `outcomes`, and how many questions that is."""
    out: Json = {"questions": len(outcomes)}
    for system in (outcomes[0].ranked if outcomes else SYSTEMS):
        out[system] = {f"recall@{c}": mean([recall_at(o.ranked[system], o.evidence, c)
                                            for o in outcomes]) for c in cutoffs}
    return out


def by_category(outcomes: Sequence[Outcome], cutoffs: Sequence[int]) -> Json:
    groups: dict[str, Json] = {}
    for number, name in CATEGORIES.items():
        chosen = [o for o in outcomes if o.category == number]
        if chosen:
            groups[f"{number} {name}"] = figures(chosen, cutoffs)
    groups["overall"] = figures(outcomes, cutoffs)
    return groups


# -- the command ---------------------------------------------------------------------------


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_benchmark(path: Path, k: int, log: Callable[[str], None],
                  modes: Sequence[str] = ("lexical",), grid: Sequence[Setting] = ({},),
                  layout: str = "bullets", rerank: bool = False) -> Json:
    conversations = load(path)
    cutoffs = cutoffs_for(k)
    runs: list[dict[str, list[Outcome]]] = [{} for _ in grid]
    samples: list[Json] = []
    with tempfile.TemporaryDirectory(prefix="memfold-locomo-") as tmp:
        for conv in conversations:
            log(f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.questions)} questions")
            started = time.perf_counter()
            found, built, vectors = run_conversation(conv, k, Path(tmp), modes, grid, layout,
                                                     rerank)
            for run, outcomes in zip(runs, found, strict=True):
                run[conv.sample_id] = outcomes
            samples.append({"sample_id": conv.sample_id, "sessions": len(conv.sessions),
                            "turns": len(conv.turns), "skipped_without_evidence": conv.skipped,
                            "index_seconds": built, **vectors,
                            "seconds": time.perf_counter() - started,
                            **figures(found[0], cutoffs)})
    pooled = [o for outcomes in runs[0].values() for o in outcomes]
    return {
        "benchmark": "locomo",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "dataset": {"file": path.name, "sha256": file_sha256(path), "citation": CITATION},
        "parameters": {"k": k, "cutoffs": cutoffs, "include_all": True,
                       "mode": modes[0] if len(modes) == 1 else list(modes),
                       "now": "noon UTC on the day after each conversation's last session",
                       "bm25": "FTS5 unicode61 over 'Speaker: text', every question word "
                               "quoted and OR-ed, ORDER BY rank",
                       "grid": list(grid), "layout": layout, "rerank": rerank},
        "environment": environment(),
        "anchors": ANCHORS,
        "totals": {"conversations": len(conversations),
                   "turns": sum(s["turns"] for s in samples),
                   "questions": len(pooled),
                   "skipped_without_evidence": sum(c.skipped for c in conversations)},
        "categories": by_category(pooled, cutoffs),
        "conversations": samples,
        "loco": loco_figures(runs, grid, k, cutoffs),
    }


def loco_figures(runs: Sequence[dict[str, list[Outcome]]], grid: Sequence[Setting], k: int,
                 cutoffs: Sequence[int]) -> Json:
    """The leave-one-conversation-out figures (`locomo_loco`)."""
    chosen, picks = held_out(runs, grid, k, recall_at)
    convs = [{"sample_id": sample, "chosen": picks[sample], **figures(outcomes, cutoffs)}
             for sample, outcomes in chosen.items()]
    held = [o for outcomes in chosen.values() for o in outcomes]
    systems = [s for s in (held[0].ranked if held else ())]
    return {"how": HOW_FITTED if len(grid) > 1 else HOW_DEFAULTS,
            "pooled": figures(held, cutoffs), "mean": mean_over(convs, systems, cutoffs),
            "categories": by_category(held, cutoffs), "conversations": convs}


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def table(result: Json, categories: Json | None = None) -> list[str]:
    cutoffs = result["parameters"]["cutoffs"]
    categories = categories or result["categories"]
    systems = [s for s in categories["overall"] if s != "questions"]
    heads = [f"{s} R@{c}" for s in systems for c in cutoffs]
    lines = [f"{'category':<16}{'n':>5}" + "".join(f"{h:>15}" for h in heads)]
    for name, group in categories.items():
        cells = [percent(group[s][f"recall@{c}"]) for s in systems for c in cutoffs]
        lines.append(f"{name:<16}{group['questions']:>5}" + "".join(f"{c:>15}" for c in cells))
    return lines


def anchor_lines() -> list[str]:
    return ["published anchors: " + "; ".join(
        f"{a['what']} {percent(a['value'])}" for a in ANCHORS.values())]


@click.command("locomo")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--k", "k", default=K, show_default=True, type=click.IntRange(min=1),
              help="Results asked of each system per question.")
@output_options("benchmarks/results/locomo.json")
@mode_option
@click.option("--tune", "tune", multiple=True, metavar="NAME=v1,v2",
              help="Ranking weights to fit leave-one-conversation-out (repeatable; names: "
                   f"{', '.join(TUNABLE)}); the first grid point gives the pooled figures.")
@click.option("--layout", "layout", default="bullets", show_default=True,
              type=click.Choice(LAYOUTS),
              help="How turns are written: a Retain bullet each, or narrative paragraphs "
                   "under a heading per session (no Retain section).")
@click.option("--rerank", is_flag=True,
              help="memfold recalls with --rerank (needs the embed extra); with --tune "
                   "RERANK_SHARE=0,... the share 0 is recall without it.")
def locomo_command(path: Path, k: int, out: Path, as_json: bool, mode: str,
                   tune: tuple[str, ...], layout: str, rerank: bool) -> None:
    """Evidence recall@5 and @10 on LoCoMo conversations, memfold beside plain BM25.

    PATH is a LoCoMo JSON file (a list of samples), e.g. the benchmark's locomo10.json.
    Each conversation becomes a temporary workspace of daily logs, one bullet per turn.

    \b
    Example:
      memfold bench locomo ../shared/bench/locomo-dev.json --k 10
    """
    modes = modes_for(mode)
    grid = parse_tune(tune)
    if rerank:
        from memfold.embed.rerank import shared_reranker
        from memfold.errors import EmbedUnavailable

        try:
            shared_reranker()  # fail early, before any work
        except EmbedUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    check_modes(modes)
    result = run_benchmark(path, k, lambda msg: click.echo(msg, err=True), modes, grid,
                           layout, rerank)
    if save_result(result, out, as_json=as_json):
        return
    totals = result["totals"]
    click.echo(f"memfold bench locomo: {totals['conversations']} conversations, "
               f"{totals['turns']:,} turns, {totals['questions']} questions with evidence "
               f"({totals['skipped_without_evidence']} without evidence skipped); k={k}, "
               f"mode {mode}, layout {layout}" + (", reranked" if rerank else ""))
    loco = result["loco"]
    held = (["held out, by category (pooled):", *table(result, loco["categories"])]
            if len(grid) > 1 else [])
    for line in [*table(result), *loco_lines(loco, k, percent), *held, *anchor_lines()]:
        click.echo(line)
    click.echo(f"wrote {out}", err=True)
