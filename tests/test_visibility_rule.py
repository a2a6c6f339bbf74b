"""visibility.json lists a frame for an object only where its region is not a sliver
(render.idcolors.ids_with_block; docs/ground-truth.md "Seen"): hand-painted id frames, no Blender."""

from __future__ import annotations

import cv2
import numpy as np

from formats.base import load_model
from formats.visibility import Visibility
from render import idcolors
from render.id_decode import visibility


def _bgr(ids: np.ndarray) -> np.ndarray:
    levels = np.array([idcolors.id_to_levels(int(i)) for i in range(int(ids.max()) + 1)])
    rgb = levels[ids] * idcolors.STEP
    return rgb[..., ::-1].astype(np.uint8)


def test_a_strip_one_or_two_pixels_wide_is_no_block_but_a_compact_patch_is():
    ids = np.zeros((120, 160), np.int32)
    ids[10:110, 0] = 5                   # 1 px x 100 px at the left edge: 100 pixels
    ids[10:60, 20:22] = 6                # 2 px x 50 px
    ids[40:50, 80:90] = 7                # a 10 x 10 patch: 100 pixels
    assert set(idcolors.ids_with_block(ids, 2)) == {0, 6, 7}
    assert set(idcolors.ids_with_block(ids, 4)) == {0, 7}
    assert set(idcolors.ids_with_block(ids, 10)) == {0, 7}
    assert set(idcolors.ids_with_block(ids, 11)) == {0}           # the patch is 10 x 10
    assert set(idcolors.ids_with_block(ids, 2, margin=21)) == {0, 7}  # the 2-px strip is 20 px in
    assert set(idcolors.ids_with_block(ids, 10, margin=40)) == {0, 7}
    assert set(idcolors.ids_with_block(ids, 10, margin=41)) == {0}  # the patch starts 40 px in
    assert idcolors.border_margin(320) == 16 and idcolors.border_margin(160) == 8
    assert idcolors.block_side(320) == 8 and idcolors.block_side(160) == 4 and idcolors.block_side(32) == 2


def test_visibility_lists_the_patch_not_the_sliver_of_the_same_size(tmp_path):
    scene = {"rooms": [{"label": "A", "floor": 0, "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}],
             "hallways": [], "stairs": [],
             "objects": [{"id": "A/book/1"}, {"id": "A/vase/1"}, {"id": "A/lamp/1"}]}
    table = idcolors.assign_ids(scene)
    book, vase, lamp = (table[("object", f"A/{c}/1")] for c in ("book", "vase", "lamp"))
    paths = []
    for k in range(3):
        ids = np.full((240, 320), table[("room", "A")], np.int32)
        ids[0:29, 313:320] = book              # 203 id px, a 7-px strip at the right edge
        ids[100:110, 100:120] = vase           # 200 id px, 10 x 20
        ids[100:125, 0:22 + k] = lamp          # 22-24 px wide at the left edge: needs 16 margin + 8
        path = tmp_path / f"i{k}.png"
        cv2.imwrite(str(path), _bgr(ids))
        paths.append(path)
    out = visibility(scene, paths, [0, 1, 2], 640, 480, (320, 240), 30, 50)
    vis = load_model({**out, "profile": "preview", "inputs_hash": "x", "trajectory_hash": "x", "video_sha256": "x"},
                     Visibility, "test")
    assert vis.id_pass.block == 8 and vis.id_pass.margin == 16
    assert vis.objects["A/vase/1"].frames == [0, 1, 2] and vis.objects["A/vase/1"].pixels == [800] * 3
    assert vis.objects["A/book/1"].frames == [] and vis.objects["A/book/1"].first_frame is None
    assert vis.objects["A/lamp/1"].frames == [2]    # once the lamp shows 24 columns, not 22 or 23
    assert vis.rooms["A"].frames == [0, 1, 2]
    # a viewer may notice the strip and the edge patch before they are listed: their first glimpse
    assert vis.objects["A/book/1"].first_glimpse == 0 and vis.objects["A/lamp/1"].first_glimpse == 0
    assert vis.objects["A/vase/1"].first_glimpse == 0


def _wire_glasses(ids: np.ndarray, value: int, x: int, y: int) -> None:
    """Paint a pair of open glasses seen from the front: two 1-px rims 12 px across, a bridge
    and temples, the wire never 2 px thick anywhere (as a pair at about 1 m in the id pass)."""
    for cx in (x + 6, x + 22):
        cv2.circle(ids, (cx, y), 6, int(value), 1)
    ids[y - 2, x + 12: x + 17] = value                          # bridge
    ids[y - 1, x - 6: x] = value                                # temples
    ids[y - 1, x + 29: x + 35] = value


def test_open_frames_count_where_their_outline_holds_the_square_other_wire_does_not():
    ids = np.zeros((120, 160), np.int32)
    _wire_glasses(ids, 5, 30, 40)
    _wire_glasses(ids, 6, 90, 40)
    ids[80:81, 20:120] = 7                                       # a 1-px line 100 px long
    assert set(idcolors.ids_with_block(ids, 4)) == {0}           # no wire holds a solid square
    # tested on its outline, the pair holds it; the same wire of another id, or a line, does not
    assert set(idcolors.ids_with_block(ids, 4, hull_ids=[5, 7])) == {0, 5}
    assert set(idcolors.ids_with_block(ids, 13, hull_ids=[5])) == {0, 5}   # the rims span rows 34-46
    assert set(idcolors.ids_with_block(ids, 14, hull_ids=[5])) == {0}
    # the margin still cuts: what lies inside it is tested, here the rims' lowest 3 or 5 rows
    assert set(idcolors.ids_with_block(ids, 4, margin=44, hull_ids=[5])) == {0}
    assert set(idcolors.ids_with_block(ids, 4, margin=42, hull_ids=[5])) == {0, 5}


def test_visibility_tests_eyeglasses_on_their_outline(tmp_path):
    scene = {"rooms": [{"label": "A", "floor": 0, "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}],
             "hallways": [], "stairs": [],
             "objects": [{"id": "A/eyeglasses/1", "category": "eyeglasses"}, {"id": "A/lamp/1", "category": "lamp"}]}
    table = idcolors.assign_ids(scene)
    glasses, lamp = table[("object", "A/eyeglasses/1")], table[("object", "A/lamp/1")]
    ids = np.full((240, 320), table[("room", "A")], np.int32)
    for x in (40, 80, 120):                                      # wire 2 px thick: about 400 id px each
        _wire_glasses(ids, glasses, x, 100)
        _wire_glasses(ids, glasses, x, 101)
        _wire_glasses(ids, lamp, x, 160)
        _wire_glasses(ids, lamp, x, 161)
    path = tmp_path / "i0.png"
    cv2.imwrite(str(path), _bgr(ids))
    out = visibility(scene, [path], [0], 640, 480, (320, 240), 30, 50)
    vis = load_model({**out, "profile": "preview", "inputs_hash": "x", "trajectory_hash": "x", "video_sha256": "x"},
                     Visibility, "test")
    assert vis.id_pass.hull_categories == ["eyeglasses", "headphone"]
    assert vis.objects["A/eyeglasses/1"].frames == [0]
    assert vis.objects["A/lamp/1"].frames == []                  # a lamp is no open frame: its wire is a sliver


def test_frames_the_id_helper_decoded_give_the_same_visibility_as_decoding_here(tmp_path):
    from render.id_decode import IdDecoder, load_decoded, save_decoded

    scene = {"rooms": [{"label": "A", "floor": 0, "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}],
             "hallways": [], "stairs": [],
             "objects": [{"id": "A/book/1"}, {"id": "A/vase/1"}, {"id": "A/eyeglasses/1", "category": "eyeglasses"}]}
    table = idcolors.assign_ids(scene)
    book, vase, glasses = (table[("object", f"A/{c}/1")] for c in ("book", "vase", "eyeglasses"))
    paths = []
    for k in range(4):
        ids = np.full((240, 320), table[("room", "A")], np.int32)
        ids[50:60 + 5 * k, 40:70] = book
        ids[100:104 + 4 * k, 200:230] = vase               # a sliver in frame 0, a block later
        _wire_glasses(ids, glasses, 120 + 10 * k, 180)
        path = tmp_path / f"i{k}.png"
        cv2.imwrite(str(path), _bgr(ids))
        paths.append(path)
    numbers = [0, 1, 2, 3, 4]
    frames = paths + [paths[3]]                            # a stop: the last pose twice
    direct = visibility(scene, frames, numbers, 640, 480, (320, 240), 30, 50)
    decoder = IdDecoder(scene, (320, 240))
    save_decoded(tmp_path / "decoded.npz", {p.name: decoder(p) for p in paths[1:3]})   # the helper did two
    handed = load_decoded(tmp_path / "decoded.npz")
    assert sorted(handed) == ["i1.png", "i2.png"]
    assert visibility(scene, frames, numbers, 640, 480, (320, 240), 30, 50, handed) == direct
    assert direct["objects"]["A/vase/1"]["frames"] == [1, 2, 3, 4]
    assert load_decoded(tmp_path / "missing.npz") == {}
