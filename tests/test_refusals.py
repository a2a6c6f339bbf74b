"""Refusals before work and safe output folders (issue 14): `--out` checks, duplicate names in
one run, unique staging folders and a lock per scenario output, the layout time budget, and
the CLI's messages (exit 2, one line per problem, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from egoscene.cli import main
from formats import files
from generator.spec.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "scenarios" / "scenario-05.yaml"
HANG = 600  # generous: fails only on a hang


def test_out_that_is_a_file_is_refused_before_any_work(tmp_path, capsys):
    target = tmp_path / "afile"
    target.write_text("keep me")
    for out in (target, target / "sub"):
        assert main(["generate", str(SPEC), "--out", str(out), "--until", "layout"]) == 2
    err = capsys.readouterr().err
    assert "is not a folder" in err and "fix:" in err and "Traceback" not in err
    assert "layout" not in err.replace("--until layout", "")  # refused before the first stage
    assert target.read_text() == "keep me"


def test_out_that_is_a_file_is_refused_before_the_stages_are_even_imported(tmp_path):
    """Issue 14 item 7: `--out FILE` was refused only after seconds of importing the pipeline
    (solver, plotting); generate and batch now check it first, in a fresh process here."""
    target = tmp_path / "afile"
    target.write_text("keep me")
    code = ("import sys\nfrom egoscene.cli import main\ncode = main(sys.argv[1:])\n"
            "print(code, 'egoscene.pipeline' in sys.modules, 'ortools' in sys.modules)\n")
    for verb in ("generate", "batch"):
        done = subprocess.run([sys.executable, "-c", code, verb, str(SPEC), "--out", str(target)], cwd=ROOT,
                              capture_output=True, text=True, timeout=HANG)
        assert done.stdout.split() == ["2", "False", "False"], (verb, done.stdout, done.stderr)
        assert "is not a folder" in done.stderr and "fix:" in done.stderr and "Traceback" not in done.stderr
    assert target.read_text() == "keep me"


def test_check_and_grid_score_help_show_their_arguments(capsys):
    """Issue 14 item 7: their --help showed only a catch-all `rest`."""
    for args, shown in ((["check", "--help"], ("OUTDIR", "a finished scenario folder", "--min-pixels")),
                        (["grid-score", "--help"], ("GRID_JSON", "PREDICTION", "--floor"))):
        assert main(args) == 0
        text = capsys.readouterr().out
        assert "rest" not in text.split() and all(s.lower() in text.lower() for s in shown), (args, text)


def test_out_in_a_folder_that_cannot_be_written_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    # (as root a chmod'ed folder stays writable, so the refusal of the system is simulated)
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkdtemp", refuse)
    assert main(["generate", str(SPEC), "--out", str(tmp_path / "out"), "--until", "layout"]) == 2
    err = capsys.readouterr().err
    assert "cannot write in" in err and "Permission denied" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_schema_out_into_a_bad_path_is_refused(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path / "missing" / "s.json")]) == 2
    err = capsys.readouterr().err
    assert "cannot write it" in err and "Traceback" not in err
    assert main(["schema", "--out", str(tmp_path / "s.json")]) == 0
    assert (tmp_path / "s.json").read_text().startswith("{")


def test_an_unexpected_error_is_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.delenv("EGOSCENE_TRACEBACK", raising=False)
    assert main(["formats", "--out", str(blocker / "sub")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("internal error") and "Traceback" not in err and len(err.splitlines()) == 1


def test_catalog_list_prints_categories_with_aliases_and_the_hint_points_at_it(capsys):
    assert main(["catalog", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 64 and any(line.startswith("tv  (also: ") and "television" in line for line in lines)
    text = SPEC.read_text().replace("objects: {", "objects: {zzqqx: 1, ", 1)
    with pytest.raises(Exception) as info:
        parse_scenario(text, "x.yaml")
    assert "egoscene catalog --list" in str(info.value)


def test_validate_reports_every_file_of_a_folder(tmp_path, capsys):
    (tmp_path / "a-good.yaml").write_text(SPEC.read_text())
    (tmp_path / "b-bytes.yaml").write_bytes(b"name: x\n\xff\n")
    (tmp_path / "c-bomb.yaml").write_text("a: &a [x, x]\nb: [*a, *a]\n")
    (tmp_path / "d-deep.yaml").write_text("name: " + "[" * 3000 + "]" * 3000 + "\n")
    (tmp_path / "e-area.yaml").write_text(SPEC.read_text().replace("objects:", "area: .inf\n    objects:", 1))
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "ok " in err and "a-good.yaml" in err
    for name in ("b-bytes", "c-bomb", "d-deep", "e-area"):
        assert f"{name}.yaml: " in err, name
    assert "Traceback" not in err and len(err) < 5_000


def test_duplicate_names_in_one_generate_are_refused_before_any_work(tmp_path, capsys):
    twin = tmp_path / "twin.yaml"
    twin.write_text(SPEC.read_text())
    out = tmp_path / "out"
    assert main(["generate", str(SPEC), str(twin), "--out", str(out), "--until", "layout"]) == 2
    assert "unique name" in capsys.readouterr().err
    assert not out.exists()


def test_staging_folders_are_unique_and_leftovers_of_dead_runs_go(tmp_path):
    final = tmp_path / "scene-x"
    dead = tmp_path / ".scene-x.partial-999999999-1"  # no such pid
    old_style = tmp_path / ".scene-x.partial"
    for stale in (dead, old_style):
        stale.mkdir()
    with files.staged_folder(final) as first:
        with files.staged_folder(tmp_path / "scene-y") as other:
            assert first != other
        (first / "a.txt").write_text("a")
        assert not dead.exists() and not old_style.exists()
        assert first.name.startswith(f".scene-x.partial-{os.getpid()}-")
    assert (final / "a.txt").read_text() == "a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scene-x", "scene-y"]


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a\x00b", "x" * 200])
def test_unsafe_folder_names_are_refused(tmp_path, name):
    with pytest.raises(files.OutputError):
        files.check_name(name)
    files.check_name("küche-2")  # safe Unicode stays allowed


def test_output_lock_makes_a_second_writer_wait_and_leaves_no_lock_file(tmp_path):
    final = tmp_path / "s"
    order: list[str] = []
    waiting = threading.Event()

    def second():
        with files.output_lock(final, on_wait=waiting.set):
            order.append("second")

    with files.output_lock(final):
        worker = threading.Thread(target=second)
        worker.start()
        assert waiting.wait(HANG), "the second writer did not see the lock"
        order.append("first")
    worker.join(HANG)
    assert order == ["first", "second"]
    assert list(tmp_path.iterdir()) == []


def test_two_concurrent_runs_into_one_out_both_succeed(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "egoscene.cli", "generate", str(SPEC), "--out", str(out), "--until", "layout"]
    runs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [run.communicate(timeout=HANG) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    assert all("Traceback" not in err for _, err in results)
    assert sorted(p.name for p in out.iterdir()) == ["scenario-05"]  # no staging folder, no lock left
    assert (out / "scenario-05" / "manifest.json").is_file()


CONTRADICTION = """
name: hub
typology: single-story residence
rooms:
  closet: {type: storage, area: 2}
  a: {}
  b: {}
  c: {}
  d: {}
  e: {}
  f: {}
trajectory: [closet, a, b, c, d, e, f]
relations:
  adjacent: [[closet, [a, b, c, d, e, f]]]
"""


def test_layout_budget_turns_a_long_search_into_a_refusal_with_a_reason(tmp_path, capsys):
    from generator.layout.plan import LayoutError, layout

    scenario = parse_scenario(CONTRADICTION, "hub.yaml")
    with pytest.raises(LayoutError) as info:
        layout(scenario, time_budget=1.0)
    # within 1 s the search names a clashing set, or says that the budget ran out
    assert info.value.conflict or "layout budget of 1 CPU s" in str(info.value)
    spec = tmp_path / "hub.yaml"
    spec.write_text(CONTRADICTION)
    out = tmp_path / "out"
    assert main(["generate", str(spec), "--out", str(out), "--until", "layout", "--layout-budget", "1"]) == 2
    err = capsys.readouterr().err
    assert "hub.yaml" in err and "fix:" in err and "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_the_cli_states_one_default_layout_budget():
    from egoscene import cli, pipeline

    assert cli.LAYOUT_BUDGET_S == pipeline.LAYOUT_BUDGET_S == 90.0
    assert pipeline.Options().layout_budget is None  # the API: only the deterministic work budget


def test_conflict_search_stops_at_the_budget_naming_what_did_not_hold():
    from generator.layout import model
    from generator.layout.plan import explain_failure

    class Deadline:  # lets two solves run (two checks each), then the clock has run out
        seconds, calls = 5.0, 0

        def remaining(self):
            self.calls += 1
            if self.calls > 4:
                raise model.OutOfTime()
            return None

        def expired(self):
            return False

    error = explain_failure(parse_scenario(CONTRADICTION, "hub.yaml"), 1.0, Deadline())
    assert "layout budget of 5 CPU s" in str(error) and "stopped after 1 of 6" in str(error) and "fix:" in str(error)
    assert len(error.conflict) >= 5 and all("closet" in item for item in error.conflict)


def test_a_search_cut_by_its_work_cap_says_not_found_not_impossible():
    """The relation-free solve that runs out of its deterministic work without a verdict found no
    plan; it did not prove there is none (the message said "no floor plan fits ... even without
    relations")."""
    from generator.layout.plan import explain_failure
    from generator.spec.scenario import load_scenario

    error = str(explain_failure(load_scenario(ROOT / "scenarios" / "scenario-02.yaml"), 1e-5))
    assert "no floor plan found within the search budget even without relations" in error
    assert "fits" not in error and "fix:" in error


def test_refusals_keep_the_brackets_of_their_messages(tmp_path, capsys):
    """Rich read '[a-z0-9_-]' and '[bold]' in messages as markup and dropped them: the name
    pattern printed as '^+$' and a trajectory entry '[bold]kitchn' as 'kitchn'."""  # noqa: D301
    text = SPEC.read_text()
    bad_name = tmp_path / "bad-name.yaml"
    bad_name.write_text(text.replace("name: scenario-05", "name: '[bad]name'", 1))
    bad_room = tmp_path / "bad-room.yaml"
    bad_room.write_text(text.replace("trajectory: [main office,", 'trajectory: ["[bold]kitchn", main office,', 1))
    for path, shown in ((bad_name, "'[bad]name' holds '[]'"), (bad_room, "'[bold]kitchn'")):
        for verb in ("validate", "generate", "batch"):
            args = [] if verb == "validate" else ["--out", str(tmp_path / "out"), "--until", "layout"]
            assert main([verb, str(path), *args]) == 2
            err = capsys.readouterr().err
            assert shown in err and "Traceback" not in err, (verb, err)
    bracketed = tmp_path / "[x]"  # a path of brackets in generate's refusal too
    bracketed.mkdir()
    (bracketed / "twin.yaml").write_text(text)
    assert main(["generate", str(SPEC), str(bracketed / "twin.yaml"), "--out", str(tmp_path / "out"), "--until", "layout"]) == 2
    assert f"{bracketed}/twin.yaml" in capsys.readouterr().err


CLIQUE = """
name: clique
typology: single-story residence
rooms: {a: {}, b: {}, c: {}, d: {}, e: {}, f: {}}
trajectory: [a, b, c, d, e, f]
relations:
  adjacent: [[a, [b, c, d, e, f]], [b, [c, d, e, f]], [c, [d, e, f]], [d, [e, f]], [e, f]]
"""


def test_validate_refuses_adjacencies_no_floor_plan_can_have(tmp_path, capsys):
    """Issue 14: `validate` accepted six rooms all adjacent to each other, which `generate` then
    refused ('the adjacency graph is not planar'); now both refuse with the layout's message."""
    import dataclasses

    from generator.layout.plan import LayoutError, layout
    from generator.spec.scenario import Relations, pair_key

    spec = tmp_path / "clique.yaml"
    spec.write_text(CLIQUE)
    assert main(["validate", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error {spec}: relations.adjacent: these rooms cannot all share walls on one floor (the "
                          "adjacency graph is not planar): adjacent ") and err.rstrip().endswith(
                          "(fix: drop one of these adjacencies)") and len(err.splitlines()) == 1, err
    out = tmp_path / "out"
    assert main(["generate", str(spec), "--out", str(out), "--until", "layout"]) == 2
    assert err.splitlines()[0] in capsys.readouterr().err.splitlines()
    assert not out.exists() or list(out.iterdir()) == []
    # the layout's own check (for a Scenario built in code, not loaded) gives the same line
    loose = parse_scenario(CLIQUE.split("relations:")[0], str(spec))
    pairs = tuple(sorted(pair_key(a, b) for a in "abcdef" for b in "abcdef" if a < b))
    with pytest.raises(LayoutError) as info:
        layout(dataclasses.replace(loose, relations=Relations(adjacent=pairs)))
    assert f"error {info.value}" == err.splitlines()[0]


def test_a_folder_without_specs_is_refused_by_every_verb(tmp_path, capsys):
    """`validate` and `generate` on a folder holding no YAML said nothing and exited 0."""
    empty = tmp_path / "notes"
    empty.mkdir()
    (empty / "readme.txt").write_text("no scenario here")
    out = tmp_path / "out"
    for verb in ("validate", "generate", "batch"):
        args = [] if verb == "validate" else ["--out", str(out)]
        assert main([verb, str(empty), *args]) == 2, verb
        err = capsys.readouterr().err
        assert err.startswith(f"error {empty}: no scenario YAML files") and "fix:" in err, (verb, err)
        assert len(err.splitlines()) == 1 and not out.exists(), (verb, err)
    assert main(["validate", str(empty), str(SPEC)]) == 2  # also beside other specs: a folder given in vain


CROWDED = """name: crowded
typology: single-story residence
rooms:
  bedroom:
    area: 12
    objects: {bed: 8, wardrobe: 4}
trajectory: [bedroom]
"""


def test_validate_layout_places_the_objects_as_generate_would(tmp_path, capsys):
    """Issue 14: `validate --layout` accepted eight beds in a 12 m2 bedroom, which `generate` then
    refused at placement; now it places the objects too and refuses with generate's line."""
    spec = tmp_path / "crowded.yaml"
    spec.write_text(CROWDED)
    assert main(["validate", "--layout", str(spec)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "rooms.bedroom.objects" in err and "fix:" in err, err
    out = tmp_path / "out"
    assert main(["generate", str(spec), "--out", str(out), "--until", "scene"]) == 2
    assert err.splitlines()[0] in capsys.readouterr().err.splitlines()
    assert not out.exists() or list(out.iterdir()) == []


@pytest.mark.parametrize("name, ok", [
    ("küche-2", True), ("客厅", True), ("scenario_05", True), ("Küche", False), ("a/b", False), ("..", False),
    ("a b", False), ("-x", False), ("a\u0000b", False), ("ku\u0308che", False), ("é" * 64, True), ("ø" * 65, False),
])
def test_scenario_names_are_path_safe_and_may_be_unicode(name, ok, tmp_path, capsys):
    """Issue 14: names are checked for path safety (no separators, no '..', no NUL, bounded
    length; one spelling: NFC, lower case) and safe Unicode names stay allowed."""
    import json

    spec = tmp_path / "s.yaml"
    spec.write_text(SPEC.read_text().replace("name: scenario-05", f"name: {json.dumps(name)}", 1))
    assert main(["validate", str(spec)]) == (0 if ok else 2), capsys.readouterr().err
    if not ok:
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "name" in err and "fix:" in err, err


def test_the_layout_budget_counts_cpu_seconds_not_a_busy_machines_wall_clock():
    """A two-worker batch on two cores refused sample-1-009's layout at 30 wall seconds that an
    idle machine finds in 14: the budget counts this process's CPU seconds, so time spent
    waiting for a core (here: asleep) costs none of it, and work does."""
    import time

    from generator.layout import model

    deadline = model.Deadline(0.3)
    time.sleep(0.5)
    assert not deadline.expired() and deadline.remaining() > 0.2
    spin_until = time.process_time() + 0.35
    while time.process_time() < spin_until:
        pass
    assert deadline.expired()
    with pytest.raises(model.OutOfTime):
        deadline.remaining()


def test_a_plan_the_work_budget_ends_unproven_is_kept_under_a_time_budget():
    """office-floor with a small work budget ends 'feasible' (not proven optimal); a generous
    time budget must return that same plan, not refuse it (comparing the CPU deadline with a
    wall clock once refused every such plan: large-house in 32 s)."""
    from pathlib import Path

    from generator.layout import model
    from generator.layout.plan import layout
    from generator.spec.scenario import load_scenario

    scenario = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "office-floor.yaml")
    statuses = []
    solve = model.solve

    def recording(*args, **kwargs):
        outcome = solve(*args, **kwargs)
        statuses.append(outcome.status)
        return outcome

    model.solve = recording
    try:
        free = layout(scenario, work_budget=0.05)
        budgeted = layout(scenario, work_budget=0.05, time_budget=120.0)
    finally:
        model.solve = solve
    assert "feasible" in statuses
    assert budgeted == free


def test_a_frame_cache_folder_is_made_even_when_another_run_removes_the_empty_cache_root_meanwhile(tmp_path, monkeypatch):
    """A scenario that publishes removes OUT/.cache once it is empty. When that falls between
    another run creating .cache and creating .cache/<name>, the second mkdir finds no parent."""
    root, made = tmp_path / ".cache", []
    real_mkdir = os.mkdir

    def mkdir_then_lose_root(path, *args, **kwargs):
        real_mkdir(path, *args, **kwargs)
        if Path(path) == root and not made:  # the other run's rmdir of the empty root lands here, once
            made.append(path)
            os.rmdir(root)

    monkeypatch.setattr(os, "mkdir", mkdir_then_lose_root)
    with pytest.raises(FileNotFoundError):  # what plain mkdir -p does
        (root / "tiny-b").mkdir(parents=True, exist_ok=True)
    made.clear()
    files.make_dirs(root / "tiny-b")
    assert (root / "tiny-b").is_dir() and made


def test_two_scenarios_publishing_at_once_may_both_remove_the_empty_cache_root(tmp_path):
    """Both find OUT/.cache empty once their own frame cache is gone; the second rmdir finds nothing
    (a finished scenario of a batch failed so: FileNotFoundError: OUT/.cache) or, if a third run has
    begun meanwhile, a folder that is not empty, which stays."""
    root = tmp_path / ".cache"
    root.mkdir()
    files.remove_if_empty(root)
    assert not root.exists()
    files.remove_if_empty(root)  # the other scenario's rmdir, a moment later
    (root / "tiny-c").mkdir(parents=True)
    files.remove_if_empty(root)
    assert (root / "tiny-c").is_dir()
    (tmp_path / "x").write_text("")
    with pytest.raises(NotADirectoryError):  # anything else still fails loudly
        files.remove_if_empty(tmp_path / "x")


def test_validate_notes_rooms_a_viewer_could_not_tell(tmp_path, capsys):
    """docs/ground-truth.md "Rooms a viewer can tell": valid, generated, but noted (exit 0)."""
    spec = tmp_path / "notes.yaml"
    spec.write_text("name: notes\ntypology: single-story residence\nrooms:\n"
                    "  kitchen: {objects: {chair: 2, cup: 1}}\n"
                    "  bedroom 1: {objects: {bed: 1}}\n  bedroom 2: {objects: {bed: 1, wardrobe: 1}}\n"
                    "trajectory: [bedroom 2, kitchen, bedroom 1]\n")
    assert main(["validate", str(spec)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "rooms.kitchen: nothing in it tells a viewer it is a kitchen" in err and "fridge" in err
    assert "visits bedroom 2, bedroom 1 in that order" in err
    assert main(["validate", str(ROOT / "scenarios")]) == 0
    assert "note" not in capsys.readouterr().err       # the bundled specs need none
