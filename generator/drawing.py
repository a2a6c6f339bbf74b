"""Pictures people read instead of JSON: floorplan.png and grid.png (matplotlib, Agg)."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon as PolygonPatch  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from shapely.geometry import Polygon, box as box_polygon  # noqa: E402
from shapely.ops import polylabel  # noqa: E402

HALLWAY_COLOR = "#d9d9d9"
STAIRS_COLOR = "#b0b0b0"
NONE_COLOR = "#f7f7f7"
PALETTE = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
           "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#e5c494"]
SAVE_OPTIONS = {"dpi": 110, "metadata": {"Software": None}}  # no version/time stamp: same bytes every run
BOX_STYLE = {"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85}


def label_colors(labels: list[str]) -> dict[str, str]:
    colors = {"hallway": HALLWAY_COLOR, "none": NONE_COLOR}
    for label in labels:
        if label not in colors:
            index = int(hashlib.sha256(label.encode()).hexdigest(), 16) % len(PALETTE)
            while PALETTE[index] in colors.values() and len(colors) < len(PALETTE) + 2:
                index = (index + 1) % len(PALETTE)
            colors[label] = PALETTE[index]
    return colors


def _panels(count: int, size: float = 6.0):
    fig, axes = plt.subplots(1, count, figsize=(size * count, size), squeeze=False)
    return fig, list(axes[0])


# ---------------------------------------------------------------------------- floor plan
# Labels are placed, not just drawn: every label gets a box in metres estimated from its font
# size, and a greedy search (nearest free spot, with a leader line when it had to move) keeps
# the boxes apart. Objects get numbers on the plan and names in a legend beside it, so no name
# is ever squeezed into a crowded room. tests/test_drawing.py measures the drawn text.

DPI = 130
PANEL_IN = 9.0        # longer side of one floor's map
LEGEND_COLUMN_IN = 1.9
MARGIN_IN = 0.7
ROOM_FONT, OBJECT_FONT, NOTE_FONT, LEGEND_FONT = 10, 6.5, 7.5, 7.0


class _Labels:
    """Greedy non-overlapping label placement in data units (metres) on one panel."""

    def __init__(self, ax, metres_per_px: float, bounds: tuple[float, float, float, float]):
        self.ax, self.m_per_px, self.bounds, self.boxes = ax, metres_per_px, bounds, []

    def size(self, text: str, font: float, pad_px: float = 3.0) -> tuple[float, float]:
        lines = text.split("\n")
        px_per_pt = DPI / 72
        width = max(map(len, lines)) * 0.62 * font * px_per_pt + 2 * pad_px
        height = len(lines) * 1.3 * font * px_per_pt + 2 * pad_px
        return width * self.m_per_px, height * self.m_per_px

    def _free(self, box) -> bool:
        x0, y0, x1, y1 = box
        bx0, by0, bx1, by1 = self.bounds
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            return False
        return all(x1 <= a0 or x0 >= a1 or y1 <= b0 or y0 >= b1 for a0, b0, a1, b1 in self.boxes)

    def place(self, anchor, text: str, font: float, inside=None, max_shift: float = 3.0, **style):
        """Put `text` at the free spot nearest `anchor` (within `inside` if given); a leader line
        joins it to the anchor when it moved. Returns the centre, or None when nothing is free."""
        w, h = self.size(text, font)
        step = max(h / 2, 0.1)
        ax_, ay_ = anchor
        candidates = [(0.0, 0.0)]
        ring = 1
        while ring * step <= max_shift:
            r = ring * step
            n = 8 * ring
            candidates += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
            ring += 1
        for dx, dy in candidates:
            cx, cy = ax_ + dx, ay_ + dy
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if inside is not None and not inside.contains(box_polygon(*box)):
                continue
            if self._free(box):
                self.boxes.append(box)
                if math.hypot(dx, dy) > h:
                    self.ax.plot([ax_, cx], [ay_, cy], color="#444444", lw=0.5, zorder=8)
                self.ax.text(cx, cy, text, ha="center", va="center", fontsize=font, zorder=9, **style)
                return cx, cy
        return None

    def reserve(self, box) -> None:
        self.boxes.append(box)


def draw_floorplan(scene: dict, path: Path, trajectory: dict | None = None) -> None:
    fig = floorplan_figure(scene, trajectory)
    fig.savefig(path, **{**SAVE_OPTIONS, "dpi": DPI})
    plt.close(fig)


def floorplan_figure(scene: dict, trajectory: dict | None = None):
    """The labelled plan: one map per floor (rooms, walls, doors, windows, objects by footprint,
    numbered), the walk and the start pose, and a legend of the numbered objects per floor."""
    floors = [f["floor"] for f in scene["floors"]]
    colors = label_colors(sorted(r["label"] for r in scene["rooms"]))
    shapes = [r["polygon"] for r in scene["rooms"] + scene["hallways"]] + [s["polygon"] for s in scene.get("stairs", [])]
    x0 = min(x for poly in shapes for x, _ in poly) - 1.2
    x1 = max(x for poly in shapes for x, _ in poly) + 1.2
    y0 = min(y for poly in shapes for _, y in poly) - 1.2
    y1 = max(y for poly in shapes for _, y in poly) + 1.2
    scale = PANEL_IN / max(x1 - x0, y1 - y0)          # inches per metre
    map_w, map_h = (x1 - x0) * scale, (y1 - y0) * scale
    numbered = {floor: _numbered_objects(scene, floor) for floor in floors}
    line_in = LEGEND_FONT * 1.45 / 72
    rows = max(1, int((map_h - 0.2) / line_in))
    legend_cols = {f: max(1, math.ceil(_legend_lines(numbered[f]) / rows)) for f in floors}
    widths = [map_w + legend_cols[f] * LEGEND_COLUMN_IN + MARGIN_IN for f in floors]
    fig = plt.figure(figsize=(sum(widths) + MARGIN_IN, map_h + 2 * MARGIN_IN), dpi=DPI)
    fig_w, fig_h = fig.get_size_inches()
    left = MARGIN_IN
    for floor, width in zip(floors, widths):
        ax = fig.add_axes((left / fig_w, MARGIN_IN / fig_h, map_w / fig_w, map_h / fig_h))
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal")
        labels = _Labels(ax, 1 / (scale * DPI), (x0, y0, x1, y1))
        _draw_floor(ax, scene, floor, colors, numbered[floor], labels, trajectory)
        ax.set_title(f"{scene['name']} - floor {floor}", fontsize=11)
        ax.set_xlabel("x (m, east)")
        ax.set_ylabel("y (m, north)")
        ax.grid(True, lw=0.3, alpha=0.4)
        _legend(fig, numbered[floor], (left + map_w + 0.3) / fig_w, (MARGIN_IN + map_h) / fig_h, rows,
                LEGEND_COLUMN_IN / fig_w, line_in / fig_h)
        left += width
    return fig


def _numbered_objects(scene: dict, floor: int) -> list[tuple[int, dict]]:
    objects = sorted((o for o in scene.get("objects", []) if o["floor"] == floor), key=lambda o: (o["room"], o["id"]))
    return list(enumerate(objects, start=1))


def _legend_lines(numbered) -> int:
    return len(numbered) + len({o["room"] for _, o in numbered})


def _legend(fig, numbered, left, top, rows, column_w, line_h) -> None:
    lines: list[tuple[str, bool]] = []
    room = None
    for n, obj in numbered:
        if obj["room"] != room:
            room = obj["room"]
            lines.append((room, True))
        lines.append((f"{n:>3}  {obj['category']}", False))
    for i, (text, header) in enumerate(lines):
        column, row = divmod(i, rows)
        fig.text(left + column * column_w, top - (row + 1) * line_h, text, fontsize=LEGEND_FONT,
                 weight="bold" if header else "normal", family="monospace" if not header else None, va="bottom")


def _draw_floor(ax, scene, floor, colors, numbered, labels: _Labels, trajectory) -> None:
    for h in scene["hallways"]:
        if h["floor"] == floor:
            ax.add_patch(PolygonPatch(h["polygon"], closed=True, fc=HALLWAY_COLOR, ec="none"))
    rooms = [r for r in scene["rooms"] if r["floor"] == floor]
    for r in rooms:
        ax.add_patch(PolygonPatch(r["polygon"], closed=True, fc=colors[r["label"]], ec="none"))
    for _, obj in numbered:
        ax.add_patch(PolygonPatch(obj["footprint"], closed=True, fc="#ffffff", ec="#555555", lw=0.6, alpha=0.8))
    for w in scene["walls"]:
        if w["floor"] == floor:
            ax.plot([w["a"][0], w["b"][0]], [w["a"][1], w["b"][1]], color="#222222", lw=2.4 if w["exterior"] else 1.4,
                    solid_capstyle="butt")
    for win in scene["windows"]:
        if win["floor"] == floor:
            _opening(ax, win["position"], win["width"], "x" if win["normal"][1] else "y", "#3a7bd5", 3.2)
    for door in scene["doors"]:
        if door["floor"] == floor:
            _opening(ax, door["position"], door["width"], door["wall_axis"], "#ffffff", 3.4)
    if trajectory:
        pts = [fr["position"][:2] for fr in trajectory["frames"] if fr["floor"] == floor]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color="#d62728", lw=1.2, alpha=0.9)
    # labels, most important first: the start, room names, stairs, entrance, then object numbers
    start = scene["start"]
    if start["floor"] == floor:
        (sx, sy), (hx, hy) = start["position"], start["heading"]
        ax.annotate("", (sx + 0.9 * hx, sy + 0.9 * hy), (sx, sy), arrowprops={"arrowstyle": "-|>", "color": "#d62728", "lw": 2})
        ax.plot([sx], [sy], "o", color="#d62728", ms=6)
        labels.reserve((sx - 0.15, sy - 0.15, sx + 0.15, sy + 0.15))
        labels.place((sx - 0.5 * hx, sy - 0.5 * hy - 0.3), "start", NOTE_FONT, color="#d62728", weight="bold")
    for r in rooms:
        poly = Polygon(r["polygon"])
        anchor = polylabel(poly, tolerance=0.05)
        labels.place((anchor.x, anchor.y), f"{r['label']}\n{r['area']:.0f} m²", ROOM_FONT, inside=poly,
                     weight="bold", bbox=BOX_STYLE)
    flights = [s for s in scene.get("stairs", []) if floor in s["floors"]]
    if flights:  # one stairwell serves every floor; say where it leads from here
        poly = Polygon(flights[0]["polygon"])
        ax.add_patch(PolygonPatch(flights[0]["polygon"], closed=True, fc=STAIRS_COLOR, ec="none", hatch="///"))
        leads = sorted({f for s in flights for f in s["floors"]} - {floor})
        labels.place((poly.centroid.x, poly.centroid.y), "stairs\nto floor " + ", ".join(map(str, leads)), NOTE_FONT,
                     bbox=BOX_STYLE)
    for door in scene["doors"]:
        if door["floor"] == floor and "outside" in door["rooms"]:
            x, y = door["position"]
            labels.place((x, y - 0.45), "entrance", NOTE_FONT, color="#aa3300", bbox=BOX_STYLE)
    for n, obj in numbered:
        centre = Polygon(obj["footprint"]).centroid
        labels.place((centre.x, centre.y), str(n), OBJECT_FONT, max_shift=4.0, color="#111111",
                     bbox={"boxstyle": "round,pad=0.15", "fc": "#fff8c4", "ec": "#777777", "lw": 0.4})


def _opening(ax, position, width, axis, color, lw):
    x, y = position
    half = width / 2
    if axis == "x":
        ax.plot([x - half, x + half], [y, y], color=color, lw=lw, solid_capstyle="butt", zorder=5)
    else:
        ax.plot([x, x], [y - half, y + half], color=color, lw=lw, solid_capstyle="butt", zorder=5)


def draw_grid(grid: dict, path: Path, title: str = "") -> None:
    colors = label_colors([label for label in grid["labels"]])
    fig, axes = _panels(len(grid["floors"]), size=6.5)
    for ax, floor in zip(axes, grid["floors"]):
        for row_index, row in enumerate(floor["grid"]):
            y = len(floor["grid"]) - 1 - row_index
            for x_index, label in enumerate(row):
                x = x_index - 5
                ax.add_patch(Rectangle((x, y), 1, 1, fc=colors[label], ec="#888888", lw=0.5))
                if label != "none":
                    ax.text(x + 0.5, y + 0.5, label, ha="center", va="center", fontsize=5.5, wrap=True)
        if floor["floor"] == grid["start"]["floor"]:
            ax.plot([0], [0], "o", color="#d62728", ms=7, clip_on=False)
            ax.annotate("", (0, 0.8), (0, 0), arrowprops={"arrowstyle": "-|>", "color": "#d62728", "lw": 2})
        ax.set_xlim(-5, 5)
        ax.set_ylim(0, 10)
        ax.set_xticks(range(-5, 6))
        ax.set_yticks(range(0, 11))
        ax.set_aspect("equal")
        ax.set_title(f"{title} floor {floor['floor']} (1 cell = {grid['unit']} m)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, **SAVE_OPTIONS)
    plt.close(fig)
