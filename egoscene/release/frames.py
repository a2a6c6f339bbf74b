"""The 32 uniformly sampled frames per video that the paper feeds to models, as JPEGs.

Indices are lmms-eval's (`np.linspace(0, total - 1, 32, dtype=int)`, formats.sampling), so a
model given these files sees the frames lmms-eval's vsibench sampler would pick.
"""

from __future__ import annotations

from pathlib import Path

from formats.sampling import FRAMES, sample_indices

__all__ = ["FRAMES", "JPEG_QUALITY", "sample_indices", "write_frames"]
JPEG_QUALITY = 90


def write_frames(video: Path, folder: Path, count: int = FRAMES) -> list[str]:
    """Decode `video`, write the sampled frames as `folder/frame_<index>.jpg`; returns the names."""
    import av
    from PIL import Image

    with av.open(str(video)) as container:  # count by demuxing (cheap), then decode keeping only the picks
        total = sum(1 for packet in container.demux(video=0) if packet.size)
    wanted = sample_indices(total, count)
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    with av.open(str(video)) as container:
        for index, frame in enumerate(container.decode(video=0)):
            if index in wanted:
                name = f"frame_{index:05d}.jpg"
                Image.fromarray(frame.to_ndarray(format="rgb24")).save(folder / name, format="JPEG", quality=JPEG_QUALITY)
                names.append(name)
    if len(names) != len(wanted):
        raise ValueError(f"{video}: decoded {len(names)} of the {len(wanted)} sampled frames (fix: re-render the video)")
    return names
