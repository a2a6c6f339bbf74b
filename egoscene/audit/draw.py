"""One PNG per question: text beside the outlined evidence frames, the 32-frame strip below."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from egoscene.audit.frames import IdFrames, contours

TEXT_W = 540          # the text column
TILE_W = 320          # an evidence frame
THUMB_W = 92          # a frame of the strip
STRIP_ROW = 16        # strip frames per row
MIN_ZOOM = 1.6       # a close-up is added when the evidence objects fit a crop this much smaller
SLIVER = 3            # an object at most this many tile pixels across in one direction gets a ring
PAD = 14
BG = (250, 250, 247)
INK = (25, 25, 25)
MUTED = (110, 110, 110)
GOOD = (20, 150, 60)
BAD = (200, 40, 40)
ANSWER_BG = (210, 245, 215)


@lru_cache(maxsize=None)
def font(size: int, bold: bool = False):
    """DejaVu Sans (shipped with matplotlib) when present, Pillow's own font otherwise."""
    from PIL import ImageFont

    try:
        import matplotlib

        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name), size)
    except (ImportError, OSError):
        return ImageFont.load_default(size=size)


def wrap(text: str, fnt, width: int) -> list[str]:
    lines: list[str] = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and fnt.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def thumbnails(colour: dict[int, np.ndarray], strip: list[int]) -> dict[int, np.ndarray]:
    import cv2

    out = {}
    for f in strip:
        img = colour[f]
        h = round(img.shape[0] * THUMB_W / img.shape[1])
        out[f] = cv2.resize(img, (THUMB_W, h), interpolation=cv2.INTER_AREA)
    return out


def outlined_tile(img: np.ndarray, frame: int, items, ids: IdFrames,
                  crop: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, list]:
    """The frame (or its `crop` x0, y0, x1, y1) at tile size with every item present outlined in
    its colour; returns the tile and the label anchors [(item, (x, y), leader)] (labels are
    drawn with the text font later)."""
    import cv2

    x0, y0, x1, y1 = crop or (0, 0, img.shape[1], img.shape[0])
    img = img[y0:y1, x0:x1]
    h = round(img.shape[0] * TILE_W / img.shape[1])
    interpolation = cv2.INTER_AREA if img.shape[1] >= TILE_W else cv2.INTER_CUBIC
    tile = np.ascontiguousarray(cv2.resize(img, (TILE_W, h), interpolation=interpolation))
    anchors = []
    for it in sorted(items, key=lambda it: it.kind != "room"):   # rooms first, objects on top
        mask = ids.mask(frame, it.kind, it.key)
        if mask is None:
            continue
        mask = mask[y0:y1, x0:x1]
        if not mask.any():
            continue
        found = contours(mask, (TILE_W, h))
        if not found:
            continue
        thick = 1 if it.kind == "room" else 2
        cv2.drawContours(tile, found, -1, (0, 0, 0), thick + 2, lineType=cv2.LINE_AA)
        cv2.drawContours(tile, found, -1, it.colour, thick, lineType=cv2.LINE_AA)
        bx, by, bw, bh = cv2.boundingRect(np.concatenate(found))
        if it.kind == "object" and min(bw, bh) <= SLIVER:   # a sliver or a speck: ring it so it is found
            centre, radius = (bx + bw // 2, by + bh // 2), max(bw, bh) // 2 + 8
            cv2.circle(tile, centre, radius, (0, 0, 0), 4, lineType=cv2.LINE_AA)
            cv2.circle(tile, centre, radius, it.colour, 2, lineType=cv2.LINE_AA)
        if it.kind == "room":   # a room: its label where its visible surface is widest
            small = cv2.resize(mask.astype(np.uint8), (TILE_W, h), interpolation=cv2.INTER_NEAREST)
            dist = cv2.distanceTransform(cv2.copyMakeBorder(small, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                                         cv2.DIST_L2, 3)[1:-1, 1:-1]
            y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
            anchors.append((it, (int(x), int(y)), False))
        else:                   # an object: its label above its top, a leader line down to it
            biggest = found[0].reshape(-1, 2)
            top = biggest[np.argmin(biggest[:, 1])]
            anchors.append((it, (int(top[0]), int(top[1])), True))
    return tile, anchors


def close_up(q, ids: IdFrames, size: tuple[int, int]) -> tuple[int, tuple[int, int, int, int]] | None:
    """(frame, crop) of a close-up of the evidence objects: the evidence frame showing most of
    them, cropped around them with a margin (tile aspect, at least 1/5 of the frame wide); None
    when that crop is not MIN_ZOOM times smaller than the frame (they are checked as they are)."""
    width, height = size
    best = None
    for f in q.tiles:
        masks = [m for it in q.items if it.kind == "object" and (m := ids.mask(f, it.kind, it.key)) is not None
                 and m.any()]
        if masks:
            union = np.logical_or.reduce(masks)
            key = (len(masks), int(union.sum()))
            if best is None or key > best[0]:
                best = (key, f, union)
    if best is None:
        return None
    _, f, union = best
    ys, xs = np.nonzero(union)
    bw, bh = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    margin = 0.35 * max(bw, bh) + 6
    cw = min(width, max(bw + 2 * margin, (bh + 2 * margin) * width / height, width / 5))
    if cw * MIN_ZOOM > width:
        return None
    ch = cw * height / width
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    x0 = int(round(min(max(cx - cw / 2, 0), width - cw)))
    y0 = int(round(min(max(cy - ch / 2, 0), height - ch)))
    return f, (x0, y0, min(width, x0 + int(round(cw))), min(height, y0 + int(round(ch))))


def _label(draw, xy, text: str, colour, bounds: tuple[int, int, int, int], leader: bool,
           placed: list | None = None) -> None:
    """A label box above the point `xy` (kept inside `bounds`, moved up or down off the labels
    already `placed` in the tile); with `leader`, a line from the box to the point so a label
    pushed aside still names the right thing."""
    fnt = font(12, bold=True)
    w, h = int(fnt.getlength(text)) + 6, 15
    x0, y0, x1, y1 = bounds
    px, py = xy
    x = min(max(px - w // 2, x0), x1 - w)
    y_first = min(max(py - h - 10 if leader else py - h // 2, y0), y1 - h)
    placed = placed if placed is not None else []
    y = y_first
    for step in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5):
        trial = min(max(y_first + step * (h + 2), y0), y1 - h)
        if not any(x < bx1 and bx0 < x + w and trial < by1 and by0 < trial + h for bx0, by0, bx1, by1 in placed):
            y = trial
            break
    placed.append((x, y, x + w, y + h))
    if leader:
        bx = min(max(px, x + 2), x + w - 2)
        by = y + h if py >= y + h else y
        draw.line((bx, by, px, py), fill=(20, 20, 20), width=3)
        draw.line((bx, by, px, py), fill=colour, width=1)
        draw.ellipse((px - 3, py - 3, px + 3, py + 3), fill=colour, outline=(20, 20, 20))
    draw.rectangle((x, y, x + w, y + h), fill=(20, 20, 20), outline=colour)
    draw.text((x + 3, y + 1), text, font=fnt, fill=colour)


def _text_block(draw, a, q, x: int, y: int) -> int:
    """The question's text column; returns the y below it."""
    r = q.record
    draw.text((x, y), f"Q{q.number}  {r['id']}", font=font(16, bold=True), fill=INK)
    y += 22
    draw.text((x, y), f"{r['task'].replace('_', ' ')}  ·  {r['regime']}  ·  {r['format']}", font=font(13), fill=MUTED)
    y += 24
    for line in wrap(r["question"], font(15), TEXT_W):
        draw.text((x, y), line, font=font(15), fill=INK)
        y += 19
    y += 8
    if r["format"] == "mcq":
        for k, option in enumerate(r["options"]):
            letter = "ABCDE"[k]
            right = letter == r["answer"]
            lines = wrap(f"{letter}. {option}", font(15, bold=right), TEXT_W - 40)
            if right:
                draw.rectangle((x - 4, y - 2, x + TEXT_W, y + 19 * len(lines) + 1), fill=ANSWER_BG)
            for line in lines:
                draw.text((x + 22, y), line, font=font(15, bold=right), fill=INK)
                y += 19
            if right:
                draw.text((x, y - 19 * len(lines)), "✔", font=font(15, bold=True), fill=GOOD)
            y += 3
    else:
        draw.rectangle((x - 4, y - 2, x + TEXT_W, y + 20), fill=ANSWER_BG)
        draw.text((x, y), f"✔ answer: {r['answer_text']}", font=font(15, bold=True), fill=INK)
        y += 22
    if q.twin is not None and q.twin["question"] != r["question"]:
        y += 6
        for line in wrap("free-form twin: " + q.twin["question"], font(12), TEXT_W):
            draw.text((x, y), line, font=font(12), fill=MUTED)
            y += 15
    y += 12
    draw.text((x, y), "Evidence (outlined in the frames)", font=font(13, bold=True), fill=INK)
    y += 19
    for it in q.items:
        first = min(it.clear) if it.clear else None
        shown = sum(1 for f in q.strip if f in it.clear)
        draw.rectangle((x, y + 2, x + 14, y + 14), fill=it.colour, outline=INK)
        note = f"seen from frame {first}" if first is not None else "NOT SEEN"
        text = f"{it.label}  [{it.key}]  {note}; in {shown} of {len(q.strip)} sampled frames"
        for line in wrap(text, font(12), TEXT_W - 22):
            draw.text((x + 20, y), line, font=font(12), fill=INK if first is not None else BAD)
            y += 15
        y += 2
    y += 10
    flags = r["evidence_in_sampled_frames"]
    draw.text((x, y), "All evidence in N sampled frames:", font=font(13, bold=True), fill=INK)
    y += 19
    cx = x
    for n in sorted(flags, key=int):
        ok = flags[n]
        text = f"{n}: {'yes' if ok else 'no'}"
        draw.text((cx, y), text, font=font(13, bold=True), fill=GOOD if ok else BAD)
        cx += int(font(13, bold=True).getlength(text)) + 18
    return y + 22


def question_png(a, q, colour: dict[int, np.ndarray], ids: IdFrames, thumbs: dict[int, np.ndarray]):
    from PIL import Image, ImageDraw

    tiles = []
    for f in q.tiles:
        present = [it for it in q.items if (m := ids.mask(f, it.kind, it.key)) is not None and m.any()]
        tiles.append((f, *outlined_tile(colour[f], f, present, ids), None))
    for f, it in q.best:
        tiles.append((f, *outlined_tile(colour[f], f, [it], ids), f"frame {f}: the {it.label} at its largest"))
    zoom = close_up(q, ids, a.size)
    if zoom is not None:
        f, crop = zoom
        objects = [it for it in q.items if it.kind == "object"]
        tile, anchors = outlined_tile(colour[f], f, objects, ids, crop)
        tiles.append((f, tile, anchors, f"close-up of frame {f} (x{a.size[0] / (crop[2] - crop[0]):.1f})"))
    tile_h = tiles[0][1].shape[0] if tiles else 0
    cols = min(3, max(1, len(tiles)))
    rows = -(-len(tiles) // cols)
    cap = 30
    grid_w = cols * (TILE_W + PAD)
    grid_h = rows * (tile_h + cap + PAD)
    thumb_h = next(iter(thumbs.values())).shape[0] if thumbs else 0
    strip_rows = -(-len(q.strip) // STRIP_ROW)
    strip_h = 30 + strip_rows * (thumb_h + 34)
    width = PAD + TEXT_W + 2 * PAD + max(grid_w, TILE_W + PAD)
    width = max(width, PAD * 2 + STRIP_ROW * (THUMB_W + 6))
    # the text column's height is known only once drawn: draw it on a tall scratch canvas first
    scratch = Image.new("RGB", (PAD + TEXT_W + PAD, 4000), BG)
    text_h = _text_block(ImageDraw.Draw(scratch), a, q, PAD, PAD)
    top_h = max(text_h, PAD + grid_h)
    img = Image.new("RGB", (width, top_h + PAD + strip_h + PAD), BG)
    img.paste(scratch.crop((0, 0, PAD + TEXT_W + PAD, top_h)), (0, 0))
    draw = ImageDraw.Draw(img)
    gx0 = PAD + TEXT_W + 2 * PAD
    in_strip = set(q.strip)
    for k, (f, tile, anchors, caption) in enumerate(tiles):
        x = gx0 + (k % cols) * (TILE_W + PAD)
        y = PAD + (k // cols) * (tile_h + cap + PAD)
        img.paste(Image.fromarray(tile[:tile_h]), (x, y))
        placed: list = []
        for it, (ax, ay), leader in sorted(anchors, key=lambda t: (not t[2], t[1][1])):   # objects first
            _label(draw, (x + ax, y + ay), it.label, it.colour, (x, y, x + TILE_W, y + tile_h), leader, placed)
        seconds = f / a.fps if a.fps else 0.0
        extra = "  · sampled" if f in in_strip else ""
        firsts = [it.label for it in q.items if it.clear and min(it.clear) == f]
        extra += f"  · first seen: {', '.join(firsts)}" if firsts and not caption else ""
        lines = wrap(caption or f"frame {f}  ({seconds:.1f} s){extra}", font(11), TILE_W)
        if len(lines) > 2:
            lines = [lines[0], lines[1][:-1] + "…"]
        for j, line in enumerate(lines):
            draw.text((x, y + tile_h + 2 + 13 * j), line, font=font(11), fill=INK if caption else MUTED)
    _strip(img, draw, q, thumbs, PAD, top_h + PAD, thumb_h)
    return img


def _strip(img, draw, q, thumbs, x0: int, y0: int, thumb_h: int) -> None:
    from PIL import Image

    carrying = [f for f in q.strip if q.carriers(f)]
    draw.line((x0, y0 - 6, img.width - PAD, y0 - 6), fill=(200, 200, 200), width=1)
    draw.text((x0, y0), f"The {len(q.strip)} frames a model is given (uniform, as lmms-eval samples them): "
                        f"{len(carrying)} show evidence (green frame; dots: which), grey ones show none",
              font=font(13, bold=True), fill=INK)
    y0 += 24
    for k, f in enumerate(q.strip):
        x = x0 + (k % STRIP_ROW) * (THUMB_W + 6)
        y = y0 + (k // STRIP_ROW) * (thumb_h + 34)
        carriers = q.carriers(f)
        thumb = thumbs[f]
        if not carriers:
            thumb = (thumb.astype(np.float32) * 0.45 + 140).astype(np.uint8)
        img.paste(Image.fromarray(np.ascontiguousarray(thumb)), (x, y + 14))
        draw.text((x, y), str(f), font=font(11, bold=bool(carriers)), fill=GOOD if carriers else MUTED)
        if carriers:
            draw.rectangle((x - 2, y + 12, x + THUMB_W + 1, y + 15 + thumb_h), outline=GOOD, width=3)
            for j, it in enumerate(carriers[:9]):
                cx = x + 2 + j * 10
                draw.rectangle((cx, y + 17 + thumb_h, cx + 7, y + 24 + thumb_h), fill=it.colour, outline=INK)
