"""Test-only hooks for the interruption tests (tests/test_resume.py, tests/test_batch.py): Python
code written as `sitecustomize.py` into a folder put first on PYTHONPATH, so every Python process
of a run (generate or the batch, its workers, the renderer below them) loads it at start-up. No
production code knows about them; they act only on the run given that environment.

- STALLED_JOIN: the renderer's join writes half of its video.mp4, touches the file named by
  EGOSCENE_TEST_JOINING and sleeps, so a test can kill the run exactly in the middle of the join
  (no timing luck).
- RENDER_TODO: each renderer appends `<chunks left to render> <chunks>` to the file named by
  EGOSCENE_TEST_TODO when it has looked at its frame cache: a resumed render that renders no
  finished frame again logs `0 <chunks>`.
"""

from __future__ import annotations

import os
from pathlib import Path

STALLED_JOIN = """
import os, time
from pathlib import Path
import render.video

join = render.video.join_segments

def half_written_join(segments, out):
    join(segments, out)
    data = Path(out).read_bytes()
    Path(out).write_bytes(data[: len(data) // 2])
    Path(os.environ["EGOSCENE_TEST_JOINING"]).touch()
    time.sleep(600)

render.video.join_segments = half_written_join
"""

RENDER_TODO = """
import os
import render.frame_cache as fc

plan_init = fc.Plan.__init__

def logged_plan_init(self, *args, **kwargs):
    plan_init(self, *args, **kwargs)
    todo = [c for c, (a, b) in enumerate(self.chunks)  # as render.run decides, incomplete id PNGs included
            if not self.segment_done(c) or not all(fc.png_complete(fc.id_path(self.frames_dir, k))
                                                   for k in self.keys[a:b])]
    with open(os.environ["EGOSCENE_TEST_TODO"], "a") as log:
        log.write(f"{len(todo)} {len(self.chunks)}\\n")

fc.Plan.__init__ = logged_plan_init
"""


def hooked_env(folder: Path, *hooks: str) -> dict[str, str]:
    """The environment of a run with `hooks` installed (folder: a fresh folder of the test's own);
    the marker and log files they use live in `folder` too (folder / "joining", folder / "todo")."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text("\n".join(hooks))
    return dict(os.environ, PYTHONPATH=str(folder), EGOSCENE_TEST_JOINING=str(folder / "joining"),
                EGOSCENE_TEST_TODO=str(folder / "todo"))
