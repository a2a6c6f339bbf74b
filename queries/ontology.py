"""The affordance ontology of Memory-Action: which activities each object category affords.

Taken from `assets.catalog` when it is importable; otherwise a small built-in ontology is used
so the engine (and its tests) still run. Tests that need stable hand-worked answers pass
`FIXTURE_ONTOLOGY` explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Mapping


@dataclass(frozen=True)
class Ontology:
    activities: tuple[str, ...]
    affords: Mapping[str, tuple[str, ...]]  # category -> activities

    def affordances(self, category: str) -> tuple[str, ...]:
        return tuple(self.affords.get(category, ()))

    def possible(self, categories) -> set[str]:
        """Activities afforded by at least one of the categories."""
        return {a for c in categories for a in self.affordances(c)}

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


def _catalog_ontology() -> Ontology | None:
    try:
        from assets import catalog
        activities = tuple(catalog.ACTIVITIES)
        categories = getattr(catalog, "CATEGORIES", {})
        affords = {name: tuple(catalog.affordances(name)) for name in categories}
    except (ImportError, AttributeError, KeyError):
        return None
    return Ontology(activities, affords)


def default_ontology() -> Ontology:
    return _catalog_ontology() or FIXTURE_ONTOLOGY


def consistent(ontology: Ontology) -> bool:
    """Every afforded activity is a listed activity (cheap sanity check for tests)."""
    listed = set(ontology.activities)
    return all(set(a) <= listed for a in ontology.affords.values()) and all(
        x != y for x, y in combinations(ontology.activities, 2))
