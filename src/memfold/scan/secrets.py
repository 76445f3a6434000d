"""Find likely secrets in text before memfold stores it, and redact them.

memfold's Markdown is meant to be read, copied, committed and backed up, and everything it
stores is also fed back to a model.  A credential that slips into a Retain bullet would end up
in all of those places, and removing it later means rewriting files, the index, its WAL and
every backup.  So the cheap place to stop a secret is before it is written: `find_secrets`
scans text and reports spans that look like credentials; `redact` replaces each with
`[REDACTED:<kind>]`.  Pure functions of text: no I/O, no clock, no configuration.  A match
holds the span and a safe preview (`ghp_…f3a1`), never the secret itself.

What is detected, from most to least certain (a span claimed by a more certain detector is
never reported again by a less certain one):

1. Tokens with a published shape (a fixed prefix and a fixed alphabet and length):
   PEM and PGP private-key blocks (`-----BEGIN ... PRIVATE KEY-----` up to the matching END
   line, or to the end of the paragraph when it is cut off, holding at least 40 characters
   of base64), AWS access key ids (`AKIA`/`ASIA`/`ABIA`/`ACCA` + 16), GitHub tokens
   (`ghp_ gho_ ghu_ ghs_ ghr_` + 36, and fine-grained `github_pat_`), GitLab `glpat-`,
   OpenAI-style `sk-` / `sk-proj-` / `sk-svcacct-` / `sk-admin-`, Anthropic `sk-ant-`, Slack
   `xox[abcpres]-` and `xapp-` tokens and `hooks.slack.com` webhook URLs, Discord webhook
   URLs, Google API keys (`AIza` + 35), Stripe `sk_live_ rk_live_ sk_test_ rk_test_
   whsec_`, Twilio API key SIDs (`SK` + 32 hex), SendGrid `SG.x.y`, npm `npm_`, PyPI
   `pypi-AgE...`, Hugging Face `hf_`, DigitalOcean `dop_v1_`, Shopify `shpat_` and friends,
   Telegram bot tokens (`123456789:AA...`), age secret keys, and JWTs (three base64url parts
   whose first decodes to a JSON object with an "alg" field, signed with 16+ characters).
2. Secrets recognised by their context: `Authorization: Bearer <token>` and `Basic <b64>`
   (the latter only if it decodes to `user:password`), the password part of a URL or DSN
   (`postgres://user:pass@host`, `mongodb+srv://`, `redis://:pass@`, any scheme; the user
   name is kept), and assignments whose key names a secret — `password=...`,
   `"api_key": "..."`, `DB_PASSWORD: ...`, `--token ...`, `?access_token=...&` — with an
   AWS secret access key reported as such.  Only the value is reported, so redaction keeps
   the key: `DB_PASSWORD=[REDACTED:password]`.  Credentials a person types in words
   (`memfold.scan.phrases`): "The wifi password is purple-Otter-42.", "my pw for the
   staging box: Zebra#Violin77", "Bob's login is bob / Tr0ub4dor&3", "passphrase: correct
   horse battery staple", "door code is 4471", "locker combination: 12-34-56" — when the
   value looks like what its words introduce, so "I reset my password", "the door code
   changed last week" and "error code 404" are not reported.
3. Anything else that looks random enough to be key material: a run of 32+ characters of the
   base64 / base64url alphabet with upper case, lower case and digits, a Shannon entropy of
   at least 3.7 bits per character (rising to 4.6 for longer runs), frequent switches
   between character classes, too few common English letter pairs to be words run together
   (`handleOAuth2CallbackForGitHubApp`), and not a name made of words, acronyms and
   numbers between separators (`HuggingFaceH4/zephyr-orpo-141b-A35b-v0`).

What is deliberately *not* reported (each is a false positive some scanner makes):

* Names alone — `VITE_FIREBASE_API_KEY`, `GITHUB_TOKEN`, "no API key in the build": an
  assignment needs a value.  Keys that describe a secret rather than hold one
  (`max_tokens`, `token_type`, `password_length`, `nextPageToken`, `forgotPassword`,
  `password_hash`, `publicKeyToken`) are skipped by the words they contain, and so are
  values that name the secret instead of being one (`FORCE_CHANGE_PASSWORD =
  "FORCE_CHANGE_PASSWORD"`, `"pass": "bandpass"`).
* Placeholders and references: `<your password>`, `${DB_PASSWORD}`, `{{ secrets.X }}`,
  `process.env.X`, `settings.API_KEY`, `changeme`, `mypassword`, `xxx`, `****`,
  `password`, `null`, `'%s:%s'`, values containing "your", "example", "placeholder",
  "redacted" and the like (so the AWS documentation's `AKIAIOSFODNN7EXAMPLE` too), and
  bodies made of too few distinct characters.  This is a judgment: `changeme` *might* be a
  real password, but a store that flags every tutorial line trains people to pass
  `--allow-secret` by reflex.  A weak real password (`hunter2`, `123456`) is still reported.
* Code rather than literals: an unquoted value must have a digit, a symbol or random mixed
  case (`password = user_password` is a variable), and is skipped when it holds brackets
  (`token = token[1:]`), is a path (`pwd: /home/ana`), a date or version, a URL, or a
  type name of capitalised English words (`private_key: Ed25519PrivateKey`).  Tokens and
  keys (not passwords) must also be 8+ characters with a digit or random mixed case.  A
  quoted value is a literal from five characters, unless it holds whitespace (that is a
  description: `"token": "rotated weekly"`); a passphrase of plain words is missed.
* Hex alone is never high-entropy evidence: git SHAs, `sha256:` digests, UUIDs, checksums,
  Gerrit Change-Ids and checksummed `0x` addresses all look alike; hex is reported only
  with a prefix or in an assignment to a secret key.
* Base64 that is public or not key material: data URIs (`data:image/png;base64,...`),
  Subresource Integrity and lockfile digests (`sha512-...`, `h1:...`), SSH public keys
  (`AAAAB3NzaC1...`), certificate and public-key PEM blocks, Stripe publishable keys
  (`pk_live_`), base64 that decodes to a sentence or to JSON (a JWT header on its own),
  and anything inside a URL (URL paths carry document ids; credentials in URLs are caught
  by 2.).

Measured on tests/secret_corpus.py (seeded, fake): 277/277 secrets in 31 families found,
0/551 look-alikes flagged (50 of them sentences about passwords and PINs); on
tests/typed_secret_corpus.py, 230/231 credentials typed in words found (the miss: a 7-character
"wifi is ..." value, shorter than any WPA key) and 0/2,369 ordinary notes about passwords,
codes and numbers flagged; 0 of 2,198 LoCoMo turns and dev-set facts, written elsewhere.
Text with no key separator, flag, keyword or 15-character token run is passed by one cheap
check.  A bare
random string of exactly 32 characters is missed about once in 200 draws (it has no digit,
or happens to split into word-like parts).

Every regular expression here is linear: quantifiers are bounded or possessive, and a match
cannot start inside a longer run, so a 1 MB string is scanned in about a second whatever it
holds.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from memfold.scan.phrases import typed_credentials
from memfold.scan.values import (
    _AWS_SECRET_VALUE,
    _CANDIDATE,
    _DIGEST_BEFORE,
    _DIGEST_PREFIX,
    _HEX,
    _KEY_WORDS,
    _PUBLIC_B64_PREFIX,
    _SWITCH_MIN,
    _URL,
    _encodes_prose,
    _entropy,
    _has_digit_and_letter,
    _key_class,
    _looks_placeholder,
    _preview,
    _random_mixed_case,
    _structured,
    _switch_ratio,
    _trim,
    _value_qualifies,
    _wordy,
)

__all__ = ["SECRET_KINDS", "SecretMatch", "find_secrets", "redact"]


@dataclass(frozen=True)
class SecretMatch:
    """One likely secret: `text[start:end]` is the secret itself (the value, not its key).

    `preview` is safe to print or log: the family's public prefix (`ghp_`, `AKIA`, `sk-ant-`),
    an ellipsis, and the last four characters only when the secret has at least twenty more
    (`ghp_…f3a1`, `…` for a short password).  The match never holds the secret.
    """

    kind: str
    start: int
    end: int
    preview: str


# -- tier 0: tokens with a published shape -------------------------------------------------

# (kind, literals, pattern).  A pattern runs only if one of its literals is in the text (a
# substring test is far cheaper than a regex scan).  The group `p` is the public prefix
# shown in previews; group `b` is the random body, which must not look like a placeholder.
_SHAPED: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("aws-access-key-id", ("AKIA", "ASIA", "ABIA", "ACCA"),
     r"(?<![A-Za-z0-9])(?P<p>AKIA|ASIA|ABIA|ACCA)(?P<b>[A-Z0-9]{16})(?![A-Za-z0-9])"),
    ("github-token", ("gh",),
     r"(?<![A-Za-z0-9_])(?P<p>gh[pousr]_)(?P<b>[A-Za-z0-9]{36,251}+)(?![A-Za-z0-9_])"),
    ("github-token", ("github_pat_",),
     r"(?<![A-Za-z0-9_])(?P<p>github_pat_)(?P<b>[A-Za-z0-9_]{50,240}+)(?![A-Za-z0-9_])"),
    ("gitlab-token", ("gl",),
     r"(?<![A-Za-z0-9_-])(?P<p>gl(?:pat|dt|ptt|rt|oas)-)(?P<b>[A-Za-z0-9_-]{20,64}+)"
     r"(?![A-Za-z0-9_-])"),
    ("anthropic-key", ("sk-ant-",),
     r"(?<![A-Za-z0-9_-])(?P<p>sk-ant-(?:[a-z]{2,10}[0-9]{2}-)?)(?P<b>[A-Za-z0-9_-]{32,200}+)"
     r"(?![A-Za-z0-9_-])"),
    ("openai-key", ("sk-",),
     r"(?<![A-Za-z0-9_-])(?P<p>sk-(?:proj-|svcacct-|admin-|None-)?)(?!ant-)"
     r"(?P<b>[A-Za-z0-9_-]{32,200}+)(?![A-Za-z0-9_-])"),
    ("slack-token", ("xox",),
     r"(?<![A-Za-z0-9_-])(?P<p>xox[abcpres]-)(?P<b>[A-Za-z0-9-]{10,250}+)(?![A-Za-z0-9_-])"),
    ("slack-token", ("xapp-",),
     r"(?<![A-Za-z0-9_-])(?P<p>xapp-)(?P<b>[0-9]-[A-Za-z0-9-]{20,250}+)(?![A-Za-z0-9_-])"),
    ("slack-webhook", ("hooks.slack.com",),
     r"(?P<p>https://hooks\.slack\.com/(?:services|workflows|triggers)/)"
     r"(?P<b>[A-Za-z0-9_/+-]{20,300}+)"),
    ("discord-webhook", ("discord",),
     r"(?P<p>https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/)"
     r"(?P<b>[0-9]{5,30}+/[A-Za-z0-9_-]{20,200}+)"),
    ("google-api-key", ("AIza",),
     r"(?<![A-Za-z0-9_-])(?P<p>AIza)(?P<b>[A-Za-z0-9_-]{35})(?![A-Za-z0-9_-])"),
    ("stripe-key", ("k_live_", "k_test_"),
     r"(?<![A-Za-z0-9_])(?P<p>(?:sk|rk)_(?:live|test)_)(?P<b>[A-Za-z0-9]{20,247}+)"
     r"(?![A-Za-z0-9_])"),
    ("stripe-key", ("whsec_",),
     r"(?<![A-Za-z0-9_])(?P<p>whsec_)(?P<b>[A-Za-z0-9]{32,64}+)(?![A-Za-z0-9_])"),
    ("twilio-key", ("SK",),
     r"(?<![A-Za-z0-9_])(?P<p>SK)(?P<b>[0-9a-f]{32})(?![A-Za-z0-9_])"),
    ("sendgrid-key", ("SG.",),
     r"(?<![A-Za-z0-9_.-])(?P<p>SG\.)(?P<b>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"
     r"(?![A-Za-z0-9_-])"),
    ("npm-token", ("npm_",),
     r"(?<![A-Za-z0-9_])(?P<p>npm_)(?P<b>[A-Za-z0-9]{36})(?![A-Za-z0-9_])"),
    ("pypi-token", ("pypi-",),
     r"(?<![A-Za-z0-9_-])(?P<p>pypi-)(?P<b>AgE[A-Za-z0-9_-]{60,1000}+)(?![A-Za-z0-9_-])"),
    ("huggingface-token", ("hf_",),
     r"(?<![A-Za-z0-9_])(?P<p>hf_)(?P<b>[A-Za-z]{34})(?![A-Za-z0-9_])"),
    ("digitalocean-token", ("_v1_",),
     r"(?<![A-Za-z0-9_])(?P<p>do[pro]_v1_)(?P<b>[a-f0-9]{64})(?![A-Za-z0-9_])"),
    ("shopify-token", ("shp",),
     r"(?<![A-Za-z0-9_])(?P<p>shp(?:at|ca|pa|ss)_)(?P<b>[a-fA-F0-9]{32})(?![A-Za-z0-9_])"),
    ("telegram-bot-token", (":AA",),
     r"(?<![A-Za-z0-9_:])(?P<p>)(?P<b>[0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])"),
    ("age-secret-key", ("AGE-SECRET-KEY-1",),
     r"(?<![A-Za-z0-9_-])(?P<p>AGE-SECRET-KEY-1)(?P<b>[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})"
     r"(?![A-Za-z0-9_-])"),
)
_SHAPED_RE = tuple((kind, literals, re.compile(pattern)) for kind, literals, pattern in _SHAPED)

_PEM_BEGIN = re.compile(r"-----BEGIN (?P<label>[A-Z0-9 ]{0,40}+)-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}+-----")
_PEM_PRIVATE = re.compile(r"PRIVATE KEY")
_PEM_MAX = 64 * 1024  # the largest private key block is a few kilobytes
# Key material: 40+ characters in runs of 16+ base64 characters (the smallest key, an
# Ed25519 key in PKCS #8, is one line of 64).  A header quoted in prose ("the file starts
# with '-----BEGIN RSA PRIVATE KEY-----'") has none.
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}+")
_BLANK_LINE = re.compile(r"\n[ \t\r]{0,64}+\n")

_JWT = re.compile(
    r"(?<![A-Za-z0-9_-])(?P<h>eyJ[A-Za-z0-9_-]{8,2048}+)\.(?P<pl>[A-Za-z0-9_-]{2,16384}+)"
    r"\.(?P<s>[A-Za-z0-9_-]{16,2048}+)(?![A-Za-z0-9_-])"
)

# -- tier 1 and 2: secrets known by their context --------------------------------------------

_BEARER = re.compile(
    r"(?<![A-Za-z0-9_-])(?i:bearer)[ \t]{1,8}+(?P<v>[A-Za-z0-9._~+/-]{16,4096}+=*+)"
    r"(?![A-Za-z0-9._~+/=-])"
)
_BASIC = re.compile(
    r"(?<![A-Za-z0-9_-])(?i:basic)[ \t]{1,8}+(?P<v>[A-Za-z0-9+/]{8,1024}+={0,2}+)"
    r"(?![A-Za-z0-9+/=])"
)
_URL_CREDENTIALS = re.compile(
    r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{1,30}+)://"
    r"(?P<user>[^\s:/@?#\"'<>\[\]]{0,128}+):(?P<v>[^\s/@?#\"'<>\[\]]{1,256}+)@"
)
_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9_.-])(?P<key>[A-Za-z_-][A-Za-z0-9_.-]{0,63}+)[\"']?+[ \t]{0,8}+"
    r"(?P<sep>:=|=>|=|:)[ \t]{0,8}+"
    r"(?:\"(?P<dq>[^\"\r\n]{1,512}+)\"|'(?P<sq>[^'\r\n]{1,512}+)'"
    r"|(?P<uv>[^\s\"'`,;&<>(){}\[\]][^\s\"'`,;&<>]{0,511}+))"
)
_FLAG = re.compile(
    r"(?<![A-Za-z0-9_-])--(?P<key>[A-Za-z][A-Za-z0-9_-]{0,40}+)[ \t]{1,8}+"
    r"(?:\"(?P<dq>[^\"\r\n]{1,512}+)\"|'(?P<sq>[^'\r\n]{1,512}+)'"
    r"|(?P<uv>[^\s\"'`,;&|<>(){}\[\]-][^\s\"'`,;&|<>]{0,511}+))"
)
_QUERY = re.compile(  # a URL's query: `?access_token=...&` (the URL itself is one value)
    r"[?&](?P<key>[A-Za-z_-][A-Za-z0-9_.-]{0,63}+)=(?P<uv>[^&#\s\"'<>]{1,512}+)"
)
# -- the detectors ---------------------------------------------------------------------------

_Found = tuple[int, str, int, int, str]  # (tier, kind, start, end, preview)


def _shaped(text: str) -> Iterator[_Found]:
    for kind, literals, pattern in _SHAPED_RE:
        if not any(literal in text for literal in literals):
            continue
        for m in pattern.finditer(text):
            body = m.group("b")
            if _looks_placeholder(body, typed=False):
                continue
            if kind == "slack-token" and not any(ch.isdigit() for ch in body):
                continue  # xoxb-your-bot-token-goes-here
            if kind in ("openai-key", "anthropic-key") and (body.lower() == body):
                continue  # sk-some-long-kebab-case-name, not a key
            if kind == "huggingface-token" and (body.islower() or body.isupper()):
                continue
            yield 0, kind, m.start(), m.end(), _preview(m.group(), m.group("p"))


def _pem_blocks(text: str) -> Iterator[tuple[int, int, str]]:
    """Each `-----BEGIN X-----` block as (start, end, header line), up to its END line, or
    to the end of its paragraph when it is cut off (bounded to 64 KiB either way)."""
    # BEGIN lines come in order, so the first END (or blank line) at or after one is
    # searched for again only when the last one found lies before it: linear in len(text).
    if "-----BEGIN " not in text:
        return
    consumed = 0
    end_line: re.Match[str] | None = None
    end_searched = False
    blank: re.Match[str] | None = None
    blank_searched = False
    for m in _PEM_BEGIN.finditer(text):
        if m.start() < consumed:
            continue
        if not end_searched or (end_line is not None and end_line.start() < m.end()):
            end_line = _PEM_END.search(text, m.end())
            end_searched = True
        if end_line is not None and end_line.start() - m.end() <= _PEM_MAX:
            end = end_line.end()
        else:
            if not blank_searched or (blank is not None and blank.start() < m.end()):
                blank = _BLANK_LINE.search(text, m.end())
                blank_searched = True
            end = min(len(text) if blank is None else blank.start(), m.end() + _PEM_MAX)
        consumed = end
        yield m.start(), end, m.group()


def _private_keys(text: str) -> Iterator[_Found]:
    for start, end, header in _pem_blocks(text):
        body = text[start + len(header):end]
        if _PEM_PRIVATE.search(header) and sum(map(len, _PEM_BODY.findall(body))) >= 40:
            yield 0, "private-key", start, end, f"{header}…"


def _jwts(text: str) -> Iterator[_Found]:
    if "eyJ" not in text:
        return
    for m in _JWT.finditer(text):
        header = m.group("h")
        try:
            decoded = json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))
        except (ValueError, binascii.Error):
            continue
        if isinstance(decoded, dict) and "alg" in decoded:
            yield 0, "jwt", m.start(), m.end(), _preview(m.group(), "eyJ")


def _headers(text: str) -> Iterator[_Found]:
    low = text.lower()
    for m in _BEARER.finditer(text) if "bearer" in low else ():
        value = m.group("v")
        if _looks_placeholder(value) or not (_has_digit_and_letter(value)
                                             or _random_mixed_case(value)):
            continue
        yield 1, "bearer-token", m.start("v"), m.end("v"), _preview(value)
    for m in _BASIC.finditer(text) if "basic" in low else ():
        value = m.group("v")
        try:
            plain = base64.b64decode(value, validate=True).decode("ascii")
        except (ValueError, binascii.Error):
            continue
        user, colon, password = plain.partition(":")
        if colon and user and password and plain.isprintable():
            yield 1, "basic-auth", m.start("v"), m.end("v"), _preview(value)


def _url_credentials(text: str) -> Iterator[_Found]:
    if "://" not in text:
        return
    for m in _URL_CREDENTIALS.finditer(text):
        value = m.group("v")
        if _looks_placeholder(value) or value.lower() in ("pass", "pw", "pwd"):
            continue
        yield 1, "dsn-credentials", m.start("v"), m.end("v"), _preview(value)


def _assignments(text: str) -> Iterator[_Found]:
    patterns = [_ASSIGNMENT] if ("=" in text or ":" in text) else []
    patterns += [_FLAG] if "--" in text else []
    patterns += [_QUERY] if ("?" in text or "&" in text) and "=" in text else []
    for pattern in patterns:
        for m in pattern.finditer(text):
            key_class = _key_class(m.group("key"))
            if key_class is None:
                continue
            found = m.groupdict()
            group = "dq" if found.get("dq") is not None else "sq" if found.get(
                "sq") is not None else "uv"
            quoted = group != "uv"
            value = m.group(group) if quoted else _trim(m.group(group))
            if not _value_qualifies(value, quoted, key_class, m.group("key")):
                continue
            kind = key_class
            words = {w.lower() for w in _KEY_WORDS.findall(m.group("key"))}
            if ("secret" in words and ({"aws", "access"} & words)
                    and _AWS_SECRET_VALUE.fullmatch(value)):
                kind = "aws-secret-key"
            start = m.start(group)
            yield 2, kind, start, start + len(value), _preview(value)


def _public_spans(text: str) -> list[tuple[int, int]]:
    """URLs, and certificate and public-key blocks: spans the high-entropy check skips."""
    spans = [m.span() for m in _URL.finditer(text)] if "://" in text else []
    spans += [(s, e) for s, e, header in _pem_blocks(text) if not _PEM_PRIVATE.search(header)]
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _high_entropy(text: str) -> Iterator[_Found]:
    public = _public_spans(text)
    u = 0
    for m in _CANDIDATE.finditer(text):
        value = m.group("v")
        start = m.start("v")
        while u < len(public) and public[u][1] <= start:
            u += 1
        if u < len(public) and public[u][0] <= start:
            continue
        if not (any("a" <= ch <= "z" for ch in value) and any("A" <= ch <= "Z" for ch in value)
                and any("0" <= ch <= "9" for ch in value)) or _HEX.fullmatch(value, 2):
            continue
        if (value.startswith(_PUBLIC_B64_PREFIX) or _DIGEST_PREFIX.match(value)
                or _looks_placeholder(value, typed=False)):
            continue
        if _DIGEST_BEFORE.search(text, max(0, start - 16), start):
            continue
        if _switch_ratio(value) < _SWITCH_MIN or _wordy(value) or _structured(value):
            continue
        if _encodes_prose(m.group()):
            continue
        if _entropy(value) < _entropy_floor(len(value)):
            continue
        yield 3, "high-entropy", start, m.end(), _preview(m.group())


def _entropy_floor(n: int) -> float:
    """The entropy a run of n characters needs.  Random base64 of 32 characters measures
    4.56 bits on average and 3.8 at the very least (in 2,000 draws), of 64 characters 5.2
    and 4.8: the floor rises from 3.7 bits at 32 characters to 4.6 from 68 on."""
    return min(4.6, 3.7 + max(0, n - 32) * 0.025)


_DETECTORS: tuple[Callable[[str], Iterator[_Found]], ...] = (
    _private_keys, _shaped, _jwts, _headers, _url_credentials, _assignments,
    typed_credentials, _high_entropy,
)

SECRET_KINDS: tuple[str, ...] = (
    *dict.fromkeys(kind for kind, _, _ in _SHAPED),
    "private-key", "jwt", "bearer-token", "basic-auth", "dsn-credentials", "aws-secret-key",
    "password", "pin", "access-code", "token", "api-key", "secret", "high-entropy",
)


# Every detector needs one of these to fire: a key separator (assignments, DSNs, Telegram
# tokens), a flag, a keyword (basic, bearer, pass, pw, pin, code, comb, wifi, log, cred:
# Basic auth, a credential told in words;
# spelled out below rather than looped over, as this runs on every fact indexed), or a run
# of 15 token characters (every shaped token, JWT, bearer value, key block and high-entropy
# run is one).
# Most prose has none, and one search is far cheaper than running the detectors: indexing
# scans every fact, and recall every result it shows.
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/_.~-]{15}")


def _maybe_secret(text: str) -> bool:
    if ":" in text or "=" in text or "--" in text:
        return True
    low = text.lower()
    return ("basic" in low or "bearer" in low or "pass" in low or "pw" in low or "pin" in low
            or "code" in low or "comb" in low or "wifi" in low or "wi-fi" in low
            or "log" in low or "cred" in low or _TOKEN_RUN.search(text) is not None)


def find_secrets(text: str) -> list[SecretMatch]:
    """The likely secrets in `text`, in order, never overlapping.

    Where two detectors claim overlapping spans, the more certain one wins (a shaped token
    over a context match over high entropy), then the earlier, then the longer span.
    """
    if not _maybe_secret(text):
        return []
    found = sorted((f for detect in _DETECTORS for f in detect(text)),
                   key=lambda f: (f[0], f[2], f[2] - f[3]))
    kept: list[SecretMatch] = []  # from more certain tiers: sorted by start, disjoint
    starts: list[int] = []
    tier_kept: list[SecretMatch] = []  # from the tier being resolved, arriving in order
    tier = 0
    for this_tier, kind, start, end, preview in found:
        if this_tier != tier:  # merge once per tier, so this stays linear
            kept = sorted(kept + tier_kept, key=lambda m: m.start)
            starts = [m.start for m in kept]
            tier_kept, tier = [], this_tier
        if start >= end or (tier_kept and tier_kept[-1].end > start):
            continue
        at = bisect.bisect_right(starts, start)
        if (at and kept[at - 1].end > start) or (at < len(kept) and kept[at].start < end):
            continue
        tier_kept.append(SecretMatch(kind, start, end, preview))
    return sorted(kept + tier_kept, key=lambda m: m.start)


def redact(text: str) -> str:
    """`text` with every likely secret replaced by `[REDACTED:<kind>]`."""
    parts: list[str] = []
    at = 0
    for m in find_secrets(text):
        parts.append(text[at:m.start])
        parts.append(f"[REDACTED:{m.kind}]")
        at = m.end
    parts.append(text[at:])
    return "".join(parts)
