"""A measured corpus of secrets as people type them into notes, and of notes that only talk
about passwords, codes and numbers: what `memfold.scan.secrets` must find and must leave alone.

`tests/secret_corpus.py` holds machine-made credentials (tokens with a published shape, keys,
assignments in config files).  This corpus is the other half: a wifi password, a door code, a
login and password pair, a diceware passphrase, told in a sentence the way a person dictates
them to an assistant ("The wifi password is purple-Otter-42.", "door code is 4471", "Bob's
login is bob / Tr0ub4dor&3", "passphrase: correct horse battery staple").

Every value is FAKE, drawn from a seeded `random.Random`: the shapes password managers and
people use (word-word-number, words joined by a symbol, a word with digits and a symbol, a
random string, diceware words, digits for PINs and codes, a lock's combination), never a real
credential.  `positives(seed)` gives >= 200 `Positive`s over many phrasings and shapes;
`ordinary(seed)` gives >= 2,000 distinct sentences that mention passwords, PINs, logins, codes,
combinations, wifi and numbers without giving one ("reset my password", "the code review",
"4471 steps", "error code 404", "the door code changed last week").
"""

from __future__ import annotations

import random
import string
from itertools import product

from secret_corpus import Positive

SEED = 20261205

WORDS = ("purple otter horse battery staple correct violin zebra maple river copper lantern "
         "falcon meadow pepper orbit walnut cactus harbor velvet glacier tundra comet willow "
         "saffron pebble marble thistle canyon ember quartz badger juniper").split()
NAMES = ("Bob Ana Kenji Priya Tomas Leila Marcus Ines Yusuf Greta Omar Hana Sven Nadia "
         "Dmitri Chloe").split()
USERS = ("bob ana.k kenji priya_r tomas admin leila2 marcus.w ines yusuf greta "
         "family root").split()
PLACES = ("the staging box", "the NAS", "grandma's iPad", "the office printer", "the router",
          "the shared Netflix", "the school portal", "the gym app", "the cabin", "my laptop",
          "the backup disk", "the home server", "the bank app", "the Synology")
SYMBOLS = "!#$%&*@?+"


class _Values:
    """Fake values in the shapes people and password managers make."""

    def __init__(self, r: random.Random) -> None:
        self.r = r

    def word(self, cap: bool | None = None) -> str:
        w = self.r.choice(WORDS)
        cap = self.r.random() < 0.5 if cap is None else cap
        return w.capitalize() if cap else w

    def memorable(self) -> str:
        shape = self.r.randrange(6)
        n = str(self.r.randrange(1, 100))
        if shape == 0:  # purple-Otter-42
            return f"{self.word(False)}-{self.word(True)}-{n}"
        if shape == 1:  # Correct-Horse-9
            return f"{self.word(True)}-{self.word(True)}-{self.r.randrange(10)}"
        if shape == 2:  # Zebra#Violin77
            return f"{self.word(True)}{self.r.choice(SYMBOLS)}{self.word(True)}{n}"
        if shape == 3:  # maple.river.31
            return f"{self.word(False)}.{self.word(False)}.{n}"
        if shape == 4:  # Tr0ub4dor&3 style
            w = self.word(True).replace("o", "0").replace("a", "4").replace("e", "3")
            return f"{w}{self.r.choice(SYMBOLS)}{self.r.randrange(10)}"
        return f"{self.word(True)}_{self.word(False)}_{n}{self.r.choice(SYMBOLS)}"

    def random(self) -> str:
        alphabet = string.ascii_letters + string.digits + "!#%*?@"
        while True:
            v = "".join(self.r.choice(alphabet) for _ in range(self.r.randrange(8, 17)))
            if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
                return v

    def password(self) -> str:
        return self.memorable() if self.r.random() < 0.7 else self.random()

    def diceware(self) -> str:
        return " ".join(self.r.sample(WORDS, self.r.randrange(4, 7)))

    def pin(self) -> str:
        return "".join(self.r.choice(string.digits) for _ in range(self.r.randrange(4, 9)))

    def combination(self) -> str:
        sep = self.r.choice("-/")
        return sep.join(str(self.r.randrange(0, 40)).zfill(2) for _ in range(3))


# (family, template): {v} is the secret; {name}, {user}, {place} are context.
PASSWORD_PHRASES = (
    "The wifi password is {v}.",
    "wifi password: {v}",
    "Wi-Fi key is {v}",
    "The wifi is {v} (the router sticker is wrong).",
    "my pw for {place}: {v}",
    "pw for {place} is {v}",
    "Password for {place}: {v}",
    "the password for {place} is now {v}",
    "{name} changed the {place} password to {v}.",
    "{name}'s password is {v}.",
    "new password {v}, set today",
    "password is {v} — don't share it",
    "passwd: {v}",
    "W @{name}: The password for {place} is {v}.",
    "B @me: Set the {place} password to {v}.",
)
PAIR_PHRASES = (
    "{name}'s login is {user} / {v}",
    "login: {user}/{v}",
    "Login for {place}: {user} / {v}",
    "creds for {place}: {user} / {v}",
    "credentials for {place} are {user} / {v}",
    "{place} login is {user} : {v}",
    "username {user}, password {v}",
    "user {user} pw {v}",
)
PASSPHRASES = (
    "passphrase: {v}",
    "The passphrase for {place} is {v}.",
    "backup disk passphrase is '{v}'",
    "pass phrase: {v}",
    "W @me: My {place} passphrase is {v}.",
)
CODE_PHRASES = (
    "door code is {v}",
    "The door code is {v}.",
    "the code for the front door is {v}",
    "gate code: {v}",
    "alarm code {v}#",
    "The garage code is {v}.",
    "keypad code for {place} is {v}",
    "lockbox code: {v}",
    "{name}'s PIN is {v}",
    "PIN for the debit card: {v}",
    "my phone passcode is {v}",
    "the building entry code is now {v}",
    "safe code is {v}",
    "W @{name}: The code to the back gate is {v}.",
)
COMBINATION_PHRASES = (
    "locker combination: {v}",
    "the combination for the bike lock is {v}",
    "safe combination is {v}",
    "the padlock combo is {v}",
    "combination to the shed lock: {v}",
)


def positives(seed: int = SEED) -> list[Positive]:
    """>= 200 typed credentials, every phrasing with several value shapes."""
    r = random.Random(seed)
    v = _Values(r)
    out: list[Positive] = []

    def add(family: str, templates: tuple[str, ...], make: object, per: int) -> None:
        for template in templates:
            for _ in range(per):
                value = make()  # type: ignore[operator]
                text = template.format(v=value, name=r.choice(NAMES), user=r.choice(USERS),
                                       place=r.choice(PLACES))
                out.append(Positive(family, text, value))

    add("typed-password", PASSWORD_PHRASES, v.password, 6)
    add("login-pair", PAIR_PHRASES, v.password, 5)
    add("passphrase", PASSPHRASES, v.diceware, 5)
    add("door-code", CODE_PHRASES, v.pin, 4)
    add("combination", COMBINATION_PHRASES, v.combination, 4)
    return out


# Sentences that talk about credentials, codes and numbers without holding one.  Each
# tuple is a template and its slots; `ordinary` takes the product and samples.
_ORDINARY: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("{who} {did} {whose} {cred} {when}.", {
        "who": ("I", "Sam", "We", "Priya", "She", "The admin"),
        "did": ("reset", "changed", "forgot", "updated", "rotated", "saved", "lost"),
        "whose": ("my", "the", "her", "our"),
        "cred": ("password", "PIN", "passcode", "wifi password", "door code", "passphrase",
                 "login", "gate code", "alarm code"),
        "when": ("yesterday", "after the phishing email", "on Monday", "last week",
                 "again", "twice this month", "in March", "before the trip")}),
    ("The {cred} {state}.", {
        "cred": ("password", "door code", "wifi", "PIN pad", "login page", "gate code",
                 "combination lock", "passphrase", "alarm code", "keypad", "wifi password"),
        "state": ("changed last week", "is on the fridge note", "is in 1Password",
                  "needs changing", "is broken", "expires in 90 days", "was leaked in 2019",
                  "is too short", "must have 12 characters", "is the same as before",
                  "is written on the router sticker", "stopped working", "is down again",
                  "is managed by IT", "is not working", "is shared with the cleaner")}),
    ("{label} {n} {rest}.", {
        "label": ("Error code", "Status code", "Zip code", "Area code", "Course code",
                  "Exit code", "HTTP code", "Country code", "Room", "Order", "Flight",
                  "Invoice", "Ticket", "Gate", "Locker", "Bus"),
        "n": ("404", "500", "90210", "212", "4471", "1", "301", "44", "12", "2025",
              "18", "BA2490", "CS101", "7"),
        "rest": ("again", "on the login page", "on the form", "was the answer",
                 "from the logs", "is near the lifts", "came up twice",
                 "was in the email", "for the passport office")}),
    ("{act} {n} {unit} {tail}.", {
        "act": ("Ran", "Walked", "Logged", "Read", "Paid", "Saved", "Counted", "Cycled",
                "Wrote", "Lifted", "Booked"),
        "n": ("4471", "10", "12,000", "140", "5", "42", "3.5", "250", "1,200", "7", "90"),
        "unit": ("steps", "miles", "km", "pages", "dollars", "euros", "minutes", "lines",
                 "kg", "nights", "people"),
        "tail": ("today", "on Saturday", "before work", "with Sam", "this week",
                 "for the code review", "after the password reset", "at the gym")}),
    ("{who} {verb} the {thing}.", {
        "who": ("I", "Sam", "Priya", "The team", "We", "Kenji"),
        "verb": ("finished", "started", "skipped", "postponed", "reviewed", "fixed",
                 "documented", "tested"),
        "thing": ("code review", "password reset flow", "login bug", "PIN entry screen",
                  "code freeze", "wifi setup", "passphrase policy", "2FA rollout",
                  "door code rota", "combination lock order", "dress code memo",
                  "QR code menu", "source code audit", "login page redesign")}),
    ("{who} {said} the {cred} {how}.", {
        "who": ("Sam", "Ana", "IT", "The landlord", "My sister", "The bank"),
        "said": ("said", "says", "mentioned", "wrote that", "told me"),
        "cred": ("password", "door code", "PIN", "wifi password", "passphrase",
                 "combination", "login"),
        "how": ("would change on Friday", "is in the welcome pack", "needs 4 digits",
                "must be at least 8 characters", "is taped under the desk",
                "will be texted", "is the same for everyone", "was reset",
                "can't contain spaces", "should be longer")}),
    ("{who} logged in as {user} {where}.", {
        "who": ("I", "Sam", "Kenji", "The contractor", "We"),
        "user": ("bob", "admin", "root", "guest", "priya", "the service account"),
        "where": ("on the staging box", "to fix the cron job", "this morning",
                  "via SSH", "from the library", "to check the logs")}),
    ("The {what} is {value}.", {
        "what": ("wifi", "wifi in room 204", "internet", "wifi at the cabin", "new router",
                 "hotel wifi", "login", "password manager", "code", "combination",
                 "passcode screen"),
        "value": ("down again", "slow", "300 Mbps", "5GHz only", "free", "fixed",
                  "back up", "open to guests", "Bitwarden", "a bit flaky", "brand new",
                  "the same as the email", "on the second floor", "finally working")}),
    ("{who} {verb} a {n}-{unit} {thing}.", {
        "who": ("I", "We", "Sam", "IT", "The bank"),
        "verb": ("need", "set up", "asked for", "want", "suggested", "require"),
        "n": ("4", "6", "8", "12", "20", "30"),
        "unit": ("digit", "character", "word", "day", "minute"),
        "thing": ("PIN", "password", "passphrase", "code", "combination lock",
                  "timeout", "reset window", "door code")}),
    ("Combination of {a} and {b} {c}.", {
        "a": ("rain", "jet lag", "caffeine", "stress", "the heat", "two deadlines"),
        "b": ("wind", "no sleep", "a cold", "travel", "the move", "late meetings"),
        "c": ("wiped me out", "made the day long", "ruined the run", "was rough",
              "kept me home")}),
)


def ordinary(seed: int = SEED, count: int = 2400) -> list[str]:
    """>= 2,000 distinct sentences about credentials and numbers that hold no secret."""
    r = random.Random(seed)
    every: list[str] = []
    for template, slots in _ORDINARY:
        names = list(slots)
        combos = [dict(zip(names, values, strict=True))
                  for values in product(*(slots[n] for n in names))]
        r.shuffle(combos)
        every += [template.format(**c) for c in combos[:count // len(_ORDINARY) + 40]]
    unique = sorted(set(every))
    r.shuffle(unique)
    return unique[:count]
