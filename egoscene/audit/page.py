"""index.html of an audit: every question with its answer, evidence and PNG, and a tally.

Self-contained apart from the relative links to q<NNN>.png; a little inline script counts the
questions marked agree / dispute and lists the disputed ids (nothing leaves the page).
"""

from __future__ import annotations

import json
from collections import Counter
from html import escape

STYLE = """
body{font-family:system-ui,sans-serif;margin:20px auto;max-width:1700px;background:#fafaf7;color:#191919}
h1{margin-bottom:4px} .muted{color:#666} table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:left} section{border-top:2px solid #ddd;padding:10px 0 18px}
.opt{margin:2px 0} .answer{background:#d2f5d7;font-weight:bold} .no{color:#c82828;font-weight:bold}
.yes{color:#14963c;font-weight:bold} img{max-width:100%;border:1px solid #ccc}
.verdict label{margin-right:14px} #tally{position:sticky;top:0;background:#fffbe6;padding:6px 10px;border:1px solid #e6d98c;z-index:1}
details pre{white-space:pre-wrap;font-size:12px;background:#f0f0ec;padding:6px}
"""

SCRIPT = """
function tally(){
  const all=document.querySelectorAll('section.q'); let agree=0, dispute=[];
  all.forEach(s=>{const v=s.querySelector('input:checked'); if(!v) return;
    if(v.value==='agree') agree++; else dispute.push(s.dataset.id);});
  document.getElementById('count').textContent=
    `${agree} agreed, ${dispute.length} disputed, ${all.length-agree-dispute.length} not yet checked of ${all.length}`;
  document.getElementById('disputed').value=dispute.join('\\n');
}
document.addEventListener('change', tally); document.addEventListener('DOMContentLoaded', tally);
"""


def _flags(flags: dict) -> str:
    return " ".join(f'<span class="{"yes" if flags[n] else "no"}">{n}: {"yes" if flags[n] else "no"}</span>'
                    for n in sorted(flags, key=int))


def _frame_link(f: int, fps: float) -> str:
    return f'<a href="../video.mp4#t={f / fps if fps else 0:.2f}">{f}</a>'


def _question(q, fps: float) -> str:
    r = q.record
    out = [f'<section class="q" id="q{q.number:03d}" data-id="{escape(r["id"])}">',
           f'<h2>Q{q.number} <code>{escape(r["id"])}</code> <span class="muted">{escape(r["task"])} · '
           f'{escape(r["regime"])} · {escape(r["format"])}</span></h2>',
           f'<p>{escape(r["question"])}</p>']
    if r["format"] == "mcq":
        for k, option in enumerate(r["options"]):
            letter = "ABCDE"[k]
            mark = ' class="opt answer"' if letter == r["answer"] else ' class="opt"'
            tick = " ✔ answer" if letter == r["answer"] else ""
            out.append(f"<div{mark}>{letter}. {escape(option)}{tick}</div>")
    else:
        out.append(f'<div class="opt answer">answer: {escape(str(r["answer_text"]))}</div>')
    if q.twin is not None:
        out.append(f'<p class="muted">free-form twin <code>{escape(q.twin["id"])}</code>: {escape(q.twin["question"])}</p>')
    items = ", ".join(f'<span style="border-bottom:3px solid rgb{it.colour}">{escape(it.label)}</span> '
                      f'<code class="muted">{escape(it.key)}</code>' + ("" if it.clear else ' <span class="no">not seen</span>')
                      for it in q.items)
    frames = ", ".join(_frame_link(f, fps) for f in r["evidence"]["frames"])
    out.append(f"<p>Evidence: {items}<br>evidence frames (links play the video from there): {frames}"
               f"<br>all evidence in N uniformly sampled frames: {_flags(r['evidence_in_sampled_frames'])}</p>")
    out.append(f'<details><summary>derivation</summary><pre>{escape(json.dumps(r["derivation"], indent=1, sort_keys=True))}'
               "</pre></details>")
    name = f"v{q.number:03d}"
    out.append(f'<p class="verdict"><label><input type="radio" name="{name}" value="agree"> agree</label>'
               f'<label><input type="radio" name="{name}" value="dispute"> dispute</label></p>')
    out.append(f'<a href="{q.png}"><img src="{q.png}" loading="lazy" alt="{escape(r["id"])}"></a></section>')
    return "\n".join(out)


def html(a) -> str:
    tasks = Counter(q.record["task"] for q in a.questions)
    counts = {n: sum(bool(q.record["evidence_in_sampled_frames"][n]) for q in a.questions)
              for n in sorted(a.questions[0].record["evidence_in_sampled_frames"], key=int)} if a.questions else {}
    rows = "".join(f"<tr><td>{escape(t)}</td><td>{n}</td></tr>" for t, n in sorted(tasks.items()))
    sampled = "".join(f"<tr><td>{n} frames</td><td>{k} of {len(a.questions)}</td></tr>" for n, k in counts.items())
    index = " ".join(f'<a href="#q{q.number:03d}">Q{q.number}</a>' for q in a.questions)
    records = sum(1 + (q.twin is not None) for q in a.questions)
    body = "\n".join(_question(q, a.fps) for q in a.questions)
    plan = (f'<details><summary>floor plan (floorplan.png)</summary><a href="../floorplan.png">'
            f'<img src="../floorplan.png" alt="floor plan" style="max-width:900px"></a></details>'
            if (a.folder / "floorplan.png").is_file() else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>egoscene audit: {escape(a.name)}</title>
<style>{STYLE}</style></head><body>
<h1>Audit: {escape(a.name)}</h1>
<p class="muted">{len(a.questions)} questions ({records} records in queries.jsonl with the free-form twins),
{a.total} frames at {a.fps:g} fps, {a.size[0]}x{a.size[1]}. Each picture shows the question, its options
with the answer marked, its evidence frames with every evidence object and room outlined from the
instance-ID pass, and the {len(a.strip)} frames a model is given (sampled as lmms-eval does), those showing
evidence framed in green. Mark each answer agree or dispute; definitions: docs/ground-truth.md.</p>
<div id="tally"><b>Checked:</b> <span id="count"></span>
<details><summary>disputed ids</summary><textarea id="disputed" rows="4" cols="60" readonly></textarea></details></div>
<table><tr><th>task</th><th>questions</th></tr>{rows}</table>
<table><tr><th>all evidence in</th><th>questions</th></tr>{sampled}</table>
{plan}
<p>{index}</p>
{body}
<script>{SCRIPT}</script>
</body></html>
"""
