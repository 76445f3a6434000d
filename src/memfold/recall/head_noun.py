"""The thing a question asks for: the head noun of its wh-phrase (`recall.weak`).

"Which *gym* did Omar join?", "what's Dana's blood *type*?", "who is our broadband
*provider*?": a question that opens with "which"/"what" and a noun, or with "what's"/"who
is" and a noun phrase, names the thing its answer is — the last word of that phrase, past
its owner ("Dana's") and past a frame and "of" ("the *name of* Rhys's girlfriend", "what
*kind of* dog").  A fact that holds the question's other words but not that thing tells of
its person, place or event, not of what is asked: "Omar joined a cycling club" does not say
which gym.  When the last word only frames (`FRAME_WORDS`: "blood *type*", "phone
*number*", "marathon *time*"), the head is the word before it with the frame: the pair is
asked whole, and the frame word may be held as an answer of its kind (a time by 1:52:10, a
number by a figure: `answer_kind`).

Pure functions of the question's text; a question of any other shape ("when did I last see
a dentist?", "what did Dana get me?", "what is Giulia doing?") names no head.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from memfold.names import STOP_WORDS, entity_key, fold

TOKEN = re.compile(r"[^\W_][\w'’-]*")
OWNER = re.compile(r"['’]s?$")  # "Dana's", "the twins'": the owner of the thing asked
OPENERS = frozenset({"what", "which", "whose", "who"})
CONTRACTED = frozenset({"what's", "who's", "what’s", "who’s"})
COPULA = frozenset({"is", "was", "are", "were"})
DETERMINERS = frozenset("the a an my our your his her their its this that these those".split())
VERB_ENDINGS = ("ed", "ing")  # "what's Isla's class *called*": the phrase ends before it
# the frame words that are nouns: the last word of a phrase ("blood *type*", "phone
# *number*") or, before "of", its frame ("the *name of* ..."); other frame words end it
NOUN_FRAMES = frozenset("""name names kind kinds sort sorts type types way ways number amount
    time times day days date dates year years thing things one ones lot part""".split())
# words that after "what is" say how a thing stands, not what it is ("what was *wrong*")
PREDICATES = frozenset("wrong right up best better worse next going happening".split())


def head_of(text: str, named: Collection[str], frames: Collection[str]) -> tuple[str, ...]:
    """The head of the question's asked phrase, folded: one word, or a word and the frame
    word after it ("blood", "type"); () when the question names none.  `named`: the
    entities the question names (a name opening the phrase is its subject: "what is
    Giulia doing"); `frames`: the words that only frame an answer."""
    tokens = [m.group() for m in TOKEN.finditer(text)]
    start = _phrase_start([fold(t) for t in tokens[:3]])
    if start is None:
        return ()
    copular = start > 1 or fold(tokens[0]) in CONTRACTED
    run: list[str] = []
    for token in tokens[start:]:
        word = fold(token)
        if OWNER.search(token):
            run = []  # an owner: the thing asked comes after it
            continue
        if word == "of" and run and all(w in NOUN_FRAMES for w in run):
            run = []  # "the name of", "what kind of": the thing asked comes after
            continue
        if word in DETERMINERS and not run:
            continue
        if run and word.endswith(VERB_ENDINGS) and copular:
            return ()  # "what is the team *building*": the phrase is a subject, not asked
        if (word in STOP_WORDS or word in DETERMINERS or (run and word.endswith(VERB_ENDINGS))
                or (word in frames and word not in NOUN_FRAMES and run)):
            break
        if not run and (entity_key(word) in named or word in PREDICATES):
            return ()  # its subject ("what is Giulia doing") or a state, not a thing asked
        run.append(word)
    return _head(run, frames)


def _phrase_start(words: list[str]) -> int | None:
    """Where the asked phrase begins among the question's first words, or None."""
    if not words:
        return None
    if words[0] in CONTRACTED:
        return 1
    if words[0] not in OPENERS or len(words) < 2:
        return None
    if words[1] in COPULA:
        return 2
    if words[0] != "who" and words[1] not in STOP_WORDS:
        return 1
    return None


def _head(run: list[str], frames: Collection[str]) -> tuple[str, ...]:
    """The last word of the phrase, or the word before a frame noun with it; none when
    that word only frames too ("my *take*", "my favourite *thing*")."""
    if not run:
        return ()
    if run[-1] not in NOUN_FRAMES:
        return () if run[-1] in frames else (run[-1],)
    if len(run) > 1 and run[-2] not in frames:
        return (run[-2], run[-1])
    return ()
