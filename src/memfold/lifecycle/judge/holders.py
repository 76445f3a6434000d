"""Who holds a thing, and who took it over: "@Pilar runs the morning shift" and then "@Tolu
has taken over the morning shift at Zephyr bakery".  The thing held is what both facts are
about, though each names another person as its grammatical subject (judge.subjects lets such
a pair be weighed; judge.unread offers it)."""

from __future__ import annotations

import re

# who takes a thing over: "@Tolu has taken over the morning shift at Zephyr bakery", "Tomasz
# took over the data platform team from Priyam" (the thing ends before a place, a time, a giver)
TAKEN_OVER = re.compile(r"^(?P<who>.*?)\b(?:took|takes|taken|taking)\s+over\s+(?:the\s+|its\s+"
                        r"|their\s+|his\s+|her\s+)?(?P<what>[^.,;]+?)(?=\s+(?:from|at|in|on|for"
                        r"|since|after|when|last|this|while|as)\b|\s*[.,;]|\s*$)",
                        re.IGNORECASE)
# someone holds a thing: "@Pilar runs the morning shift", "is managed by @Priyam"
HOLDS = re.compile(r"\b(?:runs|leads|manages|heads|chairs|coordinates|oversees|owns|handles"
                   r"|conducts|coaches|hosts|teaches|looks\s+after|is\s+in\s+charge\s+of"
                   r"|(?:is|are)\s+(?:run|led|managed|headed|chaired|coordinated|overseen|owned"
                   r"|handled|conducted|coached|hosted|taught)\s+by)\b", re.IGNORECASE)


def taken_over(new_text: str, old_text: str) -> bool:
    """The newer text says someone took a thing over and the older says someone holds one
    (whether the same thing is for the caller: `unread.taken_over_offer`)."""
    return TAKEN_OVER.search(new_text) is not None and HOLDS.search(old_text) is not None
