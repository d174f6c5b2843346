"""Fuzz: random study files and command lines never give a traceback or a half-written folder.

Hypothesis writes study files of the fake game (keys right or wrong, values of every
kind, sometimes a byte-order mark, a byte that is not UTF-8 or a cut-off file) and
command lines for ``run``, then ``verify`` (and, in the ``slow`` test, ``report``) on what came out. Every
outcome must be exit status 0, 1 (verify: different) or 2 with exactly one error line;
the out folder is absent or a complete study that verifies, and nothing is left beside
it. CI size here; the ``slow`` test runs 600 examples (scaled by ``CARDSIM_SLOW_SCALE``).
"""
import contextlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardsim.cli import main

VALID_POLICY = st.sampled_from(["random", "greedy", " greedy()", "random()"])
BAD_POLICY = st.sampled_from(["greedy(depth=3)", "greedy(", "cheat", "", "random,greedy", "greedy(x=1, x=2)"])
SCALAR = st.one_of(st.integers(-3, 12), st.text(max_size=5), st.booleans(), st.floats(allow_nan=False, width=32),
                   st.just("None"), st.lists(st.integers(0, 3), max_size=2))
VARIANTS = {"plain": {"preset": "plain"}, "sturdy": {"preset": "sturdy_dealer"},
            "short": {"preset": "short", "max_turns": "None"}, "three": {"preset": "plain(lives=3)"}}
VALID = st.fixed_dictionaries({
    "name": st.just("fake_study"), "game": st.just("fakegame"),
    "seed": st.one_of(st.integers(0, 2**64 - 1), st.sampled_from([0, 2**64 - 1])),
    "games": st.integers(1, 6),
    "players": st.sampled_from([2, 3, [2], [3, 2]]),
    "policies": st.one_of(st.lists(VALID_POLICY, min_size=1, max_size=2),
                          st.just(["random", ["greedy", "random", "random"]])),
    "variants": st.lists(st.sampled_from(list(VARIANTS)), min_size=1, max_size=2, unique=True).map(
        lambda names: {n: dict(VARIANTS[n]) for n in names}),
}, optional={"description": st.text(max_size=10), "engine": st.sampled_from(["compiled", "reference", "vector"])})
BAD = {  # a key -> values that are wrong there
    "name": st.sampled_from(["", "a/b", "x" * 300, 3]),
    "game": st.sampled_from(["poker", 3, ""]),
    "seed": st.one_of(st.integers(-5, -1), st.integers(2**64, 2**65), SCALAR),
    "games": st.one_of(st.integers(-2, 0), st.sampled_from([10**12, 2**63, 2**63 - 1]), SCALAR),
    "players": st.one_of(st.integers(0, 1), st.integers(7, 99), st.lists(st.lists(st.integers(2, 3), max_size=1),
                                                                         min_size=1, max_size=1), SCALAR),
    "policies": st.one_of(st.lists(BAD_POLICY, min_size=1, max_size=2), st.lists(st.lists(VALID_POLICY, min_size=4,
                                                                                          max_size=4)), SCALAR),
    "variants": st.one_of(SCALAR, st.just({}), st.just({"plain": {"preset": "hardcore"}}),
                          st.just({"plain": {"preset": "plain", "lives": 0}}),
                          st.just({"plain": {"preset": "plain(lives=3, lives=4)"}}),
                          st.just({"plain": {"preset": 3}}), st.just({"plain": {"preset": "plain", "colour": 1}})),
    "baseline": st.sampled_from(["nope", 3]),
    "engine": st.sampled_from(["gpu", 3]),
    "frobnicate": SCALAR,
}
DAMAGE = st.sampled_from(["none"] * 12 + ["bom", "latin-1", "cut", "empty"])
OUT = st.sampled_from(["R"] * 8 + ["", "a_file", "a_file/R", "missing/R"])
RUN_ARGS = st.lists(st.one_of(
    st.tuples(st.just("--games"), st.sampled_from(["3", "3", "1", "0", "-1", "x", "1000000000000", str(2**63)])),
    st.tuples(st.just("--jobs"), st.sampled_from(["1", "1", "0", "-3", "x"])),
    st.tuples(st.just("--backend"), st.sampled_from(["loky", "loky", "spark"])),
    st.tuples(st.sampled_from(["--force", "--resume", "--resume", "--bogus"])),
), max_size=2)
VERIFY_ARGS = st.lists(st.one_of(
    st.tuples(st.just("--sample"), st.sampled_from(["1", "5", "5", "0", "-2", "x", "100000"])),
    st.tuples(st.just("--sample-seed"), st.sampled_from(["0", "7", "7", "-1", str(2**64), "x"])),
), max_size=2)


@st.composite
def studies(draw) -> dict:
    """A valid study of the fake game, with up to two keys made wrong (or dropped)."""
    study = draw(VALID)
    for key in draw(st.lists(st.sampled_from([*BAD, "drop"]), max_size=2)):
        if key == "drop":
            study.pop(draw(st.sampled_from(sorted(study))), None)
        else:
            study[key] = draw(BAD[key])
    return study


def _toml(study: dict) -> str:
    """A TOML text of ``study`` (top-level values, then one table per variant)."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        return "[" + ", ".join(value(x) for x in v) + "]"
    lines = [f"{k} = {value(v)}" for k, v in study.items() if k != "variants"]
    variants = study.get("variants", {})
    if not isinstance(variants, dict):
        return "\n".join([*lines, f"variants = {value(variants)}"]) + "\n"
    for name, table in variants.items():
        lines += ["", f"[variants.{json.dumps(name, ensure_ascii=False)}]",
                  *(f"{k} = {value(v)}" for k, v in table.items())]
    return "\n".join(lines) + "\n"


def _damaged(text: str, damage: str) -> bytes:
    raw = text.encode("utf-8")
    return {"none": raw, "bom": b"\xef\xbb\xbf" + raw, "latin-1": raw.replace(b"=", b"=\xe9", 1),
            "cut": raw[:len(raw) // 2], "empty": b""}[damage]


def _call(argv: list[str]) -> tuple[int, str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse, and verify's exit 1
            code = stop.code
    return code, err.getvalue()


def _one_error_line(code: int, err: str) -> None:
    lines = [line for line in err.splitlines() if not line.startswith("cardsim: note: ")]
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("cardsim: error: "), err
    else:
        assert code in (0, 1) and not lines, (code, err)


def _complete_or_absent(base: Path) -> None:
    out = base / "R"
    assert not [p.name for p in base.iterdir() if p.name.startswith(".R")], "something left beside the folder"
    if out.exists():
        assert (out / "manifest.json").exists() and (out / "games.parquet").exists(), "a half-written folder"


def _fuzz(study: dict, damage: str, out: str, run_args: list, verify_args: list, tmp: Path,
          report: bool = False) -> None:
    base = Path(tempfile.mkdtemp(dir=tmp))
    try:
        (base / "a_file").write_text("not a folder")
        path = base / "study.toml"
        path.write_bytes(_damaged(_toml(study), damage))
        out_path = "" if out == "" else str(base / out)
        code, err = _call(["run", str(path), "--out", out_path, "--quiet", *(a for t in run_args for a in t)])
        _one_error_line(code, err)
        _complete_or_absent(base)
        if code == 0:
            code, err = _call(["verify", str(base / "R"), *(a for t in verify_args for a in t)])
            _one_error_line(code, err)
            if not any(a in ("-2", "0", "x", "-1", str(2**64)) for t in verify_args for a in t[1:]):
                assert code == 0, err  # a fresh folder verifies
            if report:
                code, err = _call(["report", str(base / "R")])
                _one_error_line(code, err)
                assert code == 0
                _complete_or_absent(base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


FUZZ = dict(study=studies(), damage=DAMAGE, out=OUT, run_args=RUN_ARGS, verify_args=VERIFY_ARGS)


@given(**FUZZ)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
def test_random_study_files_and_command_lines_give_one_line_or_a_whole_study(fake, tmp_path, study, damage, out,
                                                                              run_args, verify_args):
    _fuzz(study, damage, out, run_args, verify_args, tmp_path)


SLOW_EXAMPLES = max(40, int(600 * float(os.environ.get("CARDSIM_SLOW_SCALE", "1"))))
"""600, scaled like every `slow` test (tests/conftest.py): 60 in CI."""


@pytest.mark.slow
@given(**FUZZ)
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
def test_many_random_study_files_and_command_lines(fake, tmp_path, study, damage, out, run_args, verify_args):
    _fuzz(study, damage, out, run_args, verify_args, tmp_path, report=True)
