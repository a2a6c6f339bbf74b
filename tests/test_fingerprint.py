"""formats.fingerprint: which code an output's reuse key follows, found without importing it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import in_fresh_python

ROOT = Path(__file__).resolve().parents[1]


def test_fingerprinting_the_render_stage_imports_none_of_its_modules():
    """The pipeline fingerprints the render stage's code in its own process; importlib's
    find_spec imported each dotted name's parent, which for render.scene_builder meant bpy
    (a Blender in the pipeline process, and seconds of start)."""
    in_fresh_python(
        "import sys\n"
        "from formats.fingerprint import code_fingerprint, module_closure\n"
        "closure = module_closure('render.run')\n"
        "assert 'render.scene_builder' in closure and 'assets.vocabulary' in closure, closure\n"
        "code_fingerprint('render.run', 'generator.walk.plan', 'queries.engine')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('render', 'generator', 'queries', 'assets', 'bpy'))\n"
        "assert not loaded, loaded\n"
    )


def test_a_dotted_name_that_is_no_module_has_no_source():
    from formats.fingerprint import _source

    assert _source("assets.vocabulary") == ROOT / "assets" / "vocabulary.py"
    assert _source("generator.walk") == ROOT / "generator" / "walk" / "__init__.py"
    assert _source("assets.vocabulary.plural") is None      # a function imported from a module
    assert _source("numpy.linalg") is None                   # not ours
