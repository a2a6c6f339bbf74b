"""Small synthetic scenarios (scene/trajectory/visibility dicts in the docs/formats.md shapes,
valid for their file models in formats/) for tests and demos of the query engine, without layout, placement or rendering.

Rooms stand in a row (optionally a second row across a hallway); objects are axis-aligned
boxes; visibility is made up: each object is visible for a stretch of its room's frames,
showing a random share (SHOWN) of the outline its box projects in each (at least 350 px).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from assets.shells import room_signs
from formats.base import dump_model
from formats.camera import Camera
from formats.files import dumps
from formats.trajectory import Trajectory
from formats.visibility import Visibility

CATEGORIES = ("bed", "sofa", "table", "desk", "chair", "tv", "lamp", "plant", "fridge", "stove",
              "sink", "bookshelf", "wardrobe", "piano", "cup", "book", "bath", "toilet")
ROOM_TYPES = ("kitchen", "bedroom", "study", "bathroom", "living room", "dining room")
DEPTH = 4.0
HALL = 2.0
SHOWN = (0.2, 0.6)  # share of its outline a seen thing shows (behind others, see-through)


def _rect(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _r(v):
    return round(float(v), 4)


def row_scene(seed: int, n_rooms: int = 3, two_rows: bool = False, objects_per_room=(3, 7),
              unseen_rate: float = 0.1, covisible_rate: float = 0.3, fps: int = 30) -> dict[str, dict]:
    """{"scene.json": ..., "trajectory.json": ..., "visibility.json": ...} for one made-up house."""
    rng = np.random.Generator(np.random.PCG64(seed))
    rooms, doors, objects, rows = [], [], [], []
    labels = []
    for i in range(n_rooms):
        base = ROOM_TYPES[i % len(ROOM_TYPES)]
        labels.append(base if i < len(ROOM_TYPES) else f"{base} {i // len(ROOM_TYPES) + 1}")
    south = labels if not two_rows else labels[: (n_rooms + 1) // 2]
    north = [] if not two_rows else labels[(n_rooms + 1) // 2:]
    hallway = []
    for row, y0 in ((south, 0.0), (north, DEPTH + HALL)):
        x = 0.0
        for k, label in enumerate(row):
            w = _r(rng.uniform(3.0, 5.0))
            rooms.append({"label": label, "type": label, "floor": 0, "area": _r(w * DEPTH),
                          "polygon": _rect(x, y0, _r(x + w), y0 + DEPTH)})
            rows.append((label, x, _r(x + w), y0))
            if k > 0:
                doors.append({"id": f"door-{len(doors)}", "rooms": [row[k - 1], label], "floor": 0,
                              "position": [x, y0 + DEPTH / 2], "width": 0.9, "height": 2.1,
                              "wall_axis": "y"})
            if two_rows:
                yd = y0 + DEPTH if y0 == 0.0 else y0
                doors.append({"id": f"door-{len(doors)}", "rooms": [label, "hallway:h0"], "floor": 0,
                              "position": [_r(x + w / 2), yd], "width": 0.9, "height": 2.1,
                              "wall_axis": "x"})
            x = _r(x + w)
    if two_rows:
        width = max(r[2] for r in rows)
        hallway = [{"id": "h0", "floor": 0, "polygon": _rect(0.0, DEPTH, width, DEPTH + HALL)}]

    counter: dict[tuple[str, str], int] = {}
    for label, x0, x1, y0 in rows:
        placed = []
        # the first thing says what the room is (a kitchen's fridge), as in a sampled spec
        signs = [c for c in CATEGORIES if c in (room_signs(label) or CATEGORIES)]
        for k in range(int(rng.integers(objects_per_room[0], objects_per_room[1] + 1))):
            pool = signs if k == 0 else CATEGORIES
            cat = pool[int(rng.integers(len(pool)))]
            for _try in range(20):
                w, d = rng.uniform(0.3, 1.2, size=2)
                cx = rng.uniform(x0 + 0.3 + w / 2, x1 - 0.3 - w / 2)
                cy = rng.uniform(y0 + 0.3 + d / 2, y0 + DEPTH - 0.3 - d / 2)
                box = (cx - w / 2, cy - d / 2, cx + w / 2, cy + d / 2)
                if all(box[2] + 0.2 < b[0] or b[2] + 0.2 < box[0] or box[3] + 0.2 < b[1]
                       or b[3] + 0.2 < box[1] for b in placed):
                    break
            else:
                continue
            placed.append(box)
            n = counter[(label, cat)] = counter.get((label, cat), 0) + 1
            objects.append({"id": f"{label.replace(' ', '-')}/{cat}/{n}", "category": cat,
                            "room": label, "floor": 0, "position": [_r(cx), _r(cy), 0.0],
                            "yaw": 270.0 if cy > y0 + 1.5 else 90.0,   # facing the camera's line
                            "size": [_r(w), _r(d), 0.8],
                            "footprint": _rect(*(_r(v) for v in box)), "support": "floor",
                            "attributes": {"color": "grey", "material": "wood", "model_seed": 0}})

    opposite = []
    for a, ax0, ax1, ay in rows:
        for b, bx0, bx1, by in rows:
            if a < b and ay != by and min(ax1, bx1) - max(ax0, bx0) >= 0.5:
                opposite.append(sorted([a, b]))
    adjacent = sorted(sorted(d["rooms"]) for d in doors if not any("hallway" in r for r in d["rooms"]))
    scene = {"format": "egoscene.scene/1", "name": f"synthetic-{seed}", "typology": "single-story residence",
             "seed": seed, "versions": {"egoscene": "0.1.0"},
             "floors": [{"floor": 0, "elevation": 0.0, "height": 2.8}],
             "rooms": rooms, "hallways": hallway, "stairs": [], "doors": doors, "windows": [], "walls": [],
             "relations": {"adjacent": adjacent, "opposite": sorted(opposite), "vertical": []},
             "start": {"position": [_r(rows[0][1] + 1.0), 0.5], "heading": [0, 1], "floor": 0},
             "objects": objects}

    # walk: each room in turn (south row west->east, then north row east->west)
    order = south + north[::-1]
    frames, events, spans, f = [], [], {}, 0
    for label in order:
        _, x0, x1, y0 = next(r for r in rows if r[0] == label)
        n = int(rng.integers(90, 150))
        spans[label] = (f, f + n)
        events.append({"frame": f, "type": "enter_room", "room": label, "floor": 0})
        for k in range(n):
            frames.append({"frame": f, "t": _r(f / fps), "position": [_r(x0 + (x1 - x0) * k / n), y0 + 1.5, 1.6],
                           "yaw": 90.0, "pitch": 0.0, "room": label, "floor": 0})
            f += 1
        if two_rows:  # a few hallway frames between rooms
            for _ in range(10):
                frames.append({"frame": f, "t": _r(f / fps), "position": [_r(x1 - 0.5), DEPTH + 1.0, 1.6],
                               "yaw": 90.0, "pitch": 0.0, "room": None, "floor": 0})
                f += 1

    camera = Camera.standard()
    vis_objects = {}
    for o in objects:
        lo, hi = spans[o["room"]]
        if rng.random() < unseen_rate:
            length = int(rng.integers(0, 10))
        else:
            length = int(rng.integers(16, max(17, (hi - lo) // 2)))
        start = int(rng.integers(lo, max(lo + 1, hi - length)))
        fr = list(range(start, min(hi, start + length)))
        shares = rng.uniform(*SHOWN, size=len(fr))
        px = [_pixels(o, frames[k], camera, share) for k, share in zip(fr, shares)]
        vis_objects[o["id"]] = {"frames": fr, "pixels": px, "first_frame": fr[0] if fr else None}
    vis_rooms = {}
    for i, label in enumerate(order):
        lo, hi = spans[label]
        fr = list(range(lo, hi))
        if i + 1 < len(order) and rng.random() < covisible_rate:  # next room seen through the door
            peek = vis_rooms.setdefault(order[i + 1], {"frames": [], "pixels": []})
            peek["frames"] += list(range(hi - 5, hi))
            peek["pixels"] += [500] * 5
        entry = vis_rooms.setdefault(label, {"frames": [], "pixels": []})
        entry["frames"] += fr
        entry["pixels"] += [20000] * len(fr)
    for entry in vis_rooms.values():
        pairs = sorted(dict(zip(entry["frames"], entry["pixels"])).items())
        entry["frames"] = [p[0] for p in pairs]
        entry["pixels"] = [p[1] for p in pairs]
        entry["first_frame"] = entry["frames"][0] if entry["frames"] else None
    visibility = {"format": Visibility.FORMAT, "width": camera.width, "height": camera.height, "fps": fps,
                  "min_pixels": camera.min_pixels(), "id_pass": {"width": 160, "height": 120, "block": 2, "margin": 4}, "profile": "preview",
                  "objects": vis_objects, "rooms": vis_rooms,
                  "inputs_hash": "0" * 64, "trajectory_hash": "0" * 64, "video_sha256": "0" * 64}
    trajectory = dump_model(Trajectory(format=Trajectory.FORMAT, fps=fps, camera=camera, frames=frames, events=events,
                                       narration=[]))
    return {"scene.json": scene, "trajectory.json": trajectory, "visibility.json": visibility}


def _pixels(o: dict, frame: dict, camera: Camera, share: float) -> int:
    """`share` of the object's outline in the frame, at least 350 px (over 0.1% of 640x480)."""
    from queries.shown import outline_area

    thing = SimpleNamespace(footprint=o["footprint"], position=o["position"], size=o["size"])
    view = SimpleNamespace(position=frame["position"], yaw=frame["yaw"], pitch=frame["pitch"])
    area = outline_area(thing, view, camera.hfov_deg, camera.width, camera.height)
    return max(350, int(share * area)) if area else 350


def write_scenario(out_dir: Path, files: dict[str, dict]) -> Path:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out_dir / name).write_text(dumps(data))
    return out_dir
