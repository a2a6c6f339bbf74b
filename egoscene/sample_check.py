"""The check `egoscene sample` runs on each spec it draws: lay it out, place its objects, plan
its walk and count the route plans its rooms allow with every object taken as seen
(queries/possible.py). A spec short of 3 even so would be short after any render (rule 6), so
the sampler draws another instead (about 4 s a spec, no Blender)."""

from __future__ import annotations

from egoscene.pipeline import Options, run_layout
from queries.possible import route_plans_possible

WANT = Options().per_task


def short_of_route_plans(scenario) -> str | None:
    """Why the spec cannot give `WANT` route plans, or None when it can."""
    from generator.placement.place import place_objects
    from generator.walk.plan import plan_walk

    scene, _ = run_layout(scenario)
    placed = place_objects(scenario, scene)
    scene["objects"], scene["object_relations"] = placed["objects"], placed.get("object_relations", [])
    trajectory = plan_walk(scenario, scene, camera=Options().camera())
    made = route_plans_possible(scene, trajectory, WANT)
    if made >= WANT:
        return None
    return (f"its rooms allow {made} of {WANT} route plans even with every object seen "
            "(too few nameable things to walk between and turn at)")
