"""`egoscene bench` (egoscene/bench.py): the report of the coverage loop and the ratios, without
Blender (the pipeline and the bare render are replaced by stand-ins)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from egoscene import bench, pipeline


def _trajectory(n: int) -> dict:
    from formats.base import dump_model
    from formats.camera import Camera
    from formats.trajectory import Trajectory

    frames = [{"frame": i, "t": round(i / 30, 4), "position": [1.0, 1.0, 1.6], "yaw": float(i), "pitch": 0.0,
               "room": "kitchen", "floor": 0} for i in range(n)]
    return dump_model(Trajectory(format=Trajectory.FORMAT, fps=30, camera=Camera.standard(160, 120), frames=frames,
                                 events=[], narration=[]))


def test_bench_reports_each_render_of_the_coverage_loop(tmp_path, monkeypatch):
    def fake_generate(spec, out_root, options):
        folder = out_root / "demo"
        folder.mkdir(parents=True)
        (folder / "trajectory.json").write_text(json.dumps(_trajectory(120)))
        renders = [{"frames": 100, "chunks": 2, "color_frames": 100, "id_frames": 100, "seconds": 10.0},
                   {"frames": 120, "chunks": 3, "color_frames": 45, "id_frames": 20, "seconds": 5.0}]
        scenario = type("S", (), {"name": "demo"})()
        return pipeline.Result(scenario, folder, {"render": 15.0, "layout": 1.0}, renders=renders)

    monkeypatch.setattr(bench.pipeline, "generate", fake_generate)
    monkeypatch.setattr(bench, "bare_render_seconds", lambda *args: 12.0)
    report = bench.run_bench(Path("demo.yaml"), width=160, height=120)
    cov = report["coverage"]
    assert cov["extensions"] == 1 and cov["first_walk_frames"] == 100
    assert cov["color_frames_rendered"] == 145 and cov["color_frames_rendered_again"] == 25
    assert cov["id_frames_rendered"] == 120
    assert report["frames"] == 120 and report["target_ratio"] == bench.TARGET_RATIO
    assert report["render_ratio_to_bare_render"] == round(15.0 / 12.0, 3)
    # the stand-in pipeline takes microseconds: the wall ratio may round to 0.0 (it did on an idle machine)
    assert abs(report["ratio_to_bare_render"] - report["pipeline_s"] / 12.0) <= 1e-3
    assert "cpu_ratio_to_bare_render" in report
    out = io.StringIO()
    bench.print_report(report, out)
    text = out.getvalue()
    assert "extend 1" in text and "rendered 45 colour, 20 id frames" in text
    assert json.loads(text.strip().splitlines()[-1])["coverage"]["extensions"] == 1
