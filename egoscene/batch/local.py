"""Run scenarios as worker processes on this machine, N at a time.

`run_worker_process` runs one scenario in a fresh `python -m egoscene.batch.worker` process and
returns its result; the Ray backend runs the same function inside each Ray task, so a scenario
runs the same way on a laptop and on a cluster node.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable

from egoscene.batch.worker import MARK
from render.lifeline import child_env

STOP_GRACE_S = 15.0  # a stopped worker first stops its Blender; it ends itself after 10 s (worker.STOP_GRACE_S)


def run_worker_process(spec: str, out: str, options: dict, on_event: Callable[[dict], None] = lambda e: None,
                       register: Callable[[subprocess.Popen | None], None] = lambda proc: None) -> dict:
    """One scenario in a fresh process; `on_event` gets its stage/progress events, `register`
    the process (and None when it is gone) so the batch can stop it. A worker that dies
    without a result is reported as crashed with the end of its output."""
    cmd = [sys.executable, "-m", "egoscene.batch.worker", spec, out, json.dumps(options)]
    env = child_env(PYTHONUNBUFFERED="1")  # it dies with this process (render.lifeline)
    tail: deque[str] = deque(maxlen=20)
    result = None
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            text=True, errors="replace", env=env)
    register(proc)
    try:
        for line in proc.stdout:
            if not line.startswith(MARK):
                tail.append(line.rstrip())
                continue
            event = json.loads(line[len(MARK):])
            if event.get("event") == "result":
                result = {k: v for k, v in event.items() if k != "event"}
            else:
                on_event(event)
        code = proc.wait()
    except BaseException:
        stop(proc)
        raise
    finally:
        proc.stdout.close()
        register(None)
    if result is not None:
        return result
    why = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
    return {"status": "crashed", "name": None, "error": f"the worker process died ({why}): " + " | ".join(tail)[-1500:],
            "timings_s": {}, "seconds": None, "output_sha256": None}


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM (the worker stops its Blender and exits), then SIGKILL after a grace period."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class LocalBackend:
    """`workers` worker processes at a time (threads only wait on them)."""

    def __init__(self, workers: int):
        self.name, self.workers = "local", workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="egoscene-batch")
        self.procs: dict[int, subprocess.Popen] = {}
        self.lock = threading.Lock()

    def submit(self, key: int, spec: str, out: str, options: dict, on_event: Callable[[dict], None]) -> Future:
        def register(proc):
            with self.lock:
                if proc is None:
                    self.procs.pop(key, None)
                else:
                    self.procs[key] = proc

        def job():
            on_event({"event": "start"})
            return run_worker_process(spec, out, options, on_event, register)

        return self.pool.submit(job)

    def stop_all(self) -> None:
        """Stop every running worker (Ctrl-C on the batch) and drop the queued ones."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        with self.lock:
            running = list(self.procs.values())
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        for proc in running:
            stop(proc)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
