"""The weights of recall's learned order (`recall.learned`), per recall mode: written by
tools/train_ltr.py, never by hand (its docstring says how and on what they were trained).
A mode without weights keeps recall's own order."""

WEIGHTS: dict[str, dict[str, float]] = {}
