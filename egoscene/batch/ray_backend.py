"""Run scenarios as Ray tasks (the `ray` extra): one task per scenario, declaring the CPUs it
needs, so Ray's own scheduler spreads them over the cluster; no scheduling of our own.

Each task runs egoscene.batch.local.run_worker_process on the node that gets it: the scenario
runs in a fresh worker process there (Blender below it), exactly as in a local batch. OUT must
be a path every node sees (a shared file system); each node needs egoscene installed with the
`all` and `ray` extras, the same version as the driver.

`--ray local` starts a Ray instance on this machine with `workers x cpus_per_scenario` CPUs;
`--ray auto` joins the cluster this machine belongs to (`ray start --head` / `--address`);
anything else is a cluster address (`ray://head:10001` or `head:6379`).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Callable


class RayMissing(RuntimeError):
    """`--ray` without the `ray` extra installed."""


def _task(spec: str, out: str, options: dict) -> dict:
    from egoscene.batch.local import run_worker_process

    return run_worker_process(spec, out, options)


class RayBackend:
    def __init__(self, address: str, workers: int, cpus_per_scenario: float):
        try:
            import ray
        except ImportError:
            raise RayMissing("--ray needs Ray (fix: pip install 'egoscene[ray]')") from None
        self.ray = ray
        if address == "local":
            ray.init(num_cpus=max(1, round(workers * cpus_per_scenario)), include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        self.name, self.workers = f"ray {address}", workers
        # max_retries=0: a crashed scenario is retried by the batch (which counts attempts), not by Ray
        self.remote = ray.remote(num_cpus=cpus_per_scenario, max_retries=0)(_task)
        self.refs = []

    def submit(self, key: int, spec: str, out: str, options: dict, on_event: Callable[[dict], None]) -> Future:
        on_event({"event": "start"})  # queued with Ray: it runs when the cluster has the CPUs
        ref = self.remote.remote(spec, out, options)
        self.refs.append(ref)
        return ref.future()

    def stop_all(self) -> None:
        for ref in self.refs:
            try:
                self.ray.cancel(ref, force=True)  # force: kills the task's process; its worker dies with it
            except Exception:  # already finished
                pass

    def close(self) -> None:
        self.ray.shutdown()
