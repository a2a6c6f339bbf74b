"""Where to stand in a room: a set cover of the room's objects by candidate standpoints.

Standpoints are picked greedily on the free grid of the room, trading coverage, view quality
and the time to walk there, pan and walk on (generator.walk.view says what each standpoint
shows).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from generator.walk.motion import WALK_SPEED
from generator.walk.space import Field, Leg
from generator.walk.view import (QUALITY_WEIGHT, STAND_UP, Target, ViewTable, angle_to, covered,
                                 sweep_arc)


def quality(table: ViewTable) -> np.ndarray:
    d = table.dist
    dq = np.clip(np.minimum((d - 0.4) / 0.8, (6.0 - d) / 2.5), 0.3, 1.0)
    return table.vis * dq


def candidate_cells(leg: Leg, room_index: int, fld: Field, spacing: int = 2) -> np.ndarray:
    fs = leg.fs
    mask = leg.roomy & (fs.space == room_index) & np.isfinite(fld.dist)
    comfy = mask & (fs.d_obj >= 0.45) & (leg.d_wall >= 0.5)
    if comfy.sum() >= 4:
        mask = comfy
    ii, jj = np.nonzero(mask)
    sub = (ii % spacing == 0) & (jj % spacing == 0)
    if sub.sum() >= 4:
        ii, jj = ii[sub], jj[sub]
    return np.stack([ii, jj], axis=1)


def close_cells(leg: Leg, room_index: int, fld: Field, targets: list[Target], taken: np.ndarray) -> np.ndarray:
    """Free cells of the room, beyond the comfortable ones `candidate_cells` keeps (`taken`),
    within reach of `targets`: standpoints for things no comfortable one shows, such as glasses
    on a nightstand in the 0.9-m gap between a bed and the wall (sample-1-000, -012), or past
    a bed's corner where the walk squeezes by (sample-1-009: 0.28 m off the bed)."""
    fs = leg.fs
    mask = leg.free & (fs.space == room_index) & np.isfinite(fld.dist)
    if len(taken):
        mask[taken[:, 0], taken[:, 1]] = False
    ii, jj = np.nonzero(mask)
    if len(ii) == 0 or not targets:
        return np.zeros((0, 2), int)
    xy = np.array([fs.centre(i, j) for i, j in zip(ii, jj)])
    near = np.zeros(len(ii), bool)
    for tg in targets:
        near |= np.hypot(xy[:, 0] - tg.x, xy[:, 1] - tg.y) <= tg.reach
    return np.stack([ii[near], jj[near]], axis=1)


def choose_viewpoints(table: ViewTable, targets: list[Target], d_in: np.ndarray, h_in: np.ndarray,
                      d_out: np.ndarray | None, h_out: np.ndarray | None,
                      hidden: list[int] = ()) -> list[tuple[int, list[int]]]:
    """Set cover: [(candidate row, [target columns it is responsible for])]. Each of the
    FIRST_CANDIDATES most promising first standpoints is completed greedily and the plan
    that takes least time (`plan_seconds`: walking in, panning, walking on) wins, so a
    standpoint near the way in that shows most objects within one short sweep beats one in
    the middle of the room that shows them all around. `hidden` targets (no standpoint
    shows any of them) are only added to the pan of the nearest standpoint chosen for the
    others. The standpoints are visited in the order that takes least time."""
    if not targets:
        return []
    cov = covered(table, targets)
    qual = quality(table)
    remaining = np.ones(len(targets), bool)
    remaining[list(hidden)] = False
    firsts: list[int | None] = [None]
    if remaining.any():
        counts = (cov & remaining[None, :]).sum(axis=1)
        score = counts - 0.15 * d_in  # more objects first, then nearer the way in
        order = np.lexsort((np.arange(len(score)), -score))
        firsts += [int(r) for r in order[:FIRST_CANDIDATES] if counts[r] > 0]
    best = None
    for first in firsts:
        chosen = _greedy_cover(table, targets, cov, qual, remaining.copy(), d_in, h_in, d_out, h_out, first)
        t = plan_seconds(chosen, table, d_in, h_in, d_out, h_out)
        t += WEAK_S * sum(1 for row, cols in chosen for k in cols if not cov[row, k])
        t += STOP_S * (len(chosen) - 1)
        if first is None:
            stops = len(chosen)
        elif len(chosen) > stops:
            continue  # never more standpoints than the plain greedy cover
        if best is None or t < best[0] - 1e-9:
            best = (t, chosen)
    chosen = best[1]
    if 2 <= len(chosen) <= 5:  # visit the standpoints in the order that takes least time
        chosen = list(min(itertools.permutations(chosen),
                          key=lambda p: plan_seconds(list(p), table, d_in, h_in, d_out, h_out)))
    if not chosen and len(hidden):
        chosen.append((int(np.argmin(d_in)), []))
    for k in hidden:
        n = min(range(len(chosen)), key=lambda n: table.dist[chosen[n][0], k])
        if table.dist[chosen[n][0], k] <= 6.0:
            chosen[n][1].append(int(k))
    return chosen


def detour_viewpoints(table: ViewTable, targets: list[Target], want: list[int],
                      homes: np.ndarray) -> list[tuple[int, int, list[int]]]:
    """Side trips for extra looks at targets `want` (the render showed them too little) from
    the room's standpoints `homes` (M, 2): standpoints that give each a fully clear view from
    0.9-3.2 m (covered, tight), fewest first, then nearest a home; each made from its nearest
    home (there and back). What no standpoint shows fully is looked at from within its reach
    where it is least hidden, and not at all where no standpoint within its reach shows any of
    it. [(home index, candidate row, [target columns])], in home order."""
    tight = covered(table, targets, tight=True)
    homes = np.asarray(homes, float).reshape(-1, 2)
    near = np.linalg.norm(table.xy[:, None, :] - homes[None, :, :], axis=2)   # (C, M)
    remaining, chosen = sorted(want), []
    while remaining:
        counts = tight[:, remaining].sum(axis=1)
        if counts.max() == 0:   # each from within its reach where it is least hidden, or not at all
            for k in remaining:
                vis = np.where((table.dist[:, k] <= targets[k].reach) & table.vfeasible[:, k], table.vis[:, k], 0.0)
                if vis.max() > 0:
                    rows = np.flatnonzero(vis >= vis.max() - 1e-9)
                    row = int(rows[int(np.argmin(near[rows].min(axis=1)))])
                    chosen.append((int(np.argmin(near[row])), row, [k]))
            break
        rows = np.flatnonzero(counts == counts.max())
        row = int(rows[int(np.argmin(near[rows].min(axis=1)))])
        got = [k for k in remaining if tight[row, k]]
        chosen.append((int(np.argmin(near[row])), row, got))
        remaining = [k for k in remaining if k not in got]
    return sorted(chosen, key=lambda c: (c[0], near[c[1], c[0]]))


FIRST_CANDIDATES = 40    # first standpoints tried (each completed greedily) in choose_viewpoints
WALK_OVERHEAD_S = 0.5    # seconds a rest-to-rest walk takes beyond its length at full speed
PAN_DEG_S = 57.0         # degrees a pan turns per second on average (slower over objects, faster between)
TURN_OVERHEAD_S = 0.4    # the same for a turn on the spot
STOP_S = 2.0             # each further standpoint (a stop, a turn to walk on, a pan's lead-in)
WEAK_S = 6.0             # an object looked at from where it is only partly visible: likely extra looks


def pan_degrees(bearings: np.ndarray, yaw_in: float | None, yaw_out: float | None, lead: float = 6.0) -> float:
    """Degrees turned to pan across `bearings` (one sweep over their smallest arc, `lead`
    past either end) arriving facing `yaw_in` and leaving towards `yaw_out` (None: either
    is free)."""
    if len(bearings) == 0:
        return 0.0 if yaw_in is None or yaw_out is None else abs(angle_to(yaw_in, yaw_out))
    start, arc = sweep_arc(bearings)
    best = None
    for s0, s1 in ((start - lead, start + arc + lead), (start + arc + lead, start - lead)):
        t = arc + 2 * lead
        if yaw_in is not None and np.isfinite(yaw_in):
            t += abs(angle_to(yaw_in, s0))
        if yaw_out is not None and np.isfinite(yaw_out):
            t += abs(angle_to(s1, yaw_out))
        best = t if best is None else min(best, t)
    return float(best)


def plan_seconds(chosen: list[tuple[int, list[int]]], table: ViewTable, d_in: np.ndarray, h_in: np.ndarray,
                 d_out: np.ndarray | None, h_out: np.ndarray | None) -> float:
    """Rough seconds a plan of standpoints takes: walking in and between standpoints
    (straight lines inside the room, x1.2), one pan from each, walking on."""
    if not chosen:
        return 0.0
    t = 0.0
    prev = None
    for n, (row, cols) in enumerate(chosen):
        if prev is None:
            dist, yaw_in = float(d_in[row]), float(h_in[row])
        else:
            dx, dy = table.xy[row] - table.xy[prev]
            dist = 1.2 * math.hypot(dx, dy)
            yaw_in = math.degrees(math.atan2(dy, dx))
        if dist > 1e-6:
            t += dist / WALK_SPEED + WALK_OVERHEAD_S
        if n + 1 < len(chosen):
            dx, dy = table.xy[chosen[n + 1][0]] - table.xy[row]
            yaw_out = math.degrees(math.atan2(dy, dx))
        else:
            yaw_out = None if h_out is None else float(h_out[row])
        t += pan_degrees(table.bearing[row, cols], yaw_in, yaw_out) / PAN_DEG_S + TURN_OVERHEAD_S
        prev = row
    if d_out is not None:
        t += float(d_out[chosen[-1][0]]) / WALK_SPEED
    return t


def _greedy_cover(table: ViewTable, targets: list[Target], cov: np.ndarray, qual: np.ndarray,
                  remaining: np.ndarray, d_in: np.ndarray, h_in: np.ndarray, d_out: np.ndarray | None,
                  h_out: np.ndarray | None, first: int | None) -> list[tuple[int, list[int]]]:
    """Greedy cover (most objects first, then least time) starting from standpoint `first`
    (None: the greedy choice)."""
    chosen: list[tuple[int, list[int]]] = []
    walk_in = d_in.copy()
    is_first = True
    while remaining.any():
        counts = (cov & remaining[None, :]).sum(axis=1)
        best_count = counts.max()
        if best_count == 0:
            # what no standpoint shows well: look at it from where it is least hidden
            rest = np.nonzero(remaining)[0]
            loose = (table.dist[:, rest] <= 6.0) & table.vfeasible[:, rest]
            score = (loose * (0.5 + table.vis[:, rest])).sum(axis=1) - 0.05 * walk_in
            row = int(np.argmax(score))
            chosen.append((row, [int(k) for k in rest]))
            break
        if is_first and first is not None:
            row = first
        else:
            rows = np.nonzero(counts == best_count)[0]
            cost = np.zeros(len(rows))
            for n, row in enumerate(rows):
                cols = np.nonzero(cov[row] & remaining)[0]
                start, arc = sweep_arc(table.bearing[row, cols])
                end = start + arc
                h = h_in[row] if is_first else None
                turn_in = 0.0 if h is None or not np.isfinite(h) else min(abs(angle_to(h, start)), abs(angle_to(h, end)))
                turn_out = 0.0
                if d_out is not None and h_out is not None and remaining.sum() == best_count and np.isfinite(h_out[row]):
                    turn_out = min(abs(angle_to(end, h_out[row])), abs(angle_to(start, h_out[row])))
                t = walk_in[row] / 0.8 + (arc + turn_in + turn_out) / (0.85 * PAN_DEG_S)
                if d_out is not None and remaining.sum() == best_count:
                    t += d_out[row] / 0.8
                t -= QUALITY_WEIGHT * qual[row, cols].sum()
                cost[n] = t
            row = int(rows[int(np.argmin(cost))])
        cols = [int(k) for k in np.nonzero(cov[row] & remaining)[0]]
        chosen.append((row, cols))
        remaining[cols] = False
        # what a standpoint already chosen shows at least partly is looked at from there
        # (the rendered visibility decides; under-seen objects come back as extra looks,
        # generator.walk.plan fits them in)
        for k in np.nonzero(remaining)[0]:
            # glasses' reach is the id pass's block, not a rough size: no slack (sample-1-013's
            # were left to a standpoint 1.31 m off and went unseen)
            slack = 0.0 if targets[k].category in STAND_UP else 0.5
            loose = [(table.vis[r, k], n) for n, (r, _) in enumerate(chosen)
                     if table.dist[r, k] <= targets[k].reach + slack and table.vfeasible[r, k] and table.vis[r, k] >= 0.2]
            if loose:
                _, n = max(loose)
                chosen[n][1].append(int(k))
                remaining[k] = False
        # walking on from this standpoint (straight-line estimate inside one room)
        walk_in = np.hypot(table.xy[:, 0] - table.xy[row, 0], table.xy[:, 1] - table.xy[row, 1]) * 1.2
        is_first = False
    return chosen
