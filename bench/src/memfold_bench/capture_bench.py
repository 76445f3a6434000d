"""`memfold bench capture`: what `memfold capture` extracts from raw conversation, what recall
finds in a captured workspace, and how fast a large export is captured.

Three measurements, each beside its reference in the same run:

1. Extraction on LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0, read from the path given,
   never copied here).  Each conversation's sessions are captured from the raw turns only:
   written as the plain-text format (a `YYYY-MM-DD HH:MM` line per session, then `Speaker:
   text` lines, an image's caption appended as in `bench locomo`) and passed to
   `Memory.capture`.  LoCoMo's per-session `observation` lists are the ground truth of what
   the conversation says about each speaker, each with its evidence turns.  Coverage: the
   share of observations with an extracted bullet about the same speaker citing one of its
   evidence turns.  Precision: the share of extracted bullets (about a speaker of the
   conversation) that cite a turn some observation about that speaker rests on.  By
   conversation and pooled.  Nothing is fitted here: the rules in `memfold.capture.extract`
   are fixed.  Both figures are per turn: every bullet citing an evidence turn of an
   observation about its speaker counts as matched, whatever it says.  `--misses N` lists up
   to N unmatched bullets per conversation with their turns, to read why they miss.  A rule
   is kept when, chosen on two conversations (highest pooled precision with coverage at
   least 70%), it also holds on the third (docs/benchmarks.md gives the spread).
2. End to end: LoCoMo evidence recall@k on the captured workspace (each cited line mapped
   back to its turn: a turn's header and text lines, the heading above a conversation's
   first turn, and each bullet through the turn it cites), beside the hand-built layout of
   `bench locomo` (one Retain bullet per turn), lexical mode, same questions, same `now`.
   `strict` counts the first k hits (two hits on one turn take two places); `distinct`
   the first k distinct turns among 3k hits; `turns_only` the same conversation captured
   with `--no-extract`.
3. Speed: a generated ChatGPT-style export (`--conversations`, default 1,000, seed 0) is
   captured into a fresh workspace (write, journal, index; not judged, as `--no-judge`),
   then captured again (nothing to add); a tenth of it is timed with the judge too, whose
   cost grows with every fact about the same person (every user fact is about `@me`).
"""

from __future__ import annotations

import json
import random
import re
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from memfold.capture.formats import noon
from memfold.capture.registry import read_export
from memfold.capture.write import TURN_KEY, turn_key
from memfold.memory import Memory
from memfold.workspace.format import speaker_entity

from .index_bench import environment, output_options, save_result
from .locomo import (
    CITATION,
    SESSION,
    Conversation,
    Outcome,
    ask,
    file_sha256,
    memfold_ranker,
    read_sample,
    recall_at,
    write_workspace,
)

Json = dict[str, Any]
K = 10
CLOCK = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m)", re.IGNORECASE)
# a bullet is about its first entity, the speaker ("@me @Ana: their sister Ana is …")
BULLET = re.compile(r"^\s*- ([WBOS](?:\([^)]*\))? @(\S+)(?: @\S+)*: .*) \(turn at line (\d+)\) "
                    r"\^\w+$")
HEADING = re.compile(r"^## Conversation")
EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")


# -- LoCoMo as a plain-text export ---------------------------------------------------------


def session_clock(text: str) -> str:
    """"1:56 pm on 8 May, 2023" -> "13:56"."""
    m = CLOCK.search(text)
    if not m:
        return "12:00"
    hour = int(m.group(1)) % 12 + (12 if m.group(3).casefold() == "pm" else 0)
    return f"{hour:02d}:{m.group(2)}"


def as_text(sample: Json, conv: Conversation) -> tuple[bytes, list[str]]:
    """The conversation as `memfold capture --format text` reads it, and the dia_id of each
    turn in order."""
    raw = sample["conversation"]
    lines, ids = [], []
    for session in conv.sessions:
        clock = session_clock(str(raw.get(f"session_{session.number}_date_time", "")))
        lines.append(f"{session.day.isoformat()} {clock}")
        for turn in session.turns:
            lines.append(f"{turn.speaker}: {turn.text}")
            ids.append(turn.dia_id)
    return ("\n".join(lines) + "\n").encode(), ids


@dataclass(frozen=True)
class Captured:
    sources: dict[str, str]  # "path#Lline" -> dia_id
    bullets: list[tuple[str, str]]  # (entity, dia_id) of each extracted bullet
    seconds: float
    said: list[str] = field(default_factory=list)  # each bullet's text, as `bullets`


def capture_workspace(root: Path, data: bytes, ids: Sequence[str], *,
                      extract: bool = True) -> Captured:
    """Capture the conversation into a fresh workspace; map its lines back to turns."""
    Memory.init(root)
    day = datetime(2000, 1, 1, tzinfo=UTC).date()
    export = read_export(data, format="text", day=day)
    messages = [m for c in export.conversations for m in c.messages]
    if len(messages) != len(ids):
        raise click.ClickException(f"read {len(messages)} turns, expected {len(ids)}")
    keys = {turn_key(export.conversations[0], m): dia for m, dia in zip(messages, ids,
                                                                        strict=True)}
    started = time.perf_counter()
    with Memory.open(root) as memory:
        memory.capture(data, format="text", date=day, extract=extract)
    seconds = time.perf_counter() - started
    sources: dict[str, str] = {}
    bullets: list[tuple[str, str]] = []
    said: list[str] = []
    for path in sorted((root / "memory").glob("*.md")):
        rel = f"memory/{path.name}"
        lines = path.read_text(encoding="utf-8").split("\n")
        by_line = _turn_lines(lines, keys)
        sources.update({f"{rel}#L{n}": dia for n, dia in by_line.items()})
        for number, line in enumerate(lines, 1):
            m = BULLET.match(line)
            if m and int(m.group(3)) in by_line:
                sources[f"{rel}#L{number}"] = by_line[int(m.group(3))]
                bullets.append((m.group(2), by_line[int(m.group(3))]))
                said.append(m.group(1))
    return Captured(sources, bullets, seconds, said)


def _turn_lines(lines: Sequence[str], keys: dict[str, str]) -> dict[int, str]:
    """Each line of a turn (its header and text) -> its dia_id; a conversation heading ->
    the turn under it (a text chunk starts at its heading)."""
    out: dict[int, str] = {}
    current: str | None = None
    pending: list[int] = []
    for number, line in enumerate(lines, 1):
        m = TURN_KEY.match(line)
        if m:
            current = keys.get(m.group(1))
            if current:
                out.update(dict.fromkeys(pending, current))
            pending = []
            out[number] = current or ""
        elif HEADING.match(line):
            pending.append(number)
            current = None
        elif line.startswith(">") and current:
            out[number] = current
        elif line.startswith("#"):
            current = None
    return {n: d for n, d in out.items() if d}


# -- extraction against the observations ---------------------------------------------------


def observations(sample: Json) -> list[tuple[str, frozenset[str]]]:
    """(speaker slug, evidence dia_ids) of each observation."""
    out = []
    for session in (sample.get("observation") or {}).values():
        for speaker, items in (session or {}).items():
            for item in items:
                evidence = item[1] if isinstance(item, list) and len(item) > 1 else ""
                found = frozenset(f"D{s}:{t}" for s, t in EVIDENCE.findall(str(evidence)))
                if found:
                    out.append((speaker_entity(speaker).casefold(), found))
    return out


def extraction_figures(obs: Sequence[tuple[str, frozenset[str]]],
                       bullets: Sequence[tuple[str, str]], speakers: set[str]) -> Json:
    said = {(e.casefold(), d) for e, d in bullets}
    covered = sum(1 for who, ev in obs if any((who, d) in said for d in ev))
    backed = {(who, d) for who, ev in obs for d in ev}
    about = [(e.casefold(), d) for e, d in bullets if e.casefold() in speakers]
    correct = sum(1 for b in about if b in backed)
    return {"observations": len(obs), "covered": covered,
            "coverage": covered / len(obs) if obs else None,
            "bullets": len(bullets), "bullets_about_speakers": len(about),
            "correct": correct, "precision": correct / len(about) if about else None}


# -- the run -------------------------------------------------------------------------------


def distinct_ranker(memory: Memory, sources: dict[str, str], now: datetime, k: int) -> Any:
    def rank(question: str) -> list[str]:
        hits = memory.recall(question, k=3 * k, include_all=True, now=now).hits
        seen = dict.fromkeys(sources[h.fact.source] for h in hits if h.fact.source in sources)
        return list(seen)[:k]
    return rank


def run_locomo(path: Path, k: int, log: Callable[[str], None], misses: int = 0) -> Json:
    samples = json.loads(path.read_text(encoding="utf-8"))
    per: list[Json] = []
    outcomes: dict[str, list[Outcome]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="memfold-capture-") as tmp:
        for sample in samples:
            conv = read_sample(sample)
            if not any(SESSION.fullmatch(key) for key in sample["conversation"]):
                continue
            log(f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.questions)} questions")
            data, ids = as_text(sample, conv)
            captured = capture_workspace(Path(tmp) / conv.sample_id / "captured", data, ids)
            speakers = {speaker_entity(t.speaker).casefold() for t in conv.turns}
            obs = observations(sample)
            figures = extraction_figures(obs, captured.bullets, speakers)
            if misses:
                texts = {t.dia_id: t.text for t in conv.turns}
                figures["misses"] = unmatched(obs, captured, speakers, texts, misses)
            found = _ask(conv, Path(tmp) / conv.sample_id, captured, k, (data, ids))
            for name, result in found.items():
                outcomes[name] += result
            per.append({"sample_id": conv.sample_id, "turns": len(conv.turns),
                        "capture_seconds": captured.seconds, **figures,
                        **{name: _recall(o, k) for name, o in found.items()}})
    pooled = extraction_figures_pooled(per)
    return {"dataset": {"file": path.name, "sha256": file_sha256(path), "citation": CITATION},
            "conversations": per, "extraction": pooled,
            "end_to_end": {name: _recall(o, k) for name, o in outcomes.items()}}


def unmatched(obs: Sequence[tuple[str, frozenset[str]]], captured: Captured,
              speakers: set[str], texts: dict[str, str], most: int) -> list[Json]:
    """Up to `most` extracted bullets about a speaker that no observation about them rests
    on, spread evenly over the conversation, each with the turn it cites."""
    backed = {(who, d) for who, ev in obs for d in ev}
    missed = [{"dia_id": dia, "bullet": text, "turn": texts.get(dia, "")}
              for (who, dia), text in zip(captured.bullets, captured.said, strict=True)
              if who.casefold() in speakers and (who.casefold(), dia) not in backed]
    step = max(1, len(missed) // most) if most else 0
    return missed[::step][:most] if most else []


def extraction_figures_pooled(per: Sequence[Json]) -> Json:
    obs = sum(p["observations"] for p in per)
    about = sum(p["bullets_about_speakers"] for p in per)
    covered, correct = sum(p["covered"] for p in per), sum(p["correct"] for p in per)
    return {"observations": obs, "covered": covered, "coverage": covered / obs if obs else None,
            "bullets": sum(p["bullets"] for p in per), "bullets_about_speakers": about,
            "correct": correct, "precision": correct / about if about else None}


def _ask(conv: Conversation, where: Path, captured: Captured, k: int,
         raw: tuple[bytes, list[str]]) -> dict[str, list[Outcome]]:
    """Every question against the captured workspace, the same captured with --no-extract
    (the turns only) and the hand-built bullet layout."""
    found: dict[str, list[Outcome]] = {}
    with Memory.open(where / "captured") as memory:
        memory.index(full=True)
        found.update(_outcomes(conv, {
            "captured_strict": memfold_ranker(memory, captured.sources, conv.now, k),
            "captured_distinct": distinct_ranker(memory, captured.sources, conv.now, k)}))
    turns = capture_workspace(where / "turns", *raw, extract=False)
    with Memory.open(where / "turns") as memory:
        memory.index(full=True)
        found.update(_outcomes(conv, {
            "turns_only": memfold_ranker(memory, turns.sources, conv.now, k)}))
    bullets = where / "bullets"
    sources = write_workspace(bullets, conv, "bullets")
    with Memory.open(bullets) as memory:
        memory.index(full=True)
        found.update(_outcomes(conv, {
            "bullet_layout": memfold_ranker(memory, sources, conv.now, k)}))
    return found


def _outcomes(conv: Conversation, rankers: dict[str, Any]) -> dict[str, list[Outcome]]:
    asked = ask(conv, rankers)
    return {name: [Outcome(o.sample_id, o.category, o.evidence, {name: o.ranked[name]})
                   for o in asked] for name in rankers}


def _recall(outcomes: Sequence[Outcome], k: int) -> Json:
    if not outcomes:
        return {"questions": 0, f"recall@{k}": None}
    name = next(iter(outcomes[0].ranked))
    values = [recall_at(o.ranked[name], o.evidence, k) for o in outcomes]
    return {"questions": len(values), f"recall@{k}": sum(values) / len(values)}


# -- speed ---------------------------------------------------------------------------------

_SAID = ("I moved to {city} in {month}.", "I'd rather you keep answers short.",
         "My sister {name} works at a hospital.", "{name}'s allergic to peanuts.",
         "Can you suggest a recipe for dinner?", "I started running last week.",
         "What is the weather like in {city} in {month}?", "I love hiking with my dog.")
_CITIES = ("Lisbon", "Porto", "Oslo", "Lyon", "Kyoto", "Austin", "Hanoi", "Quito")
_NAMES = ("Sam", "Ana", "Noor", "Ben", "Inês", "Kai", "Lena", "Omar")
_MONTHS = ("March", "April", "May", "June")


def chatgpt_export(conversations: int, seed: int = 0) -> bytes:
    """A ChatGPT-style conversations.json: `conversations` conversations of 4-12 turns over a
    year, user turns drawn from a few templates (facts, preferences, questions)."""
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, 9, tzinfo=UTC)
    out = []
    for n in range(conversations):
        at = start + timedelta(minutes=rng.randrange(365 * 24 * 60))
        mapping: Json = {"root": {"id": "root", "message": None, "parent": None,
                                  "children": []}}
        parent = "root"
        for t in range(rng.randrange(2, 7) * 2):
            node = f"n{n}-{t}"
            role = "user" if t % 2 == 0 else "assistant"
            text = (rng.choice(_SAID).format(city=rng.choice(_CITIES),
                                             name=rng.choice(_NAMES),
                                             month=rng.choice(_MONTHS))
                    if role == "user" else "Sure — here is what I found. " * rng.randrange(1, 5))
            stamp = (at + timedelta(minutes=t)).timestamp()
            mapping[node] = {"id": node, "parent": parent, "children": [], "message": {
                "id": node, "author": {"role": role}, "create_time": stamp,
                "content": {"content_type": "text", "parts": [text]}, "metadata": {}}}
            mapping[parent]["children"].append(node)
            parent = node
        out.append({"id": f"conv-{n}", "title": f"Chat {n}", "create_time": at.timestamp(),
                    "mapping": mapping, "current_node": parent})
    return json.dumps(out).encode()


def run_speed(conversations: int, seed: int, *, judge: bool) -> Json:
    data = chatgpt_export(conversations, seed)
    with tempfile.TemporaryDirectory(prefix="memfold-capture-speed-") as tmp:
        root = Path(tmp) / "ws"
        Memory.init(root)
        now = noon(datetime(2026, 1, 1).date())
        timings = []
        results = []
        for _ in range(2):
            started = time.perf_counter()
            with Memory.open(root, now=now) as memory:
                results.append(memory.capture(data, judge=judge))
            timings.append(time.perf_counter() - started)
    first, second = results
    return {"conversations": conversations, "seed": seed, "judge": judge, "bytes": len(data),
            "turns": first.turns, "facts": first.facts, "files": len(first.files),
            "first_seconds": timings[0], "second_seconds": timings[1],
            "second_added": second.turns, "under_a_minute": timings[0] < 60}


@click.command("capture")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--k", "k", default=K, show_default=True, type=click.IntRange(min=1),
              help="Results asked per question for the end-to-end recall.")
@click.option("--conversations", default=1000, show_default=True,
              type=click.IntRange(min=0), help="Size of the generated export timed (0: skip).")
@click.option("--seed", default=0, show_default=True, help="Seed of the generated export.")
@click.option("--misses", default=0, show_default=True, type=click.IntRange(min=0),
              help="List up to this many extracted bullets per conversation that match no "
                   "observation, with the turn each cites (printed, never saved: they "
                   "are LoCoMo's text).")
@output_options("benchmarks/results/capture.json")
def capture_command(path: Path, k: int, conversations: int, seed: int, misses: int,
                    out: Path, as_json: bool) -> None:
    """Extraction coverage and precision on LoCoMo's observations, evidence recall on the
    captured workspace beside the bullet layout, and the speed of a large export.

    PATH is a LoCoMo JSON file (a list of samples with `observation` lists).

    \b
    Example:
      memfold bench capture ../shared/bench/locomo-dev.json
      memfold bench capture ../shared/bench/locomo-dev.json --conversations 0 --misses 40
    """
    def log(msg: str) -> None:
        click.echo(msg, err=True)

    result: Json = {"benchmark": "capture",
                    "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "parameters": {"k": k, "mode": "lexical"}, "environment": environment(),
                    "locomo": run_locomo(path, k, log, misses)}
    if conversations:
        log(f"speed: a generated export of {conversations} conversations")
        result["speed"] = run_speed(conversations, seed, judge=False)
        small = max(1, conversations // 10)
        log(f"speed: {small} conversations, judged")
        result["speed_judged"] = run_speed(small, seed, judge=True)
    missed = {row["sample_id"]: row.pop("misses")
              for row in result["locomo"]["conversations"] if "misses" in row}
    if save_result(result, out, as_json=as_json):
        return
    for line in report(result, k) + miss_lines(missed):
        click.echo(line)
    click.echo(f"wrote {out}", err=True)


def miss_lines(missed: dict[str, list[Json]]) -> list[str]:
    lines = []
    for sample_id, misses in missed.items():
        for miss in misses:
            lines.append(f"unmatched {sample_id} {miss['dia_id']}: {miss['bullet']}")
            lines.append(f"    turn: {miss['turn']}")
    return lines


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def report(result: Json, k: int) -> list[str]:
    loc = result["locomo"]
    lines = [f"{'conversation':<14}{'obs':>5}{'coverage':>10}{'bullets':>9}{'precision':>11}"
             f"{'captured R@' + str(k):>15}{'distinct':>10}{'turns only':>12}"
             f"{'bullets R@' + str(k):>14}"]
    rows = [*loc["conversations"], {"sample_id": "pooled", **loc["extraction"],
                                    **loc["end_to_end"]}]
    for row in rows:
        lines.append(
            f"{row['sample_id']:<14}{row['observations']:>5}{percent(row['coverage']):>10}"
            f"{row['bullets_about_speakers']:>9}{percent(row['precision']):>11}"
            f"{percent(row['captured_strict'][f'recall@{k}']):>15}"
            f"{percent(row['captured_distinct'][f'recall@{k}']):>10}"
            f"{percent(row['turns_only'][f'recall@{k}']):>12}"
            f"{percent(row['bullet_layout'][f'recall@{k}']):>14}")
    for key in ("speed", "speed_judged"):
        if key in result:
            s = result[key]
            lines.append(f"speed ({'judged' if s['judge'] else 'not judged'}): "
                         f"{s['conversations']:,} conversations ({s['turns']:,} turns, "
                         f"{s['facts']:,} facts, {s['files']} day files) captured in "
                         f"{s['first_seconds']:.1f} s; again in {s['second_seconds']:.1f} s "
                         f"adding {s['second_added']} turns")
    return lines
