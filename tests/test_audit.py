"""`egoscene audit` and the records' `evidence_in_sampled_frames`.

The flags on hand-built cases and against the checker; an audit of a rendered scenario
(conftest.rendered_scenario, shared with tests/test_pipeline_render.py, audited in a copy):
one PNG per question, every record id on the page, a re-rendered id pass that reproduces
visibility.json's counts, outlines drawn around the object the id pass shows.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from formats.sampling import in_sampled_frames, sample_indices
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "queries" / "tiny_house"


def test_sampled_indices_are_lmms_evals():
    assert sample_indices(100, 8) == [0, 14, 28, 42, 56, 70, 84, 99]
    assert sample_indices(1680, 32)[:4] == [0, 54, 108, 162] and sample_indices(1680, 32)[-1] == 1679
    assert sample_indices(5, 8) == [0, 1, 2, 3, 4]        # a video shorter than the count: every frame
    from egoscene.release.frames import sample_indices as release_indices
    assert release_indices is sample_indices              # the release's 32 JPEGs are the same frames


def test_evidence_in_sampled_frames_by_hand():
    # 100 frames: 8 -> 0 14 28 42 56 70 84 99; 16 -> 0 6 13 19 26 33 39 46 52 59 66 72 79 85 92 99;
    # 32 -> every 3.19 frames (... 15 19 22 ...); 64 -> every 1.57 frames (... 14 15 17 18 20 ...)
    a = range(14, 15)              # only frame 14: in the 8 and the 64, not in the 16 or 32
    b = range(15, 19)              # 15-18: in the 32 (15) and the 64 (15, 17, 18), not in 8 or 16
    assert 14 in sample_indices(100, 64) and 14 not in sample_indices(100, 32) and 14 not in sample_indices(100, 16)
    assert in_sampled_frames(100, [a]) == {"8": True, "16": False, "32": False, "64": True}
    assert in_sampled_frames(100, [b]) == {"8": False, "16": False, "32": True, "64": True}
    assert in_sampled_frames(100, [a, b]) == {"8": False, "16": False, "32": False, "64": True}  # every item
    assert in_sampled_frames(100, [range(0, 100), range(50, 53)]) == {"8": False, "16": True, "32": True, "64": True}
    assert in_sampled_frames(100, []) == {"8": False, "16": False, "32": False, "64": False}  # no evidence


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    from queries.engine import generate_queries
    from queries.ontology import FIXTURE_ONTOLOGY

    out = tmp_path_factory.mktemp("audit-q") / "tiny"
    shutil.copytree(FIXTURE, out)
    generate_queries(out, per_task=1, ontology=FIXTURE_ONTOLOGY)
    return out


def test_engine_fills_the_flags_and_the_checker_recomputes_them(tiny):
    from queries.check import check_records
    from queries.check_facts import load_files
    from queries.ontology import FIXTURE_ONTOLOGY

    records = [json.loads(line) for line in (tiny / "queries.jsonl").read_text().splitlines()]
    total = len(json.loads((tiny / "trajectory.json").read_text())["frames"])
    vis = json.loads((tiny / "visibility.json").read_text())
    for r in records:   # the fixture's objects are seen in 30 consecutive frames (doors: the checker's part)
        if r["evidence"]["rooms"] or not all(o in vis["objects"] for o in r["evidence"]["objects"]):
            continue
        clear = [set(vis["objects"][o]["frames"]) for o in r["evidence"]["objects"]]
        assert r["evidence_in_sampled_frames"] == in_sampled_frames(total, clear), r["id"]
    assert any(not r["evidence_in_sampled_frames"]["8"] for r in records)
    assert any(r["evidence_in_sampled_frames"]["64"] for r in records)
    files = load_files(tiny)
    assert check_records(records, files, ontology=FIXTURE_ONTOLOGY) == []
    wrong = json.loads(json.dumps(records))
    flags = wrong[0]["evidence_in_sampled_frames"]
    flags["32"] = not flags["32"]
    problems = check_records(wrong, files, ontology=FIXTURE_ONTOLOGY)
    assert [(p.id, p.kind) for p in problems] == [(wrong[0]["id"], "disagreement")]
    assert "evidence_in_sampled_frames" in problems[0].message


def test_audit_refuses_a_folder_that_is_not_a_finished_scenario(tiny, tmp_path):
    from egoscene.cli import main

    assert main(["audit", str(tmp_path / "nothing")]) == 2
    half = tmp_path / "half"
    shutil.copytree(tiny, half)            # scene, walk, visibility, queries; no video, no manifest
    assert main(["audit", str(half)]) == 2
    assert not (half / "audit").exists() and not list(half.glob(".audit*"))


@pytest.fixture(scope="module")
def audited(rendered_scenario, tmp_path_factory):
    from egoscene.cli import main

    folder = tmp_path_factory.mktemp("audit") / rendered_scenario.name
    shutil.copytree(rendered_scenario, folder, ignore=shutil.ignore_patterns("audit", ".*"))
    assert main(["audit", str(folder)]) == 0
    return folder


@pytest.mark.render
class TestRenderedAudit:
    def test_one_png_per_question_and_every_id_on_the_page(self, audited):
        from PIL import Image

        records = [json.loads(line) for line in (audited / "queries.jsonl").read_text().splitlines()]
        questions = [r for r in records if r["format"] != "free_form"]
        page = (audited / "audit" / "index.html").read_text()
        assert all(f'{r["id"]}' in page for r in records)
        pngs = sorted(p.name for p in (audited / "audit").iterdir())
        assert pngs == sorted([f"q{k:03d}.png" for k in range(1, len(questions) + 1)] + ["index.html"])
        for k, r in enumerate(questions, 1):
            assert f'href="q{k:03d}.png"' in page and f'data-id="{r["id"]}"' in page
        with Image.open(audited / "audit" / "q001.png") as img:
            assert img.width > 1000 and img.height > 400
        # several of a kind in one question: numbered, with scene.json's colour (names by colour)
        from egoscene.audit.run import load
        colour = {o["id"]: o["attributes"]["color"] for o in json.loads((audited / "scene.json").read_text())["objects"]}
        several = [(it.label, it.key) for q in load(audited).questions for it in q.items if it.label[-1] == ")"]
        assert several and all(label.endswith(f" ({colour[key]})") for label, key in several)
        assert not list(audited.glob(".audit*"))            # the staging folder is gone

    def test_id_pass_and_outlines_match_visibility(self, audited, tmp_path):
        import cv2

        from egoscene.audit.draw import TILE_W, outlined_tile
        from egoscene.audit.frames import decode_frames, render_id_frames
        from egoscene.audit.run import load

        a = load(audited)
        vis = json.loads((audited / "visibility.json").read_text())
        def px(key, f):
            track = vis["objects"][key]
            return dict(zip(track["frames"], track["pixels"])).get(f, 0)

        # the best-shown object of any question, in the evidence frame where it is largest
        # (a room's door that a question names is no object of the id pass: it has no outline)
        _, frame, item = max(((px(it.key, f), f, it) for q in a.questions for it in q.items
                              if it.kind == "object" and it.key in vis["objects"]
                              for f in q.tiles if f in it.clear), key=lambda t: t[:2])
        listed = {frame: px(item.key, frame)}
        # the id pass rendered again at visibility.json's id-pass size gives its counts exactly
        scale = vis["width"] // vis["id_pass"]["width"]
        from render.api import id_frames
        paths = id_frames(audited / "scene.json", audited / "trajectory.json", tmp_path / "small", [frame], scale=scale)
        from render.idcolors import decode_bgr
        small = decode_bgr(cv2.imread(str(paths[frame])))
        table = {tuple(v): int(k) for k, v in json.loads((tmp_path / "small" / "ids.json").read_text()).items()}
        count = int((small == table[("object", item.key)]).sum())
        assert round(count * scale * scale) == listed[frame]
        # at the video's size: the outline in the item's colour runs along the object's mask
        ids = render_id_frames(audited, {frame}, tmp_path / "full")
        mask = ids.mask(frame, "object", item.key)
        assert mask.shape == (vis["height"], vis["width"]) and mask.sum() > 0
        colour = decode_frames(audited / "video.mp4", {frame})[frame]
        tile, anchors = outlined_tile(colour, frame, [item], ids)
        h = tile.shape[0]
        drawn = np.all(tile == np.array(item.colour, np.uint8), axis=2) & ~np.all(
            cv2.resize(colour, (TILE_W, h), interpolation=cv2.INTER_AREA) == np.array(item.colour, np.uint8), axis=2)
        assert drawn.sum() > 0 and [a[0].key for a in anchors] == [item.key]
        near = cv2.dilate(cv2.resize(mask.astype(np.uint8), (TILE_W, h), interpolation=cv2.INTER_NEAREST),
                          np.ones((7, 7), np.uint8))
        assert (drawn & (near == 0)).sum() <= 0.05 * drawn.sum()   # (almost) every outline pixel hugs the object
        assert (drawn & (near > 0)).sum() > 10
