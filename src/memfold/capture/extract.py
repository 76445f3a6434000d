"""Offline fact extraction: what a turn says about its speaker, people they name, and their
preferences, as Retain bullets.

Rules, not a model: a sentence is read when it is a statement (not a question) in the first
person, or says something about a named person ("Sam's allergic to peanuts").  Each becomes
one bullet about its speaker (or that person): a preference ("I'd rather…", "I prefer…",
"I love…") an opinion `O(c=0.8)`; a change of where someone lives or works, or a lasting state
("I live…", "I'm allergic…") a world fact `W`; something done (a past-tense verb) an
experience `B`; a plan or other first-person statement `W`.  How the bullet is worded
("I moved to Lisbon in March" -> "Moved to Lisbon (March 2025).", dates made absolute) is
`memfold.capture.wording`'s.

Pure and deterministic: the same turn on the same day gives the same bullets.  Only what
people say is read (an assistant's turns are not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from memfold.capture.wording import LEAD as _LEAD
from memfold.capture.wording import MONTHS, said
from memfold.capture.wording import PAST as _PAST
from memfold.workspace.format import FactSyntaxError, parse_bullet

MAX_CHARS = 300  # a longer sentence is rarely one fact; it stays in the prose
PASSING_CHARS = 100  # a shorter turn with one weak statement is a remark in passing

_NUMBERED = re.compile(r"\s*\d+[.)]\s+")
_NOT_PROSE = ("#", "`", "~", ">", "|")  # a heading, code, a quote or a table is not said
_ITEM = ("- ", "* ", "+ ")
_SENTENCE = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
_FIRST = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll|my|My|we|We|we're|We're"
                    r"|our|Our|me)\b")
_PREFER = re.compile(r"\b(?:I(?:'d|’d| would) (?:rather|prefer|like)|I (?:really |much |"
                     r"definitely )?(?:prefer|love|like|enjoy|hate|dislike|adore|can't stand"
                     r"|can’t stand)|my (?:favou?rite|go-to)|I'm (?:a (?:big |huge )?fan of|"
                     r"into|passionate about|not a fan of)|please (?:always|never|don't|keep))",
                     re.IGNORECASE)
# "work" is a job ("I work at the library"), not effort: the noun after "hard", "the", "some"…
# ("so much hard work") or work done together, hard or out ("we work well together")
_LASTING = re.compile(r"\b(?:moved|relocated|live|lived|living|(?<!hard )(?<!good )(?<!great )"
                      r"(?<!the )(?<!of )(?<!some )(?<!your )(?<!our )(?<!their )(?:work|works|"
                      r"worked|working)(?!(?: \w+ly| well| so)* together| hard| out|"
                      r" on (?:it|this|that)\b)|"
                      r"joined|quit|retired|married|divorced|engaged|born|grew up|allergic|"
                      r"vegan|vegetarian|diagnosed|adopted|graduated|hired|promoted|"
                      r"my (?:name|job|birthday|wife|husband|partner|son|daughter|kids?|"
                      r"children|sister|brother|mom|mother|dad|father|dog|cat|pet|friend))\b",
                      re.IGNORECASE)
_NAME = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+"  # a capitalised name, accents too ("Inês", "Zoë")
_KIN = (r"wife|husband|partner|son|daughter|sister|brother|mom|mum|mother|dad|father|friend|"
        r"boss|colleague|kid|dog|cat|teammate|coworker|co-worker|manager|neighbou?r|cousin|"
        r"aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|roommate|flatmate|"
        r"fianc[ée]e?|girlfriend|boyfriend|landlord|landlady|doctor|therapist|tutor|puppy|"
        r"kitten")
# "my sister Ana", "my teammate Priya": a person the speaker names by kin or role
_KIN_NAMED = re.compile(r"\b[Mm]y (?:\w+ )?(?:" + _KIN + r") (?:(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.? )?("
                        + _NAME + r")\b")
# a named third person ("Sam's allergic…", "Ana lives in…"); one named by kin ("my sister
# Ana") is in a first-person sentence, which is the speaker's (`_KIN_NAMED`)
_THIRD = re.compile(r"\b(" + _NAME + r")(?:'s|’s| lives| works| moved| loves| hates| prefers)"
                    r" (?:allergic|a |an |the |\w+ing|in |at |from |now |"
                    r"married|pregnant|moving|vegan|vegetarian|\w+ed)")
_ADDRESSED = re.compile(r"\b(?:you|your|you're|you’re|yours|yourself|ya|u)\b", re.IGNORECASE)
_HEDGED = re.compile(r"\b(?:might|maybe|perhaps|could|should|hope|hopefully|wish|if)\b",
                     re.IGNORECASE)
_SMALL_TALK = re.compile(r"^(?:thanks|thank you|(?:I )?(?:totally |100% |completely )?agree"
                         r"|(?:I )?(?:really )?appreciate|I bet|let['’]s|glad"
                         r"|check (?:out|it|this|these)|take a look|we can|we['’]ll|can['’]t wait"
                         r"|wish|good luck|congrats)"
                         r"\b", re.IGNORECASE)
_INVITING = re.compile(r"\blet['’]s\b", re.IGNORECASE)  # "In the meantime, let's…"
# "I'm so grateful for their support": thanks, in other words
_THANKS = re.compile(r"^I(?:['’]m| am) (?:(?:so|really|truly|super|very|just) )*"
                     r"(?:thankful|grateful) (?:for|to have) (?:all )?(?:the|your|their|his|her) "
                     r"(?:\w+ )?(?:support|help|love|kindness|encouragement|care|backing)\b",
                     re.IGNORECASE)
_SINGULAR = re.compile(r"\b(?:I|I['’](?:m|ve|d|ll)|my|me|mine|myself)\b", re.IGNORECASE)
_SHARED = re.compile(r"\b(?:we (?:can|could|all|will|must|need|should)|we['’]ll|us|each other)\b",
                     re.IGNORECASE)
_WORD = re.compile(r"\w+")
_RESOLVE = re.compile(r"\b(?:won['’]t|will not|never|not gonna|not going to) (?:ever )?(?:quit|"
                      r"give up|stop|back down|let (?:\w+ )+(?:get|bring|hold|stop))|\b(?:keep|"
                      r"keeps|keeping) (?:on )?(?:going|pushing|trying|believing|chasing|"
                      r"fighting|working|moving|at it|it up|shining|dreaming|learning|growing|"
                      r"improving|rocking|hustling)|\bgonna make it\b|\b(?:I['’]ll|I will|"
                      r"gonna|going to) (?:do|try) (?:my|our) (?:very )?(?:best|hardest)\b",
                      re.IGNORECASE)
# "It's amazing how…", "It's nice to know…", "It's great to see…": a musing on what was said
_MUSING = re.compile(r"^it(?:['’]s| is)(?: (?:so|really|always|just|truly|pretty|super|such))*"
                     r" (?:amazing|incredible|awesome|cool|nice|great|good|wonderful|inspiring|"
                     r"empowering|crazy|funny|interesting|comforting|reassuring|heartwarming)"
                     r" (to know|to see|how)\b", re.IGNORECASE)
# "Taking care of ourselves is key": a maxim, a gerund's verdict on what anyone should do
_MAXIM = re.compile(r"^[a-z]+ing\b.* (?:is|are) (?:so |really |super |very |truly |just )?"
                    r"(?:key|important|vital|essential|crucial|everything)\b", re.IGNORECASE)
# "I'm sure it helped", "I believe that…": a conviction, a judgement rather than a fact
_CONVICTION = re.compile(r"^I(?:['’]m| am) (?:so |pretty |really |quite |absolutely |totally )?"
                         r"(?:sure|certain|convinced)\b|^I (?:really |truly |firmly |strongly |"
                         r"do )?believe\b", re.IGNORECASE)
# "Pets are the best for…", "Life is sweeter when we…": a kind of thing, or life at large, as
# subject (a bare plural, not "this", "his", "its", "was"…), saying how it is for anyone
_KIND = re.compile(r"^(?!(?:this|his|hers|its|is|was|has|does|yes|us|thus|plus|as|less|"
                   r"always|sometimes|lots|perhaps|yours|ours|theirs|guess|unless)\b)"
                   r"(?:[a-z]+[^s']s|life|love|family|nature|art|music|kindness|friendship|"
                   r"change|time)\s+(?:(?:really|truly|always|just|often|sure|can|do)\s+)?"
                   r"(?:is|are|have|has|make|bring|give|help|matter|mean|keep|take|teach)"
                   r"\b", re.IGNORECASE)
# "Moments like these remind me…", "Little things like this…", "one of those days": what
# something shown or told brings to mind
_REFLECTION = re.compile(r"\b(?:moments?|things?|stuff|times?|days?) like (?:this|these|that|"
                         r"those)\b(?! (?:is|was|are|were)\b)|\bone of those (?:moments|days|"
                         r"times)\b", re.IGNORECASE)
_INTENSE = r"(?:(?:so|really|super|very|totally|pretty|kinda|kind of|a bit|a little|just|truly|"\
           r"also|still|more|even|extra)\s+)*"
_MOODS = (r"(?:excited|stoked|thrilled|happy|glad|grateful|thankful|lucky|blessed|nervous|scared|"
          r"proud|pumped|psyched|relieved|amazed|touched|moved|honou?red|overwhelmed|inspired|"
          r"motivated|hopeful|optimistic|sad|upset|worried|stressed|tired|exhausted|calm|relaxed|"
          r"connected|good|great|ok|okay|fine|bummed|anxious|content|fulfilled|energi[sz]ed|"
          r"peaceful|alive|loved|safe)")
# "I'm so excited!", "I was really excited", "It makes me feel calm": a mood with nothing it
# is about but a pronoun ("I'm stoked about this") says how a moment felt, nothing to keep
_MOOD_ONLY = re.compile(
    r"^(?:I(?:['’]m| am| was)(?: feeling)?|I (?:feel|felt)|(?:(?:it|this|that|they|these|those|"
    r"the \w+)\s+)?(?:really |always |just )?(?:makes?|made) me(?: feel)?)\s+" + _INTENSE + _MOODS
    + r"(?:\s*(?:,|and|&|but)\s+" + _INTENSE + _MOODS + r")*(?:\s+(?:about|for|with|by|of)\s+"
    r"(?:it|this|that|them|these|those|everything|all of (?:it|this)))?(?:\s+(?:too|as well|now|"
    r"again|already|right now))?$", re.IGNORECASE)
# "It's tough, but I'm determined", "It's been a wild ride but I'm loving it": a hardship that
# names nothing, then how the speaker takes it ("It's tough as a single parent, but…" names it)
_HARDSHIP = re.compile(
    r"^(?:it|this|that|things|life)(?:(?:['’]s| is| was|['’]ll be| will be|['’]s been| has been|"
    r" have been| had been)(?: (?:a bit|a little|so|really|pretty|super|quite|kinda|definitely|"
    r"sometimes|at times))* (?:tough|hard|not easy|a lot to take in|a lot|a wild ride|a crazy ride|"
    r"a long road|rough|difficult|challenging|scary|a struggle|a roller ?coaster)|(?: isn['’]t|"
    r" wasn['’]t|['’]s not| hasn['’]t been| won['’]t be)(?: (?:always|exactly))? easy)"
    r"(?: (?:lately|at times|sometimes|at first))?,?\s+but\s+(.+)$", re.IGNORECASE)
# "Here's one I did last week", "here's something I just finished": the picture is what is
# shown (its caption stays in the turn); the sentence names nothing of it
_SHOWN_ONLY = re.compile(r"^(?:and\s+|oh,?\s+)?(?:here['’]?s|here is|check (?:out )?this|this is)"
                         r"\s+(?:one|something)\b(?!\s+of\b)", re.IGNORECASE)
# "I'm still volunteering at the shelter", "Still working on the studio": an ongoing activity,
# not a mood or an effort ("I'm feeling…", "I'm trying…", "I'm doing great")
_ONGOING = re.compile(r"(?:\bI(?:['’]m| am)\s+|^(?=(?:still|currently)\s+\w+ing))(?:(?:still|also|"
                      r"just|now|currently|really|busy)\s+)*(?!(?:going|gonna|trying|feeling|"
                      r"thinking|hoping|wishing|wondering|loving|kidding|rooting|having|looking|"
                      r"getting|sending|saying|telling|talking|doing\s+(?:ok|okay|well|great|good|"
                      r"fine|better|alright|awesome|amazing|pretty|so|really|much|my best))\b)"
                      r"[a-z]{2,}ing\b", re.IGNORECASE)
_STILL = re.compile(r"^(?:still|currently)\s+\w+ing\b", re.IGNORECASE)  # its "I'm" dropped
_NAMED = re.compile(r"\b(?:named|called|name is|name['’]s)\s+[A-Z]")  # "his name is Kyle"
# "If you ever do it, let me know - I'd love to help": what follows a condition is conditional
_CONDITION = re.compile(r"^\W*if\b", re.IGNORECASE)
# "You've found your courage - that's important…": a clause pointing back at the one before
_POINTING_BACK = re.compile(r"^(?:that|this)(?:['’]s| is| was)\b", re.IGNORECASE)
_IMAGINED = re.compile(r"\bI (?:can|could) (?:only |just |totally )?imagine\b", re.IGNORECASE)
_REACTING = re.compile(r"^(?:it|this|that|these|those|they|which|what)\b", re.IGNORECASE)
_AS_SUBJECT = re.compile(r"\b(?:I|I['’](?:m|ve|d|ll)|my|mine)\b", re.IGNORECASE)
_AS_OBJECT = re.compile(r"\b(?:me|myself)\b", re.IGNORECASE)
_VOCATIVE = re.compile(r"^([A-Z][a-z]+(?<!ly)),\s+(?=[a-zI])")  # not "Sadly, I…"
_DASH = re.compile(r"\s*[-–—]+\s+|\s+[-–—]+\s*")
_ASIDE = re.compile(r"\s+[-–—]+\s+(?=[^-–—]*\?$)")
_DROPPED = re.compile(r"^(?:(?:just|recently|finally|also|actually|lately)\s+)*(been|got|went|"
                      r"took|made|bought|met|saw|had|did|began|left|won|ran|found|spent|"
                      r"started|finished|tried|joined|moved|visited|(?!(?:agreed|indeed|feed|"
                      r"speed|seed|excited|thrilled|stoked|pumped|blessed|loved|liked|wanted|"
                      r"needed|sounded|looked|seemed|used|tired|amazed|impressed|touched|"
                      r"inspired|based|bored|scared|worried|stressed|surprised|interested|"
                      r"confused|exhausted|overwhelmed|talented|wicked|sacred|beloved|red|bed)"
                      r"\b)\w+ed)\b", re.IGNORECASE)  # not "Indeed…", "Feed…", "Stressed…"
_CAPTION = re.compile(r"\[image:[^\]]*\]")
_REACTION = re.compile(r"\b(?:love|like|adore) (?:how|that|it|this|these|those|all|the way)\b",
                       re.IGNORECASE)
# a time, a habit or a plan, as whole words: "every day", not "everyone"; "each week", not
# "each other"
_WHEN = re.compile(r"\b(?:yesterday|tomorrow|tonight|today|ago|since|each(?! other)|"
                   r"every(?!one|thing|body|where)|weekend|"
                   r"often|usually|regularly|weekly|daily|monthly|nightly|twice|once a|"
                   r"(?:last|next|this) \w+|(?:gonna|going to|planning|plan|about to)\b|"
                   r"\d+|(?:mon|tues|wednes|thurs|fri|satur|sun)day|" + "|".join(MONTHS)
                   + r")\b", re.IGNORECASE)
_NOT_NAMES = frozenset(("I", "It", "This", "That", "There", "Here", "What", "Which", "Who",
                        "He", "She", "They", "We", "You", "My", "Our", "The", "A", "An",
                        "And", "But", "So", "Oh", "Yes", "No", "Wow", "Hey", "Hi", "Thanks",
                        "Today", "Yesterday", "Tomorrow", "Everything", "Everyone", "Life",
                        "Nothing", "Something", "Someone", "Plus", "Now", "Then", "Still", "Sure",
                        "Yep", "Yup", "Woah", "Whoa", "Lately", "Recently", "Unfortunately",
                        *MONTHS))
_NOT_ADDRESSED = frozenset(("Tonight", "Sometimes", "Once", "Later", "Earlier", "Soon",
                           "Eventually", "Meanwhile", "Afterwards", "Personally", "Otherwise"))
_CONTRACTION = re.compile(r"I['’](?:m|d|ve|ll)")  # "I'm" inside a sentence is no name


@dataclass(frozen=True)
class Extracted:
    """One fact a turn states: kind letter, who it is about, the content (a sentence in the
    third person, ending with '.'), and the confidence for opinions."""

    kind: str
    entity: str
    content: str
    confidence: float | None = None
    also: tuple[str, ...] = ()  # others it is about: "my sister Ana …" is Ana's too

    def bullet(self, cite: str) -> str:
        params = f"(c={self.confidence:g})" if self.confidence is not None else ""
        names = " ".join(f"@{e}" for e in (self.entity, *self.also))
        return f"{self.kind}{params} {names}: {self.content} {cite}".rstrip()


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def extract(text: str, *, speaker: str, day: date) -> list[Extracted]:
    """The facts in one turn of `speaker` on `day`, in the order said, without repeats.

    A short turn that states a single thing only in passing (no event, time, name, number,
    plan, relation or lasting state: "Having my family around helps a lot.") gives nothing:
    the turn itself stays searchable verbatim."""
    found: dict[tuple[str, str], tuple[Extracted, str]] = {}
    for sentence in sentences(text):
        fact = _one(sentence, speaker, day) or _after_dash(sentence, speaker, day)
        if fact is not None:
            key = (fact.entity.casefold(), fact.content.casefold())
            found.setdefault(key, (fact, sentence))
    if len(found) == 1 and len(_CAPTION.sub("", text)) < PASSING_CHARS \
            and not _telling(next(iter(found.values()))[1]):
        return []
    return _distinct([fact for fact, _ in found.values()])


def _after_dash(sentence: str, speaker: str, day: date) -> Extracted | None:
    """A fact after a dash in a sentence that as a whole gives none ("Thanks for asking - we
    got another cat last week", "Just a heads up for you - I took a writing class")."""
    first, *rest = _DASH.split(_CAPTION.sub("", sentence))
    if _CONDITION.match(_plain(first)):
        return None  # "If you ever do it - I'd love to help": only possible
    for clause in rest:
        fact = None if _POINTING_BACK.match(clause) else _one(clause, speaker, day)
        if fact is not None:
            return fact
    return None


def _distinct(facts: list[Extracted]) -> list[Extracted]:
    """One bullet per fact: a fact whose words another fact of the turn about the same
    entity all says ("Moved to Lisbon." beside "Moved to Lisbon (March 2025).") is left out."""
    words = [(f.entity.casefold(), frozenset(_WORD.findall(f.content.casefold())))
             for f in facts]
    return [fact for n, (fact, (who, said)) in enumerate(zip(facts, words, strict=True))
            if not any(m != n and other_who == who and said < other
                       for m, (other_who, other) in enumerate(words))]


def _markup(sentence: str) -> bool:
    """Headings, code, quotes, tables and text shaped like a Retain bullet are not
    statements (whether it is a bullet is workspace.format's to say)."""
    text = sentence.strip()
    if text.startswith(_NOT_PROSE):
        return True
    try:
        parse_bullet(_unlisted(text))
    except FactSyntaxError:
        return False
    return True


def _unlisted(sentence: str) -> str:
    text = sentence.strip()
    return text[2:].lstrip() if text[:2] in _ITEM else _NUMBERED.sub("", text, count=1)


def _one(sentence: str, speaker: str, day: date) -> Extracted | None:
    if _markup(sentence):
        return None
    plain = _plain(sentence)
    if not plain or plain.endswith("?") or len(plain) > MAX_CHARS or len(plain.split()) < 4:
        return None
    if _RESOLVE.search(plain) or _IMAGINED.search(plain) or _CONVICTION.match(plain):
        return None  # "I won't give up", "I can imagine…", "I'm sure…": not a fact
    if _musing(plain) or _reflection(plain):
        return None  # "It's amazing how…", "Moments like these…": said of anyone
    if _nothing_kept(plain) or _taken_in_stride(plain):
        return None  # "I was really excited", "It's tough, but I'm determined": nothing told
    if _REACTING.match(plain) and _AS_OBJECT.search(plain) and not _AS_SUBJECT.search(plain):
        return None  # "It really inspired me": how something struck the speaker
    if _PREFER.search(plain):
        if _REACTION.search(plain) and not _telling(plain):
            return None  # "I love how it looks": a reaction to what was shown
        return Extracted("O", speaker, _content(plain, day), 0.8)
    if _ADDRESSED.search(plain) or _HEDGED.search(plain):
        return None  # said to the listener, or only possible: not a fact about anyone
    if _SMALL_TALK.match(plain) or _INVITING.search(plain) or _THANKS.match(plain):
        return None  # thanks, agreement, an invitation: about the talk, not a person
    if _FIRST.search(plain) or _DROPPED.match(plain) or _STILL.match(plain):
        if _SHARED.search(plain) and not (_SINGULAR.search(plain) or _telling(plain)):
            return None  # "we can do it", "our bonds are special": a shared sentiment
        dropped = _DROPPED.match(plain)
        done = _PAST.search(plain) or (dropped and dropped.group(1).casefold() != "need")
        kind = "W" if _LASTING.search(plain) or not done else "B"
        return Extracted(kind, speaker, _content(plain, day), also=_kin_named(plain, speaker))
    third = _THIRD.search(plain)
    name = third and third.group(1)
    if name and name not in _NOT_NAMES and name != speaker:
        return Extracted("W", name, _content(plain, day))
    return None


def _kin_named(plain: str, speaker: str) -> tuple[str, ...]:
    """The person a first-person statement names by kin ("my sister Ana is allergic to
    peanuts", "my boss Priya moved to Berlin"): the fact is theirs too."""
    kin = _KIN_NAMED.search(plain)
    name = kin.group(1) if kin else None
    return (name,) if name and name not in _NOT_NAMES and name != speaker else ()


def _nothing_kept(plain: str) -> bool:
    """A statement with nothing to keep: a mood with nothing it is about ("I was really
    excited", "I'm stoked about this", "Makes me feel connected") or a picture pointed at by
    a pronoun ("Here's one I did last week"; its caption stays in the turn)."""
    bare = _CAPTION.sub("", plain).strip().rstrip(" .!…")
    return bool(_MOOD_ONLY.match(bare) or _SHOWN_ONLY.match(bare))


def _taken_in_stride(plain: str) -> bool:
    """A hardship that names nothing, then how the speaker takes it, telling nothing either:
    "It's tough, but I'm determined", "It wasn't easy, but I'm doing ok"."""
    hardship = _HARDSHIP.match(_CAPTION.sub("", plain).strip().rstrip(" .!…"))
    return hardship is not None and not _telling(hardship.group(1))


def _musing(plain: str) -> bool:
    """A remark about how things are for anyone rather than about the speaker: "It's amazing
    how a walk can change our outlook", "It's nice to know …" (what the speaker knows or
    sees of their own is a reaction all the same), "Investing in our kids is key", "Pets
    are the best for lifting our spirits" (a kind of thing as subject); one
    that says "I" or "my" ("It's amazing how my garden has grown") is kept, except after
    "to know"."""
    musing = _MUSING.match(plain)
    if musing and musing.group(1).casefold() == "to know":
        return True
    general = musing or _MAXIM.match(plain) or _KIND.match(plain)
    return bool(general and not _SINGULAR.search(plain))


def _reflection(plain: str) -> bool:
    """"Moments like these remind me how lucky I am": a reflection on what was shown or
    told, unless the rest of the sentence tells something (`_telling`)."""
    return bool(_REFLECTION.search(plain)) and not _telling(_REFLECTION.sub("", plain))


def _plain(sentence: str) -> str:
    """What a sentence states: without list markup, quotes, leading interjections, a name
    it is addressed to ("Maria, I…") and a question tacked on after a dash ("I finished
    it - want to see?")."""
    plain = _LEAD.sub("", _unlisted(sentence).strip().strip("\"'“”")).strip()
    vocative = _VOCATIVE.match(plain)
    if vocative and vocative.group(1) not in _NOT_NAMES | _NOT_ADDRESSED \
            and not _WHEN.fullmatch(vocative.group(1)):
        plain = _LEAD.sub("", plain[vocative.end():])
    return _ASIDE.split(plain, maxsplit=1)[0] if plain.endswith("?") else plain


def _telling(sentence: str) -> bool:
    """Whether a sentence says something that tells about someone: an event (a past-tense
    verb), a time or a habit ("every day", "often"), a lasting state or relation, an ongoing
    activity, a plan, a name or a number."""
    text = _CAPTION.sub("", sentence)
    if _PAST.search(text) or _LASTING.search(text) or _WHEN.search(text):
        return True
    if _ONGOING.search(text) or _NAMED.search(text):
        return True  # "I'm still volunteering at the shelter", "his name is Kyle"
    if _DROPPED.match(_LEAD.sub("", text.strip())):
        return True  # "Got a new bike.": something done, its "I" left out
    if _PREFER.search(text) and not _REACTION.search(text):
        return True
    words = text.strip(" .!?").split()
    return any(_named(words, n) for n in range(1, len(words)))


def _named(words: list[str], n: int) -> bool:
    """A capitalised word inside a sentence that is not a greeting's name ("Thanks, Mel")."""
    word = words[n].strip("\"'()“”")
    bare = word.rstrip(",;:!")
    if not word[:1].isupper() or bare.rstrip("'’s") in _NOT_NAMES \
            or _CONTRACTION.fullmatch(bare):
        return False
    vocative = word.endswith(",") or words[n - 1].endswith(",") or n == len(words) - 1
    return not vocative or word.isupper()


def _content(sentence: str, day: date) -> str:
    """What a sentence says, as a bullet writes it (`wording.said`); an image's caption
    ("[image: a photo of …]") is what was shown, not said, and stays in the turn."""
    return said(_CAPTION.sub("", sentence), day)
