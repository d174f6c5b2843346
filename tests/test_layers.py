"""The study layer walks one way: no module of an earlier stage imports a later one (issue 26).

The stages, earliest first (docs/design.md, "The study layer"): ``hooks`` (the test seams, importing
nothing), ``plan``, ``folder``, ``report`` (a ladder's tables, ratings and figure, ``ladder``, are its
report), ``run``, then the modules that walk a study through them (``pipeline``, ``verify``,
``compare``, ``replication``). Every import of a
``cardsim.study`` module is read from the source (``ast``), those inside functions and under
``TYPE_CHECKING`` included, so a lazy import cannot hide a way back.
"""
import ast
from pathlib import Path

import cardsim.study

STUDY = Path(cardsim.study.__file__).parent
STAGES = ("hooks", "plan", "folder", "report", "run", "top")
TOP = ("pipeline", "verify", "compare", "replication")
STAGE_OF = {"ladder": "report"}
"""Subpackages that belong to another stage."""


def stage(module: str) -> str:
    """The stage of ``cardsim.study.<module>`` (``a.b`` for a module of a subpackage)."""
    first = module.split(".")[0]
    first = STAGE_OF.get(first, first)
    if first in TOP:
        return "top"
    assert first in STAGES, f"cardsim.study.{module} belongs to no stage: add it to STAGES or TOP"
    return first


def modules() -> dict[str, Path]:
    return {".".join(p.relative_to(STUDY).with_suffix("").parts).removesuffix(".__init__").removesuffix("__init__"): p
            for p in STUDY.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """The ``cardsim.study`` modules ``path`` imports (relative to ``cardsim.study``)."""
    known = modules()
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        for name in names:
            if name.startswith("cardsim.study."):
                rest = name.removeprefix("cardsim.study.")
                while rest and rest not in known:
                    rest = rest.rpartition(".")[0]
                if rest:
                    found.add(rest)
    return found


def test_every_study_module_belongs_to_a_stage():
    for module in modules():
        if module:
            stage(module)


def backward(files: dict[str, Path]) -> list[str]:
    """Each import of a later stage by a module of ``files`` (module name -> source), in words."""
    return sorted(f"{m} ({stage(m)}) imports {i} ({stage(i)})" for m, path in files.items() if m
                  for i in imported(path) if STAGES.index(stage(i)) > STAGES.index(stage(m)))


def test_no_module_of_an_earlier_stage_imports_a_later_one():
    back = backward(modules())
    assert not back, "imports that run back against the stages:\n" + "\n".join(back)


def test_a_lazy_import_of_a_later_stage_is_found(tmp_path):
    """The check can fail: an import inside a function of a plan module, of the report and the pipeline."""
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from cardsim.study import pipeline\n    from cardsim.study.report import plots\n")
    assert imported(path) == {"pipeline", "report", "report.plots"}
    assert backward({"plan.m": path}) == ["plan.m (plan) imports pipeline (top)", "plan.m (plan) imports report (report)",
                                          "plan.m (plan) imports report.plots (report)"]


PROFILE = Path(cardsim.study.__file__).parent.parent / "profile"
PROFILE_STAGE = {"design": "plan", "command": "top"}
"""Balance profiles (``cardsim.profile``) sit in the study's stages: ``design`` turns a ``[profile]``
section into cells (plan), ``command`` walks one through the pipeline (top), every other module computes,
writes or draws the profile (report)."""


def profile_stage(module: str) -> str:
    return PROFILE_STAGE.get(module, "report")


def profile_imports(path: Path) -> set[str]:
    """The ``cardsim.profile`` modules ``path`` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardsim.profile"):
            rest = node.module.removeprefix("cardsim.profile").lstrip(".")
            found |= {rest} if rest else {a.name for a in node.names}
    return found


def test_profiles_walk_the_same_way():
    """A profile module imports no study module (nor profile module) of a later stage, and a study module
    imports no profile module of a later stage than its own."""
    profile = {p.stem: p for p in PROFILE.glob("*.py") if p.stem != "__init__"}
    back = [f"profile.{m} ({profile_stage(m)}) imports {i} ({stage(i)})" for m, p in profile.items()
            for i in imported(p) if STAGES.index(stage(i)) > STAGES.index(profile_stage(m))]
    back += [f"profile.{m} ({profile_stage(m)}) imports profile.{i} ({profile_stage(i)})" for m, p in profile.items()
             for i in profile_imports(p) if STAGES.index(profile_stage(i)) > STAGES.index(profile_stage(m))]
    back += [f"{m} ({stage(m)}) imports profile.{i} ({profile_stage(i)})" for m, p in modules().items() if m
             for i in profile_imports(p) if STAGES.index(profile_stage(i)) > STAGES.index(stage(m))]
    assert profile and not back, "imports that run back against the stages:\n" + "\n".join(back)


GAME_FOLDERS = Path(cardsim.study.__file__).parent.parent / "games"
COMPILED = ("compiled", "compiled_policies", "learned_features")
"""A game folder's compiled engine: its numba modules (the engine, its policies, the learned features)."""
ENGINE_FREE = ("reference", "policies")
"""The modules that import no compiled module, not even through another module of the folder: the reference
engine asks an injected policy object for a searching seat's decision (``seating.py`` passes it in)."""


def game_imports(folder: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same game folder it imports (``__init__`` for the package itself), read with
    ``ast``: imports inside functions and under ``TYPE_CHECKING`` included."""
    names = {p.stem for p in folder.glob("*.py")}
    package = f"cardsim.games.{folder.name}"
    graph = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([package, base] if base else [package])
                targets = [(base, a.name) for a in node.names]
            else:
                continue
            for module, name in targets:
                if module == package:
                    found.add(name if name in names else "__init__")
                elif module.startswith(package + "."):
                    found.add(module.removeprefix(package + ".").split(".")[0])
        graph[path.stem] = found - {path.stem}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph (its modules, the first repeated at the end), or ``[]``."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        for other in sorted(graph.get(module, ())):
            if found := visit(other, path + [module]):
                return found
        done.add(module)
        return []

    for module in sorted(graph):
        if found := visit(module, []):
            return found
    return []


def reached(graph: dict[str, set[str]], module: str) -> set[str]:
    """The modules ``module`` imports, directly or through others."""
    seen, todo = set(), [module]
    while todo:
        for other in graph.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def game_folder_problems(folder: Path) -> list[str]:
    graph = game_imports(folder)
    problems = []
    if loop := cycle(graph):
        problems.append(f"{folder.name}: import cycle " + " -> ".join(loop))
    for module in ENGINE_FREE:
        if bad := sorted(reached(graph, module) & set(COMPILED)):
            problems.append(f"{folder.name}: {module} imports the compiled engine ({', '.join(bad)})")
    return problems


def test_no_game_folder_is_a_circle():
    """Within each built-in game folder the imports run one way, and neither the reference engine nor the policy
    names import the compiled engine (issue 26, item 3)."""
    folders = [p.parent for p in sorted(GAME_FOLDERS.glob("*/__init__.py"))]
    problems = [line for folder in folders for line in game_folder_problems(folder)]
    assert len(folders) >= 4 and not problems, "\n".join(problems)


def test_a_lazy_import_making_a_circle_is_found(tmp_path):
    """The check can fail: a lazy import inside a function, a relative import and one under TYPE_CHECKING."""
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "rules.py").write_text("")
    (folder / "policies.py").write_text("from cardsim.games.demo import rules\n"
                                        "def f():\n    from cardsim.games.demo.reference import x\n")
    (folder / "reference.py").write_text("from .policies import y\nfrom typing import TYPE_CHECKING\n"
                                         "if TYPE_CHECKING:\n    from cardsim.games.demo import compiled as C\n")
    (folder / "compiled.py").write_text("import cardsim.games.demo.reference\n")
    assert game_imports(folder) == {"__init__": set(), "rules": set(), "policies": {"rules", "reference"},
                                    "reference": {"policies", "compiled"}, "compiled": {"reference"}}
    assert game_folder_problems(folder) == ["demo: import cycle compiled -> reference -> compiled",
                                            "demo: reference imports the compiled engine (compiled)",
                                            "demo: policies imports the compiled engine (compiled)"]
