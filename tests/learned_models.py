"""Model files for the four games' ``learned`` tests (tests/<game>/test_learned.py, tests/test_learned_models.py).

The tests write their own models (random weights under ``tmp_path``), so they do not depend on what the
committed models learned; ``spoilt`` breaks a written file in each way a user's file can be broken.
"""
from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from cardsim.core import models
from cardsim.core.rules import format_call, normal_call
from cardsim.learn.train import train


class ModelFiles:
    """Writes model files of one game whose features are ``features`` (its ``learned_features`` module)."""

    def __init__(self, game: str, features: ModuleType, rules: str | None = None):
        self.game, self.features = game, features
        self.provenance = dict(rules=rules or game, players=4, seed=0, teacher="none", generation=0, parent=None,
                               positions=0, feature_version=features.VERSION, features=list(features.NAMES),
                               blocks=features.block_names(), libraries={})

    @property
    def shape(self) -> tuple[int, int]:
        return self.features.BLOCKS, self.features.N

    def load(self, path: Path) -> models.Model:
        """The model file at ``path``, read by the game's engine."""
        return models.Models(self.game, self.features, "", lambda text: None).load(str(path))

    def write(self, path: Path, weights: np.ndarray, **provenance) -> Path:
        models.write(path, models.content(self.game, weights, self.provenance | provenance, {}))
        return path

    def random(self, path: Path, seed: int) -> Path:
        return self.write(path, np.random.default_rng(seed).normal(size=self.shape))

    def network(self, path: Path, seed: int) -> Path:
        """A random network (``core.learned.HIDDEN`` units per block; the last unit's output weight 0, so the
        engine skips it)."""
        weights = np.random.default_rng(seed).normal(size=(self.features.BLOCKS, self.features.WIDTH))
        weights[:, -1] = 0.0
        return self.write(path, weights)

    def folder(self, tmp_path_factory) -> Path:
        """Three random models (``r0.json`` .. ``r2.json``), a zero one (``zero.json``) and a random network
        (``n0.json``)."""
        d = tmp_path_factory.mktemp("models")
        for k in range(3):
            self.random(d / f"r{k}.json", k)
        self.write(d / "zero.json", np.zeros(self.shape))
        self.network(d / "n0.json", 0)
        return d


def check_committed_families(game: str, rules: str, families: set[str], load) -> None:
    """The committed models of ``game``, each read by ``load`` (the game's ``load_model``, which checks its
    features against the engine's): each family (``NAME_g1``, ``_g2``, ...) is one training run under
    ``rules`` at 4 players, generations 1 to n each naming the one before as its parent, with its teacher,
    positions and library versions; a family whose name ends ``_agg`` was fitted with ``--aggregate``."""
    members: dict[str, list[tuple[int, str]]] = {}
    for name in models.names(game):
        family, generation = name.rsplit("_g", 1)
        members.setdefault(family, []).append((int(generation), name))
    assert set(members) == families
    for family, chain in members.items():
        parent = None
        for k, (generation, name) in enumerate(sorted(chain), start=1):
            content = load(name).content
            assert generation == k and (content["game"], content["rules"], content["players"], content["generation"]) \
                == (game, rules, 4, k)
            assert content["positions"] > 0 and "mc(" in content["teacher"] and content["parent"] == parent
            assert set(content["libraries"]) >= {"numpy", "scipy", "numba", "cardsim"}
            assert content.get("aggregate", False) == family.endswith("_agg")
            parent = content["digest"]


def trained_network(game: str, features: ModuleType, folder: Path) -> Path:
    """``cardsim train GAME --hidden 2`` (one small generation under the game's default rules, 4 players, into
    ``folder``): every block a network's width, units fitted where a block has the positions, and resuming it
    with another ``--hidden`` refused. Returns the model file, for the caller to play."""
    args = dict(players=4, generations=1, positions=1500, teacher="mc(determinizations=2)", seed=3, every=2,
                progress=False)
    [path] = train(game, game, out=folder, hidden=2, **args)
    content = json.loads(path.read_text())
    assert content["fit"]["hidden"] == 2 and "network of 2 rectified units" in content["fit"]["method"]
    assert {len(row) for row in content["weights"]} == {features.WIDTH}
    assert any(b.get("units") == 2 for b in content["fit"]["blocks"].values())
    with pytest.raises(ValueError, match=f"{game}_4p_g1.json: trained with hidden=2, not 0"):
        train(game, game, out=folder, **args)
    return path


def learned(path, **more) -> str:
    """The policy text that seats the model file ``path``."""
    return normal_call(format_call("learned", {"model": str(path), **more}))


def _rewritten(path: Path, **changes) -> None:
    """The file with ``changes`` and a digest that matches them: a well-formed model, wrong for its reader."""
    body = json.loads(path.read_text()) | changes
    path.write_text(json.dumps(body | {"digest": models.digest(body)}))


def _corrupt(path: Path) -> None:
    body = json.loads(path.read_text())
    body["weights"][0][0] += 1
    path.write_text(json.dumps(body))


def spoilt(game: str, other_game: str, features: ModuleType) -> list[tuple]:
    """(spoil the file at a path, the message's part) for each way a model file of ``game`` can be wrong."""
    return [
        (lambda p: p.write_text(p.read_text()[:200]), "not a model file (truncated or corrupt JSON"),
        (_corrupt, "model file is corrupt (its content does not match its digest)"),
        (lambda p: _rewritten(p, game=other_game), f"a model of {other_game}, not of {game}"),
        (lambda p: _rewritten(p, feature_version=features.VERSION + 1), "do not match this engine's"),
        (lambda p: _rewritten(p, weights=[row + [0.0] for row in json.loads(p.read_text())["weights"]]),
         f"weights must be {features.BLOCKS} rows of"),
        (lambda p: p.unlink(), f"no such {game} model"),
    ]
