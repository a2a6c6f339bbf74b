"""Reading answers out of model text as people write it.

Letters: "B", "(B)", "**B**", "B. sofa", "The answer is B", "b)", "Answer: (b)", or the option
text itself. Numbers: digits ("3", "3.0", "There are 3") or words ("three", "twenty-one").
Anything else is unparsed (None), which scores as wrong.
"""

from __future__ import annotations

import re

from formats.queries import LETTERS

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                "hundred": 100}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_LEAD = re.compile(r"^\(?\[?([A-Ea-e])\]?\)?(?=$|[.:)\],;\s])")
# "answer is B", "Option: (c)", "choice [d]"; a lower-case letter only in brackets or at the end
# ("the answer is a chair" names no letter)
_STATED = re.compile(r"\b(?i:answer|option|choice)\s*(?i:is|:|would be|=)?\s*:?\s*"
                     r"(?:\(([A-Ea-e])\)|\[([A-Ea-e])\]|([A-E])(?![\w'-])|([a-e])(?=$|[.:),;]))")


def _norm(text: str) -> str:
    text = re.sub(r"[*_`\"']", "", str(text)).lower()
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s,\-]", " ", text)).strip(" .,")


def parse_choice(text: str | None, options: list[str]) -> str | None:
    """The letter a free-text answer picks among `options`, or None."""
    if text is None or not options:
        return None
    valid = LETTERS[: len(options)]
    raw = re.sub(r"[*_`]", "", str(text)).strip()
    norm = _norm(raw)
    texts = [_norm(o) for o in options]
    if norm in texts:
        return valid[texts.index(norm)]
    lead = _LEAD.match(raw)
    if lead and (lead.group(1).isupper() or re.match(r"^\(?[a-e](\)|\.|:|$)", raw)):
        letter = lead.group(1).upper()
        return letter if letter in valid else None
    stated = _STATED.search(raw)
    if stated:
        letter = next(g for g in stated.groups() if g).upper()
        return letter if letter in valid else None
    lone = re.fullmatch(r"[\W_]*([A-E])[\W_]*", raw)
    if lone:
        return lone.group(1) if lone.group(1) in valid else None
    hits = [i for i, t in enumerate(texts) if t and re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", norm)]
    hits = [i for i in hits if not any(j != i and texts[i] in texts[j] for j in hits)]  # longest mention wins
    return valid[hits[0]] if len(hits) == 1 else None


def parse_number(text: str | None) -> float | None:
    """The first number in the text, digits or English words, or None."""
    if text is None:
        return None
    s = str(text).lower().replace(",", "")
    digits = _NUMBER.search(s)
    start, words = None, []
    for m in re.finditer(r"[a-z]+", s):
        token = m.group(0)
        if token in NUMBER_WORDS:
            start = m.start() if start is None else start
            words.append(token)
        elif start is not None and token != "and":
            break
    if digits is not None and (start is None or digits.start() < start):
        return float(digits.group(0))
    if start is None:
        return None
    total = 0
    for token in words:
        value = NUMBER_WORDS[token]
        total = max(total, 1) * 100 if value == 100 else total + value
    return float(total)
