"""Colour frames from video.mp4 and object masks from a fresh instance-ID pass of the same frames.

The colour frames are decoded from the published video (PyAV), so the audit shows exactly the
pixels a model is given. The renderer's own id frames live only in its cache, so the frames
shown are rendered again through the render facade (render.api.id_frames: a fresh Blender
process, the flat id scene only, at the video's size) and decoded with render.idcolors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import numpy as np

Progress = Callable[[int, int], None]


def decode_frames(video: Path, wanted: set[int], on_progress: Progress = lambda done, total: None) -> dict[int, np.ndarray]:
    """frame number -> RGB array (H, W, 3) for every wanted frame; ValueError when the video is
    shorter than the frames asked for."""
    import av

    out: dict[int, np.ndarray] = {}
    last = max(wanted, default=-1)
    if last < 0:
        return out
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for index, frame in enumerate(container.decode(stream)):
            if index in wanted:
                out[index] = frame.to_ndarray(format="rgb24")
            if index % 25 == 0 or index == last:
                on_progress(min(index + 1, last + 1), last + 1)
            if index >= last:
                break
    missing = sorted(wanted - set(out))
    if missing:
        raise ValueError(f"{video}: has no frame {missing[0]} (decoded {len(out)} of {len(wanted)}; fix: regenerate "
                         "the scenario)")
    return out


class IdFrames:
    """Instance-ID maps of some frames and what each id is."""

    def __init__(self, maps: dict[int, np.ndarray], table: dict[tuple[str, str], int]):
        self.maps = maps      # frame -> int32 id map, the video's size
        self.table = table    # (kind "object" | "room" | "space", key) -> id

    def mask(self, frame: int, kind: str, key: str) -> np.ndarray | None:
        """Boolean mask of one object or room in one frame (None: not in the id pass)."""
        i = self.table.get((kind, key))
        m = self.maps.get(frame)
        if i is None or m is None:
            return None
        return m == i


def render_id_frames(folder: Path, frames: set[int], work: Path, on_progress: Progress = lambda d, t: None,
                     budget_s: float | None = None) -> IdFrames:
    """Render the id pass of `frames` of the scenario in `folder` into `work` and decode it
    (render.api.RenderBudgetError when Blender ran past `budget_s` wall seconds and was stopped)."""
    import cv2

    from render.api import id_frames
    from render.idcolors import decode_bgr

    paths = id_frames(folder / "scene.json", folder / "trajectory.json", work, sorted(frames), on_progress=on_progress,
                      budget_s=budget_s)
    table = {}
    if paths:
        raw = json.loads((work / "ids.json").read_text())
        table = {(kind, key): int(i) for i, (kind, key) in raw.items()}
    maps = {}
    for f, path in paths.items():
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise RuntimeError(f"the id pass wrote no readable frame {f} ({path})")
        maps[f] = decode_bgr(img)
    return IdFrames(maps, table)


def contours(mask: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
    """Outer contours of a mask scaled to `size` (width, height), largest first (by area, then
    by extent: a sliver one pixel wide has no area but is still outlined)."""
    import cv2

    small = cv2.resize(mask.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
    found, _ = cv2.findContours(small, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sorted(found, key=lambda c: (-cv2.contourArea(c), -len(c)))
