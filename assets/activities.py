"""The activity ontology of Memory-Action, read from `assets/activities.yaml` (data, with the
reason for every object -> activity link; the file's header states the rules).

`ACTIVITY_TABLE` maps each activity to an `Activity`; every category it names must be a catalog
category, every link must give a reason (checked on loading and by tests/test_activities.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from assets.categories import CATEGORIES

SOURCE = Path(__file__).with_name("activities.yaml")


class Activity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    possible_with: dict[str, str] = Field(default_factory=dict)  # "a" or "a + b" -> reason
    arguable_with: dict[str, str] = Field(default_factory=dict)  # category -> reason
    anywhere: str | None = None  # the reason it can be done in almost any room

    @field_validator("possible_with", "arguable_with")
    @classmethod
    def _reasons(cls, links: dict[str, str]) -> dict[str, str]:
        for key, reason in links.items():
            if not isinstance(reason, str) or len(reason.strip()) < 8:
                raise ValueError(f"{key!r}: every link needs a reason (a short sentence)")
        return links

    def needs(self) -> list[frozenset[str]]:
        """The sets of categories that make it possible (one set per `possible_with` key)."""
        return [frozenset(part.strip() for part in key.split("+")) for key in self.possible_with]

    def possible(self, categories) -> bool:
        present = set(categories)
        return any(need <= present for need in self.needs())

    def arguable(self, categories) -> bool:
        """Could a person argue it is possible with these objects (or anywhere)?"""
        present = set(categories)
        parts = {part for need in self.needs() for part in need}
        return bool(self.anywhere) or self.possible(present) or bool(present & (parts | set(self.arguable_with)))


@lru_cache(maxsize=None)
def load(path: Path = SOURCE) -> dict[str, Activity]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    table = {name: Activity(name=name, **(entry or {})) for name, entry in data.items()}
    for activity in table.values():
        named = {part for need in activity.needs() for part in need} | set(activity.arguable_with)
        unknown = sorted(named - set(CATEGORIES))
        if unknown:
            raise ValueError(f"{path}: {activity.name}: unknown categories {unknown} (fix: use catalog names)")
    return table


def activities() -> tuple[str, ...]:
    return tuple(load())


def affordances(category: str) -> tuple[str, ...]:
    """Activities the category makes possible on its own."""
    return tuple(a.name for a in load().values() if frozenset({category}) in a.needs())
