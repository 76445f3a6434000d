"""Find text a model would read but a person reviewing memory would not see, and show it.

memfold's memory is fed back into a model's context.  Anything written there can steer the
model later, so a poisoned fact is most dangerous when the person who reviews memory cannot
see it: characters that render as nothing, text that a Markdown viewer hides, or text shown
in a different order from the one the model reads.  `find_hidden` reports such content;
`reveal` rewrites text so that every hidden part is visible in plain text, with markers in
`⟦…⟧`, and nothing in its output renders differently from what it says.  Pure functions of
text: no I/O, no clock.

What is reported (`HiddenMatch.kind`):

``tag``
    Unicode tag characters (U+E0000–U+E007F).  They mirror ASCII, render as nothing, and
    models read them: a whole instruction can ride inside one line.  `detail` is the
    decoded text.  Exception: the subdivision flags (🏴 + tag letters + CANCEL TAG, as in
    the flags of England, Scotland and Wales) are emoji and are left alone.
``zero-width``
    ZERO WIDTH SPACE, NON-JOINER and JOINER (U+200B–U+200D), WORD JOINER (U+2060), the
    Mongolian vowel separator (U+180E), and U+FEFF anywhere but at the very start (where it
    is a byte-order mark).  They split words so that filters miss them and can carry bits.
    Exceptions, because real writing needs them: a single JOINER between two emoji
    (👨‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻), and a single JOINER or NON-JOINER between two characters of a
    script that uses them to choose letter forms — Arabic and its relatives (Persian writes
    می‌خواهم with a non-joiner), Syriac, Thaana, N'Ko, the Indic scripts from Devanagari to
    Sinhala (क्‍ष), Tibetan, Myanmar, Khmer and Mongolian.  Joiners in Latin, Cyrillic,
    Greek or CJK text, runs of two or more, and joiners at either end of a word are reported.
``bidi``
    Directional controls: embeddings and overrides (U+202A–U+202E), isolates
    (U+2066–U+2069) and the marks LRM, RLM and ALM (U+200E, U+200F, U+061C).  They make
    text display in another order than it is read ("Trojan Source").  Arabic and Hebrew
    text needs none of them to display correctly, so all are reported.
``format``
    Every other invisible format character (Unicode category Cf): the soft hyphen, the
    invisible math operators, deprecated format controls, interlinear annotation marks,
    shorthand and musical format controls.  Not reported: the Arabic, Syriac and Kaithi
    number marks that are drawn (U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2,
    U+110BD, U+110CD) and the Egyptian hieroglyph format controls (U+13430–U+1345F).
``variation-selector``
    Variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, and the Mongolian free ones)
    used other than as one selector after the character it modifies: two or more in a row
    (a known way to smuggle bytes inside an emoji), one with no character before it, a
    supplementary selector after anything but a CJK ideograph, or a Mongolian one after
    anything but Mongolian.  ❤️ and 1️⃣ are fine.
``invisible``
    Letters and marks that render as blank space: the Hangul fillers (U+115F, U+1160,
    U+3164, U+FFA0), the combining grapheme joiner (U+034F) and the Khmer inherent vowels
    (U+17B4, U+17B5).
``html-comment``
    `<!-- ... -->`, which every Markdown viewer hides; an unterminated `<!--` hides the
    rest of the text and is reported to its end.
``empty-link`` / ``remote-image`` / ``link-title``
    A link whose text has nothing visible (`[](https://…)`; `[]()` with no target hides
    nothing and is common in code, so it is left alone), an image with empty alt text and
    a remote address (fetched by viewers, and a common way to send data out; a local
    `![](img.png)` is shown), and the title of a link (`[docs](https://… "title")`),
    shown only on hover.
``link-definition``
    A reference definition with a title or an empty target (`[//]: # (comment)`, the usual
    Markdown comment trick): viewers render none of it.
``fence-info``
    The info string after an opening code fence when it says more than a language name
    (three or more words, or over 40 characters): viewers show none of it.
``hidden-html``
    An HTML tag that hides its content: the `hidden` attribute, or a style with
    `display:none`, `visibility:hidden`, `font-size:0`, `opacity:0` or a transparent colour.
``base64-text``
    A base64 run of 24+ characters that decodes to readable text of three or more words:
    instructions a model can decode and a person skims past.  `detail` is the decoded text.

HTML comments, links, definitions and HTML tags inside a Markdown code span or fenced code
block are shown literally by viewers, so they are not reported there (a code span is
recognised within one line; one across lines is not, which only means more is reported);
invisible characters are reported wherever they are.  Matches of the Markdown kinds may
contain matches of the character kinds (a zero-width space inside an HTML comment is
reported as both).  memfold's own markers (`<!-- memfold:generated ... -->`,
`<!-- h:... -->`) are HTML comments like any other: callers that scan whole pages decide
whether to show them.

Measured on tests/scan/test_hidden.py: 121/121 hidden payloads flagged, 0 of 316 benign strings
in 40+ scripts, emoji sequences and Markdown flagged.

Known gaps: look-alike letters from other scripts (homoglyphs), white-on-white colours
other than `transparent`, CSS classes that hide text, a joiner at the end of an Arabic or
Indic word (reported, though legitimate), and text hidden by images are not handled.
Every scan is linear in the length of the text: scanners are possessive or bounded
regular expressions and single passes.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["HIDDEN_KINDS", "HiddenMatch", "find_hidden", "reveal"]

HIDDEN_KINDS = ("tag", "zero-width", "bidi", "format", "variation-selector", "invisible",
                "html-comment", "empty-link", "remote-image", "link-title", "link-definition",
                "fence-info", "hidden-html", "base64-text")


@dataclass(frozen=True)
class HiddenMatch:
    """`text[start:end]` is hidden content of `kind`; `detail` says what it is, in plain
    visible text (decoded tag characters, code points, a comment's body, a link's target)."""

    kind: str
    start: int
    end: int
    detail: str


# -- characters ------------------------------------------------------------------------------

ZWNJ, ZWJ, BOM = "\u200c", "\u200d", "\ufeff"
BLACK_FLAG = "\U0001f3f4"
CANCEL_TAG = "\U000e007f"

# The characters of each kind, as regex classes.  The format (Cf) ranges are those of
# Unicode 14-15 minus the drawn number marks and Egyptian format controls, which are in no
# class; a test checks that every Cf character of the running Python is in one class or
# in LEGIT_FORMAT.
_CLASSES = {
    "tag": "\U000e0000-\U000e007f",
    "zero-width": "\u200b-\u200d\u2060\u180e\ufeff",
    "bidi": "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c",
    "variation-selector": "\ufe00-\ufe0f\U000e0100-\U000e01ef\u180b-\u180d\u180f",
    "invisible": "\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5",
    "format": "\u00ad\u2061-\u2064\u206a-\u206f\ufff9-\ufffb\U0001bca0-\U0001bca3"
              "\U0001d173-\U0001d17a",
}
_SUSPECT = re.compile("[" + "".join(_CLASSES.values()) + "]++")
# One maximal run of a single kind.
_RUNS = re.compile("|".join(f"(?P<{kind.replace('-', '_')}>[{chars}]++)"
                            for kind, chars in _CLASSES.items()))
_KIND_OF_GROUP = {kind.replace("-", "_"): kind for kind in _CLASSES}
_MAY_JOIN = frozenset((ZWJ, ZWNJ, BOM))  # the zero-width characters that can be legitimate
# Format characters that are drawn, or belong to a script's own layout: never reported.
LEGIT_FORMAT = frozenset(
    [chr(c) for c in range(0x0600, 0x0606)] + ["\u06dd", "\u070f", "\u0890", "\u0891",
                                               "\u08e2", "\U000110bd", "\U000110cd"]
    + [chr(c) for c in range(0x13430, 0x13460)]
)

# Scripts that use ZWJ / ZWNJ to choose letter forms: Arabic, Syriac, Thaana, N'Ko and the
# Arabic supplements; the Indic scripts from Devanagari to Sinhala; Tibetan; Myanmar; Khmer
# and Mongolian; Devanagari Extended; Arabic presentation forms.
_JOINING = re.compile("[\u0600-\u08ff\u0900-\u0dff\u0f00-\u0fff\u1000-\u109f\u1780-\u18af"
                      "\ua8e0-\ua8ff\ufb50-\ufdff\ufe70-\ufefc]")
_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2300-\u23ff\u2b00-\u2bff"
                    "\u2190-\u21ff\u25a0-\u25ff\u2900-\u297f\u3030\u303d\u3297\u3299"
                    "\u00a9\u00ae\u203c\u2049\u2122\u2139]")


def _legit_single(text: str, i: int, kind: str) -> bool:
    """Whether the lone character at i (its neighbours are of other kinds) is there for the
    writing rather than to hide something."""
    ch = text[i]
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if kind == "zero-width":
        if ch == BOM:
            return i == 0
        if ch == ZWJ and _EMOJI.match(after):
            base = text[i - 2] if before in ("\ufe0e", "\ufe0f") and i > 1 else before
            if _EMOJI.match(base):
                return True
        return bool(_JOINING.match(before) and _JOINING.match(after))
    if kind == "variation-selector":
        if not before or before.isspace() or _SUSPECT.match(before):
            return False  # nothing to modify
        if "\u180b" <= ch <= "\u180f":
            return "\u1800" <= before <= "\u18af"
        if ch >= "\U000e0100":
            return bool(_CJK.match(before))
        return True
    return False


def _flag_tags(text: str, start: int, end: int) -> bool:
    """Whether tag characters text[start:end] spell a subdivision flag (🏴 + tags + CANCEL)."""
    body = text[start:end - 1]
    return (start > 0 and text[start - 1] == BLACK_FLAG and text[end - 1] == CANCEL_TAG
            and 2 <= len(body) <= 7
            and all("\U000e0030" <= c <= "\U000e0039" or "\U000e0061" <= c <= "\U000e007a"
                    for c in body))


def _decode_tags(chars: str) -> str:
    out = []
    for ch in chars:
        cp = ord(ch) - 0xE0000
        if 0x20 <= cp <= 0x7E:
            out.append(chr(cp))
        elif cp != 0x7F:  # CANCEL TAG only ends a sequence
            out.append(f"<U+{ord(ch):X}>")
    return "".join(out)


_RUN_SHOWN = 16


def _codes(chars: str) -> str:
    if len(chars) == 1:
        return f"U+{ord(chars):04X}"
    shown = " ".join(f"U+{ord(c):04X}" for c in chars[:_RUN_SHOWN])
    if len(chars) > _RUN_SHOWN:
        shown += f" … ({len(chars)} characters)"
    return shown


def _char_matches(text: str) -> Iterator[HiddenMatch]:
    """One match per maximal run of reported characters of one kind.  Only a lone joiner,
    selector or BOM, or a run of tags, can be legitimate; any longer run is reported."""
    if not _SUSPECT.search(text):
        return
    for m in _RUNS.finditer(text):
        kind = _KIND_OF_GROUP[m.lastgroup or "format"]
        start, end = m.span()
        if kind == "tag":
            if _flag_tags(text, start, end):
                continue
            yield HiddenMatch(kind, start, end, _decode_tags(text[start:end]))
            continue
        if start == 0 and text[0] == BOM:  # a byte-order mark, then perhaps more
            start = 1
            if start == end:
                continue
        if end - start == 1 and (kind == "variation-selector" or text[start] in _MAY_JOIN) \
                and _legit_single(text, start, kind):
            continue
        yield HiddenMatch(kind, start, end, _codes(text[start:end]))


def _show_chars(text: str) -> str:
    """`text` with every reported character replaced by a visible marker."""
    parts: list[str] = []
    at = 0
    for m in _char_matches(text):
        parts.append(text[at:m.start])
        parts.append(_marker(m))
        at = m.end
    if not parts:
        return text
    parts.append(text[at:])
    return "".join(parts)


# -- Markdown and HTML -----------------------------------------------------------------------

_FENCE = re.compile(r"^[ ]{0,3}+(?P<f>`{3,}+|~{3,}+)", re.M)
_BACKTICKS = re.compile(r"`++")
_LINK = re.compile(
    r"(?P<bang>!?+)\[(?P<text>[^\[\]\n]{0,500}+)\]\("
    r"(?P<dest><[^<>\n]{0,2048}+>|(?:[^()\s]{1,2048}+|\([^()\s]{0,256}+\)){0,64}+)"
    r"(?:[ \t]++(?P<title>\"[^\"\n]{0,1000}+\"|'[^'\n]{0,1000}+'|\([^()\n]{0,1000}+\)))?"
    r"[ \t]*+\)"
)
_DEFINITION = re.compile(
    r"^[ ]{0,3}+\[(?P<label>[^\]\n^][^\]\n]{0,998}+)\]:[ \t]*+"
    r"(?P<dest><[^<>\n]{0,2048}+>|\S{1,2048}+)"
    r"(?:[ \t]++(?P<title>\"[^\"\n]{0,1000}+\"|'[^'\n]{0,1000}+'|\([^()\n]{0,1000}+\)))?"
    r"[ \t]*+$",
    re.M,
)
_TAG = re.compile(r"<[A-Za-z][A-Za-z0-9-]{0,30}+(?P<attrs>[^<>]{0,2000}+)>")
_HIDING = re.compile(
    r"(?<![\w-])hidden(?![\w-])(?![ \t]*=[ \t]*[\"']?false)"
    r"|display[ \t]*:[ \t]*none|visibility[ \t]*:[ \t]*hidden"
    r"|font-size[ \t]*:[ \t]*0(?:\.0+)?(?:px|pt|em|rem|%)?[ \t]*(?:[;\"']|$)"
    r"|opacity[ \t]*:[ \t]*0(?:\.0+)?[ \t]*(?:[;\"']|$)|color[ \t]*:[ \t]*transparent",
    re.I,
)
_BASE64_MIN = 24
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,8192}+={0,2}+(?![A-Za-z0-9+/=_-])")


def _fences(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Fenced code blocks as (start, end), an unclosed one running to the end of the text;
    and the info strings of their opening lines that say more than a language name, as
    (start, end, info): viewers do not show an info string."""
    spans: list[tuple[int, int]] = []
    infos: list[tuple[int, int, str]] = []
    fence: re.Match[str] | None = None
    for m in _FENCE.finditer(text):
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end == -1 else line_end
        rest = text[m.end():line_end]
        if fence is None:
            if m.group("f")[0] == "`" and "`" in rest:
                continue  # backticks in the info string: inline code, not a fence
            fence = m
            info = rest.strip()
            if len(info.split()) > 2 or len(info) > 40:
                start = m.end() + len(rest) - len(rest.lstrip())
                infos.append((start, start + len(info), info))
            continue
        opener, closer = fence.group("f"), m.group("f")
        if closer[0] == opener[0] and len(closer) >= len(opener) and not rest.strip():
            spans.append((fence.start(), m.end()))
            fence = None
    if fence is not None:
        spans.append((fence.start(), len(text)))
    return spans, infos


def _code_spans(text: str, fences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Fenced code blocks and inline code spans, as (start, end): their content is shown
    literally.  Inline spans are matched within a line (a span across lines is missed,
    which only means more is reported)."""
    runs = [m for m in _BACKTICKS.finditer(text) if not _inside(fences, m.start())]
    by_length: dict[int, list[int]] = {}
    for index, m in enumerate(runs):
        by_length.setdefault(len(m.group()), []).append(index)
    newlines = [m.start() for m in re.finditer("\n", text)]
    inline: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        opener = runs[index]
        escaped = opener.start() > 0 and text[opener.start() - 1] == "\\"
        same = by_length[len(opener.group())]
        at = bisect.bisect_right(same, index)
        if not escaped and at < len(same):
            closer = runs[same[at]]
            if (bisect.bisect_left(newlines, opener.end())
                    == bisect.bisect_left(newlines, closer.start())):  # on one line
                inline.append((opener.start(), closer.end()))
                index = same[at] + 1
                continue
        index += 1
    return sorted(fences + inline)


def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether pos lies in one of the sorted, disjoint spans."""
    at = bisect.bisect_right(spans, (pos, 1 << 62)) - 1
    return at >= 0 and spans[at][0] <= pos < spans[at][1]


def _visible(text: str) -> bool:
    """Whether text has a character a viewer would draw."""
    return any(not ch.isspace() for ch in _SUSPECT.sub("", text))


class _Claims:
    """The constructs found so far and the spans they claim.  Spans claimed by earlier kinds
    are sorted and disjoint (`taken`); the kind being scanned stages its own, whose matches
    arrive in order, and `next_kind` merges them: once per kind keeps this linear."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[HiddenMatch] = []
        self.taken: list[tuple[int, int]] = []
        self.stage: list[tuple[int, int]] = []
        fenced = "```" in text or "~~~" in text
        self.fences, self.infos = _fences(text) if fenced else ([], [])
        self._code: list[tuple[int, int]] | None = None  # inline code too, found when needed

    def in_code(self, pos: int) -> bool:
        if self._code is None:
            self._code = _code_spans(self.text, self.fences) if "`" in self.text \
                else self.fences
        return _inside(self._code, pos)

    def free(self, start: int, end: int) -> bool:
        if self.in_code(start) or (self.stage and self.stage[-1][1] > start):
            return False
        at = bisect.bisect_right(self.taken, (start, 1 << 62))
        if at and self.taken[at - 1][1] > start:
            return False
        return not (at < len(self.taken) and self.taken[at][0] < end)

    def add(self, kind: str, start: int, end: int, detail: str) -> None:
        self.stage.append((start, end))
        self.found.append(HiddenMatch(kind, start, end, detail))

    def next_kind(self) -> None:
        self.taken[:] = sorted(self.taken + self.stage)
        self.stage.clear()


def _structures(text: str) -> list[HiddenMatch]:
    """The Markdown and HTML constructs that hide text, not overlapping, outside code."""
    claims = _Claims(text)
    for start, end, info in claims.infos:
        claims.add("fence-info", start, end, info)
    claims.next_kind()
    _comments(claims)
    for marker, scan in (("]:", _definitions), ("](", _links), ("<", _tags)):
        if marker in text:
            scan(claims)
            claims.next_kind()
    for m in _BASE64.finditer(text):
        decoded = _decode_base64_text(m.group())
        if decoded is not None and claims.free(m.start(), m.end()):
            claims.add("base64-text", m.start(), m.end(), decoded)
    return claims.found


def _comments(claims: _Claims) -> None:
    text = claims.text
    at = text.find("<!--")
    while at != -1:
        close = text.find("-->", at + 2)
        if claims.in_code(at):
            at = text.find("<!--", at + 4)
            continue
        if close == -1:
            claims.add("html-comment", at, len(text), text[at + 4:])
            break
        claims.add("html-comment", at, close + 3, text[at + 4:close] if close >= at + 4 else "")
        at = text.find("<!--", close + 3)
    claims.next_kind()


def _definitions(claims: _Claims) -> None:
    for m in _DEFINITION.finditer(claims.text):
        title = m.group("title")
        if (title or m.group("dest") in ("#", "<>", "//")) and claims.free(m.start(), m.end()):
            claims.add("link-definition", m.start(), m.end(),
                       f"[{m.group('label')}]: {m.group('dest')}" + (f" {title}" if title else ""))


def _links(claims: _Claims) -> None:
    for m in _LINK.finditer(claims.text):
        if not claims.free(m.start(), m.end()):
            continue
        dest, title = m.group("dest"), m.group("title")
        if not _visible(m.group("text")):
            if not dest.strip("<>") and not title:
                continue  # `[]()`: nothing to hide, and common in code ("[](){}")
            if m.group("bang"):
                if re.match(r"(?i)(?:<)?(?:https?:)?//", dest):
                    claims.add("remote-image", m.start(), m.end(), dest)
            else:
                claims.add("empty-link", m.start(), m.end(),
                           dest + (f" {title}" if title else ""))
        elif title:
            claims.add("link-title", m.start(), m.end(), title[1:-1])


def _tags(claims: _Claims) -> None:
    for m in _TAG.finditer(claims.text):
        if _HIDING.search(m.group("attrs")) and claims.free(m.start(), m.end()):
            claims.add("hidden-html", m.start(), m.end(), m.group())


def _decode_base64_text(run: str) -> str | None:
    """The text a base64 run decodes to, if it is readable words; else None."""
    core = run.rstrip("=")
    if len(core) % 4 == 1:
        return None
    padded = core + "=" * (-len(core) % 4)
    try:
        raw = (base64.urlsafe_b64decode(padded) if ("-" in core or "_" in core)
               else base64.b64decode(padded, validate=True))
        plain = raw.decode("utf-8")
    except (ValueError, binascii.Error):
        return None
    if len(plain) < 16 or plain.count(" ") < 2:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in plain)
    letters = sum(ch.isalpha() or ch == " " for ch in plain)
    if printable < len(plain) or letters < 0.7 * len(plain):
        return None
    return plain


# -- the interface ---------------------------------------------------------------------------


def _may_hide(text: str) -> bool:
    """What every kind needs at least: a character outside ASCII, a tag or a bracket, a
    fence, or a word long enough for a base64 run.  Most text has none, and is answered in
    a few string scans, so the index can afford to scan every fact it reads."""
    return (not text.isascii() or "<" in text or "[" in text or "```" in text
            or "~~~" in text or max(map(len, text.split()), default=0) >= _BASE64_MIN)


def find_hidden(text: str) -> list[HiddenMatch]:
    """Every piece of hidden content in `text`, ordered by start (then by longest first)."""
    if not _may_hide(text):
        return []
    matches = _structures(text) + list(_char_matches(text))
    return sorted(matches, key=lambda m: (m.start, -m.end))


def _marker(m: HiddenMatch) -> str:
    if m.kind == "tag":
        return f"⟦tag:{m.detail}⟧"
    return f"⟦{m.detail}⟧"


def reveal(text: str) -> str:
    """`text` as a reviewer should see it: every reported character replaced by a marker
    (`⟦tag:ignore previous instructions⟧`, `⟦U+200B⟧`, `⟦U+202E⟧`), every hidden Markdown
    or HTML construct shown for what it holds (`⟦comment: ...⟧`, `⟦empty link → url⟧`),
    and decoded base64 text shown after the run.  Text with nothing hidden comes back
    unchanged; the output holds none of the characters `find_hidden` reports."""
    structures = sorted(_structures(text), key=lambda m: m.start)
    chars = list(_char_matches(text))
    parts: list[str] = []
    at = 0
    c = 0

    def chars_until(limit: int) -> None:
        nonlocal at, c
        while c < len(chars) and chars[c].start < limit:
            m = chars[c]
            start, end = max(m.start, at), min(m.end, limit)
            if end > start:  # (clipped to the text between structures, which it always is)
                parts.append(text[at:start])
                parts.append(_marker(m) if (start, end) == (m.start, m.end)
                             else f"⟦{_codes(text[start:end])}⟧")
                at = end
            c += 1
        parts.append(text[at:limit])
        at = limit

    for m in structures:
        chars_until(m.start)
        parts.append(_render(m, text[m.start:m.end]))
        at = m.end
        while c < len(chars) and chars[c].end <= at:
            c += 1
    chars_until(len(text))
    return "".join(parts)


def _render(m: HiddenMatch, original: str) -> str:
    detail = _show_chars(m.detail)
    if m.kind == "html-comment":
        closed = original.endswith("-->") and len(original) >= 5
        return (f"⟦comment: {detail.strip()}⟧" if closed
                else f"⟦comment, never closed: {detail.strip()}⟧")
    if m.kind == "empty-link":
        return f"⟦empty link → {detail}⟧"
    if m.kind == "remote-image":
        return f"⟦image, no alt text → {detail}⟧"
    if m.kind == "link-definition":
        return f"⟦hidden link definition: {detail}⟧"
    if m.kind == "link-title":
        return f"{_show_chars(original)}⟦title: {detail}⟧"
    if m.kind == "hidden-html":
        return f"{_show_chars(original)}⟦hidden html⟧"
    if m.kind == "fence-info":
        return f"{_show_chars(original)}⟦hidden fence info⟧"
    return f"{original}⟦base64: {detail}⟧"  # base64-text
