"""What a fact does not say is so, whoever it is about: a question or a rumour, a suggestion
or a request, a discussion, a pitch, a negation, a plan (`unsaid`).  Such a fact replaces
nothing (judge.reading's guard)."""

from __future__ import annotations

import re

from memfold.lifecycle.judge import phrases as p
from memfold.lifecycle.judge import words as w

# Said, not done: a suggestion or a wish for the future ("we should", "Bob wants us to")
_SUGGESTION = re.compile(
    r"\b(?:should|shall\s+we|ought\s+to|suggest\w*|recommend\w*(?!\s+(?:it|them)\b)|propos\w*"
    r"|advocat\w*"
    r"|push(?:es|ed|ing)?\s+for|argu\w+\s+for|wants?\s+(?:us|them|me|him|her)\s+to|let's"
    r"|why\s+not|worth\s+(?:trying|considering|a\s+look)"
    # asked for, not given: "Stipe asked for a raise to 10 euros an hour"
    r"|ask(?:s|ed|ing)?\s+(?:(?:me|us|him|her|them)\s+)?for\s+(?:a|an)|requested)\b",
    re.IGNORECASE)
# Not known: a question, a rumour, something to check
_QUESTION = re.compile(
    r"\?|\b(?:need(?:s)?\s+to\s+(?:check|confirm|verify)|not\s+sure|unsure|unclear"
    r"|unconfirmed|to\s+be\s+confirmed|tbc|rumou?r\w*|wonder\w*|allegedly|supposedly)\b",
    re.IGNORECASE)
# Not decided: under discussion, on the table
_DISCUSSION = re.compile(
    r"\b(?:under\s+discussion|being\s+(?:discussed|debated|considered)|up\s+for\s+"
    r"(?:debate|discussion)|on\s+the\s+table|in\s+talks|undecided|open\s+question|floated"
    r"|(?:discussing|debating)\s+(?:whether|a\s+move|moving|switching|a\s+switch))\b",
    re.IGNORECASE)
# Offered, not taken: a pitch, an offer, a demo
_PITCH = re.compile(
    r"\b(?:pitch(?:ed|es|ing)?|offer(?:ed|s|ing)?\s+(?:us|me|him|her|them)\b"
    r"|(?:gave|give)\s+(?:us|me)\s+a\s+demo|demo(?:ed|'d)\s+(?:us|me)|sales\s+pitch"
    # a sales rep who called, not one's job: "is a sales rep at Fenwick", "works as a sales rep"
    r"|(?<!\bis\sa\s)(?<!\bas\sa\s)sales\s+rep\b(?!\s+(?:at|for|with)\s)"
    r"|cold[- ](?:call|email)|sent\s+(?:us|me)\s+a\s+(?:quote|proposal)|quoted\s+(?:us|me)"
    r"|tried\s+to\s+sell)", re.IGNORECASE)
# a month named May, not the verb: "in May", "May 3"
_MONTHS = re.compile(r"\b(?:in|on|since|by|until|of|early|late|mid|from|to)\s+May\b|\bMay\s+\d"
                     r"|\b\d{1,2}(?:st|nd|rd|th)?\s+May\b", re.IGNORECASE)
# a wish that comes with a change of mind is what is preferred now, not a plan: "changed
# his mind and wants to be reached on Signal"
_WISH = re.compile(r"\b(?:wants?|would\s+like)\s+to\b", re.IGNORECASE)


def unsaid(text: str) -> str | None:
    """Why the text does not say a thing is so, whoever it is about: a question, a
    suggestion or a request, a discussion, a pitch, a negation, a plan; or None."""
    if _QUESTION.search(text):
        return "question"
    if _SUGGESTION.search(text):
        return "suggestion"
    if _DISCUSSION.search(text):
        return "discussion"
    if _PITCH.search(text):
        return "pitch"
    if w.NEGATED.search(text):
        return "negated"
    if w.PLAN.search(_MONTHS.sub(" ", p.ONCE_DONE.sub(" ", _WISH.sub(" ", text)
                                 if w.CHANGED_MIND.search(text) else text))):
        return "plan"
    return None


__all__ = ["unsaid"]
