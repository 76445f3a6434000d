"""Offers: a change the rules cannot read for sure, reported as a conflict, never taken.

When no rule settles a pair, the newer fact may still be a change the rules could not read:
"Gunnhild is a dispatcher for @Corvid-Logistics now" after "works at @Northwind-Freight as a
dispatcher", "Ingram now sees Dr. Holt" after "Ingram's GP is Dr. Vance", "As of this autumn,
all of Pomona's flour is milled by Stoneground Co-op" after "comes from Millers of Dunmore".
Such a pair is offered — left active and named in the retain's `conflicts`, for the agent or
the person to confirm — when the newer fact, about the same subject (the caller checked),

- says it holds now or changed ("now", "these days", a fronted "As of …", a change verb, an
  end, a change of mind, a beginning — "started at", "first day at" — or a final status
  reached: "signed with", "finished"), is not guarded (a plan, a question, someone else's
  news, a restatement …) and adds nothing beside the older value ("also", "too");
- shares the older fact's slot: a topic word, the class of its slot word (a home, a job, a
  name, a relationship, a role, a diet, a manager, a team, where a thing is hosted, a
  liking), or a product family (two products of one family, neither of them the entity's
  own name);
- and gives a value the older fact does not name, reads no other slot than the older fact
  (a role is not an employer), and names no value left that the older
  fact does not hold ("moved from Designer into a QA Analyst role" is no change of a home).

Offered too: back at work after a leave (`returned_offer`), an interim state and a final one
with no topic word in common (`status_offer`), another @mention as the value now, or as the
value of a topic word the two share (`mention_offer`), opposite words said to hold now
(`turned_offer`), "is at <Org>" against a job (`workplace_offer`), what one does now for
another organisation against a job (`work_offer`), a commute from another place against a home
(`commute_offer`), a partner named in passing after "single" (`partner_offer`), a thing done
anew with another value ("remortgaged with", `redone_offer`), open or running again after
closed for a while (`reopened_offer`), another place named as where one is now against a home
(`place_offer`). Who owns a thing is a slot class of its own (`OWNED`: "is owned by", "was
bought by", "sold ... to").

Never for an experience ("customers stopped complaining"), a report ("…, Kenji told us"),
against a second use ("also keeps its backups on Google Cloud") or an older fact that was no
state of the entity's own (someone else's news, a plan); and a slot class alone never
relates an opinion.

An older fact about someone else ("Filippa's son Teo attends Westbrook Primary") is weighed
only when the newer fact speaks of the same someone ("Teo started at Cedar Hill Primary").

Nothing is retired this way: a wrong offer costs a look, a wrong supersede hides a true fact.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.readers import lexicon_of
from memfold.lifecycle.judge.reading import Reading, Stems

_GENERIC = w.GENERIC_STEMS
# the stems of words.OPPOSITE, INTERIM and FINAL, shared with `rules`
OPPOSITE = {w.stem(k): frozenset(w.stem(x) for x in v) for k, v in w.OPPOSITE.items()}
INTERIM = frozenset(w.stem(x) for x in w.INTERIM)
FINAL = frozenset(w.stem(x) for x in w.FINAL)
# "is still being processed", "are being reviewed": an interim state said with "being"
BEING_DONE = re.compile(r"\b(?:is|are)\s+(?:still\s+|now\s+)?being\s+\w+(?:ed|en)\b", re.IGNORECASE)
_BEING = frozenset({"being"})
_HIRING_WORD = frozenset({"hiring"})
# words that say when or how, not what: they are no value of a slot
_NOT_VALUES = frozenset(w.stem(x) for x in (
    "now these days nowadays since anymore any more longer instead only officially switched "
    "moved started starting beginning onwards onward effective going forward spring summer "
    "autumn fall winter month week year quarter season today recently lately new morning "
    "mornings evening evenings night nights day days weekend weekends daily weekly").split())
# a verb of change or of ending shared by two facts is no topic ("left Tallinn", "left Acme")
_VERBS = frozenset(w.stem(x) for x in w.CHANGE_VERBS | w.END_VERBS) | frozenset(
    w.stem(x) for x in "left joined went gave took".split())
# the slot classes a shared word of offers on its own: a liking or a role word is too loose
# ("prefers tea" / "likes Kubernetes"; "Product Manager" / "Kenji's manager")
SLOT_TAGS = ("#loc", "#job", "#name", "#rel", "#diet", "#boss", "#team", "#host", "#own")
_SLOT_LABELS = {"#loc": "home", "#job": "job", "#name": "name", "#rel": "relationship",
                "#diet": "diet", "#boss": "manager", "#team": "team", "#host": "hosting",
                "#own": "owner"}

# the endings of an offer's reason: what the judge could not read for sure
HOLDS_NOW = "the newer fact says it holds now"
APART = "but the two name no topic in common"
OTHER_VALUE = "the newer fact names another value for it"
OPPOSED = "the two opinions are opposed"


_KIN = frozenset(map(w.stem, w.RELATIVE_WORDS))


def whom(r: Reading) -> Stems:
    """Whom a fact about someone else speaks of: its subject ("Leo" in "Leo started Year 6"),
    else the kin it names ("Lumi's kids go to Oakfield Primary", a subject not read)."""
    return r.subject or r.words & _KIN


# the state said to hold yet: "is still in private beta", "the renewal is still pending"
STILL = re.compile(r"\bstill\b", re.IGNORECASE)
# a post open: "Sandhill Bakery is hiring two bakers" (filled, or hired, when it is done)
_HIRING = re.compile(r"\b(?:is|are)\s+(?:still\s+|now\s+)?hiring\b", re.IGNORECASE)


def interim(o: Reading) -> Stems:
    """The interim states the older fact says it is in ("pending", "being processed", "is
    hiring")."""
    english = lexicon_of(o.text) is None  # the phrases below are English ones
    said = frozenset(x for x in o.words & INTERIM
                     if x not in _INTERIM_ONLY or not english or _INTERIM_ONLY[x].search(o.text))
    return said | (_BEING if BEING_DONE.search(o.text) else frozenset()) | (
        _HIRING_WORD if _HIRING.search(o.text) else frozenset())


# interim words that are a state only in these phrases: not "to hold the lever", "charges
# for repair work", "a villa looking over the harbour"
_INTERIM_ONLY = {w.stem(word): re.compile(pattern, re.IGNORECASE) for word, pattern in (
    ("hold", r"\bon\s+hold\b"),
    ("repairs", r"\b(?:for|under|awaiting|needs?|being)\s+(?:\w+\s+)?repair\w*\b"
                r"(?!\s+(?:work|jobs?|bills?|costs?|shops?|business))"),
    ("looking", r"\blooking\s+(?:for|to|into|at\s+\w+ing)\b"),
    # a state, not a noun of the same stem: "a move planned", not "a 10GB plan"; "is
    # engaged", not "my engagement manager"; "under review", not "410 reviews"
    ("planned", r"\bplanned\b"),
    ("engaged", r"\bengaged\b"),
    ("stalled", r"\bstalled\b"),
    ("blocked", r"\bblocked\b"),
    ("review", r"\b(?:under|in|for|awaiting|pending|up\s+for)\s+(?:\w+\s+)?review\b"
               r"|\bbeing\s+reviewed\b"),
    ("open", r"\b(?:is|are|was|still|remains?|stays?|left)\s+open\b|\bopen\s+(?:bugs?|issues?"
             r"|tickets?|cases?|questions?|items?|positions?|roles?|applications?|claims?)\b"),
    ("maintenance", r"\b(?:in|for|under|down\s+for|closed\s+for)\s+maintenance\b"),
    # awaited or under way, not a thing's kind or an event past: "a construction dispute",
    # "went up to 3.5 after the skills assessment"
    ("assessment", r"\b(?:under|awaiting|pending|for|waiting\s+(?:for|on))\s+(?:an?\s+|the\s+)?"
                   r"(?:\w+\s+)?assessment\b|\bbeing\s+assessed\b"),
    ("construction", r"\bunder\s+construction\b|\bconstruction\s+(?:is|has|began|started)\b"),
)}


@lru_cache(maxsize=16384)  # asked of the same newer fact for every older one
def gerunds(text: str) -> Stems:
    """The stems a text writes only as "-ing" words: "leads the hiring panel" is no one hired."""
    said: dict[str, bool] = {}
    for token in w.TOKEN.findall(text):
        stem = w.stem(token.lower())
        said[stem] = said.get(stem, True) and token.lower().endswith("ing")
    return frozenset(s for s, ing in said.items() if ing)


def finals(n: Reading, was: Stems) -> Stems:
    """The final statuses a newer fact states (not as "-ing" words), less one that only says
    an interim status in `was` ended ("reopened" after "closed")."""
    return frozenset(x for x in n.words & FINAL - gerunds(n.text) - _phrasal(n.text)
                     if not (x.startswith("re") and x[2:] in was))


_SIGNED_UP = re.compile(r"\bsign(?:ed|s|ing)?\s+(?:\w+\s+)?up\b", re.IGNORECASE)
_SIGNED = frozenset({w.stem("signed")})


def _phrasal(text: str) -> Stems:
    """Final words a phrasal verb only borrows: "signed up for the winter session" enrolled,
    it signed nothing that was pending."""
    return _SIGNED if _SIGNED_UP.search(text) else frozenset()


def _surface(stemset: Stems, text: str) -> str:
    """The words of `stemset` as the text writes them ("approved", not "approv")."""
    found = [t for t in w.TOKEN.findall(text) if w.stem(t.lower()) in stemset]
    return " ".join(dict.fromkeys(found)) or " ".join(sorted(stemset))


def _another_value_left(n: Reading, o: Reading) -> bool:
    """The newer fact says which value it left, and the older fact does not hold it: a change
    of another thing ("moved from Designer into a QA Analyst role" against a home, "switched
    from tea to matcha" against when email is answered)."""
    return any(c.old and not c.old & o.words for c in n.changes)


# final statuses that may say a state, or something done beside it, not one reached: "lives",
# "did her MA", "opened an account", "was reopened"
_STILL = frozenset(w.stem(x) for x in "live active available permanent found over done paid "
                   "opened reopened closed".split())  # "close to Westbahnhof"; an end is in `ends`
# a state begun: "started at Kirkwall Grammar", "her first day at the county archive", "my first
# term as head of science at Tanhill School", "registered with @Dr-Ferrin"
_BEGUN = re.compile(r"\b(?:started|starts|began|begins)\s+(?:at|with|as|on)\b|\bfirst\s+day\b"
                    r"|\b(?:registered|enrolled|signed\s+up)\s+(?:at|with)\b"
                    r"|\bfirst\s+(?:week|shift|month|term|year|season)\s+(?:as|at|with)\b"
                    # the reader writes a first term or year as a stage: "Term 1 as head of ..."
                    r"|\b(?:term|year|season)\s+1\s+(?:as|at|with)\b", re.IGNORECASE)


# a new home of one's own: "our new place in Bath", "from his new house in Bruges", "Citlali's
# new flat in Monterrey", "our new street", "has a new address in Odense", "bought a house in
# Odense"
_NEW_HOME = re.compile(r"(?:\b(?:our|my|his|her|their|(?:has|have|got|found)\s+a)"
                       r"|(?-i:[A-Z])[\w-]*'s)\s+new\s+(?:place|home|house|flat|apartment|address|digs|street|postcode)\b"
                       # a home bought in a named place: "bought a house in Odense"
                       r"|\b(?:bought|purchased)\s+(?:a|an)\s+(?:[\w-]+\s+)?(?:house|flat|apartment"
                       r"|home|place|cottage|bungalow)\s+in\s+(?-i:[A-Z])", re.IGNORECASE)


# who owns it, said as a passive or a sale: "is owned by the Ashworth family", "was bought by
# the Verhoeven Foundation", "belongs to", "sold the gallery to"
OWNED = re.compile(r"\b(?:is|are|was|were|been|now)\s+(?:now\s+)?(?:owned|bought|acquired|purchased"
                   r"|taken\s+over)\s+by\b|\bbelongs?\s+to\b|\bsold\s+(?:[\w-]+\s+){0,3}?to\b",
                   re.IGNORECASE)
# a change of owner: "was bought by", "has been acquired by", "sold it to"
_ACQUIRED = re.compile(r"\b(?:was|were|been|got)\s+(?:bought|acquired|purchased|taken\s+over)"
                       r"\s+by\b|\bsold\s+(?:[\w-]+\s+){0,3}?to\b", re.IGNORECASE)


_CURRENT = re.compile(r"\bcurrent(?:ly)?\b", re.IGNORECASE)  # "User's current city: Glasgow"


def _says_now(n: Reading) -> bool:
    """The newer fact says a state holds now, changed, ended, began or reached a final
    status ("signed with @Inkwell-Agency", "finished the Dublin Marathon"), or names a new
    home of its own ("our new place in Bath")."""
    return bool(n.now or n.changes or n.ends or n.reversal or n.parted or _CURRENT.search(n.text)
                or finals(n, frozenset()) - _STILL or _BEGUN.search(n.text)
                or _NEW_HOME.search(n.text) or _ACQUIRED.search(n.text))


def slot_offer(n: Reading, o: Reading, tags: Stems, topic: Stems,
               slot_words: Stems) -> str | None:
    """Why the pair is offered as a possible change (see the module docstring), or None.
    `tags` are the slot classes and product families ("#database") the two facts' words
    share, leaving out the entities' own names ("Kit" is no newsletter), `topic`
    the content words they share, as the rules compare them; `slot_words` the words that
    name a slot ("home", "job"): a change of another thing that takes one ("got the keys to
    her own place") still speaks of the slot."""
    if n.guard or n.additive or n.again or o.additive or not _says_now(n) or (
            o.guard and not (o.guard == "third-party" and whom(o) & n.words)) or (
            n.relation and o.relation and _relation(n) != _relation(o)
            and not (n.attr and n.attr == o.attr)):  # "the website runs on" / "is served from"
        return None
    if n.kind == "experience" or _another_value_left(n, o):
        return None  # "customers stopped complaining": an event, not a state said to hold now
    value = n.words - o.words - _GENERIC - _NOT_VALUES - n.kept
    if not value:
        return None  # nothing the older fact does not already say
    shared = topic - _NOT_VALUES - _VERBS - {x for x in topic if w.is_number(x)}
    if shared:
        return f"same topic: {_surface(shared, n.text)}; {HOLDS_NOW}"
    if other_thing_changed(n, o, slot_words):
        return None
    if "opinion" in (n.kind, o.kind):
        return None  # "finds the open-plan office too noisy" holds no home
    slots = sorted(_SLOT_LABELS[t] for t in tags if t in _SLOT_LABELS)
    families = sorted(t[1:] for t in tags if t not in SLOT_TAGS)
    if slots or families:
        return f"same topic: {(slots or families)[0]}; {HOLDS_NOW}"
    return None


def other_thing_changed(n: Reading, o: Reading, slot_words: Stems) -> bool:
    """"moved his desk upstairs", "renamed his boat", "moved his savings to N26": another
    thing changed (but "took a job as a data analyst" changed the job itself)."""
    return any((thing := c.obj | c.old) and not thing & o.words and not c.new & slot_words
               and not thing <= slot_words for c in n.changes)


# the words of an attribute that is where one lives: "her registered address", "his home base"
_HOME_ATTRS = frozenset(w.stem(x) for x in "home address residence flat house apartment city "
                        "town".split())  # "her current city: Glasgow"


def _relation(r: Reading) -> str | None:
    """The slot a fact gives, an attribute of one's home read as where one lives."""
    return "location" if r.relation == "attr" and r.attr & _HOME_ATTRS else r.relation


def status_offer(n: Reading, o: Reading) -> str | None:
    """The older fact in an interim state ("pending", "under review", "listed for sale") and
    the newer one at a final state ("approved", "sold") with no topic word in common (the
    status rule needs one): "The bank approved Mirelle's mortgage" after "Mirelle's mortgage
    application is under review" — offered, since the two may speak of two things."""
    if n.guard or n.additive or o.guard or o.kind == "opinion" or n.relation == "location":
        return None
    was = interim(o)
    if STILL.search(n.text) and was & n.words:
        return None  # "the renewal is still pending": the same state, said again
    if was and (back := BACK_IN_USE.search(n.text) or (
            BIRTH.search(n.text) if was & _EXPECTING else None)):
        return f"status: {_surface(was, o.text)!r} became {back.group()!r}; {HOLDS_NOW}"
    done = finals(n, was)
    if was and (m := _HAS_IT.search(n.text)) and w.stem(m.group("thing").lower()) in o.words:
        return f"status: {_surface(was, o.text)!r} became {m.group()!r}; {HOLDS_NOW}"
    if not (was and done) or any(e - FINAL and not e & o.words for e in n.ends):
        return None  # "Ulla sold her car" is no status of her flat listed for sale
    return f"status: {_surface(was, o.text)!r} became {_surface(done, n.text)!r}, {APART}"


# in use again after repairs, a refit or a lay-up: "is back on the road", "went back in the water"
BACK_IN_USE = re.compile(r"\bback\s+(?:on\s+the\s+road|in\s+the\s+water|in\s+service|in\s+action"
                         r"|in\s+use|up\s+and\s+running|on\s+(?:the\s+)?(?:line|air|sale|track))\b",
                         re.IGNORECASE)
# a child born: "had a baby girl", "gave birth to twins", "welcomed a son" (after "pregnant")
BIRTH = re.compile(r"\b(?:had|has\s+had|gave\s+birth\s+to|welcomed)\s+(?:a\s+|their\s+|her\s+)?"
                   r"(?:(?:baby|new|healthy|little)\s+)*(?:baby|son|daughter|boy|girl|twins)\b",
                   re.IGNORECASE)
_EXPECTING = frozenset(w.stem(x) for x in "pregnant expecting".split())
# the thing that was pending, had or held now: "has his visa now", "had the surgery in March"
_HAS_IT = re.compile(r"\b(?:has|have|had|got|received|collected)\s+(?:his|her|their|its|my|our"
                     r"|the)\s+(?:new\s+)?(?P<thing>[\w-]+)", re.IGNORECASE)


def mention_offer(n: Reading, o: Reading, named: Stems, older_named: Stems,
                  topic: Stems = frozenset()) -> str | None:
    """Each fact names another entity in its content as a value, not the same one, and the
    newer fact says it holds now, or the two share a topic word: "Priyanka designs for
    @Hollow-Pine now" after "Priyanka works at @Tessellate", "Lorna sees @Okoro for physio"
    after "Lorna's physio is @Halle" — offered, since the two may be two slots (a client, a
    friend) or two at once."""
    shared = topic - _NOT_VALUES - _VERBS - {x for x in topic if w.is_number(x)}
    if n.guard or n.additive or n.again or o.guard or not (_says_now(n) or shared) \
            or not (named and older_named) or named & older_named \
            or n.kind == "experience" or _another_value_left(n, o):
        return None
    if not _says_now(n):
        return f"same topic: {_surface(shared, n.text)}; {OTHER_VALUE}"
    return f"same topic: {' '.join(sorted(older_named))} and now {' '.join(sorted(named))}; " \
        f"{HOLDS_NOW}"


_REDONE = re.compile(r"\bre-?(?P<base>[a-z]{4,}(?:ed|d))\b", re.IGNORECASE)


def redone_offer(n: Reading, o: Reading) -> str | None:
    """The newer fact did anew, with another value, the thing the older fact's slot names:
    "Orla remortgaged with @Kestrel-Bank" after "Orla's mortgage is with @Northstone" — a
    "re-" verb in the past whose base is the older fact's attribute; offered, since the same
    value may have been taken again."""
    if n.guard or n.additive or n.again or o.guard or n.kind == "experience":
        return None
    thing = o.attr | o.subject
    for m in _REDONE.finditer(n.text):
        base = w.stem(m.group("base").lower())
        if base in thing and n.words - o.words - _GENERIC - _NOT_VALUES - {
                w.stem(m.group().lower())}:
            return f"same topic: {_surface(frozenset({base}), o.text)}; the newer fact says " \
                f"it was done anew"
    return None


def turned_offer(n: Reading, o: Reading) -> str | None:
    """An opinion and a newer fact said to hold now with opposite words and no topic word in
    common: "likes working late at night" / "is an early riser these days" — offered, since
    the two may speak of two things.  Offered too: opposite likings of one activity that the
    rules count as no topic ("dislikes running" / "has grown fond of running": "run" is also
    a verb of a platform)."""
    if n.guard or n.additive or o.guard or "opinion" not in (n.kind, o.kind):
        return None
    if n.polarity and o.polarity and n.polarity != o.polarity and (
            doing := n.words & o.words & _GENERIC & gerunds(n.text) & gerunds(o.text)):
        return f"same topic: {_surface(doing, n.text)}; {OPPOSED}"
    if not _says_now(n):
        return None
    for word in sorted(n.words - o.words):
        if was := OPPOSITE.get(word, frozenset()) & (o.words - n.words):
            now = _surface(frozenset({word}), n.text)
            return f"same topic: {_surface(was, o.text)} and now {now}; {HOLDS_NOW}"
    return None


def workplace_offer(n: Reading, o: Reading) -> str | None:
    """The newer fact says where its subject is now, an organisation by name ("is at
    Kiteworks these days", "is in-house at Siemens now"), and the older one where it works
    or what it works as: offered, since "is at" may be a visit too."""
    if n.relation != "at" or o.relation not in ("employer", "role") or n.guard or n.additive \
            or o.guard or not _says_now(n) or not n.value or n.value & o.words:
        return None
    return f"same topic: job; {HOLDS_NOW}"


# the kinds of organisation one works for, named so: "drives for a delivery firm"
_ORG_KINDS = ("firm|company|agency|business|charity|startup|start-up|consultancy|contractor"
              "|practice|studio|bank|hospital|clinic|council|school|college|university|restaurant"
              "|hotel|bakery|cafe|café|shop|store|supermarket|factory|warehouse|garage|newspaper")
# what one does for or at an organisation named by its capitalised name: "writes software for
# Lunar Freight", "dispenses at a Lloyds pharmacy", "is the head of history at Thornhill College",
# "is now a data scientist at Halyk Bank"
WORK_FOR = re.compile(r"\b(?:(?!(?:is|was|has|does|goes|lives|stays)\b)[a-z]{3,}s|is\s+(?:now\s+"
                      r"|currently\s+)?(?:a|an|the)"
                      r"(?:\s+[\w-]+){1,4}?)\s+(?:[\w'-]+\s+){0,5}?(?:for|at)\s+(?:a\s+|an\s+|the\s+)?"
                      r"(?P<org>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*"
                      # or an organisation named by its kind: "drives for a delivery firm"
                      r"|(?<=a\s|n\s)(?:[a-z][\w-]*\s+){0,2}(?:" + _ORG_KINDS + r"))\b")


_ORG = r"(?:the\s+)?(?P<org>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*)"
# taken on by an organisation, said as an event: "was poached by Tidewater", "is on the payroll
# at Tidewater", "signed a contract with Tidewater", "is a Tidewater employee now"
_JOINED = (re.compile(r"\b(?:on\s+(?:the\s+)?(?:payroll|staff|books)\s+(?:at|of)|poached\s+by"
                     r"|signed\s+(?:a\s+(?:\w+\s+)?contract\s+)?with|moved\s+(?:over|across)\s+to"
                     r"|(?:hired|recruited|taken\s+on|headhunted|snapped\s+up)\s+by"
                     # a job begun or found: "started as a planning consultant with Arden &
                     # Hale", "got a job on the buses with Metro Transit"
                     r"|(?:started|began)\s+(?:as\s+(?:an?\s+)?(?:[\w-]+\s+){1,3}?)?(?:at|with)"
                     # "has been with Brindle & Co since January": an employer since then
                     r"|(?:has|have)\s+been\s+with(?=\s+(?:the\s+)?(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z&])"
                     r"[\w'&.-]*)*\s+since\b)"
                     r"|(?:got|found|landed|took|took\s+up|accepted|started)\s+(?:a|an|the)\s+(?:new\s+)?"
                     r"(?:[\w-]+\s+){0,2}?(?:job|post|position|role|chair|lectureship|professorship"
                     r"|fellowship|placement|residency|apprenticeship|internship)\s+"
                     r"(?:[\w-]+\s+){0,4}?(?:at|with))\s+" + _ORG),
           re.compile(r"\b(?:is|are)\s+(?:now\s+)?(?:an?\s+)?" + _ORG
                      + r"\s+(?:employee|staffer|hire)\b"))


def joined(text: str) -> re.Match[str] | None:
    """Where the text says its subject was taken on, as an event (`_JOINED`), or None."""
    return next((m for pattern in _JOINED if (m := pattern.search(text))), None)


def _org(text: str) -> Stems:
    m = WORK_FOR.search(text) or joined(text)
    return frozenset(w.stem(t) for t in w.tokens(m.group("org"))) - _GENERIC if m else frozenset()


_JOBLESS = frozenset(w.stem(x) for x in "unemployed jobless".split())
_KIND_WORDS = frozenset(w.stem(x) for x in _ORG_KINDS.split("|"))


def _named_part(org: Stems) -> Stems:
    """An organisation's name less the kind of organisation it names ("bank" in "Kaspi
    Bank"), unless that is all of it."""
    return org - _KIND_WORDS or org


def work_offer(n: Reading, o: Reading) -> str | None:
    """The newer fact says what its subject does now for or at an organisation the older fact
    does not name ("Linh designs checkout flows for Shopee these days"), and the older one
    where it works or what it works as, at another organisation: offered, since doing
    something for an organisation may be a client or a second job too."""
    if n.guard or n.additive or o.guard or n.kind == "experience" or "opinion" in (
            n.kind, o.kind) or not (n.now or joined(n.text)) or not (org := _org(n.text)):
        return None
    was = _org(o.text) or (o.value if o.relation in ("employer", "role") else frozenset()) or (
        o.words & _JOBLESS)  # "is unemployed" / "started a job at Brindle & Co"
    org, was = _named_part(org), _named_part(was)  # "Halyk Bank" is not "Kaspi Bank"
    if not was or org & o.words or was & n.words:
        return None  # the same organisation: another role there, or more detail
    return f"same topic: job; {HOLDS_NOW}"


# a commute told from where one lives: "her commute is now the S-Bahn from Potsdam", "commutes
# in from Reading these days"
COMMUTE = re.compile(r"\bcommut\w*\b[^.;]*?\bfrom\s+(?:the\s+)?(?P<place>(?-i:[A-Z])[\w'-]*)",
                     re.IGNORECASE)


def commute_offer(n: Reading, o: Reading) -> str | None:
    """The older fact says where its subject lives and the newer one, said to hold now, that
    it commutes from another place: offered, since a commute may start from elsewhere for a
    while (a stay with family, a second home)."""
    if n.guard or o.guard or n.additive or o.relation != "location" or not n.now \
            or not (m := COMMUTE.search(n.text)):
        return None
    if w.stem(m.group("place").lower()) in o.words:
        return None  # the same place: said again
    return f"same topic: home; {HOLDS_NOW}"


# a partner of one's own, named in passing: "Petronella and her fiancé set a date" (not "her
# ex-husband", "his late wife")
_PARTNER_OF = re.compile(r"\b(?:her|his|their|my|our)\s+(?:new\s+)?(?:fianc[ée]e?|wife|husband"
                         r"|girlfriend|boyfriend|partner|spouse)\b"
                         # or someone dated or seen: "has been seeing a guy called Anselmo" (not
                         # "is seeing Dr. Lund about her knee")
                         r"|\b(?:is|are|been|started|starts)\s+(?:dating\s+(?:a\s+|an\s+|someone"
                         r"|somebody|(?-i:[A-Z]))|seeing\s+(?:someone|somebody|an?\s+(?:guy|man"
                         r"|woman|girl|boy|lad|bloke)\b))", re.IGNORECASE)
_ALONE = frozenset(w.stem(x) for x in "single unattached unmarried".split())


def partner_offer(n: Reading, o: Reading) -> str | None:
    """The older fact says its subject is single and the newer one names a partner of its
    own in passing, or someone it is seeing: offered, since the partner may be the one the
    older fact already knew."""
    if n.guard or o.guard or n.additive or o.relation != "relationship" \
            or not o.value & _ALONE or not _PARTNER_OF.search(n.text):
        return None
    return "same topic: relationship; the newer fact names a partner of its own"


# away from work for a while, and back at it
AWAY = re.compile(r"\bon\s+(?:\w+\s+)?(?:leave|sabbatical|furlough|secondment)\b"
                  r"|\boff\s+(?:sick|work)\b"
                  r"|\bsigned\s+off\s+(?:work|sick)\b", re.IGNORECASE)
_HER_DESK = r"(?:work|(?:her|his|their|my|the)\s+(?:desk|job|office|post))"
RETURNED = re.compile(r"\b(?:is|are|was|were|came|got|has\s+been)\s+back\s+(?:at\s+" + _HER_DESK
                      + r"|to\s+work|on\s+the\s+(?:rota|wards?))|\breturned\s+to\s+" + _HER_DESK +
                      r"|\bback\s+from\s+(?:\w+\s+)?(?:leave|sabbatical|furlough|secondment)\b",
                      re.IGNORECASE)


def returned_offer(n: Reading, o: Reading) -> str | None:
    """The older fact says its subject is away from work (on leave, off sick) and the newer
    that it is back at work: "Zuzana is back at her desk full time" after "is on maternity
    leave" — offered, since the older fact may be about another absence."""
    away = AWAY.search(o.text)
    if n.guard or o.guard or away is None or not RETURNED.search(n.text):
        return None
    return f"same topic: {away.group()} and now back; {HOLDS_NOW}"


# closed for a while: "is closed for asbestos removal", "was shut until March", "is closed"
CLOSED_FOR = re.compile(r"\b(?:is|are|was|were|been|remains?|stays?)\s+(?:temporarily\s+|still\s+)?"
                        r"(?:closed|shut)(?:\s+(?:for|until|till|while|during|over)\b|$)",
                        re.IGNORECASE)
# open again: "reopened on Saturday", "is open again", "back open", "trains are stopping at
# Quenby station again"
OPEN_AGAIN = re.compile(r"\bre-?open(?:ed|s)\b|\bback\s+open\b|\b(?:open|running|stopping"
                        r"|serving|trading|operating)\b[^.;]{0,40}?\bagain\b", re.IGNORECASE)


def reopened_offer(n: Reading, o: Reading) -> str | None:
    """The older fact says its subject is closed for a while and the newer one that it is
    open or running again: "The Castlegate library is open again" after "is closed for
    asbestos removal" — offered, since the older closure may be another one."""
    if n.guard or o.guard or n.additive or not CLOSED_FOR.search(o.text) \
            or not OPEN_AGAIN.search(n.text):
        return None
    return f"status: closed and now open again; {HOLDS_NOW}"


# a place named as where the subject is now: "is in Launceston now", "Lublin residents", "has a
# flat in Monterrey", "unpacking in Västerås" (a capitalised name after "in", "to" or "near")
_IN_PLACE = re.compile(r"\b(?:in|to|into|near|outside)\s+(?:the\s+)?(?P<place>(?-i:[A-Z])[\w'-]*)")
# the slots a place may be named in without being a home: a job, a team, a manager ...
_NOT_HOME = frozenset({"employer", "role", "manager", "lead", "team", "relationship", "name",
                       "diet", "age", "platform", "use", "prefer"})


# where one lives, said of the place named before: "arrived in Villach on Tuesday; she lives
# there now"
_LIVES_THERE = re.compile(r"\b(?:lives?|living|resides|based|settled)\s+there\b", re.IGNORECASE)


def place_offer(n: Reading, o: Reading, slot_words: Stems) -> str | None:
    """The older fact says where its subject lives and the newer one, said to hold now or to
    have changed, names another place as where it is ("We're in Launceston now; the move went
    fine", "Vilhelm handed back the keys in Luleå and is unpacking in Västerås", "the moving
    truck arrived in Villach; she lives there now"): offered,
    since a place named now may be a stay, a job or a trip too."""
    if n.guard or o.guard or n.additive or n.again or n.kind == "experience" \
            or "opinion" in (n.kind, o.kind) or _relation(o) != "location" \
            or n.relation in _NOT_HOME or not _says_now(n) or _another_value_left(n, o) \
            or (other_thing_changed(n, o, slot_words) and not _LIVES_THERE.search(n.text)):
        return None  # "moved his savings to N26", "settled in at a hotel in Swansea for …"
    places = {w.stem(m.group("place").lower()) for m in _IN_PLACE.finditer(n.text)
              if m.group("place").isalpha()}
    if not places - o.words or not places & n.words:
        return None  # the same place, or only a name of the entity's own
    return f"same topic: home; {HOLDS_NOW}"
