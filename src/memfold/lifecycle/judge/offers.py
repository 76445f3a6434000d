"""Offers: a change the rules cannot read for sure, reported as a conflict, never taken.

When no rule settles a pair, the newer fact may still be a change the rules could not read:
"Gunnhild is a dispatcher for @Corvid-Logistics now" after "works at @Northwind-Freight as a
dispatcher", "Ingram now sees Dr. Holt" after "Ingram's GP is Dr. Vance", "As of this autumn,
all of Pomona's flour is milled by Stoneground Co-op" after "comes from Millers of Dunmore".
Such a pair is offered — left active and named in the retain's `conflicts`, for the agent or
the person to confirm — when the newer fact, about the same subject (the caller checked),

- says it holds now or changed ("now", "these days", a fronted "As of …", a change verb, an
  end, a change of mind), is not guarded (a plan, a question, someone else's news, a
  restatement …) and adds nothing beside the older value ("also", "too");
- shares the older fact's slot: a topic word, the class of its slot word (a home, a job, a
  name, a relationship, a role, a diet, a manager, a team, a liking), or a product family;
- and gives a value the older fact does not name.

An older fact about someone else ("Filippa's son Teo attends Westbrook Primary") is weighed
only when the newer fact speaks of the same someone ("Teo started at Cedar Hill Primary").

Nothing is retired this way: a wrong offer costs a look, a wrong supersede hides a true fact.
"""

from __future__ import annotations

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.reading import Reading, Stems

_GENERIC = frozenset(w.stem(x) for x in w.GENERIC)
# words that say when or how, not what: they are no value of a slot
_NOT_VALUES = frozenset(w.stem(x) for x in (
    "now these days nowadays since anymore any more longer instead only officially switched "
    "moved started starting beginning onwards onward effective going forward spring summer "
    "autumn fall winter month week year quarter season today recently lately new").split())
SLOT_TAGS = ("#loc", "#job", "#name", "#rel", "#role", "#diet", "#boss", "#team", "#like")
_SLOT_LABELS = {"#loc": "home", "#job": "job", "#name": "name", "#rel": "relationship",
                "#role": "role", "#diet": "diet", "#boss": "manager", "#team": "team",
                "#like": "liking"}


def _says_now(n: Reading) -> bool:
    return bool(n.now or n.changes or n.ends or n.reversal or n.parted)


def slot_offer(n: Reading, o: Reading, tags: Stems, topic: Stems,
               slot_words: Stems) -> str | None:
    """Why the pair is offered as a possible change (see the module docstring), or None.
    `tags` are the slot classes and product families the two facts' words share, `topic`
    the content words they share, as the rules compare them; `slot_words` the words that
    name a slot ("home", "job"): a change of another thing that takes one ("got the keys to
    her own place") still speaks of the slot."""
    if n.guard or n.additive or n.again or not _says_now(n) or (
            o.guard and not (o.guard == "third-party" and o.subject & n.words)):
        return None
    if n.kind == "experience" and not (n.changes or n.ends):
        return None  # "ran 10 miles": an event, not a state said to hold now
    value = n.words - o.words - _GENERIC - _NOT_VALUES - n.kept
    if not value:
        return None  # nothing the older fact does not already say
    shared = topic - {x for x in topic if w.is_number(x)}
    if shared:
        return f"same topic: {' '.join(sorted(shared))}; the newer fact says it holds now"
    if any((thing := c.obj | c.old) and not thing & o.words and not c.new & slot_words
           for c in n.changes):
        return None  # "moved his desk upstairs", "renamed his boat": another thing changed
    slots = sorted(_SLOT_LABELS[t] for t in tags if t in _SLOT_LABELS)
    families = sorted(t[1:] for t in tags if t.startswith("#") and t not in SLOT_TAGS
                      and t not in ("#number", "#email", "#status"))
    if slots or families:
        return f"same topic: {(slots or families)[0]}; the newer fact says it holds now"
    return None
