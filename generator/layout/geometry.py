"""Small shapely helpers for rectilinear plans: shared walls, straight wall segments."""

from __future__ import annotations

from shapely.geometry import LineString, Polygon
from shapely.geometry.polygon import orient

EPS = 1e-6


def orient_ccw(poly: Polygon) -> Polygon:
    return orient(poly, sign=1.0)


def polygon_coords(poly: Polygon) -> list[list[float]]:
    """Counter-clockwise vertices, first not repeated, rounded for stable JSON."""
    coords = list(orient_ccw(poly).exterior.coords)[:-1]
    return [[round(x, 4) + 0.0, round(y, 4) + 0.0] for x, y in coords]


def contact_segments(a: Polygon, b: Polygon) -> list[LineString]:
    """Straight pieces of wall the two polygons share (touching, not overlapping)."""
    shared = a.exterior.intersection(b.exterior)
    lines = [g for g in getattr(shared, "geoms", [shared]) if g.geom_type in ("LineString", "MultiLineString")]
    flat = []
    for g in lines:
        flat.extend(g.geoms if g.geom_type == "MultiLineString" else [g])
    return merge_collinear([g for g in flat if g.length > EPS])


def _axis_key(seg: LineString) -> tuple[str, float] | None:
    (ax, ay), (bx, by) = seg.coords[0], seg.coords[-1]
    if abs(ay - by) < EPS:
        return "x", round(ay, 4)
    if abs(ax - bx) < EPS:
        return "y", round(ax, 4)
    return None


def merge_collinear(lines: list[LineString]) -> list[LineString]:
    """Split into straight pieces and join pieces that continue each other on one line."""
    pieces: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for line in lines:
        coords = list(line.coords)
        for p, q in zip(coords, coords[1:]):
            seg = LineString([p, q])
            key = _axis_key(seg)
            if key is None or seg.length < EPS:
                continue
            lo, hi = sorted((p[0], q[0]) if key[0] == "x" else (p[1], q[1]))
            pieces.setdefault(key, []).append((lo, hi))
    merged = []
    for (axis, at), spans in sorted(pieces.items()):
        spans.sort()
        cur_lo, cur_hi = spans[0]
        for lo, hi in spans[1:] + [(float("inf"), float("inf"))]:
            if lo <= cur_hi + EPS:
                cur_hi = max(cur_hi, hi)
                continue
            ends = [(cur_lo, at), (cur_hi, at)] if axis == "x" else [(at, cur_lo), (at, cur_hi)]
            merged.append(LineString(ends))
            cur_lo, cur_hi = lo, hi
    return merged


def wall_pairs(scene: dict) -> set[tuple[str, str]]:
    """Rooms of a scene dict on one floor sharing a wall long enough for a doorway (adjacent
    once one is cut): the pairs `egoscene sample` may draw adjacency relations from."""
    rooms = sorted(scene["rooms"], key=lambda r: r["label"])
    found = set()
    for i, a in enumerate(rooms):
        for b in rooms[i + 1:]:
            if a["floor"] == b["floor"]:
                walls = contact_segments(Polygon(a["polygon"]), Polygon(b["polygon"]))
                if walls and max(w.length for w in walls) >= 1.2:
                    found.add((a["label"], b["label"]))
    return found


def polygon_area(pts: list) -> float:
    """Shoelace area of a polygon given as its vertices."""
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2
