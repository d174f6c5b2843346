"""Model files of the ``learned`` policies: read, check, write (docs/design.md#learned-players).

A model is one small JSON file: the weights of a game's scorer over candidate decisions, one row per block
(``cardsim/games/<game>/learned_features.py`` names the features and their blocks): ``N`` linear weights, or
in the games with room for rectified units (``WIDTH`` > ``N``: ``core/learned.py``) a network's ``WIDTH``
numbers; and its provenance: the
game, the rules (string form) and player count it was trained under, the seed, the teacher, the
generation, the positions it was fitted on, the feature set's version and names, the library
versions, ``parent`` (the digest of the previous generation, whose play-outs the teacher searched;
null for the first), and ``digest``, the sha256 of the rest (its canonical JSON). Committed models live in
the package (``cardsim/models/<game>/<name>.json``) and load by name; any other file loads by its
path. Every problem with a file is one ``ValueError`` line naming the file and what is wrong.
"""
from __future__ import annotations

import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from cardsim.core.rules import parse_call

FORMAT = "cardsim-model/1"
MODELS = Path(__file__).resolve().parent.parent / "models"
"""The committed models: ``MODELS/<game>/<name>.json``."""
PROVENANCE = ("game", "rules", "players", "seed", "teacher", "generation", "parent", "positions",
              "feature_version", "features", "blocks", "libraries")
"""The keys every model file holds besides ``format``, ``weights``, ``fit`` and ``digest``."""


@dataclass(frozen=True)
class Learned:
    """The parameter of a ``learned(model=NAME)`` policy string: the model's name or file path."""

    model: str


def parse_learned(game: str, params: dict[str, Any], default: str) -> Learned:
    """``Learned`` from the parameters of ``learned(...)``; ``default`` when no model is named. One
    ``ValueError`` line for an unknown parameter, a model that is not a string, or one that does not load."""
    unknown = sorted(set(params) - {"model"})
    if unknown:
        raise ValueError(f"{game} policy learned has no parameter {unknown[0]!r}; known: model")
    model = params.get("model", default)
    if not isinstance(model, str) or not model:
        raise ValueError(f"{game} policy learned: model={model!r} must be a model name "
                         f"({', '.join(names(game)) or 'none committed'}), a .json path, or auto "
                         "(a model trained for each cell's rules)")
    return Learned(model)


def names(game: str) -> list[str]:
    """The committed models of a game."""
    folder = MODELS / game
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def path_of(game: str, model: str) -> Path:
    """The file of a model: a committed one by name, else a path (it ends in ``.json`` or names a folder)."""
    if model.endswith(".json") or os.sep in model or "/" in model:
        return Path(model)
    return MODELS / game / f"{model}.json"


def digest(content: dict[str, Any]) -> str:
    """``sha256:`` of the canonical JSON (sorted keys, no spaces) of a model's content less its digest."""
    body = {k: v for k, v in content.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Model:
    """A loaded, checked model: where it came from, its content and its weights (float64)."""

    path: Path
    content: dict[str, Any]
    weights: np.ndarray

    @property
    def digest(self) -> str:
        return self.content["digest"]

    def fixed_point(self, scale: int) -> np.ndarray:
        """The weights as int64 ``round(w * scale)``: what the policy table holds."""
        return np.round(self.weights * scale).astype(np.int64)


def load(game: str, model: str, version: int, features: tuple[str, ...], blocks: list[str],
         width: int) -> Model:
    """The model ``model`` (a committed name or a path) of ``game``, checked against the engine's feature set
    (``version``, the feature names, the block names, the ``width`` of a block in the policy table: rows of
    ``len(features)`` linear weights are padded with zeros to it). A ``ValueError`` line for a missing,
    truncated, corrupt or foreign file."""
    if model == "auto":
        raise ValueError(f"{game} policy learned(model=auto) is each cell's own model, resolved where games are "
                         "planned (simulate, replay, studies); here, name a model or a .json path")
    path = path_of(game, model)
    if not path.is_file():
        known = ", ".join(names(game)) or "none committed"
        raise ValueError(f"{path}: no such {game} model (committed models: {known})")
    stat = path.stat()
    return _load(game, path, (stat.st_mtime_ns, stat.st_size), version, features, tuple(blocks), width)


@lru_cache(maxsize=64)
def _load(game: str, path: Path, stamp: tuple[int, int], version: int, features: tuple[str, ...],
          blocks: tuple[str, ...], width: int) -> Model:
    """``load`` of one version of a file (``stamp``: its modification time and size)."""
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not a model file (truncated or corrupt JSON: {err.msg})") from None
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{path}: not a model file (expected format {FORMAT!r})")
    missing = [k for k in (*PROVENANCE, "weights", "digest") if k not in content]
    if missing:
        raise ValueError(f"{path}: model file lacks {missing[0]!r}")
    if content["digest"] != digest(content):
        raise ValueError(f"{path}: model file is corrupt (its content does not match its digest)")
    if content["game"] != game:
        raise ValueError(f"{path}: a model of {content['game']}, not of {game}")
    if content["feature_version"] != version or tuple(content["features"]) != features \
            or tuple(content["blocks"]) != blocks:
        raise ValueError(f"{path}: features version {content['feature_version']} do not match this engine's "
                         f"(version {version}, {len(features)} features in {len(blocks)} blocks); retrain it")
    try:
        weights = np.asarray(content["weights"], dtype=np.float64)
    except (TypeError, ValueError):
        weights = np.zeros(0)
    widths = sorted({len(features), width})
    if weights.ndim != 2 or weights.shape[0] != len(blocks) or weights.shape[1] not in widths \
            or not np.isfinite(weights).all():
        raise ValueError(f"{path}: weights must be {len(blocks)} rows of "
                         f"{' or '.join(map(str, widths))} finite numbers")
    padded = np.zeros((len(blocks), width))
    padded[:, :weights.shape[1]] = weights
    return Model(path, content, padded.reshape(-1))


class OtherRules(UserWarning):
    """A model plays under other rules or another player count than it was trained for. A study's run says it
    once per model in its parent (``untuned``) and silences it where the games are played."""


def _table(rules: str, players: Any) -> str:
    """A table as the other-rules warning and note name it: ``turamoska at 4 players``."""
    return f"{rules} at {players} players"


def warn_rules(model: Model, rules: str, players: int) -> None:
    """A warning when a model is used under other rules or another player count than it was trained for."""
    trained = _table(model.content["rules"], model.content["players"])
    if trained != _table(rules, players):
        warnings.warn(f"{model.path.name}: a model trained for {trained} plays {_table(rules, players)}", OtherRules,
                      stacklevel=3)


def untuned(game: str, cells: Iterable[tuple[str, int, Iterable[str]]], default: str) -> list[str]:
    """One line per model that some of ``cells`` (``(rules.describe(), players, seat policy strings)``) plays
    under other rules or another player count than it was trained for, naming the tables (the first four,
    then how many more): what a study says once before it plays, instead of a warning per cell and worker.
    A file that cannot be read is left to ``load``'s own error."""
    tables: dict[str, dict[str, None]] = {}
    trained: dict[str, str | None] = {}
    for rules, players, seats in cells:
        for model in played(game, seats, default):
            if model not in trained:
                try:
                    content = json.loads(path_of(game, model).read_text(encoding="utf-8"))
                    trained[model] = _table(content["rules"], content["players"])
                except (OSError, ValueError, KeyError, TypeError):
                    trained[model] = None
            if trained[model] not in (None, _table(rules, players)):
                tables.setdefault(model, {})[_table(rules, players)] = None
    return [f"{path_of(game, m).name}: a model trained for {trained[m]} plays {len(t)} other "
            f"table{'s' if len(t) > 1 else ''}: {_some(list(t))}" for m, t in tables.items()]


def _some(names: list[str], shown: int = 4) -> str:
    """The first ``shown`` names, then how many more: a line that stays a line for a factorial's cells."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def content(game: str, weights: np.ndarray, provenance: dict[str, Any], fit: dict[str, Any]) -> dict[str, Any]:
    """A model's content, digest included (``provenance``: the ``PROVENANCE`` keys but ``game``)."""
    provenance = provenance | {"game": game}
    missing = [k for k in PROVENANCE if k not in provenance]
    if missing:
        raise ValueError(f"model provenance lacks {missing[0]!r}")
    body = {"format": FORMAT, **provenance, "fit": fit,
            "weights": [[float(f"{w:.6g}") for w in row] for row in np.asarray(weights)]}
    return body | {"digest": digest(body)}


def write(path: Path, body: dict[str, Any]) -> None:
    """Write a model's content to ``path`` whole (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def played(game: str, policies: Iterable[str], default: str) -> list[str]:
    """The models the policy strings play (``learned(model=X)``, alone or as ``mc``'s base; ``default`` for
    ``learned`` without a model; ``parse_learned``), each once, in the order met."""
    out: dict[str, None] = {}
    for text in policies:
        while True:
            name, params = parse_call(text)
            if name == "learned":
                params.pop("forbid", None)  # a seat's own option, the game's to check
                out[parse_learned(game, params, default).model] = None
            if not isinstance(params.get("base"), str):
                break
            text = params["base"]
    return list(out)


@dataclass(frozen=True)
class Models:
    """One game's models: each loaded against the game's feature set (its ``learned_features`` module:
    ``VERSION``, ``NAMES``, ``block_names()``, ``WIDTH``); ``default`` is ``learned``'s model when none is named; ``check``
    the game's policy-string parser (a ``ValueError`` line for a bad string, before any model is read)."""

    game: str
    features: Any
    default: str
    check: Callable[[str], Any]

    def load(self, model: str) -> Model:
        """The model by name or path, checked against this engine's features (a ``ValueError`` line if not)."""
        f = self.features
        return load(self.game, model, f.VERSION, f.NAMES, f.block_names(), f.WIDTH)

    def warn_other_rules(self, policies: Iterable[str], rules: Any, players: int) -> None:
        """``warn_rules`` for every model the seat policies play (``played``) under ``rules`` (a ``Rules``)."""
        texts = [p for p in policies if isinstance(p, str)]
        for text in texts:
            self.check(text)
        for model in played(self.game, texts, self.default):
            warn_rules(self.load(model), rules.describe(), players)


def digests(game: str, policies: Iterable[str], default: str) -> dict[str, str]:
    """The digest of every model the policy strings play (``played``), by model name: what a study's manifest
    records."""
    out: dict[str, str] = {}
    for model in played(game, policies, default):
        path = path_of(game, model)
        try:
            out[model] = json.loads(path.read_text(encoding="utf-8"))["digest"]
        except (OSError, ValueError, KeyError, TypeError):
            raise ValueError(f"{path}: not a readable {game} model file") from None
    return dict(sorted(out.items()))
