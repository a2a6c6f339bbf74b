"""Random valid specs either lay out with every relation true or are refused with a named
conflict: never a crash, never a silently dropped relation. And most of them lay out: a
layout stage that refused everything would otherwise pass."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.layout.plan import LayoutError, layout, plan_to_scene
from generator.spec.scenario import SpecError, parse_scenario
from tests.layout_checks import assert_plan_is_sound

TYPES = ["kitchen", "bedroom", "bathroom", "study", "living room", "dining room", "lounge", "file room"]
EXAMPLES = 25
# Measured: 93 of 100 with 100 examples (7 refused naming a conflict). Hypothesis draws a
# different set of 25 depending on what ran before it in the session (derandomize or not), so
# the floor must hold for most sets: at 93% a 90% floor fails about one set in four (22 of 25
# seen after tests/test_sample.py), an 80% floor under one in a hundred.
MIN_LAID_OUT = 0.8
OUTCOMES: dict[str, str] = {}   # spec text -> "laid out" | the refusal


def make_spec(rng: random.Random) -> str:
    """A random valid spec: 2-7 rooms on 1-3 floors, random relations and windows."""
    n = rng.randint(2, 7)
    floors = 1 if rng.random() < 0.75 else rng.randint(2, 3)
    labels = [f"{rng.choice(TYPES)} {i + 1}" for i in range(n)]
    floor_of = {label: (i % floors if i < floors else rng.randrange(floors)) for i, label in enumerate(labels)}
    lines = ["name: random", f"typology: {'single-story residence' if floors == 1 else 'multi-story residence'}",
             f"seed: {rng.randint(0, 99)}", "rooms:"]
    for label in labels:
        windows = rng.choice([0, 0, 1, 2])
        objects = "{window: %d}" % windows if windows else "{}"
        lines.append(f"  {label}: {{floor: {floor_of[label]}, objects: {objects}}}")
    order = labels[:]
    rng.shuffle(order)
    lines.append("trajectory: [" + ", ".join(order) + "]")
    same = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if floor_of[a] == floor_of[b]]
    stacked = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if abs(floor_of[a] - floor_of[b]) == 1]
    adjacent = rng.sample(same, min(len(same), rng.randint(0, n)))
    opposite = rng.sample([p for p in same if p not in adjacent], min(len(same) - len(adjacent), rng.randint(0, 2)))
    vertical = rng.sample(stacked, min(len(stacked), rng.randint(0, 2)))
    lines.append("relations:")
    for kind, pairs in (("adjacent", adjacent), ("opposite", opposite), ("vertical", vertical)):
        lines.append(f"  {kind}: [" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]")
    return "\n".join(lines) + "\n"


@st.composite
def random_specs(draw):
    return make_spec(random.Random(draw(st.integers(0, 10**9))))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
          database=None)
@given(random_specs())
def lays_out_or_names_its_conflict(text):
    try:
        scenario = parse_scenario(text, "random.yaml")
    except SpecError as exc:  # generator only makes valid specs
        raise AssertionError(f"generated spec refused: {exc}\n{text}") from exc
    try:
        scene = plan_to_scene(layout(scenario, work_budget=1.5))
    except LayoutError as exc:
        OUTCOMES[text] = str(exc)
        assert "random.yaml" in str(exc)
        assert exc.conflict or any(why in str(exc) for why in (
            "no floor plan fits the rooms even without relations",
            "no floor plan found within the search budget even without relations")), str(exc)
        return
    OUTCOMES[text] = "laid out"
    assert_plan_is_sound(scenario, scene)


def test_random_specs_lay_out_or_name_their_conflict():
    OUTCOMES.clear()
    lays_out_or_names_its_conflict()
    laid_out = sum(v == "laid out" for v in OUTCOMES.values())
    assert len(OUTCOMES) >= EXAMPLES * 0.9, f"only {len(OUTCOMES)} distinct specs were tried"
    refusals = "\n".join(v for v in OUTCOMES.values() if v != "laid out")
    assert laid_out >= MIN_LAID_OUT * len(OUTCOMES), \
        f"only {laid_out} of {len(OUTCOMES)} random specs laid out; refusals:\n{refusals}"
