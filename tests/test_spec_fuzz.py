"""Fuzzing the scenario loader (issue 14): a seeded mutator over the bundled scenarios.

Every mutant must be either accepted or refused cleanly: a SpecError naming the file, with a
bounded message; never another exception, never a hang. Refused mutants leave nothing under
`--out`. The default run tries FUZZ_CASES mutants; EGOSCENE_FUZZ_CASES=5000 tries more, and
EGOSCENE_FUZZ_LAYOUT=N also lays out N accepted mutants through `generate --until layout`.
The inputs that crashed or hung the loader before the fix are kept below as regression cases.
"""

from __future__ import annotations

import os
import random
import re
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from generator.spec.scenario import MAX_ISSUES, Scenario, SpecError, load_scenario

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "scenarios").glob("*.yaml"))
FUZZ_CASES = int(os.environ.get("EGOSCENE_FUZZ_CASES", "250"))
FUZZ_LAYOUT = int(os.environ.get("EGOSCENE_FUZZ_LAYOUT", "0"))
HANG_S = 60  # generous: a case fails only when it hangs (each takes milliseconds)
MAX_MESSAGE = MAX_ISSUES * 1_300  # SpecIssue clips file, path, problem and fix

BASE = (ROOT / "scenarios" / "scenario-01.yaml").read_text()


def _with_room(extra: str) -> str:
    return BASE.replace("  bathroom:\n", extra + "  bathroom:\n", 1)


def _many_rooms(n: int, per_floor: bool = False) -> str:
    labels = [f"room {i}" for i in range(n)]
    rooms = "".join(f"  {label}: {{floor: {i // 10 if per_floor else 0}}}\n" for i, label in enumerate(labels))
    return (f"name: many\ntypology: {'multi-story residence' if per_floor else 'office'}\nrooms:\n{rooms}"
            f"trajectory: [{', '.join(labels)}]\n")


# Inputs that crashed, hung or were wrongly accepted before issue 14 (file bytes, expected text)
REGRESSIONS: dict[str, tuple[bytes, str]] = {
    "non-UTF-8 bytes": (BASE.encode().replace(b"kitchen:", b"kitch\xe9n:", 1), "not UTF-8"),
    "mapping as key": ((BASE + "? {a: 1}\n: x\n").encode(), "used as a key"),
    "nested lists 3000 deep": (BASE.replace("{washstand: 1, toilet: 1}", "{washstand: 1, toilet: {count: 1, style: "
                                            + "[" * 3000 + "]" * 3000 + "}}").encode(), "nested deeper"),
    "5000-digit number": (BASE.replace("seed: 1", "seed: " + "9" * 5000).encode(), "characters"),
    "billion laughs": (("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
                        + "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
                        + BASE).encode(), "anchor"),
    "alias without anchor at the top": (BASE.replace("seed: 1", "seed: *x").encode(), "alias"),
    "50 rooms on one floor": (_many_rooms(50).encode(), "at most 40"),
    "20 rooms on one floor": (_many_rooms(20).encode(), "per floor"),
    "200 rooms": (_many_rooms(200, per_floor=True).encode(), "at most 40"),
    "300-character name": (BASE.replace("name: scenario-01", "name: " + "a" * 300).encode(), "at most 64"),
    "250-character name": (BASE.replace("name: scenario-01", "name: " + "b" * 250).encode(), "at most 64"),
    "!!set tag": ((BASE + "extra: !!set {a, b}\n").encode(), "tag"),
    "!!set as trajectory": (BASE.replace("trajectory: [", "trajectory: !!set [").encode(), "tag"),
    "python tag": ((BASE + "x: !!python/object/apply:os.system [echo]\n").encode(), "tag"),
    "area .inf": (_with_room("  hall:\n    area: .inf\n").encode(), "finite"),
    "area .nan": (BASE.replace("  bathroom:\n", "  bathroom:\n    area: .nan\n").encode(), "finite"),
    "area 1e300": (BASE.replace("  bathroom:\n", "  bathroom:\n    area: 1e300\n").encode(), "400"),
    "lone surrogate in a label": (BASE.replace("  bathroom:\n", '  "bath\\ud800room":\n').encode(), "surrogate"),
    "NUL in a label": (BASE.replace("  bathroom:\n", '  "bath\\0room":\n').encode(), "NUL"),
    "control character in a label": (BASE.replace("bathroom", '"bath\\x07room"').encode(), "control character"),
    "attribute that is a list": (BASE.replace("toilet: 1", "toilet: {count: 1, style: [a, b]}").encode(), "attribute"),
    "reserved attribute": (BASE.replace("toilet: 1", "toilet: {count: 1, model_seed: x}").encode(), "reserved"),
    "file over the size limit": (BASE.encode() + b"#" * (300 * 1024) + b"\n", "larger than"),
    "one huge text value": (BASE.replace("bathroom:\n", "bathroom:\n    type: " + "x" * 5000 + "\n", 1).encode(), "characters"),
}


@contextmanager
def _no_hang(seconds: int = HANG_S):
    def alarm(signum, frame):
        raise TimeoutError(f"hung for {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _outcome(path: Path) -> Scenario | SpecError:
    """The loader's verdict; anything but a Scenario or a clean SpecError fails the test."""
    with _no_hang():
        try:
            return load_scenario(path)
        except SpecError as exc:
            message = str(exc)
            assert str(path) in message and len(message) <= MAX_MESSAGE, message[:2000]
            assert all(len(line) <= 1_400 for line in message.splitlines())
            return exc


@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_regression_inputs_are_refused_cleanly(case, tmp_path):
    data, expected = REGRESSIONS[case]
    spec = tmp_path / "bad.yaml"
    spec.write_bytes(data)
    outcome = _outcome(spec)
    assert isinstance(outcome, SpecError), f"{case}: accepted"
    assert expected in str(outcome) and "fix:" in str(outcome)
    assert len(str(outcome)) < 2_000  # one short message, also for the alias bomb


# ---------------------------------------------------------------------------- the mutator

HOSTILE_SCALARS = (
    ".inf", "-.inf", ".nan", "1e300", "1.0e+300", "-1", "0", "0.0", "61", "2.5", "9" * 5000, "9" * 900, "~", "yes",
    "null", '"\\ud800"', '"\\0"', '"a/b"', "..", '"."', "''", "2020-01-01", "[]", "{}", "[a, [b, [c]]]",
    "{a: {b: {c: 1}}}", "!!set {a, b}", "!!python/name:os.system", "!custom x", "&anchor x", "*anchor",
    "[" * 100 + "]" * 100, '"' + "x" * 1500 + '"', "küche", "厨房", '"bath\\troom"', "-", "? [a]", "!!binary aGk=",
    "0x1F", "0o17", "1_000", "<<", "=", "!!str 1", "'\\ud83d'", "1e-300",
)
HOSTILE_VALUES = (
    None, True, -1, 0, 10**30, 1.5, float("inf"), "", "x" * 300, [], {}, [[["a"]]], {"count": 0},
    {"count": 2, "colour": "red"}, ["kitchen"], "kitchen", {"a": {"b": {"c": {"d": 1}}}}, "café", 3.0,
)


def _scalar_spans(text: str) -> list[tuple[int, int]]:
    """Where plain values sit in the text (after ': ', inside flow lists), for text mutations."""
    spans = []
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.ScalarEvent):
            spans.append((event.start_mark.index, event.end_mark.index))
    return spans


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, prefix + (i,))


def _structural(data, rng: random.Random):
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    op = rng.randrange(6)
    if op == 0:
        del parent[last]
    elif op == 1:
        parent[last] = rng.choice(HOSTILE_VALUES)
    elif op == 2 and isinstance(parent, dict):  # rename a key (a label, a category, a field)
        value = parent.pop(last)
        parent[rng.choice(["Kitchen", "kitchen ", "a" * 70, "ü", "livingroom", "fridgee", str(rng.random()), "count"])] = value
    elif op == 3 and isinstance(data.get("rooms"), dict):  # many rooms, perhaps on many floors
        for i in range(rng.choice([5, 17, 41])):
            data["rooms"][f"extra {i}"] = {"floor": rng.choice([0, 0, 1, 4, 5])}
    elif op == 4:  # a relation star
        labels = list(data.get("rooms", {}) or ["x"])
        data.setdefault("relations", {})["adjacent"] = [[labels[0], label] for label in labels[1:]] * rng.choice([1, 3])
    else:
        parent[last] = [parent[last]] * rng.choice([2, 50])
    return data


def mutate(text: str, rng: random.Random) -> bytes:
    """One mutant of a scenario file: a hostile value spliced into the text, a structural edit
    of the parsed document, or damaged bytes."""
    kind = rng.randrange(12)
    if kind >= 10:  # near-valid: other small counts and seeds, a comment, a quoted label
        text = re.sub(r"(?<=[:\s])\d+(?=[,}\s])", lambda m: str(rng.randint(1, 4)), text)
        return (text.replace("kitchen", '"kitchen"', 1) + rng.choice(["", "# note\n", "\n\n"])).encode()
    if kind < 5:
        spans = _scalar_spans(text)
        for _ in range(rng.choice([1, 1, 2, 3])):
            start, end = rng.choice(spans)
            text = text[:start] + rng.choice(HOSTILE_SCALARS) + text[end:]
            spans = [(s, e) for s, e in spans if e <= start] or [(0, 0)]  # earlier spans keep their offsets
        return text.encode("utf-8", "surrogatepass")
    if kind < 8:
        data = yaml.safe_load(text)
        for _ in range(rng.choice([1, 2])):
            data = _structural(data, rng)
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1_000_000).encode()
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data))
        op = rng.randrange(3)
        if op == 0:
            data[i] = rng.randrange(256)
        elif op == 1:
            data[i:i] = rng.choice([b"\xff", b"\xc3", b"\t", b"\x00", b"&a ", b"*a", b"!!", b"{", b"[", b"\n  - ", b": "])
        else:
            del data[i:i + rng.randint(1, 40)]
    return bytes(data)


def test_mutated_scenarios_are_accepted_or_refused_cleanly(tmp_path):
    counts = {"accepted": 0, "refused": 0}
    texts = [p.read_text() for p in BUNDLED]
    accepted: list[Path] = []
    for case in range(FUZZ_CASES):
        rng = random.Random(case)
        spec = tmp_path / f"mutant-{case}.yaml"
        spec.write_bytes(mutate(rng.choice(texts), rng))
        try:
            outcome = _outcome(spec)
        except AssertionError:
            raise
        except BaseException as exc:  # the report names the input to keep as a regression case
            raise AssertionError(f"mutant {case} crashed the loader: {type(exc).__name__}: {str(exc)[:300]}\n"
                                 f"{spec.read_bytes()[:3000]!r}") from exc
        counts["accepted" if isinstance(outcome, Scenario) else "refused"] += 1
        if isinstance(outcome, Scenario):
            accepted.append(spec)
            outcome.spec_hash()  # serialisable, encodable
        else:
            spec.unlink()
    print(f"{FUZZ_CASES} mutants: {counts}")
    # the mutator bites, but not only: some mutants stay valid
    assert counts["refused"] >= FUZZ_CASES // 4 and len(accepted) >= FUZZ_CASES // 20


def test_refused_mutants_write_nothing_and_exit_2(tmp_path, capsys):
    from egoscene.cli import main

    refused = 0
    texts = [p.read_text() for p in BUNDLED]
    for case in range(200):
        rng = random.Random(10_000 + case)
        spec = tmp_path / f"mutant-{case}.yaml"
        spec.write_bytes(mutate(rng.choice(texts), rng))
        if isinstance(_outcome(spec), Scenario):
            continue
        out = tmp_path / f"out-{case}"
        with _no_hang():
            assert main(["generate", str(spec), "--out", str(out), "--until", "layout"]) == 2
        assert not out.exists() or not any(out.iterdir())
        refused += 1
        if refused == 12:
            break
    err = capsys.readouterr().err
    assert refused == 12 and "Traceback" not in err and "internal error" not in err


@pytest.mark.skipif(FUZZ_LAYOUT == 0, reason="set EGOSCENE_FUZZ_LAYOUT=N to lay out N accepted mutants")
def test_accepted_mutants_generate_or_are_refused_within_budget(tmp_path):
    """What validate accepts, generate builds up to the walk, or refuses as layout/placement."""
    from egoscene import pipeline
    from generator.layout.plan import LayoutError
    from generator.placement.place import PlacementError

    texts = [p.read_text() for p in BUNDLED]
    done = 0
    for case in range(100_000):
        rng = random.Random(50_000 + case)
        spec = tmp_path / f"mutant-{case}.yaml"
        spec.write_bytes(mutate(rng.choice(texts), rng))
        if not isinstance(_outcome(spec), Scenario):
            continue
        out = tmp_path / f"out-{case}"
        with _no_hang(300):
            try:
                pipeline.generate(spec, out, pipeline.Options(until="trajectory", layout_budget=30.0))
                verdict = "built"
            except (LayoutError, PlacementError) as exc:
                assert not out.exists() or not any(out.iterdir())
                verdict = f"refused: {str(exc)[:200]}"
        print(f"mutant {case}: {verdict}")
        done += 1
        if done == FUZZ_LAYOUT:
            break
