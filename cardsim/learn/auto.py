"""``learned(model=auto)``: each cell played by a model trained for its own rules and player count.

A committed model was trained under one preset at one player count, and plays any other cell only
with a warning (``core/models.py``). ``model=auto`` instead names, in each cell, the model that
``RECIPE`` trains for exactly that cell's rules (their string form) and players, so every variant of a
study is played by a policy tuned to it, and every one with the same training. The model is trained
on first use, in the process that plans the games (``ensure``), and kept in the user cache by a key of
everything that decides it (``key``): its positions and labels are deterministic from its seed, its fit
is floating point in the kernels the CPU picks (another machine can give other last bits, docs/ladder.md),
and a study's manifest records each cell's model digest (``digests``) for ``verify`` to check. Workers only
look it up (``resolve``). The models of the committed studies ship in the package (``SHIPPED``), so a fresh
install finds them untrained, and plays exactly the models the studies played.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from filelock import FileLock

from cardsim.core import cache
from cardsim.core.rules import format_call, parse_call

AUTO = "auto"
"""The model name that stands for the cell's own model."""
RECIPE = {"generations": 1, "positions": 8000, "teacher": "mc(determinizations=32)", "seed": 20261201, "every": 8}
"""How an ``auto`` model is trained (``cardsim.learn.train.train``'s arguments). One generation: in the Moska
ladder the first generation holds +29.9 of the third's +34.1 Elo over ``greedy`` (results/ladder_moska_learned),
at a third of the training."""
VARIABLE = "CARDSIM_MODELS"
"""Where ``auto`` models are kept when set; else ``<user cache>/cardsim/models``."""
SHIPPED = Path(__file__).resolve().parent.parent / "models"
"""The package's models: ``SHIPPED/<game>/auto/<key>.json`` are the ``auto`` models the committed studies
play, shipped so that a fresh install verifies them without training (and whatever its library versions)."""


def folder() -> Path:
    """The folder of the ``auto`` models: ``$CARDSIM_MODELS``, else beside numba's user cache."""
    return Path(os.environ.get(VARIABLE) or cache.user_folder().parent / "models")


def plays_auto(text: str) -> bool:
    """Whether a seat's policy string plays ``learned(model=auto)``, itself or as an ``mc`` base."""
    if not isinstance(text, str) or AUTO not in text:
        return False
    name, params = parse_call(text)
    if name == "learned" and params.get("model") == AUTO:
        return True
    return isinstance(params.get("base"), str) and plays_auto(params["base"])


def _rewrite(text: str, model: str | None) -> str:
    """``text`` with every ``learned(model=auto)`` in it (nested ``base=`` strings too) naming ``model`` (None:
    naming none, so the game's default model)."""
    name, params = parse_call(text)
    if name == "learned" and params.get("model") == AUTO:
        params.pop("model")
        if model is not None:
            params["model"] = model
    if isinstance(params.get("base"), str):
        params["base"] = _rewrite(params["base"], model)
    return format_call(name, params)


def stand_in(text: str) -> str:
    """The seat with ``learned(model=auto)`` playing the game's default model instead: what a study plan plays
    to check a policy's parameters, before any model is trained."""
    return _rewrite(text, None) if plays_auto(text) else text


def key(game: str, rules: Any, players: int) -> str:
    """What decides a cell's ``auto`` model, hashed: the game and its protocol version, the rules' string form,
    the players, the recipe and the game's feature version."""
    from cardsim.games import spec
    from importlib import import_module

    features = import_module(f"cardsim.games.{game}.learned_features")
    what = {"game": game, "protocol": spec(game).protocol, "rules": rules.describe(), "players": int(players),
            "recipe": RECIPE, "feature_version": features.VERSION}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def path_of(game: str, rules: Any, players: int) -> Path:
    """The file of a cell's ``auto`` model: the package's if it ships one (``SHIPPED``), else the kept one (the
    recipe's last generation, in ``folder()``), trained or not yet."""
    k = key(game, rules, players)
    shipped = SHIPPED / game / AUTO / f"{k}.json"
    return shipped if shipped.is_file() else folder() / game / k / f"{AUTO}_g{RECIPE['generations']}.json"


def ensure(game: str, rules: Any, players: int, seats: Iterable[str], *, jobs: int = 1,
           progress: bool = False) -> None:
    """Train the cell's ``auto`` model if a seat plays it and it is not kept yet; one process at a time trains
    a key (a lock file beside it), the others wait and then find it."""
    if not any(plays_auto(s) for s in seats):
        return
    path = path_of(game, rules, players)
    if path.is_file():
        return
    with _locked(path.parent):
        if path.is_file():
            return
        from cardsim.learn.train import train

        print(f"cardsim: training learned(model=auto) for {rules.describe()} at {players} players, once "
              f"(kept in {path.parent})", file=sys.stderr, flush=True)
        train(game, rules.describe(), players=players, generations=RECIPE["generations"],
              positions=RECIPE["positions"], teacher=RECIPE["teacher"], seed=RECIPE["seed"],
              every=RECIPE["every"], jobs=jobs, out=path.parent, name=AUTO, progress=progress)


@contextmanager
def _locked(where: Path) -> Iterator[None]:
    """Hold ``where/.lock`` exclusively (``filelock``: the operating system's lock, released if the holder
    dies); one ``ValueError`` line when the folder cannot be made or the lock file written there."""
    lock = FileLock(where / ".lock")
    try:
        where.mkdir(parents=True, exist_ok=True)
        lock.acquire()
    except OSError as err:
        raise ValueError(f"{where}: cannot keep learned(model=auto) models there ({err.strerror or err}); "
                         f"set {VARIABLE} to a writable folder") from None
    try:
        yield
    finally:
        lock.release()


def resolve(game: str, rules: Any, players: int, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats with ``learned(model=auto)`` naming the cell's model file, training it first if it is not kept
    (``ensure``, here in this process: the planning process has normally trained it already)."""
    if not any(plays_auto(s) for s in seats):
        return seats
    ensure(game, rules, players, seats)
    path = str(path_of(game, rules, players))
    return tuple(_rewrite(s, path) if plays_auto(s) else s for s in seats)


def label(rules: Any, players: int) -> str:
    """How a manifest names a cell's ``auto`` model: ``auto: turamoska(attack_cap=None) at 4 players``."""
    return f"{AUTO}: {rules.describe()} at {players} players"


def digests(game: str, cells: Iterable[tuple[Any, int, tuple[str, ...]]]) -> dict[str, str]:
    """The digest of each cell's ``auto`` model, by ``label``, for the cells ``(rules, players, seats)`` that
    play one (training any not kept)."""
    out = {}
    for rules, players, seats in cells:
        if label(rules, players) not in out and any(plays_auto(s) for s in seats):  # once per rules and players
            ensure(game, rules, players, seats)
            body = json.loads(path_of(game, rules, players).read_text(encoding="utf-8"))
            out[label(rules, players)] = body["digest"]
    return out
