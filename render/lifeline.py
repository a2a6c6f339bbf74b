"""A child process dies with the process that started it, even when that one is killed with
SIGKILL: nothing else would stop it. A Blender left behind goes on rendering the walk as an
orphan beside the re-run that resumes it; a batch worker left behind goes on generating its
scenario. Linux: PR_SET_PDEATHSIG; elsewhere the parent's own stop (on Ctrl-C, SIGTERM or a
failing callback) is all there is.

The parent puts its pid in the child's environment (PARENT_ENV): a child whose parent died
before it asked for the signal sees another parent and exits at once. (Comparing with pid 1
is not enough: an orphan goes to the nearest subreaper, which need not be init.)"""

from __future__ import annotations

import os
import signal

PARENT_ENV = "EGOSCENE_PARENT_PID"   # render.api and egoscene.batch.local set it to their own pid
PR_SET_PDEATHSIG = 1


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a child that should die with this process."""
    return dict(os.environ, **extra, **{PARENT_ENV: str(os.getpid())})


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask the kernel to send `sig` to this process when its parent ends; exit at once if the
    parent has already gone. Does nothing when run by hand (no PARENT_ENV)."""
    expected = os.environ.get(PARENT_ENV)
    if not expected:
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(sig))
    except (OSError, AttributeError):
        return  # not Linux
    if str(os.getppid()) != expected:  # the parent died before the call above
        os._exit(1)
