"""How a candidate value is judged: the shapes, words and measures `memfold.scan.secrets` uses
to tell a credential from a placeholder, a code reference, a date, a path or prose.

Pure functions of text; the detectors in `memfold.scan.secrets` call them.  Split out so each
module stays readable: the detectors (what is looked at) there, the judgement (what counts)
here.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter

# A dotted reference to code (settings.API_KEY, config.db.password) is not a literal.
_CODE_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)++")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*+")
_CAPITALISED = re.compile(r"[A-Z][a-z]{2,}")
_COLOUR = re.compile(r"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")
_AWS_SECRET_VALUE = re.compile(r"[A-Za-z0-9/+]{40}")
_PATH_START = ("/", "~/", "./", "../", "\\")  # `pwd: /home/ana` is the shell's answer
_DATE_LIKE = re.compile(r"[vV]?[0-9]{1,4}(?:[-/.:][0-9]{1,4}){1,5}[A-Za-z]{0,2}")
_KEY_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

_PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "passcode",
                             "passw", "pword"})
_SECRET_WORDS = frozenset({"secret", "secretkey", "apikey", "apisecret", "privatekey",
                           "accesskey", "authkey", "clientsecret"})
_KEY_QUALIFIERS = frozenset({"api", "access", "private", "secret", "auth", "signing",
                             "encryption", "master", "client", "app", "service", "license",
                             "webhook", "session", "consumer", "account", "admin"})
# A key holding one of these words describes a secret instead of holding it.
_META_WORDS = frozenset({
    "length", "len", "min", "max", "minimum", "maximum", "count", "num", "number", "limit",
    "limits", "size", "type", "types", "kind", "name", "names", "id", "ids", "url", "uri",
    "endpoint", "path", "file", "filename", "dir", "env", "var", "variable", "hint", "label",
    "placeholder", "prompt", "title", "text", "message", "msg", "error", "errors", "help",
    "description", "desc", "tooltip", "field", "input", "button", "link", "policy", "rules",
    "strength", "expires", "expiry", "expiration", "expired", "ttl", "lifetime", "timeout",
    "header", "prefix", "suffix", "format", "required", "enabled", "disabled", "enable",
    "disable", "valid", "invalid", "changed", "updated", "created", "last", "hash", "hashed",
    "digest", "rounds", "algorithm", "algo", "manager", "store", "storage", "provider",
    "source", "usage", "used", "tokens", "tokenizer", "tokenize", "per", "rate", "budget",
    "window", "encoding", "mode", "forgot", "reset", "page", "next", "cursor", "continuation",
    "sync", "rotation", "rotate", "auto", "show", "hide", "visible",
    "reveal", "less", "protected", "is", "has", "should", "allow", "allowed", "ref",
    "reference", "arn", "version", "versions", "bytes", "bits", "position", "index", "estimate",
    "regex", "pattern", "schema", "example", "sample", "test", "fake", "dummy", "mock",
    "public", "publishable", "latency", "offset", "string", "context",
})
_PLACEHOLDER_EQUALS = frozenset({
    "password", "passwd", "pass", "secret", "token", "apikey", "api_key", "key", "none",
    "null", "nil", "undefined", "true", "false", "yes", "no", "on", "off", "empty", "required",
    "optional", "string", "str", "test", "testing", "default", "hidden", "masked", "bearer",
    "basic", "include", "omit", "same-origin", "x-oauth-basic", "admin", "root", "user",
    "username", "guest", "foobar", "foo", "bar", "baz", "unset", "unknown",
    "n/a", "na", "tbd", "todo", "fixme", "value", "sensitive",
})
# Marks of a placeholder, looked for anywhere in a value.  Long enough that random text
# does not contain them by chance (a random 150-character body would hold "todo" about
# once in ten thousand tokens), except the short ones, which are only looked for in the
# values of assignments and headers, where a person typed the value.
_PLACEHOLDER_WORDS = ("example", "placeholder", "changeme", "change_me", "change-me",
                      "redacted", "xxxxx", "*****", "....", "sample", "replace", "insert_",
                      "your_", "your-", "yourkey", "yourtoken", "yourpass", "yoursecret",
                      "_here", "-here", "getenv", "environ", "process.env", "vault:",
                      "!vault", "enc[", "arn:aws:", "secretsmanager", "keyring", "...", "…")
_PLACEHOLDER_SHORT = ("your", "here", "xxx", "***", "todo", "fixme", "dummy", "insert")
_MY_WORD = re.compile(r"(?:my|the|some|a|new|old)[-_]?(?:pass(?:word|wd)?|pwd|pw|secret|token"
                      r"|key|api[-_]?key)[0-9]{0,3}")
_FORMAT_ONLY = re.compile(r"(?:%[sdr]|\{[0-9]*\}|[:@/ ._-])++")
_PLACEHOLDER_START = ("<", "$", "{", "%(", "%{", "[", "#{", "&", "*")

# -- tier 3: high-entropy runs ---------------------------------------------------------------

_CANDIDATE = re.compile(
    r"(?<![A-Za-z0-9+/_-])(?P<v>[A-Za-z0-9+/_-]{32,4096}+)={0,2}+(?![A-Za-z0-9+/_=-])"
)
_URL = re.compile(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}+://[^\s<>\"'`]{1,8192}+")
_DIGEST_BEFORE = re.compile(
    r"(?:sha(?:1|224|256|384|512)|sha3-(?:224|256|384|512)|md5|h1|blake2[bs]?|blake3|"
    r"integrity|checksum|digest|base64,)[:=\-, \t\"']{0,3}$",
    re.IGNORECASE,
)
_DIGEST_PREFIX = re.compile(r"(?:sha(?:1|224|256|384|512)|sha3|md5|blake2[bs]?)-", re.I)
_PUBLIC_B64_PREFIX = ("AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh", "AAAAB3NzaC1kc3",
                      "pk_live_", "pk_test_")
# Hex from the third character on: a Gerrit Change-Id (I + hex) and a checksummed address
# (0x + mixed-case hex) are hex too.
_HEX = re.compile(r"(?:[xX]|[0-9A-Fa-f-])[0-9A-Fa-f-]*+")
# Common letter pairs of English: identifiers and paths are made of words and hit these
# often; random text hits them about one pair in six.
_COMMON_PAIRS = frozenset("""
th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve
co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no
ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts
mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld
""".split())
_SWITCH_MIN = 0.3
_SEPARATORS = re.compile(r"[-_/+.]")
# A part of a name: words, acronyms, numbers and letters stuck to numbers, run together
# (`ELBSecurityPolicy`, `TLS13`, `141b`, `zephyr`).  Possessive, so it cannot backtrack.
_PLAIN_PART = re.compile(r"(?:[A-Z]?+[a-z]{2,}+|[A-Z]{2,}+(?![a-z]{2})|[A-Z]{2,}?(?=[A-Z][a-z])"
                         r"|[0-9]++|[A-Za-z](?=[0-9])|(?<=[0-9])[A-Za-z]{1,2}+(?![a-z]))++")

_TAIL = 4
_TAIL_MIN_LEN = 20


def _preview(secret: str, prefix: str = "") -> str:
    """The public prefix, an ellipsis, and the last four characters of a long body."""
    body = secret[len(prefix):]
    tail = body[-_TAIL:] if len(body) >= _TAIL_MIN_LEN else ""
    return f"{prefix}…{tail}"


def _entropy(value: str) -> float:
    """Bits per character of `value`'s own character distribution (0 for an empty string)."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _class_of(ch: str) -> int:
    if "a" <= ch <= "z":
        return 0
    if "A" <= ch <= "Z":
        return 1
    if "0" <= ch <= "9":
        return 2
    return 3


def _switch_ratio(value: str) -> float:
    """How often consecutive characters change class (lower, upper, digit, symbol): about
    0.64 for random base64, near 0 for snake_case and lower-case words."""
    if len(value) < 2:
        return 0.0
    classes = [_class_of(ch) for ch in value]
    return sum(a != b for a, b in zip(classes, classes[1:], strict=False)) / (len(value) - 1)


def _has_digit_and_letter(value: str) -> bool:
    return any(ch.isdigit() for ch in value) and any(ch.isalpha() for ch in value)


def _random_mixed_case(value: str) -> bool:
    """Letters in both cases, switching often, not words: `EHImjCPzPyyijHynNvJsQvcFO`
    but not `userPassword` or `CurrentSessionToken`."""
    return (len(value) >= 16 and any(ch.islower() for ch in value)
            and any(ch.isupper() for ch in value[1:])
            and _switch_ratio(value) >= _SWITCH_MIN and not _wordy(value)
            and not _camel_name(value))


def _wordy(value: str) -> bool:
    """True when `value` reads as words run together (`handleOAuth2CallbackForGitHub`,
    `src/main/java/com/example`): it has at least 9 + len/10 common English letter pairs.
    In 20,000 random base64 strings the most seen was 9 in 32 characters and 17 in 100;
    identifiers of that length have 12 to 27."""
    common = sum(1 for a, b in zip(value, value[1:], strict=False)
                 if a.isalpha() and b.islower() and (a.lower() + b) in _COMMON_PAIRS)
    return common >= 9 + len(value) // 10


def _structured(value: str) -> bool:
    """Three or more parts between separators, each made of words, acronyms and numbers
    (`PS-or-PDF-font-exception-20170817`, `HuggingFaceH4/zephyr-orpo-141b-A35b-v0`): a
    name.  Random base64 of 32 characters passes for one about twice in a thousand."""
    parts = [p for p in _SEPARATORS.split(value) if p]
    return len(parts) >= 3 and all(_PLAIN_PART.fullmatch(p) for p in parts)


def _encodes_prose(run: str) -> bool:
    """Whether a base64 run decodes to a sentence (three or more words of printable text)
    or to JSON (a JWT header, `{"alg":"HS256"}`).  Key material decodes to bytes; an
    encoded password decodes to one word and is kept."""
    core = run.rstrip("=")
    if len(core) % 4 == 1:
        return False
    try:
        plain = base64.b64decode(core + "=" * (-len(core) % 4)).decode("utf-8")
    except (ValueError, binascii.Error):
        return False
    return plain.isprintable() and (plain.count(" ") >= 2 or plain.startswith("{\""))


def _looks_placeholder(value: str, *, typed: bool = True) -> bool:
    """True for `<your key>`, `${TOKEN}`, `changeme`, `xxxxxxxx` and the like.  `typed` is
    for values a person chose (assignments, headers); the body of a shaped token is
    random, so only the long marks apply to it."""
    low = value.lower()
    if low in _PLACEHOLDER_EQUALS or low.startswith(_PLACEHOLDER_START):
        return True
    if _FORMAT_ONLY.fullmatch(value) or _MY_WORD.fullmatch(low):  # '%s:%s', mypassword
        return True
    if any(word in low for word in _PLACEHOLDER_WORDS):
        return True
    if typed and any(word in low for word in _PLACEHOLDER_SHORT):
        return True
    distinct = len(set(low))
    return distinct <= 2 or distinct < min(6, (len(low) + 1) // 2)


def _key_class(key: str) -> str | None:
    """The kind of secret a key name holds (password, token, api-key, secret), or None."""
    words = [w.lower() for w in _KEY_WORDS.findall(key)]
    if not words or any(w in _META_WORDS for w in words):
        return None
    joined = "".join(words)
    if any(w in _PASSWORD_WORDS or w.endswith(("password", "passwd", "passphrase"))
           for w in words if w != "pass") or words[-1] == "pass":  # db_pass, not pass_context
        return "password"
    if any(w.endswith("token") for w in words):
        return "token"
    if (joined in ("apikey", "xapikey") or "apikey" in words
            or ("key" in words and "api" in words)):
        return "api-key"
    if (any(w in _SECRET_WORDS or w.endswith("secret") for w in words)
            or joined in _SECRET_WORDS
            or (words[-1] == "key" and len(words) > 1 and words[-2] in _KEY_QUALIFIERS)):
        return "secret"
    return None


def _camel_name(value: str) -> bool:
    """`Ed25519PrivateKey`, `SSHCertPrivateKeyTypes`: capitalised English-looking words make
    up half of it.  Random text has capitalised chunks too (`Tpz`, `Gjb`), but their letter
    pairs are rarely common English ones."""
    words = _CAPITALISED.findall(value)
    pairs = [w[i:i + 2].lower() for w in words for i in range(len(w) - 1)]
    common = sum(pair in _COMMON_PAIRS for pair in pairs)
    return len(words) >= 2 and sum(map(len, words)) * 2 >= len(value) and common * 3 >= len(pairs)


def _names_itself(value: str, key: str) -> bool:
    """`FORCE_CHANGE_PASSWORD = "FORCE_CHANGE_PASSWORD"`, `NOPASSWORD = "no-password"`,
    `"forgot": "forgotPassword"`: an enum or a label that names the secret, not one."""
    norm = re.sub(r"[-_.\s]", "", value).lower()
    if norm == re.sub(r"[-_.\s]", "", key).lower():
        return True
    words = [w.lower() for w in _KEY_WORDS.findall(key) if len(w) >= 4 or w.lower() == "pass"]
    return (not any(ch.isdigit() for ch in value) and _NAME.fullmatch(value) is not None
            and any(word in norm for word in (*words, "password", "passwd", "secret", "token")))


def _value_qualifies(value: str, quoted: bool, key_class: str, key: str) -> bool:
    """Whether an assigned value is a literal secret rather than a placeholder, a reference,
    code or a description."""
    if _looks_placeholder(value) or _COLOUR.fullmatch(value) or _names_itself(value, key):
        return False
    if key_class != "password" and not (  # tokens and keys are random, not words
            len(value) >= 8 and (any(ch.isdigit() for ch in value)
                                 or _random_mixed_case(value))):
        return False
    if quoted:
        return len(value) >= 5 and not any(ch.isspace() for ch in value)
    if len(value) < 6 or any(ch in "()[]{}" for ch in value):
        return False  # token[1:], parse(lines[2]): code, not a literal
    if _NAME.fullmatch(value) and _camel_name(value):
        return False  # private_key: Ed25519PrivateKey, a type or a class
    has_digit = any(ch.isdigit() for ch in value)
    has_symbol = any(ch in "!#%^*+=?~|\\/:@$" for ch in value[1:])
    if not (has_digit or has_symbol or _random_mixed_case(value)):
        return False
    if "://" in value or _DATE_LIKE.fullmatch(value) or value.startswith(_PATH_START):
        return False
    return not _CODE_REFERENCE.fullmatch(value)


_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _trim(value: str) -> str:
    """Drop sentence punctuation a prose value picks up: `password=abc123.` or `(token=x1)`."""
    while value:
        last = value[-1]
        if last in ".," or (last in _CLOSERS
                            and value.count(last) > value.count(_CLOSERS[last])):
            value = value[:-1]
        else:
            break
    return value
