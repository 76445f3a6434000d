"""Someone's life moved on: a person moved house or town, or left a job, and an older fact
says where they lived or what they did.

"Ottilie teaches violin in Northcote" and, later, "Ottilie lives in Prenzlauer Berg in
Berlin now"; "Brodie Kaur is one of my senior paramedics at Redcliffe" and "Brodie resigned
from QAS".  The rules read a slot when both facts word it alike; these pairs share the person
and nothing else, so no rule relates them, yet a reader sees at once that the older fact may
no longer hold.  They are offered, never made by themselves: a person who moved may keep a
job, and one who left a job may stay in town.

The newer fact must be said of the person (their name begins it: "Tad's last day at Mesa
Cycle Works" is said of Tad, "Camila's family moved" of her family), and the older fact
too, as a state of theirs: where they live, or what they are or do.  English only.

The user's own home is told the same way: "We live in a four-bed bungalow on Knappogue Road
in Quin" after "We rent a three-bed semi-d on Clonroad in Ennis" (`rented_home`) — a rented
place, its rent or its landlord, and where one lives now, naming none of its places.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.pieces import exploring, keys_of, name_pattern, written_name
from memfold.names import entity_key
from memfold.values import Fact

# moved house or town: "moved to Castlemaine", "has moved into a bedsitter", "moved out to
# Sydney", "lives in Tokyo now", "relocated to Leeds"
_MOVED = re.compile(
    r"\b(?:(?:has\s+|have\s+|just\s+)?(?:moved|is\s+moving|are\s+moving|relocated|relocating)"
    r"\s+(?:back\s+)?(?:to|into|out|away|abroad|in\s+with|over\s+to|house)\b"
    r"|(?:lives|is\s+living|is\s+based)\s+(?:in|at|with)\b[^.;]*\bnow\b"
    r"|now\s+(?:lives|is\s+living|is\s+based)\s+(?:in|at|with)\b)", re.IGNORECASE)
# left a job or took another: "resigned from QAS", "last day at Tern", "was laid off",
# "is leaving Tidemark", "works at a climate nonprofit now", "has taken a job at"
_LEFT = re.compile(
    r"\b(?:left|quit|resigned|retired|retiring|is\s+leaving|handed\s+in\s+(?:his|her|their)"
    r"\s+notice|(?:was|were|got|been)\s+(?:laid\s+off|let\s+go|made\s+redundant|fired|sacked)"
    r"|last\s+(?:day|shift|week)\s+(?:at|with|on|in)|(?:his|her|their|['’]s)\s+last\s+(?:day|shift)"
    r"|moved\s+(?:over\s+|across\s+)?to\s+(?:the\s+|a\s+|another\s+)?(?:[\w-]+\s+){0,3}"
    r"(?:team|squad|department|unit|ward|desk|branch|role|group)"
    r"|(?:has\s+)?taken\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}(?:job|post|role|position)"
    r"|(?:works|is\s+working)\s+(?:as|at|for)\b[^.;]*\bnow\b|now\s+works\s+(?:as|at|for)"
    r"|(?:started|starts|is\s+starting)\s+(?:a\s+new\s+job|work)\s+(?:as|at|with)"
    r"|has\s+been\s+promoted)\b", re.IGNORECASE)
# where someone lives, in an older fact
_LIVES = re.compile(r"\b(?:lives|living|is\s+based|based\s+in|housemate|flatmate|roommate"
                    r"|neighbour|neighbor|next\s+door|down\s+the\s+road|staying|stays"
                    r"|moved\s+in)\b", re.IGNORECASE)
# what someone is or does, in an older fact: "is a sound engineer at", "is my apprentice",
# "is one of my senior paramedics", "works in a bookshop", "teaches violin", "heads the unit"
_DOES = re.compile(r"\b(?:works?|working|teaches|manages|heads|leads|runs|drives\s+for|does|plays"
                   r"|(?:is|are|has\s+been|have\s+been)\s+(?:a|an|the|my|our|one\s+of\s+"
                   r"(?:my|our|the))\b"
                   r"|(?:my|our)\s+(?:[\w-]+\s+){0,2}(?:manager|boss|colleague|apprentice"
                   r"|mechanic|drummer|partner|engineer|designer))\b", re.IGNORECASE)
# a name after these is an object or a place, not who the sentence is about: "Works at Acme"
_BEFORE_AN_OBJECT = frozenset("at in for with to from on of by into about works joined left "
                              "visited met saw called".split())
_IN_PLACE = re.compile(r"\bin\s+(?-i:[A-Z])")  # "a sound engineer in Melbourne"
# "Camila's family", not "Tad's last day" nor "Isla's quit" (has quit)
_POSSESSED = re.compile(r"^\s*['’]s\s+(?!last\b|(?:quit|left|moved|gone|been|got|taken|started"
                        r"|resigned|retired)\b)")


def _said_of(fact: Fact, key: str) -> bool:
    """Whether the person `key` begins the fact's sentence ("Dr. Kofi Mensah is", "My son
    Corey lives", "Tad's last day"), not another person of theirs."""
    m = re.search(rf"(?<!@){name_pattern(key)}", fact.content[:60], re.IGNORECASE)
    before = re.findall(r"\w+", fact.content[:m.start()].lower()) if m else []
    return m is not None and not _POSSESSED.match(fact.content[m.end():]) \
        and len(before) <= 4 and not set(before) & _BEFORE_AN_OBJECT


def moved_on(new: Fact, older: Sequence[Fact], said: Sequence[Verdict]) -> list[Verdict]:
    """Offers for the older facts no rule had a word on (`said`: the verdicts made) that say
    where a person lived or what they did, when the newer fact says that person moved or
    left a job."""
    moved, left = _MOVED.search(new.content), _LEFT.search(new.content)
    if new.kind == "opinion" or not (moved or left) or exploring(new):
        return []
    people = [k for e in new.entities if (k := entity_key(e)) != "me" and _said_of(new, k)]
    weighed = {v.id for v in said}
    found = []
    for old in older:
        if old.id in weighed or old.id == new.id or old.kind != "world" or exploring(old):
            continue
        keys = keys_of(old.entities)
        who = next((k for k in people if k in keys and _said_of(old, k)), None)
        if who is None:
            continue
        lived = moved and (_LIVES.search(old.content) or _DOES.search(old.content)
                           and _IN_PLACE.search(old.content))
        if lived or left and _DOES.search(old.content):
            name = written_name(new, frozenset({who}))
            what = "moved" if lived else "left or changed a job"
            found.append(Verdict(old.id, False, f"the newer fact says {name} {what}; what the "
                                                f"older one says may no longer hold", offer=True))
    return found


# where one lives, said now: "We live in ...", "I live at 14 Cloughleigh Park"
_LIVE_NOW = re.compile(r"^(?:(?:i|we)\s+(?:now\s+)?live|(?:i|we)\s+are\s+living|home\s+is\s+now)"
                       r"\s+(?:in|at|on|with)\b", re.IGNORECASE)
# a rented home, its rent or landlord: "We rent a three-bed semi-d", "Rent on Clonroad is"
_RENTED = re.compile(r"\b(?:rent|rents|renting|rented|landlord|landlady|lease|sublet)\b",
                     re.IGNORECASE)
_PLACE = re.compile(r"\b(?-i:[A-Z])[\w'’-]+")


def rented_home(new: Fact, older: Sequence[Fact], said: Sequence[Verdict]) -> list[Verdict]:
    """Offers for the older facts no rule had a word on that tell a rented home, when the
    newer fact says where one lives now and names none of its places."""
    if new.kind != "world" or not _LIVE_NOW.search(new.content) or exploring(new):
        return []
    keys, weighed = keys_of(new.entities), {v.id for v in said}
    places = set(_PLACE.findall(new.content))
    return [Verdict(old.id, False, "the newer fact says where one lives now; the older one "
                                   "tells a rented home", offer=True)
            for old in older if old.id not in weighed and old.id != new.id
            and old.kind == "world" and keys & keys_of(old.entities)
            and _RENTED.search(old.content) and not exploring(old)
            and not set(_PLACE.findall(old.content[1:])) & places]


__all__ = ["moved_on", "rented_home"]
