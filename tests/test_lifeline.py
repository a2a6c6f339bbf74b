"""A render process dies with the process that started it, even one killed with SIGKILL
(render/lifeline.py): a batch killed while its worker's Blender was joining the video left
that Blender running as an orphan (CI, stop 18)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHILD = "from render.lifeline import die_with_parent; die_with_parent(); import time; time.sleep(120)"
# the parent starts the child as render.api does (its own pid in the environment), says its pid, waits
PARENT = f"""
import os, subprocess, sys, time
from render.lifeline import PARENT_ENV
child = subprocess.Popen([sys.executable, "-c", {CHILD!r}], env=dict(os.environ, **{{PARENT_ENV: str(os.getpid())}}))
print(child.pid, flush=True)
time.sleep(120)
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_render_process_dies_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), start_new_session=True)
    try:
        child = int(parent.stdout.readline())
        time.sleep(1.0)  # the child has called die_with_parent and sleeps
        assert _alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the render process outlived its killed parent"
    finally:
        os.killpg(parent.pid, signal.SIGKILL) if parent.poll() is None else None


def test_a_render_process_whose_parent_is_already_gone_exits_at_once():
    from render.lifeline import PARENT_ENV

    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, timeout=30,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **{PARENT_ENV: "1"}))  # not our parent
    assert done.returncode == 1


def test_run_by_hand_a_render_module_keeps_no_lifeline():
    from render.lifeline import PARENT_ENV

    done = subprocess.run([sys.executable, "-c", "from render.lifeline import die_with_parent; die_with_parent()"],
                          cwd=ROOT, timeout=30, env={k: v for k, v in os.environ.items() if k != PARENT_ENV})
    assert done.returncode == 0
