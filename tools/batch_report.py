"""What a finished (or running) `egoscene batch` folder shows: how many scenarios generated, which
failed and why, and per finished scenario the walk's length per room and object, the objects left
unseen and the questions that were drawn - the numbers issue 12's item 0 and item 5 are judged by.

    python tools/batch_report.py OUT_DIR [--json REPORT.json]

Reads only batch.json and each finished folder's manifest.json and scene.json, so it runs on any
batch folder, during the run too (pending and running scenarios are counted, not read).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

TASKS = 10
PAPER_S_PER_ROOM = 36.8 / 6.7   # VAEX-Bench: 36.8 s of video for 6.7 rooms on average


def scenario_row(folder: Path) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text())
    scene = json.loads((folder / "scene.json").read_text())
    walk, queries = manifest["walk"], manifest["queries"]
    rooms = len(walk["rooms_visited"])
    objects = len(scene["objects"])
    counts = queries["counts"]
    return {
        "name": manifest["name"],
        "rooms": rooms,
        "objects": objects,
        "seconds": walk["duration_s"],
        "s_per_room": round(walk["duration_s"] / rooms, 2),
        "s_per_object": round(walk["duration_s"] / max(1, objects), 3),
        "extensions": walk["extensions"],
        "unseen": sorted(i for ids in walk["unseen"].values() for i in ids),
        "questions": sum(counts.values()),
        "tasks_short": sorted(t for t, n in counts.items() if n < queries["per_task"]) +
                       (["(missing tasks)"] if len(counts) < TASKS else []),
        "seconds_wall": None,
    }


def report(out: Path) -> dict:
    batch = json.loads((out / "batch.json").read_text())
    rows, failed = [], []
    for entry in batch["scenarios"]:
        if entry["status"] == "done":
            row = scenario_row(out / entry["name"])
            row["seconds_wall"] = entry.get("seconds")
            rows.append(row)
        elif entry["status"] == "failed":
            failed.append({"name": entry["name"], "attempts": entry.get("attempts"), "error": entry.get("error")})
    per_room = [r["s_per_room"] for r in rows]
    objects = sum(r["objects"] for r in rows)
    unseen = sum(len(r["unseen"]) for r in rows)
    return {
        "counts": batch["counts"],
        "options": batch["options"],
        "failed": failed,
        "finished": len(rows),
        "objects": objects,
        "unseen": unseen,
        "unseen_share": round(unseen / objects, 4) if objects else None,
        "with_unseen": sum(1 for r in rows if r["unseen"]),
        "extended": sum(1 for r in rows if r["extensions"]),
        "short_of_questions": [r["name"] for r in rows if r["tasks_short"]],
        "s_per_room": {"mean": round(statistics.fmean(per_room), 2), "min": min(per_room), "max": max(per_room),
                       "pooled": round(sum(r["seconds"] for r in rows) / sum(r["rooms"] for r in rows), 2),
                       "paper": round(PAPER_S_PER_ROOM, 2)} if rows else None,
        "s_per_object_pooled": round(sum(r["seconds"] for r in rows) / objects, 3) if objects else None,
        "scenarios": rows,
    }


def print_report(rep: dict) -> None:
    c = rep["counts"]
    print("status: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    for f in rep["failed"]:
        print(f"  FAILED {f['name']} after {f['attempts']} attempt(s): {f['error']}")
    if not rep["finished"]:
        return
    spr = rep["s_per_room"]
    print(f"finished {rep['finished']}: seconds of video per room mean {spr['mean']} (pooled {spr['pooled']}, "
          f"{spr['min']}-{spr['max']}; the paper's {spr['paper']}), per object {rep['s_per_object_pooled']}")
    print(f"objects {rep['objects']}, unseen {rep['unseen']} ({100 * rep['unseen_share']:.2f}%) in "
          f"{rep['with_unseen']} scenarios; walks extended for coverage: {rep['extended']}")
    if rep["short_of_questions"]:
        print(f"fewer questions than asked for: {', '.join(rep['short_of_questions'])}")
    print(f"{'scenario':16s} {'rooms':>5s} {'objects':>7s} {'video s':>7s} {'s/room':>6s} {'ext':>3s} "
          f"{'questions':>9s}  unseen")
    for r in rep["scenarios"]:
        print(f"{r['name']:16s} {r['rooms']:5d} {r['objects']:7d} {r['seconds']:7.1f} {r['s_per_room']:6.1f} "
              f"{r['extensions']:3d} {r['questions']:9d}  {', '.join(r['unseen'])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="a batch output folder (holds batch.json)")
    ap.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = ap.parse_args()
    if not (args.out / "batch.json").is_file():
        print(f"error {args.out}: no batch.json (fix: give the --out folder of an `egoscene batch` run)",
              file=sys.stderr)
        return 2
    rep = report(args.out)
    print_report(rep)
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
