"""`egoscene batch`: many scenarios in parallel worker processes on this machine or as Ray tasks.

- worker.py: one scenario in one fresh process (`python -m egoscene.batch.worker`), reporting
  stages, frames and a result as JSON lines; Blender runs in its own process below it.
- state.py: batch.json (formats.batch), written atomically whenever a scenario changes state.
- local.py / ray_backend.py: run worker processes N at a time, or one Ray task each.
- run.py: the batch itself - skip finished scenarios, retry crashes, one progress display.
"""
