"""Smoothing a grid path (used by generator.walk.space): string pulling, then corner cutting,
every straight piece checked with `leg.segment_clear(p, q)` (`leg`: a space.Leg)."""

from __future__ import annotations

import math


def string_pull(leg, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(pts) <= 2:
        return list(pts)
    out = [pts[0]]
    i = 0
    n = len(pts)
    while i < n - 1:
        good, step = i + 1, 1
        bad = None
        while True:
            j = i + step
            if j >= n - 1:
                j = n - 1
            if leg.segment_clear(pts[i], pts[j]):
                good = j
                if j == n - 1:
                    break
                step *= 2
            else:
                bad = j
                break
        if bad is not None:
            lo, hi = good, bad
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if leg.segment_clear(pts[i], pts[mid]):
                    lo = mid
                else:
                    hi = mid
            good = lo
        out.append(pts[good])
        i = good
    return out


def cut_corners(leg, pts: list[tuple[float, float]], passes: int = 5) -> list[tuple[float, float]]:
    """Round corners (Chaikin-like cuts), keeping every cut inside the free space."""
    for k in range(passes):
        if len(pts) <= 2:
            return pts
        out = [pts[0]]
        for i in range(1, len(pts) - 1):
            a, p, b = out[-1], pts[i], pts[i + 1]
            la = math.hypot(a[0] - p[0], a[1] - p[1])
            lb = math.hypot(b[0] - p[0], b[1] - p[1])
            if la < 1e-6 or lb < 1e-6:
                continue
            turn = abs(_angle_diff(math.atan2(b[1] - p[1], b[0] - p[0]), math.atan2(p[1] - a[1], p[0] - a[0])))
            if turn < math.radians(3):
                continue
            c = min(0.6 / (k + 1), 0.45 * la, 0.45 * lb)
            while c >= 0.03:  # the largest cut that stays free (smaller ones near door jambs)
                p1 = (p[0] + (a[0] - p[0]) * c / la, p[1] + (a[1] - p[1]) * c / la)
                p2 = (p[0] + (b[0] - p[0]) * c / lb, p[1] + (b[1] - p[1]) * c / lb)
                if leg.segment_clear(p1, p2):
                    out += [p1, p2]
                    break
                c /= 2
            else:
                out.append(p)
        out.append(pts[-1])
        pts = out
    return pts


def _angle_diff(a: float, b: float) -> float:
    return (a - b + math.pi) % (2 * math.pi) - math.pi


def smooth(leg, pts: list[tuple[float, float]]):
    """(corner-cut path, string-pulled path) of a grid path."""
    pts = _dedupe2(pts)
    pulled = string_pull(leg, pts)
    cut = cut_corners(leg, pulled)
    return [(round(x, 4), round(y, 4)) for x, y in _dedupe2(cut)], pulled


def _dedupe2(pts):
    out = []
    for p in pts:
        if not out or math.hypot(p[0] - out[-1][0], p[1] - out[-1][1]) > 1e-6:
            out.append(p)
    return out
