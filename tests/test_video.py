"""Joining H.264 segments (render.video): packets copied as they are, in order, index in front.

The segments are made here with PyAV: 64x48, solid colours, yuv420p, 30 fps, no B-frames
(as the renderer writes them).
"""

from __future__ import annotations

import struct
from pathlib import Path

import av
import numpy as np
import pytest

from render.video import VideoJoinError, join_segments

W, H, FPS = 64, 48, 30
COLOURS = {"red": (220, 30, 30), "green": (30, 200, 40), "blue": (30, 40, 220)}
SEGMENTS = [("red", 10), ("green", 7), ("blue", 5)]


def make_segment(path: Path, colour: tuple[int, int, int], n: int, width: int = W, height: int = H) -> Path:
    with av.open(str(path), "w", format="mp4") as dst:
        st = dst.add_stream("libx264", rate=FPS)
        st.width, st.height, st.pix_fmt = width, height, "yuv420p"
        st.codec_context.options = {"bf": "0", "g": "30", "preset": "ultrafast", "crf": "18"}
        img = np.empty((height, width, 3), np.uint8)
        img[:] = colour
        for _ in range(n):
            for pkt in st.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                dst.mux(pkt)
        for pkt in st.encode():
            dst.mux(pkt)
    return path


def packets(path: Path) -> list[bytes]:
    with av.open(str(path)) as src:
        return [bytes(p) for p in src.demux(src.streams.video[0]) if p.size]


def top_level_boxes(path: Path) -> list[bytes]:
    data, pos, kinds = path.read_bytes(), 0, []
    while pos + 8 <= len(data):
        size, kind = struct.unpack_from(">I4s", data, pos)
        if size == 1:
            size = struct.unpack_from(">Q", data, pos + 8)[0]
        kinds.append(kind)
        pos += size if size else len(data)
    return kinds


@pytest.fixture()
def segments(tmp_path) -> list[Path]:
    return [make_segment(tmp_path / f"seg{k}_{name}.mp4", COLOURS[name], n) for k, (name, n) in enumerate(SEGMENTS)]


def test_join_copies_packets_in_order(tmp_path, segments):
    out = tmp_path / "video.mp4"
    info = join_segments(segments, out)

    with av.open(str(out)) as src:
        st = src.streams.video[0]
        assert st.codec_context.name == "h264"
        assert st.average_rate == FPS
        assert (st.codec_context.width, st.codec_context.height) == (W, H)
        assert st.codec_context.format.name == "yuv420p"
        frames = [f for f in src.decode(st)]
    assert len(frames) == sum(n for _, n in SEGMENTS) == 22 == info["frames"]

    # colours in segment order, and timestamps one frame apart from 0
    expected = [name for name, n in SEGMENTS for _ in range(n)]
    for frame, name in zip(frames, expected):
        mean = frame.to_ndarray(format="rgb24").reshape(-1, 3).mean(0)
        assert np.abs(mean - COLOURS[name]).max() < 12, (frame.index, name, mean)
    times = [float(f.pts * f.time_base) for f in frames]
    assert times == pytest.approx([i / FPS for i in range(22)], abs=1e-3)

    # no re-encode: the same packets, byte for byte
    inputs = [pkt for seg in segments for pkt in packets(seg)]
    joined = packets(out)
    assert len(joined) == len(inputs) == info["packets"]
    assert sum(map(len, joined)) == sum(map(len, inputs)) == info["bytes"]
    assert joined == inputs

    # +faststart: the index comes before the media data (plays while downloading)
    boxes = top_level_boxes(out)
    assert boxes.index(b"moov") < boxes.index(b"mdat")


def test_join_duration_is_the_sum(tmp_path, segments):
    out = tmp_path / "video.mp4"
    join_segments(segments, out)
    with av.open(str(out)) as src:
        st = src.streams.video[0]
        assert st.frames == 22
        assert float(st.duration * st.time_base) == pytest.approx(22 / FPS, abs=1e-3)


def test_join_single_segment(tmp_path, segments):
    out = tmp_path / "one.mp4"
    join_segments(segments[:1], out)
    assert packets(out) == packets(segments[0])


def test_missing_segment_raises_naming_it(tmp_path, segments):
    out = tmp_path / "video.mp4"
    gone = tmp_path / "seg_gone.mp4"
    with pytest.raises(VideoJoinError, match="seg_gone.mp4.*missing"):
        join_segments([segments[0], gone, segments[2]], out)
    assert not out.exists()


def test_corrupt_segment_raises_naming_it(tmp_path, segments):
    out = tmp_path / "video.mp4"
    cut = tmp_path / "seg_cut.mp4"                  # an interrupted write: no index at the end
    cut.write_bytes(segments[1].read_bytes()[: segments[1].stat().st_size // 2])
    with pytest.raises(VideoJoinError, match="seg_cut.mp4"):
        join_segments([segments[0], cut, segments[2]], out)
    assert not out.exists()

    junk = tmp_path / "seg_junk.mp4"
    junk.write_bytes(b"\x00\x00\x00\x08junk" * 100)
    with pytest.raises(VideoJoinError, match="seg_junk.mp4"):
        join_segments([junk], out)
    assert not out.exists()


def test_different_encoder_settings_raise(tmp_path, segments):
    other = make_segment(tmp_path / "seg_big.mp4", COLOURS["red"], 3, width=2 * W, height=2 * H)
    with pytest.raises(VideoJoinError, match="seg_big.mp4.*differ"):
        join_segments([segments[0], other], tmp_path / "video.mp4")


def test_no_segments_raise(tmp_path):
    with pytest.raises(VideoJoinError):
        join_segments([], tmp_path / "video.mp4")
