"""The ledger: lifecycle decisions written to the journal and folded into the index.

This module owns the order of operations for every lifecycle write:

 1. take the workspace write lock;
 2. replay journal events other processes appended since this index last looked;
 3. decide against that fresh state (a note's compare-and-set, a supersede's cycle check,
    a judge's verdicts) — deciding raises or returns the events to write;
 4. append the events to `journal.jsonl` in one durable write;
 5. fold them into the index (the journal, not the index, is the record).

Steps 2-5 run under the lock, so two writers never decide from the same stale state: of two
notes racing from revision N exactly one applies.  The supersede judge is the exception that
proves the rule: it weighs new facts before the lock (a model judge may take seconds), and
its verdicts are checked again under the lock against the journal as it then is.

The ledger is the only writer of the journal: verbs that decide under their own hold of the
lock (retain, reflect, purge) append typed records (events.py) through `Ledger.append`.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Protocol

from memfold.errors import BadInput, IndexDamaged, StaleRevision, UnknownId
from memfold.index.base import Candidate, Filters, IndexBackend, Terms
from memfold.journal.events import (
    Archive,
    Conflict,
    Note,
    Record,
    Restore,
    Retain,
    Revise,
    Supersede,
    Unknown,
    Use,
)
from memfold.journal.events import content_sha as content_sha  # where the journal's hash is made
from memfold.journal.fold import REPLACED, STATE_KINDS, LifeState
from memfold.journal.log import Event, Journal
from memfold.lifecycle.bulk import BulkCandidates, CandidateSource
from memfold.lifecycle.judge.base import Judge, Verdict
from memfold.lifecycle.named import linked_older, named_in_text, naming_older, weigh_across
from memfold.names import STOP_WORDS, entity_key, find_words
from memfold.values import Fact, Interval, Judgement, SyncReport
from memfold.workspace.format import doc_role
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:
    from memfold.lifecycle.judge.meaning import Embeds

Decide = Callable[[], Sequence[Record]]
# older facts a new one is weighed against; and experiences, for one that calls something off
JUDGE_CANDIDATES, PLAN_CANDIDATES = 200, 20
JUDGE_LIMIT = 5000  # new facts judged per sync; a bigger burst is an import, not news
TOLD_END = timedelta(days=7)  # a fact past its until= longer than this is over, not news
# conflicts journaled per new fact (all reported): one may share a topic with hundreds
JOURNALED_CONFLICTS = 5
TOPIC_ONLY = "same topic: "  # the rule judge's reason for a conflict no rule settles
# what a journal holds once anything was decided about its facts: a rebuild of such a
# workspace replays them and judges nothing (`judge_existing`)
DECISIONS = ("supersede", "conflict", "dismiss", "restore", "merge", "archive", "expire",
             "confidence", "derive", "reset")


class Decisions:
    """The lifecycle writes a person or agent asks for by hand (note, use, supersede,
    restore, archive), decided from a fact lookup and journaled through `transact`: the
    `Ledger` of a workspace, or a bank's rows in PostgreSQL (memfold.server.pgledger),
    decide alike."""

    backend: FactLookup

    def transact(self, decide: Decide, *, ts: str,
                 undo: Callable[[], None] | None = None) -> list[Event]:
        raise NotImplementedError

    def fact(self, fact_id: str) -> Candidate:
        found = self.backend.by_id(fact_id)
        if not found:
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        return found[0]

    def state(self, fact_id: str) -> LifeState:
        return state_of(self.backend, fact_id)

    # -- writes -------------------------------------------------------------------------

    def note(self, fact_id: str, text: str, rev: int, *, ts: str) -> int:
        """Compare-and-set a note: applies only while the revision is `rev`; returns the new
        revision, or raises StaleRevision with the current one."""
        def decide() -> list[Record]:
            fact = self.fact(fact_id).fact
            current = self.state(fact_id).rev
            if current != rev:
                raise StaleRevision(f"stale: {fact_id} is at revision {current}, not {rev}",
                                    current=current)
            return [Note(id=fact_id, rev=rev + 1, note=text, sha=content_sha(fact.content))]
        self.transact(decide, ts=ts)
        return rev + 1

    def use(self, fact_id: str, *, ts: str) -> None:
        def decide() -> list[Record]:
            fact = self.fact(fact_id).fact
            return [Use(id=fact_id, sha=content_sha(fact.content))]
        self.transact(decide, ts=ts)

    def supersede(self, old_id: str, new_id: str, *, reason: str, ts: str) -> bool:
        """Mark `old_id` superseded by `new_id`; False when it already was."""
        if old_id == new_id:
            raise BadInput("a fact cannot supersede itself")

        def decide() -> list[Record]:
            old, new = self.fact(old_id).fact, self.fact(new_id).fact
            if doc_role(old.path) == "core":
                raise BadInput(f"{old_id} is core memory (memory.md), which is never "
                               "superseded; edit it with `memfold core replace`")
            if self.state(old_id).superseded_by == new_id:
                return []
            if old_id in self.chain(new_id):
                raise BadInput(f"{new_id} is already superseded (directly or in a chain) by "
                               f"{old_id}; superseding back would make a cycle")
            return [supersede_record(old, new, reason=reason, judge="manual")]
        return bool(self.transact(decide, ts=ts))

    def restore(self, fact_id: str, *, reason: str, ts: str) -> None:
        def decide() -> list[Record]:
            fact = self.fact(fact_id).fact
            return [Restore(id=fact_id, reason=reason, sha=content_sha(fact.content))]
        self.transact(decide, ts=ts)

    def archive(self, fact_id: str, *, reason: str, ts: str) -> None:
        """Archive a fact (kept, findable with --all): `forget` without a purge."""
        self.transact(lambda: [Archive(id=self.fact(fact_id).fact.id, reason=reason)], ts=ts)

    def chain(self, fact_id: str) -> list[str]:
        """The facts that supersede this one, following superseded_by to the end."""
        return chain_of(self.backend, fact_id)


class Ledger(Decisions):
    """Journal writes and replay for one workspace and its index."""

    backend: IndexBackend

    def __init__(self, workspace: Workspace, backend: IndexBackend,
                 judge: Judge | None = None,
                 signer: Callable[[], str | None] | None = None,
                 meaning: Callable[[], Embeds | None] | None = None) -> None:
        self.workspace = workspace
        self.backend = backend
        self.journal = Journal(workspace.root, workspace.write_lock)
        self._chosen = judge
        self._meaning = meaning  # the embedder the judge may ask (judge.meaning), if any
        self._weigher: Judge | None = None
        self.signer = signer  # who is writing now: recorded as each record's `source`
        self.notices: list[str] = []  # one line each, for the caller to show
        # where the judge finds the older facts it weighs: the index, or while existing facts
        # are judged at once, those facts read once (lifecycle.bulk)
        self._source: CandidateSource = backend

    @property
    def judge(self) -> Judge:
        """The supersede judge: the one given, else the rule judge (imported when first
        needed, so a process that never judges never loads its lexicons); with an embedder
        from `meaning`, it also offers a change said in other words (judge.meaning).  While
        `meaning` gives none it is asked again each time: a long-lived process whose
        workspace gains vectors (its first semantic recall, under MEMFOLD_JUDGE_EMBED=auto)
        judges by meaning from then on, as a process opened after it would."""
        if self._weigher is None or (self._weigher is self._chosen and self._meaning is not None):
            if self._chosen is None:
                from memfold.lifecycle.judge.rules import RuleJudge

                self._chosen = RuleJudge()
            embedder = self._meaning() if self._meaning is not None else None
            if embedder is None:
                self._weigher = self._chosen
            else:
                from memfold.lifecycle.judge.meaning import MeaningJudge

                self._weigher = MeaningJudge(self._chosen, embedder)
        return self._weigher

    # -- replay -------------------------------------------------------------------------

    def replay(self) -> int:
        """Fold journal events the index has not seen yet; returns how many.

        When the journal was replaced or rewritten before the index's position, the index's
        lifecycle state is rebuilt from the whole journal — cleared and refilled in one
        transaction, so a process replaying at the same time never sees it half empty."""
        offset, last_hash, last_seq = self.backend.journal_position()
        size = self.journal.size()
        if size == offset:
            return 0
        restart = size < offset  # the journal was replaced: start over
        result = self.journal.read(0 if restart else offset, last_hash=last_hash,
                                   last_seq=last_seq)
        if not restart and offset and result.events \
                and result.events[0].prev not in ("", last_hash):
            restart = True  # the bytes before `offset` changed under us
        if restart:
            result = self.journal.read(0)
        for warning in result.warnings:
            if warning not in self.notices:
                self.notices.append(warning)
        self.backend.apply_events(result.events,
                                  (result.offset, result.last_hash, result.last_seq),
                                  reset=restart)
        return len(result.events)

    def transact(self, decide: Decide, *, ts: str,
                 undo: Callable[[], None] | None = None) -> list[Event]:
        """Replay, decide and append under the write lock (see the module docstring).

        A decision that already changed a file passes `undo`: if the journal append then
        fails, `undo` puts the file back, still under the lock, so no change goes unrecorded.
        """
        with self.workspace.write_lock.held():
            self.replay()
            records = list(decide())
            try:
                events = self.append(records, ts=ts, locked=True)
            except BaseException:
                if undo is not None:
                    undo()
                raise
            if events:
                self.replay_or_rebuild()
        return events

    def replay_or_rebuild(self) -> None:
        """Replay what was journaled.  A damaged index met here does not fail the call:
        the decisions are durable in the journal, so the rebuild includes them."""
        try:
            self.replay()
        except IndexDamaged as exc:
            self.rebuild(exc)

    def rebuild(self, damage: IndexDamaged) -> SyncReport:
        """Move a damaged index aside (one notice) and rebuild it from the files and the
        journal — the one place memfold does (a read, a retain and a replay that meet damage
        all come here).  Safe under the write lock: it journals nothing."""
        from memfold.index.sync import sync

        self.backend.repair(str(damage.__cause__ or damage))
        report = sync(self.workspace, self.backend, full=True)
        self.replay()
        return report

    def append(self, records: Iterable[Record], *, ts: str,
               locked: bool = False) -> list[Event]:
        """Append records to the journal in one durable write — the one way anything is
        journaled.  A verb that decides under its own hold of the write lock (retain,
        reflect, purge) passes `locked=True` and replays when it is ready to.  Each record
        is signed with who is writing (`signer`), unless it names its own or says it by
        another key (a retain's `by`)."""
        source = self.signer() if self.signer is not None else None
        if source:
            records = [r if r.source or isinstance(r, Retain | Unknown)
                       else dataclasses.replace(r, source=source) for r in records]
        return self.journal.append(records, ts=ts, locked=locked)

    # -- what the index knows -----------------------------------------------------------

    def history(self, fact_id: str) -> list[Event]:
        """The journal events about a fact, oldest first; UnknownId when there are none and
        no file holds the fact."""
        events = self.backend.events_for(fact_id)
        if not events and not self.backend.by_id(fact_id):
            raise UnknownId(f"no fact with id {fact_id!r}; `memfold recall` finds ids")
        return events

    # -- after a sync -------------------------------------------------------------------

    def after_sync(self, new_ids: Sequence[str], changed_paths: Sequence[str] | None, *,
                   ts: str) -> list[Judgement]:
        """Replay the journal, record revisions of facts whose text changed, and judge facts
        indexed for the first time against older ones.  Returns the judge's word on each
        older fact it weighed: superseded, or a conflict left active (both journaled)."""
        self.replay()
        if changed_paths is None or changed_paths:
            self._revisions(changed_paths, ts=ts)
        if len(new_ids) > JUDGE_LIMIT:
            self.notices.append(f"{len(new_ids)} new facts at once: not checked for "
                                 "contradictions (`memfold supersede` marks one by hand)")
            return []
        return self._judged(new_ids, ts=ts) if new_ids else []

    def _judged(self, new_ids: Sequence[str], *, ts: str,
                until: date | None = None) -> list[Judgement]:
        """Judge new facts (against older ones written by `until`, when given) and journal
        the judge's word: a supersede, or a conflict left active."""
        # outside the lock: a model may take time
        weighed = self._weighing().weigh(new_ids, until=until)
        judged: list[Judgement] = []

        def decide() -> list[Record]:  # under the lock: still true of the journal?
            kept = [(j, record) for j, record in weighed
                    if not j.superseded or self._still_open(j)]
            judged[:] = [j for j, _ in kept]
            return [record for _, record in kept if record is not None]
        if weighed:
            self.transact(decide, ts=ts)
        return judged

    def judge_existing(self, *, ts: str) -> list[Judgement]:
        """Lifecycle for notes that already exist: when the journal holds no decision yet,
        judge every typed fact that no retain wrote (those were judged when retained) in
        the order it was written (undated first, then by day, path and line), one day at a
        time — as if each day had been retained on its own, against the facts written by
        then.  A workspace with decisions is left as its journal says (a rebuild replays
        them and judges nothing new), and so is one whose facts were all retained: a
        rebuild then equals the index the retains kept."""
        self.replay()
        if self.backend.events_of_kinds(DECISIONS, limit=1):
            return []
        unjudged = self.backend.unretained_in_order()
        if not unjudged:
            return []
        judged: list[Judgement] = []
        bulk = BulkCandidates(self.backend)  # the files do not change while they are judged
        self._source = bulk
        try:
            for until, ids in written_days(unjudged):
                bulk.refresh()  # what the days before decided
                judged += self._judged(ids, ts=ts, until=until)
        finally:
            self._source = self.backend
        if judged:
            self.notices.append(judged_in_order(judged))
        return judged

    def _still_open(self, j: Judgement) -> bool:
        return self._weighing().still_open(j)

    def _weighing(self) -> Weighing:
        return Weighing(self.backend, self._source, self.judge)

    def _revisions(self, paths: Sequence[str] | None, *, ts: str) -> None:
        def decide() -> list[Record]:
            return revisions(self.backend.tracked_contents(paths))
        if decide():  # decided again under the lock, only when some text did change
            self.transact(decide, ts=ts)


def revisions(tracked: Iterable[tuple[str, str, str | None, int]]) -> list[Record]:
    """A revision of each fact whose text moved from the hash the journal last saw, from
    (id, text, journaled hash, revision) of the facts tracked: what a sync records (a bank's
    rows in PostgreSQL record the same, memfold.server.pgretain)."""
    return [Revise(id=fact_id, rev=rev + 1, sha=content_sha(content),
                   reason="source text changed")
            for fact_id, content, sha, rev in tracked if content_sha(content) != sha]


def written_days(unjudged: Iterable[tuple[int | None, str]],
                 ) -> list[tuple[date | None, list[str]]]:
    """The facts `judge_existing` judges, (day ordinal or None, id) in the order written,
    as the days it judges them in: each day (None: undated) with its facts' ids, in order.
    A bank's rows in PostgreSQL judge the same days (memfold.server.pgjudge)."""
    return [(date.fromordinal(day) if day is not None else None, [i for _, i in ids])
            for day, ids in itertools.groupby(unjudged, key=lambda r: r[0])]


def judged_in_order(judged: Sequence[Judgement]) -> str:
    """The notice after existing facts were judged in the order written."""
    moved = sum(j.superseded for j in judged)
    return (f"judged the facts in the order they were written: {moved} superseded, "
            f"{len(judged) - moved} conflicts left active (`memfold review` lists them)")


class FactLookup(Protocol):
    """Facts by id and their lifecycle state: what the judge reads besides its candidates."""

    def by_id(self, fact_id: str) -> list[Candidate]: ...

    def by_ids(self, ids: Sequence[str]) -> list[Candidate]: ...

    def life(self, ids: Iterable[str]) -> dict[str, LifeState]: ...


def state_of(facts: FactLookup, fact_id: str) -> LifeState:
    return facts.life([fact_id]).get(fact_id) or LifeState(fact_id)


def chain_of(facts: FactLookup, fact_id: str) -> list[str]:
    """The facts that supersede this one, following superseded_by to the end."""
    seen: list[str] = []
    current = state_of(facts, fact_id).superseded_by
    while current and current not in seen:
        seen.append(current)
        current = state_of(facts, current).superseded_by
    return seen


class Weighing:
    """The judge's word on new facts against older ones, and the events it would journal:
    the new facts and every fact's state read from `facts`, the older candidates found
    through `source`.  A workspace's ledger weighs over its index; a server bank weighs over
    its rows in PostgreSQL (memfold.server.pgretain) — the same decisions from the same
    rows."""

    def __init__(self, facts: FactLookup, source: CandidateSource, judge: Judge) -> None:
        self.facts = facts
        self.source = source
        self.judge = judge

    def state(self, fact_id: str) -> LifeState:
        return state_of(self.facts, fact_id)

    def chain(self, fact_id: str) -> list[str]:
        return chain_of(self.facts, fact_id)

    def still_open(self, j: Judgement) -> bool:
        """A supersede decided outside the lock still applies: the older fact was not
        replaced meanwhile, and it would make no cycle."""
        return self.state(j.id).status not in REPLACED and j.id not in self.chain(j.by) \
            and j.by not in self.chain(j.id)

    def weigh(self, new_ids: Sequence[str], *, until: date | None = None,
               ) -> list[tuple[Judgement, Supersede | Conflict | None]]:
        """The judge's word on each older fact it weighed, with the event to journal: a
        supersede, a conflict left active, or None for a conflict past `JOURNALED_CONFLICTS`
        (reported, not kept)."""
        judged: list[tuple[Judgement, Supersede | Conflict | None]] = []
        decided: set[str] = set()
        batch = set(new_ids)
        for candidate in self.facts.by_ids(list(new_ids)):
            new = candidate.fact
            mine: list[tuple[Judgement, Fact]] = []
            for old, verdict, judge in self._weighed(new, until=until):
                if doc_role(old.path) == "core" or old.id == new.id:
                    continue  # core memory changes only by its own edits
                together = old.id in batch and old.day == new.day and judge != "explicit"
                superseded = verdict.supersedes and not together and old.id not in decided \
                    and new.id not in self.chain(old.id) and old.id not in self.chain(new.id)
                if superseded:  # (a chain either way would make a cycle)
                    decided.add(old.id)
                elif verdict.supersedes and not together:
                    continue
                reason = verdict.reason + (", but the two were written together"
                                           if verdict.supersedes and together else "")
                mine.append((Judgement(id=old.id, by=new.id, superseded=superseded,
                                       reason=reason, judge=judge, content=old.content,
                                       source=old.source), old))
            judged += _fewer_conflicts(mine, new)
        return judged

    def _weighed(self, new: Fact, *, until: date | None = None,
                 ) -> list[tuple[Fact, Verdict, str]]:
        found: list[tuple[Fact, Verdict, str]] = []
        target = new.params.get("supersedes", "").lstrip("^")
        if target and target != new.id:
            hits = self.facts.by_id(target)
            if hits and self.state(target).status not in REPLACED:
                found.append((hits[0].fact, Verdict(target, True, f"explicit supersedes=^"
                                                                   f"{target}"), "explicit"))
        canon = self._canonical_names(new.entities)
        older = [c.fact for c in self._older_candidates(new, canon, until=until)]
        by_id = {f.id: f for f in older}
        canon.update(self._canonical_names([e for f in older for e in f.entities]))
        named = _with_names(new, canon)
        for verdict in self.judge.weigh(named, [_with_names(f, canon) for f in older]):
            if verdict.id in by_id and verdict.id != target:
                found.append((by_id[verdict.id], verdict, self.judge.name))
        for old, verdict in self._across_entities(named, canon, by_id, until=until):
            if old.id != target:
                found.append((old, verdict, self.judge.name))
        return found

    def _across_entities(self, new: Fact, canon: dict[str, str], weighed: dict[str, Fact], *,
                         until: date | None = None) -> list[tuple[Fact, Verdict]]:
        """A change written under another entity (`lifecycle.named`): the judge's word on
        the older facts about an entity the new fact's text names, and on the older facts
        whose text names one of the new fact's entities — those not `weighed` already."""
        keys = [entity_key(e) for e in new.entities]
        entities = list(dict.fromkeys(entity_key(canon.get(k, k)) for k in keys))
        own = {*keys, *entities, *self.source.alias_keys(entities)}
        filters = _state_filters(until)

        def older(found: list[Candidate]) -> dict[str, Fact]:
            return {c.fact.id: c.fact for c in _standing_older(found, new)}
        out: list[tuple[Fact, Verdict]] = []
        if named := named_in_text(self.source, new, own):
            about = older(linked_older(self.source, named, filters, weighed))
            out += [(about[v.id], v) for v in weigh_across(
                self.judge, new, [_with_names(f, canon) for f in about.values()], named,
                new_names=True) if v.id in about]
        if entities:
            said = {**weighed, **{old.id: old for old, _ in out}}  # one word on each older fact
            naming = older(naming_older(self.source, own, filters, said))
            out += [(naming[v.id], v) for v in weigh_across(
                self.judge, new, [_with_names(f, canon) for f in naming.values()], entities,
                new_names=False) if v.id in naming]
        return out

    def _canonical_names(self, names: Sequence[str]) -> dict[str, str]:
        """Entity key -> the name of the entity it names, for names that are another
        entity's alias (an entity page's `aliases`): "@Pete" is Peter."""
        keys = list(dict.fromkeys(entity_key(n) for n in names))
        return {k: e for k, e in self.source.resolve_names(keys).items()
                if k != entity_key(e)} if keys else {}

    def _older_candidates(self, new: Fact, canon: dict[str, str], *,
                          until: date | None = None) -> list[Candidate]:
        """Older state facts the judge weighs a new one against, under every name of its
        entities; written by `until` when given (a first index judging the past holds facts
        written after it too)."""
        keys = [entity_key(e) for e in new.entities]
        entities = [entity_key(canon.get(key, key)) for key in keys]
        if keys:  # each entity by its own name and by its other names
            keys = list(dict.fromkeys([*keys, *entities, *self.source.alias_keys(entities)]))
        from memfold.lifecycle.judge import aliases, second_look, settled  # lazily
        filters = _state_filters(until)
        if keys:
            pool = self.source.linked(keys, filters, JUDGE_CANDIDATES)
            if second_look.called_off(new.content):  # "Cancelled our trip": a booking told as done,
                plans = Filters(kinds=("experience",), window=filters.window)  # by its words
                asked = Terms(words=tuple(dict.fromkeys(find_words(new.content)))[:16])
                pool += [c for c in self.source.lexical(asked, plans, PLAN_CANDIDATES)
                         if {entity_key(e) for e in c.fact.entities} & set(keys)]
        else:  # a fact that names no entity is weighed against those that name none
            words = dict.fromkeys(w for w in find_words(new.content)
                                  if w.casefold() not in STOP_WORDS and len(w) > 2)
            query = Terms(words=(*tuple(words)[:16], *aliases.other_names(words)))  # Postgres
            pool = [c for c in self.source.lexical(query, filters, JUDGE_CANDIDATES)
                    if not c.fact.entities]
        if mine := settled.slots_of_mine(new.content):  # "is my manager": who held it before
            seen = {c.fact.id for c in pool}
            query = Terms(phrases=tuple(f"{p} {s}" for s in mine for p in ("my", "our")),
                          words=tuple(dict.fromkeys(s.split()[-1] for s in mine)))  # "postdoc"
            pool = [*pool, *(c for c in self.source.lexical(query, filters, JUDGE_CANDIDATES)
                             if c.fact.id not in seen)]
        return _standing_older(pool, new)


def _state_filters(until: date | None) -> Filters:
    """The older facts a new one is weighed against: state facts, written by `until`."""
    return Filters(kinds=tuple(sorted(STATE_KINDS)),
                   window=Interval(None, until) if until else None)


def _standing_older(found: Sequence[Candidate], new: Fact) -> list[Candidate]:
    """The candidates written before `new` that nothing has replaced yet, and not over by
    then (`until=` more than `TOLD_END` before its day: "on antibiotics until 9 August" is
    over by "was put to sleep" in September; "finished rehab" on rehab's last day tells it)."""
    key, day = (new.day or date.min, new.path, new.line), new.day or date.min
    return [c for c in found if (c.fact.day or date.min, c.fact.path, c.fact.line) < key
            and not (c.fact.valid and c.fact.valid.end and day - c.fact.valid.end > TOLD_END)
            and (c.life is None or c.life.status not in REPLACED)]


def _with_names(fact: Fact, canon: dict[str, str]) -> Fact:
    """The fact as the judge reads it: its entities and the entity each alias names, and an
    @mention of an alias read as the entity ("Works at @AcmeCorp" is "Works at @acme")."""
    aliases = {e: canon[k] for e in fact.entities if (k := entity_key(e)) in canon}
    if not aliases:
        return fact
    content = fact.content
    for alias, entity in aliases.items():
        content = re.sub(rf"@{re.escape(alias)}(?![\w-])", f"@{entity}", content, flags=re.I)
    more = tuple(dict.fromkeys(e for e in aliases.values() if e not in fact.entities))
    return dataclasses.replace(fact, content=content, entities=fact.entities + more)


def _fewer_conflicts(weighed: list[tuple[Judgement, Fact]], new: Fact,
                     ) -> list[tuple[Judgement, Supersede | Conflict | None]]:
    """One new fact's word on each older fact, with the event to journal: every supersede,
    and only the first `JOURNALED_CONFLICTS` conflicts — those a rule found first (a change
    the fact declined to make, or one written together), then those that only share a
    topic, newest first as weighed.  (Events are made only for what is journaled: a fact
    written among thousands about one entity may conflict with a hundred.)"""
    conflicts = sorted((i for i, (j, _) in enumerate(weighed) if not j.superseded),
                       key=lambda i: weighed[i][0].reason.startswith(TOPIC_ONLY))
    dropped = set(conflicts[JOURNALED_CONFLICTS:])
    return [(j, None if i in dropped else _record(j, old, new))
            for i, (j, old) in enumerate(weighed)]


def _record(j: Judgement, old: Fact, new: Fact) -> Supersede | Conflict:
    made = supersede_record if j.superseded else conflict_record
    return made(old, new, reason=j.reason, judge=j.judge)


def conflict_record(old: Fact, new: Fact, *, reason: str, judge: str) -> Conflict:
    """The journal event that records `old` left active beside the newer fact `new`."""
    return Conflict(id=old.id, by=new.id, reason=reason, judge=judge,
                    on=new.day.isoformat() if new.day else None, sha=content_sha(old.content))


def supersede_record(old: Fact, new: Fact, *, reason: str, judge: str) -> Supersede:
    """The journal event that marks `old` superseded by `new`."""
    return Supersede(id=old.id, by=new.id, reason=reason, judge=judge,
                     on=new.day.isoformat() if new.day else None, sha=content_sha(old.content))
