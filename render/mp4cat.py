"""Join H.264 MP4 segments into one MP4 without re-encoding (pure Python, no bpy).

The renderer writes the video in segments (one per chunk of frames, so an interrupted render
resumes at the last finished segment). Segments come from the same encoder settings, so
their sample descriptions (SPS/PPS) are identical and each begins with an IDR frame; the
samples are copied as they are into a new file with the index (`moov`) in front, which
browsers can start playing before the whole file is downloaded.

Only single-track video files without composition offsets (no B-frames) are accepted;
`SegmentError` says why a set of segments cannot be joined (the caller then re-encodes).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"dinf"}


class SegmentError(ValueError):
    pass


def _boxes(data: bytes, start: int = 0, end: int | None = None):
    """(type, payload_start, box_end) of the boxes in data[start:end]."""
    end = len(data) if end is None else end
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack_from(">I4s", data, pos)
        header = 8
        if size == 1:
            size = struct.unpack_from(">Q", data, pos + 8)[0]
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise SegmentError(f"corrupt box {kind!r} at {pos}")
        yield kind, pos + header, pos + size
        pos += size


def _find(data: bytes, path: list[bytes], start: int = 0, end: int | None = None):
    for kind, a, b in _boxes(data, start, end):
        if kind == path[0]:
            if len(path) == 1:
                return a, b
            found = _find(data, path[1:], a, b)
            if found:
                return found
    return None


def _full_box(kind: bytes, payload: bytes, version: int = 0, flags: int = 0) -> bytes:
    return _box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


@dataclass
class Track:
    path: Path
    timescale: int
    width: int
    height: int
    stsd: bytes              # the whole stsd box
    durations: list[int]     # per sample
    sync: set[int] | None    # 0-based sync samples; None = every sample
    offsets: list[int]       # file offset per sample
    sizes: list[int]


def read_track(path: Path) -> Track:
    data = Path(path).read_bytes()
    moov = _find(data, [b"moov"])
    if moov is None:
        raise SegmentError(f"{path}: no moov box (unfinished file?)")
    traks = [(a, b) for kind, a, b in _boxes(data, *moov) if kind == b"trak"]
    if len(traks) != 1:
        raise SegmentError(f"{path}: {len(traks)} tracks, expected one video track")
    ta, tb = traks[0]
    hdlr = _find(data, [b"mdia", b"hdlr"], ta, tb)
    if hdlr is None or data[hdlr[0] + 8:hdlr[0] + 12] != b"vide":
        raise SegmentError(f"{path}: not a video track")
    mdhd = _find(data, [b"mdia", b"mdhd"], ta, tb)
    version = data[mdhd[0]]
    timescale = struct.unpack_from(">I", data, mdhd[0] + (20 if version == 1 else 12))[0]
    tkhd = _find(data, [b"tkhd"], ta, tb)
    width, height = (v >> 16 for v in struct.unpack_from(">II", data, tkhd[1] - 8))
    elst = _find(data, [b"edts", b"elst"], ta, tb)
    if elst is not None:
        ev = data[elst[0]]
        count = struct.unpack_from(">I", data, elst[0] + 4)[0]
        for i in range(count):
            if ev == 1:
                media_time = struct.unpack_from(">q", data, elst[0] + 8 + i * 20 + 8)[0]
            else:
                media_time = struct.unpack_from(">i", data, elst[0] + 8 + i * 12 + 4)[0]
            if media_time not in (0, -1):
                raise SegmentError(f"{path}: edit list shifts the media (B-frames?)")
    stbl = _find(data, [b"mdia", b"minf", b"stbl"], ta, tb)
    tables = {kind: (a, b) for kind, a, b in _boxes(data, *stbl)}
    if b"ctts" in tables:
        raise SegmentError(f"{path}: composition offsets (B-frames) are not supported")
    sa, sb = tables[b"stsd"]
    stsd = _without_btrt(data[sa - 8:sb])
    a, _ = tables[b"stts"]
    durations: list[int] = []
    for i in range(struct.unpack_from(">I", data, a + 4)[0]):
        count, delta = struct.unpack_from(">II", data, a + 8 + 8 * i)
        durations += [delta] * count
    a, _ = tables[b"stsz"]
    fixed, count = struct.unpack_from(">II", data, a + 4)
    sizes = [fixed] * count if fixed else list(struct.unpack_from(f">{count}I", data, a + 12))
    sync = None
    if b"stss" in tables:
        a, _ = tables[b"stss"]
        n = struct.unpack_from(">I", data, a + 4)[0]
        sync = {s - 1 for s in struct.unpack_from(f">{n}I", data, a + 8)}
    if b"stco" in tables:
        a, _ = tables[b"stco"]
        n = struct.unpack_from(">I", data, a + 4)[0]
        chunk_offsets = list(struct.unpack_from(f">{n}I", data, a + 8))
    else:
        a, _ = tables[b"co64"]
        n = struct.unpack_from(">I", data, a + 4)[0]
        chunk_offsets = list(struct.unpack_from(f">{n}Q", data, a + 8))
    a, _ = tables[b"stsc"]
    entries = [struct.unpack_from(">III", data, a + 8 + 12 * i) for i in range(struct.unpack_from(">I", data, a + 4)[0])]
    offsets: list[int] = []
    sample = 0
    for ci, base in enumerate(chunk_offsets):
        chunk = ci + 1
        per = next(spc for k, (first, spc, _) in enumerate(entries)
                   if first <= chunk and (k + 1 == len(entries) or entries[k + 1][0] > chunk))
        pos = base
        for _ in range(per):
            if sample >= len(sizes):
                break
            offsets.append(pos)
            pos += sizes[sample]
            sample += 1
    if len(offsets) != len(sizes) or len(durations) != len(sizes):
        raise SegmentError(f"{path}: inconsistent sample tables")
    if offsets and max(o + s for o, s in zip(offsets, sizes)) > len(data):
        raise SegmentError(f"{path}: samples beyond the end of the file")
    if sync is not None and 0 not in sync:
        raise SegmentError(f"{path}: does not start with a key frame")
    return Track(Path(path), timescale, width, height, stsd, durations, sync, offsets, sizes)


def _without_btrt(stsd: bytes) -> bytes:
    """The stsd box without the (optional, per-file) bitrate box of its visual sample
    entries, so that segments of one encoder compare equal."""
    entries = []
    for kind, a, b in _boxes(stsd, 16):
        entry = stsd[a - 8:b]
        fixed = 8 + 78                                   # VisualSampleEntry fields
        if len(entry) > fixed:
            kids = b"".join(entry[ka - 8:kb] for kk, ka, kb in _boxes(entry, fixed) if kk != b"btrt")
            entry = struct.pack(">I4s", fixed + len(kids), kind) + entry[8:fixed] + kids
        entries.append(entry)
    payload = stsd[8:16] + b"".join(entries)
    return struct.pack(">I4s", 8 + len(payload), b"stsd") + payload


def _matrix() -> bytes:
    return struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def concat(segments: list[Path], out: Path) -> int:
    """Write the segments' frames, in order, as one MP4 at `out` (atomically). Returns the
    number of frames."""
    tracks = [read_track(p) for p in segments]
    if not tracks:
        raise SegmentError("no segments")
    first = tracks[0]
    for t in tracks[1:]:
        if t.stsd != first.stsd or t.timescale != first.timescale:
            raise SegmentError(f"{t.path}: encoder settings differ from {first.path}")
    durations = [d for t in tracks for d in t.durations]
    sizes = [s for t in tracks for s in t.sizes]
    sync: list[int] = []
    base = 0
    all_sync = True
    for t in tracks:
        if t.sync is None:
            sync += [base + i for i in range(len(t.sizes))]
        else:
            all_sync = False
            sync += sorted(base + i for i in t.sync)
        base += len(t.sizes)
    n = len(sizes)
    media_duration = sum(durations)
    movie_timescale = 1000
    movie_duration = media_duration * movie_timescale // first.timescale

    stts_entries: list[tuple[int, int]] = []
    for d in durations:
        if stts_entries and stts_entries[-1][1] == d:
            stts_entries[-1] = (stts_entries[-1][0] + 1, d)
        else:
            stts_entries.append((1, d))
    stts = _full_box(b"stts", struct.pack(">I", len(stts_entries)) + b"".join(struct.pack(">II", c, d) for c, d in stts_entries))
    stss = b"" if all_sync else _full_box(b"stss", struct.pack(">I", len(sync)) + struct.pack(f">{len(sync)}I", *(s + 1 for s in sync)))
    stsc = _full_box(b"stsc", struct.pack(">IIII", 1, 1, 1, 1))          # one sample per chunk
    stsz = _full_box(b"stsz", struct.pack(">II", 0, n) + struct.pack(f">{n}I", *sizes))

    def moov_with(offsets: list[int]) -> bytes:
        co64 = _full_box(b"co64", struct.pack(">I", n) + struct.pack(f">{n}Q", *offsets))
        stbl = _box(b"stbl", first.stsd + stts + stss + stsc + stsz + co64)
        vmhd = _full_box(b"vmhd", struct.pack(">HHHH", 0, 0, 0, 0), flags=1)
        dinf = _box(b"dinf", _full_box(b"dref", struct.pack(">I", 1) + _full_box(b"url ", b"", flags=1)))
        minf = _box(b"minf", vmhd + dinf + stbl)
        mdhd = _full_box(b"mdhd", struct.pack(">IIIIHH", 0, 0, first.timescale, media_duration, 0x55C4, 0))
        hdlr = _full_box(b"hdlr", struct.pack(">I4s12x", 0, b"vide") + b"VideoHandler\x00")
        mdia = _box(b"mdia", mdhd + hdlr + minf)
        tkhd = _full_box(b"tkhd", struct.pack(">IIII", 0, 0, 1, 0) + struct.pack(">I", movie_duration) + bytes(8)
                         + struct.pack(">hhhH", 0, 0, 0, 0) + _matrix()
                         + struct.pack(">II", first.width << 16, first.height << 16), flags=3)
        trak = _box(b"trak", tkhd + mdia)
        mvhd = _full_box(b"mvhd", struct.pack(">IIII", 0, 0, movie_timescale, movie_duration)
                         + struct.pack(">IH10x", 0x10000, 0x100) + _matrix() + bytes(24) + struct.pack(">I", 2))
        return _box(b"moov", mvhd + trak)

    ftyp = _box(b"ftyp", b"isom" + struct.pack(">I", 0x200) + b"isomiso2avc1mp41")
    moov_size = len(moov_with([0] * n))
    mdat_size = sum(sizes)
    mdat_header = struct.pack(">I4sQ", 1, b"mdat", 16 + mdat_size)   # 64-bit size: any length
    data_start = len(ftyp) + moov_size + len(mdat_header)
    offsets, pos = [], data_start
    for s in sizes:
        offsets.append(pos)
        pos += s
    moov = moov_with(offsets)
    assert len(moov) == moov_size
    out = Path(out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(ftyp + moov + mdat_header)
        for t in tracks:
            with open(t.path, "rb") as src:
                for off, size in zip(t.offsets, t.sizes):
                    src.seek(off)
                    chunk = src.read(size)
                    if len(chunk) != size:
                        raise SegmentError(f"{t.path}: truncated sample")
                    fh.write(chunk)
    os.replace(tmp, out)
    return n
