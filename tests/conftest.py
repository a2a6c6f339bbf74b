from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@lru_cache(maxsize=None)
def bundled_layout(path: Path):
    """(scenario, scene) of a bundled spec's layout stage, computed once per test session (the
    large house takes about 18 s; layout, placement, walk and physical tests all start from it).
    Callers copy before changing it."""
    from egoscene.pipeline import run_layout
    from generator.spec.scenario import load_scenario

    scenario = load_scenario(path)
    return scenario, run_layout(scenario)[0]


@pytest.fixture(scope="session")
def scenario_paths() -> list[Path]:
    return SCENARIOS


@pytest.fixture(scope="session")
def _rendered_once(tmp_path_factory) -> tuple[Path, Path]:
    """scenario-05 generated and rendered at 160x120 (the whole walk), once per test session,
    and a copy of it taken at once, which no test changes."""
    import shutil

    from egoscene import pipeline

    out = tmp_path_factory.mktemp("rendered")
    folder = pipeline.generate(ROOT / "scenarios" / "scenario-05.yaml", out, pipeline.Options(width=160, height=120)).folder
    pristine = tmp_path_factory.mktemp("rendered-as-published") / folder.name
    shutil.copytree(folder, pristine)
    return folder, pristine


@pytest.fixture(scope="session")
def rendered_scenario(_rendered_once) -> Path:
    """The rendered scenario-05 (see _rendered_once): tests/test_pipeline_render.py re-runs later
    stages in it; tests/test_audit.py works on a copy."""
    return _rendered_once[0]


@pytest.fixture(scope="session")
def rendered_as_published(_rendered_once) -> Path:
    """The rendered scenario-05 as the pipeline published it; callers copy it before changing
    anything (tests/test_release.py builds a release from it)."""
    return _rendered_once[1]


def in_fresh_python(code: str) -> None:
    """Run `code` in a new interpreter at the repository root (nothing this test session has
    imported is loaded there); its assertions fail the calling test with their message."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
