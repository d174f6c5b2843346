"""A tiny stand-in game for the study layer's tests: "last seat standing".

Not a real card game and not registered in cardsim: tests install it with
``install(monkeypatch)``. Every seat starts with ``lives`` lives (the dealer, seat 0,
with ``dealer_lives`` more); the seats take turns clockwise from seat 1, each turn
taking one life from another seat still alive — the ``random`` policy picks one
uniformly (one keyed draw ``draw(key, POLICY, turn, 0)`` indexing the alive seats
in seat order), ``greedy`` the one with the most lives (lowest seat on ties). The
last seat alive is the loser; ``max_turns`` (None = no limit) truncates.
"""
import sys
from dataclasses import dataclass
from typing import ClassVar

import cardsim.games
from cardsim.core import rng
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, SHEDDING, Replay
from cardsim.core.rules import Rules, knob, parse_call

NAME = "fakegame"

STUDY = """\
name = "fake_study"
description = "the fake game under three variants"
game = "fakegame"
seed = 11
games = 40
players = [2, 3]
policies = ["random", ["greedy", "random", "random"]]
baseline = "plain"
engine = "compiled"

[variants.plain]
preset = "plain"

[variants.sturdy]
preset = "sturdy_dealer"

[variants.unlimited_short]
preset = "short"
max_turns = "None"
"""
"""A study file of the fake game: 3 variants (one with a None override), 2 player counts, 2 policies."""


def edit(text: str = STUDY, **edits: str) -> str:
    """``text`` with the first occurrence of each ``old`` replaced by ``new``; fails when absent."""
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


@dataclass(frozen=True)
class FakeRules(Rules):
    GAME: ClassVar[str] = NAME
    PRESETS: ClassVar[dict] = {"plain": {}, "sturdy_dealer": {"dealer_lives": 2}, "short": {"max_turns": 3}}
    DEFAULT_PRESET: ClassVar[str] = "plain"

    lives: int = knob(2, "lives of every seat", minimum=1, maximum=9)
    dealer_lives: int = knob(0, "extra lives of the dealer", minimum=0, maximum=9)
    max_turns: int | None = knob(None, "turns before truncation (None = no limit)", minimum=1, allow_none=True,
                                 type=int)


def play(rules: FakeRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Replay:
    for p in policies:
        if parse_call(p)[1]:
            raise ValueError(f"fakegame policy {p!r} takes no parameters")
    key = rng.game_key(seed, game)
    lives = [rules.lives + (rules.dealer_lives if s == 0 else 0) for s in range(players)]
    turn, actor, first_out = 0, 1 % players, -1
    while sum(x > 0 for x in lives) > 1 and (rules.max_turns is None or turn < rules.max_turns):
        others = [s for s in range(players) if lives[s] > 0 and s != actor]
        if parse_call(policies[actor])[0] == "random":
            target = others[rng.below(rng.draw(key, rng.Stream.POLICY, turn, 0), len(others))]
        else:
            target = max(others, key=lambda s: (lives[s], -s))
        lives[target] -= 1
        if lives[target] == 0 and first_out < 0:
            first_out = target
        turn += 1
        actor = next(s % players for s in range(actor + 1, actor + players + 1) if lives[s % players] > 0)
    alive = [s for s in range(players) if lives[s] > 0]
    truncated = len(alive) > 1
    record = {"game": game, "turns": turn, "truncated": truncated, "loser": -1 if truncated else alive[0],
              "rounds": -(-turn // players), "first_out": first_out}
    return Replay(NAME, record)


GAME = GameSpec(NAME, FakeRules, 2, 6, ("random", "greedy"), COMMON + SHEDDING, play)


def install(monkeypatch) -> None:
    """Register the fake game for this test only (``cardsim.games.register``, undone after the test)."""
    monkeypatch.setattr(cardsim.games, "GAMES", cardsim.games.GAMES)
    monkeypatch.setattr(cardsim.games, "_REGISTERED", dict(cardsim.games._REGISTERED))
    cardsim.games.register(GAME)


if __name__ == "__main__":  # `python fakegame.py [--pause POINT:MARKER] run STUDY ...`: the CLI with the fake game
    import pytest

    from cardsim import cli
    from killing import PauseAt

    install(pytest.MonkeyPatch())
    argv, hooks = sys.argv[1:], None
    if argv[:1] == ["--pause"]:
        hooks, argv = PauseAt(False, *argv[1].split(":", 1)), argv[2:]
    sys.exit(cli.main(argv, hooks=hooks))
