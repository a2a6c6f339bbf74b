"""Judging free-form answers: by rule for Memory-Action (every activity named must be possible
in the target room, per the ontology), by exact parse for the other tasks. Also the paper's
Table 8 judge prompt, for users who prefer an LLM judge.
"""

from __future__ import annotations

import re

from queries.ontology import Ontology, default_ontology

JUDGE_PROMPT = (
    "Target room: {target_room}\n"
    "Model_answer: {model_answer}\n"
    "\n"
    "The question asks what activity is possible using objects visible in the target room. "
    "The model's answer may list multiple activities. Respond only \u201ccorrect\u201d if all "
    "activities in the model's answer can be done in the target room. Otherwise, respond only "
    "\u201cincorrect\u201d."
)

COMPASS = ("east", "west", "south", "north")
QUADRANTS = ("front-left", "front-right", "back-left", "back-right")


def judge_prompt(target_room: str, model_answer: str) -> str:
    """Table 8 of the paper, filled in."""
    return JUDGE_PROMPT.format(target_room=target_room, model_answer=model_answer.strip())


def judge_prompt_for(record: dict, model_answer: str) -> str:
    return judge_prompt(record["derivation"]["room"], model_answer)


def _norm(s: str) -> str:
    s = re.sub(r"[^\w\s\-.,]", " ", str(s).lower()).replace("_", " ")
    s = re.sub(r"\s+", " ", s).strip(" .")
    return re.sub(r"^(the|answer:?|a|an) ", "", s)


def _forms(activity: str) -> set[str]:
    """'cooking' -> {'cooking', 'cook', 'cooks', 'cooke'...}: the verb forms a model might use."""
    forms = {activity}
    if " " not in activity and activity.endswith("ing"):
        base = activity[:-3]
        forms |= {base, base + "s", base + "e", base + "es"}
    return forms


def activities_named(answer: str, ontology: Ontology | None = None) -> list[str]:
    """Ontology activities mentioned in a free-form answer, in ontology order."""
    onto = ontology or default_ontology()
    text = " " + _norm(answer).replace(",", " ").replace(".", " ") + " "
    return [a for a in onto.activities
            if any(re.search(rf"(?<![\w]){re.escape(f)}(?![\w])", text) for f in _forms(a))]


def judge_memory_action(record: dict, answer: str, ontology: Ontology | None = None) -> bool:
    named = activities_named(answer, ontology)
    # "can be done in the target room": possible there, or what a person could argue for there
    # (derivation "arguable" includes the activities possible in almost any room)
    derivation = record["derivation"]
    doable = set(derivation["possible"]) | set(derivation.get("arguable", ()))
    return bool(named) and all(a in doable for a in named)


def _one_of(answer: str, vocabulary) -> str | None:
    text = _norm(answer).replace(" ", "-")
    hits = [w for w in vocabulary if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
    return hits[0] if len(hits) == 1 else None


def judge_free_form(record: dict, answer: str, ontology: Ontology | None = None) -> bool:
    """True when a free-form answer says what the record's answer says."""
    task, truth = record["task"], str(record["answer"])
    if task == "memory_action":
        return judge_memory_action(record, answer, ontology)
    if task == "map_direction":
        return _one_of(answer, COMPASS) == truth.lower()
    if task == "relative_direction":
        vocab = QUADRANTS if "-" in truth else ("left", "right", "back")
        return _one_of(answer, vocab) == truth
    if task == "map_scale":
        numbers = re.findall(r"-?\d+(?:\.\d+)?", answer)
        return len(numbers) >= 1 and float(numbers[0]) == float(truth)
    if task == "route_plan":
        return re.findall(r"turn (left|right|back)", answer.lower()) == re.findall(
            r"turn (left|right|back)", truth)
    if task == "appearance_order":
        parts = [_norm(p) for p in re.split(r",|->|\u2192|\bthen\b|\n", answer) if _norm(p)]
        return parts == [_norm(p) for p in truth.split(",")]
    return _norm(answer) == _norm(truth)
