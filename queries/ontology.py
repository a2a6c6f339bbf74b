"""The activity ontology of Memory-Action: which activities the objects of a room make possible,
which a person could argue for, and which can be done anywhere.

Taken from `assets/activities.yaml` (assets.activities: the reason for every link). Tests that
need stable hand-worked answers pass `FIXTURE_ONTOLOGY` explicitly (single objects only, no
arguable links, nothing `anywhere`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Mapping


@dataclass(frozen=True)
class Ontology:
    activities: tuple[str, ...]
    affords: Mapping[str, tuple[str, ...]]  # category -> activities it makes possible on its own
    together: tuple[tuple[frozenset[str], str], ...] = ()  # (categories all present, activity)
    arguable_with: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # category -> activities
    anywhere: frozenset[str] = frozenset()

    def affordances(self, category: str) -> tuple[str, ...]:
        return tuple(self.affords.get(category, ()))

    def possible(self, categories) -> set[str]:
        """Activities these objects make possible (one object alone, or a set of them together)."""
        present = set(categories)
        alone = {a for c in present for a in self.affordances(c)}
        return alone | {a for need, a in self.together if need <= present}

    def arguable(self, categories) -> set[str]:
        """Activities a person could argue possible with these objects: the possible ones, those
        any part of a `together` set or an `arguable_with` link suggests, and `anywhere`."""
        present = set(categories)
        parts = {a for need, a in self.together if need & present}
        linked = {a for c in present for a in self.arguable_with.get(c, ())}
        return self.possible(present) | parts | linked | set(self.anywhere)

    def related(self, activity: str) -> set[str]:
        """Activities some category affords together with `activity` (near-synonyms such as
        dining/eating); never used as distractors next to a possible one."""
        out = set()
        for acts in self.affords.values():
            if activity in acts:
                out.update(acts)
        out.discard(activity)
        return out


FIXTURE_ONTOLOGY = Ontology(
    activities=("cooking", "sleeping", "working", "bathing", "dining", "watching tv",
                "reading", "exercising", "playing music", "dressing", "relaxing", "storing"),
    affords={
        "fridge": ("cooking", "storing"), "stove": ("cooking",), "sink": ("cooking",),
        "bed": ("sleeping",), "pillow": ("sleeping",), "desk": ("working",),
        "computer": ("working",), "bath": ("bathing",), "table": ("dining",),
        "tv": ("watching tv",), "book": ("reading",), "bookshelf": ("reading",),
        "piano": ("playing music",), "wardrobe": ("dressing", "storing"), "sofa": ("relaxing",),
        "toilet": (), "chair": (), "plant": (), "cup": (), "window": (), "lamp": (),
    },
)


def catalog_ontology() -> Ontology:
    """The ontology of assets/activities.yaml."""
    from assets import activities

    table = activities.load()
    affords: dict[str, list[str]] = {}
    together: list[tuple[frozenset[str], str]] = []
    arguable: dict[str, list[str]] = {}
    for act in table.values():
        for need in act.needs():
            if len(need) == 1:
                affords.setdefault(next(iter(need)), []).append(act.name)
            else:
                together.append((need, act.name))
        for category in act.arguable_with:
            arguable.setdefault(category, []).append(act.name)
    return Ontology(tuple(table), {c: tuple(a) for c, a in affords.items()}, tuple(together),
                    {c: tuple(a) for c, a in arguable.items()},
                    frozenset(a.name for a in table.values() if a.anywhere))


def default_ontology() -> Ontology:
    return catalog_ontology()


def consistent(ontology: Ontology) -> bool:
    """Every afforded activity is a listed activity (cheap sanity check for tests)."""
    listed = set(ontology.activities)
    return all(set(a) <= listed for a in ontology.affords.values()) and all(
        x != y for x, y in combinations(ontology.activities, 2))
