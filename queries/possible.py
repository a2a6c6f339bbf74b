"""What a scene can ask before it is rendered, with every object taken as seen all along the
walk: an upper bound on what the rendered walk gives. `egoscene sample` redraws a spec whose
rooms cannot give 3 route plans even so (sampled rooms often hold too few nameable things to
walk between), instead of leaving it short of rule 6 after a render.
"""

from __future__ import annotations

from formats.seeding import stage_rng
from queries.context import Context
from queries.model import Scenario, Track, Visibility, parse_scene, parse_trajectory
from queries.ontology import default_ontology
from queries.params import DEFAULT
from queries.route_plan import route_plan

ALWAYS = 10**9  # pixels of an object "seen" in every frame: above any threshold


def seen_everywhere(scene: dict, trajectory: dict) -> Scenario:
    """The scenario as if every object were seen clearly in every frame (rooms: while inside)."""
    parsed, walk = parse_scene(scene), parse_trajectory(trajectory)
    frames = tuple(f.frame for f in walk.frames)
    tracks = {o.id: Track(frames, (ALWAYS,) * len(frames)) for o in parsed.objects}
    return Scenario(parsed, walk, Visibility(walk.fps, 1, 1, 1, tracks, None))


def route_plans_possible(scene: dict, trajectory: dict, want: int = 3) -> int:
    """Route plans (up to `want`) the query engine would make if every object were seen; drawn
    with the engine's own seed for the task, so the count is the engine's."""
    scenario = seen_everywhere(scene, trajectory)
    ctx = Context(scenario, DEFAULT, default_ontology())
    ctx.rng = stage_rng(scenario.scene.seed, "queries/route_plan")
    return len(route_plan(ctx, want))
