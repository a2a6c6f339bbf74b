"""`egoscene batch` (issue 12 items 2-3, issue 14 item 5).

The scheduling rules (retries, refusals, interruption, batch.json) are tested with a fake
backend, fast. Real runs are small (two 2-room specs, 30 frames at 64x48): a batch through a
local Ray with 2 CPUs, and local batches killed with SIGKILL while rendering and while joining the
video, whose workers die with them, which resume to the bytes the Ray run published."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from egoscene import pipeline
from egoscene.batch.run import BatchRefused, batch_lock, run_batch, unfinished
from formats.base import read_model
from formats.batch import Batch

ROOT = Path(__file__).resolve().parents[1]
SMALL = pipeline.Options(width=64, height=48, max_frames=30, per_task=1)

TINY = """name: {name}
typology: single-story residence
seed: {seed}
rooms:
  kitchen:
    objects: {{fridge: 1, table: 1}}
  bedroom:
    objects: {{bed: 1, wardrobe: 1}}
trajectory: [kitchen, bedroom]
relations:
  adjacent:
    - [kitchen, bedroom]
"""


def tiny_specs(folder: Path, names=("tiny-a", "tiny-b")) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed, name in enumerate(names, start=3):
        path = folder / f"{name}.yaml"
        path.write_text(TINY.format(name=name, seed=seed))
        paths.append(path)
    return paths


class FakeBackend:
    """Answers each scenario from a script: spec name -> list of statuses, one per attempt."""

    name, workers = "fake", 2

    def __init__(self, script: dict[str, list[str]], interrupt_after: int | None = None):
        self.script, self.calls, self.stopped, self.closed = script, [], False, False
        self.interrupt_after = interrupt_after

    def submit(self, key, spec, out, options, on_event) -> Future:
        name = Path(spec).stem
        self.calls.append(name)
        on_event({"event": "start"})
        future: Future = Future()
        if self.interrupt_after is not None and len(self.calls) > self.interrupt_after:
            return future  # never finishes: "running" when the batch is interrupted
        status = self.script[name].pop(0)
        future.set_result({"status": status, "name": name, "error": None if status == "done" else f"{status} here",
                           "timings_s": {"render": 1.0}, "seconds": 1.0,
                           "output_sha256": "0" * 64 if status == "done" else None})
        return future

    def stop_all(self):
        self.stopped = True

    def close(self):
        self.closed = True


def test_crashes_are_retried_up_to_the_limit_and_other_failures_are_not(tmp_path):
    specs = tiny_specs(tmp_path / "specs", ("flaky", "broken", "bug", "fine"))
    out = tmp_path / "out"
    out.mkdir()
    backend = FakeBackend({"flaky": ["crashed", "crashed", "done"], "broken": ["crashed"] * 5,
                           "bug": ["failed"], "fine": ["done"]})
    batch = run_batch(specs, out, SMALL, backend, retries=2, poll_s=0.01)
    by_name = {e.name: e for e in batch.entries}
    assert (by_name["flaky"].status, by_name["flaky"].attempts) == ("done", 3)
    assert (by_name["broken"].status, by_name["broken"].attempts) == ("crashed", 3)  # 1 + 2 retries
    assert (by_name["bug"].status, by_name["bug"].attempts) == ("failed", 1)  # deterministic: not retried
    assert sorted(backend.calls) == sorted(["flaky"] * 3 + ["broken"] * 3 + ["bug", "fine"])
    assert [e.name for e in unfinished(batch)] == ["broken", "bug"]
    saved = read_model(out / "batch.json", Batch)  # the typed file agrees with the live state
    assert saved.counts == {"crashed": 1, "done": 2, "failed": 1}
    assert [(s.name, s.status, s.attempts) for s in saved.scenarios] == \
        [("flaky", "done", 3), ("broken", "crashed", 3), ("bug", "failed", 1), ("fine", "done", 1)]
    assert backend.closed and not (out / ".batch.json.lock").exists()


def test_a_refused_spec_never_reaches_a_worker_and_duplicate_names_refuse_the_batch(tmp_path):
    specs = tiny_specs(tmp_path / "specs", ("good",))
    bad = tmp_path / "specs" / "bad.yaml"
    bad.write_text("name: bad\nrooms: {}\n")
    out = tmp_path / "out"
    out.mkdir()
    backend = FakeBackend({"good": ["done"]})
    batch = run_batch([bad, *specs], out, SMALL, backend, poll_s=0.01)
    assert backend.calls == ["good"]
    refused = batch.entries[0]
    assert refused.status == "refused" and refused.name is None and "bad.yaml" in refused.error
    twin = tmp_path / "twin" / "good.yaml"
    twin.parent.mkdir()
    twin.write_text(specs[0].read_text())
    with pytest.raises(BatchRefused, match="unique name"):
        run_batch([specs[0], twin], out, SMALL, FakeBackend({}), poll_s=0.01)


def test_an_interrupted_batch_stops_its_workers_and_records_who_was_running(tmp_path):
    specs = tiny_specs(tmp_path / "specs", ("first", "second", "third"))
    out = tmp_path / "out"
    out.mkdir()
    backend = FakeBackend({"first": ["done"]}, interrupt_after=1)
    polls = []

    def on_change(batch):
        polls.append(1)
        if len(polls) >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(specs, out, SMALL, backend, on_change=on_change, poll_s=0.01)
    assert backend.stopped and backend.closed
    saved = read_model(out / "batch.json", Batch)
    assert [s.status for s in saved.scenarios] == ["done", "interrupted", "interrupted"]


def test_one_batch_per_output_folder(tmp_path):
    with batch_lock(tmp_path):
        with pytest.raises(BatchRefused, match="another `egoscene batch`"):
            with batch_lock(tmp_path):
                pass
    with batch_lock(tmp_path):  # released
        pass


# a worker whose interrupt goes nowhere, as when Python drops one raised inside a finaliser
STUBBORN = """
import sys, time
from egoscene.batch import worker
worker.STOP_GRACE_S = 1.0
def stubborn(spec, out, options, emit):
    print("ready", flush=True)
    while True:
        try:
            time.sleep(60)
        except KeyboardInterrupt:
            pass
worker.run_scenario = stubborn
sys.exit(worker.main(["spec.yaml", "out", "{}"]))
"""


def test_a_stopped_worker_ends_itself_when_its_interrupt_is_swallowed(tmp_path):
    from render.lifeline import PARENT_ENV

    env = {k: v for k, v in os.environ.items() if k != PARENT_ENV}   # run by hand: no lifeline to a batch
    proc = subprocess.Popen([sys.executable, "-c", STUBBORN], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env=dict(env, PYTHONPATH=str(ROOT)))
    try:
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 130
    finally:
        proc.kill() if proc.poll() is None else None
        proc.stdout.close()


def test_a_worker_whose_batch_is_already_gone_exits_before_doing_anything(tmp_path):
    """The batch died between starting the worker and the worker asking to die with it: the
    worker sees another parent (not necessarily pid 1: an orphan goes to the nearest subreaper)."""
    from render.lifeline import PARENT_ENV

    spec = tiny_specs(tmp_path / "specs", ("orphan",))[0]
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "egoscene.batch.worker", str(spec), str(out), "{}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, **{PARENT_ENV: "1"}))
    assert done.returncode == 1 and "egoscene-batch" not in done.stdout
    assert not out.exists()


# ------------------------------------------------------------------------------- real runs


@pytest.fixture(scope="module")
def ray_run(tmp_path_factory):
    """One small batch through a local Ray with 2 CPUs."""
    pytest.importorskip("ray")  # the `ray` extra (in `all`)
    from egoscene.batch.ray_backend import RayBackend

    root = tmp_path_factory.mktemp("ray")
    specs = tiny_specs(root / "specs", ("tiny-a",))
    out = root / "out"
    out.mkdir()
    batch = run_batch(specs, out, SMALL, RayBackend("local", workers=2, cpus_per_scenario=1), retries=0)
    return batch, out


def test_a_small_batch_runs_as_ray_tasks(ray_run):
    batch, out = ray_run
    saved = read_model(out / "batch.json", Batch)
    assert saved.backend == "ray local" and saved.counts == {"done": 1}, saved.scenarios
    assert (out / "tiny-a" / "video.mp4").is_file() and saved.scenarios[0].output_sha256


def _descendants(pid: int) -> list[int]:
    """Every process below pid (from /proc), for checking that nothing is left running."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _survivors(pids: list[int]) -> list[str]:
    """The command lines of the processes in `pids` still alive (for the failure message)."""
    lines = []
    for pid in pids:
        if _alive(pid):
            try:
                lines.append(f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200])
            except OSError:
                pass
    return lines


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _batch(specs, out, *extra) -> list[str]:
    return [sys.executable, "-m", "egoscene.cli", "batch", *map(str, specs), "--out", str(out), "--workers", "2",
            "--width", "64", "--height", "48", "--max-frames", "30", "--per-task", "1", *extra]


def test_a_batch_killed_while_rendering_leaves_nothing_running_and_resumes_to_the_same_bytes(tmp_path, ray_run):
    specs = tiny_specs(tmp_path / "specs")
    bad = tmp_path / "specs" / "bad.yaml"
    bad.write_text("name: bad\n")
    out = tmp_path / "out"
    proc = subprocess.Popen(_batch(specs + [bad], out), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while not list((out / ".cache").glob("*/.frames/*/i_*.png")):  # an id frame: rendering has begun
            assert proc.poll() is None and time.monotonic() < deadline, "the batch ended before rendering"
            time.sleep(0.2)
        below = _descendants(proc.pid)
        assert below  # workers (and Blender below them)
        proc.send_signal(signal.SIGKILL)  # the batch process only: its workers must notice by themselves
        proc.wait()
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in below) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in below), f"outlived the killed batch: {_survivors(below)}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert not (out / "tiny-a").exists() and not (out / "tiny-b").exists()  # nothing half-written looks finished
    saved = read_model(out / "batch.json", Batch)
    assert {s.name: s.status for s in saved.scenarios if s.name} == {"tiny-a": "running", "tiny-b": "running"}

    done = subprocess.run(_batch(specs + [bad], out), cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 2, done.stderr  # finished apart from the refused spec, which is named
    assert "bad.yaml" in done.stderr and "refused" in done.stderr
    saved = read_model(out / "batch.json", Batch)
    states = {s.name: s for s in saved.scenarios if s.name}
    assert {n: s.status for n, s in states.items()} == {"tiny-a": "done", "tiny-b": "done"}
    reference = read_model(ray_run[1] / "batch.json", Batch).scenarios[0]
    assert states["tiny-a"].output_sha256 == reference.output_sha256  # the bytes of the uninterrupted run
    assert not (out / ".cache").exists() and not list(out.glob(".*partial*")) and not list(out.glob(".*.lock"))

    again = subprocess.run(_batch(specs, out), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert read_model(out / "batch.json", Batch).counts == {"reused": 2}


def test_a_batch_killed_while_joining_the_video_resumes_without_rendering_again(tmp_path, ray_run):
    """SIGKILL of the batch while its worker's renderer joins the video segments: every frame is
    rendered and video.mp4 half written (tests/kill_hooks.py stalls the join there, so the kill
    lands in it every time). The re-run renders no chunk again (the hook's log: 0 chunks left),
    only joins, and publishes the bytes of the uninterrupted Ray run."""
    from tests.kill_hooks import RENDER_TODO, STALLED_JOIN, hooked_env

    specs = tiny_specs(tmp_path / "specs", ("tiny-a",))
    out = tmp_path / "out"
    killed = tmp_path / "killed-hook"
    proc = subprocess.Popen(_batch(specs, out), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=hooked_env(killed, STALLED_JOIN))
    try:
        deadline = time.monotonic() + 600
        while not (killed / "joining").exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the batch ended before joining"
            time.sleep(0.2)
        below = _descendants(proc.pid)
        proc.send_signal(signal.SIGKILL)  # the batch process only, as in the test above
        proc.wait()
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in below) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in below), f"outlived the killed batch: {_survivors(below)}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    cache = out / ".cache" / "tiny-a"
    assert len(list(cache.glob(".video.*.tmp.mp4"))) == 1 and not (cache / "video.mp4").exists()  # half joined
    assert not (out / "tiny-a").exists()
    assert read_model(out / "batch.json", Batch).scenarios[0].status == "running"

    resumed = tmp_path / "resume-hook"
    done = subprocess.run(_batch(specs, out), cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env=hooked_env(resumed, RENDER_TODO))
    assert done.returncode == 0, done.stderr
    logged = (resumed / "todo").read_text().split("\n")[:-1]
    assert logged and all(line.startswith("0 ") for line in logged), logged  # no chunk rendered again
    state = read_model(out / "batch.json", Batch).scenarios[0]
    reference = read_model(ray_run[1] / "batch.json", Batch).scenarios[0]
    assert (state.name, state.status) == ("tiny-a", "done")
    assert state.output_sha256 == reference.output_sha256  # the bytes of the uninterrupted run
    assert sorted(p.name for p in out.iterdir()) == ["batch.json", "tiny-a"]  # no cache, staging or lock left


def test_batch_throughput_is_video_and_questions_per_machine_hour(tmp_path):
    from egoscene.bench_batch import throughput
    from formats.base import write_model
    from formats.manifest import Manifest

    folders = []
    for name, seconds, records in (("a", 36.0, 60), ("b", 54.0, 40)):  # 1.5 minutes of video, 100 questions
        folder = tmp_path / name
        folder.mkdir()
        manifest = Manifest.model_validate({
            "format": Manifest.FORMAT, "name": name, "spec": f"{name}.yaml", "spec_hash": "0", "inputs_hash": "0",
            "code": {}, "seed": 1, "stages": ["layout"], "versions": {}, "files": {}, "timings_s": {},
            "options": {"until": "queries", "profile": "preview", "width": 64, "height": 48, "per_task": 1,
                        "max_frames": None},
            "walk": {"frames": int(seconds * 30), "fps": 30, "duration_s": seconds, "metres_walked": 1,
                     "metres_climbed": 0, "degrees_turned": 0, "rooms_visited": [], "floors_visited": [0],
                     "stairs_trips": 0, "looks": 0, "extensions": 0, "extra_looks": {}},
            "queries": {"per_task": 1, "records": records, "counts": {}, "rejections": {}, "reasons": {},
                        "shortfall": {}, "letters": {}}})
        write_model(folder / "manifest.json", manifest)
        folders.append(folder)
    report = throughput(folders, wall_s=900.0, cores=2)  # a quarter hour of 2 cores: half a CPU-hour
    assert report["video_minutes"] == 1.5 and report["questions"] == 100
    assert report["video_minutes_per_cpu_hour"] == 3.0 and report["questions_per_cpu_hour"] == 200.0


def test_the_batch_verb_refuses_bad_specs_without_starting_a_worker_or_writing_out(tmp_path):
    """A batch that refuses every spec (or two specs of one name) writes nothing: no OUT, no
    batch.json (it made OUT and a batch.json of refusals); a refused spec among good ones is
    recorded in batch.json (test_a_refused_spec_never_reaches_a_worker...)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\n")
    worse = tmp_path / "worse.yaml"
    worse.write_text("name: Worse!\n")
    good = tiny_specs(tmp_path / "specs", ("good",))[0]
    twin = tmp_path / "twin" / "good.yaml"
    twin.parent.mkdir()
    twin.write_text(good.read_text())
    out = tmp_path / "out"
    for specs, said in (([bad, worse], ("bad.yaml: ", "worse.yaml: name: ")), ([good, twin], ("unique name",))):
        done = subprocess.run([sys.executable, "-m", "egoscene.cli", "batch", *map(str, specs), "--out", str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and all(s in done.stderr for s in said), done.stderr
        assert "Traceback" not in done.stderr and not out.exists(), done.stderr
