"""Credentials a person types in a sentence: a password, a passphrase, a login and password
pair, a PIN, a door code or a lock's combination, told the way people dictate them to an
assistant.  `memfold.scan.secrets` runs these detectors beside its shaped-token, assignment
and entropy detectors; each yields `(tier, kind, start, end, preview)` for the value only, so
redaction keeps the words around it ("door code is [REDACTED:access-code]").

What is read (the introducing words, then the value):

    password, passwd, pwd, pw, passcode,      "The wifi password is purple-Otter-42.",
    wifi key, "the wifi is ..."              "my pw for the staging box: Zebra#Violin77",
                                             "changed the NAS password to Maple.river.31"
    passphrase, pass phrase                  "passphrase: correct horse battery staple"
    login, credentials, creds                "Bob's login is bob / Tr0ub4dor&3"
    PIN, passcode, door/gate/alarm/... code,  "door code is 4471", "alarm code 1234#",
    "the code for the front door"            "the code to the back gate is 0912"
    combination, combo                       "locker combination: 12-34-56"

Sentences *about* credentials are far more common than credentials, and must pass: "I reset
my password", "the door code changed last week", "a 6-digit PIN", "error code 404", "the
combination of rain and wind", "logged in as bob", "the wifi is down again".  So a value has
to look like what its words introduce:
- a password: a digit or a symbol among letters (hunter2, Qx7!mPz92vL, Zebra#Violin77), or
  the word-word-number shape password managers make (purple-Otter-42, otter.maple.80) — never
  a plain word, a length ("12 characters"), a date, a path, a version or a hyphenated name
  (SHA-256, COVID-19, 2FA-protected);
- a passphrase: three to eight lower-case words that end the clause and hold no function
  word ("correct horse battery staple", not "written on the router sticker");
- a PIN or an access code: 4 to 12 digits, with a `#` or `*` the keypad takes; a recovery
  code may be groups of letters and digits (4F7K-92QD);
- a combination: two to five numbers between dashes, slashes, dots or spaces, or one number;
- a login: a user name, then `/`, `:` or "password", then a password as above.
A bare "code" counts only when it is the code *for* or *to* something with a lock (the front
door, the gate, the safe).  Pure functions of text: no I/O, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memfold.scan.values import (
    _CODE_REFERENCE,
    _DATE_LIKE,
    _PATH_START,
    _PLAIN_PART,
    _SEPARATORS,
    _looks_placeholder,
    _preview,
    _trim,
)

Found = tuple[int, str, int, int, str]  # (tier, kind, start, end, preview)

_PASSWORD_KEYS = (r"pass(?:word|wd|code)|pwd|pw|wi-?fi[ \t]++(?:key|pass(?:word)?+|pw)"
                  r"|pass[ \t]?+phrase")
_LOCKED = (r"(?:front[ \t]|back[ \t]|side[ \t]|main[ \t]|garage[ \t])?(?:door|gate|alarm|garage"
           r"|lock[ \t]?box|keypad|safe|entry|access|building|lock|locker|unlock|security"
           r"|recovery|backup|house|flat|apartment|shed|storage[ \t]unit|office|phone|bike"
           r"[ \t]lock)")
_KEYS = (r"(?<![A-Za-z0-9_.-])(?P<key>(?i:" + _PASSWORD_KEYS + r"|pin(?:[ \t-]?code)?"
         r"|" + _LOCKED + r"[ \t]++(?:code|pin)|code|combination|combo|wi-?fi))"
         r"(?![A-Za-z0-9_-])")
# "for the office wifi", "of the router", "on the door", "to the back gate": up to four words
_FOR = (r"(?P<for>[ \t]{1,4}+(?i:for|of|on|to|at|in)(?:[ \t]{1,4}+[^\s:=]{1,30}+){1,4}?)?")
_SAID = (r"(?P<sep>[ \t]{0,4}+[:=][ \t]{0,8}+|[ \t]{1,4}+(?:(?:(?i:is|was|has[ \t]been)"
         r"[ \t]{1,4}+)?(?i:changed|set|reset)[ \t]{1,4}+to|(?i:is|are|was)(?:[ \t]{1,4}+"
         r"(?i:now|still))?|(?i:to))[ \t]{1,8}+)")
_VALUE = (r"(?:\"(?P<dq>[^\"\r\n]{1,128}+)\"|'(?P<sq>[^'\r\n]{1,128}+)'"
          r"|`(?P<bq>[^`\r\n]{1,128}+)`|(?P<uv>[^\s\"'`<>(){}\[\]][^\s]{0,127}+))")
_SAID_VALUE = re.compile(_KEYS + _FOR + _SAID + _VALUE)
_BARE_VALUE = re.compile(_KEYS + r"[ \t]{1,4}+" + _VALUE)
# "password is 12 characters long", "PIN is 4 digits": a length or a duration, not a value
_UNIT_AFTER = re.compile(
    r"[ \t]{1,4}+(?i:characters?|chars?|digits?|letters?|symbols?|numbers?|words?|long"
    r"|minimum|min|max|days?|weeks?|months?|years?|hours?|minutes?|times?|bits?|bytes?"
    r"|lines?|steps?|miles?|km|kg|lbs?|[kmg]bps|[kmgt]b|[kmg]hz|mph|percent|people|pages?"
    r"|dollars?|euros?|pounds?)\b")
# "changed the NAS password to ...": a `to` after the key needs a verb of setting before it
_SETTING_BEFORE = re.compile(r"(?i:chang|set|reset|updat|switch)\w*+[^.;\n]{0,60}+$")
_DIGITS = re.compile(r"[#*]?+[0-9]{4,12}+[#*]?+")
_GROUPED_CODE = re.compile(r"(?=[A-Z0-9-]*[0-9])[A-Z0-9]{4,6}+(?:-[A-Z0-9]{4,6}+){1,4}+")
_LEET = re.compile(r"[A-Za-z][0-9]++[A-Za-z]")
_COMBINATION = re.compile(r"[0-9]{1,3}+(?:[-/. ][0-9]{1,3}+){1,4}+|[0-9]{3,8}+")

_PASSPHRASE = re.compile(
    r"(?<![A-Za-z0-9_.-])(?i:pass[ \t]?+phrase)" + _FOR + _SAID
    + r"(?P<q>['\"]?+)(?P<v>[a-z]{2,12}+(?:[ \t-][a-z]{2,12}+){2,7}+)(?P=q)"
    r"(?=[ \t]*+(?:$|[.,;:!?)\n]|[—–-][ \t]))")
# A passphrase of words is told apart from a description by these: the clause after
# "the passphrase is" that is not a passphrase nearly always holds one of them.
_FUNCTION_WORDS = frozenset("""
a an the is are was were be been am it its this that these those my your our his her their
on in at to for of by with from as and or not no but so too very same than then there here
what which who how when where why can could should would will must may might need needs
stored saved kept written shared set changed reset required needed managed printed taped
long short new old also only still just again different easy hard
""".split())
_LOGIN = re.compile(
    r"(?<![A-Za-z0-9_.-])(?i:log[ -]?+in|credentials|creds)" + _FOR + _SAID
    + r"(?P<user>[^\s/:,;]{1,64}+)[ \t]{0,4}+(?:[/:]|,?[ \t]++(?i:pw|pwd|password))"
    r"[ \t]{0,4}+(?P<uv>[^\s\"'`<>(){}\[\]][^\s]{0,127}+)")


_QUESTION = re.compile(r"\s*+(?i:is|are|was|what|which|where|who|how|do|does|did|can|could"
                       r"|should|has|have)\b")


def _unpunctuated(value: str, text: str) -> str:
    """An unquoted value without the sentence punctuation it picked up; a `?` ends a value
    only in a question ("Is the wifi password Maple.river.31?"), else it is a symbol the
    password may well hold."""
    stripped = ";:\"'`" + ("?" if _QUESTION.match(text) else "")
    value = _trim(_trim(value).rstrip(stripped))
    return _trim(value.rstrip(stripped))


def _password_like(value: str, *, bare: bool) -> bool:
    """Whether a value after "password is" looks like a password rather than a word, a
    length, a date, a path, code or a hyphenated name."""
    masked = value.startswith("*") and len(set(value)) < 8  # "****", "*redacted*"
    if (len(value) < (6 if bare else 4) or masked or _looks_placeholder(value.lstrip("*"))
            or _DATE_LIKE.fullmatch(value) or "://" in value or value.startswith(_PATH_START)
            or any(ch in "()[]{}" for ch in value) or _CODE_REFERENCE.fullmatch(value)):
        return False  # getpass.getpass(), settings.PASSWORD: code, not a literal
    if value.isdigit():
        return True
    has_digit = any(ch.isdigit() for ch in value)
    has_letter = any(ch.isalpha() for ch in value)
    has_symbol = any(not ch.isalnum() for ch in value)
    if not ((has_digit and has_letter) or (has_symbol and (has_digit or has_letter))):
        return False
    parts = [p for p in _SEPARATORS.split(value) if p]
    if (len(parts) < 2 or not all(_PLAIN_PART.fullmatch(p) for p in parts)
            or any(_LEET.search(p) for p in parts)):
        return True  # C0rr3ct+8: digits inside a word
    # Only words and numbers between separators: a password manager's purple-Otter-42 has
    # three or more parts and a number; SHA-256, COVID-19 and 2FA-protected have two.
    if len(parts) >= 3:
        return has_digit
    return has_digit and all(sum(ch.isalpha() for ch in p) >= 3 for p in parts)


def _value_fits(key: str, value: str, *, bare: bool) -> str | None:
    """The kind of secret `value` is for the words `key` that introduce it, or None."""
    low = " ".join(key.lower().split())
    if bare and low == "pin" and key != "PIN":
        return None  # "pin 13 drives the LED"
    if low.startswith("pin") or low.endswith((" code", " pin")) or low == "code":
        if _DIGITS.fullmatch(value):
            return "pin" if low.startswith("pin") else "access-code"
        if low.startswith(("recovery", "backup")) and _GROUPED_CODE.fullmatch(value):
            return "access-code"
        return None
    if low in ("combination", "combo"):
        return "access-code" if _COMBINATION.fullmatch(value) else None
    if low == "passcode" and value.rstrip("#").isdigit():
        return "password" if 4 <= len(value.rstrip("#")) <= 12 else None
    if low in ("wifi", "wi-fi"):  # "the wifi is down", "the wifi is 300 Mbps"
        strong = len(value) >= 8 and not value.isdigit()
        return "password" if strong and _password_like(value, bare=bare) else None
    return "password" if _password_like(value, bare=bare) else None


def _qualified(m: re.Match[str], text: str) -> bool:
    """The words around a key that make it introduce a value: a bare "code" must be the code
    for something locked, a bare "wifi" must be said to be the value, and "KEY to VALUE" needs
    a verb of setting before it."""
    key = m.group("key").lower()
    sep = (m.groupdict().get("sep") or "").strip().lower()
    phrase = (m.groupdict().get("for") or "").lower()
    if key == "code" and not re.search(_LOCKED, phrase):
        return False
    if key in ("wifi", "wi-fi") and not sep:
        return False
    if key == "pw" and m.start("key") and text[m.start("key") - 1] == "'":
        return False  # "the PW's"
    return sep != "to" or _SETTING_BEFORE.search(text, 0, m.start("key")) is not None


def _said_values(text: str) -> Iterator[Found]:
    for bare, pattern in ((False, _SAID_VALUE), (True, _BARE_VALUE)):
        for m in pattern.finditer(text):
            if text.startswith("=", m.end("key")) or not _qualified(m, text):
                continue  # `password=...` is an assignment: credentials reads those
            group = next(g for g in ("dq", "sq", "bq", "uv") if m.group(g) is not None)
            value = m.group(group)
            if group == "uv":
                value = _unpunctuated(value, text)
            elif any(ch.isspace() for ch in value):
                continue  # a quoted phrase of words: a description (or a passphrase, below)
            start = m.start(group)
            if not value or _UNIT_AFTER.match(text, start + len(m.group(group))):
                continue
            kind = _value_fits(m.group("key"), value, bare=bare)
            if kind:
                yield 2, kind, start, start + len(value), _preview(value)


def _passphrases(text: str) -> Iterator[Found]:
    for m in _PASSPHRASE.finditer(text):
        words = re.split(r"[ \t-]", m.group("v").lower())
        if len(words) >= 3 and not any(w in _FUNCTION_WORDS for w in words):
            yield 2, "password", m.start("v"), m.end("v"), _preview(m.group("v"))


def _logins(text: str) -> Iterator[Found]:
    for m in _LOGIN.finditer(text):
        value = _unpunctuated(m.group("uv"), text)
        if value and _password_like(value, bare=False):
            start = m.start("uv")
            yield 2, "password", start, start + len(value), _preview(value)


def typed_credentials(text: str) -> Iterator[Found]:
    """Every credential a person typed into `text` in words, as `(tier, kind, start, end,
    preview)`: passwords, passphrases, login pairs, PINs, access codes and combinations."""
    low = text.lower()
    if not any(word in low for word in ("pass", "pw", "pin", "code", "comb", "wifi", "wi-fi",
                                        "login", "log in", "log-in", "cred")):
        return
    yield from _said_values(text)
    if "phrase" in low:
        yield from _passphrases(text)
    if "log" in low or "cred" in low:
        yield from _logins(text)
