"""A Blender that crashes mid-render (an abort: exit -6, seen in a batch and in a bench) is
started again once and resumes from its frame cache (render.api); a failure of its own or a
stop from outside is not retried. No Blender: the render process is stood in for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import render.api as api


def test_an_aborting_process_is_a_crash_and_an_error_exit_is_not():
    with pytest.raises(api.RenderCrashError, match="SIGABRT"):
        api._run([sys.executable, "-c", "import os; print('progress 3/9', flush=True); os.abort()"],
                 lambda d, t: None, "render")
    with pytest.raises(api.RenderError) as failed:
        api._run([sys.executable, "-c", "raise SystemExit(2)"], lambda d, t: None, "render")
    assert not isinstance(failed.value, api.RenderCrashError)
    with pytest.raises(api.RenderBudgetError):    # stopped from outside at its budget: no crash
        api._run([sys.executable, "-c", "import time; time.sleep(30)"], lambda d, t: None, "render", budget_s=0.5)


def _scripted(monkeypatch, outcomes: list):
    """Render processes that crash or report as `outcomes` say, one per request; returns the
    budgets of the requests and counts the processes started in `calls.started`."""
    import io
    from types import SimpleNamespace

    calls = []
    calls_started = []

    def spawn(cmd, stdin=None):
        calls_started.append(cmd)
        return SimpleNamespace(stdin=io.StringIO(), stdout=io.StringIO(), poll=lambda: None)

    def follow(proc, on_progress, what, budget_s, done=None):
        calls.append(budget_s)
        outcome = outcomes[len(calls) - 1]
        if outcome == "crash":
            raise api.RenderCrashError(f"{what} crashed (exit -6, SIGABRT):\nprogress 1173/2023")
        if outcome == "fail":
            raise api.RenderError(f"{what} failed (exit 1):\nTraceback")
        return {"status": "done"}
    monkeypatch.setattr(api, "_spawn", spawn)
    monkeypatch.setattr(api, "_follow", follow)
    monkeypatch.setattr(api, "_stop", lambda proc, grace_s=5.0: None)
    return calls, calls_started


def test_a_crashed_render_is_run_again_once_within_the_same_budget(monkeypatch, tmp_path: Path):
    calls, started = _scripted(monkeypatch, ["crash", "done"])
    done = api.render(tmp_path / "scene.json", tmp_path / "trajectory.json", tmp_path, budget_s=100.0)
    assert done.stats["status"] == "done"
    assert done.stats["crashes"] == ["render crashed (exit -6, SIGABRT):"]
    assert len(calls) == 2 and 99.0 < calls[1] <= calls[0] <= 100.0
    assert len(started) == 2                       # a fresh Blender for the second try

    _scripted(monkeypatch, ["crash", "crash", "done"])
    with pytest.raises(api.RenderCrashError):
        api.render(tmp_path / "scene.json", tmp_path / "trajectory.json", tmp_path)

    calls, _ = _scripted(monkeypatch, ["fail", "done"])
    with pytest.raises(api.RenderError):
        api.render(tmp_path / "scene.json", tmp_path / "trajectory.json", tmp_path)
    assert len(calls) == 1
