"""Captured turns written into the day logs: the plan, the rendering and the write.

This module owns how a conversation looks in `memory/YYYY-MM-DD.md` and the identity that
makes capture idempotent.  Each day a conversation spoke on gets, appended to that day's log:

    ## Conversation: Trip planning (chatgpt 3f9a2c1b)

    **me** · 14:05 · turn 5d0c9a1e2b
    > I moved to Lisbon in March.

    ## Retain
    - W @me: Moved to Lisbon (March 2025). (turn at line 5) ^k3x9q2ma

A turn is a paragraph: a header line (speaker, UTC time, turn key) and the text verbatim as a
block quote, so nothing a message says (a `## Retain` line, a code fence) can change how the
file is read.  The turn key is a hash of the conversation's identity and the message's, so
the same turn captured again is recognised wherever it was written; each bullet cites the
line of its turn's header and has a block id derived from that key (the same input gives the
same files).  A message that looks like it holds a secret is written as its header and
`> [kept out: …]`, and nothing is extracted from it.

Writes follow retain's protocol (`memfold.retain`): under the workspace write lock, each
day's addition is one write — a new file atomically, an existing one appended durably after
an intent record — and its bullets are journaled as one `retain` event by the capture's
origin, naming the file (so a copy pasted elsewhere later never takes an id over).  The
caller then indexes the files written and the judge weighs the new facts.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memfold.capture.extract import Extracted, extract
from memfold.capture.formats import Conversation, Message, digest, noon
from memfold.errors import MemfoldError
from memfold.journal.events import Retain
from memfold.lifecycle.ledger import Ledger, content_sha
from memfold.scan.secrets import find_secrets
from memfold.workspace.files import HeldLock, append_durably, replace_atomically
from memfold.workspace.format import (
    FactSyntaxError,
    decode,
    parse_bullet,
    prepare_append,
    speaker_entity,
    turn_citation,
)
from memfold.workspace.layout import Workspace

TURN_KEY = re.compile(r"^\*\*.*\*\* · .* · turn ([0-9a-f]{10})\s*$", re.MULTILINE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Turn:
    conversation: Conversation
    message: Message
    key: str
    day: date
    withheld: str | None  # the kind of secret the text seemed to hold: kept out


@dataclass(frozen=True)
class Withheld:
    """A message kept out because it looked like it held a secret (never the secret)."""

    path: str
    line: int
    conversation: str
    kind: str


@dataclass(frozen=True)
class DayWrite:
    """What one day's log gets: the text appended, its bullets (rendered) and the messages
    kept out."""

    path: str
    day: date
    text: str
    bullets: tuple[str, ...]
    turns: int
    withheld: tuple[Withheld, ...]
    new_file: bool


def turn_key(conv: Conversation, message: Message) -> str:
    return digest(conv.format, conv.key, message.key)


def captured_keys(workspace: Workspace) -> set[str]:
    """The turn keys already written anywhere under memory/."""
    keys: set[str] = set()
    folder = workspace.root / "memory"
    if folder.is_dir():
        for path in folder.rglob("*.md"):
            if not path.is_symlink():
                keys.update(TURN_KEY.findall(_text(path)))
    return keys


def _text(path: Path) -> str:
    try:
        return decode(path.read_bytes())[0]
    except OSError:
        return ""


def new_turns(conversations: Iterable[Conversation], known: set[str], *,
              fallback: date) -> tuple[dict[date, list[Turn]], int]:
    """The turns not captured yet, by day (in the order given), and how many were."""
    days: dict[date, list[Turn]] = {}
    skipped = 0
    for conv in conversations:
        for message in conv.messages:
            key = turn_key(conv, message)
            if key in known:
                skipped += 1
                continue
            known.add(key)
            at = message.at or noon(fallback)
            found = find_secrets(message.text)
            days.setdefault(at.date(), []).append(
                Turn(conv, message, key, at.date(), found[0].kind if found else None))
    return days, skipped


def render_day(rel: str, day: date, turns: Sequence[Turn], existing: str | None, *,
               extracting: bool) -> DayWrite:
    """The text to append to the day's log (`existing`: its text, None when it is new)."""
    probe = prepare_append(existing, day.isoformat(), ["x"]).text
    prefix = probe[:-2].removesuffix("## Retain\n")  # a title, or a fence closed first
    if existing is None:
        prefix = prefix.rstrip("\n") + "\n"
    out = [prefix]
    line = ((existing or "") + prefix).count("\n") + 1  # the line the next text starts on
    bullets: list[str] = []
    withheld: list[Withheld] = []
    current = None
    for turn in turns:
        if turn.conversation is not current:
            current = turn.conversation
            head = f"\n## Conversation: {_title(current)}\n"
            out.append(head)
            line += head.count("\n")
        block = _turn_block(turn)
        out.append(block)
        header = line + 1
        line += block.count("\n")
        if turn.withheld:
            withheld.append(Withheld(rel, header, current.title or current.key, turn.withheld))
        elif extracting and turn.message.role != "assistant":
            bullets += _bullets(turn, header)
    if bullets:
        out.append("\n## Retain\n" + "".join(f"{b}\n" for b in bullets))
    return DayWrite(rel, day, "".join(out), tuple(bullets), len(turns), tuple(withheld),
                    existing is None)


def _title(conv: Conversation) -> str:
    name = conv.title or "untitled"
    return f"{name} ({conv.format} {conv.key[:8]})" if conv.key else name


def _turn_block(turn: Turn) -> str:
    at = turn.message.at
    clock = at.strftime("%H:%M") if isinstance(at, datetime) else "--:--"
    speaker = " ".join(turn.message.speaker.replace("*", "").split()) or "?"
    if turn.withheld:
        body = [f"> [kept out: the message looked like it held a secret ({turn.withheld})]"]
    else:
        text = _CONTROL.sub("", turn.message.text.replace("\r\n", "\n").replace("\r", "\n"))
        body = [f"> {ln}".rstrip() for ln in text.strip("\n").split("\n")]
    return f"\n**{speaker}** · {clock} · turn {turn.key}\n" + "".join(f"{b}\n" for b in body)


def _bullets(turn: Turn, line: int) -> list[str]:
    facts = extract(turn.message.text, speaker=speaker_entity(turn.message.speaker),
                    day=turn.day)
    return [rendered for n, fact in enumerate(facts)
            if (rendered := _bullet(fact, line, turn.key, n)) is not None]


def _bullet(fact: Extracted, line: int, key: str, n: int) -> str | None:
    """The bullet line, or None when the fact does not make a valid bullet."""
    text = f"{fact.bullet(turn_citation(line))} ^{block_id(key, n)}"
    try:
        parsed = parse_bullet(text)
    except FactSyntaxError:
        return None
    if parsed.errors or find_secrets(parsed.content):
        return None
    return f"- {text}"


def block_id(key: str, n: int) -> str:
    """A bullet's block id from its turn and position: eight characters of [a-z0-9]."""
    number = int.from_bytes(hashlib.sha256(f"{key}:{n}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(8):
        number, rest = divmod(number, 36)
        chars.append(_ID_ALPHABET[rest])
    return "".join(chars)



def plan_day(workspace: Workspace, day: date, turns: Sequence[Turn], *,
             extracting: bool) -> tuple[bytes | None, DayWrite | None]:
    """The day's log as it is (None: no file yet) and what it gets: the turns not in it yet
    (None when every one is)."""
    rel = workspace.daily_path(day)
    path = workspace.abspath(rel)
    before = path.read_bytes() if path.exists() else None
    existing = decode(before)[0] if before is not None else None
    there = set(TURN_KEY.findall(existing or ""))
    fresh = [t for t in turns if t.key not in there]
    plan = render_day(rel, day, fresh, existing, extracting=extracting) if fresh else None
    return before, plan


def preview_days(workspace: Workspace, days: dict[date, list[Turn]], *,
                 extracting: bool) -> list[DayWrite]:
    """What `write_days` would append to each day's log, writing nothing."""
    plans = (plan_day(workspace, day, days[day], extracting=extracting)[1]
             for day in sorted(days))
    return [plan for plan in plans if plan is not None]


def write_days(ledger: Ledger, days: dict[date, list[Turn]], *, extracting: bool,
               origin: str, ts: str, notify: Callable[[str], None],
               progress: Callable[[int, int], None] | None = None) -> list[DayWrite]:
    """Append each day's turns and bullets, under one hold of the write lock: each file in
    one write, its bullets journaled.  A turn written meanwhile by another capture is not
    written again.  `progress(done, total)` is told of each day."""
    workspace = ledger.workspace
    written = []
    with workspace.write_lock.held() as held:
        if held.recovered:
            notify(held.recovered)
        for done, day in enumerate(sorted(days), 1):
            path = workspace.abspath(workspace.daily_path(day))
            workspace.require_real_dir(path.parent)
            path.parent.mkdir(parents=True, exist_ok=True)
            before, plan = plan_day(workspace, day, days[day], extracting=extracting)
            if plan is not None:
                _write(held, path, before, plan.text.encode())
                _journal(ledger, plan, origin=origin, ts=ts, notify=notify)
                written.append(plan)
            if progress is not None:
                progress(done, len(days))
    return written


def _write(held: HeldLock, path: Path, before: bytes | None, addition: bytes) -> None:
    if before is None:
        replace_atomically(path, addition)
        return
    held.intend_append(path, len(before), addition)
    append_durably(path, addition)
    held.appended()


def _journal(ledger: Ledger, plan: DayWrite, *, origin: str, ts: str,
             notify: Callable[[str], None]) -> None:
    if not plan.bullets:
        return
    ids = tuple(b.rsplit("^", 1)[1] for b in plan.bullets)
    shas = tuple(content_sha(parse_bullet(b[2:]).content) for b in plan.bullets)
    try:
        ledger.append([Retain(id=ids[0], ids=ids, by=origin, shas=shas, path=plan.path)],
                      ts=ts, locked=True)
    except (MemfoldError, OSError) as exc:
        notify(f"{plan.path}: stored, but who captured it was not journaled ({exc})")
