"""`egoscene generate`: files written, atomic publication, byte-identical reruns."""

import json
from pathlib import Path

import pytest

from formats import files as outputs
from egoscene.cli import main
from tests.conftest import ROOT

LAYOUT_FILES = {"scene.json", "floorplan.png", "grid.json", "grid.png", "grid_prompt.txt", "manifest.json"}
SPEC = ROOT / "scenarios" / "scenario-05.yaml"


def generate(out: Path, spec: Path = SPEC) -> Path:
    assert main(["generate", str(spec), "--out", str(out), "--until", "layout"]) == 0
    return out / "scenario-05"


def test_outputs_are_complete_and_readable(tmp_path):
    folder = generate(tmp_path)
    assert {p.name for p in folder.iterdir()} == LAYOUT_FILES
    assert [p.name for p in tmp_path.iterdir()] == ["scenario-05"]  # no staging left behind
    scene = json.loads((folder / "scene.json").read_text())
    assert scene["name"] == "scenario-05" and scene["seed"] == 6
    assert {r["label"] for r in scene["rooms"]} == {"bathroom", "file room", "locker room", "lounge", "main office"}
    grid = json.loads((folder / "grid.json").read_text())
    assert len(grid["floors"][0]["grid"]) == 10 and all(len(r) == 10 for r in grid["floors"][0]["grid"])
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["files"] == outputs.file_hashes(folder)
    assert manifest["spec_hash"] and set(manifest["timings_s"]) >= {"layout"}
    assert (folder / "floorplan.png").read_bytes()[:4] == b"\x89PNG"
    assert "Start: (0, 0)" in (folder / "grid_prompt.txt").read_text()


def test_two_runs_give_identical_bytes(tmp_path):
    first, second = generate(tmp_path / "a"), generate(tmp_path / "b")
    for name in LAYOUT_FILES - {"manifest.json"}:  # the manifest holds timings by design
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    manifest = lambda f: json.loads((f / "manifest.json").read_text())  # noqa: E731
    assert manifest(first)["files"] == manifest(second)["files"]


def test_rerun_replaces_a_finished_output_atomically(tmp_path):
    folder = generate(tmp_path)
    (folder / "stale.txt").write_text("from an older run")
    generate(tmp_path)
    assert not (folder / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenario-05"]


def test_an_unchanged_finished_output_is_reused(tmp_path):
    from egoscene import pipeline

    folder = generate(tmp_path)
    before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    result = pipeline.generate(SPEC, tmp_path, pipeline.Options(until="layout"))
    assert result.reused
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == before
    assert not pipeline.generate(SPEC, tmp_path, pipeline.Options(until="scene")).reused  # more stages asked


def test_a_crash_while_writing_leaves_nothing_that_looks_finished(tmp_path, monkeypatch):
    from generator import drawing

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(drawing, "draw_grid", boom)
    from egoscene import pipeline

    with pytest.raises(RuntimeError):
        pipeline.generate(SPEC, tmp_path, pipeline.Options(until="layout"))
    assert list(tmp_path.iterdir()) == []
    assert main(["generate", str(SPEC), "--out", str(tmp_path), "--until", "layout"]) == 1  # reported, not a traceback
    assert list(tmp_path.iterdir()) == []


def test_validate_accepts_every_bundled_scenario_and_rejects_duplicate_names(tmp_path):
    assert main(["validate", str(ROOT / "scenarios")]) == 0
    twin = tmp_path / "twin.yaml"
    twin.write_text(SPEC.read_text())
    assert main(["validate", str(SPEC), str(twin)]) == 2  # refused input


def test_generate_reports_failure_but_finishes_other_scenarios(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ntypology: office\nrooms: {a: {objects: {fridgee: 1}}}\ntrajectory: [a]\n")
    out = tmp_path / "out"
    assert main(["generate", str(bad), str(SPEC), "--out", str(out), "--until", "layout"]) == 2  # refused input
    assert [p.name for p in out.iterdir()] == ["scenario-05"]


def test_scene_and_walk_are_byte_identical_across_runs(tmp_path):
    from egoscene import pipeline

    for out in ("a", "b"):
        pipeline.generate(SPEC, tmp_path / out, pipeline.Options(until="trajectory"))
    for name in ("scene.json", "trajectory.json", "floorplan.png", "grid.json"):
        first = (tmp_path / "a" / "scenario-05" / name).read_bytes()
        assert first == (tmp_path / "b" / "scenario-05" / name).read_bytes(), name
    scene = json.loads((tmp_path / "a" / "scenario-05" / "scene.json").read_text())
    assert len(scene["objects"]) == 41 and scene["object_relations"]


def test_reuse_keys_follow_the_code_each_stage_runs(monkeypatch):
    from egoscene import pipeline
    from generator.spec.scenario import load_scenario

    scenario = load_scenario(SPEC)
    options = pipeline.Options()
    prints = pipeline.stage_fingerprints(pipeline.STAGES)
    assert len(set(prints.values())) == len(prints)  # every stage has its own code
    scene, trajectory = {"rooms": []}, {"frames": []}
    key, folder_key = pipeline.render_key(scene, trajectory, options), pipeline.inputs_hash(scenario, options)
    # a module only the question engine reaches: the folder is stale, the rendered video is not
    monkeypatch.setitem(pipeline.STAGE_CODE, "queries", pipeline.STAGE_CODE["queries"] + ("queries.judge",))
    assert pipeline.inputs_hash(scenario, options) != folder_key
    assert pipeline.render_key(scene, trajectory, options) == key
    # a module the renderer reaches: the video is stale too
    monkeypatch.setitem(pipeline.STAGE_CODE, "render", pipeline.STAGE_CODE["render"] + ("render.catalog",))
    assert pipeline.render_key(scene, trajectory, options) != key
    assert pipeline.render_key(scene, {"frames": [{"frame": 0}]}, options) != pipeline.render_key(scene, trajectory, options)


def test_code_fingerprint_covers_imported_modules_only():
    from formats.fingerprint import module_closure

    walk = module_closure("generator.walk.plan")
    assert {"generator.walk.space", "generator.stairs"} <= set(walk)
    assert not any(m.startswith(("queries", "render", "egoscene")) for m in walk)
    assert "queries.check" in module_closure("queries.check") and "render.run" not in module_closure("queries.check")
