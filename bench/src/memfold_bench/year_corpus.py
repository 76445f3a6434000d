"""A generated year of memory, written the way an agent writes it, with every planted change
and non-change known: the corpus of `memfold bench year`.

Deterministic: the same (seed, days, people) give the same facts, in the same order, with the
same bullets (one `random.Random(seed)`, entities and templates in fixed tables, nothing
iterated in hash order).

The world: people, orgs, projects and pets.  Each entity has *slots* (`SLOTS`: a person's
home city, employer, job title, car, diet, morning drink, stance on a tech topic, manager; a
project's database, CI system, hosting and lead; an org's headquarters; a pet's food and vet).
Each slot is stated early in the year (a *state* fact) and may change later (a *change* fact,
worded one of many ways: "moved to", "now lives in", "switched X from A to B", "A is gone;
B is our X now", "left Acme and joined Globex", passive and fronted forms, an alias of the old
value, an @mention inside the content).  Around them sit *non-changes* that share words and
entities with the slot but change nothing (plans, suggestions, questions, "under discussion",
pitches, another party's history, visits, additions, experiences naming the value, other
people's news, restatements, numbers in unrelated facts, opinions on other topics) and many
*plain* facts: experiences and observations about the entities.

Ground truth: every fact carries its `plant` (state, change, non-change, plain), a category
(the template's label), and for the facts planted beside a slot its subject and slot.  A
change `replaces` the keys of every earlier fact that stated the same subject's same slot's
value (its state, earlier changes and restatements; not the plans, questions or suggestions
about it, which stay true as history): a supersede is right exactly when the newer fact is a
change and the older one is among the keys it replaces.  A plan, suggestion or question
never names a value the slot later takes, so a later change never fulfils it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import groupby

STATE, CHANGE, NON_CHANGE, PLAIN = "state", "change", "non-change", "plain"

PEOPLE = ("Kenji", "Amara", "Dana", "Tomasz", "Ingrid", "Priya", "Omar", "Lucia", "Hamid",
          "Sofia", "Callum", "Yuki", "Marek", "Zainab", "Felix", "Ines", "Bruno", "Chidi",
          "Elke", "Rafael", "Nadia", "Soren", "Aiyana", "Viktor", "Thandiwe", "Declan",
          "Mei", "Jonas", "Farah", "Hugo")
ORGS = ("Acme", "Globex", "Initech", "Hooli", "Vandelay", "Umbrella", "Soylent", "Wonka",
        "Cyberdyne", "Tyrell")
PROJECTS = ("Atlas", "Beacon", "Cobalt", "Ember", "Falcon", "Granite", "Harbor", "Juniper",
            "Kestrel", "Lumen")
PETS = ("Biscuit", "Mochi", "Pepper", "Luna", "Pickle", "Tofu")

# Value pools; "person" is the other people of the world.
POOLS: dict[str, tuple[str, ...]] = {
    "city": ("Berlin", "Lisbon", "Zurich", "Oslo", "Bristol", "Leeds", "Porto", "Krakow",
             "Vienna", "Toronto", "Reykjavik", "Bergen", "Seville", "Tallinn"),
    "org": ORGS,
    "car": ("a 2014 Mazda3", "a 2019 Tesla Model 3", "a 2011 Volvo V70", "a 2021 Kia Niro",
            "a 2016 Honda Civic", "a 2018 Skoda Octavia"),
    "role": ("Data Engineer", "Product Manager", "Engineering Manager", "Designer",
             "Staff Engineer", "QA Analyst", "Team Lead"),
    "diet": ("vegetarian", "vegan", "pescatarian", "on a keto diet"),
    "drink": ("tea", "coffee", "matcha", "hot chocolate"),
    "stance": ("likes", "dislikes"),
    "database": ("PostgreSQL", "MySQL", "MongoDB", "SQLite", "CockroachDB", "DynamoDB"),
    "ci": ("Jenkins", "GitHub Actions", "GitLab CI", "CircleCI", "Buildkite"),
    "hosting": ("AWS", "Google Cloud", "Azure", "Hetzner", "Fly.io"),
    "food": ("salmon kibble", "chicken kibble", "a raw diet", "grain-free lamb kibble"),
    "vet": ("Dr. Okafor at Riverside Vets", "Dr. Lind at Harbour Animal Clinic",
            "Dr. Sato at Parkside Vets", "Dr. Evans at Hillcrest Vets"),
}
TOPICS = ("GraphQL", "Kotlin", "Rust", "TypeScript", "Tailwind", "microservices", "Kubernetes",
          "pair programming")
ALIASES = {"PostgreSQL": "Postgres", "GitHub Actions": "GH Actions", "Google Cloud": "GCP",
           "Amazon Web Services": "AWS"}
PLACES = ("the Lebanese place on Mill Road", "the canteen", "Café Nero", "the pier",
          "the noodle bar by the station", "the pub quiz night")
FEATURES = ("SSO", "dark mode", "CSV export", "audit logs", "an on-prem install")
COMPONENTS = ("nightly backup job", "billing module", "search indexer", "export worker",
              "login flow", "notification service")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@dataclass(frozen=True)
class Slot:
    """A slot, its holder kind, its value pool, and the templates that state it, change it,
    and sit beside it without changing it.

    Placeholders: {e} the holder (an entity name), {value} the value stated, {old}/{new} a
    change's values, {old_alias} the old value as an alias would name it, {other} a value the
    slot never takes, {q} another person, {topic} the stance's topic, {n} a number, {month}.
    """

    name: str
    holder: str  # person, project, org, pet
    pool: str
    states: tuple[str, ...]
    changes: tuple[tuple[str, str], ...]  # (label, template)
    beside: tuple[tuple[str, str], ...]  # non-changes: (category, template)


SLOTS: tuple[Slot, ...] = (
    Slot("home", "person", "city",
         ("W @{e}: {e} lives in {value}.", "W @{e}: {e} is based in {value}."),
         (("moved", "W @{e}: {e} moved from {old} to {new}."),
          ("moved-to", "W @{e}: {e} moved to {new}."),
          ("now-lives", "W @{e}: {e} now lives in {new}."),
          ("relocated", "W @{e}: {e} relocated to {new} last month."),
          ("home-is", "W @{e}: Home for {e} is {new} now."),
          ("left-settled", "W @{e}: {e} left {old} and settled in {new}."),
          ("fronted", "W @{e}: Since {month}, {e} has been living in {new}.")),
         (("plan", "W @{e}: {e} is thinking about moving to {other}."),
          ("visit", "B @{e}: {e} spent a week in {other} visiting friends."),
          ("other-news", "W @{e}: {e}'s sister moved to {other}."),
          ("question", "W @{e}: Is {e} moving to {other}? Need to ask."),
          ("suggestion", "O(c=0.5) @{e} @{q}: {q} thinks {e} should move to {other}."),
          ("restatement", "W @{e}: {e} still lives in {value}, {e} said again."),
          ("experience", "B @{e}: {e} showed us around the old town of {value}."))),
    Slot("employer", "person", "org",
         ("W @{e} @{value}: {e} works at {value}.",
          "W @{e} @{value}: {e} is employed by {value}."),
         (("left-joined", "W @{e} @{new}: {e} left {old} and joined {new}."),
          ("now-works", "W @{e} @{new}: {e} now works at {new}."),
          ("new-job", "W @{e} @{new}: {e} started a new job at {new}."),
          ("mention", "W @{e}: {e} works at @{new} now."),
          ("passive", "W @{e} @{new}: {e} was hired by {new} in {month}.")),
         (("offer-declined", "B @{e} @{other}: {e} interviewed at {other} but turned the "
                             "offer down."),
          ("pitch", "B @{e}: A recruiter from {other} pitched {e} a job."),
          ("plan", "W @{e}: {e} is considering leaving {value}."),
          ("other-history", "W @{e}: {e}'s previous company was bought by {other}."),
          ("restatement", "W @{e} @{value}: {e} still works at {value}."),
          ("experience", "B @{e} @{value}: {e} gave a talk at the {value} all-hands."))),
    Slot("role", "person", "role",
         ("W @{e}: The job title of {e} is {value}.", "W @{e}: {e} works as {value}."),
         (("promoted", "W @{e}: {e} was promoted from {old} to {new}."),
          ("title-now", "W @{e}: The title of {e} is now {new}."),
          ("moved-into", "W @{e}: {e} moved from {old} into a {new} role."),
          ("fronted", "W @{e}: Since {month}, {e} has been working as {new}.")),
         (("temporary", "W @{e}: {e} is acting {other} until the end of the month."),
          ("plan", "W @{e}: {e} is interviewing for {other} roles."),
          ("other-news", "W @{e} @{q}: {q} was promoted to {other}, {e} told us."),
          ("restatement", "W @{e}: {e} still works as {value}."))),
    Slot("car", "person", "car",
         ("W @{e}: {e} drives {value} with about {n},000 miles on it.",),
         (("sold-bought", "W @{e}: {e} sold {old} and bought {new}."),
          ("drives-now", "W @{e}: {e} drives {new} now."),
          ("replaced", "W @{e}: {e} replaced {old} with {new}.")),
         (("number", "B @{e}: {e} ran {n} miles on Saturday morning."),
          ("temporary", "B @{e}: {e} rented {other} for the holiday trip."),
          ("other-news", "W @{e}: {e}'s brother bought {other}."))),
    Slot("diet", "person", "diet",
         ("W @{e}: {e} is {value}.",),
         (("went", "W @{e}: {e} is {new} now, no longer {old}."),
          ("gave-up", "W @{e}: {e} gave up being {old}; {e} is {new} these days."),
          ("fronted", "W @{e}: Since {month}, {e} has been {new}.")),
         (("experience", "B @{e}: {e} tried a vegan restaurant downtown and liked it."),
          ("suggestion", "O(c=0.4) @{e} @{q}: {q} thinks {e} should try being {other}."),
          ("other-news", "W @{e}: {e}'s partner went {other} in {month}."))),
    Slot("drink", "person", "drink",
         ("O(c=0.8) @{e}: {e} prefers {value} in the morning.",),
         (("switched", "O(c=0.8) @{e}: {e} switched from {old} to {new} in the mornings."),
          ("gone-off", "O(c=0.7) @{e}: {e} has gone off {old}; it is {new} every morning "
                       "now.")),
         (("other-topic", "O(c=0.6) @{e}: {e} prefers WhatsApp to email for quick replies."),
          ("experience", "B @{e}: {e} tried {other} at the new café."),
          ("restatement", "O(c=0.8) @{e}: {e} still prefers {value} in the morning."))),
    Slot("stance", "person", "stance",
         ("O(c=0.8) @{e}: {e} {value} {topic}.",),
         (("now", "O(c=0.8) @{e}: {e} {new} {topic} now."),
          ("changed-mind", "O(c=0.7) @{e}: {e} changed their mind and now {new} {topic}."),
          ("fronted", "O(c=0.7) @{e}: These days {e} {new} {topic}.")),
         (("other-topic", "O(c=0.7) @{e}: {e} {other} working late on Fridays."),
          ("other-person", "O(c=0.6) @{q} @{e}: {q} {other} {topic}, says {e}."))),
    Slot("manager", "person", "person",
         ("W @{e} @{value}: {e}'s manager is {value}.",),
         (("mention", "W @{e}: {e}'s manager is now @{new}."),
          ("reports", "W @{e} @{new}: {e} reports to {new} since the reorg."),
          ("took-over", "W @{e} @{new}: {new} took over as {e}'s manager from {old}.")),
         (("other-person", "W @{q} @{value}: {q}'s manager is {value} too."),
          ("experience", "B @{e} @{value}: {e} had a long one-to-one with {value}."),
          ("question", "W @{e}: Will {other} become {e}'s manager? Unclear."))),
    Slot("database", "project", "database",
         ("W @{e}: The main database for {e} is {value}.", "W @{e}: {e} runs on {value}."),
         (("replaced", "W @{e}: We replaced {old} with {new} for {e}."),
          ("switched", "W @{e}: {e} switched its database from {old} to {new}."),
          ("gone", "W @{e}: {old} is gone; {new} is the database of {e} now."),
          ("cutover", "W @{e}: Cutover of {e} to {new} done; the old {old} cluster is "
                      "decommissioned."),
          ("alias", "W @{e}: The {e} team dropped {old_alias} in favour of {new}."),
          ("fronted", "W @{e}: Beginning with the {n}.0 release, {e} stores its data in "
                      "{new}.")),
         (("suggestion", "O(c=0.4) @{e}: We should switch the {e} database to {other}."),
          ("opinion", "O(c=0.5) @{e} @{q}: {q} thinks we should move {e} to {other}."),
          ("discussion", "W @{e}: A move of {e} to {other} is under discussion."),
          ("other-history", "W @{e} @{q}: {q}'s previous company switched to {other}."),
          ("pitch", "B @{e}: A vendor pitched us {other} for {e}."),
          ("question", "W @{e}: Is the main database of {e} {other} now? Need to check."),
          ("benchmark", "B @{e}: Benchmarked {other} against {value} for {e}; {value} "
                        "won."),
          ("restatement", "W @{e}: {e} still runs on {value}."))),
    Slot("ci", "project", "ci",
         ("W @{e}: {e} builds on {value}.", "W @{e}: The CI system for {e} is {value}."),
         (("moved", "W @{e}: {e} moved its CI from {old} to {new}."),
          ("gone", "W @{e}: {old} is gone; {new} is our CI for {e} now."),
          ("passive", "W @{e}: The {e} builds were migrated to {new}."),
          ("alias", "W @{e}: {e} dropped {old_alias} for {new}.")),
         (("trial", "B @{e}: Tried {other} on a branch of {e} for a week."),
          ("suggestion", "O(c=0.4) @{e} @{q}: {q} suggested moving {e} to {other}."),
          ("experience", "B @{e}: The {value} pipeline of {e} went red twice today."))),
    Slot("hosting", "project", "hosting",
         ("W @{e}: {e} is hosted on {value}.",),
         (("migrated", "W @{e}: We migrated {e} from {old} to {new}."),
          ("now", "W @{e}: {e} runs on {new} now."),
          ("fronted", "W @{e}: As of {month}, {e} is served from {new}.")),
         (("pitch", "B @{e}: {other} offered us free credits to move {e}."),
          ("addition", "W @{e}: {e} also keeps its backups on {other}."),
          ("discussion", "W @{e}: Moving {e} to {other} is under discussion."))),
    Slot("lead", "project", "person",
         ("W @{e} @{value}: {value} leads {e}.",),
         (("took-over", "W @{e} @{new}: {new} took over {e} from {old}."),
          ("now", "W @{e} @{new}: {new} is the lead of {e} now.")),
         (("experience", "B @{e} @{value}: {value} demoed {e} to the board."),
          ("other-project", "W @{q}: {q} leads the design review for {e} this week."))),
    Slot("hq", "org", "city",
         ("W @{e}: {e} is headquartered in {value}.",),
         (("moved", "W @{e}: {e} moved its headquarters from {old} to {new}."),
          ("now", "W @{e}: The head office of {e} is in {new} now."),
          ("passive", "W @{e}: The headquarters of {e} were relocated to {new}.")),
         (("addition", "B @{e}: {e} opened a sales office in {other}."),
          ("plan", "W @{e}: {e} is considering a second office in {other}."),
          ("visit", "B @{e}: Visited the {e} team in {other} for a workshop."))),
    Slot("food", "pet", "food",
         ("W @{e}: {e} eats {value}.",),
         (("switched", "W @{e}: We switched {e} from {old} to {new}."),
          ("vet-said", "W @{e}: {e} is on {new} now; the vet said to stop {old}.")),
         (("treat", "B @{e}: Bought a bag of {other} as a treat for {e}."),
          ("experience", "B @{e}: {e} stole a slice of ham off the table."))),
    Slot("vet", "pet", "vet",
         ("W @{e}: The vet of {e} is {value}.",),
         (("now-sees", "W @{e}: {e} now sees {new}."),
          ("moved", "W @{e}: We moved {e} to {new} after {old} retired.")),
         (("visit", "B @{e}: {e} had a check-up with {value}; all fine."),
          ("other-news", "W @{e}: Our neighbour's cat goes to {other}."))),
)

# Plain facts: experiences and observations about an entity, with no slot's value in them.
PLAIN_FACTS: dict[str, tuple[str, ...]] = {
    "person": ("B @{e}: Had lunch with {e} at {place}.",
               "B @{e}: {e} sent photos from a hike in the hills.",
               "B @{e} @{q}: {e} and {q} ran the quarterly planning session.",
               "S @{e}: {e} answers email fastest in the morning.",
               "B @{e}: Helped {e} debug a flaky integration test.",
               "B @{e}: {e} recommended a podcast about urban planning.",
               "S @{e}: {e} takes notes by hand in every meeting.",
               "B @{e}: Played badminton with {e} after work.",
               "O(c=0.6) @{e}: {e} finds the open-plan office too noisy."),
    "project": ("B @{e}: Refactored the {component} of {e}; customers stopped complaining.",
                "S @{e}: Customers ask for {feature} in almost every {e} sales call.",
                "B @{e}: Shipped {e} release {n}.{m}.",
                "B @{e}: Fixed a memory leak in the {component} of {e}.",
                "B @{e}: A full {e} test run took {n} minutes today.",
                "B @{e} @{q}: {q} demoed the new {e} dashboard to the sales team.",
                "B @{e}: Wrote the {e} incident review for last week's outage."),
    "org": ("B @{e}: {e} announced its quarterly results.",
            "S @{e}: The support team at {e} replies within a day.",
            "B @{e}: Met two people from {e} at a meetup.",
            "O(c=0.6) @{e}: The {e} website is hard to navigate."),
    "pet": ("B @{e}: Took {e} to the park.",
            "B @{e}: {e} chased a squirrel up an oak tree.",
            "S @{e}: {e} sleeps most of the afternoon.",
            "B @{e}: {e} got a new blue collar."),
}
HOLDERS = {"person": PEOPLE, "project": PROJECTS, "org": ORGS, "pet": PETS}


@dataclass(frozen=True)
class Planted:
    """One generated fact and what it is known to be."""

    key: str
    day: date
    bullet: str
    plant: str  # state, change, non-change, plain
    category: str  # the template's label
    subject: str | None = None  # for the facts beside a slot: whose slot, and which
    slot: str | None = None
    replaces: tuple[str, ...] = ()  # a change: the keys of the facts it makes untrue


@dataclass(frozen=True)
class Corpus:
    seed: int
    days: int
    start: date
    facts: tuple[Planted, ...]  # in date order
    entities: tuple[str, ...]

    def by_day(self) -> Iterator[tuple[date, list[Planted]]]:
        for day, facts in groupby(self.facts, key=lambda f: f.day):
            yield day, list(facts)


@dataclass
class _Draft:
    day: int
    order: int
    bullet: str
    plant: str
    category: str
    subject: str | None = None
    slot: str | None = None
    chain: int | None = None  # index of the slot chain it states a value of
    change: bool = False
    value: str | None = None  # the value a change makes current
    # another entity's slot and the value this fact states of it in passing ("{q}'s manager
    # is {value} too"): a later change of that slot to another value makes it untrue too
    states: tuple[str, str, str] | None = None


@dataclass
class _World:
    rng: random.Random
    days: int
    people: tuple[str, ...]

    orgs: tuple[str, ...]
    start: date
    drafts: list[_Draft] = field(default_factory=list)

    def add(self, day: int, bullet: str, plant: str, category: str, *,
            slot: tuple[str, str, int | None] | None = None, change: bool = False,
            value: str | None = None, states: tuple[str, str, str] | None = None) -> None:
        """A draft fact; `slot` (subject, slot name, chain) for one beside a slot, the chain
        only for one that states the slot's value; `states`, another entity's slot it
        states in passing."""
        subject, name, chain = slot or (None, None, None)
        self.drafts.append(_Draft(day, len(self.drafts), bullet, plant, category, subject,
                                  name, chain, change, value, states))

    def pool(self, slot: Slot, holder: str) -> list[str]:
        values = {"person": self.people, "org": self.orgs}.get(slot.pool) or POOLS[slot.pool]
        return [v for v in values if v != holder]

    def words(self, holder: str, day: int, **given: str) -> dict[str, str]:
        """Placeholders every template may use, beside the slot's own; {month} is the
        month of the fact's day."""
        others = [p for p in self.people if p != holder]
        r = self.rng
        return {"e": holder, "q": r.choice(others), "n": str(r.randint(3, 19)),
                "m": str(r.randint(0, 9)),
                "month": MONTHS[(self.start + timedelta(days=day)).month - 1],
                "place": r.choice(PLACES), "feature": r.choice(FEATURES),
                "component": r.choice(COMPONENTS), **given}


def _chain_days(rng: random.Random, first: int, days: int, changes: int) -> list[int]:
    """The day a slot is stated and the days it changes, at least two weeks apart."""
    out = [first]
    for _ in range(changes):
        low = out[-1] + 14
        if low >= days:
            break
        out.append(rng.randint(low, min(days - 1, low + days // 2)))
    return out


def _plant_slot(world: _World, slot: Slot, holder: str, chain: int) -> None:
    """One slot of one entity: its state, its changes, the non-changes beside it."""
    r, days = world.rng, world.days
    values = world.pool(slot, holder)
    if len(values) < 2:
        return
    when = _chain_days(r, r.randint(0, max(1, days // 15)), days, r.choice((0, 1, 1, 1, 2)))
    if slot.pool == "stance":  # likes, dislikes, likes ...
        first = r.randint(0, 1)
        taken = [values[(first + i) % 2] for i in range(len(when))]
    else:
        taken = r.sample(values, min(len(when), len(values)))
        when = when[:len(taken)]
    others = [v for v in values if v not in taken] or list(values)
    topic = r.choice(TOPICS)
    mine = (holder, slot.name, chain)
    words = world.words(holder, when[0], value=taken[0], topic=topic)
    text = r.choice(slot.states).format_map(words)
    world.add(when[0], text, STATE, "state", slot=mine)
    for i in range(1, len(when)):
        label, template = r.choice(slot.changes)
        old, new = taken[i - 1], taken[i]
        text = template.format_map(world.words(holder, when[i], old=old, new=new, topic=topic,
                                               old_alias=ALIASES.get(old, old)))
        world.add(when[i], text, CHANGE, label, slot=mine, change=True, value=new)
    for _ in range(r.choice((1, 2, 2, 3))):
        category, template = r.choice(slot.beside)
        day = r.randint(when[0] + 1, days - 1) if when[0] + 1 < days else when[0]
        value = taken[sum(1 for d in when if d <= day) - 1]
        words = world.words(holder, day, value=value, other=r.choice(others), topic=topic)
        text = template.format_map(words)
        world.add(day, text, NON_CHANGE, category,
                  slot=mine if category == "restatement" else (holder, slot.name, None),
                  states=(words["q"], slot.name, value) if "{q}'s " + slot.name in template
                  else None)


def _plant_plain(world: _World, kinds: Mapping[str, Sequence[str]],
                 per_day: float) -> None:
    r = world.rng
    holders = [(kind, name) for kind, names in kinds.items() for name in names]
    for day in range(world.days):
        for _ in range(int(per_day) + (r.random() < per_day % 1)):
            kind, holder = r.choice(holders)
            template = r.choice(PLAIN_FACTS[kind])
            world.add(day, template.format_map(world.words(holder, day)), PLAIN, "plain")


def _finish(world: _World, start: date) -> tuple[Planted, ...]:
    """Keys in date order; each change replaces the earlier facts of its chain, and those
    that stated its slot in passing (`_Draft.states`)."""
    ordered = sorted(world.drafts, key=lambda d: (d.day, d.order))
    facts: list[Planted] = []
    stated: dict[int, list[str]] = {}
    in_passing: dict[tuple[str, str], list[tuple[str, str]]] = {}  # `_Draft.states`
    for n, d in enumerate(ordered, 1):
        key = f"y{n:05d}"
        replaces = tuple(stated.get(d.chain, ())) if d.change and d.chain is not None else ()
        if d.change and d.subject and d.slot:
            replaces += tuple(k for k, value in in_passing.get((d.subject, d.slot), ())
                              if value != d.value)
        if d.states:
            in_passing.setdefault(d.states[:2], []).append((key, d.states[2]))
        facts.append(Planted(key, start + timedelta(days=d.day), d.bullet, d.plant,
                             d.category, d.subject, d.slot, replaces))
        if d.chain is not None:
            stated.setdefault(d.chain, []).append(key)
    return tuple(facts)


def generate(*, seed: int = 0, days: int = 365, people: int = 16,
             start: date = date(2025, 1, 1), plain_per_day: float = 6.5) -> Corpus:
    """A year (`days`) of memory about `people` people and the orgs, projects and pets
    around them."""
    if not 2 <= people <= len(PEOPLE):
        raise ValueError(f"people must be between 2 and {len(PEOPLE)}")
    if days < 30:
        raise ValueError("days must be 30 or more")
    rng = random.Random(seed)
    kinds = {"person": PEOPLE[:people], "org": ORGS[:max(3, min(len(ORGS), people // 3))],
             "project": PROJECTS[:max(3, min(len(PROJECTS), people // 3))],
             "pet": PETS[:max(2, min(len(PETS), people // 5))]}
    world = _World(rng, days, kinds["person"], kinds["org"], start)
    chain = 0
    for slot in SLOTS:
        for holder in kinds[slot.holder]:
            _plant_slot(world, slot, holder, chain)
            chain += 1
    _plant_plain(world, kinds, plain_per_day)
    entities = tuple(name for names in kinds.values() for name in names)
    return Corpus(seed, days, start, _finish(world, start), entities)
