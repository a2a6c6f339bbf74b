"""A render process dies with the process that started it (render.api), even when that one is
killed with SIGKILL: nothing else would stop Blender, which would go on rendering the walk as
an orphan beside the re-run that resumes it. Linux: PR_SET_PDEATHSIG; elsewhere render.api's
own stop (on Ctrl-C, SIGTERM or a failing callback) is all there is."""

from __future__ import annotations

import os
import signal

PARENT_ENV = "EGOSCENE_RENDER_PARENT"   # render.api sets it to its own pid
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent ends; exit at once if the parent
    has already gone. Does nothing when run by hand (no PARENT_ENV)."""
    expected = os.environ.get(PARENT_ENV)
    if not expected:
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return  # not Linux
    if str(os.getppid()) != expected:  # the parent died before the call above
        os._exit(1)
