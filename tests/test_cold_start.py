"""Cold start (issue 29): ``import cardsim`` and ``cardsim list`` compile nothing; a first greedy game compiles
no search and no scorer, and the next process loads it; a read-only install keeps
numba's cache in the user's cache folder (``core/cache.py``); ``cardsim warm`` names what it compiles.

Each check runs in a fresh Python process, as a user's first command would.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import cardsim
from cardsim.games import spec
from cardsim.core import cache
from cardsim.warm import steps

PACKAGE = Path(cardsim.__file__).resolve().parent

COUNT_COMPILES = """
import gc, json, sys
from numba.core import event
from numba.core.registry import CPUDispatcher

compiles = []


class Count(event.Listener):
    def on_start(self, ev):
        compiles.append(str(ev.data.get("dispatcher")))
    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
import cardsim
from cardsim.games import spec
from cardsim.cli import main
for argv in {argvs!r}:
    main(argv)
with_signatures = [d.py_func.__qualname__ for d in gc.get_objects() if isinstance(d, CPUDispatcher) and d.signatures]
print(json.dumps({{"compiles": compiles, "with_signatures": with_signatures,
                  "dispatchers": sum(isinstance(d, CPUDispatcher) for d in gc.get_objects())}}), file=sys.stderr)
"""


def _python(code: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=env, cwd=cwd)


@pytest.mark.parametrize("argvs", [[], [["list"]], [["list", g] for g in cardsim.GAMES]],
                         ids=["import", "list", "list-each-game"])
def test_import_and_list_compile_nothing(argvs):
    done = _python(COUNT_COMPILES.format(argvs=argvs))
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    assert seen["compiles"] == [] and seen["with_signatures"] == []
    if argvs:  # the engines' modules were imported (their dispatchers exist): nothing of them was compiled
        assert seen["dispatchers"] > 100


PROBE = """
import json, os, sys
import numpy as np
import cardsim
from cardsim.games import spec
from cardsim.core import jit
import numba
assert jit.popcount(np.uint64(0b1011)) == 3
print(json.dumps({"package": cardsim.__file__, "env": os.environ.get("NUMBA_CACHE_DIR"),
                  "config": numba.config.CACHE_DIR, "misses": sum(jit.popcount.stats.cache_misses.values()),
                  "hits": sum(jit.popcount.stats.cache_hits.values())}))
"""


def _read_only_copy(tmp_path: Path) -> Path:
    """A copy of the package in a folder nobody may write: file modes off, and every ``__pycache__`` a file
    (which stops root too, whom file modes do not)."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "cardsim", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    for folder in [site / "cardsim", *(p for p in (site / "cardsim").rglob("*") if p.is_dir())]:
        (folder / "__pycache__").write_text("read-only install\n")
    for path in [site, *site.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return site


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_read_only_install_caches_in_the_user_cache_folder(tmp_path):
    site = _read_only_copy(tmp_path)
    before = _files(site)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env |= {"PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    try:
        runs = []
        for _ in range(2):
            done = _python(PROBE, env=env, cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            runs.append(json.loads(done.stdout))
    finally:
        for path in [site, *site.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    user = tmp_path / "xdg" / "cardsim" / "numba"
    first, second = runs
    assert Path(first["package"]).is_relative_to(site)
    assert first["env"] == first["config"] == str(user)
    assert first["misses"] == 1 and first["hits"] == 0  # compiled, and written to the user's folder
    assert any(p.suffix == ".nbi" for p in user.rglob("*"))
    assert second["misses"] == 0 and second["hits"] == 1  # the next process loads it from there
    assert _files(site) == before  # nothing written into the install


def test_a_writable_package_keeps_its_cache_beside_it(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert all(cache.writable(f) for f in cache.compiled_folders())
    assert cache.configure() is None and "NUMBA_CACHE_DIR" not in os.environ


def test_numba_cache_dir_set_by_the_user_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setattr(cache, "writable", lambda folder: False)
    assert cache.configure() == tmp_path / "mine"
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_user_folder_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.user_folder() == tmp_path / "cardsim" / "numba"


def test_warm_compiles_each_entry_point_of_each_game():
    every = steps([])
    assert [g for g, _, _ in every] == [g for g in cardsim.GAMES if spec(g).compiled is not None for _ in range(2)]
    assert {label for _, label, _ in every} == {"without mc", "with mc"}
    assert steps(["uno", "uno"]) == [s for s in every if s[0] == "uno"]
    with pytest.raises(ValueError, match="unknown game 'nosuch'"):
        steps(["moska", "nosuch"])


def test_cardsim_warm_plays_one_game_per_entry_point_with_a_progress_line(monkeypatch, capsys):
    from cardsim import warm
    from cardsim.cli import main

    played = []
    monkeypatch.setattr(warm.api, "simulate", lambda game, **kw: played.append((game, kw["policy"], kw["games"])))
    assert main(["warm", "uno", "molotow"]) == 0
    out, err = capsys.readouterr()
    assert played == [("uno", "greedy", 1), ("uno", "mc(determinizations=1)", 1),
                      ("molotow", "greedy", 1), ("molotow", "mc(determinizations=1)", 1)]
    assert [line.split(":")[1].strip() for line in err.splitlines()] == [
        f"warm {i}/4" for i in (1, 1, 2, 2, 3, 3, 4, 4)]
    assert out.startswith("warmed 4 entry points of 2 games in ")
    assert main(["warm", "nosuch"]) == 2
    assert capsys.readouterr().err == f"cardsim: error: unknown game 'nosuch'; known games: {', '.join(cardsim.GAMES)}\n"


FIRST_GAME = """
import json, sys
from numba.core import event

compiled = []


class Names(event.Listener):
    def on_start(self, ev):
        f = getattr(ev.data.get("dispatcher"), "py_func", None)
        compiled.append(f"{{f.__module__}}.{{f.__qualname__}}" if f else "")
    def on_end(self, ev):
        pass

event.register("numba:compile", Names())
import cardsim
record = cardsim.simulate({game!r}, players=4, games=3, seed=7, policy="greedy")
print(json.dumps({{"compiled": compiled, "record": record.drop(columns="game").to_json()}}))
"""


@pytest.mark.long
@pytest.mark.parametrize("game", [g for g in cardsim.GAMES if spec(g).compiled is not None])
def test_a_first_greedy_game_compiles_no_search_nor_scorer_and_the_next_process_loads_the_cache(game, tmp_path):
    """Issue 29: the loop of ``random`` and ``greedy`` compiles neither ``mc``'s search nor ``learned``'s scorer
    (``learned_features``; it fails on the tree before, where Uno's plain loop compiled ``learned_choice``), and
    a second process with the same cache compiles nothing and plays the same."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = []
    for _ in range(2):
        done = _python(FIRST_GAME.format(game=game), env=env)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    first, second = runs
    assert any(name.startswith(f"cardsim.games.{game}.") for name in first["compiled"])
    leaked = [n for n in first["compiled"] if ".learned_features." in n or n.rsplit(".", 1)[-1] in SEARCH]
    assert leaked == []
    assert second["compiled"] == [] and second["record"] == first["record"]


SEARCH = {"search", "search_totals", "play_worlds", "learned_choice", "learned_card", "teacher_scores"}
"""The compiled functions of ``mc``'s search and ``learned``'s scorer, by name, in the four games."""


def test_a_variants_run_imports_no_statistical_tests_nor_optimizers(tmp_path):
    """A study that is neither a sweep, a ladder nor a profile (the main job's kind) needs the quantiles of
    ``scipy.special`` only: ``scipy.stats``, ``statsmodels`` and ``scipy.optimize`` (about a second of
    start-up on the main job's critical path) are imported by the tables that use them, when they do."""
    run = f"""
import sys
from cardsim.study import run_study
run_study({str(Path(__file__).resolve().parents[1] / 'experiments' / 'quickstart.toml')!r}, games=20,
          out={str(tmp_path / 'out')!r}, note=lambda line: None)
print(sorted(m for m in ("scipy.stats", "statsmodels", "scipy.optimize") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def test_a_changed_compiled_module_drops_every_cache_file_beside_the_package(tmp_path, monkeypatch):
    """numba checks a cached function against its own file only (numba#1833): a caller in another module
    would keep a changed callee's old machine code. ``drop_stale`` removes the numba cache files of every
    compiled folder once any of their modules changed, and nothing else."""
    package = tmp_path / "cardsim"
    for module in ("core/jit.py", "games/toy/engine.py", "study/report.py"):
        (package / module).parent.mkdir(parents=True, exist_ok=True)
        (package / module).write_text("x = 1\n")
    monkeypatch.setattr(cache, "PACKAGE", package)

    def cached() -> dict[str, list[str]]:
        for folder in ("core", "games/toy", "study"):
            pycache = package / folder / "__pycache__"
            pycache.mkdir(exist_ok=True)
            for name in ("m.f-1.py311.nbi", "m.f-1.py311.1.nbc", "m.cpython-311.pyc"):
                (pycache / name).touch()
        return files()

    def files() -> dict[str, list[str]]:
        return {f: sorted(p.name for p in (package / f / "__pycache__").iterdir()) for f in ("core", "games/toy", "study")}

    everything = cached()
    assert cache.drop_stale()  # no stamp yet: dropped once
    assert files() == {"core": ["m.cpython-311.pyc"], "games/toy": ["m.cpython-311.pyc"], "study": everything["study"]}
    assert cached() == everything and not cache.drop_stale() and files() == everything  # nothing changed
    (package / "study" / "report.py").write_text("x = 2\n")  # no compiled code there
    assert not cache.drop_stale() and files() == everything
    os.utime(package / "games" / "toy" / "engine.py", ns=(1, 1))  # a module with compiled code changed
    assert cache.drop_stale()
    assert files()["core"] == files()["games/toy"] == ["m.cpython-311.pyc"]
    assert sorted(p.name for p in (package / "__pycache__").iterdir()) == [cache.STAMP]


@pytest.mark.parametrize("study", ["molotow_rules_mc", "musta_maija_variants_mc", "skill_moska"])
def test_an_html_report_of_a_searching_study_loads_no_engine(study, tmp_path):
    """``cardsim report --html`` draws from a folder's files: its study's policies (``mc``, ``learned``) are
    parsed, not played, so no engine is compiled or loaded (a searching one costs 25-50 s on a fresh install)."""
    folder = shutil.copytree(PACKAGE.parent / "results" / study, tmp_path / study)
    done = _python(COUNT_COMPILES.format(argvs=[["report", "--html", str(folder)]]))
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    assert seen["compiles"] == [] and seen["with_signatures"] == []
    assert (folder / "report.html").stat().st_size > 10_000
