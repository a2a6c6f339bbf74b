"""How many route plans a spec's rooms allow before anything is rendered: lay it out, place its
objects, plan its walk and run the route-plan generator with every object taken as seen
(queries/possible.py; about 4 s a spec, no Blender). A spec short of 3 even so is short after
any render (rule 6): `egoscene sample` draws another instead, `validate --layout` says so."""

from __future__ import annotations

from egoscene.pipeline import Options, run_layout
from queries.possible import route_plans_possible

WANT = Options().per_task


def furnished_scene(scenario, layout_budget: float | None = None) -> dict:
    """The spec laid out, its objects placed, in memory (generate's first two stages)."""
    from generator.placement.place import place_objects

    scene, _ = run_layout(scenario, layout_budget)
    placed = place_objects(scenario, scene)
    scene["objects"], scene["object_relations"] = placed["objects"], placed.get("object_relations", [])
    return scene


def possible_route_plans(scenario, scene: dict | None = None) -> int:
    """Route plans (up to WANT) of the spec; `scene`: its furnished_scene, if at hand."""
    from generator.walk.plan import plan_walk

    scene = scene if scene is not None else furnished_scene(scenario)
    trajectory = plan_walk(scenario, scene, camera=Options().camera())
    return route_plans_possible(scene, trajectory, WANT)


def short_of_route_plans(scenario, scene: dict | None = None) -> str | None:
    """Why the spec cannot give WANT route plans, or None when it can."""
    made = possible_route_plans(scenario, scene)
    if made >= WANT:
        return None
    return (f"its rooms allow {made} of {WANT} route plans even with every object seen "
            "(too few nameable things to walk between and turn at)")
