"""Time budgets of the render, queries and optional passes stages and of the audit (issue 14, item 3): over its budget a stage is
stopped with one line naming the stage, the budget and the fix (exit 1, as other stage
failures), nothing is published, no Blender process is left, and a re-run with a larger budget
resumes from what was kept. Small: a 2-room spec, 30 frames at 64x48."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from egoscene.batch.worker import classify, describe
from egoscene.cli import main
from formats.base import read_model
from formats.batch import Batch
from render.api import RenderBudgetError, RenderError

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "queries" / "tiny_house"
SPEC = """name: tiny-budget
typology: single-story residence
seed: 3
rooms:
  kitchen:
    objects: {fridge: 1, table: 1}
  bedroom:
    objects: {bed: 1, wardrobe: 1}
trajectory: [kitchen, bedroom]
relations:
  adjacent:
    - [kitchen, bedroom]
"""
SMALL = ["--width", "64", "--height", "48", "--max-frames", "30", "--per-task", "1"]


def _processes_naming(text: str) -> list[str]:
    """Command lines of live processes that mention `text` (the output folder of a test)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if any(text.encode() in a for a in args):
            found.append(" ".join(a.decode(errors="replace") for a in args))
    return found


@pytest.fixture
def spec(tmp_path) -> Path:
    path = tmp_path / "tiny-budget.yaml"
    path.write_text(SPEC)
    return path


def test_render_and_queries_budgets_stop_their_stage_and_a_rerun_resumes(spec, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    started = time.perf_counter()
    assert main(["generate", str(spec), "--out", str(out), *SMALL, "--render-budget", "1"]) == 1
    err = capsys.readouterr().err
    assert f"error {spec}: render stage stopped at its budget of 1 s" in err and "fix: --render-budget" in err
    assert "Traceback" not in err
    assert time.perf_counter() - started < 60  # layout and walk take a second; Blender is stopped at 1 s
    assert not _processes_naming(str(out)), "Blender outlived its budget"
    assert sorted(p.name for p in out.iterdir()) == [".cache"]  # nothing published, no staging folder or lock

    from queries import engine

    first_task = next(iter(engine.GENERATORS))
    slow = engine.GENERATORS[first_task]

    def slow_task(ctx, per_task):  # the first task alone outlasts the budget: the check before the next stops it
        spin_until = time.process_time() + 1.2   # the budget counts CPU seconds: a sleep spends none
        while time.process_time() < spin_until:
            pass
        return slow(ctx, per_task)

    monkeypatch.setitem(engine.GENERATORS, first_task, slow_task)
    assert main(["generate", str(spec), "--out", str(out), *SMALL, "--queries-budget", "1"]) == 1
    err = capsys.readouterr().err
    assert f"error {spec}: queries stage stopped at its budget of 1 CPU s" in err and "fix: --queries-budget" in err
    assert sorted(p.name for p in out.iterdir()) == [".cache"]
    assert (out / ".cache" / "tiny-budget" / "video.mp4").is_file()  # the render is kept for the re-run

    monkeypatch.setitem(engine.GENERATORS, first_task, slow)
    assert main(["generate", str(spec), "--out", str(out), *SMALL]) == 0
    err = capsys.readouterr().err
    renders = [line for line in err.splitlines() if "render " in line and "frames" in line]
    assert renders == ["tiny-budget.yaml: render 30/30 frames"], err  # resumed: nothing rendered again
    assert sorted(p.name for p in out.iterdir()) == ["tiny-budget"]
    options = json.loads((out / "tiny-budget" / "manifest.json").read_text())["options"]
    assert options["queries_budget"] == 300.0 and "render_budget" not in options  # absent: the default rule


def test_a_batch_reports_a_render_over_budget_as_failed_without_retrying(spec, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["batch", str(spec), "--out", str(out), "--workers", "1", *SMALL, "--render-budget", "1"]) == 1
    err = capsys.readouterr().err
    assert "render stage stopped at its budget of 1 s" in err and "Traceback" not in err
    state = read_model(out / "batch.json", Batch).scenarios[0]
    # the name is the one the batch read from the spec; over budget is not a crash worth retrying
    assert (state.name, state.status, state.attempts) == ("tiny-budget", "failed", 1)
    assert "fix: --render-budget" in state.error
    assert not _processes_naming(str(out)), "a worker or Blender outlived the batch"
    assert not (out / "tiny-budget").exists()


def test_batch_statuses_come_from_the_error_classes():
    from egoscene.pipeline import QueryBudgetError, QueryCheckError
    from formats.files import OutputError

    assert classify(RenderBudgetError("over", (3, 30))) == "failed"  # a RenderError, but not a crash
    from egoscene.pipeline import PassesBudgetError

    assert classify(PassesBudgetError("passes over", None)) == "failed"
    assert classify(RenderError("Blender died")) == "crashed"
    assert classify(QueryBudgetError("over")) == classify(QueryCheckError("disagree")) == "failed"
    assert classify(OutputError("read-only")) == "refused"
    assert classify(KeyError("bug")) == "failed"
    assert describe(RenderBudgetError("render stopped", None)) == "render stopped"
    assert describe(KeyError("bug")) == "internal error: KeyError: 'bug'"


def test_the_budget_check_runs_between_tasks_candidates_and_records_and_changes_nothing(tmp_path):
    from queries.engine import GENERATORS, build_queries
    from queries.model import load_scenario
    from queries.ontology import FIXTURE_ONTOLOGY

    folder = tmp_path / "tiny"
    shutil.copytree(FIXTURE, folder)
    scenario = load_scenario(folder)
    calls = []
    records, report = build_queries(scenario, 3, ontology=FIXTURE_ONTOLOGY, between=lambda: calls.append(1))
    refused = sum(n for reasons in report.reasons.values() for n in reasons.values())
    assert refused > 0 and len(calls) == len(GENERATORS) + refused + len(records)
    assert build_queries(load_scenario(folder), 3, ontology=FIXTURE_ONTOLOGY)[0] == records

    def over():
        raise TimeoutError("over budget")

    with pytest.raises(TimeoutError):
        build_queries(load_scenario(folder), 3, ontology=FIXTURE_ONTOLOGY, between=over)


def test_the_default_render_budget_grows_with_frames_pixels_and_profile():
    from egoscene.pipeline import render_budget_s

    assert render_budget_s(1000, 640, 480, "preview") == 120 + 1000 * 3.0
    assert render_budget_s(1000, 640, 480, "photoreal") == 120 + 1000 * 30.0
    assert render_budget_s(1000, 1280, 960, "preview") == 120 + 1000 * 12.0
    assert render_budget_s(1000, 64, 48, "preview") == 120 + 1000 * 0.75  # at least a quarter of 640x480


def test_the_default_passes_and_audit_budgets():
    from egoscene.audit.run import audit_budget_s
    from egoscene.pipeline import passes_budget_s, render_budget_s

    assert passes_budget_s(1000, 640, 480) == render_budget_s(1000, 640, 480, "preview")  # Workbench in either profile
    assert audit_budget_s(200, 1000, 30, 640, 480) == 120 + 200 * 3.0 + 1000 * 0.1 + 30 * 3.0
    assert audit_budget_s(200, 1000, 30, 64, 48) == 120 + 200 * 0.75 + 1000 * 0.1 + 30 * 3.0


def test_passes_and_audit_budgets_stop_blender_and_leave_nothing_that_looks_finished(spec, tmp_path, capsys):
    """--passes-budget and audit --audit-budget: 1 s trips on the first check (Blender is still
    starting); one line naming the stage, the budget and the option, exit 1, Blender stopped,
    nothing published or replaced; the re-run renders nothing again. The whole walk (278 frames at
    64x48), so that the scenario has questions to audit."""
    from egoscene import pipeline

    out = tmp_path / "out"
    whole = ["--width", "64", "--height", "48", "--per-task", "1"]
    assert main(["generate", str(spec), "--out", str(out), *whole, "--passes", "depth", "--passes-budget", "1"]) == 1
    err = capsys.readouterr().err
    assert f"error {spec}: passes stage (depth) stopped at its budget of 1 s" in err, err
    assert "fix: --passes-budget" in err and "Traceback" not in err
    assert not _processes_naming(str(out)), "Blender outlived its budget"
    assert sorted(p.name for p in out.iterdir()) == [".cache"]  # nothing published, no staging folder or lock

    result = pipeline.generate(spec, out, pipeline.Options(width=64, height=48, per_task=1, passes="depth"))
    # the render was kept: its cache is up to date (no counts) and nothing is rendered again
    assert [(r["color_frames"] or 0, r["id_frames"] or 0) for r in result.renders] == [(0, 0)]
    frames = len(json.loads((result.folder / "trajectory.json").read_text())["frames"])
    assert len(list((result.folder / "depth").glob("*.png"))) == frames
    assert "passes_budget" not in json.loads((result.folder / "manifest.json").read_text())["options"]

    folder = result.folder
    assert main(["audit", str(folder)]) == 0  # the default budget
    page = (folder / "audit" / "index.html").read_bytes()
    capsys.readouterr()
    assert main(["audit", str(folder), "--audit-budget", "1"]) == 1
    err = capsys.readouterr().err
    assert f"error {folder}: audit stopped at its budget of 1 s" in err, err
    assert "fix: --audit-budget" in err and "Traceback" not in err
    assert not _processes_naming(str(folder)), "the id pass's Blender outlived the audit's budget"
    assert (folder / "audit" / "index.html").read_bytes() == page  # the earlier audit stays as it was
    assert not list(folder.glob(".audit*"))  # no staging folder or lock


def test_the_scene_budget_refuses_a_slow_placement_naming_the_room_and_the_fix(spec, tmp_path, capsys, monkeypatch):
    """Placing objects has a budget like every stage: over it, one line naming the room reached
    and --scene-budget, exit 2 (a refused spec), nothing written. The clock is made to jump 5 s
    per reading so the 1 s CLI minimum is crossed at once."""
    import generator.placement.place as place

    ticks = iter(range(0, 10**6, 5))
    monkeypatch.setattr(place.time, "process_time", lambda: float(next(ticks)))
    out = tmp_path / "out"
    code = main(["generate", str(spec), "--out", str(out), "--until", "scene", "--scene-budget", "1"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "placing the objects took more than 1 CPU s" in err and "room 'bedroom'" in err and "--scene-budget" in err
    assert not (out / "tiny-budget").exists()
    monkeypatch.undo()
    assert main(["generate", str(spec), "--out", str(out), "--until", "scene"]) == 0   # the default budget
    assert (out / "tiny-budget" / "scene.json").exists()
