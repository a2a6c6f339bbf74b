"""From id frames to visibility.json: what each frame of the id pass shows. No bpy.

An id frame is decoded into, per id, its pixel count and whether its region holds a solid
block (render.idcolors.ids_with_block). `IdDecoder` does one frame. The render's id helper
(render.id_helper) decodes the frames it rendered while the colour pass still runs, into one
.npz in the frame cache (`decoded_cache`, named by the fingerprint of this decoding code, so
a change to it decodes everything again); `visibility` decodes only what is not in it, and a
walk extended by the coverage loop decodes only its new poses.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import numpy as np

from formats.visibility import Visibility


class IdDecoder:
    """decoder(path) -> (pixel count per id, whether the id's region holds a solid block), both
    of length `size` (ids are assigned in scene order: render.idcolors.assign_ids)."""

    def __init__(self, scene: dict, id_size: tuple[int, int]):
        from assets.vocabulary import OPEN_FRAME
        from render import idcolors

        self.ids = idcolors.assign_ids(scene)
        self.size = max(self.ids.values(), default=0) + 1
        self.open_frames = [self.ids[("object", o["id"])] for o in scene.get("objects", [])
                            if o.get("category") in OPEN_FRAME]
        self.side, self.margin = idcolors.block_side(id_size[0]), idcolors.border_margin(id_size[0])

    def __call__(self, path: Path) -> tuple[np.ndarray, np.ndarray]:
        import cv2

        from render import idcolors

        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise RuntimeError(f"unreadable id frame {path}")
        id_map = idcolors.decode_bgr(img)
        counts = np.zeros(self.size, np.int64)
        c = idcolors.count_ids(id_map)[:self.size]
        counts[:len(c)] = c
        solid = np.zeros(self.size, bool)
        blocks = idcolors.ids_with_block(id_map, self.side, self.margin, hull_ids=self.open_frames)
        solid[blocks[blocks < self.size]] = True
        return counts, solid


def visibility(scene: dict, id_frames: list[Path], numbers: list[int], width: int, height: int,
               id_size: tuple[int, int], fps: int, min_pixels: int,
               decoded: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> dict:
    """Per object and room: frames with at least `min_pixels` (in video pixels) whose region
    holds a block_side square of id pixels somewhere inside the border margin (not a sliver,
    not a strip at the frame's edge; for open frames such as glasses, its convex hull does),
    counts, first frame. `decoded`: id frames already decoded (by file name); the rest are
    decoded here, each file once, and added to it."""
    from assets.vocabulary import OPEN_FRAME

    decoder = IdDecoder(scene, id_size)
    known = {} if decoded is None else decoded
    scale = (width * height) / float(id_size[0] * id_size[1])
    counts = np.zeros((len(numbers), decoder.size), np.int64)
    solid = np.zeros(counts.shape, bool)
    for k, path in enumerate(id_frames):
        row = known.get(path.name)
        if row is None or len(row[0]) != decoder.size:
            row = known[path.name] = decoder(path)
        counts[k], solid[k] = row
    pixels = np.rint(counts * scale).astype(np.int64)
    out = {"format": Visibility.FORMAT, "width": width, "height": height, "fps": fps, "min_pixels": min_pixels,
           "id_pass": {"width": id_size[0], "height": id_size[1], "block": decoder.side, "margin": decoder.margin,
                       "hull_categories": sorted(OPEN_FRAME)}, "objects": {}, "rooms": {}}
    for (kind, name), i in decoder.ids.items():
        if kind not in ("object", "room"):
            continue
        col = pixels[:, i]
        seen = np.nonzero((col >= min_pixels) & solid[:, i])[0]
        # a viewer may notice a thin thing far off before its region holds the square (person
        # check of sample-11-000: a vase on a mantel 3.9 m off, 2 deg wide, seen 10 s earlier)
        glimpsed = np.nonzero(col >= min_pixels)[0]
        entry = {"frames": [numbers[j] for j in seen], "pixels": [int(col[j]) for j in seen],
                 "first_frame": numbers[seen[0]] if len(seen) else None,
                 "first_glimpse": numbers[glimpsed[0]] if len(glimpsed) else None}
        out["objects" if kind == "object" else "rooms"][name] = entry
    return out


@functools.cache
def _decoder_fingerprint() -> str:
    # this module's source: the frame cache folder is already keyed by the scene builder's code,
    # which takes in idcolors and the vocabulary (render.run.code_fingerprint)
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def decoded_cache(frames_dir: Path) -> Path:
    """The frame cache's decoded id frames (file name -> counts, solid), for this decoding code."""
    return Path(frames_dir) / f"decoded-{_decoder_fingerprint()}.npz"


def save_decoded(path: Path, rows: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Write decoded id frames (file name -> (counts, solid)) as one .npz, atomically."""
    names = sorted(rows)
    size = len(rows[names[0]][0]) if names else 0
    counts = np.array([rows[n][0] for n in names], np.int64).reshape(len(names), size)
    solid = np.array([rows[n][1] for n in names], bool).reshape(len(names), size)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
    with open(tmp, "wb") as fh:
        np.savez(fh, names=np.array(names, dtype=str), counts=counts, solid=solid)
    os.replace(tmp, path)


def load_decoded(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """save_decoded's rows; {} when the file is missing or unreadable (they are decoded again)."""
    try:
        with np.load(path) as data:
            return {str(n): (c, s) for n, c, s in zip(data["names"], data["counts"], data["solid"])}
    except (OSError, ValueError, KeyError):
        return {}
