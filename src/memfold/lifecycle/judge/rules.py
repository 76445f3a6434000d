"""The default judge: offline, deterministic rules over two facts' readings.

A newer fact supersedes an older *state* fact (world, opinion, observation — never an
experience, which is history) about the same entity when one of these holds, in order:

1. it says it left the older fact's value: "switched from PostgreSQL to MySQL", "replaced
   Zendesk with Intercom", "Okta, in place of Auth0", "took over from Chloe" — the value
   left must stand in the older fact's predicate ("Project Falcon was renamed Osprey"
   supersedes "the codename is Falcon", not "Project Falcon ships in May");
2. it says the older fact's state ended: "quit smoking", "no longer vegetarian", "Zendesk
   is gone", "broke up" — sharing a topic word with the older fact;
3. both give one single-valued slot different values: the same attribute ("Acme's CEO is
   X" / "... is Y"), or the same relation of the entity (lives in, works at, reports to, a
   role, a diet, an age, a relationship status, a name, a platform it runs on); a value
   that adds detail to the older one, or that the older one gives, is no change;
4. it changes something the older fact names to a new value: "raised the limit to 250";
5. it names, as the value of the same thing, a product of the same family as the older fact
   ("MySQL is the primary datastore" / "stores data in PostgreSQL");
6. both count the same unit of the same topic with different numbers;
7. a status moved on from an interim state ("pending" -> "approved", "beta" -> "GA");
8. an opinion reversed: opposite polarity, or an antonym, on a shared topic.

Whatever the rule, a newer fact never supersedes when it is a plan or a hypothetical, a
change that did not happen ("turned down the offer", "went back to Vim"), a visit or a
stated range that ends, someone else's news or view ("his dad switched...", "Alice's
previous company..."), the past (Vietnamese "hồi nhỏ", "từng"; a summary of a month or a
year, "March was all about the move"), a suggestion, a question, a discussion, a pitch, a
restatement, or an addition ("also", "too"); nor when it names no entity and the older fact
names one, nor when the entity the two share is the subject of neither (Sam's employer is
not Priya's because both name @Globex). Such pairs, opposed opinions that do not say they
changed, and pairs on one topic that no rule settles come back as conflicts — left active,
for the calling agent to confirm with `memfold supersede`.
The rules weigh Readings (judge.readers reads each fact in its language: English, or
Vietnamese by its lexicon table), never the text itself.  Every loop over a set runs in
sorted order, so the reasons do not depend on the hash seed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace as evolve

from memfold.journal.fold import STATE_KINDS
from memfold.lifecycle.judge import apart, holders, same_thing, settled
from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.ages import aged
from memfold.lifecycle.judge.aliases import written_alike
from memfold.lifecycle.judge.apart import (
    ELDERS_AND_YOUNGER,
    PART_OF,
    end_of_another,
    ended_shared,
    status,
)
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.offers import (
    OPPOSITE,
    SLOT_TAGS,
    commute_offer,
    mention_offer,
    partner_offer,
    place_offer,
    redone_offer,
    reopened_offer,
    returned_offer,
    slot_offer,
    status_offer,
    turned_offer,
    whom,
    work_offer,
    workplace_offer,
)
from memfold.lifecycle.judge.pieces import (
    denial,
    ends_itself,
    exploring,
    for_good,
    gone,
    gone_from,
    gone_of,
    keys_of,
    said_again,
    words_as_written,
)
from memfold.lifecycle.judge.readers import lexicon_of, read
from memfold.lifecycle.judge.reading import Reading, Stems
from memfold.lifecycle.judge.signature import ANY as _ANY
from memfold.lifecycle.judge.signature import SLOT_WORDS as _SLOT_WORDS
from memfold.lifecycle.judge.signature import names as _names
from memfold.lifecycle.judge.signature import related as _related
from memfold.lifecycle.judge.signature import signature as _signature
from memfold.lifecycle.judge.slots import SINGLE_VALUED, TIME_STEMS
from memfold.lifecycle.judge.subjects import named_values, reported, reporters, same_subject
from memfold.lifecycle.judge.unread import unread_offer
from memfold.lifecycle.judge.unsaid import unsaid
from memfold.values import Fact

_GENERIC = w.GENERIC_STEMS
_LIKING = frozenset(w.stem(x) for x in w.POSITIVE | w.NEGATIVE)
_END_VERBS = frozenset(w.stem(x) for x in w.END_VERBS)
_RELATIONSHIP = frozenset(w.stem(x) for x in w.RELATIONSHIP)
_FILLER = frozenset(w.stem(x) for x in "old former previous whole entire".split())
_SINGLE = SINGLE_VALUED | {"prefer", "attr"}  # and what one prefers, an attribute
# An older fact that never stated the entity's own state (someone else's news, a question,
# a suggestion, a plan): a newer fact on its topic is offered, not made to replace it.
HEARSAY = frozenset("third-party question suggestion discussion pitch plan past".split())
_STAND_IN = re.compile(r"(?i)\b(?:acting|interim|covering\s+for|filling\s+in|stand(?:ing)?\s+in)\b")


def _numbers_of(n: Reading, o: Reading) -> set[str]:
    return {x for x in n.words | o.words if w.is_number(x)}


def _hearsay(n: Reading, o: Reading) -> str | None:
    """The guard an older fact lends: "Marek's sister moved to Vienna" is not Marek's home,
    unless the newer fact speaks of the same someone ("Leo started Year 6")."""
    if o.guard == "third-party" and whom(o) & n.words:
        return None
    if o.guard == "temporary" and (_STAND_IN.search(o.text) or w.THIS_WEEK.search(o.text)):
        return "older-hearsay"  # "acting Designer until the end of the month": a stand-in
    if reporters(o.text):  # "Omar dislikes GraphQL, says Zainab": Zainab's word for it
        return "older-hearsay"
    return "older-hearsay" if o.guard in HEARSAY else None


_GUARDS = {"older-hearsay": "weighed against an older fact that was not a state",
           "reported": "someone's report of it",
           "plan": "a plan or a hypothetical", "negated": "a change that did not happen",
           "temporary": "a visit or a state that ends", "third-party": "about someone else",
           "suggestion": "a suggestion", "question": "a question or unconfirmed",
           "discussion": "under discussion", "pitch": "a pitch or an offer",
           "restated": "a restatement", "past": "about the past",
           "dwelling": "where the home is, not said to be a move"}
_KIN = frozenset(map(w.stem, w.RELATIVE_WORDS))
_GROUPS = frozenset(w.stem(x) for x in "club team squad choir band league society group "
                    "gym orchestra troupe crew".split())
_PARTNER = frozenset(w.stem(x) for x in w.KINDS["partner"])
_BOND = _RELATIONSHIP - {w.stem("date")} | {w.stem(x) for x in "friend friendship close".split()}


def _text(stemset: Stems, *said: Reading) -> str:
    """The words of `stemset` as the facts wrote them ("Node 22", not "22 nod")."""
    return words_as_written(stemset, *(reading.text for reading in said))


def _topic(a: Stems, b: Stems) -> Stems:
    return (a & b) - _GENERIC


def _mentions(o: Reading, value: Stems) -> bool:
    """The older fact names this value after its subject: most of its words ("Project
    Falcon" in "the codename is Falcon"); a name must be the older fact's whole name."""
    core = value - _FILLER - TIME_STEMS or value - _FILLER  # "chai any morning": chai
    for name in sorted(x for x in core if "-" in x and x not in o.words):  # "saffron-mobile"
        core -= {w.stem(part) for part in name.split("-")}  # is not "the mobile app"
    if o.relation == "name" and o.value:
        return bool(core) and (o.value <= core or core <= o.value)
    if (specific := core - _SLOT_WORDS) and not specific & o.predicate:
        return False  # "from Product Manager" is not "took over as Hamid's manager"
    return bool(core) and len(core & o.predicate) * 2 >= len(core) and not _group_apart(core, o)


def _group_apart(value: Stems, o: Reading) -> bool:
    """A group left ("the chess club") where the older fact names only what one does ("plays
    chess at the library on Wednesdays"): leaving the club need not end the activity."""
    return bool(value & _GROUPS) and not o.words & _GROUPS


def _differs(new: Stems, old: Stems) -> bool:
    """Two values of a slot differ, and the new one is not the old with more detail."""
    return bool(new) and bool(old) and not old <= new and not new <= old


def _left(n: Reading, o: Reading) -> str | None:
    for c in n.changes:
        if apart.left_apart(c, n, o):
            continue  # where it came from, or when the older state began: not left
        if c.old and _mentions(o, c.old) and not (c.new and c.new <= c.old):
            return f"the newer fact says it moved away from {_text(c.old, n, o)!r}"
        if c.old and o.relation == "name" and o.attr and c.old <= o.attr:
            return f"{_text(o.attr, o)} renamed from {_text(o.value, o)!r} to " \
                   f"{_text(c.new, n)!r}"
        if c.old and c.new and c.old <= o.subject and not c.new & o.words and o.predicate \
                and c.verb == "replace":  # "Tom took over Falcon from Priya": Priya leads it
            return f"{_text(c.new, n)!r} took the place of {_text(c.old, o)!r}"
        if c.verb == "rename" and not c.old and o.relation == "name" and not o.value:
            return f"renamed to {_text(c.new, n)!r}"  # the entity itself
    if n.relation == "name" and n.value and (n.now or n.changes) \
            and (not (n.attr and o.attr) or n.attr & o.attr) \
            and o.relation == "name" and not o.value:  # "Quillpad is now called Inkwell"
        return f"renamed to {_text(n.value, n)!r}"
    if o.relation == "name" and o.value and o.value <= n.attr and _differs(n.value, o.value) \
            and n.now:  # "Eastgate Rovers are now Eastgate Athletic"
        return f"renamed from {_text(o.value, o)!r} to {_text(n.value, n)!r}"
    return None


def _doers(stemset: Stems) -> Stems:
    """The stems with each doer's activity beside it: "smoker" gives "smok", "runner" "run",
    so "quit smoking" ends "is a smoker"."""
    roots = {x[:-2] for x in stemset if x.endswith("er") and len(x) > 5}
    return stemset | roots | {r[:-1] for r in roots if r[-1] == r[-2]}


def _ended(n: Reading, o: Reading, doers: bool = False) -> str | None:
    """The older fact's state ended; with `doers`, said of what its doer does (read last)."""
    said = _doers if doers else (lambda stemset: stemset)
    states = said(o.predicate | o.value | o.attr)
    for i, ended in enumerate(n.ends if not end_of_another(n, o) else ()):  # older states
        shared = ended_shared(_topic(ended, said(o.words)) - _END_VERBS, n, o)
        heads = n.end_heads[i] if i < len(n.end_heads) else frozenset()
        if shared & states and (not heads or shared & said(heads)):
            return f"the newer fact says {_text(shared, n)!r} ended"
    if n.parted and not o.parted and (o.words & _BOND or o.relation == "relationship") and (
            n.words & o.words or not n.subject):  # not "the divorce hearing is listed"
        return "the newer fact says the relationship ended"
    return None


def _comparable(a: Stems, b: Stems) -> bool:
    """Two values of one kind: "Proxmox 7" / "Proxmox 8.2", two numbers, one family."""
    return bool(a & b) or (any(map(w.is_number, a)) and any(map(w.is_number, b))) or bool(
        {w.FAMILY.get(x) for x in a} & {w.FAMILY.get(x) for x in b} - {None})


def _same_slot(n: Reading, o: Reading) -> str | None:
    if n.additive or not _differs(n.value, o.value):
        return None
    if (o.value <= n.words and not (n.changes or n.now)) or (n.value <= o.words
                                                              and not n.changes):
        return None  # "lives in Luthagen, Uppsala" adds detail to "lives in Uppsala"; "in
        # Vietnam" restates where "in An Thuong, Da Nang, Vietnam" is
    if n.relation == "prefer" and not (n.reversal or n.now):
        return None  # a preference said differently, without a change: see `stance`
    if n.relation in ("prefer", "use") and not (_comparable(n.value, o.value)
                                                or _qualified_apart(n.value, o)):
        return None  # one may prefer tea and WhatsApp replies: two things, two slots
    if n.relation == "platform" and _kinds(n) and _kinds(o) and not _kinds(n) & _kinds(o):
        return None  # runs on CockroachDB and on Google Cloud: a database, a cloud
    if n.relation == o.relation == "age" and n.attr != o.attr:
        return None  # "Mum's dog turned 9" is not Mum's age
    if n.relation == o.relation == "location" and _part_of_place(n, o):
        return None  # "an apartment in Tennoji ward" is where in Osaka, not a move
    if n.relation == o.relation == "location" and n.attr and not o.attr \
            and not n.attr & _HOME_PLACES and _text(n.attr, n)[:1].islower() \
            and lexicon_of(n.text) is None:
        return None  # "Folasade's office moved to Ikeja" is not where Folasade lives (but
        # "Omi lives in Copenhagen now" under @me names whom it is about)
    if n.relation == o.relation == "diet" and _diet_kept(n.value, o.value):
        return None  # "eats fish" keeps a pescatarian diet
    if n.relation == o.relation == "attr" and n.attr and n.attr <= ELDERS_AND_YOUNGER:
        return None  # "Mom is a retired teacher" / "Mom is having her knee replaced": a
        # person has many states, not one slot
    if apart.amounts_apart(n, o):
        return None  # "our mortgage payment is £1,312" is not "my salary is £44,200"
    if n.relation and n.relation == o.relation and n.relation in _SINGLE:
        nested = n.attr & o.attr and (n.attr <= o.attr or o.attr <= n.attr)
        if not nested and (n.relation == "attr" or (n.attr and o.attr)):
            return None
        if nested and n.head != o.head and not _comparable(n.value, o.value):
            return None  # "Rahim's car" is not "Rahim's car insurance"
        label = n.relation if n.relation != "attr" else _text(n.attr, n)
        return f"{label}: {_text(o.value, o)!r} became {_text(n.value, n)!r}"
    return None


_PLACE_PARTS = frozenset(w.stem(x) for x in w.PLACE_PARTS)
# the places that are where the entity itself lives or is based: a home, its headquarters
_HOME_PLACES = frozenset(w.stem(x) for x in "home house flat apartment address residence "
                         "headquarters hq base family".split())
_HOME = w.stem("home")


def _part_of_place(n: Reading, o: Reading) -> bool:
    """A more precise place than the older one, not said to be a move: a part of a place
    (a ward, a district, a neighbourhood) where the older fact names none."""
    return not (n.changes or n.now) and bool(n.value & _PLACE_PARTS) \
        and not o.value & _PLACE_PARTS


def _dwelling(n: Reading, o: Reading) -> bool:
    """Where the entity's flat or house is, not said to be new, against where it lives:
    maybe the same place said more precisely ("Thandiwe's flat is in Melville"), maybe a
    move — offered, not taken."""
    return n.relation == o.relation == "location" and _HOME in n.subject \
        and _HOME not in o.subject and not (n.changes or n.now)


def _diet_kept(new: Stems, old: Stems) -> bool:
    """Whether the food the newer fact says it eats is one the older diet allows."""
    foods = {x for x in new if any(x in left for left in w.DIET_EXCLUDES.values())}
    diets = [w.DIET_EXCLUDES[d] for d in sorted(old & w.DIET_EXCLUDES.keys())]
    return bool(foods and diets) and not any(foods & left for left in diets)


def _kinds(r: Reading) -> set[str]:
    return {kind for kind, _ in r.families}


def _swapped(n: Reading, o: Reading) -> str | None:
    """"Priya owns the rotation" then "the rotation is owned by Marcus", or "the newsletter
    is written by Maria" then "Tom writes the newsletter"."""
    if n.verb and n.attr and n.verb in o.predicate and n.attr <= o.predicate \
            and _differs(n.value, o.subject) and not n.additive:
        return f"{_text(n.attr, n)}: {_text(o.subject, o)!r} became {_text(n.value, n)!r}"
    if o.verb and o.attr and o.verb in n.predicate and o.attr <= n.predicate \
            and _differs(n.subject, o.value) and not n.additive:  # and the other way round
        return f"{_text(o.attr, o)}: {_text(o.value, o)!r} became {_text(n.subject, n)!r}"
    return None


def _qualified_apart(words: Stems, o: Reading) -> bool:
    """"her personal email" is not "her work email": a qualifier the older fact opposes."""
    return any(OPPOSITE.get(x, frozenset()) & o.words for x in sorted(words - o.words))


def _changed(n: Reading, o: Reading) -> str | None:
    for c in n.changes:
        if o.kind == "opinion" and not _topic(c.obj, o.subject):
            continue  # an opinion changes with what it is about ("the crew-room coffee"),
            # not with a word it shares ("switching to green tea on early shows")
        if c.new and c.obj and _topic(c.obj, o.words) and not c.new <= o.words \
                and not n.additive and (o.value - c.new or o.numbers or o.families) \
                and not _qualified_apart(c.obj, o) \
                and not apart.change_apart(c.obj, c.new, o, n.text):
            return f"the newer fact changes {_text(_topic(c.obj, o.words), n)!r} to " \
                   f"{_text(c.new, n)!r}"
    return None


def _family(n: Reading, o: Reading) -> str | None:
    if o.kind == "opinion":  # moving to MySQL changes what is used, not a view on Postgres
        return None
    if n.additive or (n.attr and not o.attr and not n.attr & o.words and not (n.now or n.changes)):
        return None  # "its staging copy is deployed on Fly.io": a part, not the whole
    taken = n.value.union(*(c.new for c in n.changes))
    left = frozenset().union(*(c.old for c in n.changes))
    held = frozenset().union(*(c.new for c in o.changes))  # "moved off Jira to Linear": Linear
    if n.relation == "use" and not n.now:
        return None
    for family, member in sorted(n.families, key=lambda f: (not _parts(f[1]) <= taken, f)):
        if not (_parts(member) <= taken or n.now) or _parts(member) <= held:  # named as the
            continue  # value, or said to hold now; not what the older fact says it became
        # "migrated from Hetzner to Azure" changes the fact on Hetzner, not one on AWS
        named_left = {m for f, m in n.families if f == family and _parts(m) <= left}
        for other_family, other in sorted(o.families):
            if named_left and other not in named_left:
                continue
            if o.additive and _ALSO.search(o.text) \
                    and not _topic(n.words, o.words) - _parts(other) - _parts(member):
                continue  # "also keeps its backups on AWS": a second use, beside the main one
            if other_family == family and other != member and (_called_old(n, other) or \
                    not {other, w.stem(other)} & (taken if _parts(member) <= taken else n.words)):
                return f"{family}: {_text(_parts(other), o)!r} became " \
                       f"{_text(_parts(member), n)!r}"
    return None


# "also keeps its backups on AWS" adds a second use; "the replicas are PostgreSQL too" says
# the same value again of another part, which a switch of the whole changes with the rest
_ALSO = re.compile(r"\balso\b", re.IGNORECASE)


def _called_old(n: Reading, member: str) -> bool:
    """Whether the newer fact names a member of a family as the one it had: "gave my old
    Pixel to my nephew; I'm on an iPhone 15 now"."""
    words = r"[\s-]+".join(re.escape(p) for p in member.split("-"))
    return bool(n.now and re.search(rf"\b(?:old|former|previous)\s+(?:\w+\s+)?{words}\b",
                                    n.text, re.IGNORECASE))


def _parts(member: str) -> Stems:
    return frozenset(w.stem(part) for part in member.split("-"))


def _upgraded(n: Reading, o: Reading) -> str | None:
    """"Windows 10" then "Windows 11" on the same thing (the laptop), or on the entity
    itself when the newer fact says it changed or holds now ("got an iPhone 15")."""
    if n.additive:
        return None
    itself = not (n.attr and o.attr) and bool(n.changes or n.now)
    for name, version in sorted(n.versions):
        for old_name, old_version in sorted(o.versions):
            topic = _topic(n.words, o.words) - {name, version, old_version}
            if name == old_name and version != old_version and (topic or itself):
                return f"{_text(frozenset({name}), n)}: {old_version} became {version}"
    return None


def _counted(n: Reading, o: Reading) -> str | None:
    if n.additive and not n.now:  # "also charges a £40 fee": another amount beside it
        return None  # ("adopted another cat, so he has three now" counts them again)
    if apart.amounts_apart(n, o) or PART_OF.search(n.text) or apart.count_apart(n, o):
        return None  # "paid off $4,000 of the loan": a part of it, not what is left
    for value, units in n.numbers:
        for old_value, old_units in o.numbers:
            same_unit = units & old_units or (not units and old_units & n.words) or (
                not old_units and units & o.words)
            events = units | old_units | apart.UNIT_WORDS if n.kind == "experience" else set()
            topic = _topic(n.words, o.words) - {value, old_value} - events  # "ran 10 miles"
            if same_unit and value != old_value and topic \
                    and not apart.values_apart(units, value, old_value, n, o):
                return f"{_text(units | old_units, n, o)}: {old_value} became {value}"
    return None


def _opposed(n: Reading, o: Reading) -> str | None:
    """Opposite polarity, or an antonym, on a shared topic (an opinion is involved)."""
    if not (o.kind == "opinion" or n.kind == "opinion" or o.polarity or n.polarity) \
            or n.additive:
        return None
    shared = _topic(n.words, o.words) or (  # "hates running" / "loves running now"
        apart.liked_alike(n.text, o.text) if n.now else frozenset())
    if n.changed_mind:  # "changed their mind and now dislikes Rust" / "dislikes working late"
        shared -= _LIKING
    if not shared or apart.liked_apart(n, o, shared):
        return None
    if (n.polarity and o.polarity and n.polarity != o.polarity) or (
            n.changed_mind and (o.kind == "opinion" or o.polarity)):
        return f"the opinion on {_text(shared, n)!r} reversed"
    for word in sorted(n.words - o.words):
        if was := OPPOSITE.get(word, frozenset()) & o.words:
            return f"the opinion turned from {_text(was, o)!r} to {_text(frozenset({word}), n)!r}"
    return None


def _reversed(n: Reading, o: Reading) -> str | None:
    """An opposed opinion that says it changed ("now", "has come around", "no longer"); an
    opposed one that does not ("likes X" / "dislikes X", "prefers concise replies" /
    "prefers long replies") only weighs against the older opinion (see `stance`)."""
    if n.reversal or n.now:
        return _opposed(n, o)
    return None


def _corrected(n: Reading, o: Reading) -> str | None:
    """"Correction: her birthday is actually 14 May", "the flight actually lands at 19:25":
    the same thing said again with another value, and said to be the right one."""
    if not n.corrected or n.additive or not n.words - o.words or n.kind == "opinion":
        return None  # "I actually prefer the emergency shifts": a view said with weight
    shared = _topic(n.words, o.words) - {x for x in n.words if w.is_number(x)}
    if (n.head and n.head == o.head) or len(shared) >= 2:
        return f"a correction of {_text(shared or frozenset({n.head}), n)!r}"
    return None


def _readdressed(n: Reading, o: Reading) -> str | None:
    """Another email address for the same person, said to be the one now ("write to ...
    now", "stopped using her Gmail"), unless a qualifier sets it apart (work / personal)."""
    if not (n.addresses and o.addresses) or n.addresses & o.addresses or n.additive \
            or _qualified_apart(n.words, o) or not (n.now or n.changes or n.ends):
        return None
    return f"email: {min(o.addresses)!r} became {min(n.addresses)!r}"


def _closed(n: Reading, o: Reading) -> str | None:
    """The entity itself ended ("Pinewood Deli closed", "the band split"): what an older fact
    says it does no longer holds.  Only the fact's own subject, never an object it names."""
    if not ends_itself(n) or o.relation == "name" or o.kind != "world":
        return None
    return "the newer fact says it closed"


_KINDS = {w.stem(k): frozenset(w.stem(x) for x in v) for k, v in w.KINDS.items()}


def _kinds_of(n: Reading) -> Stems:
    """The kinds of the things a fact names: a family's ("car": a Skoda), a kind's ("pet")."""
    return frozenset({w.stem(f) for f, _ in n.families} | {k for k, v in _KINDS.items()
                                                           if v & n.words})


def _denied(n: Reading, o: Reading) -> str | None:
    """The older fact denies a state and the newer one, not denying it, speaks of the same
    thing ("has no dark mode" / "has a Dark/Light theme toggle"; "doesn't have a driving
    licence" / "drives herself to the office"): offered as a conflict, never a supersede by
    itself — the newer fact may only mention it."""
    if o.kind != "world" or n.guard not in (None, "third-party") or denial(n.text) is not None \
            or (what := denial(o.text)) is None:
        return None
    kinds = _kinds_of(n)  # "has no pets" / "adopted a greyhound"
    kin = {k for k, v in _KINDS.items() if v & n.subject}  # "Jonas's daughter": a child
    shared = what & (kin if n.guard else n.words | kinds)
    return f"the older fact says no {_text(frozenset(shared), o)!r}; the newer one speaks of it" \
        if shared else None


def replaces(new: Fact, old: Fact) -> str | None:
    """Why `new` makes `old` no longer true (guards aside), or None."""
    n, o = read(new), read(old)
    for c in n.changes:  # "went back to Vim" restates what the older fact says
        if c.new and c.new <= o.predicate and not (n.value and o.value and not n.value & o.value) \
                and (
                not c.old or any(c.old <= x.old and c.new <= x.new for x in o.changes)):
            return None
    return (_left(n, o) or _ended(n, o) or _same_slot(n, o) or _swapped(n, o)
            or _changed(n, o) or _family(n, o) or _upgraded(n, o) or _counted(n, o)
            or status(n, o) or _reversed(n, o) or _corrected(n, o) or _readdressed(n, o)
            or (_closed(n, o) if for_good(n.text) else None) or _ended(n, o, doers=True)
            or gone_of(new, old, o) or aged(n.text, o.text, n.about & o.about))


class RuleJudge:
    """The default, offline and deterministic judge (rules: module docstring, docs/format.md)."""

    name = "rules"

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
        verdicts = holders.handed_over(new, older) + settled.offered(new, older)
        keys, held = keys_of(new.entities), {v.id for v in verdicts}
        signature = _signature(new.content) - _names(new)
        if for_good(new.content) and ends_itself(read(new)) or gone(new):
            signature = _ANY  # the entity itself ended for good: every state of it is weighed
        for old in older:
            theirs = keys_of(old.entities)
            if old.id in held | {new.id} or old.kind not in STATE_KINDS or said_again(new, old) \
                    or not (keys & theirs if keys else not theirs) \
                    or not _related(signature, _signature(old.content)) or exploring(old) \
                    or not (gone_from(new, old) or same_subject(new, old, keys & theirs)):
                continue  # another entity, nothing a rule could relate, or an exploration
            if verdict := self._verdict(new, old):
                verdicts.append(verdict)
        return verdicts + settled.unweighed(new, older, verdicts)  # slots, lives moved on

    @staticmethod
    def _verdict(new: Fact, old: Fact) -> Verdict | None:
        new, old = written_alike(new, old), written_alike(old, new)  # "LA", "KSh 1,200"
        reason = replaces(new, old)
        n, o = read(new), read(old)
        if n.guard == "third-party" and n.about == o.about and (
                o.guard == n.guard and n.subject & whom(o) & _KIN  # "Priya's daughter", twice
                or o.relation == "relationship" and n.subject & _PARTNER):  # "single" / "her
            n = evolve(n, guard=unsaid(n.text))  # girlfriend Marta moved in": hers (if said)
        guard = n.guard or reported(new) or _hearsay(n, o) or (
            "dwelling" if reason and _dwelling(n, o) else None)
        if guard == "negated" and reason and reason == status(n, o):
            guard = None  # "the Trust turned down our application": what was pending is decided
        if reason and not guard and (made := same_thing.settle(new, old, n, o, reason)):
            return made  # a supersede, or offered; else weighed below as any other pair
        if reason and guard:
            return Verdict(old.id, False, f"{reason}, but the newer fact is {_GUARDS[guard]}")
        if (n.again or n.guard == "restated") and n.words - n.kept - _BACK <= o.words:
            return None  # "is dating Jonas again", "back to Vim": the older fact said just that
        if _restates(n, o):  # "is still Dr. Pryce; she saw him about her knee"
            return None
        if n.kept:  # "but kept his job": not a change of job
            n = evolve(n, words=n.words - n.kept)
        if opposed := _opposed(n, o):  # "likes X" / "dislikes X", no change said
            return Verdict(old.id, False, opposed.replace("reversed", "is opposed")
                           .replace("turned from", "differs:"))
        if closed := _closed(n, o):  # closed, but not said to be for good
            return Verdict(old.id, False, closed)
        if denied := _denied(n, o):
            return Verdict(old.id, False, denied)
        if len(shared := _topic(n.words, o.words)) >= 2:
            return Verdict(old.id, False, "same topic: " + _text(shared, n))
        if shared - _numbers_of(n, o) and n.kind != "experience" and n.numbers and o.numbers \
                and {v for v, _ in n.numbers}.isdisjoint(v for v, _ in o.numbers):
            return Verdict(old.id, False, f"another number for {_text(shared, n)!r}")
        tags = set(SLOT_TAGS) & _signature(new.content) & _signature(old.content) | {
            "#" + k for k in {kind for kind, m in n.families if m not in _names(new)}
            & {kind for kind, m in o.families if m not in _names(old)}}  # not "Ember" itself
        if guard:  # a report, or an older fact that was no state: nothing to offer
            return None
        if offer := status_offer(n, o) or slot_offer(
                n, o, frozenset(tags), shared, _SLOT_WORDS) or mention_offer(
                n, o, named_values(new), named_values(old), shared) or turned_offer(
                n, o) or workplace_offer(n, o) or returned_offer(n, o) or work_offer(n, o) \
                or partner_offer(n, o) or commute_offer(n, o) or redone_offer(n, o) \
                or reopened_offer(n, o) or place_offer(n, o, _SLOT_WORDS) or unread_offer(n, o):
            return Verdict(old.id, False, offer, offer=True)
        return None


def _restates(n: Reading, o: Reading) -> bool:
    """A restatement ("still", "again") or a change that did not happen ("stayed with") that
    says all the older fact states, with more beside it: no conflict to ask about."""
    said = o.predicate - _GENERIC
    return (n.again or n.guard in ("restated", "negated")) and bool(said) and said <= n.words \
        and not n.now


_BACK = frozenset({w.stem("back"), w.stem("is")})  # "is back on Vim" says Vim, as "Vim again"
AGREES, OPPOSES, REVERSES = "agrees", "opposes", "reverses"


def stance(opinion: Fact, evidence: Fact) -> str:
    """How a newer fact on an opinion's entity and topic (checked by the caller) bears on
    it: it agrees, opposes it (its confidence should fall), or reverses it (a clear change
    of mind: the opinion is superseded)."""
    o, n = read(opinion), read(evidence)
    if n.guard:  # a plan or someone else's view is weak evidence either way
        return OPPOSES if _opposed(n, o) or replaces(evidence, opinion) else AGREES
    if replaces(evidence, opinion):
        return REVERSES
    return OPPOSES if _opposed(n, o) or n.ends else AGREES


__all__ = ["AGREES", "OPPOSES", "REVERSES", "RuleJudge", "replaces", "stance"]
