"""The conformance suite every game passes: ``check_game(spec)`` in one line of a test.

A game (built-in, or a package registered through the ``cardsim.games`` entry-point group,
docs/add_a_game.md) is held to what the library promises of every game's records:

- **schema**: the record columns and dtypes are the ``GameSpec``'s, on every engine;
- **determinism**: the same arguments give the same records, whatever Python's or numpy's
  global random state; other seeds give other games;
- **game i is game i**: a slice (``first_game``) or another chunk size gives the same rows;
- **replay = batch**: the reference engine's replay of game i has the batch's row i, and its
  events are well formed (decisions numbered 0 .. turns-1 in order, no negative hand size);
  a game's own independent ``checker`` (card conservation and legal moves from the events,
  written from its rules page: decks differ, so only the game can say) runs on every replay;
- **reference = compiled**: where a game has a compiled engine, both give the same records
  on every preset, player count and policy;
- **errors**: an unknown policy and a player count outside the game's are one-line ``ValueError``s.

Each check raises ``AssertionError`` naming the game, the check and what differs.
``checks(spec)`` lists them (name, callable) for a test that reports each on its own.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

import numpy as np
import pandas as pd

from cardsim.api import replay, simulate
from cardsim.core.game import GameSpec
from cardsim.core.rules import parse_call

Checker = Callable[[pd.DataFrame, dict, dict, int], None]
"""A game's independent replay checker: ``checker(events, record, knobs, players)`` (``knobs``: the rules'
``to_dict()``) raises on a broken rule."""

SEARCHING = ("mc",)
"""Policies too slow for the suite's many games; each is played on two games only."""


def check_game(game: GameSpec, *, games: int = 24, seed: int = 5, checker: Checker | None = None) -> None:
    """Run every conformance check on ``game`` (a ``GameSpec`` registered in ``cardsim.games``)."""
    for _, check in checks(game, games=games, seed=seed, checker=checker):
        check()


def checks(game: GameSpec, *, games: int = 24, seed: int = 5,
           checker: Checker | None = None) -> Iterator[tuple[str, Callable[[], None]]]:
    """The checks of ``check_game``, as (name, callable) pairs."""
    suite = _Suite(game, games, seed, checker)
    for name in ("schema", "determinism", "game_i_is_game_i", "replay_is_the_batch_row",
                 "reference_equals_compiled", "errors"):
        yield name, getattr(suite, name)


class _Suite:
    def __init__(self, game: GameSpec, games: int, seed: int, checker: Checker | None) -> None:
        self.g, self.games, self.seed, self.checker = game, games, seed, checker
        self.players = sorted({game.min_players, min(game.max_players, max(game.min_players, 4))})
        self.plain = [p for p in game.policies if p not in SEARCHING]
        self.presets = game.rules.presets()

    def sim(self, rules=None, **kw) -> pd.DataFrame:
        kw = {"players": self.players[-1], "games": self.games, "seed": self.seed, "policy": self.plain[0], **kw}
        return simulate(self.g.name, rules, **kw)

    def fail(self, check: str, what: str) -> None:
        raise AssertionError(f"{self.g.name}: {check}: {what}")

    def engines(self) -> tuple[str, ...]:
        return ("reference", "compiled") if self.g.compiled is not None else ("reference",)

    def schema(self) -> None:
        names, dtypes = [c.name for c in self.g.columns], [c.dtype for c in self.g.columns]
        for engine in self.engines():
            df = self.sim(engine=engine, games=4)
            if list(df.columns) != names or [str(t) for t in df.dtypes] != dtypes:
                self.fail("schema", f"the {engine} engine's columns {dict(df.dtypes.astype(str))} are not the "
                                    f"GameSpec's {dict(zip(names, dtypes))}")
            if df.game.tolist() != list(range(4)):
                self.fail("schema", f"the game column is {df.game.tolist()}, not the game indices 0..3")

    def determinism(self) -> None:
        random.seed(1)
        np.random.seed(1)
        a = self.sim()
        random.seed(99)
        np.random.seed(99)
        random.random(), np.random.random()
        if not a.equals(self.sim()):
            self.fail("determinism", "the same arguments gave other records (a draw outside cardsim.core.rng?)")
        if a.drop(columns="game").equals(self.sim(seed=self.seed + 1).drop(columns="game")):
            self.fail("determinism", f"seeds {self.seed} and {self.seed + 1} gave the same games")

    def game_i_is_game_i(self) -> None:
        whole = self.sim()
        tail = self.sim(first_game=7, games=self.games - 7).reset_index(drop=True)
        if not whole.iloc[7:].reset_index(drop=True).equals(tail):
            self.fail("game_i_is_game_i", "games 7.. played alone differ from the same games in a longer run")
        if not whole.equals(self.sim(chunk_size=5)):
            self.fail("game_i_is_game_i", "another chunk size gave other records")

    def seatings(self, rules) -> list[int]:
        """The suite's player counts that ``rules`` allow, else the first count they allow."""
        def allowed(n: int) -> bool:
            try:
                rules.check_players(n)
            except ValueError:
                return False
            return True
        counts = [n for n in self.players if allowed(n)]
        return counts or [next(n for n in range(self.g.min_players, self.g.max_players + 1) if allowed(n))]

    def replay_is_the_batch_row(self) -> None:
        for name, rules in self.presets.items():
            players = self.seatings(rules)[-1]
            for policy in self.plain:
                df = self.sim(rules, players=players, policy=policy, engine="reference", games=4)
                for i in range(4):
                    t = replay(self.g.name, rules, players=players, seed=self.seed, game=i, policy=policy)
                    where = f"{name}, game {i}, {policy}"
                    if t.record != df.iloc[i].to_dict():
                        self.fail("replay_is_the_batch_row", f"{where}: the replay's record {t.record} is not the "
                                                             f"batch row {df.iloc[i].to_dict()}")
                    self.events_are_well_formed(t, where, rules, players)

    def events_are_well_formed(self, t, where: str, rules, players: int) -> None:
        events = t.events
        decisions = [int(d) for d in events.decision.dropna()]
        if sorted(set(decisions)) != list(range(t.record["turns"])) or decisions != sorted(decisions):
            self.fail("replay_is_the_batch_row", f"{where}: decisions are not numbered 0 .. turns-1 in order")
        if any(int(n) < 0 for sizes in events.hand_sizes for n in sizes.split()):
            self.fail("replay_is_the_batch_row", f"{where}: a negative hand size")
        if self.checker is not None:
            self.checker(events, t.record, rules.to_dict(), players)

    def reference_equals_compiled(self) -> None:
        if self.g.compiled is None:
            return
        for name, rules in self.presets.items():
            for players in self.seatings(rules):
                for policy in self.g.policies:
                    n = 2 if parse_call(policy)[0] in SEARCHING else self.games
                    kw = {"players": players, "policy": policy, "games": n}
                    a, b = self.sim(rules, **kw), self.sim(rules, engine="reference", **kw)
                    if not a.equals(b):
                        rows = (a != b).any(axis=1)
                        self.fail("reference_equals_compiled", f"{name}, {players} players, {policy}: the engines "
                                                               f"differ at games {a.game[rows].tolist()[:5]}")

    def errors(self) -> None:
        for kw, word in (({"policy": "no_such_policy"}, "known policies"),
                         ({"players": self.g.min_players - 1}, "players"),
                         ({"players": self.g.max_players + 1}, "players")):
            try:
                self.sim(games=1, **kw)
            except ValueError as e:
                if word not in str(e) or "\n" in str(e):
                    self.fail("errors", f"{kw}: the error {str(e)!r} is not one line naming {word!r}")
            else:
                self.fail("errors", f"{kw} was accepted")

