"""Pictures people read instead of JSON: floorplan.png and grid.png (matplotlib, Agg)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon as PolygonPatch  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

HALLWAY_COLOR = "#d9d9d9"
STAIRS_COLOR = "#b0b0b0"
NONE_COLOR = "#f7f7f7"
PALETTE = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
           "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#e5c494"]
SAVE_OPTIONS = {"dpi": 110, "metadata": {"Software": None}}  # no version/time stamp: same bytes every run


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


def draw_floorplan(scene: dict, path: Path, trajectory: dict | None = None) -> None:
    floors = [f["floor"] for f in scene["floors"]]
    colors = label_colors(sorted(r["label"] for r in scene["rooms"]))
    fig, axes = _panels(len(floors))
    xs = [x for r in scene["rooms"] + scene["hallways"] for x, _ in r["polygon"]]
    ys = [y for r in scene["rooms"] + scene["hallways"] for _, y in r["polygon"]]
    for s in scene.get("stairs", []):
        xs += [x for x, _ in s["polygon"]]
        ys += [y for _, y in s["polygon"]]
    for ax, floor in zip(axes, floors):
        for h in scene["hallways"]:
            if h["floor"] == floor:
                ax.add_patch(PolygonPatch(h["polygon"], closed=True, fc=HALLWAY_COLOR, ec="none"))
        flights = [s for s in scene.get("stairs", []) if floor in s["floors"]]
        if flights:  # one stairwell serves every floor; say where it leads from here
            poly = flights[0]["polygon"]
            ax.add_patch(PolygonPatch(poly, closed=True, fc=STAIRS_COLOR, ec="none", hatch="///"))
            leads = sorted({f for s in flights for f in s["floors"]} - {floor})
            cx, cy = sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)
            ax.text(cx, cy, "stairs\nto floor " + ", ".join(map(str, leads)), ha="center", va="center", fontsize=7,
                    bbox={"fc": "white", "ec": "none", "alpha": 0.8})
        for r in scene["rooms"]:
            if r["floor"] == floor:
                ax.add_patch(PolygonPatch(r["polygon"], closed=True, fc=colors[r["label"]], ec="none"))
                cx = sum(x for x, _ in r["polygon"]) / len(r["polygon"])
                cy = sum(y for _, y in r["polygon"]) / len(r["polygon"])
                ax.text(cx, cy, f"{r['label']}\n{r['area']:.0f} m²", ha="center", va="center", fontsize=9, weight="bold")
        for obj in scene.get("objects", []):
            if obj.get("floor", 0) == floor and obj.get("footprint"):
                ax.add_patch(PolygonPatch(obj["footprint"], closed=True, fc="#ffffff", ec="#555555", lw=0.6, alpha=0.8))
                x, y = obj["position"][:2]
                ax.text(x, y, obj["category"], ha="center", va="center", fontsize=4.5, color="#333333")
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
                if "outside" in door["rooms"]:
                    ax.annotate("entrance", door["position"], fontsize=7, color="#aa3300", ha="center",
                                xytext=(0, -12), textcoords="offset points")
        if trajectory:
            pts = [fr["position"][:2] for fr in trajectory["frames"] if fr["floor"] == floor]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], color="#d62728", lw=1.2, alpha=0.9)
        start = scene["start"]
        if start["floor"] == floor:
            (sx, sy), (hx, hy) = start["position"], start["heading"]
            ax.annotate("", (sx + 0.9 * hx, sy + 0.9 * hy), (sx, sy), arrowprops={"arrowstyle": "-|>", "color": "#d62728", "lw": 2})
            ax.plot([sx], [sy], "o", color="#d62728", ms=6)
            ax.text(sx, sy - 0.25, "start", color="#d62728", ha="center", va="top", fontsize=8)
        ax.set_xlim(min(xs) - 1, max(xs) + 1)
        ax.set_ylim(min(ys) - 1, max(ys) + 1)
        ax.set_aspect("equal")
        ax.set_title(f"{scene['name']} - floor {floor}", fontsize=11)
        ax.set_xlabel("x (m, east)")
        ax.set_ylabel("y (m, north)")
        ax.grid(True, lw=0.3, alpha=0.4)
    fig.tight_layout()
    fig.savefig(path, **SAVE_OPTIONS)
    plt.close(fig)


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
