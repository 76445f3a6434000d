"""English phrasings the reader (judge.reading) matches: the swaps that name the value left
and the value taken ("replaced X with Y", "X, formerly Y", "renamed X to Y"), and the verbs
that relate a subject to the value of a slot ("lives in", "works at", "reports to"), and the
wordings said again more plainly before they are read (`plainer`).  Compiled patterns, no
I/O."""

from __future__ import annotations

import re

from memfold.lifecycle.judge import words as w

SWAPS = [  # (pattern, the group of the value left, of the value taken)
    (re.compile(r"^(?P<old>.+?)\s+(?:was|is|has\s+been|have\s+been|got|were)\s+(?:swapped|"
                r"switched|traded|exchanged)(?:\s+out)?\s+(?:for|with)\s+(?P<new>.+)$", re.I),
     "old", "new"),
    (re.compile(r"\b(?:replac(?:e|ed|es|ing)|trad(?:e|ed|es|ing)|swap(?:s|ped|ping)?"
                r"|exchang(?:e|ed|es|ing))\s+(?!(?:with|by|for)\s)(?P<old>.+?)\s+(?:with|by|for)\s+"
                r"(?P<new>.+)$",
                re.I), "old", "new"),
    (re.compile(r"^(?P<new>.+?)\s+to\s+replace\s+(?P<old>.+)$", re.I), "old", "new"),
    (re.compile(r"^(?P<old>.+?)\s+(?:was|is|has\s+been|have\s+been|got|were)\s+replaced\s+"
                r"(?:with|by)\s+(?P<new>.+)$", re.I), "old", "new"),
    # (not "EGR cooler replaced at Kenworth": where the part was replaced, not what it replaced)
    (re.compile(r"^(?P<new>.+?)\s+(?:has\s+|have\s+)?replaced\s+(?!(?:at|in|on|under|during"
                r"|after|before|last|this|yesterday|today|again|free)\b)(?P<old>.+?)"
                r"(?:\s+as\b.*)?$", re.I), "old", "new"),
    (re.compile(r"^(?P<new>.+?)\s+(?:has\s+|have\s+)?(?:taken|took|takes)\s+over\s+(?:as\s+)?"
                r"(?:[^,;]+?\s+)?from\s+(?P<old>.+)$", re.I), "old", "new"),  # "as his boss from"
    (re.compile(r"\btook\s+over\s+from\s+(?P<old>.+)$", re.I), "old", ""),
    (re.compile(r"\b(?:dropp(?:ed|ing)|drops?|ditch(?:ed|es|ing)?|abandon(?:ed|s|ing)?|retir"
                r"(?:ed|es|ing)|left|leaving|moved\s+(?:away\s+)?(?:off|from)|gave\s+up)\s+"
                r"(?P<old>.+?)\s+(?:in\s+favou?r\s+of|for)\s+(?P<new>.+)$", re.I), "old", "new"),
    # (not "marshalled the race instead of running it": one occasion done another way)
    (re.compile(r"^(?P<new>.+?)\b(?:in\s+place\s+of|instead\s+of|rather\s+than)\s+"
                r"(?!\w+ing\s+(?:it|them|this|that)\b)(?P<old>.+)$", re.I), "old", "new"),
    (re.compile(r"\b(?:prefers?|preferring|likes?|chooses?|picks?|favou?rs?)\s+(?P<new>.+?)"
                r"\s+over\s+(?P<old>.+)$", re.I), "old", "new"),
    (re.compile(r"^(?P<old>.+?)\s+(?:was|is|has\s+been|got|were)\s+(?:renamed|rebranded)"
                r"\s+(?:to\s+|as\s+)?(?!from\b)(?P<new>.+)$", re.I), "old", "new"),
    (re.compile(r"\b(?:renamed|rebranded|rename[sd]?|rebrands?)\s+(?P<old>.+?)\s+(?:to|as|into)"
                r"\s+(?P<new>.+)$", re.I), "old", "new"),
    (re.compile(r"\b(?:renamed|rebranded)\s+(?P<old>(?:the|his|her|their|its|our|my)\s+[\w-]+"
                r"(?:\s+(?-i:[a-z][\w-]*))?)\s+(?P<new>(?-i:[A-Z'\"‘“]).+)$", re.I), "old", "new"),
    (re.compile(r"^(?P<old>.+?)\s+(?:rebranded|renamed\s+itself|changed\s+(?:its|their|his|her)"
                r"\s+name)\s+(?:as|to)\s+(?P<new>.+)$", re.I), "old", "new"),
    (re.compile(r"^(?P<new>.+?),?\s+\(?(?:formerly|previously|once)\s+(?:known\s+as\s+|called\s+"
                r"|named\s+)?(?P<old>[^,)]+)", re.I), "old", "new"),  # "Tidewater, formerly tern"
    (re.compile(r"\bunder\s+(?:a|the|its|their)\s+new\s+name,?\s+(?:of\s+)?(?P<new>.+)$", re.I),
     "", "new"),
]
# "The headquarters of Globex were relocated to Seville", "the head office of Initech is in
# Leeds now": the entity's own home, read as "Globex relocated to ...", "Initech is based in ..."
_HQ_OF = (r"^(?:the\s+)?(?:headquarters|head\s+office|hq|main\s+office)\s+of\s+"
          r"(?P<who>@?[\w-]+(?:\s+(?-i:[A-Z])[\w-]*)?)\s+")
HQ_MOVED = re.compile(_HQ_OF + r"(?:was|were|has\s+been|have\s+been|got)\s+(?:relocated|moved)"
                      r"\s+to\b", re.IGNORECASE)
HQ_IN = re.compile(_HQ_OF + r"(?:is|are)\s+(?:now\s+)?(?:in|at)\b", re.IGNORECASE)
_DOTTED = re.compile(r"\b(?:[A-Z]\.){1,4}[A-Z]\b\.?")
# "Regents Park is where Bo lives now": Bo lives in Regents Park
_WHERE_LIVES = re.compile(r"^(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,3})\s+is\s+"
                          r"where\s+(?P<who>@?[\w-]+)\s+(?:now\s+)?(?:lives\b|calls\s+home\b)",
                          re.IGNORECASE)  # "Lund is where Frida calls home these days"
# "Gdańsk is home now for Piotr", "Lisbon is home to Rui these days": where Piotr lives
_HOME_TO = re.compile(r"^(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,3})\s+is\s+"
                      r"(?:now\s+)?home\s+(?:now\s+|these\s+days\s+)?(?:for|to)\s+"
                      r"(?P<who>@?(?-i:[A-Z])[\w-]*)\b(?!')", re.IGNORECASE)
# "packed up and went to live in Portland": moved to Portland
_WENT_TO_LIVE = re.compile(r"\b(?:(?:packed\s+up|sold\s+up|upped\s+sticks)\s+and\s+)?(?:(?:went"
                           r"|came|has\s+gone|have\s+gone)\s+to\s+live|(?:has\s+|have\s+)?set\s+up"
                           r"\s+home)\s+in\b", re.IGNORECASE)  # "has set up home in Reykjavik" too
_PAID_OFF = re.compile(r"\b(?:pay|pays|paid|paying)\s+(?:off|back|down)\b", re.IGNORECASE)
# a move of one's own told as the time since it: "Since the move to Colchester I've been
# cycling to work", "After our move to Leeds, ..." (not "since Jo's move": someone else's)
_SINCE_THE_MOVE = re.compile(r"^(?:since|after|following)\s+(?:the|my|our|his|her|their)\s+"
                             r"(?:move|relocation)\s+to\s+(?P<place>(?-i:[A-Z])[\w'-]*"
                             r"(?:\s+(?-i:[A-Z])[\w'-]*)*),?\s+(?=\w)", re.IGNORECASE)
_HAS = re.compile(r"\b(?P<who>he|she|it|that|there|who|[A-Z][\w-]*)'s\s+(?=(?:been|moved|relocated"
                  r"|switched|joined|started|settled)\b)")  # "Ingrid's moved up to"

# a move told as done: "The move to Reykjavik is done and ..." (of the fact's own subject)
_MOVE_DONE = re.compile(r"^(?:the|our|my|his|her|their)\s+(?:move|relocation)\s+to\s+"
                        r"(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)\s+(?:is|was"
                        r"|has\s+been)\s+(?:now\s+)?(?:done|complete|completed|finished|official)\b"
                        r"(?:\s+and\s+)?", re.IGNORECASE)
# "took a job in Tromsø and moved there": moved to the place just named
_MOVED_THERE = re.compile(r"\b(?:in|to)\s+(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)"
                          r"(?P<between>\s+and\s+(?:then\s+)?)(?P<verb>moved|relocated|settled"
                          r"|emigrated)\s+there\b", re.IGNORECASE)
# "the newsletter goes out through Listmonk": is sent through it
GOES_OUT = re.compile(r"\b(?P<now>now\s+)?(?:goes|go)\s+out\s+(?P<now2>now\s+)?"
                       r"(?=(?:through|via|with|by)\b)", re.IGNORECASE)


def plainer(text: str) -> str:
    """Wordings said the way the rules read them: "D.C." as "DC", "Mailgun's been replaced" as
    "has been", a debt "paid off" as no salary, "the headquarters of Globex were relocated to"
    as "Globex relocated to", "the head office of Initech is in" as "Initech is based in",
    "Since the move to Leeds, …" and "The move to Leeds is done" as "moved to Leeds; …",
    "took a job in Leeds and moved there" as "... moved to Leeds", "goes out through" as "is
    sent through"."""
    text = _DOTTED.sub(lambda m: m.group().replace(".", ""), text)  # "D.C." is "DC"
    text = _HAS.sub(lambda m: f"{m.group('who')} has ", text)
    text = _WHERE_LIVES.sub(lambda m: f"{m.group('who')} lives in {m.group('place')}", text)
    text = _HOME_TO.sub(lambda m: f"{m.group('who')} lives in {m.group('place')}", text)
    text = _PAID_OFF.sub("repaid", text)
    text = GOES_OUT.sub(lambda m: "is now sent " if m.group("now") or m.group("now2")
                         else "is sent ", text)
    text = _WENT_TO_LIVE.sub("moved to", text)
    text = _SINCE_THE_MOVE.sub(lambda m: f"moved to {m.group('place')}; ", text)
    text = _MOVE_DONE.sub(lambda m: f"moved to {m.group('place')}; ", text)
    text = _MOVED_THERE.sub(lambda m: f"in {m.group('place')}{m.group('between')}"
                            f"{m.group('verb')} to {m.group('place')}", text)
    text = HQ_MOVED.sub(lambda m: f"{m.group('who')} relocated to", text)
    return HQ_IN.sub(lambda m: f"{m.group('who')} is based in", text)


RENAMING = re.compile(r"\b(?:renam|rebrand|changed\s+\w+\s+name|formerly|previously\s+(?:known|"
                       r"called|named)|once\s+(?:known|called)|new\s+name)", re.IGNORECASE)
RELATION_VERBS = [  # (pattern over the predicate, relation)
    (re.compile(r"^(?:is\s+|are\s+)?(?:on|in|part\s+of)\s+(?:the\s+)?(?P<val>[\w-]+(?:\s+[\w-]+)?"
                r"\s+team)(?:\s+(?:now|these\s+days))?$", re.I), "team"),  # "is on the Falcon team"
    (re.compile(r"^(?:joined|joins|moved\s+to|transferred\s+to|switched\s+to)\s+(?:the\s+)?"
                r"(?P<val>[\w-]+(?:\s+[\w-]+)?\s+team)$", re.I), "team"),
    (re.compile(r"^(?:moved\s+in\s+with|lives?\s+with|living\s+with)\s+(?:his|her|their)\s+"
                r"(?:new\s+)?(?P<val>(?:girlfriend|boyfriend|partner|fianc[ée]e?|wife|husband|spouse)"
                # (not "lives with his partner in Gdańsk": where he lives)
                r"\b(?!.*\s(?:in|at)\s+(?-i:[A-Z])).*)$", re.I),
     "relationship"),  # "moved in with his girlfriend Sofia"
    (re.compile(r"^(?:(?:has\s+)?made|makes)\s+(?P<val>(?-i:[A-Z]).+?)\s+(?:his|her|their|its|our|my)"
                r"\s+home\b", re.I), "location"),  # "has made Reykjavik her home"
    (re.compile(r"^(?:(?:ended|wound)\s+up\s+(?:living\s+|settling\s+)?|rents?\s+|renting\s+)in\s+"
                r"(?P<val>(?-i:[A-Z]).+)$", re.I), "location"),  # "ended up in Reykjavik"
    (re.compile(r"^(?:(?:is|are)\s+)?(?:based\s+(?:out\s+of|in|at)|(?:re)?settled\s+(?:\w+\s+)?"
                r"(?:in|at))"
                r"\s+(?P<val>(?-i:[A-Z]).+)$", re.I),
     "location"),  # "is settled in Toronto", "based out of Yerevan": not "settled in quickly"
    (re.compile(r"^(?:lives?|living|lived|resides?|residing|is\s+based|based"
                r"|(?:is\s+|are\s+)?headquartered"
                r"|makes?\s+(?:his|her|their|its)\s+home|has\s+(?:his|her|their)\s+home"
                r"|have\s+lived|has\s+lived)\s+(?:\w+\s+)?(?:in|at)\s+(?P<val>.+)$", re.I),
     "location"),
    (re.compile(r"^(?:has|have|owns?|rents?|keeps?|got|found|moved\s+into)\s+(?:a|an|his|her"
                r"|their|its|our|my)\s+"
                r"(?:\w+\s+)?(?:home|house|flat|apartment|place)\s+(?:in|at)\s+(?P<val>.+)$", re.I),
     "location"),  # "has a house in Bergen where she lives"
    (re.compile(r"^(?:calls?|now\s+calls?)\s+(?P<val>.+?)\s+home$", re.I), "location"),
    (re.compile(r"^(?:moved|relocated|moves|relocates|moving|relocating|transferred|emigrat(?:ed|es|ing)"
                r"|upped\s+sticks|(?:has\s+)?made\s+the\s+move|moved\s+house)\s+(?:(?:back|up|down"
                r"|over|out|away|across\s+the\s+(?:border|country|channel|river|city))\s+)?to\s+"
                r"(?P<val>.+)$", re.I), "location"),
    (re.compile(r"^(?:headed|went|left|set\s+off|has\s+gone|is\s+gone)\s+(?:off\s+|back\s+)?"
                r"(?:for|to)\s+(?P<val>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)\s+for\s+good\b",
                re.I),
     "location"),  # "headed for Reykjavik for good"
    (re.compile(r"^is\s+(?:now\s+)?in\s+(?P<val>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)\s+"
                r"(?:now\s+)?for\s+good$", re.I), "location"),  # "is in Lübeck now for good"
    (re.compile(r"^(?:works?|working|worked)\s+(?:out\s+of|from)\s+(?P<val>.+)$", re.I),
     "location"),
    (re.compile(r"^(?:attends?|attending|goes\s+to|(?:started|starts|began|begins)\s+(?:school\s+)?at"
                r"|(?:moved|moves|transferred|switched)\s+(?:schools?\s+)?to|is\s+(?:now\s+)?(?:at|in))\s+"
                r"(?P<val>(?:(?-i:[A-Z])[\w'.-]*\s+){1,4}(?:school|primary|nursery|kindergarten|pre-?school"
                r"|academy|college|university|high|elementary|daycare|montessori|grammar|secondary"
                r"|comprehensive|gymnasium)\b.*)$", re.I),
     "school"),  # "attends Little Acorns nursery", "started at Elmhurst Primary"
    (re.compile(r"^(?:works?|working|worked|is\s+employed|employed)\s+(?:at|for|with|by)\s+"
                r"(?P<val>.+)$", re.I), "employer"),
    # not a membership: "joined PureGym for the weights, £24.99 a month", "joined the choir"
    (re.compile(r"^(?:joined|joins)\s+(?!.*(?:[£$€¥₹]\s?\d|\d\s?(?:euros?|dollars?|pounds?|kr)\b"
                r"|\b(?:gym|club|choir|league|group|class|classes|membership|library)\b))"
                r"(?P<val>.+)$", re.I), "employer"),
    (re.compile(r"^(?:started|starts|began)\s+(?:work(?:ing)?\s+)?at\s+(?P<val>(?-i:[A-Z@])[\w@&.-]*"
                r"(?:\s+(?-i:[A-Z])[\w&.-]*)*)", re.I), "employer"),  # "started at Wipro on Monday"
    (re.compile(r"^(?:was\s+|got\s+|has\s+been\s+)?(?:hired|taken\s+on)\s+(?:by|at)\s+(?P<val>.+)$",
                re.I), "employer"),
    (re.compile(r"^(?:started|took|got|landed|accepted|began)\s+(?:a|an|the|his|her|their)?\s*"
                r"(?:new\s+)?(?:job|role|position)\s+(?:at|with)\s+(?P<val>.+)$", re.I),
     "employer"),
    (re.compile(r"^(?:works?|working)\s+as\s+(?P<val>.+)$", re.I), "role"),
    (re.compile(r"^(?:eats?|eating|started\s+eating|(?:is|are)\s+(?:back\s+(?:to\s+)?)?eating"
                r"|(?:is|are)\s+back\s+on)\s+(?P<val>(?:red\s+)?(?:meat|fish|seafood|chicken|pork|beef"
                r"|lamb|dairy|cheese|eggs|bacon))\b", re.I), "diet"),  # "eats meat again"
    (re.compile(r"^(?:drives?|driving)\s+(?:a|an|his|her|their|the)\s+(?P<val>[\w-]+(?:\s+"
                r"(?!(?:with|for|to|on|in|at|now|these)\b)[\w-]+){0,3})", re.I),
     "vehicle"),  # "drives a Golf with 40,000 miles on it"
    (re.compile(r"^(?:started|starts)\s+as\s+(?P<val>.+)$", re.I), "role"),
    (re.compile(r"^(?:reports?|reporting)\s+to\s+(?P<val>.+)$", re.I), "manager"),
    (re.compile(r"^(?:is\s+married|married|is\s+engaged|engaged)\s+to\s+(?P<val>.+)$", re.I),
     "relationship"),
    (re.compile(r"^(?:has|have|has\s+got|got)\s+(?:a\s+)?(?:new\s+)?(?P<val>(?:girlfriend|boyfriend"
                r"|partner|fianc[ée]e?|wife|husband|spouse)\b.*)$", re.I),
     "relationship"),  # "has a boyfriend, Marek" after "is single"
    (re.compile(r"^(?:got\s+|has\s+(?:got\s+)?|have\s+)?(?P<val>(?:re)?married\b.*)$", re.I),
     "relationship"),  # "remarried last summer" after "is a widower"
    (re.compile(r"^(?:goes|go)\s+by\s+(?P<val>.+)$", re.I), "name"),
    (re.compile(r"^(?:turned|turns|has\s+turned)\s+(?P<val>\d+)\b", re.I), "age"),
    (re.compile(r"^(?:is\s+called|called|is\s+named|named|is\s+known\s+as|known\s+as"
                r"|trades\s+as|trading\s+as|goes\s+by\s+the\s+name)\s+(?P<val>.+)$", re.I), "name"),
    (re.compile(r"^(?:(?:is|are|has\s+been|have\s+been)\s+(?:back\s+)?|went\s+|switched\s+)on\s+"
                r"(?:a|an|the)\s+(?P<val>[\w-]+(?:\s+[\w-]+)?\s+diet)\b", re.I),
     "diet"),  # "is on a keto diet": a diet, not a platform
    # "runs on Node 22", "is on Postgres", "runs Nomad 1.6" — a bare "runs" only with a name
    # or "the" after it and no route ("run one-week cycles", "run easy", "runs X to Regina")
    (re.compile(r"^(?:(?:runs?\s+on|(?:is|are|has\s+been|have\s+been)\s+(?:back\s+)?on)\s+"
                r"|runs?\s+(?=(?:the\s+|(?-i:[A-Z]))(?!.*\bto\b)))(?P<val>.+)$", re.I), "platform"),
    (re.compile(r"^(?:on|using|with|via)\s+(?P<val>.+)$", re.I), "use"),  # "Now on Rollbar"
    (re.compile(r"^(?:(?:is|are)\s+(?:(?:now|in-house|full-time|part-time)\s+)?|now\s+)at\s+"
                r"(?P<val>(?-i:[A-Z])"
                r"[\w&.-]*(?:\s+(?-i:[A-Z])[\w&.-]*)*)", re.I), "at"),  # "is at Kiteworks now"
    (re.compile(r"^(?:asked|asks|wants?|wanted|prefers?|would\s+like)\s+(?:us\s+|me\s+|people\s+)?"
                r"to\s+(?:be\s+called|call\s+(?:him|her|them))\s+(?P<val>.+)$", re.I), "name"),
    (re.compile(r"^(?:prefers?|preferring)\s+(?P<val>.+)$", re.I), "prefer"),
    (re.compile(r"^(?:was\s+|got\s+|has\s+been\s+)?promoted\s+to\s+(?P<val>.+)$", re.I), "role"),
    (re.compile(r"^(?:uses?|using|relies\s+on|rely\s+on)\s+(?P<val>.+)$", re.I), "use"),
]


# how a change is read (reading._changes, reading._guard)
# "take" changes a value only as "took over", "took up", "took on", "took a job ...": "took
# the dog to the vet" carries something somewhere
TAKEN_ON = re.compile(r"\s+(?:over|up|on|charge|(?:a|an|the|his|her|their|my|our)\s+(?:new\s+)?"
                      r"(?:job|role|post|position|place)\b)", re.IGNORECASE)
# "went to" a place is a visit; "went to live/work in ..." is a move ("went vegan", "went
# over to Linux" and "went back to Vim" are read as changes elsewhere)
VISITED = re.compile(r"\s+(?:to|into)\s+(?!(?:live|work|stay|study)\b)", re.IGNORECASE)
# "once the hinge cracked, I switched": a time clause in the past, when it happened — not a
# condition still to be met ("once we move", "once the lease is signed")
ONCE_DONE = re.compile(r"\bonce\s+(?:[\w'’-]+\s+){0,6}?(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)"
                       r"(?<!\bbeen\s)(?<!\bhas\s)(?<!\bhave\s)(?<!\bget\s)(?<!\bgets\s)"
                       r"(?:\w+ed|was|were|had|did|went|came|broke|left|took|got|gave|fell|ran"
                       r"|began|became|grew|rose|made|kept|sold|stole|lost|found|won|wore|tore"
                       r"|died|split|quit|shut|hit|moved|finished)\b", re.IGNORECASE)
INTENDED = re.compile(r"\b(?:was|were)\s+going\s+to|\b(?:meant|wanted|planned|intended|hoped)"
                      r"\s+to\b", re.IGNORECASE)
# a diet taken up: "went vegan", "has gone pescatarian", "turned vegetarian"
TURNED_DIET = re.compile(r"\b(?:went|gone|goes|go|turned|turns|became|become|becomes)\s+"
                         r"(?:fully\s+)?(?P<val>" + "|".join(sorted(w.DIETS)) + r")\b",
                         re.IGNORECASE)


# A summary of a period that is over: "March was all about the job change", "February: the
# diabetes news, ...", "2025 was the year I moved", "Most of January's runs were on the
# railway path".  What it tells held in that period: history, neither replaced nor replacing.
_PERIOD = (r"(?:(?:January|February|March|April|May|June|July|August|September|October"
           r"|November|December)(?-i:\b)|(?:19|20)\d\d\b|(?:last|this)\s+(?:spring|summer|autumn"
           r"|fall|winter|week|month|year)\b)")
PERIOD_SUMMARY = re.compile(
    rf"^(?:(?:most|much|all|some|the\s+rest)\s+of\s+)?{_PERIOD}"
    r"(?:\s*:|\s+(?:was|were|has\s+been|had\s+been)\b|'s\s+(?:[\w-]+\s+){0,3}(?:was|were)\b)",
    re.IGNORECASE)


# a correction: the older value was wrong ("actually 14 May", "got it wrong")
CORRECTION = re.compile(r"^(?:correction|corrected|erratum|update)\s*[:,\u2014-]|\bactually\b"
                        r"(?!\s+(?:enjoy|like|love|hate|mind|quite|pretty|really|feel|felt|think"
                        r"|thought)\w*)"  # "I actually enjoy": emphasis, not a correction
                        r"|\b(?:had|got)\s+(?:it|that|this|the\s+\w+(?:\s+\w+)?)\s+wrong\b"
                        r"|\bmis(?:heard|read|typed|spelt|spelled|remembered)\b", re.IGNORECASE)


def describes_subject(text: str, found: re.Match[str], names: frozenset[str]) -> bool:
    """Whether a kin or friend word the third-party reading found only says who the
    subject is to the writer: an apposition after the subject's name ("Walt Petrenko, my
    oldest friend, lives ...") or the name after it ("My son Corey lives in Calgary"), so
    the fact is the subject's own, not someone else's news."""
    before, after = text[: found.start()], text[found.end():]
    if _NAME_ONLY.match(before) and found.group().lstrip().startswith(",") \
            and _CLOSED.match(after):
        return True
    named = _NAME_NEXT.match(after)
    return not before.strip() and named is not None and w.stem(named.group(1).lower()) in names


_NAME_ONLY = re.compile(r"^\s*(?-i:[A-Z])[\w'’.-]*(?:\s+(?-i:[A-Z])[\w'’.-]*){0,3}\s*$")
_CLOSED = re.compile(r"^[^,;:]{0,40},")  # "... oldest friend since university, lives"
_NAME_NEXT = re.compile(r"^,?\s+((?-i:[A-Z])[\w'’-]*)")


# a sentence's end inside a clause: a full stop after a word that is no title or short form
# ("Dr. Lind", "St. Kilda", "approx. 40"), then a capital
SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9%)+])(?<!\b[A-Z])(?<!\b[A-Z][a-z])(?<!\b[A-Z][a-z][a-z])"
                           r"(?<!\bvs)(?<!\bProf)(?<!\bCapt)(?<!\bapprox)[.!?]\s+(?=[A-Z])")


# a "from" that says how far, not what was left: "10 minutes' walk from Ikate", "a short
# drive from the coast", "two blocks away from"
DISTANCE_FROM = re.compile(r"\b(?:walk|walking|drive|driving|ride|cycle|minutes?|mins?|hours?|km"
                           r"|kilometres?|kilometers?|miles?|metres?|meters?|blocks?|stops?|away"
                           r"|far|close|near|down\s+the\s+road)['’]?\s*$", re.IGNORECASE)


def sentences(*clauses: str) -> list[str]:
    """The clauses' sentences: a change or an end said in one never runs on into the next
    ("Dropped OSDE. We're on the bodega's plan now, ... for both" left OSDE, not "OSDE. We
    are"; "Cancelled Netflix. Nobody watched it apart from Finn" ended no Finn)."""
    return [s for clause in clauses for s in SENTENCE_END.split(clause) if s.strip()]
