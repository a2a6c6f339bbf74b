"""Join H.264 MP4 segments into one MP4 without re-encoding (PyAV; no bpy).

The renderer writes the video in segments (one per chunk of frames, so an interrupted render
resumes at the last finished segment), all from the same encoder settings. Their packets are
copied as they are into one MP4, each segment's timestamps moved to start where the previous
one ended, with the index (`moov`) in front (`+faststart`) so browsers start playing before
the whole file is downloaded.

Segments that cannot be joined this way (missing, unreadable, not one H.264 video stream,
different encoder settings, not starting with a key frame) raise `VideoJoinError`, naming
the segment and the reason; nothing is re-encoded behind the caller's back.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av


class VideoJoinError(RuntimeError):
    pass


def _settings(stream) -> tuple:
    """What must agree between segments for their packets to share one sample description."""
    cc = stream.codec_context
    return (cc.name, cc.width, cc.height, cc.format.name if cc.format else None, bytes(cc.extradata or b""))


def join_segments(segments: list[Path], out: Path) -> dict:
    """Write `out` (MP4) from the H.264 `segments`, in order, without re-encoding.

    Returns {"frames", "packets", "bytes", "fps"} of what was written. A failure removes the
    partial output and raises VideoJoinError naming the segments."""
    segments = [Path(s) for s in segments]
    out = Path(out)
    names = ", ".join(s.name for s in segments)
    if not segments:
        raise VideoJoinError(f"no video segments to join into {out}")
    try:
        return _join(segments, out)
    except VideoJoinError as exc:
        out.unlink(missing_ok=True)
        raise VideoJoinError(f"cannot join video segments [{names}] into {out}: {exc}") from None
    except (av.FFmpegError, OSError, ValueError) as exc:
        out.unlink(missing_ok=True)
        raise VideoJoinError(f"cannot join video segments [{names}] into {out}: {exc}") from exc


def _join(segments: list[Path], out: Path) -> dict:
    for seg in segments:
        if not seg.is_file():
            raise VideoJoinError(f"{seg}: missing")
    first_settings = None
    offset = Fraction(0)            # seconds: where the next segment starts
    last_dts: Fraction | None = None
    frames = packets = size = 0
    rate = None
    with av.open(str(out), "w", format="mp4", options={"movflags": "+faststart"}) as dst:
        ost = None
        for seg in segments:
            with av.open(str(seg)) as src:
                if len(src.streams) != 1 or len(src.streams.video) != 1:
                    raise VideoJoinError(f"{seg}: {len(src.streams)} streams, expected one video stream")
                ist = src.streams.video[0]
                settings = _settings(ist)
                if settings[0] != "h264":
                    raise VideoJoinError(f"{seg}: codec {settings[0]}, expected h264")
                if first_settings is None:
                    first_settings, rate = settings, ist.average_rate or ist.guessed_rate
                    ost = dst.add_stream_from_template(ist)
                elif settings != first_settings:
                    raise VideoJoinError(f"{seg}: encoder settings differ from {segments[0].name} "
                                         f"({settings[:4]} vs {first_settings[:4]})")
                tb = ist.time_base
                frame_dur = Fraction(1) / Fraction(rate) if rate else Fraction(0)
                pkts = [p for p in src.demux(ist) if p.size > 0]
                if not pkts:
                    raise VideoJoinError(f"{seg}: no video packets")
                if not pkts[0].is_keyframe:
                    raise VideoJoinError(f"{seg}: does not start with a key frame")
                if any(p.pts is None or p.dts is None for p in pkts):
                    raise VideoJoinError(f"{seg}: packets without timestamps")
                start = min(p.pts for p in pkts)
                shift = round(offset / tb) - start          # in the segment's time base
                end = offset
                for p in pkts:
                    dts = (p.dts + shift) * tb
                    if last_dts is not None and dts <= last_dts:
                        raise VideoJoinError(f"{seg}: decoding timestamps overlap the previous segment "
                                             f"(B-frames?)")
                    last_dts = dts
                    dur = p.duration * tb if p.duration else frame_dur
                    end = max(end, (p.pts + shift) * tb + dur)
                    p.pts += shift
                    p.dts += shift
                    p.time_base = tb
                    p.stream = ost
                    size += p.size
                    packets += 1
                    dst.mux(p)
                frames += len(pkts)
                offset = end
    return {"frames": frames, "packets": packets, "bytes": size, "fps": float(rate) if rate else None}
