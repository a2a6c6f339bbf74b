from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="session")
def scenario_paths() -> list[Path]:
    return SCENARIOS


@pytest.fixture(scope="session")
def rendered_scenario(tmp_path_factory) -> Path:
    """scenario-05 generated and rendered at 160x120 (the whole walk), once per test session:
    shared by tests/test_pipeline_render.py (which re-runs later stages in it) and
    tests/test_audit.py (which works on a copy)."""
    from egoscene import pipeline

    out = tmp_path_factory.mktemp("rendered")
    return pipeline.generate(ROOT / "scenarios" / "scenario-05.yaml", out, pipeline.Options(width=160, height=120)).folder
