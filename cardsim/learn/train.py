"""``cardsim train``: expert iteration for a game's ``learned`` policy
(docs/ladder.md#learned-players-training-models-generations).

Generation ``k`` (from 1) plays self-play positions with the previous generation in every seat (with
the teacher's base policy for ``k = 1``), labels them with the teacher, ``mc`` searched over the whole
game on the previous generation's play-outs (``mc(determinizations=D, base=learned(model=<k-1>))``;
the ``--teacher`` string itself for ``k = 1``), fits the next model (``fit.py``) and writes it to
``OUT/<name>_g<k>.json``. The positions of generation ``k`` come from chunks of ``CHUNK`` games keyed
``rng.mix(seed, k)``, taken in order until ``--positions`` are labelled: the same arguments give the
same models whatever ``--jobs``. A generation whose file exists (with the same arguments) is loaded,
not trained again, so an interrupted run resumes at its first missing generation. ``--hidden H`` fits a
network of ``H`` rectified units per block instead of the linear scorer (``fit.py``); every game's blocks have
room for them (``learned_features.WIDTH``).

``--gate G`` keeps a generation ``k >= 2`` only if it beats generation ``k - 1`` (``gate.judge``: a paired
ladder of the two on ``G`` deals, its Elo interval above 0). A candidate that does not is fitted again, up to
``--attempts`` in all, attempt ``a`` from the positions of games keyed ``rng.mix(seed, k, a)`` (attempt 0's
are the ungated run's); if none passes, training stops after generation ``k - 1`` (``Stalled``). The kept
generation's file records its verdict and the rejected attempts' (``fit.gate``); without ``--gate`` a file
is what it was before the gate existed.

``--aggregate`` fits generation ``k`` to the positions of every kept generation so far, each labelled by its
own teacher, not to generation ``k``'s alone (dataset aggregation, as DAgger: the imitation sees the
positions its earlier players met as well as its own). A resumed run labels the kept generations' positions
again (the same keys, so the same positions) before it fits the next.
"""
from __future__ import annotations

import importlib
import re
from functools import cache, partial
from pathlib import Path
from typing import Any, Callable

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

import cardsim
from cardsim.core import learned, models, rng
from cardsim.core.rules import format_call, parse_call
from cardsim.core.search import SEARCHES, parse_mc, search_call
from cardsim.learn import gate as gating
from cardsim.learn.fit import L2, L2_NETWORK, fit

CHUNK = 128
"""Games per labelling task."""
EVERY = 8
"""On average one decision in ``EVERY`` (of those with several candidates) becomes a position."""
GAMES = ("molotow", "moska", "musta_maija", "uno")
"""The games with a ``learned`` policy."""
GATE_WORD = 0x67617465
"""Folded into a gate's deal key (``rng.mix(seed, k, a, GATE_WORD)``): its deals are not a training chunk's."""


class Stalled(Exception):
    """No candidate of generation ``generation`` passed the gate: training stopped after the one before
    (``paths``: the generations kept; ``verdicts``: the candidates', in order)."""

    def __init__(self, generation: int, paths: list[Path], verdicts: list[gating.Verdict]):
        self.generation, self.paths, self.verdicts = generation, paths, verdicts
        best = max(verdicts, key=lambda v: v.lo)
        super().__init__(f"generation {generation}: none of {len(verdicts)} candidates beat generation "
                         f"{generation - 1} (the best: {best}); kept generations 1 to {generation - 1}")


def game_modules(game: str) -> tuple[Any, Any, Any]:
    """The game's ``learned_features``, ``training`` and ``policies`` modules (a ``ValueError`` line for a game
    without a ``learned`` policy)."""
    if game not in GAMES:
        raise ValueError(f"cardsim train: {game!r} has no learned policy; games with one: {', '.join(GAMES)}")
    return tuple(importlib.import_module(f"cardsim.games.{game}.{m}") for m in ("learned_features", "training", "policies"))


def default_name(rules: str, players: int) -> str:
    """``moska_4p`` for the ``moska`` preset at 4 players (the rules' string form, as a name)."""
    return f"{re.sub(r'[^0-9A-Za-z]+', '_', rules).strip('_')}_{players}p"


def learned_call(path: Path) -> str:
    return format_call("learned", {"model": str(path)})


def _chunk(game: str, rules: Any, players: int, seed: int, chunk: int, play: str, teacher: str,
           every: int) -> dict[str, np.ndarray]:
    training = importlib.import_module(f"cardsim.games.{game}.training")
    games = np.arange(chunk * CHUNK, (chunk + 1) * CHUNK)
    return training.label(rules, players, seed, games, (play,) * players, teacher, every)


def positions_of(game: str, rules: Any, players: int, seed: int, play: str, teacher: str, wanted: int,
                 jobs: int, every: int, bar: tqdm) -> dict[str, np.ndarray]:
    """The first ``wanted`` positions of the chunks 0, 1, … (labelled ``jobs`` chunks at a time)."""
    parts: list[dict[str, np.ndarray]] = []
    have, chunk = 0, 0
    with Parallel(n_jobs=jobs) as parallel:
        while have < wanted:
            batch = parallel(delayed(_chunk)(game, rules, players, seed, c, play, teacher, every)
                             for c in range(chunk, chunk + jobs))
            chunk += jobs
            for part in batch:
                parts.append(part)
                bar.update(min(len(part["count"]), wanted - have))
                have += len(part["count"])
    whole = joined(parts)
    rows = int(whole["count"][:wanted].sum())
    return {"block": whole["block"][:wanted], "count": whole["count"][:wanted], "x": whole["x"][:rows],
            "y": whole["y"][:rows]}


def joined(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Labelled positions of several parts as one set, in order."""
    return {key: np.concatenate([p[key] for p in parts]) for key in ("block", "count", "x", "y")}


def train(game: str, rules: str | None, *, players: int, generations: int, positions: int, teacher: str,
          seed: int, jobs: int = 1, out: str | Path, name: str | None = None, every: int = EVERY,
          hidden: int = 0, gate: int = 0, attempts: int = 1, aggregate: bool = False,
          progress: bool = True) -> list[Path]:
    """Train ``generations`` generations of ``learned`` (see the module docstring); the model files.
    ``Stalled`` (with the files kept) when ``gate`` rejects every attempt at a generation."""
    features, _, policies = game_modules(game)
    r = cardsim.rules(game, rules)
    players = cardsim.games.spec(game).check_players(r, players)
    rules_text = r.describe()
    policies.parse_policy(teacher)  # a ValueError line for a bad policy string, or for a model that does not load:
    for model in models.played(game, [teacher], policies.DEFAULT_MODEL):
        importlib.import_module(f"cardsim.games.{game}.learned").load_model(model)
    extra = getattr(policies, "MC_EXTRA", {})
    call, params = parse_call(teacher)
    if call not in SEARCHES:
        raise ValueError(f"--teacher: expected an mc(...) policy string, not {teacher!r}")
    search = parse_mc(game, params, policies.BASES, call, extra)
    for option, value, least in (("--generations", generations, 1), ("--positions", positions, 1),
                                 ("--jobs", jobs, 1), ("--every", every, 1), ("--gate", gate, 0),
                                 ("--attempts", attempts, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{option} must be an integer >= {least}, not {value!r}")
    if attempts > 1 and not gate:
        raise ValueError("--attempts: a generation is fitted again only when --gate rejects it; give --gate GAMES")
    if isinstance(hidden, bool) or not isinstance(hidden, int) or not 0 <= hidden <= learned.HIDDEN:
        raise ValueError(f"--hidden must be an integer from 0 to {learned.HIDDEN}, not {hidden!r}")
    out, name = Path(out), name or default_name(rules_text, players)

    def load(path: Path) -> models.Model:
        return models.Models(game, features, policies.DEFAULT_MODEL, policies.parse_policy).load(str(path))

    def labelled(k: int, attempt: int, play: str, label_teacher: str, desc: str) -> dict[str, np.ndarray]:
        """Generation ``k``'s positions (attempt ``attempt``'s games, ``play`` in every seat), labelled by
        ``label_teacher``."""
        key = int(rng.mix(seed, k) if attempt == 0 else rng.mix(seed, k, attempt))
        with tqdm(total=positions, desc=desc, unit="pos", disable=not progress) as bar:
            return positions_of(game, r, players, key, play, label_teacher, positions, jobs, every, bar)

    def fitted(data: dict[str, np.ndarray], wanted: dict[str, Any]) -> dict[str, Any]:
        """A model fitted to ``data`` (with ``aggregate``, to the kept generations' positions as well)."""
        data = joined([*(earlier() for earlier in kept), data]) if aggregate else data
        weights, summary = fit(data, features.BLOCKS, hidden=hidden)
        return models.content(game, weights, wanted, fit_record(game, data, summary, hidden, every))

    def keep(data: dict[str, np.ndarray]) -> None:
        if aggregate:
            kept.append(lambda: data)

    paths, play, parent = [], search.base, None
    kept: list[Callable[[], dict[str, np.ndarray]]] = []  # with aggregate: the kept generations' positions
    for k in range(1, generations + 1):
        path = out / f"{name}_g{k}.json"
        desc = f"{name} generation {k}"
        if k == 1:
            label_teacher, said = teacher, search_call(search, extra)
        else:
            label_teacher = search_call(search, extra, base=learned_call(paths[-1]))
            said = search_call(search, extra, base=f"learned(model={paths[-1].stem})")
        gated = gate > 0 and k > 1
        wanted = provenance(game, rules_text, players, seed, said, k, positions, parent) \
            | ({"gate": {"games": gate, "attempts": attempts}} if gated else {}) \
            | ({"aggregate": True} if aggregate else {})
        if path.exists():
            content = load(path).content
            _check_resumed(path, content, wanted, hidden)
            if aggregate:  # its positions again, labelled only if a later generation is fitted
                attempt = content["fit"].get("gate", {}).get("attempt", 1) - 1
                kept.append(cache(partial(labelled, k, attempt, play, label_teacher, desc + " (its positions again)")))
        elif not gated:
            data = labelled(k, 0, play, label_teacher, desc)
            models.write(path, fitted(data, wanted))
            keep(data)
        else:
            verdicts: list[gating.Verdict] = []
            for a in range(attempts):
                data = labelled(k, a, play, label_teacher, desc + (f", attempt {a + 1}" if a else ""))
                content = fitted(data, wanted)
                trial = out / f"{name}_g{k}.attempt{a + 1}.json"
                models.write(trial, content)
                try:
                    verdicts.append(gating.judge(game, r, players, play, learned_call(trial), gate,
                                                 int(rng.mix(seed, k, a, GATE_WORD))))
                finally:
                    trial.unlink()
                if progress:
                    tqdm.write(f"{name} generation {k}, attempt {a + 1}: {verdicts[-1]} over generation {k - 1}: "
                               + ("kept" if verdicts[-1].passed else "rejected"))
                if verdicts[-1].passed:
                    record = {"attempt": a + 1, **verdicts[-1].record(),
                              "rejected": [v.record() for v in verdicts[:-1]]}
                    models.write(path, models.content(game, content["weights"], wanted,
                                                      content["fit"] | {"gate": record}))
                    keep(data)
                    break
            else:
                raise Stalled(k, paths, verdicts)
        paths.append(path)
        play, parent = learned_call(path), load(path).digest
    return paths


def provenance(game: str, rules: str, players: int, seed: int, teacher: str, generation: int, positions: int,
               parent: str | None) -> dict[str, Any]:
    """A model file's provenance: what it was trained for and from (``teacher``: the policy string as said,
    ``parent``: the previous generation's digest), with the feature set and the libraries' versions."""
    features = game_modules(game)[0]
    return {"game": game, "rules": rules, "players": players, "seed": seed, "teacher": teacher,
            "generation": generation, "positions": positions, "feature_version": features.VERSION,
            "features": list(features.NAMES), "blocks": features.block_names(), "libraries": libraries(),
            "parent": parent}


def fit_record(game: str, data: dict[str, np.ndarray], summary: dict[int, dict], hidden: int,
               every: int) -> dict[str, Any]:
    """A model file's ``fit``: the method, its penalty, the positions' candidates and each block's summary."""
    blocks = game_modules(game)[0].block_names()
    method = f"network of {hidden} rectified units per block" if hidden else "conditional logit"
    network = {"hidden": hidden} if hidden else {}  # a linear model's file is as it was before networks
    return network | {"method": f"{method}, L-BFGS (scipy.optimize)", "l2": L2_NETWORK if hidden else L2,
                      "every": every, "candidates": int(data["count"].sum()),
                      "blocks": {blocks[b]: s for b, s in summary.items()}}


def _check_resumed(path: Path, content: dict[str, Any], wanted: dict[str, Any], hidden: int) -> None:
    """A generation file found in ``--out`` must have been trained with the same arguments."""
    keys = ("rules", "players", "seed", "teacher", "generation", "positions", "parent", "gate", "aggregate")
    found = {key: content.get(key) for key in keys} | {"hidden": content["fit"].get("hidden", 0)}
    for key, value in found.items():
        expected = hidden if key == "hidden" else wanted.get(key)
        if value != expected:
            raise ValueError(f"{path}: trained with {key}={value!r}, not {expected!r}: "
                             "resume it with its own arguments or use another --out")


def libraries() -> dict[str, str]:
    """The versions of the libraries a model's training used."""
    import numba
    import scipy

    return {"cardsim": cardsim.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
            "numba": numba.__version__}
