"""A diet and what breaks it, for the rule judge: "Osric is vegetarian" and then "Osric
ordered the steak frites" is offered (judge.unread), never taken: a slip or a change of diet,
a person says which."""

from __future__ import annotations

import re

from memfold.lifecycle.judge import words as w
from memfold.lifecycle.judge.reading import Reading

# a diet and the food that breaks it: "is vegetarian" / "ordered the steak frites"
_MEAT = "meat steak beef pork bacon ham lamb chicken turkey sausage burger veal venison duck " \
    "mince brisket ribs chorizo salami pepperoni kebab"
_FISH = "fish salmon tuna cod prawn shrimp sushi seafood anchovy mussel oyster"
_ANIMAL = "cheese milk egg butter honey yoghurt yogurt cream"
# the words of those foods as written, for the judge's signature (judge.signature)
FOOD_WORDS = frozenset(x + s for x in f"{_MEAT} {_FISH}".split() for s in ("", "s"))
_BROKEN_BY = {w.stem(diet): frozenset(w.stem(x) for x in foods.split()) for diet, foods in (
    ("vegetarian", _MEAT), ("veggie", _MEAT), ("pescatarian", _MEAT),
    ("vegan", f"{_MEAT} {_FISH} {_ANIMAL}"))}
# eating it, by the one whose diet it is: "ate", "ordered", "tucked into" (not "cooked ... for")
_ATE = re.compile(r"\b(?:ate|eats|eating|eaten|ordered|orders|enjoyed|enjoys|devoured|tucked"
                  r"\s+into|tucks\s+into|(?:has|had)\s+(?:a|the|some)|is\s+back\s+on)\s+"
                  r"(?P<food>(?:[\w'-]+\s+){0,3}[\w'-]+)", re.IGNORECASE)
# a dish without the animal: "the vegetarian burger", "plant-based sausages"
_NO_ANIMAL = re.compile(r"\b(?:vegetarian|veggie|vegan|plant-based|meat-free|meatless|fake|mock"
                        r"|faux|tofu|seitan|quorn|impossible|beyond|substitute)\b", re.IGNORECASE)

# eating it denied or ended: "has not gone back to eating meat", "gave up eating fish"
_NOT_BEFORE = re.compile(r"\b(?:not|never|no\s+longer|nor|refus\w*|stopp?\w*|gave\s+up|give\s+up"
                         r"|avoid\w*|quit\w*|cut\s+out)\b[^.;,]*$", re.IGNORECASE)


def diet_offer(n: Reading, o: Reading) -> str | None:
    """The older fact gives a diet and the newer one says the entity ate what it leaves out:
    offered (a slip or a change of diet; a person says which)."""
    if n.guard or n.additive or o.guard or (o.relation != "diet" and not o.words & set(_BROKEN_BY)):
        return None
    banned = frozenset().union(*(f for d, f in _BROKEN_BY.items() if d in o.words))
    for m in _ATE.finditer(n.text):
        food = {w.stem(t) for t in w.tokens(m.group("food"))}
        if food & banned and not _NO_ANIMAL.search(n.text) \
                and not _NOT_BEFORE.search(n.text[:m.start()]):
            return f"diet: the newer fact says it ate {_text_of(food & banned)!r}"
    return None


def _text_of(stems: set[str]) -> str:
    return " ".join(sorted(stems))
