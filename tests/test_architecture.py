"""Package layering, read from the source (ast), so a wrong import fails here and not in a
user's install.

Layers, bottom to top: formats <- assets <- generator <- render <- queries <- egoscene.
A module may import its own package and the ones below it, never one above (imports inside
functions count too); module-level imports form no cycle; only render/ imports Blender
(bpy, mathutils, bmesh); no module is much over 500 lines; and reading, checking and scoring
(formats, queries.check, queries.grid_score, queries.engine, the CLI's help) import none of
the [render] extra's packages.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("formats", "assets", "generator", "render", "queries", "egoscene")
BLENDER = {"bpy", "mathutils", "bmesh"}
MAX_LINES = 550
HEAVY = ("bpy", "mathutils", "bmesh", "ortools", "trimesh", "cv2", "matplotlib", "scipy", "av")


@dataclass(frozen=True)
class Import:
    module: str          # importing module, dotted
    target: str          # imported name, dotted and absolute (a module when it is one)
    line: int
    module_level: bool   # executed when the module is imported (not in a function, not TYPE_CHECKING)


def module_files() -> dict[str, Path]:
    found = {}
    for pkg in LAYERS:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = module_files()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
           (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, module_level: bool):
    """(import node, executed at import time) for every import below node."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, module_level
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _walk(child, False)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for sub in child.body:
                yield from _walk(ast.Module(body=[sub], type_ignores=[]), False)
            for sub in child.orelse:
                yield from _walk(ast.Module(body=[sub], type_ignores=[]), module_level)
        else:
            yield from _walk(child, module_level)


def _resolve(base: str) -> str:
    """The project module `base` names, or the nearest package above it that is one."""
    parts = base.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts) if parts else base


def imports_of(name: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node, level in _walk(tree, True):
        if isinstance(node, ast.Import):
            found += [Import(name, a.name, node.lineno, level) for a in node.names]
            continue
        if node.level:
            package = name.split(".") if is_package else name.split(".")[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for a in node.names:
            sub = f"{base}.{a.name}"
            found.append(Import(name, sub if sub in MODULES else base, node.lineno, level))
    return found


ALL_IMPORTS = [imp for name, path in MODULES.items() for imp in imports_of(name, path)]


def _where(imp: Import) -> str:
    return f"{MODULES[imp.module].relative_to(ROOT)}:{imp.line} ({imp.module}) imports {imp.target}"


def test_the_scan_sees_the_project():
    assert len(MODULES) > 50 and {m.split(".")[0] for m in MODULES} == set(LAYERS)
    assert any(i.module == "render.run" and i.target == "formats.files" for i in ALL_IMPORTS)
    assert any(not i.module_level and i.target == "bpy" for i in ALL_IMPORTS)     # imports inside functions


def test_no_import_of_a_higher_layer():
    order = " <- ".join(LAYERS)
    bad = []
    for imp in ALL_IMPORTS:
        own, other = imp.module.split(".")[0], imp.target.split(".")[0]
        if other in LAYERS and LAYERS.index(other) > LAYERS.index(own):
            allowed = ", ".join(LAYERS[:LAYERS.index(own) + 1])
            bad.append(f"{_where(imp)}: {own} may import only {allowed} (layers {order})")
    assert not bad, "imports of a higher layer:\n" + "\n".join(bad)


def test_no_module_level_import_cycles():
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    for imp in ALL_IMPORTS:
        if not imp.module_level or imp.target.split(".")[0] not in LAYERS:
            continue
        target = _resolve(imp.target)
        parts = target.split(".")
        for k in range(1, len(parts) + 1):     # importing a.b.c runs a/__init__ and a/b/__init__ too
            dep = ".".join(parts[:k])
            if dep in MODULES and dep != imp.module:
                graph.add_edge(imp.module, dep)
    cycles = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            cycles.append(" -> ".join([a for a, _ in cycle] + [cycle[0][0]]) +
                          f"   (modules in this tangle: {', '.join(sorted(component))})")
    assert not cycles, "module-level import cycles:\n" + "\n".join(cycles)


def test_only_render_imports_blender():
    bad = [f"{_where(imp)}: only render/ may import Blender ({', '.join(sorted(BLENDER))})"
           for imp in ALL_IMPORTS
           if imp.target.split(".")[0] in BLENDER and imp.module.split(".")[0] != "render"]
    assert not bad, "\n".join(bad)


def test_modules_stay_small():
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    big = [f"{MODULES[n].relative_to(ROOT)}: {lines} lines (at most {MAX_LINES}: split it)"
           for n, lines in sorted(sizes.items(), key=lambda kv: -kv[1]) if lines > MAX_LINES]
    assert not big, "modules over the size limit:\n" + "\n".join(big)


BLOCKER = f"""
import importlib.abc, sys
HEAVY = {HEAVY!r}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HEAVY:
            raise ImportError(f"{{name}} is not in the base install (blocked by the test)")
        return None
sys.meta_path.insert(0, Blocker())
"""


def _base_install(code: str, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER + code, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_base_install_reads_checks_and_scores_without_the_render_extra():
    readers = sorted(m for m in MODULES if m.split(".")[0] == "formats")
    wanted = readers + ["queries.check", "queries.grid_score", "queries.engine", "egoscene.cli"]
    code = ("import importlib, sys, traceback\n"
            "failed = 0\n"
            "for name in sys.argv[1:]:\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ImportError as exc:\n"
            "        failed += 1\n"
            "        chain = [f'{f.filename}:{f.lineno}: {f.line}' for f in traceback.extract_tb(exc.__traceback__)\n"
            "                 if not f.filename.startswith('<')]\n"
            "        print(f'{name}: {exc}\\n  ' + '\\n  '.join(chain))\n"
            "sys.exit(1 if failed else 0)\n")
    done = _base_install(code, *wanted)
    assert done.returncode == 0, "these need the [render] extra:\n" + done.stdout[-6000:] + done.stderr[-3000:]


def test_base_install_cli_help():
    for args in (["--help"], ["check", "--help"], ["grid-score", "--help"]):
        code = f"import runpy, sys\nsys.argv = ['egoscene', *{args!r}]\nrunpy.run_module('egoscene.cli', run_name='__main__')\n"
        done = _base_install(code)
        assert done.returncode == 0, f"egoscene {' '.join(args)}:\n{done.stderr[-3000:]}"
        assert "Usage" in done.stdout or "usage" in done.stdout, done.stdout
