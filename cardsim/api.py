"""The public API: ``presets``, ``rules``, ``simulate``, ``replay``.

Scripts, notebooks, the CLI and the study layer all go through these four
functions; nothing here knows the rules of any game.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, GameSpec, integer_expected
from cardsim.core.records import Replay, frame
from cardsim.core.rules import Rules
from cardsim.games import spec
from cardsim.learn import auto
from cardsim.play import runner
from cardsim.play.user import is_user_seat

ENGINES = ("compiled", "reference")
ALIASES = {"vector": "compiled"}
"""Engine names of earlier versions: ``"vector"`` (the numpy lockstep engines) now runs the compiled one."""
CHUNK = 20_000
"""Games per compiled-engine call: memory follows the chunk, not the study."""


def presets(game: str) -> dict[str, Rules]:
    """The named variants of ``game``, e.g. ``presets("moska")["turamoska"]``."""
    return spec(game).rules.presets()


def rules(game: str, preset: str | Rules | None = None, **knobs: Any) -> Rules:
    """Rules of ``game`` from a preset name, a string form or a rules object, plus knobs.

    ``rules("moska", "turamoska", attack_cap=None)`` and
    ``rules("moska", "turamoska(attack_cap=None)")`` are the same rules.
    """
    cls = spec(game).rules
    if preset is None:
        base = cls.preset(cls.DEFAULT_PRESET)
    elif isinstance(preset, Rules):
        if not isinstance(preset, cls):
            raise ValueError(f"rules for {preset.GAME} given where {game} rules are needed")
        base = preset
    elif isinstance(preset, str):
        base = cls.parse(preset)
    else:
        raise ValueError(f"rules must be a preset name, a string form or a {cls.__name__}, not {preset!r}")
    return base.replace(**knobs)


def simulate(game: str, rules: str | Rules | None = None, /, *, players: int = 4, games: int = 1000,
             seed: int = 0, policy: str | Sequence[str] = "random", engine: str = "compiled",
             first_game: int = 0, n_jobs: int = 1, progress: bool = False,
             chunk_size: int = CHUNK) -> pd.DataFrame:
    """Play games ``first_game .. first_game + games - 1``; one row per game.

    The rows depend only on (game, rules, players, policy, seed, game index): not on
    the engine, ``n_jobs`` or ``chunk_size``.
    """
    g, r, players, seats = _resolve(game, rules, players, policy)
    _check_count("seed", seed, limit=SEED_LIMIT)
    _check_count("games", games, limit=GAME_LIMIT)
    _check_count("first_game", first_game, limit=GAME_LIMIT - int(games))
    games, seed, first_game = int(games), int(seed), int(first_game)
    engine = engine_name(engine)
    if not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1 = all cores), not {n_jobs!r}")
    _check_count("chunk_size", chunk_size, minimum=1)
    if engine == "compiled" and g.compiled is None:
        engine = "reference"
    size = chunk_size if engine == "compiled" else max(1, min(chunk_size, 500))
    starts = list(range(first_game, first_game + games, size))
    chunks = [np.arange(s, min(s + size, first_game + games), dtype=np.int64) for s in starts]
    auto.ensure(game, r, players, seats, jobs=n_jobs, progress=progress)
    parts = run_chunks(game, r, players, seed, seats, engine, chunks, n_jobs=n_jobs, progress=progress)
    if not parts:
        return frame({c.name: np.empty(0) for c in g.columns}, g.columns)
    return pd.concat(parts, ignore_index=True)


def run_chunk(game: str | GameSpec, rules: Rules, players: int, seed: int, seats: tuple[str, ...],
              engine: str, games: np.ndarray) -> pd.DataFrame:
    """One chunk of game indices on one engine, as a DataFrame (a joblib task).

    ``game`` is a registered name or a ``GameSpec`` itself, which a worker process
    then needs not look up (a game outside the registry, e.g. a test double).
    """
    g = game if isinstance(game, GameSpec) else spec(game)
    seats = auto.resolve(g.name, rules, players, seats)  # learned(model=auto): the cell's own model file
    if any(is_user_seat(p) for p in seats):  # a user's seat: the step API, in Python (cardsim.play.runner)
        return frame(list(runner.records(g.name, rules, players, seed, seats, games)), g.columns)
    if engine == "compiled":
        return frame(g.compiled(rules, players, seed, games, seats), g.columns)
    return frame((g.play(rules, players, seed, int(i), seats).record for i in games), g.columns)


def warm(game: str | GameSpec, rules: Rules, players: int, seed: int, seats: tuple[str, ...], engine: str) -> None:
    """Play game 0 here before workers start: a compiled engine is compiled (or loaded from its
    cache) once, in this process, and the workers then load it from the cache."""
    if engine == "compiled":
        run_chunk(game, rules, players, seed, seats, engine, np.zeros(1, dtype=np.int64))


def run_chunks(game: str, rules: Rules, players: int, seed: int, seats: tuple[str, ...], engine: str,
               chunks: list[np.ndarray], *, n_jobs: int = 1, progress: bool = False,
               backend: str | None = None) -> list[pd.DataFrame]:
    """Run chunks in order, in this process or with joblib, with a tqdm bar of games."""
    from joblib import Parallel, delayed
    from cardsim.core.progress import bar as progress_bar

    bar = progress_bar(total=sum(len(c) for c in chunks), disable=not progress, unit="game", unit_scale=True,
               desc=f"{game} {players}p")
    out = []
    if n_jobs == 1 and backend is None:
        for c in chunks:
            out.append(run_chunk(game, rules, players, seed, seats, engine, c))
            bar.update(len(c))
    else:
        warm(game, rules, players, seed, seats, engine)
        tasks = (delayed(run_chunk)(game, rules, players, seed, seats, engine, c) for c in chunks)
        with Parallel(n_jobs=n_jobs, backend=backend, return_as="generator") as parallel:
            for df in parallel(tasks):
                out.append(df)
                bar.update(len(df))
    bar.close()
    return out


def engine_name(engine: object) -> str:
    """``"compiled"`` or ``"reference"`` (``"vector"`` is an alias of ``"compiled"``); else a ``ValueError``."""
    engine = ALIASES.get(engine, engine) if isinstance(engine, str) else engine
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known engines: {', '.join(ENGINES)} (\"vector\" = compiled)")
    return engine


def replay(name: str, rules: str | Rules | None = None, /, *, game: int, players: int = 4, seed: int = 0,
           policy: str | Sequence[str] = "random") -> Replay:
    """Replay game ``game`` of ``name`` with the reference engine; ``print()`` shows every move.
    A game with a user seat is stepped on the step API instead, one line per decision.

    ``replay("moska", r, players=4, seed=7, game=812_339).record`` equals that game's
    row of ``simulate`` with the same arguments.
    """
    g, r, players, seats = _resolve(name, rules, players, policy)
    _check_count("seed", seed, limit=SEED_LIMIT)
    _check_count("game", game, limit=GAME_LIMIT)
    seats = auto.resolve(g.name, r, players, seats)
    if any(is_user_seat(p) for p in seats):  # stepped on the step API: one event per decision
        return runner.replay(g.name, r, players, int(seed), int(game), seats)
    return g.play(r, players, int(seed), int(game), seats)


def _resolve(game: str, rules_: str | Rules | None, players: int, policy: str | Sequence[str]):
    g = spec(game)
    r = rules(game, rules_)
    players = g.check_players(r, players)
    return g, r, players, g.seat_policies(policy, players)


def _check_count(name: str, value: object, minimum: int = 0, limit: int | None = None) -> None:
    expected = integer_expected(value, minimum, limit)
    if expected:
        raise ValueError(f"{name} must be {expected}, not {value!r}")
